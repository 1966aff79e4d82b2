/*
 * [matrix] isolation: the measured CPUs kept for the measured threads,
 * made by latlab for the cell and undone after it (measure/undo.h).
 *
 * cpuset: on the cgroup v1 cpuset hierarchy, as cyclicdeadline makes it —
 * an exclusive cpuset of one CPU for each measured CPU (each its own
 * scheduling and root domain, so a SCHED_DEADLINE thread pinned there is
 * admitted), a housekeeping cpuset of the other online CPUs that takes
 * every task latlab can move (the loads, the machine's own; a per-CPU
 * kernel thread cannot move), the root's load balancing off. (latlab's
 * own threads stay in the root cpuset: cell.c puts them on the
 * housekeeping CPUs by affinity, so they can still start a measured
 * thread on a measured CPU.) On cgroup v2 (where the cpuset controller
 * is v2's): a partition per measured CPU — a threaded child of the root
 * cgroup, isolated (root on older kernels) — which takes the CPU from
 * every other cgroup itself; latlab's process sits in the root cgroup
 * for the cell, the only threaded domain whose children its threads can
 * join.
 * cpuset+irqs: besides, every interrupt that can move has its affinity
 * taken off the measured CPUs, and new interrupts' default too.
 * What the kernel isolates at boot (isolcpus, nohz_full, rcu_nocbs) is
 * sysinfo's; this is what latlab can do without a reboot.
 */
#ifndef LATLAB_ISOLATE_H
#define LATLAB_ISOLATE_H

#include <limits.h>
#include <sched.h>
#include <stddef.h>

#include "undo.h"

struct isolation {
	int kind;			/* enum isolation_kind (axis.h) */
	int version;			/* the cgroup hierarchy's: 1 or 2 */
	char root[PATH_MAX];		/* the v1 cpuset hierarchy's mount, or cgroup v2's */
	char name[64];			/* latlab-PID: its cpusets' prefix */
	cpu_set_t measured, housekeeping;
	int tasks_moved, tasks_stuck;	/* into housekeeping; could not move */
	int irqs_moved;
	char irqs_stuck[192];		/* the interrupts that could not move: "24 25" */
	char others[192];		/* other cpusets that may run tasks on a measured CPU */
	char partition[64];		/* v2: the partitions' state, "isolated" or "root" */
	char own_cgroup[PATH_MAX];	/* v2: latlab's cgroup before ("/user.slice/..."), */
	int moved_self;			/* left for the root's for the cell */
};

/*
 * The v1 cpuset hierarchy's mount point into root (version 1), or else
 * cgroup v2's where it has the cpuset controller (version 2). 0, or
 * -ENODEV with the reason in why.
 */
int isolation_root(char *root, size_t len, int *version, char *why, size_t wlen);

/*
 * Can this machine isolate `measured` for a cell (plan and run ask before
 * anything is written)? kind ISO_NONE is always 0. Else -ENODEV with the
 * reason: no cpuset hierarchy, not writable, no CPU left for
 * housekeeping, a measured CPU in another exclusive cpuset, /proc/irq not
 * writable (cpuset+irqs).
 */
int isolation_check(int kind, const cpu_set_t *measured, char *why, size_t len);

/*
 * Is a CPU of cpus held by a cpuset for itself (v1 exclusive, v2 a
 * partition: another latlab's isolation, or a killed one's)? 1 with
 * "CPU N is in the exclusive cpuset PATH (whose)" in who, else 0.
 */
int isolation_holder(const cpu_set_t *cpus, char *who, size_t len);

/*
 * The cpusets made, the root's balancing off, the interrupts moved (cpuset+irqs) — each change
 * journalled in u first. 0, or -errno with the reason in why (what was
 * done is in u, for undo_finish). ISO_NONE does nothing.
 */
int isolation_begin(struct isolation *iso, struct undo *u, int kind,
		    const cpu_set_t *measured, char *why, size_t len);

/*
 * Every task of the root cpuset but latlab's own threads moved into the
 * housekeeping cpuset (twice: what forked meanwhile too). Called after
 * the loads start. Counts into iso.
 */
void isolation_sweep(struct isolation *iso);

/* The tasks file a measured thread on `cpu` writes its tid to; "" when not isolating. */
void isolation_cpu_tasks(const struct isolation *iso, int cpu, char *path, size_t len);

/* v2: latlab's process back in its own cgroup (the journal undoes the rest). */
void isolation_end(struct isolation *iso);

/* What was done, for cell.ini and the log: "cpusets under /sys/fs/..., 83 tasks moved ...". */
void isolation_describe(const struct isolation *iso, char *buf, size_t len);

#endif
