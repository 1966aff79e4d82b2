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
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define CELL_ID_MAX 160

struct cell {
	int index;		/* 0-based position in the plan */
	char id[CELL_ID_MAX];
	union {
		/* its value on each axis, by the axis table's index (axis.h) */
		int64_t ax[TAXIS_COUNT];
		struct {
			int64_t kernel;		/* index into cfg->kernel */
			int64_t host;		/* no matrix axis: 0 */
			int64_t load;		/* index into cfg->load */
			int64_t workload;	/* index into cfg->workload */
			int64_t threads;	/* AXIS_ALL: one per CPU of the affinity */
			int64_t affinity;	/* index into cfg->matrix.affinity */
			int64_t interval;	/* ns */
			int64_t priority;
			int64_t size;		/* bytes */
			int64_t policy;		/* enum cell_policy */
			int64_t dma_latency;	/* us written to /dev/cpu_dma_latency; -1: none */
			int64_t numa;		/* index into cfg->matrix.numa: where its memory lives */
			int64_t wakeup;		/* enum wakeup_method: how the thread sleeps to a period */
			int64_t clock;		/* enum wakeup_clock: the clock it sleeps on and is timed by */
			int64_t isolation;	/* index into cfg->matrix.isolation: enum isolation_kind by its v */
			int64_t idle;		/* index into cfg->matrix.idle: IDLE_ANY, IDLE_POLL or N by its v */
		};
	};
	int repeat;		/* 1-based */
};
_Static_assert(offsetof(struct cell, idle) == offsetof(struct cell, ax) + TAXIS_IDLE * sizeof(int64_t),
	       "struct cell's names are the axis table's, in its order");

/*
 * Cell c's value on axis a as cells.csv writes it ("stock", "all",
 * "1000000", "none"); for the id (id = 1), as its id part says it
 * ("1ms", "4KiB", "node1": axis_id_text).
 */
void cell_axis_text(const struct config *cfg, const struct cell *c, int a, int id, char *buf,
		    size_t len);

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
