/*
 * What compare says about a row: per side, the summary of its runs
 * (repeats); per pair of sides, the ratio of their medians with a 97.5 %
 * interval (VERDICT_CONF_EACH) and a verdict in words that always carries
 * the interval and n; per side, wake-ups above a threshold per hour with a Poisson
 * interval. The statistics are stats.h's; docs/report.md explains them.
 */
#ifndef LATLAB_VERDICT_H
#define LATLAB_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tree.h"

/*
 * A verdict calls a difference on either of two statistics, the maxima
 * and the tail (below): two tests, each with its chance of a false call.
 * Each ratio interval is therefore at VERDICT_CONF_EACH, 97.5 %, so that
 * the verdict's chance of calling a difference that is not there stays
 * within 5 % (Bonferroni): at 95 % each, three campaigns a side called
 * 7.5 % [4.6, 12.0] of A/A pairs on either (bench/calibration.sh). The
 * rates' intervals call nothing and stay at VERDICT_CONF.
 */
#define VERDICT_CONF 0.95
#define VERDICT_CONF_EACH (1.0 - (1.0 - VERDICT_CONF) / 2)

/*
 * One side of a row: the runs of one cell's axes (its repeats) that can
 * be judged, and beside them those whose cell's status leaves them out
 * (error, interrupted, skipped, partial: vouch.h), said, never judged.
 */
struct side_runs {
	const struct tcell **run;
	int n;
	int metric;	/* what summary and pair judge (enum metric): 0 is wakeup */
	const int *camp;	/* per run, its campaign (a tree); NULL: all one */
	const struct tcell *const *left;	/* nleft runs left out by their status */
	int nleft;
};

/* Run c's histogram of side s's metric, or its wake-up's when it has none. */
const struct hist *verdict_run_hist(const struct side_runs *s, const struct tcell *c);

/* Do all of s's runs have metric m (a workload's own, like noise_max)? */
int side_has_metric(const struct side_runs *s, int m);

struct side_summary {
	int n;
	double max_med, max_lo, max_hi;	/* ns: median of the runs' maxima, range */
	double p9999_med, p99_med;	/* ns: medians of the runs' percentiles */
	int typical;			/* the run whose max is the (lower) median */
	uint64_t fewest;		/* samples of its run with the fewest */
	int p9999_ok, p99_ok;		/* every run has enough for it (hist_support) */
};

void verdict_summary(const struct side_runs *s, struct side_summary *out);

/*
 * V_EQUIVALENT: the whole interval lies within the equivalence margin
 * (below): a difference, if any, smaller than the one that matters.
 * V_UNEQUAL: the sides' runs differ in length (VERDICT_UNEQUAL): their
 * maxima are not compared, the tail (a percentile) and the rates are.
 */
/*
 * V_UNJUDGED: a figure of a side cannot be judged (vouch.h: the
 * instruction clock while a device was waited for, TCG, periods missed
 * past the bound, no run left to judge), or the sides' figures are not
 * of one kind (traced differently, other clocks): no verdict, and why.
 */
enum verdict_kind { V_LOWER, V_HIGHER, V_NO_DIFFERENCE, V_TOO_FEW, V_EQUIVALENT, V_UNEQUAL,
		    V_UNJUDGED };

/* Why two sides' figures are not of one kind (pair_verdict.why_pair) */
#define PV_TRACE 1u	/* perturbed differently ([trace]): figures of other paths */
#define PV_CLOCK 2u	/* other clocks: instruction time against time, or TCG against either */

/*
 * Runs whose periods differ by more than this factor (the sides' medians
 * of a run's periods) are of different lengths: the longer a run, the
 * higher its maximum by chance alone (1 s runs against 60 s runs of one
 * distribution were called lower in 19 of 20 rows: issue 45).
 */
#define VERDICT_UNEQUAL 1.1

/* "lower", "higher", "no-difference", "too-few", "equivalent", "unequal-runs", "not-comparable" (compare.csv) */
const char *verdict_keyword(int kind);

/*
 * The tail: one run's maximum is one sample, and one stall of a VM or a
 * daemon makes it; the percentile with TAIL_SAMPLES samples above it in
 * the run with the fewest samples (p99.5 of 1 000, p99.95 of 10 000)
 * takes more than a few events to move. Five: quiet runs on this VM had
 * up to three stall samples each, and a load that delays the thread ten
 * times a run (a 1 ms burst every 100 ms) must still reach it — at ten
 * its bursts sat just above the percentile and went unseen
 * (bench/calibration.sh). Judged from TAIL_MIN_SAMPLES a run.
 */
#define TAIL_SAMPLES 5
#define TAIL_MIN_SAMPLES 100

