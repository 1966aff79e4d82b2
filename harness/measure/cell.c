#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "atomic.h"
#include "cell.h"
#include "cell_parts.h"
#include "cpulist.h"
#include "isolate.h"
#include "load.h"
#include "log.h"
#include "numa_place.h"
#include "options.h"
#include "place.h"
#include "samples.h"
#include "timerlat.h"
#include "units.h"

#define START_DELAY_NS (100 * NS_PER_MS)	/* threads created, stacks touched */

/*
 * Hold /dev/cpu_dma_latency at `us` (0: no deep C-states) while
 * measuring; -1 (none) leaves the system as it is. The fd, or -1.
 */
static int dma_latency_hold(struct cell_result *res, int64_t us)
{
	int32_t zero = (int32_t)us;
	int fd;

	res->dma_latency_us = us;
	if (us < 0)
		return -1;	/* not opened: the system's own setting */
	fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0) {
		cell_log(res, "warning: /dev/cpu_dma_latency: %s (C-states not held)",
			 strerror(errno));
		return -1;
	}
	if (write(fd, &zero, sizeof(zero)) != sizeof(zero)) {
		cell_log(res, "warning: /dev/cpu_dma_latency write: %s",
			 strerror(errno));
		close(fd);
		return -1;
	}
	res->dma_latency = 1;
	return fd;
}

/* The window of thread `thread` starting at t_s, added when new; NULL without memory. */
static struct tl_window *tl_window_of(struct cell_result *res, int32_t t_s, int32_t thread)
{
	/* a thread's records come in time order: its window is among the last */
	for (int i = res->ntimeline - 1; i >= 0 && i >= res->ntimeline - 2 * res->nthreads; i--)
		if (res->timeline[i].t_s == t_s && res->timeline[i].thread == thread)
			return &res->timeline[i];
	struct tl_window *w = array_room(res->timeline, &res->timeline_cap, res->ntimeline + 1, 64,
					 sizeof(*w));

	if (!w)
		return NULL;
	res->timeline = w;
	w = &res->timeline[res->ntimeline++];

	memset(w, 0, sizeof(*w));
	w->t_s = t_s;
	w->thread = thread;
	return w;
}

/*
 * drain's arrays made big enough for the cell (its first hour) before it
 * measures. Grown at its first second instead, the timeline's windows
 * (kilobytes each) are pages mlockall makes the kernel fill at once:
 * latlab's main thread in the kernel, not preemptible everywhere, while
 * a wake-up is due — on a CPU it shares with a measured thread (a
 * one-vCPU guest) the cell's worst wake-up, 5.5 us on the instruction
 * clock in Debian 6.1 (docs/spikes.md, "The flight recorder's cost").
 */
static void drain_reserve(struct cell_result *res, int64_t duration)
{
	int64_t secs = duration / NS_PER_S + 2, win = res->timeline_ns / NS_PER_S;
	int n = (int)(secs < 3600 ? secs : 3600) * res->nthreads;
	void *p = array_room(res->series, &res->series_cap, n, 256, sizeof(*res->series));

	if (p)
		res->series = p;
	if (win <= 0)
		return;
	p = array_room(res->timeline, &res->timeline_cap, (int)(n / win) + 2 * res->nthreads, 64,
		       sizeof(*res->timeline));
	if (p)
		res->timeline = p;
}

/* The workers' per-second records: their maxima to series, their bins to the timeline. */
static void drain(struct cell_result *res)
{
	int64_t win = res->timeline_ns / NS_PER_S;

	for (int i = 0; i < res->nthreads; i++) {
		struct series_rec rec;

		while (ring_pop(&res->workers[i].series, &rec)) {
			struct second_max *sm = array_room(res->series, &res->series_cap,
							   res->nseries + 1, 256, sizeof(*sm));

			if (!sm)
				return;	/* keep what we have */
			res->series = sm;
			sm = &res->series[res->nseries++];

			sm->t_s = rec.t_s;
			sm->thread = rec.thread;
			sm->samples = rec.samples;
			memcpy(sm->max_ns, rec.max_ns, sizeof(sm->max_ns));
			for (int m = 0; m < METRIC_CORE; m++)
				if (rec.max_ns[m] > res->series_max[m])
					res->series_max[m] = rec.max_ns[m];
			struct tl_window *w = win > 0 ?
				tl_window_of(res, (int32_t)(rec.t_s / win * win), rec.thread) : NULL;

			for (int m = 0; w && m < METRIC_COUNT; m++)
				for (int b = 0; b < TL_BINS; b++)
					w->bins[m][b] += rec.bins[m][b];
		}
	}
}

