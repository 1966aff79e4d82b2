/*
 * Running one cell: place the threads, set up the workload, start the
 * load, hold /dev/cpu_dma_latency at 0, run the measured workers for the
 * cell's duration (or until SIGINT/SIGTERM), collect their histograms and
 * per-second maxima; then write the cell's files.
 */
#ifndef LATLAB_CELL_H
#define LATLAB_CELL_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "load.h"
#include "matrix.h"
#include "ring.h"
#include "sysinfo.h"
#include "worker.h"

enum cell_status {
	CELL_PENDING,		/* not run: other kernel variant, or not yet */
	CELL_OK,		/* ran, thresholds (if any) passed */
	CELL_FAIL,		/* ran, a threshold failed */
	CELL_INTERRUPTED,	/* SIGINT/SIGTERM during the cell */
	CELL_ERROR,		/* could not run (setup, load, I/O) */
	CELL_SKIPPED,		/* the workload's resource does not exist */
	CELL_RUNNING,		/* in the state file while it runs: if the
				   campaign dies, the cell is known partial */
	CELL_PARTIAL,		/* cell.ini of a checkpoint: measuring goes on */
	CELL_STATUS_COUNT
};

const char *cell_status_name(enum cell_status s);

/* The status called `name`, or -1. */
int cell_status_parse(const char *name);

struct cell_result;

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
	void (*tick)(void *arg, int64_t elapsed_ns, const int64_t max_ns[3]);
	void *tick_arg;
	const struct sysinfo *si;	/* for the checkpoints' sysinfo.ini */
};

struct cell_result {
	enum cell_status status;
	char reason[256];	/* why error/skipped/fail; "" when ok */
	int fatal;		/* stop the campaign (no RT privilege) */
	int nthreads;
	struct worker *workers;	/* nthreads, owned */
	struct series_rec *series;	/* drained per-second maxima, owned */
	int nseries, series_cap;
	int64_t series_max[3];		/* the largest of them, per metric */
	uint64_t series_dropped;
	struct loadset loads;
	int dma_latency;	/* /dev/cpu_dma_latency held at 0 */
	uint64_t samples_written, samples_dropped;
	char samples_error[128];	/* why samples.bin is missing, or "" */
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

/* Append a timestamped line to the cell's log.txt. */
void cell_log(struct cell_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Check the config's thresholds against every thread; on failure set
 * status CELL_FAIL and the reason.
 */
void cell_check_thresholds(const struct config *cfg, struct cell_result *res);

/*
 * Write the cell directory's files (cell.ini, sysinfo.ini unless si is NULL, hist.csv,
 * summary.csv, series.csv, load.csv, log.txt), each atomically.
 * 0 or -errno (-ENOSPC: disk full).
 */
int cell_write(const struct config *cfg, const struct cell *c,
	       const struct run_env *env, const struct sysinfo *si,
	       struct cell_result *res, const char *dir);

/* The summary columns (summary.csv; the tail of cells.csv). */
#define SUMMARY_COLUMNS "thread,cpu,metric,samples,min_ns,mean_ns,stddev_ns," \
	"p50_ns,p90_ns,p99_ns,p99.9_ns,p99.99_ns,max_ns,overruns,errors," \
	"first_errno,utime_ns,stime_ns,bytes,bytes_per_s"

struct csvw;
/* One thread x metric summary row's fields, appended to the writer. */
void cell_summary_fields(struct csvw *csv, const struct worker *w, int metric);

#endif
