/*
 * A measured worker: one thread at an explicit SCHED_FIFO priority and
 * affinity that wakes on an absolute period, runs the workload once, and
 * records the core metrics (common/metric.h: wakeup, io, response) and
 * those its workload declares (`metrics`).
 * A cycle whose work ends past the next period is an overrun: every
 * period it covered is counted in `overruns` and the next wake is the
 * first period boundary after the work ended. A thread that only starts
 * running after the shared start begins at its next period boundary
 * (late_start_ns says how much it skipped); that is not a latency.
 */
#ifndef LATLAB_WORKER_H
#define LATLAB_WORKER_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "hist.h"
#include "numa_place.h"
#include "ring.h"
#include "samplesfile.h"
#include "tracer.h"
#include "workload.h"

#define SERIES_SLOTS 256	/* 4 minutes of seconds: the main thread drains every 100 ms */

struct worker {
	/* set by the caller before worker_start() */
	int thread;		/* 0-based */
	int cpu;		/* pinned CPU, or -1 with `mask` */
	cpu_set_t mask;
	int policy;		/* SCHED_FIFO, _RR, _DEADLINE or _OTHER */
	int priority;		/* FIFO and RR only */
	int64_t dl_runtime, dl_deadline, dl_period;	/* SCHED_DEADLINE, ns */
	/*
	 * SCHED_DEADLINE only: after its first period (slept to, which starts
	 * the kernel's periods there) end each job with sched_yield and be
	 * woken by the deadline scheduler's replenishment, as cyclicdeadline
	 * does, instead of sleeping to the next period.
	 */
	int dl_yield;
	int64_t interval_ns;
	int wakeup, clock;	/* enum wakeup_method, enum wakeup_clock (wakeup.h) */
	int corrected;		/* record METRIC_WAKEUP_CORRECTED too */
	/*
	 * The shared start (CLOCK_MONOTONIC ns; the first period is
	 * start + interval), stored by the main thread before it closes the
	 * gate pipe's write end; the worker waits for end-of-file on
	 * gate_fd before it reads start.
	 */
	const _Atomic int64_t *start_ns;
	int gate_fd;
	int64_t duration_ns;	/* measure until start + duration */
	const struct workload_ops *ops;
	struct workload_ctx ctx;
	_Atomic int *stop;	/* set by the main thread to end early */
	struct spike_trap *trap;	/* [trace] mode = spikes: shared, or NULL */
	/*
	 * [matrix] numa: its memory's policy, or NULL (the default); its stack
	 * is then latlab's own, allocated under it, and the thread runs under it
	 */
	const struct numa_place *numa;
	struct numa_place numa_place;	/* what numa points to, set by cell.c */
	void *stack;
	char stack_nodes[128];	/* numa_where of the stack: "1:128" */
	char buf_nodes[128];	/* numa_where of its workload's buffer (ctx.buf) */
	/* [matrix] isolation: the tasks file of its CPU's cpuset it joins first; "" none */
	char cpuset_tasks[PATH_MAX];

	/* results, valid after worker_join() */
	unsigned metrics;	/* METRIC_BIT()s it records: the core and its workload's */
	struct hist hist[METRIC_COUNT];	/* enum metric order; empty if not recorded */
	uint64_t cycles;
	uint64_t overruns;
	uint64_t errors;
	int first_errno;
	uint64_t bytes;
	int64_t utime_ns, stime_ns;	/* getrusage(RUSAGE_THREAD) */
	int64_t nvcsw, nivcsw;	/* its context switches: voluntary, involuntary */
	int last_cpu;		/* CPU it ran its last cycle on */
	int ktid;		/* its kernel thread id (gettid) */
	int start_errno;	/* its policy refused in the thread (deadline): no cycles */
	int wake_errno;		/* its wake-up's clock or timer refused (waker_init): no cycles */
	int join_errno;		/* it could not join its cpuset: no cycles */
	int64_t late_start_ns;	/* periods skipped: created after the start */
	struct ring series;	/* per-second maxima -> main thread */
	struct series_rec series_slot[SERIES_SLOTS];
	struct ring *samples;	/* every sample -> writer thread, or NULL */

	/*
	 * Checkpoints: the main thread sets snap_req; after its next cycle
	 * the worker copies what it has measured into `snap` (its own, so no
	 * field is read while written) and sets snap_ack to snap_req.
	 */
	_Atomic int snap_req, snap_ack;
	struct worker_snapshot {
		struct hist hist[METRIC_COUNT];
		uint64_t cycles, overruns, errors, bytes;
		int first_errno;
	} *snap;		/* NULL: no checkpoints */

	pthread_t tid;
	_Atomic int done;
};

/* Does w record metric m? */
static inline int worker_has_metric(const struct worker *w, int m)
{
	return m >= 0 && m < METRIC_COUNT && (w->metrics & METRIC_BIT(m));
}

/*
 * Start the thread with explicit scheduling attributes. 0 or -errno from
 * pthread_create (-EPERM: no real-time privilege).
 */
int worker_start(struct worker *w);

/* Join the thread. */
void worker_join(struct worker *w);

/*
 * Can this process create a thread with `policy`/`priority`? 0, or the
 * -errno pthread_create gave (-EPERM without privilege).
 */
int worker_probe_policy(int policy, int priority);

#endif
