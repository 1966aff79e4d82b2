/*
 * What a cell's figure can mean: the one place that decides, for a cell
 * and a metric, whether the figure can be judged (a verdict, a deadline's
 * count, a gate) and, when not, why and how to get one that can. The
 * writer (cellfiles.c: cell.ini's [figures]) and the reader (tree.c: each
 * tcell's vouch[]) fill the same facts and ask the same function, so a
 * tree and the pages made of it never disagree. Pure: no files, no
 * machine. docs/report.md, "What a figure can mean", is its table.
 */
#ifndef LATLAB_VOUCH_H
#define LATLAB_VOUCH_H

#include <stddef.h>

#include "metric.h"

/*
 * How the cell was measured in a virtual machine with an emulated CPU:
 * 0 not emulated, EMU_TCG (the host's clock: absolute figures mean
 * little), EMU_ICOUNT (qemu's instruction count: latencies in
 * instruction time).
 */
#define EMU_TCG 1
#define EMU_ICOUNT 2

/*
 * Why a figure cannot be judged, a bit each (VR_BIT). A cell's status
 * leaves every figure of it out; the others are of one metric.
 */
enum vouch_reason {
	VR_STATUS,	/* the cell did not end measured: error, interrupted, skipped, partial */
	VR_EMULATED,	/* qemu without the instruction clock: the emulator's figures */
	VR_DEVICE,	/* the instruction clock, and the metric holds a wait for a device */
	VR_MISSED,	/* more of its periods missed than VOUCH_MISSED_PCT */
	VR_COUNT
};
#define VR_BIT(r) (1u << (r))

/*
 * A cell that missed more than this share of its periods (%) has figures
 * of the periods that ran only: a verdict on them compares what is left.
 * For the wake-up (and the kernel's own wake-up figures) the periods its
 * wake-ups missed (a wake-up a whole period late or more); for the rest
 * (I/O, response, a step) every period missed, whatever made it late.
 */
#define VOUCH_MISSED_PCT 10.0

/* What perturbed the figures (a bit each): they compare only with figures perturbed alike. */
enum vouch_trace {
	VT_SPIKES = 1,		/* [trace] mode = spikes: the kernel's events on every wake-up */
	VT_WATCH_HIST = 2,	/* [trace] watch through histogram triggers */
	VT_WATCH_BPF = 4,	/* [trace] watch through BPF */
	VT_TIMERLAT = 8,	/* [trace] timerlat beside the threads */
};

/* The facts about one cell that decide. */
struct vouch_facts {
	int status;		/* enum cell_status */
	int emulated;		/* 0, EMU_TCG, EMU_ICOUNT */
	unsigned waits;		/* METRIC_BITs whose figures hold a wait for a device (disk, network card) */
	double missed_pct;	/* the share of its periods the worst thread missed, % */
	double wake_missed_pct;	/* the share its wake-ups missed (a period late or more), % */
	unsigned traced;	/* enum vouch_trace bits */
};

/*
 * The share of periods (%) wake-ups missed: `late` wake-ups a whole
 * period late or more, of `periods` (kept and missed), every thread's
 * summed. Each such wake-up cost at least the period after it.
 */
double vouch_wake_missed_pct(double late, double periods);

/* Can a cell of this status be judged at all (ok, or fail: a threshold broken is a finding)? */
int vouch_status_judged(int status);

/* The reasons (VR_BITs) metric's figure of the cell f says cannot be judged; 0: it can. */
unsigned vouch_metric(const struct vouch_facts *f, int metric);

/*
 * Can the cell's missed periods be counted as deadline misses? Not where
 * its loop waited for an emulated device on the instruction clock (the
 * waits' lengths are the clock's, and so is every period they made it
 * miss), nor under TCG (the emulator's pace).
 */
int vouch_misses_count(const struct vouch_facts *f);

/* Is metric one of the wake-up's kind (latlab's, the kernel's)? */
int vouch_wakeup_kind(int metric);

/* "status", "emulated", "device-wait", "missed": a reason in files (cell.ini, compare.csv). */
const char *vouch_keyword(int reason);

/*
 * The reasons in `reasons` as files write them: "device-wait" or
 * "emulated+missed"; "" for none.
 */
void vouch_keywords(unsigned reasons, char *buf, size_t len);

/* The keywords back into bits: 0, or -1 for a word that is not one. */
int vouch_keywords_parse(const char *s, unsigned *reasons);

/*
 * Why, in a reader's words, with the figure that made it (missed's share),
 * and how to get a figure that can be judged: "on the instruction clock a
 * wait for a device is not the device's time: ...; --metric wakeup judges
 * the wake-ups, ..." The first reason of `reasons` only: the rest are said
 * by vouch_keywords.
 */
void vouch_words(unsigned reasons, const struct vouch_facts *f, int metric, char *buf,
		 size_t len);

/* The trace bits in words ("spikes tracing", "timerlat and BPF watch"), "untraced" for none. */
void vouch_trace_words(unsigned traced, char *buf, size_t len);

/*
 * The metrics a cell's workload waits on a device for, into a cell.ini
 * value ("io,response,io_step1"), and back: 0, or -1 for a word that is
 * not a metric.
 */
void vouch_metrics_text(unsigned metrics, char *buf, size_t len);
int vouch_metrics_parse(const char *s, unsigned *metrics);

#endif