/*
 * How a pair is judged (docs/report.md, "When the sides ran"):
 *  RUNS       the runs are the units: the sides ran together, interleaved
 *             in the same campaigns, so what changed over time met both
 *  CAMPAIGNS  the campaigns are: the sides ran apart (other campaigns, or
 *             blocks of one), so runs of one campaign share its moment;
 *             each campaign is one value (its runs' median), and the
 *             interval is the pooled t of those (stats_ratio_t_ci)
 *  ICOUNT     every run on an instruction-counted clock: the host's
 *             moment does not reach it, the runs are the units
 */
enum verdict_design { VD_RUNS, VD_CAMPAIGNS, VD_ICOUNT };

/* "runs", "campaigns", "instruction-clock" (compare.csv) */
const char *verdict_design_name(int design);

struct pair_verdict {
	int na, nb;
	int design;			/* enum verdict_design */
	int ca, cb;			/* campaigns of each side */
	struct ratio_ci max, p9999;	/* a / b, by the design */
	struct ratio_ci max_runs, p9999_runs;	/* the same with the runs as units, whatever the design */
	int kind, kind_p9999;		/* a relative to b */
	int zero;	/* a run's maximum is 0 ns: no ratio (kind too-few) */
	int p9999_short;	/* a run has fewer than 10 000 samples: no p99.99 verdict */
	double tail_pct;	/* the tail's percentile; 0: too few samples for one */
	struct ratio_ci tail;	/* a / b at it */
	double tail_med_a, tail_med_b;	/* ns: the runs' medians at it */
	int kind_tail;
	/* 1: the sides' runs did not share their time (their spans do not meet); 0: they did; -1 unknown */
	int apart;
	int64_t apart_ns;	/* then the gap between the spans */
	double margin;		/* the equivalence margin judged with, a fraction; 0 none */
	int margin_default;	/* 1: it is the instruction clock's default (VERDICT_ICOUNT_MARGIN) */
	double periods_a, periods_b;	/* the median of each side's runs' periods (one thread's) */
	/* the share of the measured CPU time the hypervisor took (interference.csv's steal), a fraction, -1 unknown: in a's runs, b's, both's */
	double steal_a, steal_b, steal;
	/* the boots each side's runs ran in (sysinfo.ini's boot_id); 0 unknown (a run without one) */
	int boots_a, boots_b;
	/* TCELL_DEV_ bits: the emulated devices either side's runs' I/O went through */
	unsigned devices;
	/*
	 * The latlab that measured each side where the sides' differ (a run
	 * of one side by a latlab no run of the other side had): "" when
	 * they agree or a run does not say
	 */
	char by_a[96], by_b[96];
	/*
	 * Where the sides do not differ so, the runs within a side that did:
	 * two of side s's latlabs (mix_x[s], mix_y[s]; s 0 a, 1 b; "" none)
	 * and which sides had them (mix_sides: bit 0 a, bit 1 b)
	 */
	char mix_x[2][96], mix_y[2][96];
	int mix_sides;
	/* the settings of the load both sides ran, where they differ: "" otherwise */
	char load_a[512], load_b[512];
	/*
	 * Where the sides do not differ so, two settings of the load within
	 * a side's runs (load_mix_x, load_mix_y: "" none) and the sides that
	 * had two (load_mix_sides: bit 0 a, bit 1 b; the pair is a's where
	 * both did)
	 */
	char load_mix_x[512], load_mix_y[512];
	int load_mix_sides;
	/*
	 * What keeps the figures from a verdict (kind V_UNJUDGED): each
	 * side's runs' reasons on the metric (VR_BITs; VR_STATUS where no
	 * run is left), the sides' kinds (PV_ bits); a run that has the
	 * first reason, for its words; the runs left out by their status
	 */
	unsigned why_a, why_b, why_pair;
	unsigned traced_a, traced_b;	/* each side's first run's tracing (vouch.h's VT_ bits) */
	const struct tcell *why_run;
	int metric;
	const struct tcell *const *left_a, *const *left_b;
	int nleft_a, nleft_b;
};

/*
 * A verdict of no difference on runs that lost this share of their CPUs
 * to the hypervisor (both sides together) says its stalls can hide one:
 * on this VM a quiet thread against a 1 ms hog in one tree (repeat = 5)
 * was called in 80 of 83 pairs whose runs lost under 0.25 %, and in 15
 * of 93 of those that lost more — the VM's own stalls were then as large
 * as the hog (bench/power.sh, docs/performance.md).
 */
#define VERDICT_STEAL_NOTE 0.0025

/*
 * margin < 0 (compare's and report's default, no --margin): none, but on
 * the instruction clock VERDICT_ICOUNT_MARGIN. There a path a few
 * hundred instructions longer is a confident difference that need not
 * replicate (the run's place in its boot moves maxima that much:
 * docs/campaigns.md), and not one a kernel's user would act on.
 */
