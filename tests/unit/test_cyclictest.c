/*
 * type = cyclictest (harness/measure/cell_cyclictest.c): the command line
 * a cell gives cyclictest — every axis it can take mapped to its option,
 * every one it cannot refused with why — and its histogram file read back:
 * each bin's count at its nanosecond, a thread's overflow at its max,
 * anything else in the file refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cell.h"
#include "cell_parts.h"
#include "config.h"
#include "matrix.h"

static struct config *load(const char *const *sets, int n)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	char err[512];

	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, n, err, sizeof(err)))
		fail_msg("config_load: %s", err);
	return cfg;
}

/* argv joined by blanks, from argv[1] (the program left out) */
static void joined(const struct ct_args *a, char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int i = 1; i < a->n && u < len; i++)
		u += (size_t)snprintf(buf + u, len - u, "%s%s", i > 1 ? " " : "", a->argv[i]);
}

static void command_lines(void **state)
{
	static const struct {
		const char *sets[6];
		const char *want;
	} cases[] = {
		{ { "matrix.workload=cyclictest", "campaign.duration=3s", "matrix.threads=2",
		    "matrix.interval=500us" },
		  "-q -m -N -t2 -i500 -D3 --policy=fifo -p90 -a0,1 -h1000000 --histfile=/tmp/h" },
		{ { "matrix.workload=cyclictest", "matrix.policy=rr", "matrix.priority=42",
		    "matrix.wakeup=rel" },
		  "-q -m -N -t1 -i1000 -D60 --policy=rr -p42 -r -a0 -h1000000 --histfile=/tmp/h" },
		{ { "matrix.workload=cyclictest", "matrix.policy=other", "matrix.clock=realtime",
		    "matrix.dma_latency=none" },
		  "-q -m -N -t1 -i1000 -D60 --policy=other -p0 -c1 --default-system -a0 -h1000000 --histfile=/tmp/h" },
		{ { "workload.ct.type=cyclictest", "workload.ct.histogram=200us",
		    "matrix.workload=ct", "matrix.wakeup=posix-timer", "matrix.dma_latency=20us" },
		  "-q -m -N -t1 -i1000 -D60 --policy=fifo -p90 -x --latency=20 -a0 -h200000 --histfile=/tmp/h" },
	};
	const int cpus[2] = { 0, 1 };
	struct ct_args *a = malloc(sizeof(*a));
	char why[256], line[1024];

	(void)state;
	assert_non_null(a);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = 0;

		while (n < 6 && cases[i].sets[n])
			n++;
		struct config *cfg = load(cases[i].sets, n);
		struct cell *cells;

		assert_true(matrix_expand(cfg, &cells) >= 1);
		int threads = cells[0].threads == AXIS_ALL ? 1 : (int)cells[0].threads;

		assert_int_equal(cyclictest_args(cfg, &cells[0], "ct", cpus, threads, "/tmp/h", a, why,
						 sizeof(why)), 0);
		assert_string_equal(a->argv[0], "ct");
		assert_null(a->argv[a->n]);
		joined(a, line, sizeof(line));
		assert_string_equal(line, cases[i].want);
		struct srcloc at = { 0 };

		assert_int_equal(cell_cyclictest_fits(cfg, &cells[0], 1, &at, why, sizeof(why)), 0);
		free(cells);
		config_free(cfg);
		free(cfg);
	}
	free(a);
}

static void refusals(void **state)
{
	static const struct {
		const char *sets[3];
		const char *want;
	} cases[] = {
		{ { "matrix.workload=cyclictest", "matrix.policy=deadline" },
		  "policy = deadline: cyclictest has none (rt-tests' cyclicdeadline is another program)" },
		{ { "matrix.workload=cyclictest", "matrix.wakeup=timerfd" },
		  "wakeup = timerfd: cyclictest sleeps with clock_nanosleep (abs, rel: -r) or a POSIX timer (-x) only" },
		{ { "matrix.workload=cyclictest", "matrix.clock=tai" },
		  "clock = tai: cyclictest has monotonic and realtime (-c) only" },
		{ { "matrix.workload=cyclictest", "campaign.duration=1500ms" },
		  "duration = 1500 ms: cyclictest's is whole seconds (-D)" },
	};
	char why[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = cases[i].sets[2] ? 3 : 2;
		struct config *cfg = load(cases[i].sets, n);
		struct cell *cells;

		assert_true(matrix_expand(cfg, &cells) >= 1);
		struct srcloc at = { 0 };
		char want[400];

		why[0] = '\0';
		assert_int_equal(cell_cyclictest_fits(cfg, &cells[0], 0, &at, why, sizeof(why)), -EINVAL);
		snprintf(want, sizeof(want), "workload cyclictest (type = cyclictest): %s", cases[i].want);
		assert_string_equal(why, want);
		/* said at [matrix] workload's line */
		assert_non_null(at.file);
		assert_int_equal(at.line, cfg->matrix.workload.loc.line);
		free(cells);
		config_free(cfg);
		free(cfg);
	}
}