struct checkpoint {
	const struct run_env *env;
	struct watch *watch;	/* [trace] watch's, read so far at each checkpoint; NULL: none */
	int64_t every, next;	/* ns of measuring */
	int pending;		/* asked, not yet written */
	int req;
	int written;
};

/*
 * Every `checkpoint` of measuring, what each thread has so far goes to
 * the cell's files, marked partial: a crash at hour 7 keeps 7 hours.
 */
static void checkpoint_poll(struct checkpoint *ck, struct cell_result *res,
			    int64_t elapsed)
{
	if (!ck->every || !ck->env->checkpoint || res->nthreads <= 0 ||
	    !res->workers[0].snap)
		return;
	if (!ck->pending && elapsed >= ck->next) {
		ck->req++;
		for (int i = 0; i < res->nthreads; i++)
			atomic_store_explicit(&res->workers[i].snap_req, ck->req,
					      memory_order_release);
		ck->pending = 1;
		return;
	}
	if (!ck->pending)
		return;
	for (int i = 0; i < res->nthreads; i++)
		if (atomic_load_explicit(&res->workers[i].snap_ack,
					 memory_order_acquire) != ck->req)
			return;		/* not every thread has copied yet */
	ck->pending = 0;
	ck->next += ck->every;

	/*
	 * The files of a cell, from the snapshots. The log's memstream moves
	 * its buffer on flush and updates res, not a copy: flush first, so the
	 * copy's logbuf/loglen are current (nothing logs until the write).
	 */
	if (res->log)
		fflush(res->log);
	struct cell_result part = *res;
	struct worker *w = calloc((size_t)res->nthreads, sizeof(*w));
	if (!w)
		return;
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker_snapshot *sn = res->workers[i].snap;

		w[i].thread = res->workers[i].thread;
		w[i].cpu = res->workers[i].cpu;
		w[i].metrics = res->workers[i].metrics;
		memcpy(w[i].hist, sn->hist, sizeof(w[i].hist));
		w[i].cycles = sn->cycles;
		w[i].overruns = sn->overruns;
		w[i].errors = sn->errors;
		w[i].bytes = sn->bytes;
		w[i].first_errno = sn->first_errno;
	}
	/* the kernel's histograms so far ([trace] watch), as the cell's end adds them */
	int watched = ck->watch && watch_read(ck->watch, NULL, 0) == 0;

	for (int i = 0; watched && i < res->nthreads; i++) {
		const struct watch_thread *t = watch_of(ck->watch, res->workers[i].ktid);

		if (!t)
			continue;
		w[i].hist[METRIC_WATCH_TIMER] = t->timer;
		w[i].hist[METRIC_WATCH_SCHED] = t->sched;
		w[i].metrics |= METRIC_BIT(METRIC_WATCH_TIMER) | METRIC_BIT(METRIC_WATCH_SCHED);
	}
	part.workers = w;
	part.status = CELL_PARTIAL;
	part.elapsed_ns = elapsed;
	snprintf(part.reason, sizeof(part.reason), "checkpoint after %lld s of measuring",
		 (long long)(elapsed / NS_PER_S));
	int rc = ck->env->checkpoint(ck->env->checkpoint_arg, &part);
	cell_log(res, rc ? "warning: checkpoint not written: %s"
			 : "checkpoint: %s", rc ? strerror(-rc) : part.reason);
	ck->written += rc == 0;
	free(w);
}

/* Wait for every worker, polling the rings, the loads and the signals. */
static int wait_workers(struct cell_result *res, _Atomic int *stop,
			const struct run_env *env, int64_t start,
			struct checkpoint *ck, struct spikes *sp, struct timerlat *tl)
{
	int sig = 0, load_said = 0;

