/*
 * rt-hog: a known disturbance. A SCHED_FIFO thread at `priority` that
 * busy-loops for `busy` every `every` on the load's CPUs: a measured
 * thread of lower priority on the same CPU is late by up to `busy`, and
 * a spike capture must name this process. A real disturbance keeps no
 * phase to the measured period: the first burst starts at a random point
 * of the first `every` (phase = random), and each later one up to
 * `jitter` after its slot, so a short burst meets the wake-ups as often
 * as its length says, not every time or never. Bounded by construction: busy
 * is at most 100 ms and at most half of every, the loop reads the clock
 * and leaves at `busy`, and RT throttling stays as the system has it.
 * ops = busy periods.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/random.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "load_ops.h"
#include "units.h"

struct rt_hog_opts {
	int64_t priority;
	int64_t busy;
	int64_t every;
	int64_t jitter;
	int phase;		/* 0 random, 1 fixed */
};

static const struct opt rt_hog_options[] = {
	{ .key = "priority", .type = OPT_INT,
	  .offset = offsetof(struct rt_hog_opts, priority), .min = 1, .max = 99,
	  .def = "95", .help = "its SCHED_FIFO priority (above the measured threads' to delay them)" },
	{ .key = "busy", .type = OPT_DURATION,
	  .offset = offsetof(struct rt_hog_opts, busy), .min = 10 * NS_PER_US,
	  .max = 100 * NS_PER_MS, .def = "2ms",
	  .help = "how long each burst holds the CPU (at most 100ms)" },
	{ .key = "every", .type = OPT_DURATION,
	  .offset = offsetof(struct rt_hog_opts, every), .min = 100 * NS_PER_US,
	  .max = 3600 * NS_PER_S, .def = "100ms",
	  .help = "period of the bursts (at least twice busy)" },
	{ .key = "jitter", .type = OPT_DURATION,
	  .offset = offsetof(struct rt_hog_opts, jitter), .min = 0,
	  .max = 3600 * NS_PER_S, .def = "0s", .flags = OPT_ECHO_SET,
	  .help = "each burst starts up to this long after its slot, uniformly (at most every - busy x 2)" },
	{ .key = "phase", .type = OPT_ENUM, .choices = "random|fixed",
	  .offset = offsetof(struct rt_hog_opts, phase), .def = "random", .flags = OPT_ECHO_SET,
	  .help = "the first burst: at a random point of the first `every`, or exactly `every` after the start (the same phase to the measured period in every run)" },
	{ 0 },
};

static int rt_hog_check(const void *p, char *err, size_t len)
{
	const struct rt_hog_opts *o = p;

	if (o->busy * 2 > o->every) {
		snprintf(err, len, "busy = %lld ns is more than half of every = %lld ns: the hog must leave the CPU at least half the time",
			 (long long)o->busy, (long long)o->every);
		return -EINVAL;
	}
	if (o->jitter > o->every - 2 * o->busy) {
		snprintf(err, len, "jitter = %lld ns is more than every - 2 x busy = %lld ns: bursts would run into each other",
			 (long long)o->jitter, (long long)(o->every - 2 * o->busy));
		return -EINVAL;
	}
	return 0;
}

/* Uniform in [0, span) from the kernel's random bits; 0 when span <= 0. */
static int64_t random_below(int64_t span)
{
	uint64_t r = 0;

	if (span <= 0 || getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return 0;
	return (int64_t)(r % (uint64_t)span);
}

static int64_t rt_hog_run(struct load_ctx *ctx)
{
	const struct rt_hog_opts *o = ctx->opts;
	struct sched_param sp = { .sched_priority = (int)o->priority };
	int rc;

	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		return -errno;	/* EPERM: no real-time privilege */
	rc = ctx->ready(ctx);
	int64_t slot = mono_ns() + (o->phase == 0 ? random_below(o->every) : o->every);
	int64_t next = slot + random_below(o->jitter);

	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		struct timespec t = { next / NS_PER_S, next % NS_PER_S };

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
			continue;
		int64_t from = mono_ns();

		while (mono_ns() - from < o->busy &&
		       !atomic_load_explicit(ctx->stop, memory_order_relaxed))
			;	/* the disturbance itself, bounded by busy */
		load_count(ctx, 0, 1);
		slot += o->every;
		if (slot < mono_ns())	/* throttled or stopped for a while */
			slot = mono_ns() + o->every;
		next = slot + random_below(o->jitter);
	}
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_rt_hog = {
	.name = "rt-hog",
	.help = "a SCHED_FIFO thread busy for `busy` every `every`: a known disturbance for spike captures",
	.options = rt_hog_options,
	.opts_size = sizeof(struct rt_hog_opts),
	.check = rt_hog_check,
	.run = rt_hog_run,
};
