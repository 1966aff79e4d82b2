/*
 * cyclictest: not latlab's thread but rt-tests' cyclictest, run for the
 * cell with the cell's interval, priority, policy, threads, affinity,
 * clock, wake-up and dma_latency, its own 1 ns histogram read back as
 * the cell's wake-up (harness/measure/cell_cyclictest.c runs the cell).
 * Beside `workload = timer` in one campaign it says whether latlab's
 * numbers are cyclictest's on this kernel (docs/own-code.md). This file
 * holds its options and what the machine must have: the program. A qemu
 * guest is given it and its libraries (`carries`).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "files.h"
#include "workload.h"
#include "cyclictest_opts.h"

static const struct opt cyclictest_options[] = {
	{ .key = "program", .type = OPT_STRING, .offset = offsetof(struct cyclictest_opts, program),
	  .def = "cyclictest",
	  .help = "the cyclictest to run, a path or a name on PATH (Debian's rt-tests; make deps installs it)" },
	{ .key = "histogram", .type = OPT_DURATION,
	  .offset = offsetof(struct cyclictest_opts, histogram), .min = 1000, .max = 10000000,
	  .def = "1ms",
	  .help = "the top of cyclictest's histogram (-N -h: one bin a nanosecond); a wake-up later than it is counted there, and said" },
	{ 0 },
};

/* The program's path on this machine (as PATH finds it), or -ENOENT with why. */
int cyclictest_program(const struct cyclictest_opts *o, char *path, size_t len, char *err,
		       size_t errlen)
{
	if (path_lookup(o->program, path, len) == 0)
		return 0;
	snprintf(err, errlen, "%s: not found%s", o->program,
		 strchr(o->program, '/') ? "" : " on PATH (Debian's rt-tests: make deps)");
	return -ENOENT;
}

static int cyclictest_check_period(const void *opts, int64_t period_ns, const char **key,
				   char *err, size_t len)
{
	(void)opts;
	*key = "interval";
	if (period_ns % 1000)
		return snprintf(err, len, "cyclictest's interval is whole microseconds (-i): %lld ns is not",
				(long long)period_ns), -EINVAL;
	return 0;
}

static int cyclictest_preflight(const void *opts, const char **key, char *err, size_t len)
{
	char path[4096];

	*key = "program";
	return cyclictest_program(opts, path, sizeof(path), err, len);
}

static const char *cyclictest_carries(const void *opts, const char **key)
{
	*key = "program";
	return ((const struct cyclictest_opts *)opts)->program;
}

const struct workload_ops workload_cyclictest = {
	.name = "cyclictest",
	.help = "rt-tests' cyclictest, not latlab's thread: run with the cell's interval, priority, policy, threads, affinity, clock, wake-up and dma_latency, its own histogram (1 ns bins) the cell's wake-up; beside workload = timer it says whether latlab's figures are cyclictest's (docs/own-code.md)",
	.options = cyclictest_options,
	.opts_size = sizeof(struct cyclictest_opts),
	.check_period = cyclictest_check_period,
	.preflight = cyclictest_preflight,
	.carries = cyclictest_carries,
	.kind = WORKLOAD_CYCLICTEST,
	.primary = METRIC_WAKEUP,
};
