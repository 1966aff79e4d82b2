/*
 * What interfered with the measured CPUs during a cell, as deltas:
 * hard interrupts by source (/proc/interrupts), softirqs by type
 * (/proc/softirqs), the hypervisor's steal time (/proc/stat, ms) and SMIs
 * (MSR 0x34, Intel, the msr module; otherwise "unavailable", never 0).
 * The measured threads' own context switches come from the workers
 * (getrusage). Written as interference.csv.
 */
#ifndef LATLAB_INTERFERENCE_H
#define LATLAB_INTERFERENCE_H

#include <sched.h>
#include <stdint.h>

#define INTF_NAME 48

struct intf_row {
	int cpu;
	char kind[12];		/* irq, softirq, steal, smi, ctxsw */
	char source[INTF_NAME];	/* "LOC Local timer interrupts", "NET_RX", ... */
	int64_t count;		/* the delta; -1: unavailable */
	char note[96];		/* why unavailable, or "" */
};

/* A snapshot of the counters of some CPUs. */
struct intf_snap {
	struct intf_row *row;
	int n;
};

/* Read the counters of the CPUs in `cpus`. 0 or -errno (what could be read is kept). */
int intf_read(struct intf_snap *s, const cpu_set_t *cpus);

/* The same from other files in the two tables' formats (the tests' fixtures); no SMIs. */
int intf_read_files(struct intf_snap *s, const cpu_set_t *cpus,
		    const char *interrupts, const char *softirqs);

/*
 * Each CPU's steal time so far, ns, from a file in /proc/stat's format
 * (its 8th number, in USER_HZ ticks), into steal[CPU_SETSIZE]; -1 where
 * the file does not say (a kernel without the column). 0 or -errno.
 */
int intf_steal_ns(const char *path, int64_t *steal);

/*
 * Has this kernel counted any steal since boot (a CPU's > 0 in steal[],
 * as intf_steal_ns gives it)? 1 or 0: 0 on bare metal and under qemu's
 * TCG, where there is none to count — the spike captures' poll then
 * leaves /proc/stat alone (its read is thousands of instructions of
 * kernel, unpreemptible on a non-preemptible kernel).
 */
int intf_steal_counted(const int64_t *steal);

/* The steal time of `cpus` from a file in /proc/stat's format, in ms. 0 or -errno. */
int intf_read_stat(struct intf_snap *s, const cpu_set_t *cpus, const char *path);

/*
 * after - before, rows whose delta is 0 left out (SMI rows always kept,
 * steal rows of 0 too: nothing stolen, which a reader must tell from a
 * kernel that does not say), into *out (malloc'ed, *nout rows). 0 or -ENOMEM.
 */
int intf_delta(const struct intf_snap *before, const struct intf_snap *after,
	       struct intf_row **out, int *nout);

void intf_free(struct intf_snap *s);

#endif
