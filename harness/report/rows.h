/*
 * The one model the readers share: a tree's (or several trees') measured
 * cells as rows x sides x runs, along an axis (enum taxis; the kernel by
 * default). A row is a cell's axes without that axis and the repeat
 * (tcell_row_key_along); a side is one value of the axis in one tree (or
 * in the trees of one side_group, each a campaign of it) —
 * along the kernel, a kernel variant on a host and release; a row's runs on a side are its repeats, a group,
 * with their summary worked out once. report draws the groups of one
 * tree, compare the sides of a row against each other, history a row
 * along the sides of many trees.
 */
#ifndef LATLAB_ROWS_H
#define LATLAB_ROWS_H

#include "tree.h"
#include "verdict.h"
#include "words.h"

/* The readers show nanoseconds as µs. */
#define US(ns) ((double)(ns) / 1000.0)

struct rows_side {
	int tree;			/* index into the trees given: its first */
	const struct tcell *first;	/* its first run: kernel, host, release */
	int color;			/* 1..PLOT_COLORS: by its key (rows_side_key, plot_colors) */
};

struct rows_row {
	char key[1024];			/* tcell_row_key_along */
	const struct tcell *any;	/* its first run: the axes */
	int *group;			/* per side: its group, -1 where it has no run */
	int sides;			/* sides with a run */
	int trees;			/* trees with a run */
	int metric;			/* what its runs are judged on (enum metric) */
	/*
	 * The metric asked (--metric, or its workload's own) and why its
	 * runs' figures of it cannot be judged (VR_BITs, 0: they can): where
	 * they cannot and nothing was asked, metric is the first that can be
	 */
	int asked;
	unsigned asked_why;
	int first;			/* its first group (building) */
};

/*
 * A row's runs on a side whose cell's status leaves them out (error,
 * interrupted, skipped, partial: vouch.h): said beside its verdicts and
 * figures, never judged or drawn.
 */
struct rows_left {
	int row, side;
	const struct tcell **run;
	int n;
};

/* A row on a side: its runs in the tree's order, and their summary. */
struct rows_group {
	int row, side;
	const struct tcell **run;
	int *camp;			/* per run, the tree it came from: its campaign */
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
	struct rows_left *left;		/* per row and side with runs left out */
	int nleft;
	int axis;			/* enum taxis: what the sides are values of */
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
int rows_build(struct rows *m, const struct tree *t, int ntrees, int metric, int axis);

/*
 * What side s is, for its colour: its kernel variant's name along the
 * kernel (rt on any host is rt), its host's along the host, else its
 * value of the axis.
 */
void rows_side_key(const struct rows *m, int s, char *buf, size_t len);

/*
 * The axes (bits 1 << TAXIS_...) every row of m has the same value on,
 * with m's axis and the host always: what a figure's title says once, so
 * that its rows are named by what sets them apart (tcell_row_words_omit).
 */
unsigned rows_common_axes(const struct rows *m);

/* Row r in words: its axes, the compared one left out. */
void rows_row_title(const struct rows *m, int r, char *buf, size_t len);
void rows_free(struct rows *m);

/* Row r's group on side s, or NULL where the row has no run there. */
const struct rows_group *rows_group(const struct rows *m, int r, int s);

/* Row r's runs on side s for verdict.h, judged on its metric (n 0: none), and those left out. */
struct side_runs rows_runs(const struct rows *m, int r, int s);

/*
 * The metric row r is judged on, as a line says it: "wake-up", or where
 * the one asked cannot be judged, "wake-up (response cannot be judged
 * here: device-wait)".
 */
void rows_metric_said(const struct rows *m, int r, char *buf, size_t len);

/*
 * A side's p99.99 or p99 median in µs ("806.6"), or "—" when a run has too
 * few samples for it (hist_support): the readers' one way to show it.
 */
const char *rows_pct_text(const struct side_summary *s, int p99, char *buf, size_t len);

/*
 * The cells of t that measured nothing (skipped, errored, interrupted,
 * pending: a matrix's half a guest could not run), in words: "30 of 60
 * cells measured nothing: 30 skipped (the first, 0003-...: REASON)"; ""
 * when every cell measured. Returns how many.
 */
int rows_unmeasured_text(const struct tree *t, char *buf, size_t len);

/* "response", or "noise max": a metric in the readers' words. */
const char *rows_metric_words(int metric);

#endif
