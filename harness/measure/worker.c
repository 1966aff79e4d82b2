#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "files.h"
#include "options.h"
#include "wakeup.h"
#include "worker.h"

#define STACK_PREFAULT (64 * 1024)
/*
 * Explicit and small: with mlockall(MCL_FUTURE) every stack is locked
 * whole, and the 8 MiB default would exceed an unprivileged memlock limit.
 */
#define WORKER_STACK (512 * 1024)

static inline int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static inline struct timespec ns_ts(int64_t ns)
{
	struct timespec t = { ns / 1000000000LL, ns % 1000000000LL };

	return t;
}

static inline int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

/* Touch the stack the loop will use, so no page fault happens in it. */
static void __attribute__((noinline)) prefault_stack(void)
{
	volatile char buf[STACK_PREFAULT];

	memset((char *)buf, 0, sizeof(buf));
}

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* sched_setattr(2)'s argument; glibc 2.36 has no wrapper. */
struct dl_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

/*
 * SCHED_DEADLINE can only be taken by the thread itself (no pthread
 * attribute): runtime/deadline/period in ns. 0 or errno.
 */
static int become_deadline(const struct worker *w)
{
	struct dl_attr a = {
		.size = sizeof(a), .policy = SCHED_DEADLINE,
		.runtime = (uint64_t)w->dl_runtime, .deadline = (uint64_t)w->dl_deadline,
		.period = (uint64_t)w->dl_period,
	};

	return syscall(SYS_sched_setattr, 0, &a, 0) ? errno : 0;
}

static void flush_second(struct worker *w, struct series_rec *sec)
{
	if (sec->samples > 0)
		ring_push(&w->series, sec);
}

/*
 * Coordinated omission undone, as wrk's stats_correct: the `missed`
 * periods from `next` on that the cycle ending at `done` ran over, each
 * counted in wakeup_corrected at the latency it would have had — the
 * thread could wake for it at `done` at the earliest.
 */
static void count_missed(struct worker *w, struct series_rec *sec, int64_t next,
			 int64_t done, int64_t missed)
{
	const int m = METRIC_WAKEUP_CORRECTED;

	for (int64_t k = 0; k < missed; k++) {
		int64_t v = done - (next + k * w->interval_ns);

		hist_add(&w->hist[m], v);
		sec->bins[m][timeline_bin(v)]++;
		if (v > sec->max_ns[m])
			sec->max_ns[m] = v;
	}
}

/* A cycle's samples (woke and done against the intended `next`) into the histograms, rings and second. */
static inline void record(struct worker *w, struct series_rec *sec, int64_t start, int64_t next,
			  int64_t woke, int64_t done, int64_t moved)
{
	int64_t *v = w->ctx.metric_ns;	/* the workload's own filled in by run() */
	int32_t s = (int32_t)((next - start) / 1000000000LL);

	v[METRIC_WAKEUP] = woke - next;
	v[METRIC_IO] = done - woke;
	v[METRIC_RESPONSE] = done - next;
	v[METRIC_WAKEUP_CORRECTED] = v[METRIC_WAKEUP];

	w->bytes += (uint64_t)moved;
	if (w->trap)	/* two write()s, only when it fires */
		spike_trap_check(w->trap, w->thread, w->ktid, next, woke);
	if (w->samples) {
		struct sample_rec rec = {
			.t_ns = next - start, .thread = w->thread,
			.value_ns = { v[0], v[1], v[2] },
		};

		ring_push(w->samples, &rec);	/* full: counted */
	}
	if (s != sec->t_s) {
		flush_second(w, sec);
		memset(sec, 0, sizeof(*sec));
		sec->thread = w->thread;
		sec->t_s = s;
	}
	for (int m = 0; m < METRIC_COUNT; m++) {
		if (!worker_has_metric(w, m))
			continue;
		hist_add(&w->hist[m], v[m]);
		sec->bins[m][timeline_bin(v[m])]++;
		if (sec->samples == 0 || v[m] > sec->max_ns[m])
			sec->max_ns[m] = v[m];
	}
	sec->samples++;
}

/* A checkpoint asked for: the histograms copied, after the cycle was measured. */
static inline void answer_checkpoint(struct worker *w)
{
	int req = w->snap ? atomic_load_explicit(&w->snap_req, memory_order_acquire) : 0;

	if (!w->snap || req == atomic_load_explicit(&w->snap_ack, memory_order_relaxed))
		return;
	memcpy(w->snap->hist, w->hist, sizeof(w->hist));
	w->snap->cycles = w->cycles;
	w->snap->overruns = w->overruns;
	w->snap->errors = w->errors;
	w->snap->bytes = w->bytes;
	w->snap->first_errno = w->first_errno;
	atomic_store_explicit(&w->snap_ack, req, memory_order_release);
}

