/* Judging a measured cell against the config's [thresholds]. */
#ifndef LATLAB_THRESHOLDS_H
#define LATLAB_THRESHOLDS_H

#include "cell.h"
#include "config.h"

/*
 * Check the config's thresholds against every thread; on the first limit
 * broken set status CELL_FAIL and the reason ("thread 0 wakeup max = ...
 * > ..."). Only a cell whose status is CELL_OK is judged.
 */
void cell_check_thresholds(const struct config *cfg, struct cell_result *res);

#endif
