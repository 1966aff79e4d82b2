/*
 * latlab's plugin ABI: your own periodic step, measured by latlab.
 *
 * A plugin is a shared object that exports one symbol, `latlab_plugin`,
 * a struct latlab_plugin whose `abi` is LATLAB_PLUGIN_ABI. A config names
 * it as a workload:
 *
 *     [workload.adc]
 *     type = plugin
 *     path = /usr/lib/latlab/plugins/adc.so   ; the shared object
 *     file = /sys/bus/iio/devices/iio:device0/in_voltage0_raw  ; the plugin's own
 *
 * Every key but `type` and `path` is the plugin's: check() sees them when
 * latlab plans or runs (before anything is written), setup() once per
 * measured thread. Then latlab's SCHED_FIFO thread wakes on its period
 * and calls step() once per period; the wake-up, the step's time (io) and
 * the time it was done (response) are recorded as for latlab's own
 * workloads. step() runs in that real-time thread: it must not allocate,
 * print or take a lock a lower-priority thread may hold, or it measures
 * itself.
 *
 * A plugin runs with latlab's privileges (root, SCHED_FIFO, memory
 * locked): load only code you trust. Its cell runs in a process of its
 * own, so a plugin that crashes, exits or blocks fails that cell, not the
 * campaign (docs/own-code.md).
 *
 * Every function returns 0 or a negative errno; step() returns the bytes
 * it moved (0 for none) or a negative errno, which latlab counts as an
 * error of the period (the first one kept), never a sample. More than
 * 1 TiB in one step counts as an error (ERANGE), a negative value that
 * is no errno (below -4095) as EINVAL. The reasons a plugin writes into
 * why are cut at its last byte if they are not terminated.
 */
#ifndef LATLAB_PLUGIN_H
#define LATLAB_PLUGIN_H

#include <stddef.h>

/* What this header describes; a plugin built against another is refused. */
#define LATLAB_PLUGIN_ABI 1

/* One `key = value` of the workload's section, as written. */
struct latlab_option {
	const char *key;
	const char *value;
};

/* One measured thread's step: what latlab says, and the plugin's state. */
struct latlab_step {
	int thread;		/* 0-based measured thread */
	int cpu;		/* the CPU it runs on, or -1 (not pinned) */
	long long size;		/* the cell's [matrix] size, bytes */
	void *state;		/* the plugin's own, set by setup() */
	char why[160];		/* setup()'s reason when it fails */
};

struct latlab_plugin {
	unsigned abi;		/* LATLAB_PLUGIN_ABI */
	const char *name;	/* for the log */
	/*
	 * Optional: the options, before any cell. 0, or -EINVAL with the
	 * offending key in *bad (NULL: the section) and the reason in why.
	 */
	int (*check)(const struct latlab_option *opt, int n, const char **bad, char *why,
		     size_t len);
	/*
	 * Optional: one measured thread's set-up, in latlab's main thread,
	 * before the real-time thread starts (it may block, allocate, open).
	 * 0, or a negative errno with the reason in s->why; -ENODEV when a
	 * device is not on this machine (the cell is then skipped, not failed).
	 */
	int (*setup)(struct latlab_step *s, const struct latlab_option *opt, int n);
	/* Required: one period's work, in the real-time thread. */
	long long (*step)(struct latlab_step *s);
	/* Optional: after the real-time thread ended. */
	void (*teardown)(struct latlab_step *s);
};

/* The symbol latlab looks for. */
extern const struct latlab_plugin latlab_plugin;

#endif
