/*
 * What a campaign resumes with: the disk's word for each cell an earlier
 * run finished, reconciled with the state's (crash-safe: a crash can
 * leave cells.csv, the state and a cell's files one write apart).
 */
#ifndef LATLAB_RECONCILE_H
#define LATLAB_RECONCILE_H

#include "config.h"
#include "matrix.h"
#include "model.h"
#include "prior.h"

/*
 * Resuming: the cells.csv rows of cell c, which the state (prior) says an
 * earlier run of the campaign in tree finished with status st — if the disk agrees: its rows in cells.csv say
 * st and, for a cell that ran, so does its cell.ini. cells.csv may be
 * older than the state (a crash between its whole writes): then the rows
 * are rebuilt from the directory whose cell.ini says st. NULL when the
 * disk disagrees (said): the cell runs again.
 */
char *reconcile_rows(const struct config *cfg, const char *tree,
		     const struct prior *prior, const struct cell *c,
		     enum cell_status st);

#endif
