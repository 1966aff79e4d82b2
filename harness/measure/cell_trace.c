/*
 * What the kernel says beside a cell, for cell.c: spike captures
 * ([trace] mode = spikes), the kernel's timerlat ([trace] timerlat = on)
 * and the interference counters of the measured CPUs (cell_parts.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "cell_parts.h"
#include "log.h"
#include "units.h"

/* the index of the least latency among n > 0 kept (the earliest of equals) */
static int least_kept(const struct capture *kept, int n)
{
	int least = 0;

	for (int i = 1; i < n; i++)
		if (kept[i].latency_ns < kept[least].latency_ns)
			least = i;
	return least;
}

int spikes_slot(const struct capture *kept, int n, int max, int keep_worst, int64_t latency)
{
	if (n < max)
		return n;
	if (!keep_worst || n < 1)
		return -1;
	int least = least_kept(kept, n);

	return latency > kept[least].latency_ns ? least : -1;
}

int64_t spikes_floor(const struct capture *kept, int n, int max, int keep_worst,
		     int64_t threshold)
{
	if (!keep_worst || n < max || n < 1)
		return threshold;
	int64_t least = kept[least_kept(kept, n)].latency_ns;

	return least > threshold ? least : threshold;
}

/* trace-N.txt and trace-N.dat of a capture not kept (model names them) */
static void remove_capture(const char *dir, int n)
{
	static const char *const ext[] = { "txt", "dat" };
	char name[64], path[PATH_MAX];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		cell_trace_name(name, sizeof(name), n, ext[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		(void)unlink(path);	/* none there (no .dat): nothing to remove */
	}
}

/*
 * Keeping the worst with every place taken: c, taken into the spare
 * place past the kept, takes the least one's place where it is worse;
 * the kept stay in the order they were taken (their numbers).
 */
static void keep_worse(struct spikes *sp, struct cell_result *res, const struct capture *c)
{
	struct capture *kept = res->captures;
	int n = res->ncaptures;
	int slot = spikes_slot(kept, n, sp->max, 1, c->latency_ns);

	if (slot < 0) {	/* the threshold rose after this wake-up was taken */
		remove_capture(sp->dir, c->n);
		cell_log(res, "capture %d: %lld ns, not above the %d kept: removed", c->n,
			 (long long)c->latency_ns, n);
		return;
	}
	cell_log(res, "capture %d takes the place of capture %d (%lld ns), the least of the %d kept",
		 c->n, kept[slot].n, (long long)kept[slot].latency_ns, n);
	remove_capture(sp->dir, kept[slot].n);
	memmove(&kept[slot], &kept[slot + 1], (size_t)(n - 1 - slot) * sizeof(*kept));
	kept[n - 1] = *c;
}

/*
 * A fired trap: its capture saved, tracing re-armed while captures
 * remain — or, keeping the worst, always, above the least kept. A
 * capture's steal is since the poll before it: /proc/stat read each poll
 * where the kernel counts steal at all (else its 0 stands).
 */
void cell_spikes_poll(struct spikes *sp, struct cell_result *res)
{
	int full = res->ncaptures >= sp->max;

	if (!sp->tracer || (full && !sp->keep_worst))
		return;
	if (!atomic_load_explicit(&sp->trap.fired, memory_order_acquire)) {
		if (sp->steal_counted)
			intf_steal_ns("/proc/stat", sp->steal);
		return;
	}
	int64_t steal[CPU_SETSIZE];

	if (sp->steal_counted)
		intf_steal_ns("/proc/stat", steal);
	else
		memcpy(steal, sp->steal, sizeof(steal));
	/* made at open: sp->max, and a spare past them when keeping the worst */
	struct capture *c = &res->captures[full ? sp->max : res->ncaptures];
	int rc = tracer_capture(sp->tracer, &sp->trap, sp->kprio, sp->start,
				++sp->taken, sp->dir, c);
	int cpu = c->cpu >= 0 && c->cpu < CPU_SETSIZE ? c->cpu : 0;

	c->steal_ns = steal[cpu] >= 0 && sp->steal[cpu] >= 0 ? steal[cpu] - sp->steal[cpu] : -1;
	memcpy(sp->steal, steal, sizeof(steal));
	if (rc)
		cell_log(res, "warning: capture %d: trace-%d.txt not written: %s",
			 c->n, c->n, strerror(-rc));
	else
		cell_log(res, "capture %d: thread %d, %lld ns late at +%lld ms: %s%s%s (saved %lld ms after the spike)",
			 c->n, c->thread, (long long)c->latency_ns,
			 (long long)(c->t_ns / NS_PER_MS),
			 c->a.complete ? part_name(c->a.item[c->a.culprit].part) : "incomplete",
			 c->a.complete ? ": " : ": ",
			 c->a.complete ? c->a.item[c->a.culprit].name : c->a.note,
			 (long long)(c->saved_ns / NS_PER_MS));
	if (full)
		keep_worse(sp, res, c);
	else
		res->ncaptures++;
	atomic_store_explicit(&sp->trap.threshold_ns,
			      spikes_floor(res->captures, res->ncaptures, sp->max, sp->keep_worst,
					   sp->threshold),
			      memory_order_relaxed);
	if ((res->ncaptures < sp->max || sp->keep_worst) && tracer_rearm(sp->tracer, &sp->trap) != 0)
		cell_log(res, "warning: tracing could not be re-armed: no more captures");
}

/* The CPUs the measured threads run on: their own, or their mask if unpinned. */
void cell_pinned_cpus(const struct cell_result *res, cpu_set_t *cpus)
{
	CPU_ZERO(cpus);
	for (int i = 0; i < res->nthreads; i++)
		if (res->workers[i].cpu >= 0)
			CPU_SET(res->workers[i].cpu, cpus);
}

void cell_measured_cpus(const struct cell_result *res, cpu_set_t *cpus)
{
	CPU_ZERO(cpus);
	for (int i = 0; i < res->nthreads; i++) {
		if (res->workers[i].cpu >= 0)
			CPU_SET(res->workers[i].cpu, cpus);
		else
			CPU_OR(cpus, cpus, &res->workers[i].mask);
	}
}

/*
 * What interfered over the cell: the counters' deltas on the measured
 * CPUs, and each thread's own context switches.
 */
void cell_interference(struct cell_result *res, const struct intf_snap *before)
{
	struct intf_snap after = { NULL, 0 }, d = { NULL, 0 };
	cpu_set_t cpus;
	char src[INTF_NAME];

	cell_measured_cpus(res, &cpus);
	if (intf_read(&after, &cpus) == -ENOMEM ||
	    intf_delta(before, &after, &d.row, &d.n) != 0) {
		cell_log(res, "warning: interference counts not kept: out of memory");
		intf_free(&after);
		return;
	}
	intf_free(&after);
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];
		struct intf_row *r = realloc(d.row, (size_t)(d.n + 2) * sizeof(*r));

		if (!r)
			break;
		d.row = r;
		for (int k = 0; k < 2; k++) {
			r = &d.row[d.n++];
			memset(r, 0, sizeof(*r));
			r->cpu = w->cpu >= 0 ? w->cpu : w->last_cpu;
			snprintf(r->kind, sizeof(r->kind), "ctxsw");
			snprintf(src, sizeof(src), "thread %d %s", i, k ? "involuntary" : "voluntary");
			snprintf(r->source, sizeof(r->source), "%s", src);
			r->count = k ? w->nivcsw : w->nvcsw;
		}
	}
	res->intf = d.row;
	res->nintf = d.n;
}