#define VERDICT_MARGIN_AUTO (-1.0)
#define VERDICT_ICOUNT_MARGIN 0.10

/* The reasons (VR_BITs) s's runs give on its metric; *first: a run that gives the first. */
unsigned verdict_side_why(const struct side_runs *s, const struct tcell **first);

/*
 * "no verdict: rt's response cannot be judged: on the instruction clock
 * ..." — why a V_UNJUDGED pair has none, in words (a, b: the sides).
 */
void verdict_unjudged_text(const struct pair_verdict *v, const char *a, const char *b,
			   char *buf, size_t len);

/*
 * a against b. margin (a fraction, 0.1 for 10 %; 0: none) is the
 * smallest difference that matters, named before the data (compare
 * --margin): a statistic whose whole interval lies within [1/(1+margin),
 * 1+margin] is V_EQUIVALENT, not a call, even where it excludes 1 — on
 * an instruction-counted clock a path 3 % longer is a confident
 * difference, and not one a kernel's user would act on. 0 or -errno.
 */
int verdict_pair(const struct side_runs *a, const struct side_runs *b, double margin,
		 struct pair_verdict *v);

/*
 * With a margin (a fraction, > 0): does r lie wholly past it, below
 * 1/(1+margin) or above 1+margin — a difference shown to matter? A call
 * (lower, higher) that is not says so in its words (verdict_text).
 */
int verdict_past_margin(const struct ratio_ci *r, double margin);

/*
 * A ratio as the words print it: two decimals, or as many more (up to
 * six) as keep it on its own side of 1 and, with a margin, of 1 + margin
 * and 1 / (1 + margin): a bound of 1.004 reads 1.004, not 1.00, a bound
 * of 1.2003 under a 20 % margin 1.2003, not 1.20.
 */
void verdict_ratio_str(double x, double margin, char *buf, size_t len);

/*
 * "1.65x [1.62x, 1.97x]": r's ratio and interval (invert: as b over a,
 * 1 / ratio [1 / hi, 1 / lo]), each by verdict_ratio_str.
 */
void verdict_interval_str(const struct ratio_ci *r, int invert, double margin, char *buf,
			  size_t len);

/* Can n and m runs give an exact interval at VERDICT_CONF_EACH? (the Mann-Whitney extremes) */
int verdict_runs_enough(int n, int m);

/*
 * The run counts that would give a pair of na and nb runs an exact
 * interval at VERDICT_CONF_EACH, in words: "3 and 6 runs give one, or
 * 4 and 5" (the fewest runs added to one side, then to the other).
 */
void verdict_runs_needed(int na, int nb, char *buf, size_t len);

/*
 * The verdict on the worst case in words, with the interval and n:
 * "rt lower worst case: 1.7x [1.3x, 2.4x], 8 runs each",
 * "no clear difference (a/b 0.83x-1.24x, 5 runs each)",
 * "one run each: too few to call (a/b 0.57x)",
 * "no practical difference: within 10 % (a/b 1.02x-1.03x, 5 runs each)",
 * "stock lower worst case: 1.03x [1.01x, 1.45x], 5 runs each; not shown
 * to exceed the 20 % margin" (a call, with a margin the interval reaches into),
 * "rt lower worst case: 2.1x [1.4x, 3.2x], 3 campaigns each (15 runs each), between campaigns",
 * "ran apart, 1 campaign each: too few campaigns to call across time (...)".
 */
void verdict_text(const struct pair_verdict *v, const char *a, const char *b,
		  char *buf, size_t len);

/*
 * verdict_text of one pair of a row that has `sides` sides: with more
 * than two, led by the pair it is about ("rt-full against lazy: rt-full
 * lower worst case: ..."), so that no line needs its neighbours to be read.
 */
void verdict_line(const struct pair_verdict *v, const char *a, const char *b, int sides,
		  char *buf, size_t len);

struct exceed {
	int64_t over_ns;
	uint64_t count;		/* samples above over_ns, all runs and threads */
	double hours;		/* of measuring, all runs: their periods, kept and missed */
	double rate, lo, hi;	/* per hour, and its 95 % interval */
	double dispersion;	/* the runs' counts' variance / mean (Pearson), >= 1 */
	int runs;
};

/*
 * Side s's samples above over_ns per hour, with a 95 % interval: the exact
 * Poisson one, widened by the runs' over-dispersion (quasi-Poisson) when
 * they vary more than counts of independent events would.
 */
void verdict_exceed(const struct side_runs *s, int64_t over_ns, struct exceed *e);

/*
 * Thresholds for a row when the user named none: the pooled p99 and
 * p99.99 of its runs rounded up to 1-2-5 steps (50us, 100us, 200us ...),
 * distinct. Returns how many (<= max).
 */
int verdict_default_over(const struct side_runs *sides, int nsides,
			 int64_t *over, int max);

#endif
