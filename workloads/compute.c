/*
 * compute: a fixed amount of work each period, the control law of a
 * loop that reads, computes and writes (docs/own-code.md). Either
 *   loops = N   N rounds of a fixed integer body (a xorshift step and a
 *               multiply-accumulate): the same instructions on every
 *               kernel, so on the instruction clock the same time too;
 *               what it takes on a host is the machine's and the
 *               interference's (caches, other CPUs' memory traffic)
 *   time = D    busy for D of CLOCK_MONOTONIC, reading the clock: the
 *               same time on every kernel, whatever preempts it (a
 *               preemption inside D shortens the work, not the step)
 * exactly one of them. io is the step's time.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "units.h"
#include "workload.h"

struct compute_opts {
	int64_t loops;
	int64_t time;
};

static const struct opt compute_options[] = {
	{ .key = "loops", .type = OPT_INT, .offset = offsetof(struct compute_opts, loops),
	  .min = 0, .max = 1000000000, .def = "0",
	  .help = "rounds of a fixed integer body each period (the same instructions on every kernel); 0: time = says" },
	{ .key = "time", .type = OPT_DURATION, .offset = offsetof(struct compute_opts, time),
	  .min = 0, .max = NS_PER_S, .def = "0ns",
	  .help = "busy this long each period by CLOCK_MONOTONIC (the same time on every kernel); 0: loops = says" },
	{ 0 },
};

static int compute_check(const void *opts, char *err, size_t errlen)
{
	const struct compute_opts *o = opts;

	if ((o->loops > 0) == (o->time > 0)) {
		snprintf(err, errlen, "compute: give exactly one of loops = N (the same instructions on every kernel) or time = D (the same time)");
		return -EINVAL;
	}
	return 0;
}

static int compute_check_period(const void *opts, int64_t period_ns, const char **key,
				 char *err, size_t errlen)
{
	const struct compute_opts *o = opts;

	if (o->time < period_ns)
		return 0;
	*key = "time";
	snprintf(err, errlen, "compute: time = %lld ns is not less than the period (%lld ns): every period would be missed",
		 (long long)o->time, (long long)period_ns);
	return -EINVAL;
}

/* The body: kept by the result the caller stores, never folded away. */
static uint64_t work(int64_t loops, uint64_t x)
{
	uint64_t acc = 0;

	for (int64_t i = 0; i < loops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += x * 0x9e3779b97f4a7c15ULL;
	}
	return acc;
}

static int64_t now_mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS_PER_S + t.tv_nsec;
}

static int64_t compute_run(struct workload_ctx *ctx)
{
	const struct compute_opts *o = ctx->opts;
	static _Thread_local volatile uint64_t sink;

	if (o->loops > 0) {
		sink = work(o->loops, sink | 1);
		return 0;
	}
	for (int64_t end = now_mono() + o->time; now_mono() < end;)
		;
	return 0;
}

const struct workload_ops workload_compute = {
	.name = "compute",
	.help = "a fixed amount of work each period: loops = N rounds of a fixed integer body (the same instructions on every kernel) or time = D busy (the same time); io is the step",
	.options = compute_options,
	.opts_size = sizeof(struct compute_opts),
	.check = compute_check,
	.check_period = compute_check_period,
	.primary = METRIC_RESPONSE,
	.run = compute_run,
};
