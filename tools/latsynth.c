/*
 * latsynth LAW SAMPLES SEED: one run's wake-ups drawn from a law with a
 * known tail (harness/report/synth.h), written as a cell writes them
 * (results/cellfiles.c): a line "summary," and summary.csv's statistics
 * (samples, min_ns ... max_ns), then hist.csv's rows of thread 0 on CPU
 * -1 (tools/synth-tail.sh puts in the cell's CPU).
 * Exit 2 on a law that does not parse (said on stderr).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cellfiles.h"
#include "csvfile.h"
#include "hist.h"
#include "synth.h"

int main(int argc, char **argv)
{
	struct synth_law law;
	char err[256], *end;
	struct hist *h = malloc(sizeof(*h));
	struct csvw w = { .fp = stdout };

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
	synth_hist(&law, &r, n, h);
	csvw_str(&w, "summary");
	cell_hist_summary(&w, h);
	csvw_end(&w);
	cell_hist_rows(&w, h, 0, -1, "wakeup");
	free(h);
	return 0;
}
