/*
 * How often tailfit's 95 % interval holds the true probability of a
 * latency above D, on runs drawn from laws whose tail is known exactly
 * (harness/report/synth.h): per law and deadline, REPS independent
 * campaigns of RUNS runs of SAMPLES periods, the deadline where the true
 * probability per period is 1e-7 and 1e-9 (the runs hold 1e5 periods:
 * 100 and 10 000 times beyond them). Prints, per setting, how many fits
 * passed their checks, the coverage among them with a Wilson 95 %
 * interval, the refusals by reason, how far above the truth the upper
 * bound lies (median) and how many intervals reach down to 0; and, for
 * the campaigns refused as a second regime in the tail (rare far spikes),
 * how often the runs' count's interval, which answers them instead,
 * holds the truth; how many answers of either kind lie wholly below
 * the truth by more than their own width (the goal: none); and, for a
 * law with spikes, how many campaigns saw one (a sample beyond the
 * body's 1e-12 quantile) and how many of those were still fitted.
 * A law "A|B" draws the first half of the runs (rounded up) from A and
 * the rest from B: runs that drift between two laws (the truth is their
 * mixture by runs). Each run's samples are also counted in WINDOWS
 * windows of its time, as timeline.csv has them (2: a 20 s run at 1 kHz
 * with the default 10 s window), for the within-run test of bursts; the
 * "bursts" column says in how many fits it found them (WINDOWS 0: none,
 * the test off, as a tree without timeline.csv). Then the advice
 * (tailfit_advice and its plan) with the target ten times the truth and
 * a tenth of it: how often it says at once that the target is shown or
 * missed (and wrongly), and how often it is right, the plan's run counted
 * by its chance of settling it right (docs/report.md).
 * Deterministic: the seeds are the replicate numbers.
 *   build/bench/tail_coverage [REPS] [RUNS] [SAMPLES] [WINDOWS] [LAW...]  (LAW: those laws only)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "stats.h"
#include "synth.h"
#include "tailfit.h"

#define MAX_RUNS 20

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A setting's laws: law[0] for runs below `split`, law[1] for the rest. */
struct setting {
	struct synth_law law[2];
	int split, runs;
};

/* P(X > x) of one run drawn at random from the setting's runs. */
static double setting_sf(const struct setting *st, double x)
{
	return (st->split * synth_sf(&st->law[0], x) +
		(st->runs - st->split) * synth_sf(&st->law[1], x)) / st->runs;
}

/* The x where the setting's survival is p: bisection in log x. */
static double solve_sf(const struct setting *st, double p)
{
	double lo = log(1), hi = log(1e13);

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (setting_sf(st, exp(mid)) > p)
			lo = mid;
		else
			hi = mid;
	}
	return exp(hi);
}

static void wilson(int k, int n, double *lo, double *hi)
{
	double z = 1.959964, p = n ? (double)k / n : 0, d = 1 + z * z / n;
	double c = (p + z * z / (2.0 * n)) / d, h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

	*lo = n ? c - h : 0;
	*hi = n ? c + h : 1;
}

/*
 * The advice at two targets: ten times the truth (the plan should show it
 * met) and a tenth of it (should show it missed). Per side: said at once
 * (shown, or missed), said wrongly at once, and the plan's run's chance
 * of settling it right, summed over campaigns. True late periods come in
 * bursts of L (1: single); the plan counts bursts where it saw them
 * (its words: "at most 1 burst"), late periods where not.
 */
struct advice_tally {
	int right_now, wrong_now;
	double plan;
};

static double poisson_at_most(double lambda, long long k)
{
	return k < 0 ? 0 : 1 - stats_poisson_at_least(lambda, k + 1);
}

static void judge_advice(const struct tailfit *fit, double truth, int L, struct advice_tally *met,
			 struct advice_tally *missed)
{
	struct tailfit f = *fit;
	/* the bursts a run holds, counted as bursts where it saw them, else as their periods */
	int per = tailfit_bursts(fit) ? 1 : L;

	tailfit_retarget(&f, truth * TAILFIT_PLAN_MARGIN);	/* the truth a tenth of the target */
	switch (tailfit_advice(&f)) {
	case TA_SHOWN: met->right_now++; met->plan += 1; break;
	case TA_MISSED: met->wrong_now++; break;
	default: met->plan += poisson_at_most(f.plan_periods * truth / L, f.plan_most / per);
	}
	tailfit_retarget(&f, truth / TAILFIT_PLAN_MARGIN);	/* ten times the target */
	switch (tailfit_advice(&f)) {
	case TA_MISSED: missed->right_now++; missed->plan += 1; break;
	case TA_SHOWN: missed->wrong_now++; break;
	default:
		missed->plan += stats_poisson_at_least(f.plan_periods * truth / L,
						       (f.plan_missed + per - 1) / per);
	}
}

