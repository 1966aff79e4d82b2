/*
 * A cell of `type = watch`: no thread of latlab's is measured, a
 * program's are — one the cell starts (`command`, in a process group of
 * its own, stopped at the end) or one already running (`pid`, `comm`).
 * Its threads are listed after `settle`, the kernel keeps their
 * histograms (trace/watch.h) while the cell's load runs, for the
 * duration or until the program exits (what was measured is kept, and
 * said) or a signal. Each watched thread is a thread of the cell's
 * files: its watch_timer (a thread that never woke from a timer has none:
 * "scheduling delay only") and watch_sched.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "argv.h"
#include "cell_parts.h"
#include "files.h"
#include "log.h"
#include "units.h"
#include "watch_opts.h"

extern char **environ;

struct target {
	pid_t pid;
	int ours;		/* started by the cell: stopped and reaped by it */
	int exited;		/* it ended while the cell ran */
	int status;		/* its wait status, when ours and exited */
};

/* Start `command` in a process group of its own. 0, or -1 with the cell's reason. */
static int start_command(const struct watch_opts *o, struct cell_result *res, struct target *t)
{
	char **argv;
	int argc, rc = argv_split(o->command, &argv, &argc);
	posix_spawnattr_t attr;

	if (rc) {
		cell_end_with(res, CELL_ERROR, "command: %s", strerror(-rc));
		return -1;
	}
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawnp(&t->pid, argv[0], NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		cell_end_with(res, CELL_ERROR, "command %.100s: %s", argv[0], strerror(rc));
		free(argv);
		return -1;
	}
	t->ours = 1;
	cell_log(res, "watch: started %s (pid %d)", argv[0], (int)t->pid);
	free(argv);
	return 0;
}

/* Has the program ended? (ours: reaped) */
static int target_gone(struct target *t)
{
	if (t->exited)
		return 1;
	if (t->ours)
		t->exited = waitpid(t->pid, &t->status, WNOHANG) == t->pid;
	else
		t->exited = kill(t->pid, 0) != 0 && errno == ESRCH;
	return t->exited;
}

/* Stop what the cell started: SIGTERM to its group, SIGKILL after 1 s. */
static void stop_command(struct target *t)
{
	if (!t->ours || t->exited)
		return;
	kill(-t->pid, SIGTERM);
	for (int i = 0; i < 100 && !target_gone(t); i++)
		usleep(10000);
	if (!t->exited) {
		kill(-t->pid, SIGKILL);
		waitpid(t->pid, &t->status, 0);
		t->exited = 1;
	}
}

/* /proc/PID/task/TID/comm, or "?" */
static void thread_comm(pid_t pid, int tid, char *buf, size_t len)
{
	char path[80];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, tid);
	if (file_first_line(path, buf, len) != 0)
		snprintf(buf, len, "?");
}

/*
 * The program's threads (or those of `tid` that are its) and their names
 * as they start (a program that ends in the cell has none after): their
 * count, or -1 with the cell's reason.
 */
static int list_threads(const struct watch_opts *o, pid_t pid, struct cell_result *res,
			int *tids, char (*comms)[16], int max)
{
	char path[64];
	int n = 0, want[WATCH_OPTS_MAX_TIDS], nwant = 0;
	DIR *d;
	struct dirent *e;

	if (o->tid[0])
		nwant = watch_tids_parse(o->tid, want, WATCH_OPTS_MAX_TIDS);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		cell_end_with(res, CELL_ERROR, "pid %d: %s (it ended before it was watched)",
			      (int)pid, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		int keep = !nwant;

		if (*end || tid <= 0)
			continue;
		for (int i = 0; i < nwant; i++)
			keep |= want[i] == tid;
		if (!keep)
			continue;
		if (n == max) {		/* counted, not watched: said below */
			res->watch_unwatched++;
			continue;
		}
		thread_comm(pid, (int)tid, comms[n], sizeof(comms[n]));
		tids[n++] = (int)tid;
	}
	closedir(d);
	if (res->watch_unwatched) {
		static int said;	/* on the console once; every cell.ini says it */

		cell_log(res, "warning: watch: %d threads more than the %d a watch holds: the first %d watched",
			 res->watch_unwatched, max, max);
		if (!said++)
			log_warn("watch: pid %d has %d threads more than the %d a watch holds: the first %d are watched, the rest not (cell.ini's watch_unwatched)",
				 (int)pid, res->watch_unwatched, max, max);
	}
	if (n < (nwant > 0 ? nwant : 1)) {
		cell_end_with(res, CELL_ERROR, "pid %d has %s", (int)pid,
			      nwant ? "not every thread named by tid" : "no thread");
		return -1;
	}
	return n;
}

