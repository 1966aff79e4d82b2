/*
 * Spike captures with the kernel's tracer (libtracefs, libtraceevent):
 * latlab's own tracefs instance, "latlab-PID", never the top-level buffer.
 * It lives for one cell: created before the measured threads start,
 * removed when they are joined; one a killed latlab left behind is removed
 * by the next tracer_sweep().
 *
 * Or with BPF's flight recorder (trace/flight.h, [trace] method): each
 * measured CPU's last events in a ring of a BPF map, no tracefs instance.
 *
 * The real-time side is struct spike_trap: a measured thread whose
 * wake-up latency exceeds the threshold while the trap is armed writes a
 * marker to trace_marker and "0" to tracing_on (two write()s to
 * descriptors opened before the cell; nothing else) — with the flight
 * recorder, one store that freezes its rings —, records what it saw,
 * and sets `fired`. The main thread then reads the instance's buffers
 * (tracer_capture), explains the wake-up (attrib.h), saves trace-N.txt,
 * and re-arms.
 */
#ifndef LATLAB_TRACER_H
#define LATLAB_TRACER_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "attrib.h"

struct trace_opts;

struct spike_trap {
	/* raised while the cell runs where it keeps its worst captures ([trace] keep) */
	_Atomic int64_t threshold_ns;
	int marker_fd, on_fd;
	_Atomic int armed;	/* 1: the next spike fires (one thread wins) */
	/*
	 * CLOCK_MONOTONIC ns: a spike whose intended wake-up is earlier is
	 * not taken (the buffer, cleared at the arming, cannot hold the
	 * window before it); set before `armed`.
	 */
	_Atomic int64_t from;
	_Atomic int fired;	/* set by that thread once the fields are written */
	int thread, cpu, tid;
	int64_t intended, woke;	/* CLOCK_MONOTONIC ns */
	/*
	 * the BPF flight recorder's (trace/flight.h): the word to store 1 to,
	 * in place of the marker and tracing_on; NULL with tracefs
	 */
	int *freeze;
};

/*
 * In the real-time loop, after a cycle is measured: fire the trap if the
 * latency is above the threshold, the trap is armed, and the intended
 * wake-up is not before its `from`.
 */
void spike_trap_check(struct spike_trap *t, int thread, int tid,
		      int64_t intended, int64_t woke);

/* One saved capture: what spikes.csv holds. */
struct capture {
	int n;			/* 1-based: trace-N.txt */
	int thread, cpu, tid;
	int64_t t_ns;		/* intended wake time, since the cell's start */
	int64_t latency_ns;
	struct attribution a;
	int64_t saved_ns;	/* from the spike to trace-N.txt on disk */
	/* the CPU's steal time (/proc/stat) over the poll that saw it: <= 100 ms, 10 ms steps; -1 unknown */
	int64_t steal_ns;
	int dat;		/* trace-N.dat was written (trace-cmd and libtracecmd there) */
};

struct tracer;

/*
 * Can this machine trace? 0, or -errno with why ("no tracefs ..."). Mounts
 * tracefs at /sys/kernel/tracing if it is not mounted (libtracefs does).
 */
int tracer_check(char *why, size_t len);

/*
 * For sysinfo.ini: tracefs's directory into dir ("" if none) and the
 * default events this kernel lacks into missing ("" if none). Reads only.
 */
void tracer_probe(char *dir, size_t dlen, char *missing, size_t mlen);

/*
 * This latlab's instance name: latlab-PID-NS, NS its PID namespace's
 * inode, so that latlabs in other namespaces (containers, unshare) never
 * take its PID for one of theirs.
 */
void tracer_instance_name(char *buf, size_t len);

/* A second instance of this latlab's, for a role: latlab-PID-NS-ROLE (timerlat). */
void tracer_instance_role(char *buf, size_t len, const char *role);

/*
 * Remove the instances of this PID namespace whose latlab is gone (a
 * SIGKILLed run); other namespaces' are theirs. Returns how many were
 * removed.
 */
int tracer_sweep(void);

/*
 * Is name an instance (latlab-PID-NS, latlab-PID-NS-ROLE) of this PID
 * namespace whose latlab is gone?
 */
int tracer_stale(const char *name);

/*
 * Can this machine take captures by `method` (enum trace_method)? auto:
 * by either. 0, or -errno with why.
 */
int tracer_check_method(int method, char *why, size_t len);

/*
 * Create the instance for a cell measuring on `cpus` — or, where
 * o->method says so and BPF works, the flight recorder —: trace_clock = mono,
 * tracing_cpumask = cpus, `buffer` bytes per CPU, the default events and
 * o->events; tracing on. Events this kernel lacks are listed in
 * `missing` ("" if none): the cell runs without them. 0, or -errno with
 * err set (nothing left behind).
 */
int tracer_open(struct tracer **out, const struct trace_opts *o,
		const cpu_set_t *cpus, struct spike_trap *trap,
		char *missing, size_t mlen, char *err, size_t errlen);

/*
 * The traced CPUs' clock counts their instructions (a qemu guest's clock
 * = icount): the explanations find no stall while a CPU runs
 * (spike_query.counted_clock).
 */
void tracer_clock_counted(struct tracer *t);

/*
 * The trap fired: read the buffers, explain the wake-up (`kprio` is the
 * measured thread's kernel priority: 99 - its SCHED_FIFO priority, 120
 * for SCHED_OTHER; `start` the cell's start in
 * CLOCK_MONOTONIC ns), write DIR/trace-N.txt. Fills *out; 0 or -errno
 * (the trace file could not be written; *out is still filled).
 */
int tracer_capture(struct tracer *t, const struct spike_trap *trap, int kprio,
		   int64_t start, int n, const char *dir, struct capture *out);

/*
 * Clear the buffers and trace again; the trap is armed again, for spikes
 * whose intended wake-up is at least the window trace-N.txt shows before
 * it (2 ms) after now. 0 or -errno.
 */
int tracer_rearm(struct tracer *t, struct spike_trap *trap);

/* Tracing off, the instance removed, the trap's descriptors closed. */
void tracer_close(struct tracer *t, struct spike_trap *trap);

/* The instance's name ("latlab-PID"), or "bpf-flight-recorder". */
const char *tracer_name(const struct tracer *t);

/* How it takes captures: "tracefs" or "bpf". */
const char *tracer_method(const struct tracer *t);

#endif
