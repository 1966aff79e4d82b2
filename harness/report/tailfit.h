/*
 * Beyond the longest run: the probability that one period's latency
 * exceeds a deadline D, from a peaks-over-threshold fit of a side's runs
 * (a generalized Pareto law for the samples above a threshold u), and how
 * long a run must be to bound it by observation alone. docs/report.md,
 * "Beyond the run", says what it assumes and how it was validated.
 *
 * The checks, each of which stops the extrapolation with its reason:
 * - enough samples above u (TAILFIT_MIN_EXCEED);
 * - u chosen as the lowest of a few high quantiles whose fit passes a
 *   chi-square goodness-of-fit test (p >= TAILFIT_GOF_P), from the lowest
 *   up, as the MBPTA literature selects thresholds;
 * - the fit allows the runs' own largest values: at each of the
 *   TAILFIT_EXTREME_LEVELS highest levels the runs reached, the chance
 *   under the fit of as many samples at or above it (Poisson), times the
 *   levels looked at, is TAILFIT_EXTREME_P or more. A body's fit that
 *   rare far spikes pass (an SMI, a lock held long) is refused: a second
 *   regime in the tail, which the fit cannot see, and the answer is the
 *   runs' count above D with its Poisson interval, never the body's law;
 * - the exceedances independent across runs: the runs' counts above u
 *   not over-dispersed beyond chance (Pearson's chi-square, p >=
 *   TAILFIT_CLUSTER_P); a dispersion above 1 that chance allows widens
 *   the interval (the log-likelihood divided by it, as quasi-Poisson).
 *   Where the runs' counts above their median are over-dispersed too, the
 *   runs differ in their body as well: drift between laws, not clusters;
 * - two runs at least (one cannot show how its exceedances cluster);
 * - the exceedances independent within runs, where the runs' windows are
 *   known (timeline.csv): each run's windows' counts above the level
 *   tested against the run's own rate (Pearson's chi-square, windows
 *   merged until they hold TAILFIT_BURST_MIN above on average). Bursts
 *   (p < TAILFIT_CLUSTER_P) do not stop the estimate: their dispersion,
 *   the bursts' mean size for bursts of one size, widens the interval
 *   as the runs' does (the larger of the two), the runs' own dispersion
 *   is judged beyond it, and "how long to run" counts bursts, not
 *   periods (a run must be longer by the bursts' size to show none).
 *
 * The interval is the profile-likelihood one of P(X > D) = P(X > u) *
 * P(X > D | X > u), the binomial count above u and the generalized
 * Pareto fit of the samples above it (grouped as the histogram has them)
 * in one likelihood. Pure: deterministic and of its arguments only.
 */
#ifndef LATLAB_TAILFIT_H
#define LATLAB_TAILFIT_H

#include <stdint.h>

#include "hist.h"
#include "timeline.h"

#define TAILFIT_MIN_EXCEED 50	/* samples above the threshold a fit needs */
#define TAILFIT_GOF_P 0.20	/* a fit whose chi-square p is below this is rejected */
#define TAILFIT_CLUSTER_P 0.01	/* runs' counts above u more dispersed than this: clustered */
#define TAILFIT_CONF 0.95	/* of the interval, and of the bound by observation */
#define TAILFIT_TARGET 1e-9	/* the level "how long to run" bounds by default, per period */
#define TAILFIT_PLAN_MARGIN 10	/* the plan shows the target where the truth is this many times below */
#define TAILFIT_PLAN_SUCCESS 0.95	/* with at least this probability */
#define TAILFIT_EXTREME_LEVELS 10	/* the highest levels reached that the fit must allow */
#define TAILFIT_BURST_MIN 5	/* samples above the level a merged window holds on average */
#define TAILFIT_BURST_WINDOWS 10	/* windows a run needs to see bursts of a few periods (docs/report.md) */
#define TAILFIT_EXTREME_P 0.001	/* their chance under the fit (corrected for the levels): below, refused */

enum tailfit_status {
	TF_FIT,		/* extrapolated beyond the runs: the fit passed its checks */
	TF_OBSERVED,	/* D lies within the data (at or below u): counted, not fitted */
	TF_NO_DATA,	/* no samples */
	TF_ONE_RUN,	/* one run: whether its exceedances cluster cannot be seen */
	TF_FEW,		/* fewer than TAILFIT_MIN_EXCEED samples above any threshold */
	TF_REJECTED,	/* no threshold's fit passed the goodness-of-fit test */
	TF_CLUSTERED,	/* the exceedances of u cluster in runs */
	TF_REGIME,	/* the runs' largest values are beyond the fit: a second regime; counted */
	TF_DRIFT,	/* the runs differ in their body as in their tail: drift between laws */
	TF_MISSED,	/* periods were missed (never ran): counted, each later than D */
};

