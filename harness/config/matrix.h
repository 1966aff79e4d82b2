/*
 * The plan: the Cartesian product of the matrix axes in the axis table's
 * order (model/axes.h: kernel first, then load, workload and the rest;
 * repeat last, varying fastest). Ids are stable for a given config:
 *   NNNN-[KERNEL-]LOAD-WORKLOAD-tTHREADS-aAFFINITY[-iINTERVAL][-pPRIO]...-REPEAT
 * each axis's part after its id prefix, the bracketed ones (and every
 * axis after affinity) only where the matrix varies that axis.
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
		/*
		 * the same by the axis's name (c->load is c->ax[TAXIS_LOAD]):
		 * kernel, load and workload index cfg's definitions; threads a
		 * count or AXIS_ALL; interval ns; priority; size bytes; policy
		 * enum cell_policy; dma_latency us (-1: none); the host 0; every
		 * other axis an index into its [matrix] items (its value their v)
		 */
		struct {
#define AXIS(e, m, ...) int64_t m;
#define READER_AXIS AXIS
#include "axes.h"
#undef READER_AXIS
#undef AXIS
		};
	};
	int repeat;		/* 1-based */
};

/*
 * Cell c's value on axis a as cells.csv writes it ("stock", "all",
 * "1000000", "none"); for the id (id = 1), as its id part says it
 * ("1ms", "4KiB", "node1": axis_id_text).
 */
void cell_axis_text(const struct config *cfg, const struct cell *c, int a, int id, char *buf,
		    size_t len);

/*
 * Cell c's typed value on axis a: the number a numeric axis holds (ns,
 * bytes, a count, enum cell_policy), and for an axis of items (AXK_ITEM:
 * affinity, numa, wakeup, clock, isolation, idle, throttle) its item's
 * value (AFF_SPREAD, WAKE_TIMERFD, ISO_CPUSET, ...), its option's default
 * where [matrix] does not give the axis. A cell keeps an item's index,
 * not its value, because the item as written ("0-1+3", "node:1",
 * "deepest:2") is what its id and cells.csv say, and an affinity's or
 * numa's item carries more than its value (cfg->place[], numa_node[]):
 * read the value here, never as cfg->matrix.X.v[c->X].
 */
int64_t cell_axis_value(const struct config *cfg, const struct cell *c, int a);

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
