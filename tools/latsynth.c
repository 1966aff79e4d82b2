/*
 * latsynth LAW SAMPLES SEED [WINDOWS]: one run's wake-ups drawn from a law
 * with a known tail (harness/report/synth.h), written as a cell writes
 * them (results/cellfiles.c): a line "summary," and summary.csv's
 * statistics (samples, min_ns ... max_ns), then hist.csv's rows of thread
 * 0 on CPU -1 (tools/synth-tail.sh puts in the cell's CPU); with WINDOWS,
 * then the draws in time order counted in that many windows of 10 s, as
 * timeline.csv's rows, each line "timeline," and the row.
 * Exit 2 on a law that does not parse (said on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cellfiles.h"
#include "csvfile.h"
#include "hist.h"
#include "synth.h"
#include "timeline.h"

/* The arguments, or 2 after saying which is wrong. */
static int parse(int argc, char **argv, struct synth_law *law, long long *n,
		 struct synth_rng *r, int *windows)
{
	char err[256], *end;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: latsynth LAW SAMPLES SEED [WINDOWS]\n");
		return 2;
	}
	*windows = 0;
	if (argc == 5) {
		long w = strtol(argv[4], &end, 10);

		if (*end || w < 1 || w > 100000) {
			fprintf(stderr, "latsynth: WINDOWS '%s' is not a count from 1 to 100000\n", argv[4]);
			return 2;
		}
		*windows = (int)w;
	}
	*n = strtoll(argv[2], &end, 10);
	if (*end || *n < 1) {
		fprintf(stderr, "latsynth: SAMPLES '%s' is not a count above 0\n", argv[2]);
		return 2;
	}
	r->s = strtoull(argv[3], &end, 10);
	if (*end || synth_parse(argv[1], law, err, sizeof(err)) != 0) {
		fprintf(stderr, "latsynth: %s\n", *end ? "SEED is not a number" : err);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct synth_law law;
	struct synth_rng r;
	struct csvw w = { .fp = stdout };
	long long n;
	int windows;
	int rc = parse(argc, argv, &law, &n, &r, &windows);

	if (rc)
		return rc;
	/* the histogram only once the arguments hold: an error leaks nothing */
	struct hist *h = malloc(sizeof(*h));
	uint64_t (*count)[TL_BINS] = calloc((size_t)windows + 1, sizeof(*count));

	if (!h || !count) {
		free(h);
		free(count);
		fprintf(stderr, "latsynth: out of memory\n");
		return 3;
	}
	hist_init(h);
	synth_blocks(&law, &r, n, windows, h, count);
	csvw_str(&w, "summary");
	cell_hist_summary(&w, h);
	csvw_end(&w);
	cell_hist_rows(&w, h, 0, -1, "wakeup");
	for (int i = 0; i < windows; i++)
		for (int b = 0; b < TL_BINS; b++) {
			if (!count[i][b])
				continue;
			csvw_str(&w, "timeline");
			csvw_int(&w, 10LL * i);
			csvw_int(&w, 0);
			csvw_str(&w, "wakeup");
			csvw_int(&w, b);
			csvw_int(&w, b ? timeline_lo(b) : 0);
			csvw_int(&w, b < TL_BINS - 1 ? timeline_lo(b + 1) : 0);
			csvw_int(&w, (int64_t)count[i][b]);
			csvw_end(&w);
		}
	free(h);
	free(count);
	return 0;
}
