/*
 * tailfit (harness/report/tailfit.c) on runs drawn from laws whose tail
 * is known (synth.c): the interval holds the true probability, and every
 * check that stops an extrapolation stops it, with its status. The
 * coverage over many draws is bench/tail_coverage.sh's (docs/report.md).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "beyond.h"
#include "hist.h"
#include "synth.h"
#include "tailfit.h"

#define RUNS 5

static struct hist *runs[RUNS];

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < RUNS; i++)
		if (!(runs[i] = malloc(sizeof(*runs[i]))))
			return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < RUNS; i++)
		free(runs[i]);
	return 0;
}

/* Runs first .. first + n - 1: `samples` draws of law each, from seed. */
static void draw_into(int first, const char *law_text, int n, int samples, uint64_t seed)
{
	struct synth_law law;
	struct synth_rng r = { seed };
	char err[256];

	assert_int_equal(synth_parse(law_text, &law, err, sizeof(err)), 0);
	for (int i = first; i < first + n; i++) {
		hist_init(runs[i]);
		synth_hist(&law, &r, samples, runs[i]);
	}
}

static void draw(const char *law_text, int n, int samples, uint64_t seed)
{
	draw_into(0, law_text, n, samples, seed);
}

static void fit(int n, int64_t deadline, struct tailfit *t)
{
	assert_int_equal(tailfit((const struct hist *const *)runs, n, deadline, 0, t), 0);
}

/* The first five runs with the periods each missed, D late (below the period) or not. */
static int fit_missed(const uint64_t *missed, int64_t deadline, int late, struct tailfit *t)
{
	struct tailfit_in in = { .run = (const struct hist *const *)runs, .missed = missed, .n = 5,
				 .deadline_ns = deadline, .late = late };

	return tailfit_runs(&in, t);
}

