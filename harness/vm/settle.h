/*
 * A guest's boot kept out of the figures. The kernel goes on working
 * after /init starts: Debian 6.12's crypto self-tests ran 459 slices of
 * over 50 µs in cryptomgr_test threads between 2.0 and 2.4 s of guest
 * time, and the first run of a boot was 151 µs late where later runs
 * were 6 (issue 57). So the latlab inside a guest measures nothing until
 * its CPUs have been idle for a while: from /proc/stat, every window of
 * SETTLE_WINDOW_NS busy at most SETTLE_BUSY_PCT of the time, for
 * SETTLE_QUIET_NS in a row — or SETTLE_LIMIT_NS have passed, and it says
 * so. What it waited is said in the log and in sysinfo.ini's [vm].
 */
#ifndef LATLAB_SETTLE_H
#define LATLAB_SETTLE_H

#include <stdint.h>

#define SETTLE_WINDOW_NS 250000000LL	/* one look: 25 of USER_HZ's ticks */
#define SETTLE_BUSY_PCT 4.0		/* busy at most this of a window: one tick */
#define SETTLE_QUIET_NS 1000000000LL	/* so many quiet windows in a row */
#define SETTLE_LIMIT_NS 60000000000LL	/* measure anyway after this, and say so */

/* The CPUs' time from a /proc/stat "cpu" line: busy and all, in ticks. */
struct cpu_ticks {
	unsigned long long busy, all;
};

/* The first line of /proc/stat's text (all CPUs) into t. 0, or -EINVAL. */
int settle_parse_stat(const char *text, struct cpu_ticks *t);

struct settle {
	int settled;		/* 1: quiet for SETTLE_QUIET_NS; 0: the limit came first */
	double waited_s;	/* from the call to the end of the quiet (or the limit) */
	double busy_pct;	/* the CPUs' busy share over the wait before the quiet */
};

/*
 * Wait, windows of `window_ns`, until `quiet_ns` in a row had each at
 * most SETTLE_BUSY_PCT busy, or `limit_ns` passed. 0, or -errno when
 * /proc/stat cannot be read (nothing waited).
 */
int settle_wait(int64_t window_ns, int64_t quiet_ns, int64_t limit_ns, struct settle *out);

#endif
