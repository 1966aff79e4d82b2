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

/* The arguments, or 2 after saying which is wrong. */
static int parse(int argc, char **argv, struct synth_law *law, long long *n,
		 struct synth_rng *r)
{
	char err[256], *end;

	if (argc != 4) {
		fprintf(stderr, "usage: latsynth LAW SAMPLES SEED\n");
		return 2;
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
	int rc = parse(argc, argv, &law, &n, &r);

	if (rc)
		return rc;
	/* the histogram only once the arguments hold: an error leaks nothing */
	struct hist *h = malloc(sizeof(*h));

	if (!h) {
		fprintf(stderr, "latsynth: out of memory\n");
		return 3;
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
