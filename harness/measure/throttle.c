/*
 * [matrix] throttle: what the kernel keeps back from real-time threads
 * for the cell. default: as the machine has it. off: RT throttling
 * unlimited (/proc/sys/kernel/sched_rt_runtime_us = -1) and, on a kernel
 * with deadline servers (6.12+: debugfs sched/fair_server, and
 * sched/ext_server where sched_ext is built), no runtime for the servers
 * on the measured CPUs — what RT engineers switch first. Each write is
 * journalled before it is made and set back after the cell, after
 * Ctrl-C, and by the next latlab after a SIGKILL (undo.h), as isolation's
 * are. Refused, with the kernel's reason, where a server's runtime cannot
 * be read or set (a kernel in lockdown keeps debugfs from root).
 *
 * With throttling off the kernel no longer stops a real-time thread that
 * never sleeps, so latlab bounds its own: every measured thread sleeps
 * each period; an rt-hog's bursts last at most 100 ms and half its
 * period (loadgen/rt_hog.c refuses more, at every setting); and for the
 * cell latlab and everything it starts (the loads, an external program)
 * run under a soft RLIMIT_RTTIME of THROTTLE_NET_US: a real-time thread
 * that runs that long without blocking is sent SIGXCPU, whose default
 * ends its process.
 *
 * root: "" for this machine, or a directory laid out as it (tests).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axis_ops.h"
#include "cpulist.h"
#include "files.h"
#include "kernel.h"
#include "throttle.h"

#define RT_RUNTIME "/proc/sys/kernel/sched_rt_runtime_us"
#define SCHED_DEBUG "/sys/kernel/debug/sched"
/* the longest a real-time thread may run without blocking while throttling is off */
#define THROTTLE_NET_US 1000000

static const char *const server_names[] = { "fair_server", "ext_server" };

static const struct kernel_servers *server(const struct kernel_facts *f, int i)
{
	return i == 0 ? &f->fair : &f->ext;
}