/* The trace instance for the cell's CPUs, if [trace] asks for it. */
void cell_spikes_open(const struct config *cfg, const struct cell *c,
			int policy, struct cell_result *res, const char *dir,
			struct spikes *sp)
{
	char err[256];
	cpu_set_t cpus;

	memset(sp, 0, sizeof(*sp));
	sp->trap.marker_fd = sp->trap.on_fd = -1;
	if (cfg->kernel[c->kernel].trace_mode != TRACE_SPIKES)
		return;
	cell_measured_cpus(res, &cpus);
	sp->threshold = cfg->trace.threshold;
	atomic_init(&sp->trap.threshold_ns, sp->threshold);
	sp->max = (int)cfg->trace.captures;
	sp->keep_worst = cfg->trace.keep == TRACE_KEEP_WORST;
	/*
	 * the kernel's scale, as sched_switch reports it: 99 - the FIFO/RR
	 * priority, 120 for SCHED_OTHER (whatever the priority axis says: the
	 * policy ignores it), -1 for SCHED_DEADLINE
	 */
	sp->kprio = c->policy == POL_OTHER || policy == SCHED_OTHER ? 120
		    : c->policy == POL_DEADLINE ? -1 : 99 - c->priority;
	sp->dir = dir;
	intf_steal_ns("/proc/stat", sp->steal);
	sp->steal_counted = intf_steal_counted(sp->steal);
	int rc = mkdir_p(dir);	/* trace-N.txt is written while measuring */
	if (rc) {
		cell_log(res, "warning: no spike captures in this cell: %s: %s", dir,
			 strerror(-rc));
		return;
	}
	/*
	 * every capture's room now, before the gate: not made by latlab's
	 * main thread just after a spike, on a guest's one vCPU the measured
	 * thread's too (drain_reserve says why); keeping the worst, a spare
	 * past them for the one that may take a place
	 */
	res->captures = calloc((size_t)(sp->max + sp->keep_worst), sizeof(*res->captures));
	if (!res->captures) {
		cell_log(res, "warning: no spike captures in this cell: out of memory");
		return;
	}
	if (tracer_open(&sp->tracer, &cfg->trace, &cpus, &sp->trap,
			res->trace_missing, sizeof(res->trace_missing),
			err, sizeof(err)) != 0) {
		cell_log(res, "warning: no spike captures in this cell: %s", err);
		return;
	}
	res->traced = 1;
	/* a guest on the instruction clock (a host variant cannot have it: config_check) */
	if (cfg->kernel[c->kernel].clock == CLOCK_ICOUNT)
		tracer_clock_counted(sp->tracer);
	snprintf(res->trace_method, sizeof(res->trace_method), "%s", tracer_method(sp->tracer));
	if (sp->trap.freeze)
		cell_log(res, "tracing by BPF's flight recorder (a ring of each measured CPU's last events): captures above %lld ns, %s %d",
			 (long long)cfg->trace.threshold, sp->keep_worst ? "the worst" : "at most", sp->max);
	else
		cell_log(res, "tracing in instance %s: captures above %lld ns, %s %d",
			 tracer_name(sp->tracer), (long long)cfg->trace.threshold,
			 sp->keep_worst ? "the worst" : "at most", sp->max);
	if (res->trace_missing[0])
		cell_log(res, "warning: this kernel cannot trace: %s (captures explain less)",
			 res->trace_missing);
	for (int i = 0; i < res->nthreads; i++)
		res->workers[i].trap = &sp->trap;
}

