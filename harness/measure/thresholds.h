/* Judging a measured cell against the config's [thresholds]. */
#ifndef LATLAB_THRESHOLDS_H
#define LATLAB_THRESHOLDS_H

#include "cell.h"
#include "config.h"

/*
 * Judge cell c, whose status is CELL_OK: a thread with no sample makes
 * it CELL_ERROR ("thread 0 measured nothing: ..."); else the config's
 * thresholds against every thread, and CELL_FAIL with every limit broken
 * in the reason, "; " between ("thread 0 wakeup max = ... > ...; thread 0
 * missed 2.0 % of its periods ..."). A missed period never ran: it is
 * later than any limit below the cell's period of latlab's own figures
 * (the wake-up, the I/O, the response, a step). A limit on a figure the run cannot vouch for
 * (model/vouch.h: `emulated` EMU_TCG, a device's wait on the instruction
 * clock) is not judged, and said in res->unjudged. On an emulated CPU
 * (emulated != 0) the missed periods are the emulator's pace: the default
 * [thresholds] missed is not applied there, one the config gives is.
 */
void cell_check_thresholds(const struct config *cfg, const struct cell *c,
			   struct cell_result *res, int emulated);

/* The fewest missed periods [thresholds] missed = judges. */
#define MISSED_MIN 10

#endif
