/*
 * What kernel is running: its preemption model (struct kernel_info,
 * match.h) and how it stops a real-time thread that runs long (RT
 * throttling, the fair and ext deadline servers), read from the files a
 * kernel of each generation has (docs/campaigns.md, "Kernels and their
 * preemption models").
 */
#ifndef LATLAB_KERNEL_H
#define LATLAB_KERNEL_H

#include <stdint.h>

#include "match.h"

/* A run of CPUs whose deadline server has one runtime and period. */
struct kernel_server {
	int first, last;		/* CPUs */
	int64_t runtime_ns, period_ns;
};

#define KERNEL_SERVER_RUNS 16

/* A deadline server's settings (debugfs sched/fair_server, sched/ext_server). */
struct kernel_servers {
	/* 1 read; 0 the kernel has none; -1 not readable (why says why) */
	int state;
	int n;				/* runs of CPUs, at most KERNEL_SERVER_RUNS */
	int more;			/* CPUs past the last run that differ again */
	struct kernel_server run[KERNEL_SERVER_RUNS];
	char why[160];			/* state -1: why */
};

/* What the kernel's files say, each "" (or -1) where it had none. */
struct kernel_facts {
	char release[128];		/* /proc/sys/kernel/osrelease: uname -r */
	char version[256];		/* /proc/sys/kernel/version: uname -v */
	char realtime[8];		/* /sys/kernel/realtime */
	char cmdline[2048];		/* /proc/cmdline */
	char cmdline_preempt[24];	/* preempt= on /proc/cmdline */
	char preempt[128];		/* debugfs sched/preempt: "none voluntary (full) lazy" */
	char debugfs_why[160];		/* why sched/preempt was not read */
	/* the kernel's config: where from, and what it says */
	char config_from[160];
	int config_rt, config_dynamic;	/* CONFIG_PREEMPT_RT, _DYNAMIC: 1, 0, -1 no config */
	char config_model[16];		/* the Preemption Model choice: none ... lazy, laziest */
	int64_t rt_runtime_us, rt_period_us;	/* sched_rt_*; INT64_MIN unknown */
	struct kernel_servers fair, ext;
};

/*
 * Read the facts of the kernel whose /proc, /sys and /boot are under
 * root ("" for this machine's; a directory of captured files for the
 * tests). On this machine debugfs, when it is not mounted, is mounted in
 * a mount namespace of one thread's own and gone with it: the machine is
 * left as found. Never fails: what cannot be read stays "" or unknown.
 */
void kernel_facts_read(const char *root, struct kernel_facts *f);

/*
 * The model the facts say (pure): rt+full, rt+lazy (rt+MODE on a
 * dynamic PREEMPT_RT kernel), rt (one with no dynamic choice), lazy,
 * full, voluntary, none, or unknown; where it came from in k->source.
 */
void kernel_model(const struct kernel_facts *f, struct kernel_info *k);

/*
 * What the kernel does to a real-time thread that keeps a CPU busy, in
 * words (pure): RT throttling, the fair server, both, or neither. 1 when
 * it can stop a measured thread (a warning), else 0.
 */
int kernel_throttle_words(const struct kernel_facts *f, char *buf, size_t len);

/*
 * A deadline server as sysinfo.ini keeps it: "0-1: runtime 50000000 ns,
 * period 1000000000 ns", "none", or "unknown (why)".
 */
void kernel_servers_text(const struct kernel_servers *s, char *buf, size_t len);

/*
 * kernel_model — or, as a testing aid, the kernel $LATLAB_FAKE_KERNEL_RELEASE
 * (and $LATLAB_FAKE_KERNEL_PREEMPT) name when set.
 */
void kernel_info_of(const struct kernel_facts *f, struct kernel_info *k);

/*
 * A kernel installed as release under root ("" for this machine), as it
 * would be when booted with cmdline: its model from its config alone
 * (/boot/config-RELEASE or /usr/lib/modules/RELEASE/config). 0, or
 * -ENOENT when it has no config (k's model then unknown).
 */
int kernel_info_installed(const char *root, const char *release, const char *cmdline,
			  struct kernel_info *k);

/* kernel_facts_read("") and kernel_info_of. */
void kernel_info_read(struct kernel_info *k);

#endif
