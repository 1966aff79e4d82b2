/*
 * Beyond the runs, for the readers (report, compare, history): per row
 * and side, the probability that a period's latency exceeds the deadline
 * D (tailfit.h) — per period, per 10^9 periods and per hour of one
 * thread at the row's interval — and how long a run must be to bound it
 * by observation alone. In words on stdout, as beyond.csv, and as a
 * section of the page (docs/report.md, "Beyond the run").
 */
#ifndef LATLAB_BEYOND_H
#define LATLAB_BEYOND_H

#include <stdint.h>
#include <stdio.h>

#include "rows.h"
#include "tailfit.h"

struct beyond {
	const struct rows *m;
	const char *const *label;	/* per side of m: its name */
	int64_t deadline_ns;		/* D; 0: none (nothing is fitted) */
	double target;			/* per period, for "how long to run"; 0: TAILFIT_TARGET */
	struct tailfit *fit;		/* per group of m (beyond_start), owned */
};

/*
 * Fit every group of m for the deadline deadline_ns, or with 0 the one
 * the campaign of tree_dir set (its campaign.ini's [thresholds] max on
 * the wake-up; tree_dir NULL: none). label: each side's name, kept by
 * pointer; target as struct beyond's. 0 or -ENOMEM; without a deadline
 * nothing is fitted and the outputs below write nothing.
 */
int beyond_start(struct beyond *b, const struct rows *m, const char *const *label,
		 int64_t deadline_ns, double target, const char *tree_dir);
void beyond_free(struct beyond *b);

/*
 * A side's answer in words: "P(wake-up > 100 µs) on rt: 2.1 per 10^9
 * periods [0.36, 9.8], 7.6e-06 per hour [1.3e-06, 3.5e-05]: extrapolated
 * beyond the runs (...); to show below 1 per 10^9 by observation alone:
 * 3e+09 periods with none above 100 µs, 832 h". interval_ns: the row's.
 */
void beyond_text(const struct tailfit *t, const char *metric, const char *side,
		 int64_t interval_ns, char *buf, size_t len);

/* Each row and side's line on fp, led by the row's title. */
void beyond_print(const struct beyond *b, FILE *fp);

/* beyond.csv (docs/formats.md): a line per row and side. arg: the struct beyond. */
void beyond_fill_csv(FILE *fp, void *arg);

/* The page's section "Beyond the runs" (nothing without a deadline). */
void beyond_html(const struct beyond *b, FILE *fp);

/*
 * --deadline D and --target P as the readers take them: 0, or -EINVAL
 * with the reason in err (D a duration above 0; P a probability in (0,
 * 1), 1e-9).
 */
int beyond_parse_deadline(const char *arg, int64_t *ns, char *err, size_t len);
int beyond_parse_target(const char *arg, double *p, char *err, size_t len);

#endif
