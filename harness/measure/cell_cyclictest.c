/*
 * A cell of `type = cyclictest`: rt-tests' cyclictest measures, not a
 * thread of latlab's. Its command line is the cell's — interval,
 * priority, policy, threads and their CPUs, clock, wake-up, dma_latency,
 * duration (-D, whole seconds: with -l it would end every thread when the
 * first has its loops) and latlab's own CPUs (housekeeping) — every
 * thread at one interval and one priority (-d 0; -h runs them all at the
 * same priority), its histogram in 1 ns bins (-N -h). The cell's load runs as for any cell. Its histogram file is
 * read back into each thread's wake-up, so that everything after (the
 * summary, the report, compare) treats cyclictest's figures as latlab's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell_parts.h"
#include "cyclictest_opts.h"
#include "files.h"
#include "place.h"
#include "units.h"

extern char **environ;

/* How long after its loops' time cyclictest may take to end and write its file. */
#define CT_GRACE_NS (10 * NS_PER_S)

static int add_arg(struct ct_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add_arg(struct ct_args *a, const char *fmt, ...)
{
	va_list ap;

	if (a->n >= CT_ARGS_MAX - 1)
		return -E2BIG;
	va_start(ap, fmt);
	vsnprintf(a->buf[a->n], sizeof(a->buf[a->n]), fmt, ap);
	va_end(ap);
	a->argv[a->n] = a->buf[a->n];
	a->argv[++a->n] = NULL;
	return 0;
}

int cyclictest_args(const struct config *cfg, const struct cell *c, const char *program,
		    const int *cpus, int n, const char *histfile, struct ct_args *a, char *why,
		    size_t len)
{
	const struct cyclictest_opts *o = cfg->workload[c->workload].opts;
	int wakeup = (int)cell_axis_value(cfg, c, TAXIS_WAKEUP);
	int clock = (int)cell_axis_value(cfg, c, TAXIS_CLOCK);
	char list[1024];
	size_t used = 0;

	memset(a, 0, sizeof(*a));
	if (c->policy == POL_DEADLINE)
		return snprintf(why, len, "policy = deadline: cyclictest has none (rt-tests' cyclicdeadline is another program)"), -EINVAL;
	if (wakeup != WAKE_ABS && wakeup != WAKE_REL && wakeup != WAKE_POSIX_TIMER)
		return snprintf(why, len, "wakeup = %s: cyclictest sleeps with clock_nanosleep (abs, rel: -r) or a POSIX timer (-x) only",
				cfg->matrix.wakeup.s[c->wakeup]), -EINVAL;
	if (clock != WCLOCK_MONOTONIC && clock != WCLOCK_REALTIME)
		return snprintf(why, len, "clock = %s: cyclictest has monotonic and realtime (-c) only",
				cfg->matrix.clock.s[c->clock]), -EINVAL;
	if (c->interval % 1000)
		return snprintf(why, len, "interval = %lld ns: cyclictest's is whole microseconds (-i)",
				(long long)c->interval), -EINVAL;
	/* -D, not -l: with loops cyclictest ends every thread when the first ends */
	if (cfg->campaign.duration % NS_PER_S)
		return snprintf(why, len, "duration = %lld ms: cyclictest's is whole seconds (-D)",
				(long long)(cfg->campaign.duration / NS_PER_MS)), -EINVAL;
	add_arg(a, "%s", program);
	add_arg(a, "-q");		/* its summary at the end only */
	add_arg(a, "-m");		/* mlockall, as latlab */
	add_arg(a, "-N");		/* nanoseconds: its histogram's bins too */
	add_arg(a, "-t%d", n);
	add_arg(a, "-i%lld", (long long)(c->interval / 1000));
	add_arg(a, "-D%lld", (long long)(cfg->campaign.duration / NS_PER_S));
	add_arg(a, "--policy=%s", policy_name(c->policy));
	add_arg(a, "-p%lld", c->policy == POL_OTHER ? 0LL : (long long)c->priority);
	if (clock == WCLOCK_REALTIME)
		add_arg(a, "-c1");
	if (wakeup == WAKE_REL)
		add_arg(a, "-r");
	if (wakeup == WAKE_POSIX_TIMER)
		add_arg(a, "-x");
	/* dma_latency: 0 is cyclictest's own default; none leaves it alone */
	if (c->dma_latency < 0)
		add_arg(a, "--default-system");
	else if (c->dma_latency > 0)
		add_arg(a, "--latency=%lld", (long long)c->dma_latency);
	for (int i = 0; i < n && cpus[0] >= 0 && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d", i ? "," : "",
					 cpus[i]);
	if (cpus[0] >= 0)
		add_arg(a, "-a%s", list);	/* thread i on the list's i-th CPU */
	if (CPU_COUNT(&cfg->housekeeping)) {
		cpulist_format(&cfg->housekeeping, list, sizeof(list));
		add_arg(a, "--mainaffinity=%s", list);
	}
	add_arg(a, "-h%lld", (long long)o->histogram);
	if (add_arg(a, "--histfile=%s", histfile) != 0)
		return snprintf(why, len, "cyclictest's command line is too long"), -E2BIG;
	return 0;
}

/* The numbers after "# Key:" of a histogram file's line into v[0..max): how many. */
static int footer_values(const char *line, const char *key, long long *v, int max)
{
	size_t k = strlen(key);
	int n = 0;

	if (strncmp(line, key, k) != 0)
		return -1;
	for (const char *p = line + k; n < max;) {
		char *end;
		long long x = strtoll(p, &end, 10);

		if (end == p)
			break;
		v[n++] = x;
		p = end;
	}
	return n;
}

int cyclictest_read_hist(FILE *fp, int n, int64_t top, uint64_t most, struct hist *h,
			 long long *over, long long *max, char *why, size_t len)
{
	char line[4096];
	long long count[CT_THREADS_MAX];
	uint64_t total[CT_THREADS_MAX] = { 0 };
	int64_t highest[CT_THREADS_MAX];
	int rows = 0, have_max = 0;

	if (n < 1 || n > CT_THREADS_MAX)
		return snprintf(why, len, "%d threads: cyclictest's file holds 1 to %d here", n,
				CT_THREADS_MAX), -EINVAL;
	for (int t = 0; t < n; t++) {
		hist_init(&h[t]);
		over[t] = 0;
		max[t] = -1;
		highest[t] = -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (line[0] == '#') {
			if (footer_values(line, "# Max Latencies:", max, n) == n)
				have_max = 1;
			footer_values(line, "# Histogram Overflows:", over, n);
			continue;
		}
		char *p = line, *end;
		long long bin = strtoll(p, &end, 10);
		int got = 0;

		if (end == p)
			continue;	/* a blank line */
		for (p = end; got < n; got++, p = end) {
			count[got] = strtoll(p, &end, 10);
			if (end == p || count[got] < 0)
				break;
		}
		if (got != n || bin < 0)
			return snprintf(why, len, "line %d of its histogram: not a bin and %d counts", rows + 1,
					n), -EINVAL;
		if (bin >= top)
			return snprintf(why, len, "line %d of its histogram: bin %lld, past its top (histogram = %lld ns)",
					rows + 1, bin, (long long)top), -EINVAL;
		/*
		 * every number bounded before use: a count past the wake-ups the
		 * cell can have is not cyclictest's (added one by one, one of
		 * 2^62 took hours), and a bin's count is added at once
		 */
		for (int t = 0; t < n; t++) {
			if ((uint64_t)count[t] > most - total[t])
				return snprintf(why, len, "thread %d: more wake-ups than a cell of this length can have (%llu at most)",
						t, (unsigned long long)most), -EINVAL;
			total[t] += (uint64_t)count[t];
			if (count[t]) {
				hist_add_bucket(&h[t], bin, bin + 1, (uint64_t)count[t]);
				highest[t] = bin;
			}
		}
		rows++;
	}
	if (!rows || !have_max)
		return snprintf(why, len, "no histogram in it (%d bins%s)", rows,
				have_max ? "" : ", no \"# Max Latencies\" line"), -EINVAL;
	for (int t = 0; t < n; t++) {
		/* the maximum is a latency of its own wake-ups: not below them, not past an hour */
		if (max[t] < 0 || max[t] > CT_LATENCY_MAX || max[t] < highest[t] ||
		    (over[t] > 0 && max[t] < top))
			return snprintf(why, len, "thread %d: its \"# Max Latencies\" %lld ns is not its wake-ups' (highest bin %lld, %lld over the top)",
					t, max[t], (long long)highest[t], over[t]), -EINVAL;
		if (over[t] < 0 || (uint64_t)over[t] > most - total[t])
			return snprintf(why, len, "thread %d: %lld overflows, past what a cell of this length can have",
					t, over[t]), -EINVAL;
		/* beyond the top: one at its exact value (cyclictest's max), the rest at the top */
		if (over[t] > 0) {
			hist_add(&h[t], max[t]);
			if (over[t] > 1)
				hist_add_bucket(&h[t], top, top + 1, (uint64_t)over[t] - 1);
			h[t].max = max[t];
		}
	}
	return 0;
}

/* The most wake-ups a thread of cyclictest can have in a cell: its periods, twice over. */
static uint64_t ct_most(const struct config *cfg, const struct cell *c)
{
	return (uint64_t)(cfg->campaign.duration / (c->interval > 0 ? c->interval : 1)) * 2 + 1000;
}

/* Wait for cyclictest (or the deadline, a signal, the load's failure): the signal or 0. */
static int wait_cyclictest(struct cell_result *res, pid_t pid, int64_t deadline, int *status,
			   int *done)
{
	int sig = 0, load_said = 0;

	*done = 0;
	while (!*done && clock_ns(CLOCK_MONOTONIC) < deadline) {
		if (cell_wait_signal(res, CELL_POLL_NS, &sig) || cell_load_failed(res, &load_said))
			break;
		*done = waitpid(pid, status, WNOHANG) == pid;
	}
	return sig;
}

/* SIGINT to its group (it writes what it has), SIGKILL a second later. */
static void stop_cyclictest(pid_t pid, int *status, int *done)
{
	if (*done)
		return;
	kill(-pid, SIGINT);
	for (int i = 0; i < 100 && !*done; i++) {
		usleep(10000);
		*done = waitpid(pid, status, WNOHANG) == pid;
	}
	if (!*done) {
		kill(-pid, SIGKILL);
		waitpid(pid, status, 0);
		*done = 1;
	}
}

/* cyclictest started in a process group of its own, what it prints into outfile: 0 or an errno. */
static int spawn_cyclictest(const char *program, const struct ct_args *a, const char *outfile,
			    pid_t *pid)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	/* what it prints, into the cell's log after */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawn(pid, program, &fa, &attr, a->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return rc;
}

/*
 * cyclictest's n threads as the cell's (on cpus[]), each histogram h[t]
 * its wake-up, what was over the histogram's top and each maximum said.
 * 0, or -1 with the cell an error.
 */
static int threads_of_cyclictest(const struct config *cfg, const struct cell *c,
				 struct cell_result *res, int n, const int *cpus, const struct hist *h,
				 const long long *over, const long long *max)
{
	const struct cyclictest_opts *o = cfg->workload[c->workload].opts;

	res->workers = calloc((size_t)n, sizeof(*res->workers));
	if (!res->workers) {
		cell_end_with(res, CELL_ERROR, "out of memory");
		return -1;
	}
	for (int t = 0; t < n; t++) {
		struct worker *w = &res->workers[t];

		w->thread = t;
		w->cpu = cpus[t];
		w->last_cpu = cpus[t];
		w->hist[METRIC_WAKEUP] = h[t];
		w->metrics = METRIC_BIT(METRIC_WAKEUP);
		w->cycles = h[t].count;
		cell_log(res, "thread %d: cyclictest's, on %s%d: %llu wake-ups, max %lld ns", t,
			 cpus[t] < 0 ? "any CPU, " : "CPU ", cpus[t], (unsigned long long)h[t].count,
			 max[t]);
		if (over[t])
			cell_log(res, "warning: thread %d: %lld wake-ups over histogram = %lld ns: the latest at its value (%lld ns), the others at the histogram's top",
				 t, over[t], (long long)o->histogram, max[t]);
	}
	res->nthreads = n;
	return 0;
}

int cell_cyclictest_run(const struct config *cfg, const struct cell *c,
			const struct run_env *env, const char *dir, struct cell_result *res)
{
	const struct cyclictest_opts *o = cfg->workload[c->workload].opts;
	int cpus[CPU_SETSIZE];
	struct hist *h = NULL;
	long long over[CT_THREADS_MAX], max[CT_THREADS_MAX];
	char program[PATH_MAX], tmp[] = "/tmp/latlab-cyclictest.XXXXXX";
	char histfile[sizeof(tmp) + 16], outfile[sizeof(tmp) + 16], why[512];
	struct ct_args a;
	cpu_set_t mask;
	pid_t pid;
	int n, rc, sig = 0, status = 0, done = 0;

	(void)env;	/* cyclictest sets its own policy: -p, --policy */
	(void)dir;
	cell_log(res, "cell %s: workload %s (type = cyclictest), load %s", c->id,
		 cfg->workload[c->workload].name, cfg->load[c->load].name);
	res->status = CELL_ERROR;
	n = place_threads(cfg, c, cpus, &mask);
	if (n < 1 || n > CT_THREADS_MAX) {
		snprintf(res->reason, sizeof(res->reason), "cyclictest: %d threads (1 to %d)", n,
			 CT_THREADS_MAX);
		return 0;
	}
	/* its files, read back and removed: a directory of the cell's own */
	if (!mkdtemp(tmp)) {
		snprintf(res->reason, sizeof(res->reason), "cyclictest: %s: %s", tmp, strerror(errno));
		return 0;
	}
	snprintf(histfile, sizeof(histfile), "%s/hist", tmp);
	snprintf(outfile, sizeof(outfile), "%s/out", tmp);
	if (cyclictest_program(o, program, sizeof(program), why, sizeof(why)) != 0 ||
	    cyclictest_args(cfg, c, program, cpus, n, histfile, &a, why, sizeof(why)) != 0) {
		snprintf(res->reason, sizeof(res->reason), "cyclictest: %.230s", why);
		rmdir(tmp);
		return 0;
	}
	res->status = CELL_OK;
	snprintf(res->measured_by, sizeof(res->measured_by), "cyclictest");
	if (cell_start_load(cfg, c, res) != 0) {
		rmdir(tmp);
		return 0;
	}
	int64_t start = clock_ns(CLOCK_MONOTONIC);

	rc = spawn_cyclictest(program, &a, outfile, &pid);
	if (rc) {
		loadset_stop(&res->loads);
		cell_end_with(res, CELL_ERROR, "cyclictest: %.200s: %s", program,
			      strerror(rc));
		unlink(outfile);
		rmdir(tmp);
		return 0;
	}
	for (int i = 0; i < a.n; i++)
		fprintf(res->log, "%s%s", i ? " " : "cyclictest: ", a.argv[i]);
	fprintf(res->log, " (pid %d)\n", (int)pid);
	sig = wait_cyclictest(res, pid, start + cfg->campaign.duration + CT_GRACE_NS, &status, &done);
	if (!done && !sig && res->status == CELL_OK)
		cell_log(res, "warning: cyclictest did not end within its loops' time and %llds: stopped",
			 (long long)(CT_GRACE_NS / NS_PER_S));
	stop_cyclictest(pid, &status, &done);
	res->elapsed_ns = clock_ns(CLOCK_MONOTONIC) - start;
	loadset_stop(&res->loads);
	file_append(res->log, outfile);
	unlink(outfile);
	if (sig) {
		unlink(histfile);
		rmdir(tmp);
		res->status = CELL_INTERRUPTED;
		return sig;
	}
	if (res->status != CELL_OK)
		return 0;
	FILE *fp = fopen(histfile, "re");

	h = calloc((size_t)n, sizeof(*h));
	if (!fp || !h || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    cyclictest_read_hist(fp, n, o->histogram, ct_most(cfg, c), h, over, max, why, sizeof(why)) != 0) {
		res->status = CELL_ERROR;
		if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status)))
			snprintf(res->reason, sizeof(res->reason), "cyclictest %s %d (its output in log.txt)",
				 WIFSIGNALED(status) ? "was killed by signal" : "exited with",
				 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		else
			snprintf(res->reason, sizeof(res->reason), "cyclictest's histogram: %.200s",
				 fp ? why : strerror(errno));
		goto out;
	}
	if (threads_of_cyclictest(cfg, c, res, n, cpus, h, over, max) == 0)
		cell_judge_load(cfg, c, res);
out:
	if (fp)
		fclose(fp);
	free(h);
	unlink(histfile);	/* its figures are the cell's files now */
	rmdir(tmp);
	return 0;
}

int cell_cyclictest_fits(const struct config *cfg, const struct cell *c, int local,
			 struct srcloc *at, char *why, size_t len)
{
	static const int unpinned[1] = { -1 };
	const struct workload_def *wd = &cfg->workload[c->workload];
	struct ct_args *a = malloc(sizeof(*a));
	char cw[400];
	int rc;

	(void)local;	/* what cyclictest takes is the same everywhere */
	if (!a)
		return snprintf(why, len, "out of memory"), -ENOMEM;
	rc = cyclictest_args(cfg, c, "cyclictest", unpinned, 1, "/tmp/h", a, cw, sizeof(cw));
	free(a);
	if (rc) {
		*at = config_key_loc(cfg, "matrix", "workload", wd->loc);
		snprintf(why, len, "workload %s (type = cyclictest): %s", wd->name, cw);
	}
	return rc;
}