	for (;;) {
		int all = 1;

		if (cell_wait_signal(res, CELL_POLL_NS, &sig))
			atomic_store(stop, 1);
		drain(res);
		cell_spikes_poll(sp, res);
		if (tl)
			timerlat_drain(tl);
		if (cell_load_failed(res, &load_said))
			atomic_store(stop, 1);
		checkpoint_poll(ck, res, clock_ns(CLOCK_MONOTONIC) - start);
		if (env->tick)
			env->tick(env->tick_arg, clock_ns(CLOCK_MONOTONIC) - start,
				  res->series_max);
		for (int i = 0; i < res->nthreads; i++)
			all &= atomic_load_explicit(&res->workers[i].done,
						    memory_order_acquire);
		if (all)
			return sig;
	}
}

static int setup_workloads(const struct workload_def *wd,
			   struct cell_result *res, int *ready)
{
	for (*ready = 0; *ready < res->nthreads; (*ready)++) {
		struct worker *w = &res->workers[*ready];
		int rc = w->numa ? numa_apply(w->numa) : 0;	/* its buffers under the placement */

		if (rc) {
			cell_end_with(res, CELL_ERROR, "memory placement (numa) for thread %d: set_mempolicy: %s", *ready,
				      strerror(-rc));
			return rc;
		}
		rc = wd->ops->setup ? wd->ops->setup(&w->ctx) : 0;
		if (w->numa) {
			numa_reset();
			numa_where(w->ctx.buf, w->ctx.buflen, w->buf_nodes, sizeof(w->buf_nodes));
		}

		if (rc) {
			res->status = rc == -ENODEV ? CELL_SKIPPED : CELL_ERROR;
			if (w->ctx.why[0])
				snprintf(res->reason, sizeof(res->reason), "%s",
					 w->ctx.why);
			else
				snprintf(res->reason, sizeof(res->reason),
					 "workload %s setup (thread %d): %s",
					 wd->name, *ready, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static void teardown_workloads(const struct workload_def *wd,
			       struct cell_result *res, int ready)
{
	for (int i = 0; i < ready; i++)
		if (wd->ops->teardown)
			wd->ops->teardown(&res->workers[i].ctx);
}

static void start_error(struct cell_result *res, const struct worker *w, int rc, int policy,
			int priority)
{
	cpu_set_t allowed;
	char list[64];

	res->status = CELL_ERROR;
	if (rc == -EPERM && policy == SCHED_FIFO) {
		res->fatal = 1;
		snprintf(res->reason, sizeof(res->reason),
			 "SCHED_FIFO priority %d refused (no real-time privilege)",
			 priority);
	} else if (rc == -EINVAL && w->cpu >= 0 && sched_getaffinity(0, sizeof(allowed), &allowed) == 0 &&
		   !CPU_ISSET(w->cpu, &allowed)) {
		/* its CPU left latlab's cpuset: another run isolates it */
		cpulist_format(&allowed, list, sizeof(list));
		snprintf(res->reason, sizeof(res->reason),
			 "cannot start a measured thread on CPU %d: latlab may run on CPUs %s only (its cpuset; another run's isolation = cpuset holds CPU %d?)",
			 w->cpu, list, w->cpu);
	} else {
		snprintf(res->reason, sizeof(res->reason),
			 "cannot start a measured thread%s: %s", w->cpu >= 0 ? " on its CPU" : "",
			 strerror(-rc));
	}
}

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* The cell's policy; SCHED_OTHER for every cell under --allow-non-rt without rights. */
static int thread_policy(const struct run_env *env, const struct cell *c)
{
	static const int policies[] = { SCHED_FIFO, SCHED_RR, SCHED_DEADLINE, SCHED_OTHER };

	return env->policy == SCHED_OTHER ? SCHED_OTHER : policies[c->policy];
}

/* The measured threads of cell c, placed and set up (not started). 0 or -1. */
static int make_workers(const struct config *cfg, const struct cell *c,
			const struct run_env *env, struct cell_result *res,
			_Atomic int *stop)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	int cpus[CPU_SETSIZE];
	cpu_set_t mask;
	int n = place_threads(cfg, c, cpus, &mask);

	if (n < 0) {
		cell_end_with(res, CELL_ERROR, "no CPU to place threads on: %s", strerror(-n));
		cell_log(res, "error: %s", res->reason);
		return -1;
	}
	res->workers = calloc((size_t)n, sizeof(*res->workers));
	if (!res->workers) {
		cell_end_with(res, CELL_ERROR, "out of memory");
		return -1;
	}
	res->nthreads = n;
	for (int i = 0; i < n; i++) {
		struct worker *w = &res->workers[i];

		w->thread = i;
		w->cpu = cpus[i];
		w->mask = mask;
		w->policy = thread_policy(env, c);
		w->priority = c->priority;
		w->dl_period = c->interval;
		w->dl_runtime = config_dl_ns(&cfg->dl_runtime, c->interval);
		w->dl_deadline = config_dl_ns(&cfg->dl_deadline, c->interval);
		w->dl_yield = w->policy == SCHED_DEADLINE &&
			      cfg->campaign.dl_wait == DL_WAIT_YIELD;
		w->interval_ns = c->interval;
		w->wakeup = (int)cell_axis_value(cfg, c, TAXIS_WAKEUP);
		w->clock = (int)cell_axis_value(cfg, c, TAXIS_CLOCK);
		w->corrected = cfg->campaign.corrected;
		w->duration_ns = cfg->campaign.duration;
		w->ops = wd->ops;
		w->ctx.opts = wd->opts;
		w->ctx.size = c->size;
		w->ctx.thread = i;
		w->ctx.cpu = cpus[i];
		w->stop = stop;
		if (cfg->campaign.checkpoint &&
		    cfg->campaign.checkpoint < cfg->campaign.duration)
			w->snap = calloc(1, sizeof(*w->snap));	/* touched now */
		cell_log(res, "thread %d on %s%d", i,
			 cpus[i] < 0 ? "any CPU, " : "CPU ", cpus[i]);
		const struct axis *numa = &cfg->matrix.numa;
		char why[256];

		if (cell_axis_value(cfg, c, TAXIS_NUMA) != NUMA_NONE) {
			if (numa_resolve(NULL, (int)cell_axis_value(cfg, c, TAXIS_NUMA), cfg->numa_node[c->numa], cpus[i],
					 &w->numa_place, why, sizeof(why)) != 0) {
				cell_end_with(res, CELL_ERROR, "numa = %.40s: %.200s",
					      numa->s[c->numa], why);
				return -1;
			}
			w->numa = &w->numa_place;
			cell_log(res, "thread %d: memory %s (numa = %s)", i, w->numa_place.nodes,
				 numa->s[c->numa]);
		}
	}
	return 0;
}

/* samples.bin finished (or said why not). */
static void finish_samples(struct cell_result *res, struct samples_writer *sw)
{
	int rc = samples_finish(sw, &res->samples_dropped);

	res->samples_written = sw->written;
	if (rc) {
		snprintf(res->samples_error, sizeof(res->samples_error), "%s",
			 strerror(-rc));
		cell_log(res, "error: samples.bin not kept: %s", strerror(-rc));
	}
	if (res->samples_dropped)
		cell_log(res, "warning: %llu samples dropped (the writer fell behind)",
			 (unsigned long long)res->samples_dropped);
}

/* What the threads that ran have to say, in log.txt. */
static void log_threads(struct cell_result *res, int started)
{
	for (int i = 0; i < started; i++) {
		const struct worker *w = &res->workers[i];

		if (w->errors)
			cell_log(res, "thread %d: %llu I/O errors, the first: %s",
				 i, (unsigned long long)w->errors,
				 strerror(w->first_errno));
		res->series_dropped += w->series.dropped;
		if (w->late_start_ns)
			cell_log(res, "thread %d started %lld ms after the shared start (a busy machine): it began at its next period",
				 i, (long long)(w->late_start_ns / NS_PER_MS));
	}
	if (res->series_dropped)
		cell_log(res, "warning: %llu per-second records dropped (ring full)",
			 (unsigned long long)res->series_dropped);
}

/*
 * Start the workers behind a gate, measure for the duration (or until a
 * signal), join them. Returns nonzero if a signal interrupted it.
 */
/*
 * A thread whose policy (SCHED_DEADLINE) or wake-up (a clock or timer)
 * the kernel refused: the cell skipped, not failed.
 */
static void refused_policy(struct cell_result *res, int started)
{
	for (int i = 0; i < started && res->status == CELL_OK; i++) {
		const struct worker *w = &res->workers[i];

		if (w->join_errno) {
			cell_end_with(res, CELL_ERROR, "thread %d could not join its cpuset (%.160s): %s",
				      i, w->cpuset_tasks, strerror(w->join_errno));
			continue;
		}
		if (w->wake_errno) {
			char method[32], clock[32];

			axis_value_format(TAXIS_WAKEUP, w->wakeup, method, sizeof(method));
			axis_value_format(TAXIS_CLOCK, w->clock, clock, sizeof(clock));
			cell_end_with(res, CELL_SKIPPED, "wakeup = %s on clock = %s refused by this kernel: %s%s", method, clock,
				      strerror(w->wake_errno), w->clock >= WCLOCK_AUX0 ?
				      " (an auxiliary clock: Linux 6.17 or later with CONFIG_POSIX_AUX_CLOCKS, enabled in /sys/kernel/time/aux_clocks/N/enable)" : "");
			continue;
		}
		if (!w->start_errno)
			continue;
		/* the kernel or the rights say no: not a failure */
		cell_end_with(res, CELL_SKIPPED,
			      "SCHED_DEADLINE (runtime %lld, deadline %lld, period %lld ns) refused: %s%s",
			      (long long)w->dl_runtime, (long long)w->dl_deadline,
			      (long long)w->dl_period, strerror(w->start_errno),
			      w->cpu >= 0 && (w->start_errno == EPERM || w->start_errno == EBUSY) ?
			      " (a deadline thread pinned to one CPU needs a root domain of its own: isolation = cpuset, or affinity = all)" : "");
	}
}

static int measure(const struct config *cfg, const struct cell *c,
		   const struct run_env *env, const char *dir, struct cell_result *res,
		   _Atomic int *stop, struct watch *wt, struct spikes *sp)
{
	struct samples_writer sw;
	int n = res->nthreads, started = 0, sig = 0, sampling = 0;
	/*
	 * The workers wait on a gate until all exist; the start is fixed only
	 * then, so a busy machine (the load runs already) cannot make the
	 * shared start lie in the past of a thread created late.
	 */
	_Atomic int64_t start_ns = 0;
	int gate[2];

	if (pipe2(gate, O_CLOEXEC) != 0) {
		cell_end_with(res, CELL_ERROR, "pipe: %s",
			      strerror(errno));
		return 0;
	}
	if (cfg->campaign.samples) {
		int rc = samples_start(&sw, dir, n, c->interval);

		if (rc) {
			snprintf(res->samples_error, sizeof(res->samples_error),
				 "%s", strerror(-rc));
			cell_log(res, "error: samples.bin: %s", strerror(-rc));
			cell_end_with(res, CELL_ERROR, "samples.bin: %s", strerror(-rc));
			close(gate[0]);
			close(gate[1]);
			return 0;
		}
		sampling = 1;
	}
	struct timerlat tl;
	int timerlat = cell_timerlat_start(cfg, c, res, &tl);

	for (; started < n; started++) {
		struct worker *w = &res->workers[started];
		int rc;

		w->samples = sampling ? &sw.rings[started] : NULL;
		w->start_ns = &start_ns;
		w->gate_fd = gate[0];
		rc = worker_start(w);
		if (rc) {
			start_error(res, w, rc, env->policy, c->priority);
			atomic_store(stop, 1);
			break;
		}
	}
	int watching = 0;

	if (wt && started == n)
		watching = cell_watch_start(cfg, res, started, wt);
	else if (wt)
		watch_free(wt);
	struct intf_snap before = { NULL, 0 };
	cpu_set_t cpus;

	cell_measured_cpus(res, &cpus);
	intf_read(&before, &cpus);	/* what it cannot read is left out */
	drain_reserve(res, cfg->campaign.duration);
	int64_t start = clock_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	atomic_store_explicit(&start_ns, start, memory_order_release);
	sp->start = start;
	close(gate[1]);		/* the gate opens: every read() returns 0 */
	if (started == n) {
		cell_log(res, "measuring for %lld ms", (long long)(cfg->campaign.duration / NS_PER_MS));
		struct checkpoint ck = {
			.env = env,
			.watch = watching ? wt : NULL,
			.every = cfg->campaign.checkpoint,
			.next = cfg->campaign.checkpoint,
		};
		sig = wait_workers(res, stop, env, start, &ck, sp, timerlat ? &tl : NULL);
	}
	for (int i = 0; i < started; i++)
		worker_join(&res->workers[i]);
	if (timerlat)
		cell_timerlat_finish(res, &tl);
	if (watching)
		cell_watch_finish(res, wt);
	close(gate[0]);
	if (started == n)
		cell_interference(res, &before);
	intf_free(&before);
	refused_policy(res, started);
	cell_spikes_poll(sp, res);	/* a spike in the last cycles */
	if (sp->taken > res->ncaptures)	/* keeping the worst, some were not kept */
		cell_log(res, "captures: the %d worst of %d taken kept ([trace] keep = worst)",
			 res->ncaptures, sp->taken);
	if (sampling)
		finish_samples(res, &sw);
	drain(res);
	res->elapsed_ns = clock_ns(CLOCK_MONOTONIC) - start;
	if (sig)
		res->status = CELL_INTERRUPTED;
	log_threads(res, started);
	return sig;
}

int cell_threads_run(const struct config *cfg, const struct cell *c,
		     const struct run_env *env, const char *dir, struct cell_result *res)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	struct machine m;
	struct watch wt;
	struct spikes sp = { .trap = { .marker_fd = -1, .on_fd = -1 } };
	_Atomic int stop = 0;
	int ready = 0, sig = 0, dma, watch_ready = 0;

	cell_log(res, "cell %s: workload %s, load %s, interval %lld ns, priority %lld, %s",
		 c->id, wd->name, cfg->load[c->load].name,
		 (long long)c->interval, (long long)c->priority,
		 env->policy == SCHED_OTHER ? "SCHED_OTHER (--allow-non-rt)" : policy_name(c->policy));
	if (make_workers(cfg, c, env, res, &stop) != 0)
		return 0;
	res->status = CELL_OK;
	if (cell_machine_begin(cfg, c, res, &m) != 0)
		goto out_undo;
	if (setup_workloads(wd, res, &ready) != 0)
		goto out_teardown;
	/*
	 * [trace] watch's programs, and spike captures' instance or flight
	 * recorder, ready before the load takes the CPUs (a BPF program's
	 * verifier took minutes on a guest's one vCPU under hackbench)
	 */
	watch_ready = cell_watch_prepare(cfg, res, &wt);
	cell_spikes_open(cfg, c, env->policy, res, dir, &sp);
	if (cell_start_load(cfg, c, res) != 0) {
		if (watch_ready)
			watch_free(&wt);
		goto out_teardown;
	}
	if (cell_machine_loaded(cfg, c, res, &m) != 0) {
		if (watch_ready)
			watch_free(&wt);
		loadset_stop(&res->loads);
		goto out_teardown;
	}
	dma = dma_latency_hold(res, c->dma_latency);
	sig = measure(cfg, c, env, dir, res, &stop, watch_ready ? &wt : NULL, &sp);
	if (watch_ready)	/* what measure did not use (an early return): freed */
		watch_free(&wt);
	if (dma >= 0)
		close(dma);
	loadset_stop(&res->loads);
	if (!sig && res->status == CELL_OK)
		cell_judge_load(cfg, c, res);
out_teardown:
	tracer_close(sp.tracer, &sp.trap);
	for (int i = 0; i < res->nthreads; i++)
		res->workers[i].trap = NULL;
	teardown_workloads(wd, res, ready);
out_undo:
	cell_machine_end(res, c->id, &m);
	return sig;
}

void cell_result_free(struct cell_result *res)
{
	if (res->log)
		fclose(res->log);
	free(res->logbuf);
	for (int i = 0; res->workers && i < res->nthreads; i++)
		free(res->workers[i].snap);
	free(res->workers);
	free(res->series);
	free(res->timeline);
	free(res->captures);
	free(res->intf);
	loadset_free(&res->loads);
	memset(res, 0, sizeof(*res));
	loadset_init(&res->loads);
}

char *cell_why(const struct cell_result *res, char *buf, size_t len)
{
	const struct capture *worst = NULL;

	buf[0] = 0;
	for (int i = 0; i < res->ncaptures; i++) {
		const struct capture *c = &res->captures[i];

		if (c->a.complete && c->a.culprit >= 0 &&
		    (!worst || c->latency_ns > worst->latency_ns))
			worst = c;
	}
	if (worst)
		snprintf(buf, len, "%s: %s", part_name(worst->a.item[worst->a.culprit].part),
			 worst->a.item[worst->a.culprit].name);
	return buf;
}