/* GPD and exponential tails, each far beyond the runs: the truth in the interval. */
static void test_extrapolates(void **state)
{
	static const struct {
		const char *law;
		int64_t deadline;
	} cases[] = {
		{ "gpd:10us,5us,0.2", 300000 },
		{ "exp:20us,3us", 80000 },
		{ "lognormal:20us,0.2,0.02,20us,0.1", 600000 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct synth_law law;
		struct tailfit t;
		char err[128];

		assert_int_equal(synth_parse(cases[i].law, &law, err, sizeof(err)), 0);
		draw(cases[i].law, RUNS, 20000, 42 + i);
		fit(RUNS, cases[i].deadline, &t);
		double truth = synth_sf(&law, (double)cases[i].deadline);

		print_message("%s D=%lld: p %.3g [%.3g, %.3g] truth %.3g u %lld k %llu xi %.3f gof %.2f disp %.2f seen %llu\n",
			      cases[i].law, (long long)cases[i].deadline, t.p, t.lo, t.hi, truth,
			      (long long)t.u_ns, (unsigned long long)t.k, t.xi, t.gof_p, t.dispersion,
			      (unsigned long long)t.observed);
		assert_int_equal(t.status, TF_FIT);
		assert_true(t.observed < 5);	/* beyond the runs, truly */
		assert_true(t.lo <= truth && truth <= t.hi);
		assert_true(t.lo < t.p && t.p < t.hi);
		assert_true(t.gof_p >= TAILFIT_GOF_P);
	}
}

/* A deadline inside the data is counted, not fitted. */
/*
 * A Weibull tail (shape 0.5: heavier than an exponential's, lighter than
 * any Pareto's) fits with a shape above 0 at these thresholds, and the
 * fit's own interval lies above the truth; its lower end is the
 * exponential tail's at the same threshold, and the truth is inside.
 */
static void test_weibull_tail(void **state)
{
	struct synth_law law;
	struct tailfit t;
	char err[128];
	int inside = 0, light_below = 0;

	(void)state;
	assert_int_equal(synth_parse("weibull:10us,3us,0.5", &law, err, sizeof(err)), 0);
	double truth = synth_sf(&law, 789000);

	for (uint64_t seed = 1; seed <= 5; seed++) {
		draw("weibull:10us,3us,0.5", RUNS, 20000, seed);
		fit(RUNS, 789000, &t);
		assert_int_equal(t.status, TF_FIT);
		assert_true(t.xi > 0);
		assert_true(isfinite(t.lo_light) && t.lo <= t.lo_light + 1e-300);
		assert_true(t.lo < t.p && t.p < t.hi);
		inside += t.lo <= truth && truth <= t.hi;
		/* the lighter reading lies below a Weibull's truth, as the fit's above */
		light_below += t.lo_light <= truth;
	}
	print_message("weibull 0.5, D 789 us (truth %.3g): inside %d of 5\n", truth, inside);
	assert_int_equal(inside, 5);
	assert_int_equal(light_below, 5);
	/* a tail fitted with a shape at or below 0: no lighter reading */
	draw("gpd:10us,5us,-0.2", RUNS, 20000, 3);
	fit(RUNS, 34000, &t);
	if (t.status == TF_FIT && t.xi <= 0)
		assert_true(isnan(t.lo_light));
}

static void test_observed(void **state)
{
	struct tailfit t;

	(void)state;
	draw("exp:20us,3us", RUNS, 20000, 7);
	fit(RUNS, 25000, &t);
	assert_int_equal(t.status, TF_OBSERVED);
	/* exp(-5/3) = 0.189 of the periods */
	assert_true(t.lo < 0.1889 && 0.1889 < t.hi);
	assert_true(fabs(t.p - 0.1889) < 0.01);
}

/* Each check that stops an extrapolation: its status, and no number. */
static void test_refusals(void **state)
{
	struct tailfit t;

	(void)state;
	/* one run */
	draw("gpd:10us,5us,0.2", 1, 50000, 3);
	fit(1, 300000, &t);
	assert_int_equal(t.status, TF_ONE_RUN);
	assert_true(isnan(t.p));
	/* too few samples for any threshold */
	draw("gpd:10us,5us,0.2", RUNS, 90, 3);
	fit(RUNS, 300000, &t);
	assert_int_equal(t.status, TF_FEW);
	/* no samples */
	for (int i = 0; i < RUNS; i++)
		hist_init(runs[i]);
	fit(RUNS, 300000, &t);
	assert_int_equal(t.status, TF_NO_DATA);
	/* drift: one run is of another law, body and tail */
	draw("exp:10us,1us", RUNS - 1, 20000, 5);
	draw_into(RUNS - 1, "gpd:10us,5us,0.2", 1, 20000, 6);
	fit(RUNS, 300000, &t);
	print_message("drift: status %d disp %.1f p %.3g body %.1f\n", t.status, t.dispersion,
		      t.cluster_p, t.body_dispersion);
	assert_int_equal(t.status, TF_DRIFT);
	assert_true(t.dispersion > 10 && t.cluster_p < TAILFIT_CLUSTER_P);
	assert_true(t.body_dispersion > 10);
	assert_true(isnan(t.p));
	/* clustered: the same law in every run, and one run 300 more of its tail's samples */
	draw("gpd:10us,5us,0.1", RUNS, 20000, 5);
	{
		struct synth_law law;
		struct synth_rng r = { 6 };
		char err[64];

		assert_int_equal(synth_parse("gpd:30us,5us,0.1", &law, err, sizeof(err)), 0);
		synth_hist(&law, &r, 300, runs[RUNS - 1]);
	}
	fit(RUNS, 300000, &t);
	print_message("clustered: status %d disp %.1f p %.3g body %.1f extreme p %.3g\n", t.status,
		      t.dispersion, t.cluster_p, t.body_dispersion, t.extreme_p);
	assert_int_equal(t.status, TF_CLUSTERED);
	assert_true(t.dispersion > 2 && t.cluster_p < TAILFIT_CLUSTER_P);
	assert_true(isnan(t.p));
	/* tails no generalized Pareto law fits: a lump far above the body (its
	 * samples spread evenly over 10 us), and a lump of a few values */
	for (int i = 0; i < RUNS; i++) {
		hist_init(runs[i]);
		for (int k = 0; k < 20000; k++)
			hist_add(runs[i], k % 20 == 0 ? 500000 + (k * 7919) % 10000 : 10000 + k % 3);
	}
	fit(RUNS, 900000, &t);
	print_message("lump: status %d gof %.3g\n", t.status, t.gof_p);
	assert_int_equal(t.status, TF_REJECTED);
	assert_true(t.gof_p < TAILFIT_GOF_P);
	assert_true(isnan(t.p));
	for (int i = 0; i < RUNS; i++) {
		hist_init(runs[i]);
		for (int k = 0; k < 20000; k++)
			hist_add(runs[i], k % 20 == 0 ? 500000 + k % 7 : 10000 + k % 3);
	}
	fit(RUNS, 900000, &t);
	assert_int_equal(t.status, TF_REJECTED);
	assert_true(isnan(t.p));
}

/*
 * A body and two far spikes (the runs' maxima 1,150.6 and 1,089.3 us of
 * an exp:20us,3us body): the body's fit passes its test, but makes the
 * spikes all but impossible, so it is refused as a second regime and the
 * answer is the count above D (none: [0, 3.7e-5]), not the body's law.
 * The same runs without the spikes are extrapolated.
 */
static void test_second_regime(void **state)
{
	struct tailfit t;
	char text[4096];

	(void)state;
	draw("exp:20us,3us", RUNS, 20000, 1);
	fit(RUNS, 1691000, &t);
	assert_int_equal(t.status, TF_FIT);
	assert_true(t.extreme_p >= TAILFIT_EXTREME_P);
	hist_add(runs[1], 1150600);
	hist_add(runs[3], 1089300);
	fit(RUNS, 1691000, &t);
	print_message("regime: u %lld, level %lld seen %llu expected %.3g p %.3g; p %.3g [%.3g, %.3g]\n",
		      (long long)t.u_ns, (long long)t.extreme_ns, (unsigned long long)t.extreme_seen,
		      t.extreme_expected, t.extreme_p, t.p, t.lo, t.hi);
	assert_int_equal(t.status, TF_REGIME);
	assert_true(t.extreme_p < TAILFIT_EXTREME_P);
	assert_true(t.extreme_ns >= 1000000 && t.extreme_ns <= 1150600);
	assert_true(t.extreme_seen >= 1 && t.extreme_seen <= 2);
	assert_true(t.extreme_expected < 1e-3);
	/* counted: none above D in 100,002 periods */
	assert_int_equal(t.observed, 0);
	assert_true(t.p == 0 && t.lo == 0);
	assert_true(t.hi > 3e-5 && t.hi < 4.5e-5);
	beyond_text(&t, "wake-up", "rt", 1000000, 0, text, sizeof(text));
	assert_non_null(strstr(text, "wake-up on rt: none of 100,002 periods was later than"));
	assert_non_null(strstr(text, "a second kind of delay"));
	assert_non_null(strstr(text, "per 10^9 periods [0,"));
	assert_null(strstr(text, "Statistics:"));
	/* the page's words add the statistics behind them */
	beyond_text(&t, "wake-up", "rt", 1000000, 1, text, sizeof(text));
	assert_non_null(strstr(text, "Statistics: counted, not extrapolated (the runs' largest values are far above what the tail's fit allows: a second regime in the tail)"));
	assert_string_equal(tailfit_keyword(t.status), "regime");
	/* below the spikes, D is counted as well: 2 above 1 ms */
	fit(RUNS, 1000000, &t);
	assert_int_equal(t.status, TF_REGIME);
	assert_int_equal(t.observed, 2);
	assert_true(t.lo < 2e-5 && 2e-5 < t.hi);
}

/* Runs drawn with each run's draws counted in `windows` windows: fitted with them. */
static uint64_t window_count[RUNS][20][TL_BINS];

static void fit_windows(const char *law_text, int windows, uint64_t seed, int64_t deadline,
			int with, struct tailfit *t)
{
	struct synth_law law;
	struct synth_rng r = { seed };
	struct tailfit_blocks blocks[RUNS];
	char err[256];

	assert_int_equal(synth_parse(law_text, &law, err, sizeof(err)), 0);
	memset(window_count, 0, sizeof(window_count));
	for (int i = 0; i < RUNS; i++) {
		hist_init(runs[i]);
		synth_blocks(&law, &r, 20000, windows, runs[i], window_count[i]);
		blocks[i] = (struct tailfit_blocks){ windows, window_count[i] };
	}
	struct tailfit_in in = { .run = (const struct hist *const *)runs, .n = RUNS,
				 .blocks = with ? blocks : NULL, .deadline_ns = deadline };

	assert_int_equal(tailfit_runs(&in, t), 0);
}

/*
 * Late periods in bursts within runs (each draw repeated 10 times): the
 * runs' windows show them, the fit allows for them (widened by their
 * dispersion) and still holds the truth, and a run to show none is as
 * much longer; independent draws in the same windows show none; without
 * windows, nothing is tested.
 */
static void test_bursts(void **state)
{
	struct synth_law law;
	struct tailfit t;
	char err[256], text[4096];
	/* exp:20us,3us above 68 us: exp(-48 / 3) = 1.1e-7 a period */
	const double truth = exp(-48.0 / 3);

	(void)state;
	fit_windows("exp:20us,3us+bursts:10", 2, 3, 68000, 1, &t);
	assert_int_equal(t.status, TF_FIT);
	assert_true(t.burst_p < TAILFIT_CLUSTER_P);
	assert_true(t.burst > 4 && t.burst < 25);
	assert_true(t.widen >= t.burst);
	assert_true(t.burst_windows >= 2 * RUNS && t.burst_ns > 0 && t.burst_ns <= t.u_ns);
	assert_true(t.lo <= truth && truth <= t.hi);
	assert_true(fabs(t.need_periods - 2995732273.6 * t.burst) < 1e3 * t.burst);
	beyond_text(&t, "wake-up", "rt", 1000000, 1, text, sizeof(text));
	assert_non_null(strstr(text, "; late periods come in bursts within runs (about "));
	assert_non_null(strstr(text, "; bursts within runs: the runs' windows' counts above "));
	/* more windows: the same answer, the bursts as plain */
	fit_windows("exp:20us,3us+bursts:10", 20, 3, 68000, 1, &t);
	assert_true(t.burst_p < TAILFIT_CLUSTER_P && t.burst > 4);
	/* without the windows: not tested */
	fit_windows("exp:20us,3us+bursts:10", 2, 3, 68000, 0, &t);
	assert_true(isnan(t.burst_p) && t.burst == 1);
	/* independent draws: no bursts, and the run asked for is the plain one */
	fit_windows("exp:20us,3us", 20, 3, 68000, 1, &t);
	assert_int_equal(t.status, TF_FIT);
	assert_true(t.burst_p >= TAILFIT_CLUSTER_P);
	assert_true(fabs(t.need_periods - 2995732273.6) < 1e3);
	beyond_text(&t, "wake-up", "rt", 1000000, 1, text, sizeof(text));
	assert_null(strstr(text, "bursts"));
	/* a plan (the target at the truth) from runs of 20 windows: no word on windows; of 2: said */
	tailfit_retarget(&t, truth);
	assert_int_equal(tailfit_advice(&t), TA_RUN);
	beyond_text(&t, "wake-up", "rt", 1000000, 1, text, sizeof(text));
	assert_non_null(strstr(text, "; a run that settles it: "));
	assert_null(strstr(text, "timeline windows"));
	fit_windows("exp:20us,3us", 2, 3, 68000, 1, &t);
	assert_true(t.run_windows == 2 && !tailfit_bursts(&t));
	tailfit_retarget(&t, truth);
	assert_int_equal(tailfit_advice(&t), TA_RUN);
	beyond_text(&t, "wake-up", "rt", 1000000, 1, text, sizeof(text));
	assert_non_null(strstr(text, "; the runs' 2 timeline windows each could not show bursts of a few late periods"));
	/* each draw repeated: 100 draws in 10 windows, each window one draw ten times */
	assert_int_equal(synth_parse("exp:20us,3us+bursts:10", &law, err, sizeof(err)), 0);
	assert_int_equal(law.burst, 10);
	struct synth_rng r = { 1 };

	memset(window_count, 0, sizeof(window_count));
	hist_init(runs[0]);
	synth_blocks(&law, &r, 100, 10, runs[0], window_count[0]);
	assert_int_equal(runs[0]->count, 100);
	for (int w = 0; w < 10; w++) {
		int bins = 0;

		for (int b = 0; b < TL_BINS; b++)
			if (window_count[0][w][b])
				bins++, assert_int_equal(window_count[0][w][b], 10);
		assert_int_equal(bins, 1);
	}
	/* both modifiers, in either order */
	assert_int_equal(synth_parse("exp:20us,3us+bursts:3+spikes:0.001,10", &law, err, sizeof(err)), 0);
	assert_true(law.burst == 3 && law.spike_p == 0.001 && law.spike_f == 10);
	assert_int_equal(synth_parse("exp:20us,3us+spikes:0.001,10+bursts:3", &law, err, sizeof(err)), 0);
	assert_true(law.burst == 3 && law.spike_p == 0.001 && law.spike_f == 10);
}

/*
 * A timer tick every 4th period, 15 us (a body of two modes, 20 and
 * 35 us): the 4th, 8th ... period of each run is the later mode, and the
 * tail beyond the runs is still inside the interval.
 */
static void test_tick(void **state)
{
	struct synth_law law;
	struct synth_rng r = { 7 };
	struct tailfit t;
	char err[128];

	(void)state;
	/* with a tick of 1 ms, a window of one period says which periods had it */
	assert_int_equal(synth_parse("exp:20us,3us+tick:4,1ms", &law, err, sizeof(err)), 0);
	memset(window_count, 0, sizeof(window_count));
	hist_init(runs[0]);
	synth_blocks(&law, &r, 8, 8, runs[0], window_count[0]);
	for (int w = 0; w < 8; w++)
		for (int b = 0; b < TL_BINS; b++)
			if (window_count[0][w][b])
				assert_int_equal(b >= timeline_bin(1000000), w % 4 == 3);
	assert_int_equal(synth_parse("exp:20us,3us+tick:4,15us", &law, err, sizeof(err)), 0);
	draw("exp:20us,3us+tick:4,15us", RUNS, 20000, 91);
	fit(RUNS, 110000, &t);
	double truth = synth_sf(&law, 110000);

	print_message("tick D=110us: p %.3g [%.3g, %.3g] truth %.3g status %d\n", t.p, t.lo, t.hi, truth,
		      t.status);
	assert_int_equal(t.status, TF_FIT);
	assert_true(t.observed == 0);
	assert_true(t.lo <= truth && truth <= t.hi);
}

/* Two threads a run: the same periods to show the target, in half the hours (an interval that holds it). */
static void test_threads(void **state)
{
	struct tailfit t;
	char text[4096];
	struct tailfit_in in = { .run = (const struct hist *const *)runs, .n = RUNS,
				 .deadline_ns = 500000, .threads = 2 };

	(void)state;
	draw("gpd:10us,5us,0.2", RUNS, 20000, 1);
	assert_int_equal(tailfit_runs(&in, &t), 0);
	assert_int_equal(t.threads, 2);
	beyond_text(&t, "wake-up", "rt", 1000000, 0, text, sizeof(text));
	assert_non_null(strstr(text, "run 416 h (3e+09 periods of its 2 threads, none later)"));
	assert_non_null(strstr(text, "a run that settles it: 874 h (6.3e+09 periods of its 2 threads): at most 2 later show"));
	assert_int_equal(tailfit_advice(&t), TA_RUN);
	tailfit_retarget(&t, 1e-3);	/* far above the interval: shown */
	assert_int_equal(tailfit_advice(&t), TA_SHOWN);
	tailfit_retarget(&t, 1e-9);
	in.threads = 0;
	assert_int_equal(tailfit_runs(&in, &t), 0);
	assert_int_equal(t.threads, 1);
	beyond_text(&t, "wake-up", "rt", 1000000, 0, text, sizeof(text));
	assert_non_null(strstr(text, "run 832 h (3e+09 periods, none later)"));
}

/* Bad input; the observation rule; the laws' text. */
/*
 * Missed periods never ran: each counted above the deadline and among the
 * periods, and the tail counted, not extrapolated, however well the
 * periods that ran fit; none missed, the same runs extrapolate.
 */
static void test_missed(void **state)
{
	uint64_t missed[RUNS] = { 0 };
	struct tailfit t;

	(void)state;
	draw("exp:20us,3us", 5, 20000, 7);
	assert_int_equal(fit_missed(missed, 80000, 1, &t), 0);
	assert_int_equal(t.status, TF_FIT);
	assert_int_equal(t.missed, 0);
	missed[2] = 3;
	assert_int_equal(fit_missed(missed, 80000, 1, &t), 0);
	assert_int_equal(t.status, TF_MISSED);
	assert_int_equal(t.missed, 3);
	assert_true(t.observed >= 3);
	assert_true(t.periods == 5 * 20000 + 3);
	assert_true(t.p > 0 && t.lo > 0 && t.hi > t.p);
	assert_string_equal(tailfit_keyword(t.status), "missed");
	/* a deadline past the period: how late they were is not known, no answer */
	assert_int_equal(fit_missed(missed, 3600000000000LL, 0, &t), 0);
	assert_int_equal(t.status, TF_MISSED);
	assert_int_equal(t.observed, 0);
	assert_true(isnan(t.p));
	/* the runs themselves untouched */
	assert_int_equal(runs[2]->count, 20000);
}

static void test_input(void **state)
{
	struct tailfit t;
	struct synth_law law;
	char err[256];

	(void)state;
	draw("exp:20us,3us", RUNS, 100, 1);
	assert_int_equal(tailfit((const struct hist *const *)runs, RUNS, 0, 0, &t), -EINVAL);
	assert_int_equal(tailfit((const struct hist *const *)runs, RUNS, 1000, 1.5, &t), -EINVAL);
	assert_int_equal(tailfit((const struct hist *const *)runs, RUNS, 1000, 1e-6, &t), 0);
	/* none above D in -ln(0.05) / 1e-6 = 2.996e6 periods bounds P below 1e-6 */
	assert_true(fabs(t.need_periods - 2995732.27) < 1);
	/*
	 * the plan: at most 2 in 6.296e6 periods (2's one-sided 95 % upper
	 * bound) show it, failing 2.6 % of the time at a tenth of it (at most
	 * 1 in 4.74e6 would fail 8.2 %, the rule of three's none 26 %); 12
	 * or more (lower bound 6.92) show it missed, 11 (6.17) do not
	 */
	assert_int_equal(t.plan_most, 2);
	assert_int_equal(t.plan_missed, 12);
	assert_true(fabs(t.plan_periods - 6295794) < 10);
	tailfit_retarget(&t, 1e-9);
	assert_true(fabs(t.plan_periods - 6295794e3) < 1e4 && fabs(t.need_periods - 2995732273.6) < 1);
	assert_int_equal(tailfit_advice(&t), TA_MISSED);	/* every period above 1 us */
	assert_true(fabs(tailfit_gpd_sf(0, 5, 0.3) - 1) < 1e-15);
	assert_true(fabs(tailfit_gpd_sf(10, 5, 0) - exp(-2)) < 1e-15);
	assert_true(fabs(tailfit_gpd_sf(10, 5, 0.5) - 0.25) < 1e-15);
	assert_true(tailfit_gpd_sf(11, 5, -0.5) == 0);
	static const char *const bad[] = { "exp:20us", "gpd:1us,2us", "gpd:1us,2us,3", "normal:1us",
					   "exp:20,3us", "exp:20us,3us+spikes:2,10",
					   "exp:20us,3us+bursts:0", "exp:20us,3us+bursts:2.5",
					   "exp:20us,3us+storm:1", "exp:20us,3us+bursts:",
					   "lognormal:20us,0.2,0.1", "exp:20us,3us+tick:1,15us",
					   "exp:20us,3us+tick:4", "exp:20us,3us+tick:4,15",
					   "exp:20us,3us+tick:4.5,15us" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(synth_parse(bad[i], &law, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != 0);
	}
	assert_int_equal(synth_parse("exp:20us,3us+spikes:0.001,10", &law, err, sizeof(err)), 0);
	/* the spikes' share of the tail: 0.001 of them 10x, from at or below LOC */
	assert_true(fabs(synth_sf(&law, 100000) - (0.999 * exp(-80.0 / 3) + 0.001)) < 1e-9);
	/* a tick every 4th period, 15 us: a quarter of the periods shifted */
	assert_int_equal(synth_parse("exp:20us,3us+tick:4,15us", &law, err, sizeof(err)), 0);
	assert_true(law.tick_every == 4 && law.tick_ns == 15000);
	assert_true(fabs(synth_sf(&law, 50000) - (0.75 * exp(-10.0) + 0.25 * exp(-5.0))) < 1e-12);
	assert_true(fabs(synth_sf(&law, 30000) - (0.75 * exp(-10.0 / 3) + 0.25)) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extrapolates),
		cmocka_unit_test(test_weibull_tail),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_observed),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_second_regime),
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_bursts),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_input),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
