/*
 * What cell.c and cell_trace.c share, private to measure/.
 */
#ifndef LATLAB_CELL_PARTS_H
#define LATLAB_CELL_PARTS_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "cell.h"
#include "interference.h"
#include "isolate.h"
#include "timerlat.h"
#include "watch.h"
#include "tracer.h"
#include "undo.h"

/* [trace] mode = spikes for one cell */
struct spikes {
	struct tracer *tracer;	/* NULL: not tracing */
	struct spike_trap trap;
	int max;		/* captures kept */
	int64_t threshold;	/* [trace] threshold: the trap's, until keeping the worst raises it */
	int keep_worst;		/* [trace] keep = worst: a worse capture takes the least one's place */
	int taken;		/* captures taken, kept or not: the last one's number */
	int kprio;		/* the measured thread's kernel priority */
	int64_t start;
	const char *dir;
	int64_t steal[CPU_SETSIZE];	/* each CPU's steal at the last poll, ns; -1 unknown */
	int steal_counted;	/* the kernel counts steal (intf_steal_counted): read it each poll */
};

/* The CPUs a pinned measured thread runs on (none for unpinned threads). */
void cell_pinned_cpus(const struct cell_result *res, cpu_set_t *cpus);

/* The CPUs the measured threads run on: their own, or their mask if unpinned. */
void cell_measured_cpus(const struct cell_result *res, cpu_set_t *cpus);

/* The trace instance for the cell's CPUs, if [trace] asks for it (sp->tracer NULL if not). */
void cell_spikes_open(const struct config *cfg, const struct cell *c, int policy,
		      struct cell_result *res, const char *dir, struct spikes *sp);

/* A fired trap: its capture saved, tracing re-armed while captures remain. */
void cell_spikes_poll(struct spikes *sp, struct cell_result *res);

/*
 * Where a capture of `latency` goes among the n kept (room for max):
 * n while there is room; else, keeping the worst, the least one's index
 * where it is worse than that (the earliest of equals); else -1.
 */
int spikes_slot(const struct capture *kept, int n, int max, int keep_worst, int64_t latency);

/*
 * The trap's threshold with n of max kept: the configured one, or, keeping
 * the worst and full, the least kept latency (a wake-up no later than
 * that would not be kept).
 */
int64_t spikes_floor(const struct capture *kept, int n, int max, int keep_worst,
		     int64_t threshold);

/* The kernel's timerlat beside the threads, where asked and possible: 1 started, 0 not (said why). */
int cell_timerlat_start(const struct config *cfg, const struct cell *c, struct cell_result *res,
			struct timerlat *tl);

/* Its samples into the threads' metrics, and the tracer stopped. */
void cell_timerlat_finish(struct cell_result *res, struct timerlat *tl);

/* A clock's time in ns (cell.c's, cell_watch.c's). */
static inline int64_t clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The cell's load (cell.c), and whether it proved it ran: 0 or -1 with the cell's reason. */
int cell_start_load(const struct config *cfg, const struct cell *c, struct cell_result *res);
void cell_judge_load(const struct config *cfg, const struct cell *c, struct cell_result *res);

/* How often a cell's main thread looks at its threads, signals and load. */
#define CELL_POLL_NS 100000000LL

/*
 * Wait up to ns for SIGINT or SIGTERM (blocked in latlab): the signal or
 * 0; the first (*sig, 0 before) said in log.txt.
 */
int cell_wait_signal(struct cell_result *res, int64_t ns, int *sig);

/* Poll the cell's load: 1 when it has failed, said in log.txt once (*said). */
int cell_load_failed(struct cell_result *res, int *said);

/*
 * Each kind of cell's run (cell_kind.h): latlab's measured threads
 * (cell.c), a program's threads (type = watch, cell_watch.c), rt-tests'
 * cyclictest (type = cyclictest, cell_cyclictest.c). Nonzero if a
 * signal ended the cell.
 */
int cell_threads_run(const struct config *cfg, const struct cell *c, const struct run_env *env,
		     const char *dir, struct cell_result *res);
int cell_watch_run(const struct config *cfg, const struct cell *c, const struct run_env *env,
		   const char *dir, struct cell_result *res);
int cell_cyclictest_run(const struct config *cfg, const struct cell *c,
			const struct run_env *env, const char *dir, struct cell_result *res);

