/*
 * Latencies drawn from a stated law whose tail is known exactly: for
 * tailfit's tests, its coverage benchmark (bench/tail_coverage.sh) and
 * tools/synth-tree (trees in latlab's format with such runs). A law is
 * written as text:
 *
 *   exp:LOC,SCALE                  LOC + an exponential of mean SCALE
 *   gpd:LOC,SCALE,XI               LOC + a generalized Pareto (shape XI)
 *   weibull:LOC,SCALE,K            LOC + a Weibull (shape K: below 1 a
 *                                  tail heavier than exponential's, in
 *                                  no generalized Pareto's domain at u)
 *   lognormal:MEDIAN,S             a lognormal body (log-sd S)
 *   lognormal:MEDIAN,S,W,SCALE,XI  with probability W, MEDIAN + a
 *                                  generalized Pareto instead: a body
 *                                  with a Pareto tail
 *   LAW+spikes:P,F                 with probability P a sample is F times
 *                                  larger (rare 10x spikes)
 *   LAW+bursts:L                   each draw repeated L times in a row:
 *                                  the same law, its exceedances in
 *                                  bursts of L (an extremal index 1/L)
 *   LAW+tick:N,EXTRA               every Nth period EXTRA later: a timer
 *                                  tick's handler in the wake-up (with
 *                                  EXTRA beyond the body's width, a body
 *                                  of two modes); in time order only, so
 *                                  synth_draw has no tick
 *
 * durations with their unit (10us), XI, K, S, W, P and F plain numbers.
 */
#ifndef LATLAB_SYNTH_H
#define LATLAB_SYNTH_H

#include <stdint.h>

#include "timeline.h"

enum synth_kind { SYNTH_EXP, SYNTH_GPD, SYNTH_LOGNORMAL, SYNTH_WEIBULL };

struct synth_law {
	int kind;
	double loc, scale, xi;		/* ns, ns, shape */
	double k;			/* the Weibull's shape */
	double median, s;		/* the lognormal's: ns, log-sd */
	double w;			/* the lognormal's share of Pareto tail */
	double spike_p, spike_f;	/* spikes: probability, factor (0: none) */
	int burst;			/* bursts: each draw's repeats (0 or 1: none) */
	int tick_every;			/* tick: every Nth period (0: none) ... */
	double tick_ns;			/* ... this much later */
};

/* Parse text into law. 0, or -EINVAL with the reason in err. */
int synth_parse(const char *text, struct synth_law *law, char *err, size_t len);

/* A deterministic generator (splitmix64): its state, seeded by the caller. */
struct synth_rng {
	uint64_t s;
};

/* A uniform draw in (0, 1). */
double synth_uniform(struct synth_rng *r);

/* One latency in ns (>= 0), without the tick (it needs the period's place). */
double synth_draw(const struct synth_law *law, struct synth_rng *r);

struct hist;
/* n draws added to h, each rounded to the ns, as a cell's thread would add them. */
void synth_hist(const struct synth_law *law, struct synth_rng *r, long long n, struct hist *h);

/*
 * n draws in time order added to h and, with nblocks > 0, to the run's
 * windows: block[j][b] counts window j's draws in timeline bin b
 * (timeline.h), the n draws split evenly over the nblocks windows, as
 * timeline.csv has a run's samples.
 */
void synth_blocks(const struct synth_law *law, struct synth_rng *r, long long n, int nblocks,
		  struct hist *h, uint64_t (*block)[TL_BINS]);

/* P(X > x) under the law, exactly. */
double synth_sf(const struct synth_law *law, double x);

#endif
