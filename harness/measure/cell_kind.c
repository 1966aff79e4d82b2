#include <stdio.h>
#include <string.h>

#include "axis_ops.h"
#include "cell_kind.h"
#include "cell_parts.h"

static const struct cell_kind kinds[WORKLOAD_KINDS] = {
	[WORKLOAD_THREADS] = {
		.name = "threads",
		.whose = "latlab's own",
		.machine_axes = 1,
		.run = cell_threads_run,
	},
	[WORKLOAD_CYCLICTEST] = {
		.name = "cyclictest",
		.whose = "cyclictest's",
		.fits = cell_cyclictest_fits,
		.run = cell_cyclictest_run,
	},
	[WORKLOAD_WATCH] = {
		.name = "watch",
		.whose = "a watched program's",
		.guest_preflights = 1,
		.fits = cell_watch_fits,
		.run = cell_watch_run,
	},
};

const struct cell_kind *cell_kind_at(enum workload_kind k)
{
	return &kinds[k];
}

const struct cell_kind *cell_kind_of(const struct workload_ops *ops)
{
	return cell_kind_at(ops->kind);
}

int cell_kind_refuses(const struct cell_kind *kind, const struct config *cfg,
		      const struct cell *c, char *why, size_t len)
{
	int a = kind->machine_axes ? -1 : axis_ops_first_set(cfg, c);
	const struct axis *x = a >= 0 ? &cfg->matrix.ax[a] : NULL;

	if (x)
		snprintf(why, len, "%s = %s: latlab does that for its own threads, not for %s (workload %s, type = %s)",
			 taxis_name(a), x->n ? x->s[c->ax[a]] : "", kind->whose,
			 cfg->workload[c->workload].name, cfg->workload[c->workload].ops->name);
	return a;
}

int cell_run(const struct config *cfg, const struct cell *c,
	     const struct run_env *env, const char *dir,
	     struct cell_result *res)
{
	const struct cell_kind *kind = cell_kind_of(cfg->workload[c->workload].ops);
	int sig;

	memset(res, 0, sizeof(*res));
	loadset_init(&res->loads);
	res->log = open_memstream(&res->logbuf, &res->loglen);
	res->started_real = clock_ns(CLOCK_REALTIME);
	res->timeline_ns = cfg->campaign.timeline;
	sig = kind->run(cfg, c, env, dir, res);
	if (res->status != CELL_OK)
		cell_log(res, "%s: %s", cell_status_name(res->status),
			 res->reason[0] ? res->reason : "signal");
	return sig;
}
