/*
 * A results tree read back (for report and compare): cells.csv's cells,
 * each with its threads merged — rebuilt from the cell's hist.csv and
 * summary.csv, so everything shown is recomputed from the CSV files.
 */
#ifndef LATLAB_TREE_H
#define LATLAB_TREE_H

#include <limits.h>
#include <stdint.h>

#include "axis.h"
#include "csvfile.h"
#include "hist.h"
#include "timeline.h"
#include "metric.h"
#include "model.h"
#include "options.h"
#include "vouch.h"

/* One row of a cell's spikes.csv. */
struct tspike {
	int64_t capture, thread, latency_ns, t_ns;
	int complete;
	int64_t part_ns[SPIKE_PARTS];	/* timer .. return, in spikes.csv's order */
	int64_t culprit_ns;
	char culprit[96], kind[16];
};

/* an axis's value as cells.csv has it: an affinity list is the longest */
#define TCELL_AXIS_MAX AXIS_ITEM_MAX

/* A guest cell's I/O through an emulated device (cell.ini's files_on, net_note) */
#define TCELL_DEV_DISK	1u	/* the guest's disk (/dev/vda) */
#define TCELL_DEV_CARDS	2u	/* the guest's two cards */

/* A timeline.csv row: window (0 the first), metric (enum metric), bin (timeline.h), count. */
struct tl_row {
	int window, metric, bin;
	uint64_t count;
};

struct tcell {
	char id[160], release[128], status[16], reason[512];
	union {
		/* each axis's value as cells.csv has it, by the axis table's index (axis.h) */
		char ax[TAXIS_COUNT][TCELL_AXIS_MAX];
		struct {
			char kernel[TCELL_AXIS_MAX], host[TCELL_AXIS_MAX], load[TCELL_AXIS_MAX],
				workload[TCELL_AXIS_MAX], threads[TCELL_AXIS_MAX],
				affinity[TCELL_AXIS_MAX], interval_text[TCELL_AXIS_MAX],
				priority_text[TCELL_AXIS_MAX], size_text[TCELL_AXIS_MAX],
				policy[TCELL_AXIS_MAX], dma_latency[TCELL_AXIS_MAX],
				numa[TCELL_AXIS_MAX];
		};
	};
	union {
		/* a number axis's value (axis_kind: duration, int, size) by the same index */
		int64_t num[TAXIS_COUNT];
		struct {
			int64_t no_kernel_, no_host_, no_load_, no_workload_, no_threads_,
				no_affinity_, interval, priority, size, no_policy_, no_dma_,
				no_numa_;
		};
	};
	int64_t index, repeat;
	int line;		/* its first row's line in cells.csv */
	char dir[PATH_MAX + 512];	/* the cell's directory */
	int measured;		/* has samples */
	/* each metric, threads merged, owned; NULL where the cell has none */
	struct hist *metric[METRIC_COUNT];
	struct hist *wakeup, *response;	/* metric[WAKEUP], metric[RESPONSE]: not owned */
	unsigned listed;	/* METRIC_BITs of the metrics its files have rows of (not
				   the core three of a watched program's cell: empty) */
	int primary;		/* its workload's own metric (enum metric), one it has */
	int64_t started;	/* when it started, ns since the epoch (cell.ini); 0 unknown */
	char boot_id[40];	/* the boot it ran in (sysinfo.ini's boot_id); "" unknown */
	int64_t elapsed_ns;	/* cell.ini's elapsed_ns: how long it took */
	int64_t span_ns;	/* how long it measured: elapsed_ns, or at least its periods x interval */
	int emulated;		/* tcell_emulated's answer, read once */
	unsigned devices;	/* TCELL_DEV_ bits: the emulated devices its I/O went through */
	char measured_by[96];	/* the latlab that measured it: "VERSION (git COMMIT)", "" unknown */
	char load_settings[512];	/* cell.ini's [load.NAME], "key = value, ..."; "" before it was written */
	uint64_t overruns, errors, bytes;
	double missed_pct;	/* the share of its periods the worst thread missed, % */
	int missed_thread;	/* that thread */
	double bytes_per_s;	/* over threads: bytes / time in I/O */
	int64_t io_p99;
	double io_mean;		/* ns, over threads: the mean time in run() */
	double load_ops_per_s;	/* sum of load.csv */
	int nthreads;
	char *bad;		/* why its files cannot be trusted; NULL if fine */
	char why[160];		/* cells.csv's why ("" in trees from before it) */
	char preempt[16];	/* the kernel's preemption model (cells.csv; "" before it or unknown) */
	/* series.csv, wake-up: the running max (ns) at the end of each second */
	int64_t *runmax;	/* nsec of them, owned; NULL without series */
	int nsec;
	int max_at_s;		/* the first second that reached the cell's max */
	/* timeline.csv: its windows and their length (s); 0 without it */
	int timeline_windows;
	int64_t timeline_window;
	struct tl_row *tl;	/* its rows, ntl of them, owned (tcell_blocks reads them) */
	int ntl;
	/* interference.csv: per measured CPU its top sources, in words ("" if none) */
	char interference[512];
	/*
	 * Its steal rows: the hypervisor's time on the measured CPUs, ms,
	 * summed over the steal_cpus that have one, of the intf_cpus the file
	 * names (a row of 0 is written since 2026-12-03; before, a CPU
	 * nothing was stolen from had none).
	 */
	int64_t steal_ms;
	int steal_cpus, intf_cpus;
	int traced;		/* it has a spikes.csv */
	/*
	 * What its figures can mean (vouch.h): the facts, from cells.csv,
	 * cell.ini and sysinfo.ini, and per metric it has the reasons it
	 * cannot be judged (VR_BITs; 0: it can)
	 */
	struct vouch_facts vf;
	unsigned vouch[METRIC_COUNT];
	struct tspike *spikes;	/* nspikes rows of it, owned */
	int nspikes;
};

