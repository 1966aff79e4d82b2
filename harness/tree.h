/*
 * A results tree read back (for report and compare): cells.csv's cells,
 * each with its threads merged — rebuilt from the cell's hist.csv and
 * summary.csv, so everything shown is recomputed from the CSV files.
 */
#ifndef LATLAB_TREE_H
#define LATLAB_TREE_H

#include <limits.h>
#include <stdint.h>

#include "hist.h"

struct tcell {
	char id[160], host[128], release[128], kernel[64], load[64],
		workload[64], threads[16], affinity[64], status[16],
		reason[256], policy[8];
	int64_t index, interval, priority, size, repeat;
	char dir[PATH_MAX + 512];	/* the cell's directory */
	int measured;		/* has samples */
	struct hist *wakeup, *response;	/* threads merged; NULL if none */
	uint64_t overruns, errors, bytes;
	double bytes_per_s;	/* over threads: bytes / time in I/O */
	int64_t io_p99;
	double load_ops_per_s;	/* sum of load.csv */
	int nthreads;
};

struct tree {
	char dir[PATH_MAX];
	char campaign[128];
	int n;
	struct tcell *cell;
};

/*
 * Read DIR/cells.csv and every measured cell's files. 0, or -errno with
 * a reason in err (not a results tree, a malformed file).
 */
int tree_read(struct tree *t, const char *dir, char *err, size_t errlen);
void tree_free(struct tree *t);

/*
 * 1 when the cell was measured in a virtual machine with an emulated CPU
 * (its sysinfo.ini says [vm] accel = tcg): absolute figures mean little.
 */
int tcell_emulated(const struct tcell *c);

/* The same for any cell of the tree. */
int tree_emulated(const struct tree *t);

/* The axes that make "the same cell" across kernels and hosts. */
void tcell_key(const struct tcell *c, char *buf, size_t len);

#endif
