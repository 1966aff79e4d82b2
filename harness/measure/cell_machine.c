#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cell_parts.h"
#include "cpulist.h"
#include "axis_ops.h"
#include "log.h"

/*
 * What a cell changes on the machine for itself — [matrix] isolation,
 * every axis with hooks (axis_ops.h: idle, throttle), and where latlab's
 * own threads run ([campaign] housekeeping) — and the undoing of it all
 * after the cell.
 */

/*
 * latlab's own threads ([campaign] housekeeping; with isolation, the
 * housekeeping cpuset's CPUs): the main thread's affinity, which the
 * sample writer, the tracer's programs and the loads' supervisor inherit.
 */
static void own_cpus_set(const struct config *cfg, struct cell_result *res,
			 struct machine *m)
{
	const struct isolation *iso = &m->iso;
	cpu_set_t want, online;

	cpulist_online(&online);
	if (CPU_COUNT(&cfg->housekeeping))
		CPU_AND(&want, &cfg->housekeeping, &online);
	else if (iso->kind != ISO_NONE)
		want = iso->housekeeping;
	else
		return;
	if (CPU_COUNT(&want) == 0 || sched_getaffinity(0, sizeof(m->own_before), &m->own_before) != 0)
		return;
	if (sched_setaffinity(0, sizeof(want), &want) != 0) {
		cell_log(res, "warning: latlab's own threads not moved to the housekeeping CPUs: %s",
			 strerror(errno));
		return;
	}
	m->own_set = 1;
	cpulist_format(&want, res->housekeeping, sizeof(res->housekeeping));
	cell_log(res, "latlab's own threads on CPUs %s", res->housekeeping);
}

/* Each hooked axis of c whose begin runs in phase, on the CPUs the threads use. 0, or -1 (the cell an error). */
static int begin_phase(const struct config *cfg, const struct cell *c, struct cell_result *res,
		       struct machine *m, enum axis_phase phase)
{
	cpu_set_t measured;
	char why[PATH_MAX + 128];

	cell_measured_cpus(res, &measured);	/* the unpinned threads' CPUs too */
	for (int a = 0; a < TAXIS_COUNT; a++) {
		const struct axis_ops *ops = axis_hooks[a];
		int64_t v = ops ? axis_ops_value(cfg, c, a) : 0;
		const char *item = ops && cfg->matrix.ax[a].n ? cfg->matrix.ax[a].s[c->ax[a]] : "";

		if (!ops || !ops->begin || ops->phase != phase || v == ops->as_is)
			continue;
		m->begun |= 1u << a;
		if (ops->begin(cfg, c, v, &measured, &m->undo, res->axis_done[a],
			       sizeof(res->axis_done[a]), why, sizeof(why)) != 0) {
			cell_end_with(res, CELL_ERROR, "%s = %s: %.200s", taxis_name(a), item, why);
			return -1;
		}
		if (res->axis_done[a][0])
			cell_log(res, "%s = %s: %s", taxis_name(a), item, res->axis_done[a]);
	}
	return 0;
}

int cell_machine_begin(const struct config *cfg, const struct cell *c, struct cell_result *res,
		       struct machine *m)
{
	struct isolation *iso = &m->iso;
	struct undo *u = &m->undo;
	int kind = (int)cell_axis_value(cfg, c, TAXIS_ISOLATION);
	cpu_set_t measured;
	char why[PATH_MAX + 128];
	int rc;

	memset(m, 0, sizeof(*m));
	undo_init(u);
	if (kind == ISO_NONE && !axis_ops_any(cfg, c)) {
		own_cpus_set(cfg, res, m);
		return 0;
	}
	if ((rc = undo_open(u, UNDO_DIR, axis_undo_roots())) != 0) {
		cell_end_with(res, CELL_ERROR, "%s: %s (no journal, so nothing changed)",
			      UNDO_DIR, strerror(-rc));
		return -1;
	}
	if (begin_phase(cfg, c, res, m, AXIS_BEFORE_ISOLATION) != 0)
		return -1;
	cell_pinned_cpus(res, &measured);
	if (isolation_begin(iso, u, kind, &measured, why, sizeof(why)) != 0) {
		cell_end_with(res, CELL_ERROR, "isolation = %s: %.200s",
			      cfg->matrix.isolation.s[c->isolation], why);
		return -1;
	}
	for (int i = 0; i < res->nthreads; i++)
		isolation_cpu_tasks(iso, res->workers[i].cpu, res->workers[i].cpuset_tasks,
				    sizeof(res->workers[i].cpuset_tasks));
	own_cpus_set(cfg, res, m);
	return begin_phase(cfg, c, res, m, AXIS_AFTER_ISOLATION);
}

int cell_machine_loaded(const struct config *cfg, const struct cell *c, struct cell_result *res,
			struct machine *m)
{
	isolation_sweep(&m->iso);	/* the loads to the housekeeping CPUs too */
	return begin_phase(cfg, c, res, m, AXIS_AFTER_LOAD);
}

void cell_machine_end(struct cell_result *res, const char *id, struct machine *m)
{
	struct isolation *iso = &m->iso;

	if (iso->kind != ISO_NONE) {
		isolation_describe(iso, res->isolation, sizeof(res->isolation));
		cell_log(res, "isolation: %s", res->isolation);
	}
	for (int a = TAXIS_COUNT - 1; a >= 0; a--)
		if ((m->begun & 1u << a) && axis_hooks[a]->end)
			axis_hooks[a]->end();
	if (undo_finish(&m->undo, res->not_undone, sizeof(res->not_undone)) > 0) {
		cell_log(res, "error: not undone: %s", res->not_undone);
		log_error("cell %s: latlab could not undo what it changed: %s", id, res->not_undone);
	}
	isolation_end(iso);
	if (m->own_set)
		sched_setaffinity(0, sizeof(m->own_before), &m->own_before);
}

