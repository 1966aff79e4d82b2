/*
 * What a cell's figures can mean, from its result (model/vouch.h decides):
 * the facts as the measuring side has them — the devices its workload
 * waits for, its status, its clock, its missed periods, what traced it —
 * for cell.ini's [figures] and the thresholds, which judge nothing the
 * run cannot vouch for. The tree reader gathers the same facts from the
 * files (results/tree.c).
 */
#ifndef LATLAB_FIGURES_H
#define LATLAB_FIGURES_H

#include "cell.h"
#include "config.h"
#include "vouch.h"

/* Is a filesystem of this type in RAM (rootfs, tmpfs, ramfs: no block device)? */
int figures_in_ram(const char *fstype);

/*
 * The metrics (METRIC_BITs) of cell c whose figures hold a wait for a
 * device: its workload's (workload_wait_metrics) given the devices the
 * cell has — the disk its file is on where that is not RAM, the cards its
 * IP traffic crosses where they are a device (a qemu guest's; 127.0.0.1
 * is not).
 */
unsigned cell_wait_metrics(const struct config *cfg, const struct cell *c);

/*
 * Cell c's facts from its result res: its status, `emulated` (0,
 * EMU_TCG, EMU_ICOUNT: how its machine ran), the metrics that wait for a
 * device, its worst thread's missed share and its wake-ups', what traced
 * it.
 */
void cell_vouch_facts(const struct config *cfg, const struct cell *c,
		      const struct cell_result *res, int emulated, struct vouch_facts *f);

#endif
