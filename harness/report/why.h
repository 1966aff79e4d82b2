/*
 * Why a side was late, beside a verdict on it: the culprits of its worst
 * spike captures in the very runs the verdict judged (docs/spikes.md,
 * "Beside a verdict"). compare's lines and page and the report's first
 * screen say it under each verdict whose sides traced.
 */
#ifndef LATLAB_WHY_H
#define LATLAB_WHY_H

#include <stddef.h>
#include <stdio.h>

#include "verdict.h"

/* The worst captures a side's line counts. */
#define WHY_WORST 10

#define WHY_WHAT 128

struct why_count {
	char what[WHY_WHAT];	/* "rt-thread: latload (SCHED_FIFO 95)", "unexplained" */
	int n;
};

/*
 * The longest a side's line gets: its label and counts (256 bytes) and
 * each of its WHY_WORST culprits with its count and separator; a pair's,
 * two of them.
 */
#define WHY_SIDE_MAX (256 + WHY_WORST * (WHY_WHAT + 16))
#define WHY_PAIR_MAX (2 * WHY_SIDE_MAX + 16)

struct why_side {
	int worst;		/* captures counted: the worst WHY_WORST, or all there were */
	int captures;		/* every capture in the runs */
	struct why_count c[WHY_WORST];
	int nc;			/* culprits, most captures first (ties: the worse capture first) */
};

/*
 * The culprits of s's `k` worst captures (by latency; k <= WHY_WORST):
 * a culprit is its kind and name, the name without a task's pid (the
 * same program across runs is one culprit: "latload:712 (SCHED_FIFO
 * 95)" is "latload (SCHED_FIFO 95)"); unexplained and incomplete
 * captures are counted by their kind alone (each gap is its own length).
 */
void why_side(const struct side_runs *s, int k, struct why_side *out);

/*
 * "stock: of its 10 worst captures (of 14), 9 rt-thread: latload
 * (SCHED_FIFO 95), 1 unexplained"; "stock: no capture" where it traced
 * nothing above its threshold; "" where none of its runs traced.
 */
void why_side_line(const char *label, const struct side_runs *s, const struct why_side *w,
		   char *buf, size_t len);

/*
 * A pair's: "why: A's line; B's line", or "" when neither side's runs
 * traced.
 */
void why_pair_line(const struct side_runs *a, const char *la, const struct side_runs *b,
		   const char *lb, char *buf, size_t len);

/* The same on a page: `<br><small class="why">LINE</small>`, nothing when it is "". */
void why_pair_html(FILE *fp, const struct side_runs *a, const char *la,
		   const struct side_runs *b, const char *lb);

#endif
