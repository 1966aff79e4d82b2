/*
 * latsynth LAW SAMPLES SEED: one run's wake-ups drawn from a law with a
 * known tail (harness/report/synth.h), printed as a summary line with
 * summary.csv's statistics and hist.csv's buckets, computed as a cell
 * computes them (hist.c). tools/synth-tail.sh puts them into a tree.
 *   summary,SAMPLES,MIN,MEAN,STDDEV,P50,P90,P99,P99.9,P99.99,MAX
 *   hist,LO,HI,COUNT   (each bucket with a sample)
 * Exit 2 on a law that does not parse (said on stderr).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"
#include "synth.h"

int main(int argc, char **argv)
{
	static const double pct[] = { 50, 90, 99, 99.9, 99.99 };
	struct synth_law law;
	char err[256], *end;
	struct hist *h = malloc(sizeof(*h));

	if (argc != 4 || !h) {
		fprintf(stderr, "usage: latsynth LAW SAMPLES SEED\n");
		return 2;
	}
	long long n = strtoll(argv[2], &end, 10);

	if (*end || n < 1) {
		fprintf(stderr, "latsynth: SAMPLES '%s' is not a count above 0\n", argv[2]);
		return 2;
	}
	struct synth_rng r = { strtoull(argv[3], &end, 10) };

	if (*end || synth_parse(argv[1], &law, err, sizeof(err)) != 0) {
		fprintf(stderr, "latsynth: %s\n", *end ? "SEED is not a number" : err);
		return 2;
	}
	hist_init(h);
	for (long long i = 0; i < n; i++)
		hist_add(h, llround(synth_draw(&law, &r)));
	printf("summary,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64, h->count, h->min,
	       (int64_t)(hist_mean(h) + 0.5), (int64_t)(hist_stddev(h) + 0.5));
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		printf(",%" PRId64, hist_percentile(h, pct[i]));
	printf(",%" PRId64 "\n", h->max);
	for (int i = 0; i < HIST_BUCKETS; i++) {
		int64_t lo, hi;

		if (!h->bucket[i])
			continue;
		hist_bucket_range(i, &lo, &hi);
		printf("hist,%" PRId64 ",%" PRId64 ",%" PRIu64 "\n", lo, hi, h->bucket[i]);
	}
	free(h);
	return 0;
}