static FILE *text(const char *s)
{
	FILE *fp = fmemopen((void *)s, strlen(s), "r");

	assert_non_null(fp);
	return fp;
}

static void histogram_files(void **state)
{
	/* cyclictest -N -h 4000 --histfile, two threads, cut to the bins that matter */
	static const char two[] =
		"# Histogram\n"
		"000000 000000 000000\n"
		"003655 000002 000000\n"
		"003719 000005 000001\n"
		"003999 000000 000003\n"
		"# Total: 000000007 000000004\n"
		"# Min Latencies: 03655 03719\n"
		"# Avg Latencies: 03700 03929\n"
		"# Max Latencies: 03719 1312021\n"
		"# Histogram Overflows: 00000 00002\n"
		"# Histogram Overflow at cycle number:\n"
		"# Thread 0:\n"
		"# Thread 1: 00592 00593\n";
	struct hist h[2];
	long long over[2], max[2];
	char why[256];
	FILE *fp = text(two);

	(void)state;
	assert_int_equal(cyclictest_read_hist(fp, 2, 4000, 100, h, over, max, why, sizeof(why)), 0);
	fclose(fp);
	assert_int_equal(h[0].count, 7);
	assert_int_equal(h[0].min, 3655);
	assert_int_equal(h[0].max, 3719);
	assert_int_equal(hist_percentile(&h[0], 50), 3719);
	assert_int_equal(over[0], 0);
	/* thread 1: 4 in range, 2 over: the first at its max, the other at the top */
	assert_int_equal(h[1].count, 6);
	assert_int_equal(over[1], 2);
	assert_int_equal(max[1], 1312021);
	assert_int_equal(h[1].max, 1312021);
	assert_int_equal(hist_count_above(&h[1], 3999), 2);
	assert_int_equal(hist_count_above(&h[1], 4001), 1);

	/* what is not cyclictest's file is refused, with why */
	static const struct {
		const char *text;
		int n;
		const char *want;
	} bad[] = {
		{ "", 1, "no histogram in it (0 bins, no \"# Max Latencies\" line)" },
		{ "000001 000001\n", 1, "no histogram in it (1 bins, no \"# Max Latencies\" line)" },
		{ "000001 000001\n# Max Latencies: 1\n", 2, "line 1 of its histogram: not a bin and 2 counts" },
		{ "000001 x\n# Max Latencies: 1\n", 1, "line 1 of its histogram: not a bin and 1 counts" },
		{ "000001 -3\n# Max Latencies: 1\n", 1, "line 1 of its histogram: not a bin and 1 counts" },
		{ "000001 000001\n", 0, "0 threads: cyclictest's file holds 1 to 256 here" },
		/* every number bounded (attack-5 host/07, 08, 09) */
		{ "000001 4611686018427387904\n# Max Latencies: 1\n", 1,
		  "thread 0: more wake-ups than a cell of this length can have (100 at most)" },
		{ "000001 000060\n000002 000041\n# Max Latencies: 2\n", 1,
		  "thread 0: more wake-ups than a cell of this length can have (100 at most)" },
		{ "000001 000001\n# Max Latencies: -5000\n", 1,
		  "thread 0: its \"# Max Latencies\" -5000 ns is not its wake-ups' (highest bin 1, 0 over the top)" },
		{ "003000 000001\n# Max Latencies: 2000\n", 1,
		  "thread 0: its \"# Max Latencies\" 2000 ns is not its wake-ups' (highest bin 3000, 0 over the top)" },
		{ "9223372036854775807 000001\n# Max Latencies: 1\n", 1,
		  "line 1 of its histogram: bin 9223372036854775807, past its top (histogram = 4000 ns)" },
		{ "000001 000001\n# Max Latencies: 9223372036854775807\n# Histogram Overflows: 1\n", 1,
		  "thread 0: its \"# Max Latencies\" 9223372036854775807 ns is not its wake-ups' (highest bin 1, 1 over the top)" },
		{ "000001 000001\n# Max Latencies: 5000\n# Histogram Overflows: 200\n", 1,
		  "thread 0: 200 overflows, past what a cell of this length can have" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fp = bad[i].text[0] ? text(bad[i].text) : fopen("/dev/null", "r");
		assert_non_null(fp);
		assert_int_equal(cyclictest_read_hist(fp, bad[i].n, 4000, 100, h, over, max, why,
						      sizeof(why)), -EINVAL);
		assert_string_equal(why, bad[i].want);
		fclose(fp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(command_lines),
		cmocka_unit_test(refusals),
		cmocka_unit_test(histogram_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
