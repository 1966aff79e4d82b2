/*
 * [matrix] smt: the SMT siblings of the measured CPUs — the other
 * hardware threads of their cores — as the machine has them (on), or
 * taken offline for the cell (off). A sibling shares its core's
 * pipeline, caches and execution ports with the measured thread: what
 * runs there (a load, an interrupt, a kernel thread) delays it as nothing
 * on another core can. Each sibling's cpuN/online is written 0 through
 * the journal, before the cpusets are built so that none holds it
 * (AXIS_BEFORE_ISOLATION), and 1 again after the cell, Ctrl-C, or by
 * the next latlab after a SIGKILL (undo.c). Refused where a measured
 * CPU's sibling is measured too (unpinned threads, two threads a core),
 * is one of [campaign] housekeeping's, or cannot go offline (no
 * cpuN/online: CPU 0 on x86), and where no measured CPU has a sibling
 * online (a machine without SMT, as a VM of one thread a core).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "axis_ops.h"
#include "config.h"
#include "cpulist.h"
#include "files.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* cpu's online siblings, itself left out: 0, or -1 (no topology in sysfs). */
static int siblings(int cpu, cpu_set_t *sib)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s" CPU_DIR "/cpu%d/topology/thread_siblings_list",
		 axis_root, cpu);
	if (cpulist_read_file(path, sib) != 0)
		return -1;
	CPU_CLR(cpu, sib);
	return 0;
}

static void online_path(int cpu, char *path, size_t len)
{
	snprintf(path, len, "%s" CPU_DIR "/cpu%d/online", axis_root, cpu);
}

/* The siblings of the measured cpus to take offline, into off: 0, or -1 with why. */
static int to_offline(const struct config *cfg, const cpu_set_t *cpus, cpu_set_t *off,
		      char *why, size_t len)
{
	char path[PATH_MAX], list[256];

	CPU_ZERO(off);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t sib;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		if (siblings(cpu, &sib) != 0)
			return snprintf(why, len, "CPU %d: no topology/thread_siblings_list in sysfs", cpu), -1;
		for (int s = 0; s < CPU_SETSIZE; s++) {
			if (!CPU_ISSET(s, &sib))
				continue;
			if (CPU_ISSET(s, cpus))
				return snprintf(why, len, "CPUs %d and %d are siblings, and the cell's threads may run on both: pin one thread a core (affinity) to take the other offline",
						cpu, s), -1;
			if (CPU_ISSET(s, &cfg->housekeeping))
				return snprintf(why, len, "CPU %d, a sibling of measured CPU %d, is one of [campaign] housekeeping's",
						s, cpu), -1;
			online_path(s, path, sizeof(path));
			if (access(path, W_OK) != 0)
				return snprintf(why, len, "CPU %d, a sibling of measured CPU %d, cannot be taken offline (%s: %s)",
						s, cpu, path + strlen(axis_root), strerror(errno)), -1;
			CPU_SET(s, off);
		}
	}
	if (CPU_COUNT(off) == 0) {
		cpulist_format(cpus, list, sizeof(list));
		return snprintf(why, len, "no measured CPU (%s) has an SMT sibling online on this machine: nothing to take offline",
				list), -1;
	}
	return 0;
}

static int check(const struct config *cfg, const struct cell *c, int64_t v,
		 const cpu_set_t *cpus, char *why, size_t len)
{
	cpu_set_t off;

	(void)c;
	(void)v;	/* off: smt = on is as_is, never checked */
	return cpus ? to_offline(cfg, cpus, &off, why, len) : 0;	/* a guest asks its own */
}

static int begin(const struct config *cfg, const struct cell *c, int64_t v,
		 const cpu_set_t *cpus, struct undo *u, char *done, size_t dlen, char *why,
		 size_t len)
{
	char path[PATH_MAX], list[256];
	cpu_set_t off;
	int rc;

	(void)c;
	(void)v;
	if (to_offline(cfg, cpus, &off, why, len) != 0)
		return -1;
	for (int s = 0; s < CPU_SETSIZE; s++) {
		if (!CPU_ISSET(s, &off))
			continue;
		online_path(s, path, sizeof(path));
		if ((rc = undo_set(u, path, "0", NULL)) != 0) {
			snprintf(why, len, "%s = 0: %s", path + strlen(axis_root), strerror(-rc));
			return -1;
		}
	}
	cpulist_format(&off, list, sizeof(list));
	snprintf(done, dlen, "CPU%s %s offline (the measured CPUs' siblings)",
		 CPU_COUNT(&off) > 1 ? "s" : "", list);
	return 0;
}

const struct axis_ops smt_axis_ops = {
	.check = check,
	.begin = begin,
	.phase = AXIS_BEFORE_ISOLATION,
	.as_is = SMT_ON,
	.done_key = "smt_done",
};
