/*
 * timer: no I/O at all. The worker only wakes on its period, which is
 * exactly what cyclictest measures; `io` is the cost of two clock reads.
 */
#include "workload.h"

static int64_t timer_run(struct workload_ctx *ctx)
{
	(void)ctx;
	return 0;
}

const struct workload_ops workload_timer = {
	.name = "timer",
	.help = "no I/O: wake on the period only (what cyclictest measures)",
	.primary = METRIC_WAKEUP,
	.run = timer_run,
};