/* The cycle ran past the next period(s): counted, up to the end; the next period after done. */
static inline int64_t account_overrun(struct worker *w, struct series_rec *sec, int64_t next,
				      int64_t done, int64_t end)
{
	int64_t missed = (done - next) / w->interval_ns + 1;
	/* lost periods count only up to the end of the measurement */
	int64_t within = next <= end ? (end - next) / w->interval_ns + 1 : 0;

	if (missed > within)
		missed = within;
	w->overruns += (uint64_t)missed;
	if (worker_has_metric(w, METRIC_WAKEUP_CORRECTED))
		count_missed(w, sec, next, done, missed);
	return next + missed * w->interval_ns;
}

/* After the last cycle: its CPU and its own CPU time and context switches. */
static void finish(struct worker *w)
{
	struct rusage ru;

	w->last_cpu = sched_getcpu();
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		w->utime_ns = ru.ru_utime.tv_sec * 1000000000LL +
			      ru.ru_utime.tv_usec * 1000LL;
		w->stime_ns = ru.ru_stime.tv_sec * 1000000000LL +
			      ru.ru_stime.tv_usec * 1000LL;
		w->nvcsw = ru.ru_nvcsw;
		w->nivcsw = ru.ru_nivcsw;
	}
	atomic_store_explicit(&w->done, 1, memory_order_release);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct series_rec sec = { .thread = w->thread };
	char byte;

	if (w->numa)	/* what it touches from now on follows the cell's placement */
		numa_apply(w->numa);
	prefault_stack();
	__atomic_store_n(&w->ktid, (int)gettid(), __ATOMIC_RELEASE);	/* cell_watch_start reads it */
	if (w->cpuset_tasks[0]) {	/* before its policy: a deadline is admitted in its cpuset's domain */
		char tid[16];
		cpu_set_t one;

		/*
		 * Started on latlab's own CPUs: a v2 partition has taken its CPU
		 * from every other cgroup, so it is pinned only once inside
		 */
		snprintf(tid, sizeof(tid), "%d", w->ktid);
		CPU_ZERO(&one);
		CPU_SET(w->cpu, &one);
		w->join_errno = -file_write_string(w->cpuset_tasks, tid);
		if (!w->join_errno && sched_setaffinity(0, sizeof(one), &one) != 0)
			w->join_errno = errno;
		if (w->join_errno) {
			atomic_store_explicit(&w->done, 1, memory_order_release);
			return NULL;
		}
	}
	/*
	 * What the thread's code forks (a plugin's child) starts as an
	 * ordinary thread, not at its priority on its CPU: a forked step that
	 * spins, or outlives the cell, must not hold the CPU at real-time
	 * priority
	 */
	if (w->policy == SCHED_FIFO || w->policy == SCHED_RR) {
		struct sched_param sp;
		int pol = sched_getscheduler(0);

		if (pol >= 0 && sched_getparam(0, &sp) == 0)
			sched_setscheduler(0, pol | SCHED_RESET_ON_FORK, &sp);
	}
	if (w->policy == SCHED_DEADLINE && (w->start_errno = become_deadline(w)) != 0) {
		atomic_store_explicit(&w->done, 1, memory_order_release);
		return NULL;	/* the cell says why; nothing measured */
	}
	struct waker wk;
	int rc = waker_init(&wk, w->wakeup, w->clock);

	if (rc) {	/* a clock or timer this kernel lacks: the cell says why */
		waker_fini(&wk);
		w->wake_errno = -rc;
		atomic_store_explicit(&w->done, 1, memory_order_release);
		return NULL;
	}
	/* the gate: every measured thread exists, the start is set */
	while (read(w->gate_fd, &byte, 1) != 0 && errno == EINTR)
		;
	int64_t start = atomic_load_explicit(w->start_ns, memory_order_acquire);
	int64_t end = start + w->duration_ns;
	int64_t next = start + w->interval_ns;

	/*
	 * Created after the shared start (the main thread is SCHED_OTHER and
	 * a load may starve it): begin at the next whole period instead of
	 * recording the creation delay as a wake-up latency.
	 */
	int64_t now = now_ns();
	if (now >= next) {
		int64_t skip = ((now - next) / w->interval_ns + 1) * w->interval_ns;

		w->late_start_ns = skip;
		next += skip;
	}
	while (next <= end &&
	       !atomic_load_explicit(w->stop, memory_order_relaxed)) {
		if (w->dl_yield && w->cycles > 0)	/* throttled until `next` */
			rc = sched_yield() ? errno : 0;
		else
			rc = waker_sleep(&wk, next);

		if (rc == EINTR)
			continue;
		if (rc != 0) {	/* returns the error, does not set errno */
			if (w->errors++ == 0)
				w->first_errno = rc;
			next += w->interval_ns;
			continue;
		}
		int64_t woke = waker_now(&wk);
		int64_t moved = w->ops->run(&w->ctx);
		int64_t done = now_ns();

		w->cycles++;
		if (moved < 0) {
			/* a failed I/O is counted, never a fast fake sample */
			if (w->errors++ == 0)
				w->first_errno = (int)-moved;
		} else {
			record(w, &sec, start, next, woke, done, moved);
		}
		answer_checkpoint(w);
		next += w->interval_ns;
		if (done > next)
			next = account_overrun(w, &sec, next, done, end);
	}
	waker_fini(&wk);
	flush_second(w, &sec);
	finish(w);
	return NULL;
}

