/*
 * What the machine was while it measured (sysinfo.ini), and warnings for
 * what distorts results: a cpufreq governor other than performance, RT
 * throttling, a virtual machine, SMT siblings.
 */
#ifndef LATLAB_SYSINFO_H
#define LATLAB_SYSINFO_H

#include <stdio.h>

#define SYSINFO_MAX 96
#define SYSINFO_WARN_MAX 16

struct sysinfo_kv {
	const char *section;	/* static string */
	char key[48];
	char value[512];
};

struct sysinfo {
	int n;
	struct sysinfo_kv kv[SYSINFO_MAX];
	int nwarn;
	char warn[SYSINFO_WARN_MAX][512];
	/*
	 * The kernel stops or slows a real-time thread that keeps a CPU busy
	 * (RT throttling, the fair server): [sched] runs_long says how. Not a
	 * warning of its own — the measured threads sleep every period — but
	 * one where a load runs real-time threads that do not (rt-hog).
	 */
	int runs_long;
};

/*
 * Read the machine's state. `cmdline` is latlab's own command line (may
 * be NULL). Never fails: what cannot be read is written as "unknown".
 */
void sysinfo_collect(struct sysinfo *si, const char *cmdline);

/* Add section.key (section: a static string) and a warning. */
void sysinfo_add(struct sysinfo *si, const char *section, const char *key,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sysinfo_warn(struct sysinfo *si, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The value of section.key, or NULL. */
const char *sysinfo_get(const struct sysinfo *si, const char *section,
			const char *key);


#endif
