/*
 * Threads latlab did not start, measured by the kernel ([trace] watch =
 * on beside latlab's own threads; `type = watch` and `latlab watch` for a
 * program that is already running): per thread two histograms kept in
 * the kernel — by BPF programs where latlab and the kernel can
 * (watch_bpf.h), else by histogram triggers and synthetic events
 * (Documentation/trace/histogram.rst) — nothing copied out per event:
 *
 *   timer  the expiry the thread asked for (its hrtimer's softexpires: a
 *          SCHED_OTHER thread's slack counts, as the program lives it) to
 *          the thread running: what cyclictest and latlab's wakeup measure,
 *          for a thread that sleeps on an hrtimer (clock_nanosleep,
 *          nanosleep, a timerfd, a poll or select timeout, a POSIX timer)
 *   sched  its waking to its running: the scheduling delay of any wake-up
 *
 * The triggers' chains, in latlab's instance latlab-PID-NS-watch (its trace_clock
 * and each trigger's clock mono, so that common_timestamp and an
 * hrtimer's expiry share CLOCK_MONOTONIC: a hist trigger's default is
 * the global clock, 37 ms off it in a Debian 6.1 guest):
 *   hrtimer_start (armed by a watched thread) → hrtimer_expire_entry →
 *   synthetic latlab_PID_NS_exp(pid, expires) → sched_switch to that pid →
 *   synthetic latlab_PID_NS_timer(pid, lat) → a histogram keyed pid, lat;
 *   sched_waking (pid) → sched_switch → latlab_PID_NS_sched(pid, lat) → a
 *   histogram keyed pid, lat.
 * Values in 100 ns buckets (`lat.buckets=100`), folded into latlab's
 * log-linear histogram at each bucket's middle.
 */
#ifndef LATLAB_WATCH_H
#define LATLAB_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define WATCH_MAX_THREADS 64	/* a filter of the kernel's a page long at most */
#define WATCH_BUCKET_NS 100
/*
 * A timer latency of this or more is an expiry paired with a switch-in
 * stamped before it: below zero, as the kernel's u64 prints it. Counted
 * per thread, left out of its histogram. Seen in a Debian 6.1 icount
 * guest on a program's SCHED_OTHER threads (22 of 2,007 a thread, each
 * 154 ms below zero, about once per wake-up of another task), never on
 * latlab's own; not understood. (A filter on the synthetic event's lat
 * cannot count them: that kernel counted events the filter excludes.)
 */
#define WATCH_UNPAIRED_NS 60000000000LL

struct watch_thread {
	int tid;
	struct hist timer, sched;	/* ns */
	uint64_t unpaired;		/* expiries paired with an earlier switch-in: left out */
};

struct watch_step;

/* How the histograms are kept: the first that works (BPF, then triggers), or one of them. */
enum watch_method { WATCH_AUTO, WATCH_BPF, WATCH_HIST };
#define WATCH_METHODS "auto|bpf|hist"

/* "bpf", "hist" ("auto" for WATCH_AUTO) */
const char *watch_method_name(int method);

/* [trace] watch's value (off, on, bpf, hist: 0-3) as a method; on is auto */
int watch_method_of_trace(int trace_watch);


struct watch {
	int method;		/* enum watch_method: the one in use (bpf or hist) once prepared */
	int prepared;		/* watch_prepare done: the programs loaded, or the instance made */
	void *bpf;		/* WATCH_BPF: the loaded programs (watch_bpf.c) */
	struct tracefs_instance *inst;
	char name[64];		/* the instance */
	char prefix[48];	/* the synthetic events' names: PREFIX_exp, _timer, _sched */
	int n;
	struct watch_thread *t;	/* n, owned */
	uint64_t dropped;	/* entries the kernel's maps had no room for */
	struct watch_step *step;	/* what open writes, in order (owned) */
	int steps;		/* how many of them are written (undone in reverse) */
};

/*
 * Can this kernel keep them by `method`: BPF (watch_bpf.h: latlab built
 * with it, BTF, the capabilities), histogram triggers and synthetic
 * events in a writable tracefs, or (auto) either. The method that would
 * be used in *chosen (may be NULL). 0, or -ENODEV / -EACCES / -EPERM with
 * why (for auto: why neither).
 */
int watch_check(int method, int *chosen, char *why, size_t len);

/*
 * The costly part of watching, before the threads are known and before
 * the cell's load starts: the method chosen (auto: BPF where it can,
 * else triggers; w->method says which), BPF's programs loaded, or the
 * triggers' instance made. 0, or -errno with why (nothing left behind).
 * Then watch_open, or watch_free.
 */
int watch_prepare(struct watch *w, int method, char *why, size_t len);

/*
 * Start watching tids[0..n) (1 to WATCH_MAX_THREADS): on w prepared, or
 * prepared here by `method`. 0, or -errno with why (the kernel's own
 * words: the instance's error_log, the verifier's last lines); w freed
 * and nothing left behind on failure.
 */
int watch_open(struct watch *w, int method, const int *tids, int n, char *why, size_t len);

/*
 * What the kernel has counted so far into each thread's timer and sched
 * (replacing them), watching going on: for a checkpoint. 0, or -errno
 * with why.
 */
int watch_read(struct watch *w, char *why, size_t len);

/*
 * Read the histograms into each thread's timer and sched, then remove
 * every trigger, the synthetic events and the instance. 0, or -errno
 * with why (what was read is kept).
 */
int watch_close(struct watch *w, char *why, size_t len);

/* The histograms of tid, or NULL. */
const struct watch_thread *watch_of(const struct watch *w, int tid);

/* Close if open, free the threads. */
void watch_free(struct watch *w);

/*
 * One hist file's text ("{ pid: 12, lat: ~ 300-399 } hitcount: 5"
 * lines) added to the threads' timer (which 0) or sched (1)
 * histograms, a bucket at WATCH_UNPAIRED_NS or above to their unpaired;
 * its "Dropped:" count added to *dropped. Lines of a pid not watched are
 * ignored. 0, or -EINVAL when a line is not the kernel's.
 */
int watch_parse_hist(struct watch *w, const char *text, int which, uint64_t *dropped);

/*
 * What a killed latlab left, before tracer_sweep() (whose removal its
 * triggers would hold up): a stale watch instance, its triggers first,
 * and the synthetic events named with a PID that is not a running latlab.
 */
void watch_sweep(void);

#endif
