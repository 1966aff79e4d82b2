#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cpulist.h"
#include "csvfile.h"
#include "files.h"
#include "load.h"
#include "load_ops.h"
#include "units.h"

/* longer than latload's own grace for an external program (2 s) */
#define GRACE_NS (5 * NS_PER_S)
/* the descriptors a latload instance gets */
#define READY_FD 3
#define GO_FD 4
#define EXE_FD 5
#define COUNTERS_FD 6

static void sleep_ns(int64_t ns)
{
	struct timespec t = { ns / NS_PER_S, ns % NS_PER_S };

	nanosleep(&t, NULL);
}

static void lslog(struct loadset *ls, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lslog(struct loadset *ls, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (ls->log)
		ls->log(ls->log_arg, line);
}

/* latload beside latlab (make, make install), else on PATH. */
static int open_latload(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int fd;

	if (self_dir(dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s/latload", dir);
		fd = open(path, O_PATH | O_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	if (path_lookup("latload", path, sizeof(path)) != 0)
		return -ENOENT;
	fd = open(path, O_PATH | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

static void counters_free(struct load_proc *p)
{
	if (p->counters)
		munmap(p->counters, LOAD_COUNTERS_BYTES);
	if (p->counters_fd >= 0)
		close(p->counters_fd);
	p->counters = NULL;
	p->counters_fd = -1;
}

/* "--key=value" for every option of the type, defaults included. */
static char **build_argv(const struct load_def *def, int with_sync)
{
	const struct opt *table = def->ops->options;
	int n = 0;

	for (const struct opt *o = table; o && o->key; o++)
		n++;
	char **argv = calloc((size_t)n + 7, sizeof(char *));
	int i = 0;

	if (!argv)
		return NULL;
	argv[i++] = strdup("latload");
	argv[i++] = strdup(def->ops->name);
	for (const struct opt *o = table; o && o->key; o++) {
		char value[OPT_STR_MAX], *arg;

		opt_format(o, def->opts, value, sizeof(value));
		if (asprintf(&arg, "--%s=%s", o->key, value) < 0)
			arg = NULL;
		argv[i++] = arg;
	}
	if (with_sync) {
		argv[i++] = strdup("--ready-fd=3");
		argv[i++] = strdup("--go-fd=4");
	}
	argv[i++] = strdup("--counters-fd=6");
	for (int k = 0; k < i; k++)
		if (!argv[k]) {
			for (int j = 0; j < i; j++)
				free(argv[j]);
			free(argv);
			return NULL;
		}
	return argv;
}

static void free_argv(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_exec(const struct loadset *ls, const struct load_proc *p,
		       int out_w, int with_sync, char **argv, pid_t parent)
{
	sigset_t none;
	int devnull;

	setpgid(0, 0);
	/* SIGTERM, not SIGKILL: latload then ends its own children */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	sched_setaffinity(0, sizeof(p->mask), &p->mask);
	setpriority(PRIO_PROCESS, 0, (int)ls->def->nice);

	/*
	 * Every source goes above the target numbers first, so no dup2 below
	 * overwrites a descriptor still to be moved.
	 */
	int out = fcntl(out_w, F_DUPFD, 10);
	int ready = with_sync ? fcntl(ls->ready[1], F_DUPFD, 10) : -1;
	int go = with_sync ? fcntl(ls->go[0], F_DUPFD, 10) : -1;
	int exe = fcntl(ls->exe_fd, F_DUPFD, 10);
	int counters = fcntl(p->counters_fd, F_DUPFD, 10);

	devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (with_sync) {
		dup2(ready, READY_FD);
		dup2(go, GO_FD);
	}
	dup2(exe, EXE_FD);
	dup2(counters, COUNTERS_FD);
	/* nothing else of latlab's (result files, the DMA latency fd) */
	syscall(SYS_close_range, COUNTERS_FD + 1, ~0U, 0);
	fexecve(EXE_FD, argv, environ);
	static const char msg[] = "latlab: cannot execute latload\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

/*
 * This run's counters: memory latload's workers count in, zero at the
 * start (a restarted instance's earlier runs are in p->ops). 0 or -errno.
 */
static int counters_new(struct load_proc *p)
{
	int rc = 0;

	counters_free(p);
	p->counters_fd = memfd_create("latlab-load-counters", MFD_CLOEXEC);
	if (p->counters_fd < 0 || ftruncate(p->counters_fd, (off_t)LOAD_COUNTERS_BYTES) != 0)
		rc = -errno;
	if (rc == 0) {
		p->counters = mmap(NULL, LOAD_COUNTERS_BYTES, PROT_READ, MAP_SHARED,
				   p->counters_fd, 0);
		if (p->counters == MAP_FAILED) {
			rc = -errno;
			p->counters = NULL;
		}
	}
	if (rc)
		counters_free(p);
	return rc;
}

static int spawn(struct loadset *ls, struct load_proc *p, int with_sync)
{
	char **argv = build_argv(ls->def, with_sync);
	pid_t parent = getpid();
	int out[2], rc;
	pid_t pid;

	if (!argv)
		return -ENOMEM;
	if ((rc = counters_new(p)) != 0) {
		free_argv(argv);
		return rc;
	}
	if (pipe2(out, O_CLOEXEC)) {
		free_argv(argv);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(out[0]);
		close(out[1]);
		free_argv(argv);
		return rc;
	}
	if (pid == 0)
		child_exec(ls, p, out[1], with_sync, argv, parent);
	setpgid(pid, pid);	/* also here: killpg works at once */
	close(out[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	p->pid = pid;
	p->out = out[0];
	free_argv(argv);
	return 0;
}

/* What a run's workers counted, in the memory it shares with latlab. */
static uint64_t counters_sum(const struct load_proc *p)
{
	uint64_t sum = 0;

	for (size_t i = 0; p->counters && i < LOAD_MAX_SLOTS; i++)
		sum += __atomic_load_n(&p->counters[i * LOAD_SLOT_STRIDE], __ATOMIC_RELAXED);
	return sum;
}

static void drain_output(struct load_proc *p)
{
	char buf[512];
	ssize_t n;

	while (p->out >= 0 && (n = read(p->out, buf, sizeof(buf))) > 0) {
		size_t room = sizeof(p->text) - 1 - p->textlen;
		size_t take = (size_t)n < room ? (size_t)n : room;

		memcpy(p->text + p->textlen, buf, take);
		p->textlen += take;
		p->text[p->textlen] = '\0';
	}
}

/*
 * Read the "latload-result ..." line of a run that ended; log the rest.
 * 1 when the run ended in an error (an exit status, a signal not ours).
 */
static int collect(struct loadset *ls, struct load_proc *p, int status)
{
	drain_output(p);
	if (p->out >= 0)
		close(p->out);
	p->out = -1;
	p->pid = 0;
	int said = 0;

	for (char *line = p->text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		unsigned long long ops;
		double secs;

		if (sscanf(line, "latload-result type=%*s ops=%llu seconds=%lf",
			   &ops, &secs) == 2) {
			p->ops += ops;
			p->seconds += secs;
			said = 1;
		} else if (*line) {
			lslog(ls, "load %s[%d]: %s", ls->def->name,
			      (int)(p - ls->proc), line);
			snprintf(p->last, sizeof(p->last), "%.255s", line);
		}
	}
	p->textlen = 0;
	p->text[0] = '\0';
	/*
	 * Killed before its result line (in a write or a sync it could not
	 * leave: on the instruction clock a guest's grace passes while it
	 * waits for the host's disk): what its workers counted stands
	 */
	if (!said && counters_sum(p)) {
		p->ops += counters_sum(p);
		lslog(ls, "load %s[%d] ended before it said its count: %llu ops from its counters",
		      ls->def->name, (int)(p - ls->proc), (unsigned long long)counters_sum(p));
	}
	counters_free(p);
	if (WIFSIGNALED(status))
		lslog(ls, "load %s[%d] ended by signal %d", ls->def->name,
		      (int)(p - ls->proc), WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		lslog(ls, "load %s[%d] exited with status %d", ls->def->name,
		      (int)(p - ls->proc), WEXITSTATUS(status));
	return !ls->stopping && (WIFSIGNALED(status) ||
				 (WIFEXITED(status) && WEXITSTATUS(status) != 0));
}

/* Where the instances run: one each per CPU, or all on the set. */
static int place(struct loadset *ls, const cpu_set_t *measured, char *err,
		 size_t errlen)
{
	const struct load_def *def = ls->def;
	cpu_set_t set;
	int64_t n;

	cpulist_usable(&set);	/* those latlab may run on (a container's cpuset) */
	switch (def->place.kind) {
	case AFF_HOUSEKEEPING:
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, measured))
				CPU_CLR(c, &set);
		if (CPU_COUNT(&set) == 0) {
			snprintf(err, errlen,
				 "cpus = housekeeping, but every CPU has a measured thread");
			return -ENODEV;
		}
		break;
	case AFF_NODE: {	/* node:N, on this machine */
		cpu_set_t online = set;

		if (cpulist_node(NULL, def->place.node, &set) != 0) {
			snprintf(err, errlen, "cpus = %s: this machine has no such NUMA node",
				 def->cpus);
			return -ENODEV;
		}
		CPU_AND(&set, &set, &online);
		if (CPU_COUNT(&set) == 0) {
			snprintf(err, errlen, "cpus = %s: none of the node's CPUs is online", def->cpus);
			return -ENODEV;
		}
		break;
	}
	case AFF_LIST:
		CPU_AND(&set, &def->place.cpus, &set);
		break;
	default:	/* all */
		break;
	}
	n = def->ninstances ? def->ninstances : CPU_COUNT(&set);	/* 0: per-cpu */
	ls->proc = calloc((size_t)n, sizeof(*ls->proc));
	if (!ls->proc)
		return -ENOMEM;
	ls->n = (int)n;
	for (int i = 0; i < ls->n; i++) {
		struct load_proc *p = &ls->proc[i];

		p->out = -1;
		p->counters_fd = -1;
		if (!def->ninstances) {	/* per-cpu */
			CPU_ZERO(&p->mask);
			CPU_SET(cpulist_nth(&set, i), &p->mask);
		} else {
			p->mask = set;
		}
		cpulist_format(&p->mask, p->cpus, sizeof(p->cpus));
	}
	return 0;
}

static void close_pair(int fd[2])
{
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0) {
			close(fd[i]);
			fd[i] = -1;
		}
}

/* Wait until `want` ready bytes came, or the timeout, or one died. */
static int wait_ready(struct loadset *ls, int want, char *err, size_t errlen)
{
	int64_t end = mono_ns() + ls->def->ready_timeout;
	int got = 0;

	while (got < want) {
		int64_t left = end - mono_ns();
		struct pollfd pfd = { ls->ready[0], POLLIN, 0 };

		if (left <= 0) {
			snprintf(err, errlen,
				 "%d of %d instances not ready after %lld ms (ready_timeout)",
				 want - got, want,
				 (long long)(ls->def->ready_timeout / NS_PER_MS));
			return -ETIMEDOUT;
		}
		int r = poll(&pfd, 1, (int)(left / NS_PER_MS < 100 ? left / NS_PER_MS + 1 : 100));
		if (r > 0) {
			char buf[64];
			ssize_t n = read(ls->ready[0], buf, sizeof(buf));

			if (n > 0)
				got += (int)n;
		}
		for (int i = 0; i < ls->n; i++) {
			struct load_proc *p = &ls->proc[i];
			int st;

			if (p->pid && waitpid(p->pid, &st, WNOHANG) == p->pid) {
				collect(ls, p, st);
				snprintf(err, errlen, "instance %d ended before it was ready: %s", i,
					 p->last[0] ? p->last : "it said nothing (see log.txt)");
				return -ECHILD;
			}
		}
	}
	return 0;
}

int loadset_judge(const struct loadset *ls, char *why, size_t len)
{
	if (ls->failed[0]) {
		snprintf(why, len, "%.180s", ls->failed);
		return 1;
	}
	for (int i = 0; i < ls->n; i++)
		if (ls->proc[i].ops == 0) {
			snprintf(why, len, "instance %d did no work over the cell (ops = 0)%s%.120s", i,
				 ls->proc[i].last[0] ? ": " : "", ls->proc[i].last);
			return 1;
		}
	return 0;
}

void loadset_init(struct loadset *ls)
{
	memset(ls, 0, sizeof(*ls));
	ls->ready[0] = ls->ready[1] = ls->go[0] = ls->go[1] = -1;
	ls->exe_fd = -1;
}

int loadset_start(struct loadset *ls, const struct load_def *def,
		  const cpu_set_t *measured,
		  void (*log)(void *arg, const char *line), void *log_arg,
		  char *err, size_t errlen)
{
	int rc;

	loadset_init(ls);
	ls->def = def;
	ls->log = log;
	ls->log_arg = log_arg;
	if (!def->ops)
		return 0;	/* none */
	rc = place(ls, measured, err, errlen);
	if (rc)
		return rc;
	ls->exe_fd = open_latload();
	if (ls->exe_fd < 0) {
		snprintf(err, errlen, "latload not found beside latlab or on PATH");
		return ls->exe_fd;
	}
	if (pipe2(ls->ready, O_CLOEXEC) || pipe2(ls->go, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	for (int i = 0; i < ls->n; i++) {
		rc = spawn(ls, &ls->proc[i], 1);
		if (rc) {
			snprintf(err, errlen, "starting instance %d: %s", i,
				 strerror(-rc));
			loadset_stop(ls);
			return rc;
		}
	}
	close(ls->ready[1]);
	ls->ready[1] = -1;
	rc = wait_ready(ls, ls->n, err, errlen);
	if (rc) {
		loadset_stop(ls);
		return rc;
	}
	close_pair(ls->go);	/* go: every instance's read() returns 0 */
	close_pair(ls->ready);
	lslog(ls, "load %s: %d x latload %s ready and started (cpus %s)",
	      def->name, ls->n, def->ops->name, def->cpus);
	return 0;
}

void loadset_poll(struct loadset *ls)
{
	for (int i = 0; i < ls->n && !ls->stopping; i++) {
		struct load_proc *p = &ls->proc[i];
		int st, rc;

		drain_output(p);
		if (!p->pid || waitpid(p->pid, &st, WNOHANG) != p->pid)
			continue;
		p->failing = collect(ls, p, st) ? p->failing + 1 : 0;
		if (p->failing >= LOAD_FAILS_MAX) {
			/* not a load that ends and starts again: one that cannot run */
			snprintf(ls->failed, sizeof(ls->failed),
				 "instance %d ended in an error %d times in a row: %.255s", i,
				 p->failing, p->last[0] ? p->last : "it said nothing");
			lslog(ls, "load %s[%d] failed: not started again", ls->def->name, i);
			continue;
		}
		/* a load that ends early is started again, and counted */
		rc = spawn(ls, p, 0);
		p->restarts++;
		lslog(ls, "load %s[%d] ended early: restart %d%s%s", ls->def->name,
		      i, p->restarts, rc ? " failed: " : "",
		      rc ? strerror(-rc) : "");
	}
}

void loadset_stop(struct loadset *ls)
{
	int64_t end;
	int alive = 0;

	ls->stopping = 1;
	close_pair(ls->go);	/* anyone still waiting for go: go, then TERM */
	for (int i = 0; i < ls->n; i++)
		if (ls->proc[i].pid) {
			kill(-ls->proc[i].pid, SIGTERM);
			alive++;
		}
	end = mono_ns() + GRACE_NS;
	while (alive > 0) {
		alive = 0;
		for (int i = 0; i < ls->n; i++) {
			struct load_proc *p = &ls->proc[i];
			int st;

			drain_output(p);
			if (!p->pid)
				continue;
			if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
				collect(ls, p, st);
				continue;
			}
			if (mono_ns() >= end) {
				kill(-p->pid, SIGKILL);
				waitpid(p->pid, &st, 0);
				collect(ls, p, st);
				lslog(ls, "load %s[%d] did not stop in %lld s: killed",
				      ls->def->name, i,
				      (long long)(GRACE_NS / NS_PER_S));
				continue;
			}
			alive++;
		}
		if (alive)
			sleep_ns(10 * NS_PER_MS);
	}
	close_pair(ls->ready);
}

void loadset_free(struct loadset *ls)
{
	for (int i = 0; ls->proc && i < ls->n; i++)
		counters_free(&ls->proc[i]);
	if (ls->exe_fd >= 0)
		close(ls->exe_fd);
	free(ls->proc);
	ls->proc = NULL;
	ls->n = 0;
	ls->exe_fd = -1;
}
