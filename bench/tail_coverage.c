/*
 * How often tailfit's 95 % interval holds the true probability of a
 * latency above D, on runs drawn from laws whose tail is known exactly
 * (harness/report/synth.h): per law and deadline, REPS independent
 * campaigns of RUNS runs of SAMPLES periods, the deadline where the true
 * probability per period is 1e-7 and 1e-9 (the runs hold 1e5 periods:
 * 100 and 10 000 times beyond them). Prints, per setting, how many fits
 * passed their checks, the coverage among them with a Wilson 95 %
 * interval, the refusals by reason, how far above the truth the upper
 * bound lies (median) and how many intervals reach down to 0.
 * Deterministic: the seeds are the replicate numbers.
 *   build/bench/tail_coverage [REPS] [RUNS] [SAMPLES] [LAW...]  (LAW: those laws only)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "synth.h"
#include "tailfit.h"

#define MAX_RUNS 20

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The x where the law's survival is p: bisection in log x. */
static double solve_sf(const struct synth_law *law, double p)
{
	double lo = log(1), hi = log(1e13);

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (synth_sf(law, exp(mid)) > p)
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

int main(int argc, char **argv)
{
	static const char *const laws[] = {
		"exp:20us,3us",
		"gpd:10us,5us,0.2",
		"gpd:10us,5us,0.4",
		"gpd:10us,5us,-0.2",
		"lognormal:20us,0.2,0.02,20us,0.1",
		"exp:20us,3us+spikes:0.0005,10",
	};
	static const double truths[] = { 1e-7, 1e-9 };
	int reps = argc > 1 ? atoi(argv[1]) : 200, runs = argc > 2 ? atoi(argv[2]) : 5;
	int samples = argc > 3 ? atoi(argv[3]) : 20000;
	struct hist *h[MAX_RUNS];
	double *width = malloc((size_t)reps * sizeof(*width));

	if (reps < 1 || runs < 1 || runs > MAX_RUNS || samples < 1 || !width)
		return 2;
	for (int i = 0; i < runs; i++)
		if (!(h[i] = malloc(sizeof(*h[i]))))
			return 2;
	printf("tail_coverage: %d campaigns a setting, %d runs of %d periods each\n", reps, runs, samples);
	printf("%-36s %-6s %-9s %5s %-22s %s\n", "law", "true p", "D", "fits", "covered (95 % Wilson)",
	       "refused: clustered rejected few; upper bound / true p (median); lower bound 0");
	for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]); l++) {
		struct synth_law law;
		char err[256];
		int asked = argc <= 4;

		for (int a = 4; a < argc; a++)
			asked |= strcmp(argv[a], laws[l]) == 0;
		if (!asked)
			continue;

		if (synth_parse(laws[l], &law, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", laws[l], err);
			return 2;
		}
		for (size_t t = 0; t < sizeof(truths) / sizeof(truths[0]); t++) {
			double d = solve_sf(&law, truths[t]), truth = synth_sf(&law, floor(d));
			int fits = 0, covered = 0, atzero = 0, refused[TF_CLUSTERED + 1] = { 0 };

			for (int r = 0; r < reps; r++) {
				struct synth_rng rng = { (uint64_t)r * 7919 + l * 104729 };
				struct tailfit fit;

				for (int i = 0; i < runs; i++) {
					hist_init(h[i]);
					synth_hist(&law, &rng, samples, h[i]);
				}
				if (tailfit((const struct hist *const *)h, runs, (int64_t)floor(d), 0,
					    &fit) != 0)
					return 2;
				if (fit.status != TF_FIT) {
					refused[fit.status]++;
					continue;
				}
				width[fits++] = fit.hi / truth;
				atzero += fit.lo == 0;
				covered += fit.lo <= truth && truth <= fit.hi;
			}
			double lo, hi;

			wilson(covered, fits, &lo, &hi);
			qsort(width, (size_t)fits, sizeof(*width), cmp_double);
			printf("%-36s %-6.0e %6.0f us %5d %5.1f %% [%4.1f, %5.1f] %4d %4d %4d; %6.1fx; %d\n", laws[l],
			       truths[t], d / 1000, fits, fits ? 100.0 * covered / fits : 0, 100 * lo,
			       100 * hi, refused[TF_CLUSTERED], refused[TF_REJECTED], refused[TF_FEW],
			       fits ? width[fits / 2] : NAN, atzero);
			fflush(stdout);
		}
	}
	for (int i = 0; i < runs; i++)
		free(h[i]);
	free(width);
	return 0;
}