/*
 * [trace] timerlat = on: the kernel's timerlat on the threads' CPUs, when
 * each thread has a CPU of its own (its samples are per CPU). 1 when it
 * runs; else res->timerlat says why not (the cell goes on without it).
 */
int cell_timerlat_start(const struct config *cfg, const struct cell *c,
			  struct cell_result *res, struct timerlat *tl)
{
	int cpus[CPU_SETSIZE], n = 0;
	char why[sizeof(res->timerlat) - 8];

	if (!cfg->trace.timerlat || res->nthreads < 1)
		return 0;
	for (int i = 0; i < res->nthreads; i++) {
		int cpu = res->workers[i].cpu;

		for (int j = 0; j < n && cpu >= 0; j++)
			if (cpus[j] == cpu)
				cpu = -1;
		if (cpu < 0) {
			snprintf(res->timerlat, sizeof(res->timerlat),
				 "off: its samples are per CPU, and thread %d has no CPU of its own (affinity %s): pin each thread to one",
				 i, cfg->matrix.affinity.s[c->affinity]);
			cell_log(res, "warning: timerlat: %s", res->timerlat + 5);
			return 0;
		}
		cpus[n++] = cpu;
	}
	int rc = timerlat_open(tl, cpus, n, c->interval, why, sizeof(why));

	if (rc) {
		static int said;	/* on the console once; every cell.ini says it */

		timerlat_free(tl);
		snprintf(res->timerlat, sizeof(res->timerlat), "off: %s", why);
		cell_log(res, "warning: %s", why);
		if (!said++)
			log_warn("%s (the cells run without it; their cell.ini says so)", why);
		return 0;
	}
	snprintf(res->timerlat, sizeof(res->timerlat), "on");
	cell_log(res, "timerlat on CPUs of the %d threads, every %lld ns", n, (long long)c->interval);
	return 1;
}

