/*
 * latlab compare's parts, private to them: the trees' rows and sides
 * (compare_model.c: labels, thresholds, every verdict once), the page and
 * its figures (compare_page.c), the files and lines (compare_files.c:
 * compare.csv, junit.xml, stdout), and the run (compare.c).
 */
#ifndef LATLAB_COMPARE_MODEL_H
#define LATLAB_COMPARE_MODEL_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "beyond.h"
#include "plot.h"
#include "report.h"
#include "rows.h"
#include "tree.h"
#include "verdict.h"

#define MAX_TREES 16
#define MAX_SIDES 16

/* A row's exceedance thresholds: --over, or its pooled p99 and p99.99 rounded up. */
struct row_over {
	int64_t over[COMPARE_OVER_MAX];	/* ns */
	int nover;
};

/* One row's verdict on two of its sides. */
struct pair {
	int row, a, b;		/* c->m's row and sides */
	struct pair_verdict v;	/* a against b on the row's metric (rows_row.metric) */
	unsigned has;		/* METRIC_BIT()s both sides' runs all have: */
	struct pair_verdict by[METRIC_COUNT];	/* a against b on each */
	int which;		/* judged: regression on enum gate; -1 none */
};

/*
 * The interval a baseline judgement stands on, of the max, p99.99 or the
 * tail (enum gate): between campaigns where there are enough of them,
 * else (*within = 1) the runs' for the max and p99.99, with the
 * tolerance for what changes between campaigns (docs/report.md,
 * "Baselines for CI"); the tail only where it is not within.
 */
enum gate { GATE_MAX, GATE_P9999, GATE_TAIL };
const struct ratio_ci *cmp_gate(const struct pair_verdict *v, int which, int *within);

/* "max", "p99.99", "tail" */
const char *cmp_gate_name(int which);

struct cmp {
	const struct compare_opts *o;
	struct tree t[MAX_TREES];
	int ntrees;
	/*
	 * What is compared: the rows of every tree against each other on its
	 * sides, a kernel variant on a host in one tree each (a tree of
	 * kernel = stock, rt gives two). At most MAX_SIDES.
	 */
	struct rows m;
	char label[MAX_SIDES][SIDE_LABEL_MAX];
	struct row_over *over;	/* per row */
	/*
	 * Every verdict, worked out once (make_pairs) for the page, compare.csv,
	 * junit.xml and stdout: each pair of sides a row has (a < b), and with
	 * --baseline each other side against each baseline side (b).
	 */
	struct pair *pairs, *judged;
	int npairs, njudged;
	int regressions;	/* judged pairs worse than the baseline */
	struct beyond beyond;	/* each row and side beyond the runs (with a deadline) */
	const char *side_name[MAX_SIDES];	/* label's, as pointers (cmp_labels), for beyond */
	struct plotter plot;
	char out[PATH_MAX];
};

/* The rows and sides of the trees read, each side labelled. 0 or -errno (said). */
int cmp_collect(struct cmp *c);

/*
 * Sides from different trees with the same variant, host and release
 * (two campaigns on one machine) are told apart by their campaign's name,
 * or by the tree's number when that is the same too.
 */
void cmp_labels(struct cmp *c);

/* Each row's exceedance thresholds; how many rows two sides or more share. */
int cmp_thresholds(struct cmp *c);

/* Every verdict the outputs show, once; the regressions counted. 0 or -errno. */
int cmp_pairs(struct cmp *c);

/* Row r's runs on side s, judged on the row's metric. */
struct side_runs cmp_runs(const struct cmp *c, int r, int s);

/* Any run of row r: its axes. */
const struct tcell *cmp_any(const struct cmp *c, int r);

/* Is side s the baseline's (--baseline: the first tree)? */
int cmp_is_baseline(const struct cmp *c, int s);

void cmp_free(struct cmp *c);

/* What the page is drawn from (cmp_fill_page's arg). */
struct page {
	struct cmp *c;
	int pdf;
};

/* compare_page.c: row r's figure (the n-th), queued for gnuplot; the page. */
int cmp_figure(struct cmp *c, int r, int n, char *err, size_t errlen);
void cmp_fill_page(FILE *fp, void *arg);

/* compare_files.c: compare.csv, junit.xml (--baseline), the lines on stdout and stderr. */
void cmp_fill_csv(FILE *fp, void *arg);
void cmp_fill_junit(FILE *fp, void *arg);
void cmp_print_verdicts(const struct cmp *c);
void cmp_print_regressions(const struct cmp *c);

#endif