/* What every setting shares: the sizes asked for, the runs' buffers. */
struct bench {
	int reps, runs, samples, windows;
	struct hist *h[MAX_RUNS];
	uint64_t (*count[MAX_RUNS])[TL_BINS];
	struct tailfit_blocks blocks[MAX_RUNS];
	double *width, *under;	/* per fit: its upper and lower end over the truth */
};

/* One line of the table: law (the l-th, st) with D where the truth is `want`. 0 or -1. */
static int one_deadline(struct bench *b, const struct setting *st, const char *law, size_t l,
			double want)
{
	double d = solve_sf(st, want), truth = setting_sf(st, floor(d));
	int fits = 0, covered = 0, atzero = 0, regime = 0, regime_covered = 0, far = 0;
	int refused[TF_DRIFT + 1] = { 0 }, saw = 0, saw_fit = 0, burst = 0;
	struct advice_tally met = { 0 }, missed = { 0 };
	int L = st->law[0].burst > 1 ? st->law[0].burst : 1;
	/* a campaign "saw" the spikes when a sample lies beyond the body's 1e-12 */
	struct setting body = *st;

	body.law[0].spike_p = body.law[1].spike_p = 0;
	double beyond = st->law[0].spike_p > 0 ? solve_sf(&body, 1e-12) : INFINITY;

	for (int r = 0; r < b->reps; r++) {
		struct synth_rng rng = { (uint64_t)r * 7919 + l * 104729 };
		struct tailfit fit;

		for (int i = 0; i < b->runs; i++) {
			hist_init(b->h[i]);
			memset(b->count[i], 0, (size_t)b->windows * sizeof(*b->count[i]));
			synth_blocks(&st->law[i >= st->split], &rng, b->samples, b->windows,
				     b->h[i], b->count[i]);
			b->blocks[i] = (struct tailfit_blocks){ b->windows, b->count[i] };
		}
		struct tailfit_in in = { .run = (const struct hist *const *)b->h,
					 .blocks = b->windows ? b->blocks : NULL, .n = b->runs,
					 .deadline_ns = (int64_t)floor(d) };

		if (tailfit_runs(&in, &fit) != 0)
			return -1;
		burst += fit.status == TF_FIT && tailfit_bursts(&fit);
		judge_advice(&fit, truth, L, &met, &missed);
		int seen = 0;

		for (int i = 0; i < b->runs; i++)
			seen |= (double)b->h[i]->max > beyond;
		saw += seen;
		saw_fit += seen && fit.status == TF_FIT;
		if (fit.status == TF_FIT || fit.status == TF_REGIME)
			far += fit.hi < truth && truth - fit.hi > fit.hi - fit.lo;
		if (fit.status == TF_REGIME) {
			regime++;
			regime_covered += fit.lo <= truth && truth <= fit.hi;
			continue;
		}
		if (fit.status != TF_FIT) {
			refused[fit.status]++;
			continue;
		}
		b->under[fits] = fit.lo / truth;
		b->width[fits++] = fit.hi / truth;
		atzero += fit.lo == 0;
		covered += fit.lo <= truth && truth <= fit.hi;
	}
	double lo, hi;

	wilson(covered, fits, &lo, &hi);
	qsort(b->width, (size_t)fits, sizeof(*b->width), cmp_double);
	qsort(b->under, (size_t)fits, sizeof(*b->under), cmp_double);
	printf("%-36s %-6.0e %6.0f us %5d %5.1f %% [%4.1f, %5.1f] %4d %4d %4d %4d; %8.3gx; %8.2gx; %d;"
	       " %d, %d; %d; %d, %d; %d; %d, %d, %.1f %%; %d, %d, %.1f %%\n",
	       law, want, d / 1000, fits, fits ? 100.0 * covered / fits : 0,
	       100 * lo, 100 * hi, refused[TF_CLUSTERED], refused[TF_DRIFT],
	       refused[TF_REJECTED], refused[TF_FEW], fits ? b->width[fits / 2] : NAN,
	       fits ? b->under[fits / 2] : NAN,
	       atzero, regime, regime_covered, far, saw, saw_fit, burst, met.right_now,
	       met.wrong_now, 100 * met.plan / b->reps, missed.right_now, missed.wrong_now,
	       100 * missed.plan / b->reps);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const laws[] = {
		"exp:20us,3us",
		"gpd:10us,5us,0.2",
		"gpd:10us,5us,0.4",
		"gpd:10us,5us,-0.2",
		"lognormal:20us,0.2,0.02,20us,0.1",
		"exp:20us,3us+spikes:0.0005,10",
		/* a body and rare far spikes: the usual shape of real latency */
		"exp:20us,3us+spikes:0.00001,50",
		"gpd:10us,5us,0.1+spikes:0.00001,50",
		"exp:20us,3us+spikes:0.000001,50",
		"exp:20us,3us+spikes:0.00001,10",
		"exp:20us,3us+spikes:0.0001,50",
		/* tails heavier than an exponential's, in no Pareto's domain at u */
		"weibull:10us,3us,0.3",
		"weibull:10us,3us,0.5",
		"weibull:10us,3us,0.7",
		/* runs that drift: half of them twice as wide */
		"exp:20us,3us|exp:20us,6us",
		/* a timer tick every 4th period: 15 us later (a body of two modes), 5 us */
		"exp:20us,3us+tick:4,15us",
		"gpd:10us,5us,0.2+tick:4,5us",
		/* late periods in bursts within runs: each draw repeated */
		"exp:20us,3us+bursts:3",
		"exp:20us,3us+bursts:10",
		"gpd:10us,5us,0.2+bursts:10",
		"lognormal:20us,0.2,0.02,20us,0.1+bursts:10",
	};
	static const double truths[] = { 1e-7, 1e-9 };
	struct bench b = {
		.reps = argc > 1 ? atoi(argv[1]) : 200, .runs = argc > 2 ? atoi(argv[2]) : 5,
		.samples = argc > 3 ? atoi(argv[3]) : 20000, .windows = argc > 4 ? atoi(argv[4]) : 2,
	};

	if (b.reps < 1 || b.runs < 1 || b.runs > MAX_RUNS || b.samples < 1 || b.windows < 0)
		return 2;
	b.width = malloc((size_t)b.reps * sizeof(*b.width));
	b.under = malloc((size_t)b.reps * sizeof(*b.under));
	if (!b.width || !b.under)
		return 2;
	for (int i = 0; i < b.runs; i++) {
		b.h[i] = malloc(sizeof(*b.h[i]));
		b.count[i] = malloc((size_t)(b.windows + 1) * sizeof(*b.count[i]));
		if (!b.h[i] || !b.count[i])
			return 2;
	}
	printf("tail_coverage: %d campaigns a setting, %d runs of %d periods each, %d windows a run\n",
	       b.reps, b.runs, b.samples, b.windows);
	printf("%-36s %-6s %-9s %5s %-22s %s\n", "law", "true p", "D", "fits", "covered (95 % Wilson)",
	       "refused: clustered drift rejected few; upper bound / true p (median); lower bound / true p (median); lower bound 0;"
	       " regime: n, count's interval covers; far below; saw the spikes: n, fitted; bursts;"
	       " truth a tenth of the target: shown at once, missed (wrongly), the advice right %;"
	       " ten times: missed at once, shown (wrongly), the advice right %");
	for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]); l++) {
		struct setting st = { .runs = b.runs, .split = b.runs };
		char err[256], text[256];
		const char *bar = strchr(laws[l], '|');
		int asked = argc <= 5;

		for (int a = 5; a < argc; a++)
			asked |= strcmp(argv[a], laws[l]) == 0;
		if (!asked)
			continue;
		snprintf(text, sizeof(text), "%.*s", bar ? (int)(bar - laws[l]) : 255, laws[l]);
		if (synth_parse(text, &st.law[0], err, sizeof(err)) != 0 ||
		    synth_parse(bar ? bar + 1 : text, &st.law[1], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", laws[l], err);
			return 2;
		}
		if (bar)
			st.split = (b.runs + 1) / 2;
		for (size_t t = 0; t < sizeof(truths) / sizeof(truths[0]); t++)
			if (one_deadline(&b, &st, laws[l], l, truths[t]) != 0)
				return 2;
	}
	for (int i = 0; i < b.runs; i++) {
		free(b.h[i]);
		free(b.count[i]);
	}
	free(b.width);
	free(b.under);
	return 0;
}