struct tailfit {
	int status;
	int64_t deadline_ns;
	int runs;
	int threads;		/* each run's threads (tailfit_in's; 1 at least): a period is that many samples */
	double periods;		/* samples of all runs (each thread's periods) */
	uint64_t observed;	/* of them above D */
	int64_t u_ns;		/* the threshold chosen (or the last one tried) */
	uint64_t k;		/* samples above it */
	double xi, sigma_ns;	/* the generalized Pareto fit above u */
	double gof_p;		/* its chi-square goodness-of-fit p */
	double dispersion;	/* the runs' counts above u: variance / mean (Pearson), >= 1 */
	double cluster_p;	/* the chance of so much dispersion were they independent */
	double body_dispersion;	/* of the runs' counts above their median (where clustered) */
	/* within runs: their windows' counts above burst_ns (variance / mean, >= 1) */
	double burst;
	double burst_p;		/* its chance were they independent; NAN: not tested */
	int64_t burst_ns;	/* the level: the timeline edge at or below the threshold or D */
	int burst_windows;	/* the merged windows tested */
	int run_windows;	/* the fewest windows a run has (0: none, not tested) */
	double widen;		/* the log-likelihood's divisor: the larger of dispersion and burst */
	/* the level reached that the fit allows least: samples at or above it, the fit's expectation */
	int64_t extreme_ns;
	uint64_t extreme_seen;
	double extreme_expected;
	double extreme_p;	/* the chance of it under the fit, times the levels looked at */
	double p, lo, hi;	/* per period: P(latency > D) and its TAILFIT_CONF interval */
	/*
	 * Where the fit's shape is above 0, the same threshold's exponential
	 * tail (shape 0) and its interval's lower end: lo reaches down to it
	 * (lo_light <= lo), since this far out a tail of the Gumbel domain
	 * (a Weibull's, a lognormal's) fits with a shape above 0 and cannot
	 * be told from a Pareto one. NAN where the shape is 0 or below.
	 */
	double lo_light;
	uint64_t missed;	/* periods that never ran, in periods and observed (tailfit_missed) */
	double target;		/* the level to bound by observation alone, per period */
	double need_periods;	/* periods with none above D that bound P below target */
	/*
	 * The run that settles the target either way (tailfit_retarget):
	 * plan_periods long; at most plan_most bursts above D show P below
	 * target, plan_missed or more show it above (each at TAILFIT_CONF,
	 * one-sided); it shows the target where the truth is a tenth of it
	 * with probability TAILFIT_PLAN_SUCCESS at least. A burst is one
	 * late period, or `burst` of them where the runs show bursts.
	 */
	double plan_periods;
	int plan_most, plan_missed;
};

/* Were bursts within runs seen (their test's p below TAILFIT_CLUSTER_P)? */
int tailfit_bursts(const struct tailfit *t);

/* Is there a number, p with its interval, estimated or counted (not a refusal)? */
int tailfit_estimated(const struct tailfit *t);

enum tailfit_advice {
	TA_MISSED,	/* the interval lies wholly above the target */
	TA_SHOWN,	/* wholly below */
	TA_RUN,		/* it holds it, or there is none: the plan's run settles it */
};

/* What the estimate says of the target. */
int tailfit_advice(const struct tailfit *t);

/*
 * Set t's target and what follows from it (need_periods and the plan),
 * as tailfit does for its own: for a second target without a second fit.
 */
void tailfit_retarget(struct tailfit *t, double target);

/*
 * A run's samples over time, threads merged: per window (timeline.csv's),
 * its count in each timeline bin (timeline.h).
 */
struct tailfit_blocks {
	int n;
	const uint64_t (*count)[TL_BINS];
};

/*
 * Fit the tail of n runs' histograms (run[i], i < n; each run's samples,
 * threads merged) for the deadline D = deadline_ns (> 0). target: the
 * per-period probability "how long to run" should bound (0: the default).
 * The status says whether p, lo, hi are an extrapolation (TF_FIT), a
 * count (TF_OBSERVED), or absent (NAN) and why. 0, or -EINVAL for no
 * deadline or target outside (0, 1), -ENOMEM.
 */
int tailfit(const struct hist *const *run, int n, int64_t deadline_ns, double target,
	    struct tailfit *out);

/*
 * What tailfit_runs fits: n runs, each its histogram (run[i]), the
 * periods it missed (missed[i]; NULL for none) and its windows
 * (blocks[i]; NULL, or n 0, for none: within-run bursts not tested).
 *
 * A period that never ran missed its own end: with `late` (a deadline
 * below the period) each is counted above D and among the periods, and
 * the count is the answer; else (D at or past the period) how late it
 * would have been is not known, and there is no answer. Either way the
 * tail is never extrapolated where one was missed (TF_MISSED): the law of
 * the periods that ran says nothing of those that did not.
 */
struct tailfit_in {
	const struct hist *const *run;
	const uint64_t *missed;
	const struct tailfit_blocks *blocks;
	int n;
	int64_t deadline_ns;
	int late;
	double target;
	int threads;	/* each run's measuring threads (0: one); the runs' samples are theirs merged */
};

/* tailfit of all that in says; its return values. */
int tailfit_runs(const struct tailfit_in *in, struct tailfit *out);

/* A status in a few words ("extrapolated", "too few above any threshold"...). */
const char *tailfit_status_text(int status);

/* "fit", "observed", "no-data", "one-run", "few", "rejected", "clustered", "regime", "drift" (beyond.csv). */
const char *tailfit_keyword(int status);

/*
 * The probability that a generalized Pareto variable (scale sigma > 0,
 * shape xi) exceeds y >= 0: (1 + xi y / sigma)^(-1 / xi), exp(-y / sigma)
 * at xi = 0, and 0 beyond the end of its support when xi < 0.
 */
double tailfit_gpd_sf(double y, double sigma, double xi);

#endif
