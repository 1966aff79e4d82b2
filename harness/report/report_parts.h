/*
 * latlab report's parts, private to them: the run and the choice of
 * figures (report.c), the data files gnuplot draws from (report_data.c),
 * the index page (report_index.c), each cell's page and the PDF
 * (report_cells.c). The rows, sides and groups are rows.h's.
 */
#ifndef LATLAB_REPORT_PARTS_H
#define LATLAB_REPORT_PARTS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "beyond.h"
#include "plot.h"
#include "rows.h"
#include "tree.h"


/* The figures made, for the page. */
struct figure {
	char base[200];		/* fig/NAME (no extension): a whole cell id fits */
	char caption[1024];
	int cell;		/* the cell whose page shows it; -1: the index */
	int lead;		/* the index's first screen shows it, not its figures */
};

/* A group's median maximum (µs) with the interval of that median and its coverage. */
struct report_median {
	double med, lo, hi, cover;
};

/* One row's verdict on two of its sides (report_answer.c). */
struct report_verdict {
	int row, a, b;		/* r->am's row and sides */
	struct pair_verdict v;	/* a against b on the row's metric */
};

struct report {
	struct tree t;
	struct rows m;		/* its rows, sides (kernel variants and hosts) and groups */
	struct rows am;		/* the same along --axis, for the first screen (report_answer.c) */
	struct plotter plot;
	char out[PATH_MAX + 16];	/* DIR/report */
	struct figure *fig;
	int nfig;
	int metric;		/* --metric (enum metric), or ROWS_OWN_METRIC */
	double margin;		/* --margin, a fraction; 0 none */
	int png;		/* --png: the cell pages' figures in PNG too (the index's always) */
	char (*label)[SIDE_LABEL_MAX];	/* per side: its variant, with host and release where two share it */
	struct report_verdict *verdict;	/* every pair of sides of every row, once */
	int nverdicts;
	int *slot;		/* per row of am: its place on the first screen, -1 not there */
	struct report_median *median;	/* per group of am, worked out once */
	struct beyond beyond;	/* am's rows and sides beyond the runs (with a deadline) */
	const char **side_name;	/* label's, for beyond */
	int nslots;
};

/*
 * What the page's figures show, in words: "response latency (µs)", or
 * "latency (µs): each workload's own metric" when the cells differ.
 */
void report_metric_label(const struct report *r, char *buf, size_t len);

struct page {
	struct report *r;
	int pdf;
};

struct runmax_file {
	const struct tcell **run;	/* the runs drawn */
	int n;
	int nsec;
};

/* report_data.c */
/*
 * report/sweep.csv when a workload ran at several sizes; its workloads
 * (blank-separated) go to `names`. 1 if written, 0 if no sweep, -errno.
 */
int report_sweep(struct report *r, const char *path, char *names,
		       size_t len);

int report_tail_list(const struct report *r, const char *file, char *caption,
			   size_t caplen);

/* DIR/NAME: the running maximum of run[0..n), second by second (runmax.gp's CSV). */
int report_runmax_file(const char *dir, const char *name, const struct tcell **run,
		       int n, int nsec);

/* report_answer.c: the first screen */
/* The sides' labels and every verdict. 0 or -ENOMEM. */
int report_answer_build(struct report *r);

/*
 * fig/summary: per row, each side's median maximum with its interval and
 * p99, the verdicts over the bars; its caption. 1 when queued, 0 when
 * nothing was measured, or -errno with err.
 */
int report_summary_figure(struct report *r, char *caption, size_t caplen, char *err,
			  size_t errlen);

/* The verdicts (or each row's worst case) and the summary figure. */
void report_answer_html(FILE *fp, const struct report *r, int pdf);

/* report_index.c */
void report_fill_index(FILE *fp, void *arg);

/* report_cells.c: the pages' shared parts, each cell's page, the PDF */
void report_td_us(FILE *fp, int64_t ns);

/* A histogram's min, p50, p99, p99.99 and max, a cell each (µs): the tables' columns. */
void report_td_spread(FILE *fp, const struct hist *h);

/* Links to a cell's files; `up` leads from the page to the tree. */
void report_cell_files(FILE *fp, const struct tcell *c, const char *up);

/* Per cell with captures: each capture's parts and its culprit. */
void report_cell_spikes(FILE *fp, const struct tcell *c, const char *up);

/* The figures of one page: the index's (cell -1) or a cell's; `up` prefixes their links. */
void report_figures_html(FILE *fp, const struct report *r, int pdf, int cell,
			 const char *up);

/* Every cell's page in report/cells/. 0, or -errno with err. */
int report_cell_pages(struct report *r, int pdf, char *err, size_t errlen);

/*
 * --pdf: every figure's PDF, the index's then each cell's in page order,
 * as one report/report.pdf (poppler's pdfunite) for a paper's appendix.
 * 0, or -errno / -EIO with err.
 */
int report_pdf(const struct report *r, char *err, size_t errlen);

#endif
