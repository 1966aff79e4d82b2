/*
 * The one model the readers share: a tree's (or several trees') measured
 * cells as rows x sides x runs. A row is a cell's axes without kernel
 * and repeat (tcell_row_key); a side is a kernel variant on a host and
 * release in one tree; a row's runs on a side are its repeats, a group,
 * with their summary worked out once. report draws the groups of one
 * tree, compare the sides of a row against each other, history a row
 * along the sides of many trees.
 */
#ifndef LATLAB_ROWS_H
#define LATLAB_ROWS_H

#include "tree.h"
#include "verdict.h"

/* The readers show nanoseconds as µs. */
#define US(ns) ((double)(ns) / 1000.0)

struct rows_side {
	int tree;			/* index into the trees given */
	const struct tcell *first;	/* its first run: kernel, host, release */
};

struct rows_row {
	char key[512];			/* tcell_row_key */
	const struct tcell *any;	/* its first run: the axes */
	int *group;			/* per side: its group, -1 where it has no run */
	int sides;			/* sides with a run */
	int trees;			/* trees with a run */
	int metric;			/* what its runs are judged on (enum metric) */
	int first;			/* its first group (building) */
};

/* A row on a side: its runs in the tree's order, and their summary. */
struct rows_group {
	int row, side;
	const struct tcell **run;
	int n;
	struct side_summary sum;	/* its row's metric's (verdict_summary), made once */
	int next;			/* the row's next group (building) */
};

struct rows {
	struct rows_side *side;
	int nsides;
	struct rows_row *row;
	int nrows;
	struct rows_group *group;	/* in the order of their first run */
	int ngroups;
	int nomit;			/* rows without the metric asked for */
};

/*
 * The measured cells of trees t[0..ntrees) as rows, sides and groups,
 * each in the order it first appears (tree by tree, cell by cell), every
 * row judged on `metric` (enum metric), or with ROWS_OWN_METRIC on its
 * workload's own (tcell.primary). A row whose runs do not all have the
 * metric is left out (m->nomit counts them). 0 or -ENOMEM. Free with
 * rows_free, also after an error.
 */
#define ROWS_OWN_METRIC (-1)
int rows_build(struct rows *m, const struct tree *t, int ntrees, int metric);
void rows_free(struct rows *m);

/* Row r's group on side s, or NULL where the row has no run there. */
const struct rows_group *rows_group(const struct rows *m, int r, int s);

/* Row r's runs on side s for verdict.h, judged on its metric (n 0: none). */
struct side_runs rows_runs(const struct rows *m, int r, int s);

/* "response", or "noise max": a metric in the readers' words. */
const char *rows_metric_words(int metric);

#endif