static int make_attr(pthread_attr_t *attr, int policy, int priority,
		     const cpu_set_t *mask)
{
	int rt = policy == SCHED_FIFO || policy == SCHED_RR;
	struct sched_param sp = { .sched_priority = rt ? priority : 0 };
	int rc;

	if (policy == SCHED_DEADLINE)	/* taken by the thread itself */
		policy = SCHED_OTHER;

	rc = pthread_attr_init(attr);
	if (rc)
		return -rc;
	/* pthread_* return the error; they do not set errno */
	rc = pthread_attr_setstacksize(attr, WORKER_STACK);
	if (!rc)
		rc = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	if (!rc)
		rc = pthread_attr_setschedpolicy(attr, policy);
	if (!rc)
		rc = pthread_attr_setschedparam(attr, &sp);
	if (!rc && mask)
		rc = pthread_attr_setaffinity_np(attr, sizeof(*mask), mask);
	if (rc) {
		pthread_attr_destroy(attr);
		return -rc;
	}
	return 0;
}

int worker_start(struct worker *w)
{
	pthread_attr_t attr;
	cpu_set_t one;
	int rc;

	w->metrics = METRICS_CORE | w->ops->metrics | w->ctx.metrics |
		     (w->corrected ? METRIC_BIT(METRIC_WAKEUP_CORRECTED) : 0);
	for (int m = 0; m < METRIC_COUNT; m++)
		hist_init(&w->hist[m]);
	ring_init(&w->series, w->series_slot, SERIES_SLOTS, sizeof(w->series_slot[0]));
	atomic_store(&w->done, 0);
	if (w->cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(w->cpu, &one);
	}
	/* a thread that joins its CPU's cpuset pins itself there (worker_main) */
	rc = make_attr(&attr, w->policy, w->priority,
		       w->cpuset_tasks[0] ? NULL : w->cpu >= 0 ? &one : &w->mask);
	if (rc)
		return rc;
	if (w->numa && w->numa->kind != NUMA_NONE) {
		/* its own stack, its pages allocated under the placement, then asked where */
		rc = numa_apply(w->numa);
		if (rc == 0) {
			w->stack = mmap(NULL, WORKER_STACK, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_POPULATE, -1, 0);
			rc = w->stack == MAP_FAILED ? -errno : 0;
			numa_reset();
		}
		if (rc == 0)
			rc = -pthread_attr_setstack(&attr, w->stack, WORKER_STACK);
		if (rc == 0)
			numa_where(w->stack, WORKER_STACK, w->stack_nodes, sizeof(w->stack_nodes));
		if (rc) {
			if (w->stack && w->stack != MAP_FAILED)
				munmap(w->stack, WORKER_STACK);
			w->stack = NULL;
			pthread_attr_destroy(&attr);
			return rc;
		}
	}
	rc = pthread_create(&w->tid, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	return -rc;
}

void worker_join(struct worker *w)
{
	pthread_join(w->tid, NULL);
	if (w->stack)
		munmap(w->stack, WORKER_STACK);
	w->stack = NULL;
}

static void *probe_main(void *arg)
{
	return arg;
}

int worker_probe_policy(int policy, int priority)
{
	pthread_attr_t attr;
	pthread_t tid;
	int rc = make_attr(&attr, policy, priority, NULL);

	if (rc)
		return rc;
	rc = pthread_create(&tid, &attr, probe_main, NULL);
	pthread_attr_destroy(&attr);
	if (rc)
		return -rc;
	pthread_join(tid, NULL);
	return 0;
}
