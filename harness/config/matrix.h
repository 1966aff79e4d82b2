/*
 * The plan: the Cartesian product of the matrix axes in a fixed order
 * (kernel, load, workload, threads, affinity, interval, priority, size,
 * policy, dma_latency, numa, repeat; the last varies fastest). Ids are
 * stable for a given config:
 *   NNNN-[KERNEL-]LOAD-WORKLOAD-tTHREADS-aAFFINITY[-iINTERVAL][-pPRIO]
 *   [-sSIZE][-PPOLICY][-dDMA][-mNUMA]-REPEAT
 * where the bracketed parts appear only when that axis has several values.
 */
#ifndef LATLAB_MATRIX_H
#define LATLAB_MATRIX_H

#include <sched.h>
#include <stdint.h>

#include "config.h"

#define CELL_ID_MAX 160

struct cell {
	int index;		/* 0-based position in the plan */
	char id[CELL_ID_MAX];
	int kernel;		/* index into cfg->kernel */
	int load;		/* index into cfg->load */
	int workload;		/* index into cfg->workload */
	int threads;		/* AXIS_ALL: one per CPU of the affinity */
	int affinity;		/* index into cfg->matrix.affinity */
	int64_t interval;	/* ns */
	int priority;
	int64_t size;		/* bytes */
	int policy;		/* enum cell_policy */
	int64_t dma_latency;	/* us written to /dev/cpu_dma_latency; -1: none */
	int numa;		/* index into cfg->matrix.numa: where its memory lives */
	int repeat;		/* 1-based */
};

/*
 * Expand cfg into *cells (malloc'ed, caller frees). Returns the number of
 * cells or -E2BIG when the product exceeds MATRIX_MAX_CELLS.
 */
int matrix_expand(const struct config *cfg, struct cell **cells);

/*
 * The order in which cells[0..n) run ([campaign] order), into order[n]
 * (indices into cells). Kernel variants stay in the matrix's order, a
 * block each; inside a variant, interleaved runs round by round (every
 * cell's repeat r, in the matrix's order, before any cell's r + 1),
 * shuffled the same rounds each in a random order from the seed, blocked
 * the matrix's order. The same config gives the same order every time: a
 * resume runs what is left in it.
 */
void matrix_run_order(const struct config *cfg, const struct cell *cells, int n, int *order);

/* The seed order = shuffled uses: [campaign] seed, or one made from the config. */
uint64_t matrix_order_seed(const struct config *cfg);

#endif
