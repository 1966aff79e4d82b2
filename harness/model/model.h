/*
 * The results model: what a cell's status is called on disk, the columns
 * of summary.csv and cells.csv, and where a cell's directory is in a
 * results tree (docs/formats.md). Everything that writes or reads a
 * results tree takes these from here.
 */
#ifndef LATLAB_MODEL_H
#define LATLAB_MODEL_H

#include <stddef.h>
#include <stdint.h>

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

/* "pending", "ok", ...: a status's name in every file. */
const char *cell_status_name(enum cell_status s);

/* The status called `name`, or -1. */
int cell_status_parse(const char *name);

/*
 * cells.csv: these columns, then SUMMARY_COLUMNS. A reader needs only
 * CELLS_REQUIRED: trees from before `why` stay readable.
 */
#define CELLS_REQUIRED "campaign,cell,index,host,kernel_release,kernel,load," \
	"workload,threads,affinity,interval_ns,priority,size,repeat,policy," \
	"status,reason,"
#define CELLS_COLUMNS CELLS_REQUIRED "why,dma_latency,preempt,missed_pct,numa,"

/*
 * A cells.csv row's columns before the summary's: CELLS_COLUMNS, then the
 * column of each axis added since (axis.h: a new axis's column comes at
 * the end, older trees keep theirs), each followed by a comma.
 */
#define CELLS_HEAD_MAX 4096
void cells_head_columns(char *buf, size_t len);

/*
 * compare.csv: a line per row x pair of sides x threshold, judged on the
 * row's metric (`metric`), then each metric's verdict, in enum metric
 * order: empty where the row has none (docs/formats.md)
 */
/*
 * compare.csv and history.csv begin with a row of cells: a cell's axes
 * without kernel and repeat, each axis's column (axis.h:
 * taxis_row_columns), then these.
 */

#define COMPARE_COLUMNS "row_kernel,axis,side_a,side_b,metric,n_a,n_b,max_median_a_ns," \
	"max_median_b_ns,max_ratio,max_ratio_lo,max_ratio_hi,p99.99_median_a_ns," \
	"p99.99_median_b_ns,p99.99_ratio,p99.99_ratio_lo,p99.99_ratio_hi,verdict_max," \
	"verdict_p99.99,tail_pct,tail_median_a_ns,tail_median_b_ns,tail_ratio,tail_ratio_lo," \
	"tail_ratio_hi,verdict_tail,timing,design,campaigns_a,campaigns_b,margin_pct,steal_pct_a," \
	"steal_pct_b,over_ns,count_a,hours_a,rate_a_per_h,rate_a_lo,rate_a_hi,dispersion_a," \
	"count_b,hours_b,rate_b_per_h,rate_b_lo,rate_b_hi,dispersion_b,boots_a,boots_b,left_a," \
	"left_b,not_comparable"
/* then, for each metric M in enum metric order (metric_name): */
#define METRIC_VERDICT_COLUMNS "%1$s_median_a_ns,%1$s_median_b_ns,%1$s_ratio,%1$s_ratio_lo," \
	"%1$s_ratio_hi,verdict_%1$s"

/*
 * timeline.csv: per window and thread, a metric's samples in a log-spaced
 * bin [lo_ns, hi_ns) (bin 0: lo 0 = below 1 µs; the last: hi 0 = no upper
 * edge) (docs/formats.md)
 */
#define TIMELINE_COLUMNS "t_s,thread,metric,bin,lo_ns,hi_ns,count"

/* history.csv: latlab history's rows, point by point (docs/formats.md) */
#define HISTORY_COLUMNS "point,tree,kernel,host,kernel_release,started,n,max_median_ns,max_lo_ns," \
	"max_hi_ns,p99.99_median_ns,metric"

/* hist.csv: a histogram's buckets (docs/formats.md) */
#define HIST_COLUMNS "thread,cpu,metric,lo_ns,hi_ns,count"

/* load.csv: a row per instance of the cell's load */
#define LOAD_COLUMNS "load,type,instance,cpus,ops,ops_per_s,restarts"

/* interference.csv: what interfered with the measured CPUs (docs/formats.md) */
#define INTERFERENCE_COLUMNS "cpu,kind,source,count,note"

/*
 * The parts a spike capture's latency is split into (docs/spikes.md), in
 * spikes.csv's order: their names (culprit_kind) and their columns.
 */
#define SPIKE_PARTS 8
const char *spike_part_name(int part);		/* "timer" ... "return", or "?" */
const char *spike_part_column(int part);	/* "timer_ns" ... "return_ns", or "?" */

/* spikes.csv: one row per capture ([trace] mode = spikes; docs/spikes.md) */
#define SPIKES_COLUMNS "capture,thread,cpu,t_ns,latency_ns,timer_ns,irq_ns," \
	"softirq_ns,nmi_ns,rt_threads_ns,blocking_ns,unexplained_ns,return_ns," \
	"culprit,culprit_kind,culprit_ns,complete,note"
/*
 * what latlab writes: the columns a reader needs, the capture's steal time
 * and the kernel's own account where timerlat ran (trees from before lack
 * them)
 */
#define SPIKES_COLUMNS_WRITTEN SPIKES_COLUMNS ",steal_ns,os_irq_ns,os_softirq_ns," \
	"os_thread_ns,os_nmi_ns,os_top"

/* summary.csv: a row per thread x metric; the tail of cells.csv's rows */
#define SUMMARY_COLUMNS "thread,cpu,metric,samples,min_ns,mean_ns,stddev_ns," \
	"p50_ns,p90_ns,p99_ns,p99.9_ns,p99.99_ns,max_ns,overruns,errors," \
	"first_errno,utime_ns,stime_ns,bytes,bytes_per_s"

/*
 * A cell's directory in a results tree: TREE/HOST/RELEASE/CELL-ID. 0, or
 * -ENAMETOOLONG when it does not fit buf.
 */
int cell_path(char *buf, size_t len, const char *tree, const char *host,
	      const char *release, const char *id);

/*
 * A thread's share of its periods missed, in percent: overruns of all its
 * periods (samples + overruns); 0 when it had none. cells.csv's
 * missed_pct, the console, the report and [thresholds] missed's message.
 */
double missed_pct(uint64_t samples, uint64_t overruns);

/* A cell's files (docs/formats.md): what their names are, in one place. */
enum cell_file {
	CELLF_INI, CELLF_SYSINFO, CELLF_LOG, CELLF_SAMPLES, CELLF_HIST,
	CELLF_SUMMARY, CELLF_SERIES, CELLF_TIMELINE, CELLF_LOAD, CELLF_SPIKES,
	CELLF_INTERFERENCE,
};

/* "cell.ini", "sysinfo.ini", "log.txt", "samples.bin", "hist.csv", ... */
const char *cell_file_name(enum cell_file f);

/* DIR/NAME of a cell's file f. 0, or -ENAMETOOLONG when it does not fit buf. */
int cell_file_path(char *buf, size_t len, const char *dir, enum cell_file f);

/* A spike capture's files: "trace-N.txt" (ext "txt"), "trace-N.dat" ("dat"). */
void cell_trace_name(char *buf, size_t len, long long capture, const char *ext);

/*
 * Make s (from the machine: a hostname, a kernel release) one directory
 * name in place: '/' and control characters become '_', and "", "." or
 * ".." becomes "_".
 */
void path_component(char *s);

#endif