/*
 * Until the duration ends, a signal, the load fails or the program ends:
 * the signal, or 0. res->elapsed_ns: the time watched.
 */
static int wait_watched(struct cell_result *res, const struct run_env *env, int64_t duration,
			struct target *t)
{
	int64_t start = clock_ns(CLOCK_MONOTONIC), left;
	int sig = 0, load_said = 0;

	while ((left = start + duration - clock_ns(CLOCK_MONOTONIC)) > 0) {
		if (cell_wait_signal(res, left < CELL_POLL_NS ? left : CELL_POLL_NS, &sig) ||
		    cell_load_failed(res, &load_said))
			break;
		if (target_gone(t))
			break;
		if (env->tick)
			env->tick(env->tick_arg, clock_ns(CLOCK_MONOTONIC) - start, res->series_max);
	}
	res->elapsed_ns = clock_ns(CLOCK_MONOTONIC) - start;
	return sig;
}

/*
 * Each watched thread that woke a worker of the result (its histograms),
 * listed in cell.ini's watch_threads as "THREAD:TID:COMM"; one that did
 * not wake is said and left out. Returns how many woke.
 */
static int fill_threads(struct cell_result *res, struct watch *w, char (*comms)[16])
{
	int n = 0;
	size_t u = 0;

	res->workers = calloc((size_t)w->n, sizeof(*res->workers));
	if (!res->workers)
		return 0;
	for (int i = 0; i < w->n; i++) {
		const struct watch_thread *t = &w->t[i];
		const char *comm = comms[i];

		if (!t->sched.count) {
			cell_log(res, "watch: tid %d (%s) did not wake in the cell (blocked throughout, or it never sleeps: a thread that never sleeps has no wake-up latency); left out",
				 t->tid, comm);
			continue;
		}
		struct worker *wk = &res->workers[n];

		wk->thread = n;
		wk->cpu = -1;
		wk->ktid = t->tid;
		wk->hist[METRIC_WATCH_TIMER] = t->timer;
		wk->hist[METRIC_WATCH_SCHED] = t->sched;
		wk->metrics = METRIC_BIT(METRIC_WATCH_SCHED) |
			      (t->timer.count ? METRIC_BIT(METRIC_WATCH_TIMER) : 0);
		wk->cycles = t->timer.count ? t->timer.count : t->sched.count;
		if (t->unpaired)
			cell_log(res, "warning: watch: tid %d (%s): %llu timer expiries paired with a switch-in before them, left out",
				 t->tid, comm, (unsigned long long)t->unpaired);
		cell_log(res, "thread %d: tid %d (%s): %llu timer expiries, %llu wake-ups%s", n, t->tid, comm,
			 (unsigned long long)t->timer.count, (unsigned long long)t->sched.count,
			 t->timer.count ? "" : ": not woken by a timer of its own, so its scheduling delay only");
		if (u < sizeof(res->watch_threads))
			u += (size_t)snprintf(res->watch_threads + u, sizeof(res->watch_threads) - u,
					      "%s%d:%d:%s", n ? ", " : "", n, t->tid, comm);
		n++;
	}
	res->nthreads = n;
	return n;
}

