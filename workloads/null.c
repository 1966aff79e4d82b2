/*
 * null: the harness's own test double. Its option `fail_every` makes
 * every n-th run() fail with EIO, so the error path (counted, first errno
 * kept, no fast fake sample) is tested without a real device.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

struct null_opts {
	int64_t fail_every;
};

struct null_state {
	int64_t calls;
};

static const struct opt null_options[] = {
	{ .key = "fail_every", .type = OPT_INT,
	  .offset = offsetof(struct null_opts, fail_every),
	  .min = 0, .max = INT64_MAX, .def = "0",
	  .help = "fail every n-th cycle with EIO (0: never)" },
	{ 0 },
};

static int null_setup(struct workload_ctx *ctx)
{
	ctx->priv = calloc(1, sizeof(struct null_state));
	return ctx->priv ? 0 : -ENOMEM;
}

static int64_t null_run(struct workload_ctx *ctx)
{
	const struct null_opts *o = ctx->opts;
	struct null_state *st = ctx->priv;

	st->calls++;
	if (o->fail_every > 0 && st->calls % o->fail_every == 0)
		return -EIO;
	return 0;
}

static void null_teardown(struct workload_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct workload_ops workload_null = {
	.name = "null",
	.help = "does nothing; fail_every = N makes every N-th cycle fail (for tests)",
	.options = null_options,
	.opts_size = sizeof(struct null_opts),
	.primary = METRIC_WAKEUP,
	.setup = null_setup,
	.run = null_run,
	.teardown = null_teardown,
};
