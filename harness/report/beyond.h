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
	/*
	 * per group: why its figures give no count at all (vouch.h's VR_BITs:
	 * an emulator's pace, a device's wait on the instruction clock; missed
	 * periods are counted, not a reason), and a run that says why; owned
	 */
	unsigned *why;
	const struct tcell **why_run;
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
 * A side's answer in plain words: "wake-up on rt: 48 of 23,900 periods
 * (0.2 %) were later than 100 µs; counted: ... per 10^9 periods [..]"
 * or "none of 6,000 periods was later than 100 µs; estimated beyond the
 * runs ... ; to show fewer than 1 in 10^9 periods by observation alone,
 * run 832 h (3e+09 periods, none later)". detail: the statistics behind
 * it too (the page's). interval_ns: the row's.
 */
void beyond_text(const struct tailfit *t, const char *metric, const char *side,
		 int64_t interval_ns, int detail, char *buf, size_t len);

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
