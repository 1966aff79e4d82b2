/*
 * external: any program as a load — rt-tests' real hackbench, stress-ng,
 * a kernel build. `command` is split into an argv (common/argv.h: blanks
 * separate words, "double quotes" keep blanks, backslash escapes) and
 * executed directly, never through a shell.
 *
 * latload stays as the program's parent: it puts the program in a process
 * group of its own, becomes the subreaper of everything the program
 * starts, and at the stop (SIGTERM, or its own parent dying) ends the
 * whole group — so a program's children never outlive the load.
 * ops = CPU time in milliseconds used by the program and its children
 * in the runs that did not end in an error: the proof that it ran. The
 * program is started before latload says it is ready (it runs a few
 * milliseconds before go): a program that cannot be executed is named,
 * and the load never reports ready.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "argv.h"
#include "load_ops.h"
#include "log.h"

#define GRACE_MS 2000

struct ext_opts {
	char command[OPT_STR_MAX];
};

static const struct opt ext_options[] = {
	{ .key = "command", .type = OPT_STRING,
	  .offset = offsetof(struct ext_opts, command), .def = "",
	  .help = "program and arguments; \"quotes\" keep blanks, no shell" },
	{ 0 },
};

static int ext_check(const void *p, char *err, size_t len)
{
	const struct ext_opts *o = p;
	char **argv;
	int argc;
	int rc = argv_split(o->command, &argv, &argc);

	if (rc) {
		snprintf(err, len, o->command[0]
			 ? "command: unclosed quote or trailing backslash"
			 : "command is empty: an external load needs a program");
		return -EINVAL;
	}
	free(argv);
	return 0;
}

/* The program is there and may be run: on PATH, or the path given. */
static int ext_preflight(const void *p, const char **key, char *err, size_t len)
{
	const struct ext_opts *o = p;

	*key = "command";
	return argv_runnable(o->command, err, len);
}

static int64_t cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000LL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

/* fork + exec; returns the pid, or -errno (exec failures included). */
static pid_t start(char **argv)
{
	pid_t parent = getpid();
	int err_pipe[2], child_errno = 0;
	pid_t pid;

	if (pipe2(err_pipe, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int rc = -errno;

		close(err_pipe[0]);
		close(err_pipe[1]);
		return rc;
	}
	if (pid == 0) {
		load_child_init(parent);
		setpgid(0, 0);
		execvp(argv[0], argv);
		child_errno = errno;
		if (write(err_pipe[1], &child_errno, sizeof(child_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides: no race with killpg */
	close(err_pipe[1]);
	/* end-of-file: exec succeeded (the pipe closed on exec) */
	if (read(err_pipe[0], &child_errno, sizeof(child_errno)) ==
	    sizeof(child_errno)) {
		close(err_pipe[0]);
		waitpid(pid, NULL, 0);
		return -child_errno;
	}
	close(err_pipe[0]);
	return pid;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	sigset_t s;

	/* woken early by SIGCHLD, which latload blocks for this */
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigtimedwait(&s, NULL, &t);
}

/* Reap every child (the program and, as subreaper, its orphans). */
static int reap_all(void)
{
	int n = 0;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		n++;
	return n;
}

static int64_t ext_run(struct load_ctx *ctx)
{
	const struct ext_opts *o = ctx->opts;
	char **argv;
	int argc, rc, exited = 0;
	int64_t cpu0 = cpu_ms();
	pid_t pid;

	rc = argv_split(o->command, &argv, &argc);
	if (rc)
		return rc;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* ready only once the program runs: an exec that fails is said before */
	pid = start(argv);
	if (pid < 0)
		log_error("external: cannot run %s: %s", argv[0], strerror((int)-pid));
	free(argv);
	if (pid < 0)
		return LOAD_SAID;
	rc = ctx->ready(ctx);
	if (rc) {
		kill(-pid, SIGKILL);
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
		return rc;
	}
	int st = 0;

	while (!atomic_load(ctx->stop)) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			exited = 1;	/* ended by itself: the harness restarts us */
			break;
		}
		sleep_ms(100);
	}
	/* the whole group: the program and whatever it started */
	if (!exited)
		kill(-pid, SIGTERM);
	for (int waited = 0; waited < GRACE_MS; waited += 50) {
		reap_all();
		if (kill(-pid, 0) != 0 && errno == ESRCH)
			break;
		sleep_ms(50);
	}
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	/*
	 * a program that ended in an error is this load's error, named, and
	 * its CPU time no proof that the load ran: a `false` that took 6 ms
	 * to start on a busy host had counted as work, so a cell whose load
	 * failed at once and was not restarted in time passed
	 */
	if (exited && WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		log_error("external: %s exited with status %d", o->command, WEXITSTATUS(st));
		return LOAD_SAID;
	}
	if (exited && WIFSIGNALED(st)) {
		log_error("external: %s was killed by signal %d", o->command, WTERMSIG(st));
		return LOAD_SAID;
	}
	load_count(ctx, 0, (uint64_t)(cpu_ms() - cpu0));
	return (int64_t)load_total(ctx);
}

const struct load_ops load_external = {
	.name = "external",
	.help = "any program as an argv (no shell): real hackbench, stress-ng, a build (ops = CPU ms of the runs that did not fail)",
	.options = ext_options,
	.opts_size = sizeof(struct ext_opts),
	.check = ext_check,
	.preflight = ext_preflight,
	.run = ext_run,
};
