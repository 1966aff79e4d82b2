/*
 * Running one cell: place the threads, set up the workload, start the
 * load, hold /dev/cpu_dma_latency at 0, run the measured workers for the
 * cell's duration (or until SIGINT/SIGTERM), collect their histograms and
 * per-second maxima. Judging it is thresholds.h's, writing its files
 * cellfiles.h's.
 */
#ifndef LATLAB_CELL_H
#define LATLAB_CELL_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "load.h"
#include "matrix.h"
#include "model.h"
#include "ring.h"
#include "sysinfo.h"
#include "interference.h"
#include "tracer.h"
#include "watch.h"
#include "worker.h"

struct cell_result;

/* One second of one thread: the maxima of its metrics (series.csv). */
struct second_max {
	int32_t t_s, thread;
	int64_t max_ns[METRIC_COUNT];
	uint32_t samples;
};

/* One window of the timeline of one thread: its samples per bin and metric (timeline.csv). */
struct tl_window {
	int32_t t_s, thread;	/* the window's first second */
	uint64_t bins[METRIC_COUNT][TL_BINS];
};

/* How the whole run measures, decided once. */
struct run_env {
	int policy;		/* SCHED_FIFO or SCHED_OTHER (--allow-non-rt) */
	int mlocked;		/* mlockall succeeded */
	const char *cmdline;	/* latlab's own command line */
	/*
	 * Called from the measuring loop about every 100 ms with the time
	 * measured so far and the largest per-second maxima drained so far
	 * (ns, per metric). NULL: nothing.
	 */
	void (*tick)(void *arg, int64_t elapsed_ns, const int64_t max_ns[METRIC_CORE]);
	void *tick_arg;
	/*
	 * Called every [campaign] checkpoint of measuring with what the
	 * threads have so far (status CELL_PARTIAL), to be written as the
	 * cell's files: 0 or -errno. NULL: no checkpoints.
	 */
	int (*checkpoint)(void *arg, struct cell_result *part);
	void *checkpoint_arg;
};

struct cell_result {
	enum cell_status status;
	char reason[512];	/* why error/skipped/fail (a fail: every limit broken); "" when ok */
	/* the thresholds' metrics not judged, a figure the run cannot vouch for: "response (device-wait)" */
	char unjudged[256];
	char preempt[16];	/* the running kernel's preemption model, or "" */
	int fatal;		/* stop the campaign (no RT privilege) */
	int nthreads;
	struct worker *workers;	/* nthreads, owned */
	struct second_max *series;	/* drained per-second maxima, owned */
	int nseries, series_cap;
	int64_t timeline_ns;		/* window of the timeline ([campaign] timeline); 0: none */
	struct tl_window *timeline;	/* the drained bins, a window and thread each, owned */
	int ntimeline, timeline_cap;
	int64_t series_max[METRIC_CORE];	/* the largest of them, per core metric */
	uint64_t series_dropped;
	struct loadset loads;
	int dma_latency;	/* /dev/cpu_dma_latency held (at dma_latency_us) */
	char numa_shared[256];	/* the nodes whose memory controller a thread and the load share */
	int64_t dma_latency_us;	/* the cell's value; -1: none (left alone) */
	char isolation[768];	/* what [matrix] isolation did (isolation_describe), or "" */
	char housekeeping[128];	/* the CPUs latlab's own threads ran on, or "" (not set) */
	char axis_done[TAXIS_COUNT][256];	/* what each hooked axis did (axis_ops.h), or "" */
	char not_undone[512];	/* what latlab changed and could not undo, or "" */
	uint64_t samples_written, samples_dropped;
	char samples_error[128];	/* why samples.bin is missing, or "" */
	int traced;		/* [trace] mode = spikes ran: spikes.csv is written */
	char trace_missing[256];	/* events this kernel could not trace */
	char trace_method[12];		/* how captures were taken: "tracefs", "bpf" or "bpf-lean" */
	/* [trace] timerlat = on: "on", or why not; "" when not asked */
	char timerlat[256];
	char timerlat_sched[32];	/* its kernel threads' policy: "SCHED_FIFO 95" */
	uint64_t timerlat_lost;		/* its samples the ring buffer dropped */
	/* [trace] watch = on, or a watch workload: "on", or why not; "" when not asked */
	char watch[256];
	uint64_t watch_dropped;		/* entries the kernel's histograms had no room for */
	char watch_method[8];		/* how they were kept: "bpf" or "hist" (trace/watch.h) */
	char measured_by[16];		/* "cyclictest": its threads, not latlab's; "" latlab's */
	/* type = watch: "THREAD:TID:COMM, ...", room for every thread a watch holds */
	char watch_threads[WATCH_MAX_THREADS * sizeof("63:4194304:123456789012345, ")];
	int watch_unwatched;		/* type = watch: its program's threads beyond the watch's room */
	struct capture *captures;	/* ncaptures, owned */
	int ncaptures;
	struct intf_row *intf;	/* interference on the measured CPUs, owned */
	int nintf;
	int64_t started_real;	/* CLOCK_REALTIME ns */
	int64_t elapsed_ns;
	FILE *log;		/* log.txt lines, in memory */
	char *logbuf;
	size_t loglen;
};

/*
 * Run cell `c` (a variant of the running kernel). Fills *res; the caller
 * frees it with cell_result_free(). `dir` is the cell's directory (only
 * samples.bin is written there while measuring). Returns nonzero if a
 * signal interrupted it.
 */
int cell_run(const struct config *cfg, const struct cell *c,
	     const struct run_env *env, const char *dir,
	     struct cell_result *res);

void cell_result_free(struct cell_result *res);

/*
 * The cell's "why": the culprit of its worst complete capture as
 * "KIND: NAME", into buf ("" when there is none). Returns buf.
 */
char *cell_why(const struct cell_result *res, char *buf, size_t len);

/*
 * The cell's outcome: status (CELL_ERROR, CELL_SKIPPED, CELL_FAIL ...)
 * and its reason, formatted. Returns -1, what a cell step that stops the
 * cell returns.
 */
int cell_end_with(struct cell_result *res, enum cell_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append a timestamped line to the cell's log.txt. */
void cell_log(struct cell_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