/*
 * Can cyclictest take cell c (type = cyclictest): its policy, wake-up,
 * clock, interval and duration? 0, or -EINVAL with why and *at ([matrix]
 * workload's line). The machine's axes are its kind's to refuse
 * (cell_kind_refuses).
 */
int cell_cyclictest_fits(const struct config *cfg, const struct cell *c, int local,
			 struct srcloc *at, char *why, size_t len);

/*
 * Can this machine watch (type = watch, local: where the cell runs here):
 * its method (BPF, or histogram triggers) on this kernel? 0, or -EINVAL
 * with why and *at ([workload.X] method or type). A guest asks its own.
 */
int cell_watch_fits(const struct config *cfg, const struct cell *c, int local,
		    struct srcloc *at, char *why, size_t len);

/* cyclictest's command line for cell c (argv[0] program), NULL-terminated. */
#define CT_ARGS_MAX 32
#define CT_THREADS_MAX 256
struct ct_args {
	char *argv[CT_ARGS_MAX];
	char buf[CT_ARGS_MAX][1100];
	int n;
};

/*
 * The command line for cell c's n threads on cpus (cpus[0] -1: unpinned),
 * its histogram written to histfile: 0, or -EINVAL with why (a value
 * cyclictest cannot take: policy deadline, a wake-up or clock it has
 * not, an interval not in whole microseconds).
 */
int cyclictest_args(const struct config *cfg, const struct cell *c, const char *program,
		    const int *cpus, int n, const char *histfile, struct ct_args *a, char *why,
		    size_t len);

/*
 * cyclictest's histogram file (-N -h: "BIN COUNT..." a line, then "#
 * Max Latencies:" and "# Histogram Overflows:") of n threads into h[],
 * each overflow (beyond top ns) at the thread's max for the first and at
 * top for the rest; over[] and max[] as the file says. Every number
 * bounded before use: a bin below top, at most `most` wake-ups a thread,
 * a max of 0 to CT_LATENCY_MAX no lower than its wake-ups. 0, or -EINVAL
 * with why.
 */
#define CT_LATENCY_MAX (3600LL * 1000000000LL)
int cyclictest_read_hist(FILE *fp, int n, int64_t top, uint64_t most, struct hist *h,
			 long long *over, long long *max, char *why, size_t len);

/*
 * [trace] watch's costly part, before the cell's load starts
 * (watch_prepare): 1 prepared, 0 not asked or not possible (said why).
 */
int cell_watch_prepare(const struct config *cfg, struct cell_result *res, struct watch *w);

/* The kernel's histograms of the first `started` threads, on w prepared: 1 started, 0 not (said why). */
int cell_watch_start(const struct config *cfg, struct cell_result *res, int started,
		     struct watch *w);

/* Stop watching: each thread's watch_timer and watch_sched. */
void cell_watch_finish(struct cell_result *res, struct watch *w);

/* What a cell changed on the machine, for cell_machine_end. */
struct machine {
	struct undo undo;	/* every change outside latlab, journalled */
	struct isolation iso;
	cpu_set_t own_before;	/* latlab's main thread's CPUs before */
	int own_set;
	unsigned begun;		/* 1 << a: axis a's hooks began (their end is due) */
};

/*
 * The machine changed for cell c ([matrix] isolation, idle; latlab's own
 * threads on the housekeeping CPUs), each change journalled first; m made
 * whole first, so _end may always follow. 0, or -1 with the cell an error
 * (what was changed is in m, for _end).
 */
int cell_machine_begin(const struct config *cfg, const struct cell *c, struct cell_result *res,
		       struct machine *m);

/*
 * After the cell's load started: the loads swept into the housekeeping
 * cpuset, and the axes whose begin acts on them (AXIS_AFTER_LOAD). 0, or
 * -1 with the cell an error.
 */
int cell_machine_loaded(const struct config *cfg, const struct cell *c, struct cell_result *res,
			struct machine *m);

/* Everything _begin and _loaded changed, undone; what could not be, said in the log and cell.ini. */
void cell_machine_end(struct cell_result *res, const char *id, struct machine *m);

/* What interfered over the cell: the counters' deltas on the measured CPUs since before. */
void cell_interference(struct cell_result *res, const struct intf_snap *before);

#endif
