/*
 * The loads of one cell, supervised. Each instance is a `latload` process
 * in its own process group, dying with latlab (PR_SET_PDEATHSIG), pinned
 * to its CPUs and niced as [load.NAME] says. All instances report ready
 * on one pipe and start together when the go pipe closes. One that exits
 * early is restarted and counted; at the end SIGTERM, a grace period,
 * SIGKILL, and every child reaped. Each reports its operations on exit.
 */
#ifndef LATLAB_LOAD_H
#define LATLAB_LOAD_H

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct load_def;

struct load_proc {
	pid_t pid;		/* 0 when not running */
	int out;		/* its stdout+stderr, non-blocking; -1 when closed */
	char cpus[64];		/* where it may run, as a CPU list */
	cpu_set_t mask;
	uint64_t ops;		/* summed over its runs */
	double seconds;		/* summed over its runs */
	int restarts;
	char text[1024];	/* what it printed, for the cell's log */
	size_t textlen;
	char last[256];		/* the last line it printed (not its result) */
	/*
	 * the memory its workers count in (latload --counters-fd), this run's:
	 * its count where it was killed before its result line; NULL: none
	 */
	int counters_fd;
	uint64_t *counters;
	int failing;		/* its runs in a row that ended in an error */
};

/* An instance whose runs end in an error this many times in a row fails its load. */
#define LOAD_FAILS_MAX 3

struct loadset {
	const struct load_def *def;
	int n;
	struct load_proc *proc;
	int ready[2], go[2];	/* pipes; -1 when closed */
	int stopping;
	char failed[384];	/* why the load failed while measuring; "" if it did not */
	int exe_fd;		/* latload, opened once, run with fexecve */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};

/* An empty set (nothing to stop or free); before any other call. */
void loadset_init(struct loadset *ls);

/*
 * Start `def`'s instances and wait until every one is ready (or
 * ready_timeout passed), then let them all go. `measured` holds the CPUs
 * of pinned measured threads (for cpus = housekeeping). `log` receives
 * progress lines. 0, or -errno with a reason in err; on error nothing is
 * left running.
 */
int loadset_start(struct loadset *ls, const struct load_def *def,
		  const cpu_set_t *measured,
		  void (*log)(void *arg, const char *line), void *log_arg,
		  char *err, size_t errlen);

/* Restart instances that ended early; call while measuring. */
void loadset_poll(struct loadset *ls);

/*
 * Did the load, stopped, fail to run while it was measured beside: an
 * instance that failed, or one that did no work over it? 1 with why (len:
 * what follows "load NAME: "), or 0.
 */
int loadset_judge(const struct loadset *ls, char *why, size_t len);

/* SIGTERM, grace period, SIGKILL; reap every instance, read its result. */
void loadset_stop(struct loadset *ls);

/* Free what start allocated (after stop). */
void loadset_free(struct loadset *ls);

#endif
