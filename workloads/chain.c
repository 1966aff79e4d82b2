/*
 * chain: each period runs its steps in order (chain.h); a step's error
 * ends that period's chain with the error. What latlab times around run()
 * is the whole: io is every step's time, response the wake-up's intended
 * time to the last step's end — what a loop that reads, computes and
 * writes answers to. Each step's own time is io_stepN (common/metric.h):
 * one clock read before the first step and one after each, n + 1 a
 * period; a step's own metrics beyond io (noise's) are not carried.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

struct chain_state {
	int n;
	struct workload_ctx step[CHAIN_MAX];
};

static const struct opt chain_options[] = {
	{ .key = "steps", .type = OPT_STRING, .offset = offsetof(struct chain_opts, steps),
	  .def = "", .help = "the workloads each period runs, in order (comma list: [workload.NAME] sections or types; not a chain or a watch)" },
	{ 0 },
};

static int chain_check(const void *opts, char *err, size_t len)
{
	const struct chain_opts *o = opts;

	if (!o->steps[0])
		return snprintf(err, len, "type = chain needs steps = the workloads it runs, in order"),
		       -EINVAL;
	return 0;
}

static void chain_teardown(struct workload_ctx *ctx)
{
	const struct chain_opts *o = ctx->opts;
	struct chain_state *st = ctx->priv;

	if (!st)
		return;
	for (int i = st->n - 1; i >= 0; i--)
		if (o->ops[i]->teardown)
			o->ops[i]->teardown(&st->step[i]);
	free(st);
	ctx->priv = NULL;
}

static int chain_setup(struct workload_ctx *ctx)
{
	const struct chain_opts *o = ctx->opts;
	struct chain_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	ctx->priv = st;
	for (int i = 0; i < o->n; i++) {
		struct workload_ctx *s = &st->step[i];
		int rc;

		s->opts = o->opts[i];
		s->size = ctx->size;
		s->thread = ctx->thread;
		s->cpu = ctx->cpu;
		rc = o->ops[i]->setup ? o->ops[i]->setup(s) : 0;
		if (rc) {
			workload_fail(ctx, rc, "step %d (%s): %s", i + 1, o->ops[i]->name,
				      s->why[0] ? s->why : strerror(-rc));
			chain_teardown(ctx);
			return rc;
		}
		st->n = i + 1;
		ctx->metrics |= METRIC_BIT(METRIC_IO_STEP1 + i);
		if (!ctx->buf && s->buf) {	/* the first buffer, for numa's check */
			ctx->buf = s->buf;
			ctx->buflen = s->buflen;
		}
	}
	return 0;
}

static int64_t chain_run(struct workload_ctx *ctx)
{
	const struct chain_opts *o = ctx->opts;
	struct chain_state *st = ctx->priv;
	int64_t bytes = 0, t = mono_ns();

	for (int i = 0; i < st->n; i++) {
		int64_t r = o->ops[i]->run(&st->step[i]), end = mono_ns();

		ctx->metric_ns[METRIC_IO_STEP1 + i] = end - t;
		t = end;
		if (r < 0)
			return r;
		bytes += r;
	}
	return bytes;
}

int workload_sends_ip(const struct workload_ops *ops, const void *opts)
{
	const struct chain_opts *o = opts;
	int net = ops->net;

	for (int i = 0; ops == &workload_chain && i < o->n; i++)
		net |= o->ops[i]->net;
	return net;
}

const char *workload_net_to(const struct workload_ops *ops, const void *opts)
{
	const struct chain_opts *o = opts;
	const char *to = ops->net_to ? ops->net_to(opts) : NULL;

	for (int i = 0; !to && ops == &workload_chain && i < o->n; i++)
		to = o->ops[i]->net_to ? o->ops[i]->net_to(o->opts[i]) : NULL;
	return to;
}

/* A file one of its steps writes (the first), for a guest's disk. */
static const char *chain_fs_path(const void *opts)
{
	const struct chain_opts *o = opts;

	for (int i = 0; i < o->n; i++)
		if (o->ops[i]->fs_path)
			return o->ops[i]->fs_path(o->opts[i]);
	return NULL;
}

/* Each step that waits for a device: its io_stepN, and io and response with it. */
static unsigned chain_waits(const void *opts, unsigned devices)
{
	const struct chain_opts *o = opts;
	unsigned m = 0;

	for (int i = 0; i < o->n; i++)
		if (workload_wait_metrics(o->ops[i], o->opts[i], devices))
			m |= WAIT_METRICS | METRIC_BIT(METRIC_IO_STEP1 + i);
	return m;
}

/* What a step loads (the first plugin's object), for a guest's copy; NULL: none. */
static const char *chain_loads(const void *opts)
{
	const struct chain_opts *o = opts;

	for (int i = 0; i < o->n; i++)
		if (o->ops[i]->loads)
			return o->ops[i]->loads(o->opts[i]);
	return NULL;
}

/* Every step's preflight, the first refusal said with its step. */
static int chain_preflight(const void *opts, const char **key, char *err, size_t len)
{
	const struct chain_opts *o = opts;

	for (int i = 0; i < o->n; i++) {
		char why[512];
		const char *k = "type";
		int rc;

		if (!o->ops[i]->preflight)
			continue;
		rc = o->ops[i]->preflight(o->opts[i], &k, why, sizeof(why));
		if (rc) {
			*key = "steps";
			snprintf(err, len, "step %d (%s): %s", i + 1, o->ops[i]->name, why);
			return rc;
		}
	}
	return 0;
}

const struct workload_ops workload_chain = {
	.name = "chain",
	.help = "several workloads in order each period (steps = a, b): io is all of them, response to the last one's end",
	.options = chain_options,
	.opts_size = sizeof(struct chain_opts),
	.check = chain_check,
	.preflight = chain_preflight,
	.fs_path = chain_fs_path,
	.waits = chain_waits,
	.loads = chain_loads,
	.primary = METRIC_RESPONSE,
	.setup = chain_setup,
	.run = chain_run,
	.teardown = chain_teardown,
};
