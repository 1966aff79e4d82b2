/*
 * The watch workload's options (workloads/watch.c), which the cell that
 * runs it (harness/measure/cell_watch.c) reads.
 */
#ifndef LATLAB_WATCH_OPTS_H
#define LATLAB_WATCH_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define WATCH_OPTS_MAX_TIDS 64

struct watch_opts {
	char command[OPT_STR_MAX];	/* started by latlab; "" none */
	int64_t pid;			/* a running program; 0 none */
	char comm[OPT_STR_MAX];		/* a running program by name; "" none */
	char tid[OPT_STR_MAX];		/* a comma list of thread ids; "" all */
	int64_t settle;			/* ns after command starts */
	int method;			/* enum watch_method (trace/watch.h): auto, bpf, hist */
};

/* "12,13": the ids into tids[0..max); their count, or -EINVAL, -E2BIG. */
int watch_tids_parse(const char *list, int *tids, int max);

/* The one process called comm: its pid, or -errno with why (none, several). */
int watch_find_comm(const char *comm, char *err, size_t len);

/*
 * The program named, checked: a command that splits and runs (a path, or
 * on PATH), a pid that is a process, a comm one process has. 0, or
 * -errno with *key (the option) and why ("command = CMD: PROG: not found
 * on PATH", "pid N: no such process", "no process is called 'x' ...").
 * The workload's preflight, after the kernel's; latlab watch's, before.
 */
int watch_program_check(const struct watch_opts *o, const char **key, char *err, size_t len);

extern const struct workload_ops workload_watch;

#endif