/* Stop timerlat; its samples become each thread's timerlat_irq and timerlat_thread. */
void cell_timerlat_finish(struct cell_result *res, struct timerlat *tl)
{
	timerlat_close(tl);
	res->timerlat_lost = tl->lost;
	for (int i = 0; i < res->nthreads; i++) {
		const struct timerlat_cpu *t = timerlat_of(tl, res->workers[i].cpu);

		if (!t || !t->thread.count || !t->irq.count) {
			snprintf(res->timerlat, sizeof(res->timerlat),
				 "off: no timerlat samples from CPU %d", res->workers[i].cpu);
			cell_log(res, "warning: timerlat: no samples from CPU %d", res->workers[i].cpu);
			timerlat_free(tl);
			return;
		}
	}
	for (int i = 0; i < res->nthreads; i++) {
		struct worker *w = &res->workers[i];
		const struct timerlat_cpu *t = timerlat_of(tl, w->cpu);

		w->hist[METRIC_TIMERLAT_IRQ] = t->irq;
		w->hist[METRIC_TIMERLAT_THREAD] = t->thread;
		w->metrics |= METRIC_BIT(METRIC_TIMERLAT_IRQ) | METRIC_BIT(METRIC_TIMERLAT_THREAD);
	}
	snprintf(res->timerlat_sched, sizeof(res->timerlat_sched), "%s",
		 timerlat_of(tl, res->workers[0].cpu)->sched);
	if (tl->lost)
		cell_log(res, "warning: timerlat: the ring buffer dropped %llu of its samples",
			 (unsigned long long)tl->lost);
	timerlat_free(tl);
}

/* off, or said once on the console (every cell.ini says it) */
static void watch_off(struct cell_result *res, const char *why)
{
	static int said;

	snprintf(res->watch, sizeof(res->watch), "off: %.240s", why);
	cell_log(res, "warning: watch: %s", why);
	if (!said++)
		log_warn("[trace] watch: %s (the cells run without it; their cell.ini says so)", why);
}

int cell_watch_prepare(const struct config *cfg, struct cell_result *res, struct watch *w)
{
	int method = watch_method_of_trace(cfg->trace.watch);
	char why[sizeof(res->watch) - 8];

	if (!cfg->trace.watch)
		return 0;
	if (watch_prepare(w, method, why, sizeof(why)) != 0) {
		watch_free(w);
		watch_off(res, why);
		return 0;
	}
	return 1;
}

/*
 * [trace] watch: the kernel's histograms of the measured threads, on w
 * prepared before the load started (their ids known once they run,
 * before the gate opens). 1 when it runs; else res->watch says why not
 * (the cell goes on without it) and w is freed.
 */
int cell_watch_start(const struct config *cfg, struct cell_result *res, int started,
		     struct watch *w)
{
	int tids[WATCH_MAX_THREADS], n = 0;
	char why[sizeof(res->watch) - 8];

	(void)cfg;
	for (int i = 0; i < started && n < WATCH_MAX_THREADS; i++) {
		struct worker *wk = &res->workers[i];

		/* its id is its first store: wait for it (1 s at most) */
		for (int t = 0; t < 1000 && !__atomic_load_n(&wk->ktid, __ATOMIC_ACQUIRE); t++)
			usleep(1000);
		tids[n] = __atomic_load_n(&wk->ktid, __ATOMIC_ACQUIRE);
		n += tids[n] > 0;
	}
	if (n != started) {
		snprintf(why, sizeof(why), "%d of %d threads had no id after 1 s", started - n, started);
		watch_free(w);
		watch_off(res, why);
		return 0;
	}
	if (watch_open(w, w->method, tids, n, why, sizeof(why)) != 0) {
		watch_off(res, why);
		return 0;
	}
	snprintf(res->watch, sizeof(res->watch), "on");
	snprintf(res->watch_method, sizeof(res->watch_method), "%s", watch_method_name(w->method));
	cell_log(res, "watch: the kernel's histograms of the %d threads (%s%s)", n,
		 w->method == WATCH_BPF ? "BPF" : "histogram triggers in ",
		 w->method == WATCH_BPF ? "" : w->name);
	return 1;
}

/* Stop watching; its histograms become each thread's watch_timer and watch_sched. */
void cell_watch_finish(struct cell_result *res, struct watch *w)
{
	char why[200];

	if (watch_close(w, why, sizeof(why)) != 0)
		cell_log(res, "warning: watch: %s", why);
	res->watch_dropped = w->dropped;
	if (w->dropped)
		cell_log(res, "warning: watch: the kernel's histograms had no room for %llu entries",
			 (unsigned long long)w->dropped);
	for (int i = 0; i < res->nthreads; i++) {
		struct worker *wk = &res->workers[i];
		const struct watch_thread *t = watch_of(w, wk->ktid);

		if (!t)
			continue;
		wk->hist[METRIC_WATCH_TIMER] = t->timer;
		wk->hist[METRIC_WATCH_SCHED] = t->sched;
		wk->metrics |= METRIC_BIT(METRIC_WATCH_TIMER) | METRIC_BIT(METRIC_WATCH_SCHED);
	}
	watch_free(w);
}