struct tree {
	char dir[PATH_MAX];
	char campaign[128];
	int n;
	struct tcell *cell;
	int nbad;		/* cells with bad set */
	/*
	 * Trees with the same non-zero side_group are campaigns of one side
	 * (compare's A,B,C): their cells of one axis value are one side's
	 * runs. 0: the tree's sides are its own.
	 */
	int side_group;
};

/*
 * Read DIR/cells.csv and every measured cell's files, trusting nothing
 * unchecked: every number parses whole, every row has the header's
 * fields, a histogram's counts add up to its thread's samples in
 * summary.csv and to cells.csv's, and names joined into paths are single
 * names. A cell that fails is kept in the list, unmeasured, with the
 * reason ("FILE:LINE: ...") in its bad[] (t->nbad counts them). Returns 0,
 * or -errno with a reason in err when cells.csv itself cannot be read
 * (-ENOENT / -ENOTDIR: not a results directory).
 */
int tree_read(struct tree *t, const char *dir, char *err, size_t errlen);

/* Is dir a campaign's tree (it has a cells.csv), not a cell of one? */
int tree_is_campaign(const char *dir);
void tree_free(struct tree *t);

/* Each damaged cell of t on stderr, with why; returns t->nbad. */
int tree_log_damaged(const struct tree *t);

/* A measured cell's summary.csv and hist.csv, checked against each other. */
struct cell_files {
	struct csv_table summary, hist;
};

/*
 * Read DIR/summary.csv and DIR/hist.csv: every number whole, a row per
 * thread and metric in summary.csv, every bucket [lo_ns, hi_ns) with
 * lo < hi and a thread and metric of summary.csv, and each thread's
 * counts adding up to its samples. 0, or -errno with "FILE:LINE: reason".
 */
int cell_files_read(const char *dir, struct cell_files *f, char *err, size_t len);
void cell_files_free(struct cell_files *f);

/*
 * How the cell was measured in a virtual machine with an emulated CPU
 * (its sysinfo.ini's [vm] accel and clock): 0, EMU_TCG or EMU_ICOUNT
 * (vouch.h).
 */
int tcell_emulated(const struct tcell *c);

/* The kinds of any cells of the tree, or'ed. */
int tree_emulated(const struct tree *t);

/*
 * c's timeline of one metric, threads merged: *count (allocated, the
 * caller frees it) holds per window its samples in each timeline bin.
 * Returns the windows (0, *count NULL: no timeline of that metric), or
 * -ENOMEM.
 */
int tcell_blocks(const struct tcell *c, int metric, uint64_t (**count)[TL_BINS]);

#endif
