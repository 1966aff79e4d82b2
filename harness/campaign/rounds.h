/*
 * Rounds and boots (rounds.c): how a variant's cells of a campaign are
 * cut into run_cells' rounds and, for a qemu variant, into boots.
 */
#ifndef LATLAB_ROUNDS_H
#define LATLAB_ROUNDS_H

#include "config.h"

/* The rounds a guest's boot runs: first to last (repeats); 0, 0: all. */
struct cp_rounds {
	int first, last;
};

/* A qemu variant on the instruction clock (its guests may run side by side). */
int cp_icount_guest(const struct kernel_def *k);
/* The rounds run_cells runs: 1 for order = blocked (every repeat in it), else repeat. */
int cp_rounds_of(const struct config *cfg);
/*
 * How variant v's cells are cut into boots, at run_cells' round (1 to
 * cp_rounds_of; 0 the one round of a blocked campaign): an
 * instruction-clock guest with boots = shared (its default) runs several
 * rounds in a boot (runs within a boot vary as much as runs across boots
 * on that clock for most loads: docs/campaigns.md), all started at the
 * first round, in as many boots as keep `jobs` guests busy beside the
 * other such variants; any other guest boots once a round. How many boots
 * start at `round`, and boot b's rounds.
 */
int cp_boots_at(const struct config *cfg, int v, int round, int jobs);
struct cp_rounds cp_boot_at(const struct config *cfg, int v, int round, int jobs, int b);

#endif
