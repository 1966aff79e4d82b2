/* Judging a measured cell against the config's [thresholds]. */
#ifndef LATLAB_THRESHOLDS_H
#define LATLAB_THRESHOLDS_H

#include "cell.h"
#include "config.h"

/*
 * Judge a cell whose status is CELL_OK: a thread with no sample makes it
 * CELL_ERROR ("thread 0 measured nothing: ..."); else the config's
 * thresholds against every thread, and on the first limit broken status
 * CELL_FAIL with the reason ("thread 0 wakeup max = ... > ..."). On an
 * emulated CPU (qemu's TCG) the missed periods are the emulator's pace:
 * the default [thresholds] missed is not applied there, one the config
 * gives is.
 */
void cell_check_thresholds(const struct config *cfg, struct cell_result *res, int emulated);

/* The fewest missed periods [thresholds] missed = judges. */
#define MISSED_MIN 10

#endif