int cell_watch_fits(const struct config *cfg, const struct cell *c, int local,
		    struct srcloc *at, char *why, size_t len)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	const struct watch_opts *wo = wd->opts;
	char section[CFG_NAME_MAX + 16], ww[512];

	if (!local)	/* the kernel first: BPF or histogram triggers, asked by the guest of its own */
		return 0;
	if (watch_check(wo->method, NULL, ww, sizeof(ww)) == 0)
		return 0;
	snprintf(section, sizeof(section), "workload.%s", wd->name);
	*at = config_key_loc(cfg, section, "method", config_key_loc(cfg, section, "type", wd->loc));
	snprintf(why, len, "[%s] type = watch: %s", section, ww);
	return -EINVAL;
}

int cell_watch_run(const struct config *cfg, const struct cell *c, const struct run_env *env,
		   const char *dir, struct cell_result *res)
{
	const struct watch_opts *o = cfg->workload[c->workload].opts;
	struct target t = { 0 };
	struct watch w = { 0 };
	int tids[WATCH_MAX_THREADS], n, sig = 0;
	char comms[WATCH_MAX_THREADS][16];
	char why[512];

	(void)dir;	/* the kernel's histograms: no trace of latlab's */
	cell_log(res, "cell %s: workload %s (type = watch), load %s", c->id,
		 cfg->workload[c->workload].name, cfg->load[c->load].name);
	res->status = CELL_OK;
	if (o->command[0]) {
		if (start_command(o, res, &t) != 0)
			return 0;
		struct timespec settle = { o->settle / NS_PER_S, o->settle % NS_PER_S };

		nanosleep(&settle, NULL);
	} else {
		t.pid = (pid_t)o->pid;
		if (o->comm[0] && (t.pid = watch_find_comm(o->comm, why, sizeof(why))) < 0) {
			cell_end_with(res, CELL_ERROR, "%.250s", why);
			return 0;
		}
	}
	n = list_threads(o, t.pid, res, tids, comms, WATCH_MAX_THREADS);
	if (n < 0)
		goto out;
	/* the costly part (BPF's programs loaded, the triggers' instance) before the load takes the CPUs */
	if (watch_prepare(&w, o->method, why, sizeof(why)) != 0 ||
	    cell_start_load(cfg, c, res) != 0 ||
	    watch_open(&w, w.method, tids, n, why, sizeof(why)) != 0) {
		if (res->status == CELL_OK) {	/* the load's failure is said already */
			cell_end_with(res, CELL_ERROR, "watch: %.230s", why);
			snprintf(res->watch, sizeof(res->watch), "off: %.240s", why);
		}
		loadset_stop(&res->loads);
		goto out;
	}
	snprintf(res->watch, sizeof(res->watch), "on");
	snprintf(res->watch_method, sizeof(res->watch_method), "%s", watch_method_name(w.method));
	cell_log(res, "watch: pid %d, %d threads, for %lld ms (method %s)", (int)t.pid, n,
		 (long long)(cfg->campaign.duration / NS_PER_MS), res->watch_method);
	sig = wait_watched(res, env, cfg->campaign.duration, &t);
	if (watch_close(&w, why, sizeof(why)) != 0)
		cell_log(res, "warning: watch: %s", why);
	loadset_stop(&res->loads);
	res->watch_dropped = w.dropped;
	if (t.exited)
		cell_log(res, "warning: watch: pid %d ended %.1f s into the cell; what was measured until then is kept",
			 (int)t.pid, (double)res->elapsed_ns / 1e9);
	if (fill_threads(res, &w, comms) == 0 && res->status == CELL_OK && !sig) {
		cell_end_with(res, CELL_ERROR, "none of the %d watched threads woke in %.1f s (a thread that never sleeps has no wake-up latency)",
			      n, (double)res->elapsed_ns / 1e9);
	}
	if (sig)
		res->status = CELL_INTERRUPTED;
	else if (res->status == CELL_OK)
		cell_judge_load(cfg, c, res);
out:
	watch_free(&w);
	stop_command(&t);
	return sig;
}
