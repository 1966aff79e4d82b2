/*
 * watch: not latlab's thread but a program's — one started by `command`,
 * or one already running (`pid`, or `comm`) — its threads' latencies kept
 * by the kernel (harness/trace/watch.h; harness/measure/cell_watch.c runs
 * the cell). This file holds its options, their checks, and what the
 * machine must have (plan and run ask before any cell): the program when
 * it is named by pid or comm (and, asked by campaign/where.c, BPF or
 * histogram triggers).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "files.h"
#include "workload.h"
#include "watch_opts.h"

static const struct opt watch_options[] = {
	{ .key = "command", .type = OPT_STRING, .offset = offsetof(struct watch_opts, command),
	  .def = "", .help = "the program latlab starts for each cell and watches, as an argv (no shell); stopped at the cell's end" },
	{ .key = "pid", .type = OPT_INT, .offset = offsetof(struct watch_opts, pid),
	  .min = 0, .max = 4194304, .def = "0", .help = "a running program to watch, by its process id" },
	{ .key = "comm", .type = OPT_STRING, .offset = offsetof(struct watch_opts, comm),
	  .def = "", .help = "a running program to watch, by its name (/proc/PID/comm); exactly one process may have it" },
	{ .key = "tid", .type = OPT_STRING, .offset = offsetof(struct watch_opts, tid),
	  .def = "", .help = "the thread ids to watch, a comma list (default: every thread of the program, up to 64)" },
	{ .key = "settle", .type = OPT_DURATION, .offset = offsetof(struct watch_opts, settle),
	  .min = 0, .max = 60000000000LL, .def = "500ms",
	  .help = "after `command` starts, the wait before its threads are listed and watched" },
	{ .key = "method", .type = OPT_ENUM, .offset = offsetof(struct watch_opts, method),
	  .def = "auto", .choices = "auto|bpf|hist", .flags = OPT_ECHO_SET,
	  .help = "how the kernel keeps the histograms: bpf (BPF programs: latlab built with BPF, the kernel's BTF, CAP_BPF and CAP_PERFMON), hist (histogram triggers: CONFIG_HIST_TRIGGERS), or auto (bpf where it can, else hist); plan says which, cell.ini records it" },
	{ 0 },
};

int watch_tids_parse(const char *list, int *tids, int max)
{
	int n = 0;
	const char *p = list;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v <= 0 || v > 4194304 || (*end && *end != ',') ||
		    (*end == ',' && !end[1]))
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		tids[n++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return n;
}

static int watch_check(const void *opts, char *err, size_t len)
{
	const struct watch_opts *o = opts;
	int how = !!o->command[0] + (o->pid > 0) + !!o->comm[0];
	int tids[WATCH_OPTS_MAX_TIDS];

	if (how != 1)
		return snprintf(err, len, "type = watch needs exactly one of command, pid and comm (%s)",
				how ? "more than one given" : "none given"), -EINVAL;
	if (o->command[0]) {
		char **argv;
		int argc, rc = argv_split(o->command, &argv, &argc);

		if (rc)
			return snprintf(err, len, "command: %s",
					rc == -EINVAL ? "an unclosed quote, a trailing backslash, or no word" : strerror(-rc)), rc;
		free(argv);
	}
	if (o->tid[0]) {
		int n = watch_tids_parse(o->tid, tids, WATCH_OPTS_MAX_TIDS);

		if (n < 0)
			return snprintf(err, len, "tid: '%s' is not a comma list of thread ids (at most %d)",
					o->tid, WATCH_OPTS_MAX_TIDS), -EINVAL;
	}
	return 0;
}

int watch_find_comm(const char *comm, char *err, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0, pid = 0;
	char others[128] = "";

	if (!d)
		return snprintf(err, len, "/proc: %s", strerror(errno)), -errno;
	while ((e = readdir(d))) {
		char path[64], name[64];
		char *end;
		long p = strtol(e->d_name, &end, 10);

		if (*end || p <= 0 || p == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", p);
		if (file_first_line(path, name, sizeof(name)) != 0 || strcmp(name, comm) != 0)
			continue;
		if (found++)
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%ld",
				 found > 2 ? ", " : "", p);
		else
			pid = (int)p;
	}
	closedir(d);
	if (!found)
		return snprintf(err, len, "no process is called '%s' (/proc/PID/comm)", comm), -ESRCH;
	if (found > 1)
		return snprintf(err, len, "%d processes are called '%s' (%d, %s): name one with pid",
				found, comm, pid, others), -EEXIST;
	return pid;
}

int watch_program_check(const struct watch_opts *o, const char **key, char *err, size_t len)
{
	if (o->command[0]) {
		*key = "command";
		return argv_runnable(o->command, err, len);
	}
	if (o->pid > 0 && kill((pid_t)o->pid, 0) != 0 && errno == ESRCH) {
		*key = "pid";
		return snprintf(err, len, "pid %lld: no such process", (long long)o->pid), -ESRCH;
	}
	if (o->comm[0]) {
		int rc = watch_find_comm(o->comm, err, len);

		*key = "comm";
		return rc < 0 ? rc : 0;
	}
	return 0;
}

/*
 * What a qemu guest must be given to start `command`: its program, unless
 * every guest has it (latlab, latload) or this machine has no such name on
 * PATH — then the guest's own PATH is asked, where busybox's applets are.
 */
static const char *watch_carries(const void *opts, const char **key)
{
	const struct watch_opts *o = opts;
	char prog[OPT_STR_MAX], path[4096];

	*key = "command";
	if (!o->command[0] || argv_first(o->command, prog, sizeof(prog)) != 0)
		return NULL;
	if (strcmp(prog, "latlab") == 0 || strcmp(prog, "latload") == 0)
		return NULL;
	if (!strchr(prog, '/') && path_lookup(prog, path, sizeof(path)) != 0)
		return NULL;
	return o->command;
}

/*
 * The program, when it is named (what the kernel must have — BPF or
 * histogram triggers, by `method` — is campaign/where.c's to ask, through
 * trace/watch.h).
 */
static int watch_preflight(const void *opts, const char **key, char *err, size_t len)
{
	return watch_program_check(opts, key, err, len);
}

const struct workload_ops workload_watch = {
	.name = "watch",
	.help = "a program's own threads, not latlab's: started by command, or running (pid, comm); the kernel keeps each thread's timer-to-running and waking-to-running latencies in its histograms (docs/own-code.md)",
	.options = watch_options,
	.opts_size = sizeof(struct watch_opts),
	.check = watch_check,
	.preflight = watch_preflight,
	.carries = watch_carries,
	.kind = WORKLOAD_WATCH,
	.metrics = METRIC_BIT(METRIC_WATCH_TIMER) | METRIC_BIT(METRIC_WATCH_SCHED),
	.primary = METRIC_WATCH_TIMER,
};
