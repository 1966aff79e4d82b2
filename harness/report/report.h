/*
 * latlab report DIR: the figures DIR's data supports, rendered by the
 * gnuplot scripts into DIR/report/, and DIR/report/index.html — the
 * machine, the matrix as a table, the figures, links to the CSV files.
 * latlab compare DIR...: the same cells across kernels, hosts, campaigns.
 */
#ifndef LATLAB_REPORT_H
#define LATLAB_REPORT_H

#include <stdint.h>

struct report_opts {
	int pdf;
	int png;		/* every cell figure in PNG too, not the index's only */
	int jobs;		/* gnuplot processes; 0: one per CPU */
	int quiet;
	int metric;		/* what the overview, summary and tail figures judge (enum metric); -1: each row's workload's own */
	int axis;		/* what the first screen's verdicts compare (enum taxis); TAXIS_KERNEL: kernel variants and hosts */
	double margin;		/* --margin: the equivalence margin, a fraction; 0 none (verdict_pair) */
	int64_t deadline_ns;	/* --deadline (beyond.h); 0: the campaign's [thresholds] max, or none */
	double target;		/* --target: per period; 0 TAILFIT_TARGET */
};

/* Returns the exit status. */
int report_run(const char *dir, const struct report_opts *o);

#define COMPARE_OVER_MAX 8

struct compare_opts {
	const char *out;	/* NULL: ./compare */
	int pdf;
	int jobs;		/* --jobs: gnuplot processes; 0: one per CPU */
	int64_t over[COMPARE_OVER_MAX];	/* --over thresholds, ns */
	int nover;		/* 0: defaults from the data */
	const char *baseline;	/* --baseline TREE, or NULL */
	double tolerance;	/* --tolerance, a fraction (0.2) */
	int metric;		/* --metric (enum metric), or -1: each row's workload's own */
	int axis;		/* --axis (enum taxis): what the sides are values of; 0 kernel */
	double margin;		/* --margin: the equivalence margin, a fraction; 0 none (verdict_pair) */
	int64_t deadline_ns;	/* --deadline (beyond.h); 0: the first tree's [thresholds] max, or none */
	double target;		/* --target: per period; 0 TAILFIT_TARGET */
};

/*
 * Returns the exit status: 0, 1 when a row is worse than the baseline
 * beyond the tolerance (and its interval says so), 2, 3.
 */
int compare_run(const char *const *dirs, int n, const struct compare_opts *o);

struct history_opts {
	const char *out;	/* NULL: ./history */
	int by_release;		/* order by kernel release, not campaign time */
	int jobs;		/* gnuplot processes; 0: one per CPU */
	int64_t deadline_ns;	/* --deadline (beyond.h); 0: none */
	double target;		/* --target: per period; 0 TAILFIT_TARGET */
};

/*
 * latlab history DIR...: the rows two trees or more share, point by point
 * (a kernel variant on a host in one tree): history.csv, a trend and a
 * waterfall figure per row, index.html. Returns the exit status: 0, 2
 * (not trees, fewer than two, no shared row), 3.
 */
int history_run(const char *const *dirs, int n, const struct history_opts *o);

#endif
