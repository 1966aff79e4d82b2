/*
 * What every workload uses (workload.h): why a setup failed. The
 * registry (registry.c) lists the workloads; they call this, never it.
 */
#include <stdarg.h>
#include <stdio.h>

#include "workload.h"

int workload_fail(struct workload_ctx *ctx, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	return rc;
}

unsigned workload_wait_metrics(const struct workload_ops *ops, const void *opts,
			       unsigned devices)
{
	if (ops->waits)
		return ops->waits(opts, devices);
	return ops->net && (devices & WAIT_NET) ? WAIT_METRICS : 0;
}
