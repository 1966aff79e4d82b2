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

#include "plot.h"
#include "report.h"
#include "tree.h"
#include "verdict.h"

#define US(ns) ((double)(ns) / 1000.0)
#define MAX_TREES 16
#define MAX_SIDES 16

/*
 * What is compared: a kernel variant on a host, in one tree. A tree of one
 * campaign that ran several variants (kernel = stock, rt) gives a side each.
 */
struct side {
	int tree;
	const char *kernel, *host, *release;
};

/* A cell's axes without repeat; per side, its runs (the repeats). */
struct row {
	char key[512];
	const struct tcell **run[MAX_SIDES];
	int n[MAX_SIDES];
	int sides;		/* sides with at least one run */
	int64_t over[COMPARE_OVER_MAX];	/* exceedance thresholds, ns */
	int nover;
};

/* One row's verdict on two of its sides. */
struct pair {
	int row, a, b;		/* c->rows, c->side indices */
	struct pair_verdict v;	/* a against b */
	int has_noise;		/* the row's workload records noise_max: */
	struct pair_verdict noise;	/* a against b on it */
	int which;		/* judged: regression on max (0) or p99.99 (1); -1 none */
};

struct cmp {
	const struct compare_opts *o;
	struct tree t[MAX_TREES];
	int ntrees;
	struct side side[MAX_SIDES];
	char label[MAX_SIDES][400];
	int nsides;
	struct row *rows;
	int nrows;
	/*
	 * Every verdict, worked out once (make_pairs) for the page, compare.csv,
	 * junit.xml and stdout: each pair of sides a row has (a < b), and with
	 * --baseline each other side against each baseline side (b).
	 */
	struct pair *pairs, *judged;
	int npairs, njudged;
	int regressions;	/* judged pairs worse than the baseline */
	struct plotter plot;
	char out[PATH_MAX];
};

int cmp_collect(struct cmp *c);

/*
 * Sides from different trees with the same variant, host and release
 * (two campaigns on one machine) are told apart by their campaign's name,
 * or by the tree's number when that is the same too.
 */
void cmp_labels(struct cmp *c);

/* Every verdict the outputs show, once; the regressions counted. 0 or -errno. */
int cmp_pairs(struct cmp *c);

struct side_runs cmp_runs(const struct row *r, int s);

/* Any run of the row: its axes. */
const struct tcell *cmp_any(const struct cmp *c, const struct row *r);

/* The sides of the row that are not the baseline's. */
int cmp_is_baseline(const struct cmp *c, int s);

void cmp_free(struct cmp *c);

/* What the page is drawn from (cmp_fill_page's arg). */
struct page {
	struct cmp *c;
	int pdf;
};

/* compare_page.c: row r's figure (the n-th), queued for gnuplot; the page. */
int cmp_figure(struct cmp *c, const struct row *r, int n, char *err,
		  size_t errlen);
void cmp_fill_page(FILE *fp, void *arg);

/* compare_files.c: compare.csv, junit.xml (--baseline), the lines on stdout and stderr. */
void cmp_fill_csv(FILE *fp, void *arg);
void cmp_fill_junit(FILE *fp, void *arg);
void cmp_print_verdicts(const struct cmp *c);
void cmp_print_regressions(const struct cmp *c);

#endif
