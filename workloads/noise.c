/*
 * noise: OS noise, the way oslat and the osnoise tracer see it, safely.
 * Each period the measured thread reads the clock in a loop for `busy`
 * (at most half the period, checked against every interval when the
 * config is read, so the thread always sleeps) and records
 *   noise_max    the largest gap between two consecutive reads: the
 *                longest the CPU was taken from it (an interrupt, a
 *                softirq, a higher-priority thread, the hypervisor)
 *   noise_total  the sum of the gaps longer than `threshold`: the time
 *                stolen from the window (osnoise's threshold, 1 µs)
 * The window is wall time: a preemption does not lengthen it, it shows
 * as one long gap. `io` is the window itself (about `busy`).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "units.h"
#include "workload.h"

struct noise_opts {
	int64_t busy;		/* ns of clock reads per period */
	int64_t threshold;	/* a gap above it is noise (noise_total) */
};

static const struct opt noise_options[] = {
	{ .key = "busy", .type = OPT_DURATION, .offset = offsetof(struct noise_opts, busy),
	  .min = NS_PER_US, .max = NS_PER_S, .def = "200us",
	  .help = "time spent reading the clock each period (at most 50 % of the interval)" },
	{ .key = "threshold", .type = OPT_DURATION,
	  .offset = offsetof(struct noise_opts, threshold),
	  .min = 1, .max = NS_PER_S, .def = "1us",
	  .help = "a gap between two clock reads longer than this counts in noise_total (osnoise's default)" },
	{ 0 },
};

static int noise_check_period(const void *opts, int64_t period_ns, const char **key,
			      char *err, size_t errlen)
{
	const struct noise_opts *o = opts;

	if (o->busy * 2 <= period_ns)
		return 0;
	*key = "busy";
	snprintf(err, errlen, "busy = %lld ns is more than 50 %% of the period (%lld ns): the thread must sleep every period",
		 (long long)o->busy, (long long)period_ns);
	return -EINVAL;
}

static int64_t noise_run(struct workload_ctx *ctx)
{
	const struct noise_opts *o = ctx->opts;
	int64_t start = mono_ns(), prev = start, end = start + o->busy;
	int64_t max = 0, total = 0;

	for (;;) {
		int64_t now = mono_ns(), gap = now - prev;

		if (gap > max)
			max = gap;
		if (gap > o->threshold)
			total += gap;
		if (now >= end)
			break;
		prev = now;
	}
	ctx->metric_ns[METRIC_NOISE_MAX] = max;
	ctx->metric_ns[METRIC_NOISE_TOTAL] = total;
	return 0;
}

const struct workload_ops workload_noise = {
	.name = "noise",
	.help = "OS noise (as oslat/osnoise): read the clock for `busy` each period; records noise_max and noise_total",
	.options = noise_options,
	.opts_size = sizeof(struct noise_opts),
	.check_period = noise_check_period,
	.metrics = METRIC_BIT(METRIC_NOISE_MAX) | METRIC_BIT(METRIC_NOISE_TOTAL),
	.primary = METRIC_NOISE_MAX,
	.run = noise_run,
};