int throttle_check_at(const char *root, const struct kernel_facts *f, int64_t v, char *why,
		      size_t len)
{
	char path[PATH_MAX];

	if (v != THROTTLE_OFF)
		return 0;
	snprintf(path, sizeof(path), "%s" RT_RUNTIME, root);
	if (access(path, W_OK) != 0) {
		snprintf(why, len, "%s cannot be written: %s", RT_RUNTIME, strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (server(f, i)->state < 0) {
			snprintf(why, len, "the %s's runtime cannot be set: %s%s", server_names[i],
				 server(f, i)->why,
				 strstr(server(f, i)->why, "not permitted") ?
				 " (a kernel in lockdown keeps debugfs even from root: see dmesg)" : "");
			return -1;
		}
	return 0;
}

/*
 * What undo_set would write back, read first for the words ("950000");
 * then the write through the journal.
 */
static int set(struct undo *u, const char *path, const char *value, char *was, size_t wlen,
	       char *why, size_t len)
{
	int rc;

	if ((rc = file_first_line(path, was, wlen)) == 0 && (rc = undo_set(u, path, value, NULL)) == 0)
		return 0;
	if (rc == -EBUSY)
		snprintf(why, len, "%s is held by another latlab (pid %d) for a cell of its own: two runs cannot both set it and set it back",
			 path, undo_holder(u, path));
	else
		snprintf(why, len, "%s: %s", path, strerror(-rc));
	return -1;
}

static struct rlimit rttime_before;
static int rttime_set;

int throttle_begin_at(const char *root, const struct kernel_facts *f, int64_t v,
		      const cpu_set_t *cpus, struct undo *u, char *done, size_t dlen, char *why,
		      size_t len)
{
	char path[PATH_MAX], was[64], list[256];
	size_t used;
	struct rlimit net;

	done[0] = '\0';
	if (v != THROTTLE_OFF)
		return 0;
	snprintf(path, sizeof(path), "%s" RT_RUNTIME, root);
	if (set(u, path, "-1", was, sizeof(was), why, len) != 0)
		return -1;
	used = (size_t)snprintf(done, dlen, "sched_rt_runtime_us -1 (was %s)", was);
	cpulist_format(cpus, list, sizeof(list));
	for (int i = 0; i < 2; i++) {
		struct stat st;

		if (server(f, i)->state == 0)
			continue;	/* the kernel has none */
		snprintf(path, sizeof(path), "%s" SCHED_DEBUG, root);
		if (!root[0] && stat(path, &st) != 0 &&
		    mount("debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  NULL) != 0) {
			snprintf(why, len, "debugfs is not mounted, and latlab cannot mount it at /sys/kernel/debug: %s",
				 strerror(errno));
			return -1;
		}
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (!CPU_ISSET(cpu, cpus))
				continue;
			snprintf(path, sizeof(path), "%s" SCHED_DEBUG "/%s/cpu%d/runtime", root,
				 server_names[i], cpu);
			if (set(u, path, "0", was, sizeof(was), why, len) != 0)
				return -1;
		}
		if (used < dlen)
			used += (size_t)snprintf(done + used, dlen - used,
						 "; %s runtime 0 on CPUs %s (was %s ns)",
						 server_names[i], list, was);
	}
	/*
	 * the soft limit: SIGXCPU, whose default ends the process (a hard
	 * limit lowered could not be raised again without CAP_SYS_RESOURCE,
	 * which root lacks in some containers and VMs)
	 */
	if (getrlimit(RLIMIT_RTTIME, &rttime_before) != 0) {
		snprintf(why, len, "RLIMIT_RTTIME: %s", strerror(errno));
		return -1;
	}
	net = rttime_before;
	if (net.rlim_cur == RLIM_INFINITY || net.rlim_cur > THROTTLE_NET_US)
		net.rlim_cur = net.rlim_max < THROTTLE_NET_US ? net.rlim_max : THROTTLE_NET_US;
	if (setrlimit(RLIMIT_RTTIME, &net) != 0) {
		snprintf(why, len, "RLIMIT_RTTIME: %s", strerror(errno));
		return -1;
	}
	rttime_set = 1;
	if (used < dlen)
		snprintf(done + used, dlen - used,
			 "; a real-time thread that runs %d ms without blocking gets SIGXCPU (RLIMIT_RTTIME)",
			 THROTTLE_NET_US / 1000);
	return 0;
}

void throttle_end(void)
{
	if (rttime_set)
		setrlimit(RLIMIT_RTTIME, &rttime_before);
	rttime_set = 0;
}

/* this kernel's servers, read once (kernel.c mounts debugfs privately to read them) */
static const struct kernel_facts *facts(void)
{
	static struct kernel_facts f;
	static int read;

	if (!read)
		kernel_facts_read("", &f);
	read = 1;
	return &f;
}

static int check(const struct config *cfg, const struct cell *c, int64_t v, const cpu_set_t *cpus,
		 char *why, size_t len)
{
	(void)cfg;
	(void)c;
	return cpus ? throttle_check_at("", facts(), v, why, len) : 0;
}

static int begin(const struct config *cfg, const struct cell *c, int64_t v, const cpu_set_t *cpus,
		 struct undo *u, char *done, size_t dlen, char *why, size_t len)
{
	(void)cfg;
	(void)c;
	return throttle_begin_at("", facts(), v, cpus, u, done, dlen, why, len);
}

static const char *const roots[] = { RT_RUNTIME, SCHED_DEBUG "/", NULL };

const struct axis_ops throttle_axis_ops = {
	.check = check,
	.begin = begin,
	.phase = AXIS_AFTER_ISOLATION,
	.end = throttle_end,
	.as_is = THROTTLE_DEFAULT,
	.roots = roots,
	.done_key = "throttle_done",
};
