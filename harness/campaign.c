#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <sys/file.h>
#include <sys/statvfs.h>

#include "argv.h"
#include "campaign.h"
#include "cell.h"
#include "cpulist.h"
#include "files.h"
#include "guest.h"
#include "html.h"
#include "prior.h"
#include "exitcodes.h"
#include "kernel.h"
#include "log.h"
#include "results.h"
#include "sysinfo.h"
#include "units.h"
#include "vm.h"
#include "worker.h"

/* Setup, start delay and file writing around each cell's measurement. */
#define CELL_OVERHEAD_NS (300 * NS_PER_MS)

#define CELLS_COLUMNS "campaign,cell,index,host,kernel_release,kernel,load," \
	"workload,threads,affinity,interval_ns,priority,size,repeat,policy," \
	"status,reason,"

/* What the end-of-run table shows of a cell: all threads merged. */
struct cell_brief {
	int measured;
	uint64_t samples, overruns, errors;
	int64_t wakeup[5];	/* min p50 p99 p99.99 max */
	int64_t response_p99, response_max;
};

struct campaign {
	const struct config *cfg;
	const struct run_opts *ro;
	struct cell *cells;
	int ncells;
	char **rows;		/* cells.csv text per cell */
	char **reason;		/* per cell, for junit.xml */
	enum cell_status *status;
	struct cell_brief *brief;
	char dir[PATH_MAX];	/* OUTPUT/NAME */
	char host[128];
	struct kernel_info kernel;
	struct sysinfo si;
	struct run_env env;
	char reboot_to[64];		/* the variant a reboot is meant to reach */
	int lock_fd;			/* the campaign's flock, or -1 */
	int boot_tries[CFG_DEFS_MAX];	/* per cfg->kernel index */
	int kvm;			/* accel = auto: -1 untried, 0 no, 1 works */
	int guest_v;			/* in a guest: the variant it is */
	char *want;			/* in a guest: per cell, run it here */
};

/* The cells.csv rows of one cell, as text. */
static char *cell_rows_on(const struct campaign *cp, const struct cell *c,
			  enum cell_status st, const struct cell_result *res,
			  const char *host, const char *release)
{
	const struct config *cfg = cp->cfg;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct csvw w = { .fp = fp };
	/* a row per thread x metric when it measured; else one, stats empty */
	int measured = res && res->nthreads && st != CELL_ERROR &&
		       st != CELL_SKIPPED;
	int nrows = measured ? res->nthreads * 3 : 1;
	char threads[16];

	if (!fp)
		return NULL;
	if (c->threads == AXIS_ALL)
		snprintf(threads, sizeof(threads), "all");
	else
		snprintf(threads, sizeof(threads), "%d", c->threads);
	for (int r = 0; r < nrows; r++) {
		csvw_str(&w, cfg->campaign.name);
		csvw_str(&w, c->id);
		csvw_int(&w, c->index);
		csvw_str(&w, st == CELL_PENDING ? "" : host);
		csvw_str(&w, st == CELL_PENDING ? "" : release);
		csvw_str(&w, cfg->kernel[c->kernel].name);
		csvw_str(&w, cfg->load[c->load].name);
		csvw_str(&w, cfg->workload[c->workload].name);
		csvw_str(&w, threads);
		csvw_str(&w, cfg->matrix.affinity.s[c->affinity]);
		csvw_int(&w, c->interval);
		csvw_int(&w, c->priority);
		csvw_int(&w, c->size);
		csvw_int(&w, c->repeat);
		csvw_str(&w, st == CELL_PENDING ? ""
			 : cp->env.policy == SCHED_FIFO ? "fifo" : "other");
		csvw_str(&w, cell_status_name(st));
		csvw_str(&w, res ? res->reason : "");
		if (measured) {
			cell_summary_fields(&w, &res->workers[r / 3], r % 3);
		} else {
			for (const char *col = SUMMARY_COLUMNS; col; col = strchr(col + 1, ','))
				csvw_str(&w, "");
		}
		csvw_end(&w);
	}
	fclose(fp);
	return text;
}

/* The rows of a cell run on this machine. */
static char *cell_rows(const struct campaign *cp, const struct cell *c,
		       enum cell_status st, const struct cell_result *res)
{
	return cell_rows_on(cp, c, st, res, cp->host, cp->kernel.release);
}

static void fill_cells_csv(FILE *fp, void *arg)
{
	const struct campaign *cp = arg;

	fputs(CELLS_COLUMNS SUMMARY_COLUMNS "\n", fp);
	for (int i = 0; i < cp->ncells; i++)
		if (cp->rows[i])
			fputs(cp->rows[i], fp);
}

static void fill_state(FILE *fp, void *arg)
{
	const struct campaign *cp = arg;

	fprintf(fp, "# latlab campaign state: one line per cell\n");
	fprintf(fp, "config_hash = %016llx\n",
		(unsigned long long)config_hash(cp->cfg));
	fprintf(fp, "cells = %d\n", cp->ncells);
	if (cp->reboot_to[0])
		fprintf(fp, "reboot_to = %s\n", cp->reboot_to);
	for (int v = 0; v < cp->cfg->nkernels; v++)
		if (cp->boot_tries[v])
			fprintf(fp, "boot_tries.%s = %d\n", cp->cfg->kernel[v].name,
				cp->boot_tries[v]);
	for (int i = 0; i < cp->ncells; i++)
		fprintf(fp, "%s = %s\n", cp->cells[i].id,
			cell_status_name(cp->status[i]));
}

static void fill_campaign_ini(FILE *fp, void *arg)
{
	const struct campaign *cp = arg;

	fprintf(fp, "; resolved by latlab: every default filled in\n");
	config_write_ini(fp, cp->cfg);
}

/* junit.xml: one testcase per cell, for Jenkins and GitLab. */
static void fill_junit(FILE *fp, void *arg)
{
	const struct campaign *cp = arg;
	const char *name = cp->cfg->campaign.name;
	int fail = 0, err = 0, skip = 0;
	double secs = (double)cp->cfg->campaign.duration / NS_PER_S;

	for (int i = 0; i < cp->ncells; i++) {
		fail += cp->status[i] == CELL_FAIL;
		err += cp->status[i] == CELL_ERROR || cp->status[i] == CELL_INTERRUPTED;
		skip += cp->status[i] == CELL_SKIPPED || cp->status[i] == CELL_PENDING ||
			cp->status[i] == CELL_RUNNING;
	}
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		"<testsuite name=\"latlab.");
	html_text(fp, name);
	fprintf(fp, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		cp->ncells, fail, err, skip);
	for (int i = 0; i < cp->ncells; i++) {
		enum cell_status st = cp->status[i];
		const char *why = cp->reason[i] ? cp->reason[i] : "";
		int ran = st == CELL_OK || st == CELL_FAIL || st == CELL_INTERRUPTED;

		fputs("  <testcase classname=\"latlab.", fp);
		html_text(fp, name);
		fputs("\" name=\"", fp);
		html_text(fp, cp->cells[i].id);
		fprintf(fp, "\" time=\"%.1f\">", ran ? secs : 0.0);
		if (st == CELL_FAIL || st == CELL_ERROR || st == CELL_INTERRUPTED) {
			fprintf(fp, "<%s type=\"%s\" message=\"",
				st == CELL_FAIL ? "failure" : "error", cell_status_name(st));
			html_text(fp, why[0] ? why : cell_status_name(st));
			fprintf(fp, "\"/>");
		} else if (st != CELL_OK) {
			fputs("<skipped message=\"", fp);
			html_text(fp, st == CELL_SKIPPED ? why : "not run on this kernel yet");
			fputs("\"/>", fp);
		}
		fputs("</testcase>\n", fp);
	}
	fputs("</testsuite>\n</testsuites>\n", fp);
}

/* cells.csv, state and junit.xml, before and after every cell */
static int write_progress(struct campaign *cp)
{
	int rc = afile_write(cp->dir, "cells.csv", fill_cells_csv, cp);

	if (rc == 0)
		rc = afile_write(cp->dir, "state", fill_state, cp);
	return rc ? rc : afile_write(cp->dir, "junit.xml", fill_junit, cp);
}

/* Move an earlier tree aside to NAME.<time>: results are never overwritten. */
static int keep_aside(const char *dir)
{
	char old[PATH_MAX + 32], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(old, sizeof(old), "%s.%s", dir, stamp);
	if (rename(dir, old) != 0)
		return -errno;
	log_info("kept the previous results as %s", old);
	return 0;
}

/*
 * A run killed while writing leaves NAME.tmp.PID files (never a half file
 * under the real name). When resuming, those of a process that is gone
 * are removed.
 */
static void remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *t = strstr(e->d_name, ".tmp.");
		char path[PATH_MAX + 300];
		long pid;

		if (!t || sscanf(t + 5, "%ld", &pid) != 1 || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* that writer may still live */
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/*
 * One latlab per campaign: an flock on OUTPUT/.NAME.lock, taken before
 * the directory is touched (a --restart renames it) and held to the end.
 * Returns the descriptor, or -errno (-EWOULDBLOCK: in use).
 */
static int lock_campaign(const char *output, const char *name, char *holder,
			 size_t len)
{
	char path[PATH_MAX + 128];
	int fd, rc;

	holder[0] = '\0';
	rc = mkdir_p(output);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/.%s.lock", output, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = -errno;
		ssize_t n = pread(fd, holder, len - 1, 0);

		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		close(fd);
		return rc;
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	/* the pid is for a second latlab's message; the lock is what counts */
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		holder[0] = '\0';
	return fd;
}

/*
 * The campaign directory: new, or the same campaign to resume (returns
 * 1 and fills *prior), or -ESTALE when it holds another config's run.
 * With --restart, or when the directory holds no state, an earlier tree
 * is moved aside.
 */
static int prepare_dir(struct campaign *cp, const char *output,
		       struct prior *prior)
{
	struct stat st;
	char err[256];
	int rc;

	if (snprintf(cp->dir, sizeof(cp->dir), "%s/%s", output,
		     cp->cfg->campaign.name) >= (int)sizeof(cp->dir))
		return -ENAMETOOLONG;
	if (stat(cp->dir, &st) == 0) {
		rc = cp->ro->restart ? -ENOENT : prior_read(cp->dir, prior, err, sizeof(err));
		if (rc == 0 && prior->hash != config_hash(cp->cfg)) {
			prior_free(prior);
			return -ESTALE;
		}
		if (rc == 0) {
			remove_stale_temps(cp->dir);
			return 1;
		}
		if (rc != -ENOENT && rc != -EINVAL)
			return rc;
		rc = keep_aside(cp->dir);
		if (rc)
			return rc;
	}
	return mkdir_p(cp->dir);
}

/*
 * Room for one more cell: 1 MiB, 256 KiB a thread (hist.csv and
 * series.csv), and samples.bin when asked for.
 */
static int check_space(const struct campaign *cp, const struct cell *c)
{
	struct statvfs vfs;
	cpu_set_t online;

	cpulist_online(&online);
	double threads = c->threads == AXIS_ALL ? CPU_COUNT(&online) : c->threads;
	double need = 1048576.0 + threads * 262144.0;

	if (cp->cfg->campaign.samples)
		need += 1.2 * (double)cp->cfg->campaign.duration /
			(double)c->interval * threads * 40.0;
	if (statvfs(cp->dir, &vfs) != 0)
		return 0;	/* cannot tell: the writes will say */
	double avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
	if (avail >= need)
		return 0;
	log_error("only %.1f MiB free under %s; a cell needs about %.1f MiB: stopping (what is done is kept)",
		  avail / 1048576, cp->dir, need / 1048576);
	return -ENOSPC;
}

static int signal_pending(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t sigs;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	return sigtimedwait(&sigs, NULL, &zero) > 0;
}

static int max_priority(const struct config *cfg)
{
	int p = 1;

	for (int i = 0; i < cfg->matrix.priority.n; i++)
		if (cfg->matrix.priority.v[i] > p)
			p = (int)cfg->matrix.priority.v[i];
	return p;
}

/* Decide SCHED_FIFO or SCHED_OTHER before anything is written. */
static int choose_policy(struct campaign *cp)
{
	int prio = max_priority(cp->cfg);
	int rc = worker_probe_policy(SCHED_FIFO, prio);

	cp->env.policy = SCHED_FIFO;
	if (rc == 0)
		return 0;
	if (cp->ro->allow_non_rt) {
		log_warn("SCHED_FIFO refused (%s): measuring SCHED_OTHER threads; every result is marked policy = other",
			 strerror(-rc));
		cp->env.policy = SCHED_OTHER;
		return 0;
	}
	log_error("cannot create a SCHED_FIFO thread at priority %d: %s", prio,
		  strerror(-rc));
	log_error("run as root, or give this user real-time rights (ulimit -r %d; rtprio in /etc/security/limits.conf; or CAP_SYS_NICE), or pass --allow-non-rt to measure SCHED_OTHER threads instead",
		  prio);
	return -EPERM;
}

static void lock_memory(struct campaign *cp)
{
#if defined(__SANITIZE_ADDRESS__)
	/* ASan reserves terabytes of shadow; locking it would never end */
	log_warn("sanitizer build: mlockall skipped");
	cp->env.mlocked = 0;
#else
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
		cp->env.mlocked = 1;
		return;
	}
	log_warn("mlockall: %s: page faults may add latency (raise ulimit -l)",
		 strerror(errno));
#endif
}

/* The running cell, for the progress line. */
struct ticker {
	const struct campaign *cp;
	const struct cell *c;
	int i, n;		/* cell i of n to run */
	int tty;
	int64_t last_ns;	/* last line printed (elapsed) */
};

/*
 * On a terminal one line redrawn in place about twice a second; without
 * one, a plain line every minute of a long cell.
 */
static void tick(void *arg, int64_t elapsed, const int64_t max[3])
{
	struct ticker *t = arg;
	int64_t dur = t->cp->cfg->campaign.duration;
	int64_t every = t->tty ? 500 * NS_PER_MS : 60 * NS_PER_S;
	char el[32], total[32], eta[32];

	if (elapsed < 0 || elapsed - t->last_ns < every)
		return;
	t->last_ns = elapsed;
	units_format_elapsed(elapsed, el, sizeof(el));
	units_format_elapsed(dur, total, sizeof(total));
	int64_t left = dur - elapsed + (int64_t)(t->n - t->i) *
		       (dur + CELL_OVERHEAD_NS);
	units_format_elapsed(left > 0 ? left : 0, eta, sizeof(eta));
	fprintf(stderr, "%s[%d/%d] %s  %s of %s, campaign ETA %s  max wakeup %.1f io %.1f response %.1f us%s",
		t->tty ? "\r" : "latlab: ", t->i, t->n, t->c->id, el, total,
		eta, max[0] / 1e3, max[1] / 1e3, max[2] / 1e3,
		t->tty ? "\033[K" : "\n");
	fflush(stderr);
}

static void progress(const struct campaign *cp, const struct cell *c,
		     const struct cell_result *res, int done_n, int run_n)
{
	int64_t worst = 0;
	uint64_t errors = 0;
	int first = 0;
	char errs[96] = "";

	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];

		if (w->hist[METRIC_WAKEUP].max > worst)
			worst = w->hist[METRIC_WAKEUP].max;
		if (w->errors && !errors)
			first = w->first_errno;
		errors += w->errors;
	}
	if (errors)
		snprintf(errs, sizeof(errs), ", %llu I/O errors (%s)",
			 (unsigned long long)errors, strerror(first));
	if (res->status == CELL_OK || res->status == CELL_FAIL ||
	    res->status == CELL_INTERRUPTED)
		log_info("[%d/%d] %s: %s, wakeup max %.1f us%s%s%s", done_n,
			 run_n, c->id, cell_status_name(res->status),
			 worst / 1e3, errs, res->reason[0] ? ": " : "",
			 res->reason);
	else
		log_info("[%d/%d] %s: %s: %s", done_n, run_n, c->id,
			 cell_status_name(res->status), res->reason);
	(void)cp;
}

static void make_brief(struct cell_brief *b, const struct cell_result *res)
{
	struct hist *w = malloc(sizeof(*w)), *r = malloc(sizeof(*r));

	memset(b, 0, sizeof(*b));
	if (!w || !r || res->nthreads == 0)
		goto out;
	hist_init(w);
	hist_init(r);
	for (int i = 0; i < res->nthreads; i++) {
		hist_merge(w, &res->workers[i].hist[METRIC_WAKEUP]);
		hist_merge(r, &res->workers[i].hist[METRIC_RESPONSE]);
		b->overruns += res->workers[i].overruns;
		b->errors += res->workers[i].errors;
	}
	b->measured = 1;
	b->samples = w->count;
	b->wakeup[0] = w->count ? w->min : 0;
	b->wakeup[1] = hist_percentile(w, 50);
	b->wakeup[2] = hist_percentile(w, 99);
	b->wakeup[3] = hist_percentile(w, 99.99);
	b->wakeup[4] = w->count ? w->max : 0;
	b->response_p99 = hist_percentile(r, 99);
	b->response_max = r->count ? r->max : 0;
out:
	free(w);
	free(r);
}

/*
 * Board farms: when LAVA's lava-test-case is on PATH, every cell's max of
 * each metric becomes a LAVA test case, pass or fail with the cell.
 */
static void report_lava(const struct campaign *cp, const struct cell *c,
			const struct cell_result *res)
{
	for (int m = 0; m < 3 && res->nthreads; m++) {
		int64_t max = 0;
		char name[CELL_ID_MAX + 32], value[32];

		for (int i = 0; i < res->nthreads; i++)
			if (res->workers[i].hist[m].max > max)
				max = res->workers[i].hist[m].max;
		snprintf(name, sizeof(name), "%s-%s-max", c->id, metric_name(m));
		snprintf(value, sizeof(value), "%.1f", max / 1e3);
		const char *result = res->status == CELL_OK ? "pass" : "fail";
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, 1);
			execlp("lava-test-case", "lava-test-case", name, "--result",
			       result, "--measurement", value, "--units", "us",
			       (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	(void)cp;
}

static int lava_present(void)
{
	char file[PATH_MAX + 32];

	return path_lookup("lava-test-case", file, sizeof(file)) == 0;
}

/* A cell an earlier run finished: kept when resuming. */
static int done(enum cell_status st)
{
	return st == CELL_OK || st == CELL_FAIL || st == CELL_SKIPPED;
}

/* The cyclictest-style table at the end of a run, in microseconds. */
static void print_table(const struct campaign *cp, FILE *out)
{
	int w = 4;

	for (int i = 0; i < cp->ncells; i++)
		if ((int)strlen(cp->cells[i].id) > w)
			w = (int)strlen(cp->cells[i].id);
	fprintf(out, "\n%-*s %-11s %8s %5s %5s | %-36s | %s\n", w, "", "", "",
		"", "", "           wakeup latency (us)", "response (us)");
	fprintf(out, "%-*s %-11s %8s %5s %5s | %6s %6s %6s %7s %7s | %6s %7s\n",
		w, "cell", "status", "samples", "ovrun", "err", "min", "p50",
		"p99", "p99.99", "max", "p99", "max");
	for (int i = 0; i < cp->ncells; i++) {
		const struct cell_brief *b = &cp->brief[i];

		fprintf(out, "%-*s %-11s", w, cp->cells[i].id,
			cell_status_name(cp->status[i]));
		if (!b->measured) {
			fprintf(out, "%s\n", done(cp->status[i])
				? " (from an earlier run: see cells.csv)" : "");
			continue;
		}
		fprintf(out, " %8llu %5llu %5llu | %6.1f %6.1f %6.1f %7.1f %7.1f | %6.1f %7.1f\n",
			(unsigned long long)b->samples,
			(unsigned long long)b->overruns,
			(unsigned long long)b->errors, b->wakeup[0] / 1e3,
			b->wakeup[1] / 1e3, b->wakeup[2] / 1e3,
			b->wakeup[3] / 1e3, b->wakeup[4] / 1e3,
			b->response_p99 / 1e3, b->response_max / 1e3);
	}
}

/* Run by this latlab now: the running kernel is the cell's variant. */
static int runs_here(const struct campaign *cp, const struct cell *c)
{
	const struct kernel_def *k = &cp->cfg->kernel[c->kernel];

	if (cp->ro->guest)
		return c->kernel == cp->guest_v && cp->want[c - cp->cells];
	return k->runner == RUNNER_HOST && kernel_matches(k->match, &cp->kernel);
}

/* In a guest: a finished cell's files, rows and status, to the host. */
static void guest_report(const struct campaign *cp, int i, const char *dir)
{
	const struct cell_brief *b = &cp->brief[i];

	if (dir && guest_send_dir(dir) != 0 && done(cp->status[i]) &&
	    cp->status[i] != CELL_SKIPPED)
		log_warn("%s: cannot send all of it to the host", dir);
	if (cp->rows[i])
		guest_blob("row", cp->rows[i], strlen(cp->rows[i]));
	if (b->measured)
		guest_line("brief %llu %llu %llu %lld %lld %lld %lld %lld %lld %lld",
			   (unsigned long long)b->samples,
			   (unsigned long long)b->overruns,
			   (unsigned long long)b->errors, (long long)b->wakeup[0],
			   (long long)b->wakeup[1], (long long)b->wakeup[2],
			   (long long)b->wakeup[3], (long long)b->wakeup[4],
			   (long long)b->response_p99, (long long)b->response_max);
	guest_line("cell %s %s %s", cp->cells[i].id,
		   cell_status_name(cp->status[i]),
		   cp->reason[i] ? cp->reason[i] : "");
}

static int run_in_vm(struct campaign *cp, int v);

static int run_cells(struct campaign *cp)
{
	int run_n = 0, done_n = 0, status = EXIT_PASS, rc;
	int lava = lava_present();
	char vm_booted[CFG_DEFS_MAX] = { 0 };

	/* cells kept from an earlier run count in the exit status too */
	for (int i = 0; i < cp->ncells; i++) {
		if (done(cp->status[i])) {
			if (cp->status[i] == CELL_FAIL)
				status = EXIT_THRESHOLD;
			continue;
		}
		run_n += runs_here(cp, &cp->cells[i]);
	}
	for (int i = 0; i < cp->ncells; i++) {
		const struct cell *c = &cp->cells[i];
		struct cell_result res;
		char dir[PATH_MAX + CELL_ID_MAX + 300];

		if (done(cp->status[i]))
			continue;
		if (!cp->ro->guest &&
		    cp->cfg->kernel[c->kernel].runner == RUNNER_QEMU) {
			/* every pending cell of the variant, in its own VM */
			if (vm_booted[c->kernel]++)
				continue;
			rc = run_in_vm(cp, c->kernel);
			if (rc < 0)
				return EXIT_RUNTIME;
			if (rc == EXIT_INTERRUPTED)
				return rc;
			if (rc == EXIT_RUNTIME || (rc == EXIT_THRESHOLD && status == EXIT_PASS))
				status = rc;
			continue;
		}
		if (!runs_here(cp, c))
			continue;
		if (signal_pending())
			return EXIT_INTERRUPTED;
		if (check_space(cp, c))
			return EXIT_RUNTIME;
		snprintf(dir, sizeof(dir), "%s/%s/%s/%s", cp->dir, cp->host,
			 cp->kernel.release, c->id);
		dir_keep_partial(dir);
		/* if latlab dies now, the state says which cell was running */
		cp->status[i] = CELL_RUNNING;
		rc = write_progress(cp);
		if (rc) {
			log_error("writing results under %s: %s", cp->dir, strerror(-rc));
			return EXIT_RUNTIME;
		}
		if (cp->ro->guest)
			guest_line("start %s", c->id);
		struct ticker tk = { cp, c, done_n + 1, run_n, isatty(2), 0 };
		struct run_env env = cp->env;

		if (!cp->ro->quiet) {
			env.tick = tick;
			env.tick_arg = &tk;
		}
		int sig = cell_run(cp->cfg, c, &env, dir, &res);
		if (tk.tty && tk.last_ns)
			fputs("\r\033[K", stderr);	/* the per-cell line replaces it */

		cell_check_thresholds(cp->cfg, &res);
		rc = res.nthreads || res.status != CELL_OK
			? cell_write(cp->cfg, c, &cp->env, &cp->si, &res, dir)
			: 0;
		cp->status[i] = res.status;
		free(cp->reason[i]);
		cp->reason[i] = strdup(res.reason);
		make_brief(&cp->brief[i], &res);
		free(cp->rows[i]);
		cp->rows[i] = cell_rows(cp, c, res.status, &res);
		if (rc == 0)
			rc = write_progress(cp);
		progress(cp, c, &res, ++done_n, run_n);
		if (cp->ro->guest)
			guest_report(cp, i, dir);
		if (lava)
			report_lava(cp, c, &res);
		int fatal = res.fatal;
		if (fatal)
			log_error("%s", res.reason);
		cell_result_free(&res);
		if (rc) {
			log_error("writing results under %s: %s", cp->dir,
				  strerror(-rc));
			return EXIT_RUNTIME;
		}
		if (sig)
			return EXIT_INTERRUPTED;
		if (fatal)
			return EXIT_RUNTIME;
		if (cp->status[i] == CELL_ERROR)
			status = EXIT_RUNTIME;
		else if (cp->status[i] == CELL_FAIL && status == EXIT_PASS)
			status = EXIT_THRESHOLD;
	}
	return status;
}

static int count_skipped_all(const struct campaign *cp)
{
	int ran = 0, skipped = 0;

	for (int i = 0; i < cp->ncells; i++) {
		ran += cp->status[i] != CELL_PENDING;
		skipped += cp->status[i] == CELL_SKIPPED;
	}
	return ran > 0 && ran == skipped;
}

/* Every pending cell of variant v is given up: skipped, with why. */
static void give_up_variant(struct campaign *cp, int v, const char *why)
{
	for (int i = 0; i < cp->ncells; i++) {
		struct cell_result res = { .status = CELL_SKIPPED };

		if (cp->cells[i].kernel != v || done(cp->status[i]))
			continue;
		snprintf(res.reason, sizeof(res.reason), "%s", why);
		cp->status[i] = CELL_SKIPPED;
		free(cp->reason[i]);
		cp->reason[i] = strdup(why);
		free(cp->rows[i]);
		cp->rows[i] = cell_rows(cp, &cp->cells[i], CELL_SKIPPED, &res);
	}
}

/* ---- kernel variants in qemu (runner = qemu) --------------------------- */

struct vm_run {
	struct campaign *cp;
	int v;
	int status;		/* EXIT_PASS, _THRESHOLD or _RUNTIME so far */
	int rc;			/* a failed write of the state: -errno */
};

static int cell_index(const struct campaign *cp, const char *id)
{
	for (int i = 0; i < cp->ncells; i++)
		if (strcmp(cp->cells[i].id, id) == 0)
			return i;
	return -1;
}

static void fold_status(int *status, enum cell_status st)
{
	if (st == CELL_ERROR)
		*status = EXIT_RUNTIME;
	else if (st == CELL_FAIL && *status == EXIT_PASS)
		*status = EXIT_THRESHOLD;
}

/* The index of a cell the guest names, if it is one it was given; else -1. */
static int vm_cell_index(const struct vm_run *vr, const char *id)
{
	int i = cell_index(vr->cp, id);

	return i >= 0 && vr->cp->cells[i].kernel == vr->v &&
	       !done(vr->cp->status[i]) ? i : -1;
}

/* A cell the guest finished: its files are in place; take its rows. */
static int vm_finished(void *arg, const struct vm_cell *vc)
{
	struct vm_run *vr = arg;
	struct campaign *cp = vr->cp;
	int i = vm_cell_index(vr, vc->id);
	struct cell_brief *b;

	if (i < 0)
		return 0;
	cp->status[i] = vc->status;
	free(cp->reason[i]);
	cp->reason[i] = strdup(vc->reason);
	if (vc->rows[0]) {
		free(cp->rows[i]);
		cp->rows[i] = strdup(vc->rows);
	}
	b = &cp->brief[i];
	memset(b, 0, sizeof(*b));
	b->measured = sscanf(vc->brief, "%" SCNu64 " %" SCNu64 " %" SCNu64
			     " %" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64
			     " %" SCNd64 " %" SCNd64 " %" SCNd64,
			     &b->samples, &b->overruns, &b->errors, &b->wakeup[0],
			     &b->wakeup[1], &b->wakeup[2], &b->wakeup[3],
			     &b->wakeup[4], &b->response_p99, &b->response_max) == 10;
	fold_status(&vr->status, vc->status);
	vr->rc = write_progress(cp);
	return vr->rc != 0;
}

/* The state says which cell the guest measures, as for a cell run here. */
static int vm_started(void *arg, const char *id)
{
	struct vm_run *vr = arg;
	struct campaign *cp = vr->cp;
	int i = vm_cell_index(vr, id);

	if (i < 0)
		return 0;
	cp->status[i] = CELL_RUNNING;
	vr->rc = write_progress(cp);
	return vr->rc != 0;
}

static int vm_stop(void *arg)
{
	(void)arg;
	return signal_pending();
}

/* DIR/vm/NAME-N.console.log for the first unused N. */
static void vm_log_paths(const struct campaign *cp, int v, char *console,
			 char *qemu, size_t len)
{
	struct stat st;

	for (int n = 1;; n++) {
		snprintf(console, len, "%s/vm/%s-%d.console.log", cp->dir,
			 cp->cfg->kernel[v].name, n);
		snprintf(qemu, len, "%s/vm/%s-%d.qemu.log", cp->dir,
			 cp->cfg->kernel[v].name, n);
		if (stat(console, &st) != 0 || n >= 9999)
			return;
	}
}

/* DIR/NAME: a copy of the file from, flushed to the disk. 0 or -errno. */
static int copy_file(const char *from, const char *dir, const char *name)
{
	char to[2 * PATH_MAX];
	FILE *out;
	int rc;

	snprintf(to, sizeof(to), "%s/%s", dir, name);
	out = fopen(to, "wbe");
	if (!out)
		return -errno;
	rc = file_append(out, from);
	if (rc == 0 && (fflush(out) != 0 || fsync(fileno(out)) != 0))
		rc = -errno;
	fclose(out);
	return rc;
}

static void fill_text(FILE *fp, void *arg)
{
	fputs(arg, fp);
}

/*
 * The cell running when the guest hung or died: failed, with the console
 * log (and the guest's sysinfo) in its directory.
 */
static int vm_fail_cell(struct campaign *cp, int i, const struct vm_outcome *out,
			const char *console)
{
	struct cell_result res = { .status = CELL_FAIL };
	char dir[PATH_MAX + CELL_ID_MAX + 300];
	const struct cell *c = &cp->cells[i];
	int rc;

	snprintf(dir, sizeof(dir), "%s/%s/%s/%s", cp->dir, out->host,
		 out->release, c->id);
	dir_keep_partial(dir);
	res.started_real = (int64_t)time(NULL) * NS_PER_S;
	snprintf(res.reason, sizeof(res.reason), "%.200s; see console.log",
		 out->why);
	rc = mkdir_p(dir);
	if (rc == 0 && copy_file(console, dir, "console.log") != 0)
		log_warn("%s: no console log to keep beside the cell", console);
	if (rc == 0 && out->sysinfo)
		rc = afile_write(dir, "sysinfo.ini", fill_text, out->sysinfo);
	if (rc == 0)
		rc = cell_write(cp->cfg, c, &cp->env, NULL, &res, dir);
	cp->status[i] = CELL_FAIL;
	free(cp->reason[i]);
	cp->reason[i] = strdup(res.reason);
	memset(&cp->brief[i], 0, sizeof(cp->brief[i]));
	free(cp->rows[i]);
	cp->rows[i] = cell_rows_on(cp, c, CELL_FAIL, &res, out->host, out->release);
	log_error("kernel variant %s: cell %s failed: %s", cp->cfg->kernel[c->kernel].name,
		  c->id, res.reason);
	return rc ? rc : write_progress(cp);
}

/*
 * accel = auto: KVM only where a guest has been seen to come up under it
 * (a -1 in cp->kvm: this boot is the probe); TCG otherwise, loudly.
 */
static int choose_accel(struct campaign *cp, const struct kernel_def *k,
			int *probe)
{
	*probe = 0;
	if (k->accel != ACCEL_AUTO)
		return k->accel;
	if (cp->kvm < 0 && !vm_kvm_present()) {
		log_warn("accel = auto: /dev/kvm cannot be opened: emulating the CPU (TCG)");
		cp->kvm = 0;
	}
	if (cp->kvm < 0) {
		*probe = 1;
		return ACCEL_KVM;
	}
	return cp->kvm ? ACCEL_KVM : ACCEL_TCG;
}

/* What a guest's boot and power-off cost, for the plan's estimate. */
#define VM_BOOT_NS (6 * NS_PER_S)

/* A KVM probe boot waits this long for the guest's first word. */
#define KVM_PROBE_NS (30 * NS_PER_S)

/*
 * The ids of variant v's cells still to run, one a line (malloc'ed), with
 * their count and the index of the first; NULL when there are none.
 */
static char *pending_ids(const struct campaign *cp, int v, int *n, int *first)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	*n = 0;
	*first = -1;
	for (int i = 0; fp && i < cp->ncells; i++)
		if (cp->cells[i].kernel == v && !done(cp->status[i])) {
			fprintf(fp, "%s\n", cp->cells[i].id);
			if (!(*n)++)
				*first = i;
		}
	if (fp)
		fclose(fp);
	if (*n == 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Variant v cannot run: its pending cells skipped, with why. 0 or -errno. */
static int vm_give_up(struct campaign *cp, int v, const char *why)
{
	log_error("kernel variant %s: %s", cp->cfg->kernel[v].name, why);
	give_up_variant(cp, v, why);
	return write_progress(cp);
}

/*
 * What a boot leaves of variant v's cells: the cell running when the
 * guest hung or died fails; a boot that ran nothing counts against
 * boot_attempts; a guest that finished with cells left cannot run them.
 * Folds into *status; 0 or -errno.
 */
static int vm_after_boot(struct campaign *cp, int v, const struct vm_outcome *out,
			 const char *console, int *status)
{
	const struct config *cfg = cp->cfg;
	const char *name = cfg->kernel[v].name;
	int i = out->running[0] ? cell_index(cp, out->running) : -1, n, first;
	char why[PATH_MAX + 700];

	if (i >= 0) {
		fold_status(status, CELL_FAIL);
		return vm_fail_cell(cp, i, out, console);
	}
	if (!out->done && !out->finished) {
		cp->boot_tries[v]++;
		log_error("kernel variant %s: %s (boot %d of %lld; console log: %s)",
			  name, out->why, cp->boot_tries[v],
			  (long long)cfg->campaign.boot_attempts, console);
		if (cp->boot_tries[v] < cfg->campaign.boot_attempts)
			return write_progress(cp);
		snprintf(why, sizeof(why), "kernel variant %s did not run in qemu after %d boots: %.500s",
			 name, cp->boot_tries[v], out->why);
		*status = EXIT_RUNTIME;
		return vm_give_up(cp, v, why);
	}
	char *left = out->done ? pending_ids(cp, v, &n, &first) : NULL;
	if (left) {
		free(left);
		snprintf(why, sizeof(why), "the guest of kernel variant %s finished without running it (see %s)",
			 name, console);
		*status = EXIT_RUNTIME;
		return vm_give_up(cp, v, why);
	}
	return write_progress(cp);
}

/*
 * Every pending cell of variant v, in qemu: boot, run what is left, and
 * again after a guest that hung or died, until each cell is done or the
 * variant is given up (boot_attempts boots that ran nothing). Returns the
 * exit status of its cells, EXIT_INTERRUPTED, or -errno when the results
 * cannot be written.
 */
static int run_in_vm(struct campaign *cp, int v)
{
	const struct config *cfg = cp->cfg;
	const struct kernel_def *k = &cfg->kernel[v];
	struct vm_run vr = { cp, v, EXIT_PASS, 0 };
	struct vm_hooks hooks = { &vr, vm_started, vm_finished, vm_stop };
	char vmdir[PATH_MAX + 8], cpio[PATH_MAX + 80], console[PATH_MAX + 80],
	     qlog[PATH_MAX + 80], err[512], host[160], qemu[PATH_MAX];
	char *config_text = NULL, *cells;
	size_t config_len = 0;
	int rc, pending, first;

	if (path_lookup("qemu-system-x86_64", qemu, sizeof(qemu)) != 0) {
		rc = vm_give_up(cp, v, "qemu-system-x86_64 is not on PATH (install qemu-system-x86: make deps)");
		return rc ? rc : EXIT_RUNTIME;
	}
	FILE *fp = open_memstream(&config_text, &config_len);
	if (!fp)
		return -ENOMEM;
	config_write_ini(fp, cfg);
	fclose(fp);
	snprintf(vmdir, sizeof(vmdir), "%s/vm", cp->dir);
	snprintf(host, sizeof(host), "%.120s-vm", cp->host);
	rc = mkdir_p(vmdir);
	remove_stale_temps(vmdir);	/* an initramfs of a latlab killed while booting */
	while (rc == 0 && (cells = pending_ids(cp, v, &pending, &first)) != NULL) {
		int probe, accel = choose_accel(cp, k, &probe);
		struct vm_guest g = { cfg, v, accel, config_text, cells, host };
		struct vm_outcome out;

		rc = signal_pending() ? EXIT_INTERRUPTED : check_space(cp, &cp->cells[first]);
		if (rc == 0) {
			snprintf(cpio, sizeof(cpio), "%s/%s.initramfs.tmp.%d", vmdir,
				 k->name, (int)getpid());
			rc = vm_initramfs(&g, cpio, err, sizeof(err));
			if (rc == -ENOSPC || rc == -EDQUOT) {
				log_error("%s", err);	/* the host's disk: stop, give nothing up */
			} else if (rc < 0) {
				char why[600];

				snprintf(why, sizeof(why), "no initramfs for the guest: %s", err);
				vr.status = EXIT_RUNTIME;
				rc = vm_give_up(cp, v, why);
				free(cells);
				continue;	/* nothing is left to boot for */
			}
		}
		free(cells);
		if (rc)
			break;
		vm_log_paths(cp, v, console, qlog, sizeof(console));
		if (accel == ACCEL_TCG)
			log_warn("kernel variant %s runs in qemu under TCG (the CPU is emulated): absolute latencies are emulation-bound; only the comparison between variants measured the same way means anything",
				 k->name);
		log_info("kernel variant %s: booting %s in qemu (%s%s, %lld CPUs, %lld MiB) for %d cells; console: %s",
			 k->name, k->image, accel == ACCEL_KVM ? "kvm" : "tcg",
			 probe ? ", probing KVM" : "", (long long)k->cpus,
			 (long long)(k->memory >> 20), pending, console);
		rc = vm_boot(cfg, v, accel, cpio, console, qlog, cp->dir,
			     probe && k->boot_timeout > KVM_PROBE_NS ? KVM_PROBE_NS
								     : k->boot_timeout,
			     &hooks, &out);
		unlink(cpio);
		if (rc) {
			char why[300];

			snprintf(why, sizeof(why), "cannot start qemu-system-x86_64: %s",
				 strerror(-rc));
			vr.status = EXIT_RUNTIME;
			rc = vm_give_up(cp, v, why);
			break;
		}
		rc = vr.rc;
		if (rc)
			log_error("writing results under %s: %s", cp->dir, strerror(-rc));
		if (out.host_errno) {
			log_error("kernel variant %s: writing what the guest sent: %s",
				  k->name, out.why);
			rc = -out.host_errno;
		} else if (rc == 0 && out.interrupted) {
			/* the cell the guest measured is still to run */
			int i = out.running[0] ? cell_index(cp, out.running) : -1;

			if (i >= 0 && cp->status[i] == CELL_RUNNING)
				cp->status[i] = CELL_PENDING;
			rc = write_progress(cp);
			if (rc == 0)
				rc = EXIT_INTERRUPTED;
		} else if (rc == 0 && probe && !out.hello) {
			/* not the kernel's fault: no boot counted */
			log_warn("accel = auto: a guest under KVM did not come up (%s): emulating the CPU (TCG) instead",
				 out.why);
			cp->kvm = 0;
		} else if (rc == 0) {
			if (probe) {
				log_info("accel = auto: KVM works");
				cp->kvm = 1;
			}
			rc = vm_after_boot(cp, v, &out, console, &vr.status);
		}
		free(out.sysinfo);
	}
	free(config_text);
	return rc ? rc : vr.status;
}

/*
 * Started after a reboot latlab asked for: is it the variant it meant?
 * A wrong kernel is recorded; after boot_attempts tries the variant's
 * cells are given up, so a campaign never loops on a kernel that does
 * not come up.
 */
static void after_reboot(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	int v = config_kernel_index(cfg, cp->reboot_to);

	if (v >= 0 && kernel_matches(cfg->kernel[v].match, &cp->kernel)) {
		log_info("booted into kernel variant %s (%s), as planned",
			 cp->reboot_to, cp->kernel.release);
	} else {
		log_error("a reboot into kernel variant %s was asked for, but %s is running (attempt %d of %lld)",
			  cp->reboot_to, cp->kernel.release, v >= 0 ? cp->boot_tries[v] : 0,
			  (long long)cfg->campaign.boot_attempts);
		if (v >= 0 && cp->boot_tries[v] >= cfg->campaign.boot_attempts) {
			char why[256];

			snprintf(why, sizeof(why), "kernel variant %s did not come up after %d reboots",
				 cp->reboot_to, cp->boot_tries[v]);
			log_error("%s: its cells are given up", why);
			give_up_variant(cp, v, why);
		}
	}
	cp->reboot_to[0] = '\0';
	write_progress(cp);
}

/*
 * --reboot: when nothing is left for this kernel, boot the first variant
 * with pending cells, a `reboot =` argv and attempts left. The intent goes
 * to the state file first (synced), then the argv runs (no shell).
 */
static int reboot_next(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	char **argv;
	int argc, v, st, rc;

	for (v = 0; v < cfg->nkernels; v++) {
		int pending = 0;

		if (kernel_matches(cfg->kernel[v].match, &cp->kernel))
			continue;
		for (int i = 0; i < cp->ncells; i++)
			pending += cp->cells[i].kernel == v && !done(cp->status[i]);
		if (pending && cfg->kernel[v].reboot[0] &&
		    cp->boot_tries[v] < cfg->campaign.boot_attempts)
			break;
	}
	if (v == cfg->nkernels) {
		log_info("--reboot: no other kernel variant to boot: the campaign is as done as it can be here");
		return EXIT_PASS;
	}
	snprintf(cp->reboot_to, sizeof(cp->reboot_to), "%s", cfg->kernel[v].name);
	cp->boot_tries[v]++;
	rc = write_progress(cp);
	sync();
	if (rc) {
		log_error("writing the state before the reboot: %s", strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (argv_split(cfg->kernel[v].reboot, &argv, &argc)) {
		log_error("[kernel.%s] reboot: not a command", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	log_info("rebooting into kernel variant %s (attempt %d): %s",
		 cfg->kernel[v].name, cp->boot_tries[v], cfg->kernel[v].reboot);
	fflush(NULL);
	/* nothing is written after this: the latlab after the boot may lock */
	close(cp->lock_fd);
	cp->lock_fd = -1;
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "latlab: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		log_error("the reboot command for kernel variant %s failed", cfg->kernel[v].name);
		return EXIT_RUNTIME;
	}
	log_info("the reboot command returned (a real reboot does not come back here)");
	return EXIT_PASS;
}

/* Every qemu variant with cells can read its image: before anything runs. */
static int check_images(const struct campaign *cp)
{
	for (int v = 0; v < cp->cfg->nkernels; v++) {
		const struct kernel_def *k = &cp->cfg->kernel[v];
		int used = 0;

		for (int i = 0; i < cp->ncells && !used; i++)
			used = cp->cells[i].kernel == v;
		if (!used || k->runner != RUNNER_QEMU || access(k->image, R_OK) == 0)
			continue;
		log_error("%s:%d: [kernel.%s] image = %s: %s%s", k->loc.file ? k->loc.file : cp->cfg->path,
			  k->loc.line, k->name, k->image, strerror(errno),
			  errno == ENOENT ? " (make demo-kernels fetches Debian's stock and rt images into kernels/)" : "");
		return EXIT_USAGE;
	}
	return EXIT_PASS;
}

/* ---- inside a latlab guest (--guest) ----------------------------------- */

/*
 * The channel to the host, the variant this guest is and the cells the
 * host gave it. Says hello first: from then on the host knows latlab runs.
 */
static int guest_setup(struct campaign *cp)
{
	const struct run_opts *ro = cp->ro;
	char line[CELL_ID_MAX + 2];
	int rc;
	FILE *fp;

	/* the init latlab writes starts it; port writes elsewhere go who knows where */
	if (getppid() != 1) {
		log_error("--guest is for the latlab that the init of a latlab virtual machine starts, not for a shell");
		return EXIT_USAGE;
	}
	rc = guest_open();
	if (rc) {
		log_error("--guest: no channel to a host (I/O port 0x%x: %s): --guest is for the latlab that runs inside a latlab virtual machine",
			  GUEST_PORT, strerror(-rc));
		return EXIT_RUNTIME;
	}
	log_set_sink(guest_log);
	guest_line("hello %s %s", cp->host, cp->kernel.release);
	cp->guest_v = config_kernel_index(cp->cfg, ro->guest);
	if (cp->guest_v < 0) {
		log_error("--guest %s: no such kernel variant in %s", ro->guest,
			  cp->cfg->path);
		return EXIT_USAGE;
	}
	cp->want = calloc((size_t)cp->ncells, 1);
	fp = ro->guest_cells ? fopen(ro->guest_cells, "re") : NULL;
	if (!cp->want || !fp) {
		log_error("--guest-cells %s: %s", ro->guest_cells ? ro->guest_cells : "(none)",
			  strerror(errno));
		if (fp)
			fclose(fp);
		return EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		int i = cell_index(cp, line);

		if (i >= 0)
			cp->want[i] = 1;
	}
	fclose(fp);
	return EXIT_PASS;
}

/* What kind of virtual machine this is, in every cell's sysinfo.ini. */
static void guest_sysinfo(struct campaign *cp)
{
	const char *accel = cp->ro->guest_accel ? cp->ro->guest_accel : "unknown";
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	sysinfo_add(&cp->si, "vm", "runner", "qemu");
	sysinfo_add(&cp->si, "vm", "variant", "%s", cp->ro->guest);
	sysinfo_add(&cp->si, "vm", "accel", "%s", accel);
	if (strcmp(accel, "kvm") != 0)
		sysinfo_warn(&cp->si, "qemu without KVM (accel = %s): the CPU is emulated, so absolute latencies are emulation-bound; only the comparison between kernel variants measured the same way means anything",
			     accel);
	fp = open_memstream(&text, &len);
	if (!fp)
		return;
	sysinfo_write(&cp->si, fp);
	fclose(fp);
	guest_blob("sysinfo", text, len);
	free(text);
}

/*
 * The image the host booted should be the variant its match = describes
 * (a vmlinuz mixed up, a kernel built without PREEMPT_RT): if not, its
 * cells are skipped with why, rather than compared as something else.
 */
static void guest_check_kernel(struct campaign *cp)
{
	const struct kernel_def *k = &cp->cfg->kernel[cp->guest_v];
	char why[512];

	if (kernel_matches(k->match, &cp->kernel))
		return;
	snprintf(why, sizeof(why), "[kernel.%s] image booted %s (preempt %s), which is not match = %s",
		 k->name, cp->kernel.release, cp->kernel.model, k->match);
	log_error("%s: its cells are skipped", why);
	give_up_variant(cp, cp->guest_v, why);
	for (int i = 0; i < cp->ncells; i++)
		if (cp->want[i]) {
			guest_line("start %s", cp->cells[i].id);
			guest_report(cp, i, NULL);
		}
	write_progress(cp);
}

int campaign_run(const struct config *cfg, const struct run_opts *ro)
{
	struct campaign cp = { .cfg = cfg, .ro = ro, .lock_fd = -1 };
	int status = EXIT_RUNTIME, rc;

	cp.ncells = matrix_expand(cfg, &cp.cells);
	if (cp.ncells < 0) {
		log_error("%s: the matrix has more than %d cells", cfg->path,
			  MATRIX_MAX_CELLS);
		return EXIT_USAGE;
	}
	cp.rows = calloc((size_t)cp.ncells, sizeof(*cp.rows));
	cp.status = calloc((size_t)cp.ncells, sizeof(*cp.status));
	cp.brief = calloc((size_t)cp.ncells, sizeof(*cp.brief));
	cp.reason = calloc((size_t)cp.ncells, sizeof(*cp.reason));
	if (!cp.rows || !cp.status || !cp.brief || !cp.reason)
		goto out;
	kernel_info_read(&cp.kernel);
	gethostname(cp.host, sizeof(cp.host) - 1);
	cp.kvm = -1;
	if (ro->guest && (status = guest_setup(&cp)) != EXIT_PASS)
		goto out;
	if (!ro->guest && (status = check_images(&cp)) != EXIT_PASS)
		goto out;
	status = EXIT_RUNTIME;
	if (choose_policy(&cp) != 0)
		goto out;
	sysinfo_collect(&cp.si, ro->cmdline);
	if (ro->guest)
		guest_sysinfo(&cp);
	cp.env.cmdline = ro->cmdline;
	cp.env.si = &cp.si;
	for (int i = 0; i < cp.si.nwarn; i++)
		log_warn("%s", cp.si.warn[i]);
	lock_memory(&cp);

	const char *output = ro->output ? ro->output : cfg->campaign.output;
	char holder[32];
	cp.lock_fd = lock_campaign(output, cfg->campaign.name, holder, sizeof(holder));
	if (cp.lock_fd < 0) {
		if (cp.lock_fd == -EWOULDBLOCK)
			log_error("campaign %s in %s is being run by another latlab (pid %s): wait for it, or stop it",
				  cfg->campaign.name, output, holder[0] ? holder : "?");
		else
			log_error("%s: %s", output, strerror(-cp.lock_fd));
		goto out;
	}
	struct prior prior;
	rc = prepare_dir(&cp, output, &prior);
	if (rc == -ESTALE) {
		log_error("%s holds campaign %s run with another config (its state's config_hash differs): run the same config to resume it, --restart to start over (the old tree is kept under a dated name), or choose another -o",
			  cp.dir, cfg->campaign.name);
		status = EXIT_USAGE;
		goto out;
	}
	int resuming = rc == 1, kept = 0;
	if (resuming)
		rc = 0;
	if (rc == 0)
		rc = afile_write(cp.dir, "campaign.ini", fill_campaign_ini, &cp);
	for (int i = 0; i < cp.ncells; i++) {
		enum cell_status st = resuming ? prior_status(&prior, cp.cells[i].id)
					       : CELL_PENDING;

		if (done(st) && (cp.rows[i] = prior_rows(&prior, cp.cells[i].id))) {
			cp.status[i] = st;
			cp.reason[i] = strdup(prior_reason(&prior, cp.cells[i].id));
			kept++;
			continue;
		}
		cp.rows[i] = cell_rows(&cp, &cp.cells[i], CELL_PENDING, NULL);
	}
	if (resuming) {
		snprintf(cp.reboot_to, sizeof(cp.reboot_to), "%s", prior.reboot_to);
		for (int b = 0; b < prior.nboots; b++) {
			int v = config_kernel_index(cfg, prior.boot[b].variant);

			if (v >= 0)
				cp.boot_tries[v] = prior.boot[b].tries;
		}
		prior_free(&prior);
		log_info("resuming campaign %s in %s: %d of %d cells already done",
			 cfg->campaign.name, cp.dir, kept, cp.ncells);
	}
	if (rc == 0)
		rc = write_progress(&cp);
	if (rc) {
		log_error("%s: %s", cp.dir, strerror(-rc));
		goto out;
	}
	log_info("campaign %s: %d cells, results in %s", cfg->campaign.name,
		 cp.ncells, cp.dir);
	if (cp.reboot_to[0])
		after_reboot(&cp);
	if (ro->guest)
		guest_check_kernel(&cp);
	status = run_cells(&cp);
	if (ro->reboot && (status == EXIT_PASS || status == EXIT_THRESHOLD)) {
		int rs = reboot_next(&cp);

		if (rs != EXIT_PASS)
			status = rs;
	}
	if (!ro->quiet)
		print_table(&cp, stdout);
	if (status == EXIT_INTERRUPTED)
		log_info("interrupted: results so far are kept in %s", cp.dir);
	else if (status == EXIT_PASS && count_skipped_all(&cp)) {
		log_error("every cell was skipped");
		status = EXIT_RUNTIME;
	}
	int other = 0, left = 0;
	for (int i = 0; i < cp.ncells; i++) {
		const struct cell *c = &cp.cells[i];

		if (cp.status[i] != CELL_PENDING)
			continue;
		if (runs_here(&cp, c) ||
		    (!ro->guest && cfg->kernel[c->kernel].runner == RUNNER_QEMU))
			left++;
		else
			other++;
	}
	if (left)
		log_info("%d cells not run", left);
	if (other && !ro->guest)	/* a guest runs what it is given */
		log_info("%d cells pending for other kernel variants", other);
out:
	if (ro->guest)
		guest_line("done %d", status);
	for (int i = 0; cp.rows && i < cp.ncells; i++)
		free(cp.rows[i]);
	for (int i = 0; cp.reason && i < cp.ncells; i++)
		free(cp.reason[i]);
	free(cp.rows);
	free(cp.reason);
	free(cp.status);
	free(cp.brief);
	free(cp.cells);
	free(cp.want);
	if (cp.lock_fd >= 0)
		close(cp.lock_fd);	/* releases the lock */
	return status;
}

int campaign_plan(const struct config *cfg, FILE *out)
{
	struct kernel_info k;
	struct cell *cells;
	int n = matrix_expand(cfg, &cells), here = 0, in_vm = 0;
	char est[32], dur[32];

	if (n < 0) {
		log_error("%s: the matrix has more than %d cells", cfg->path,
			  MATRIX_MAX_CELLS);
		return EXIT_USAGE;
	}
	kernel_info_read(&k);
	fprintf(out, "%-44s %-8s %s\n", "cell", "kernel", "runs");
	for (int i = 0; i < n; i++) {
		const struct kernel_def *kd = &cfg->kernel[cells[i].kernel];
		int vm = kd->runner == RUNNER_QEMU;
		int yes = vm || kernel_matches(kd->match, &k);

		here += yes;
		in_vm += vm;
		fprintf(out, "%-44s %-8s %s\n", cells[i].id, kd->name,
			vm ? "qemu" : yes ? "here" : "pending (other kernel)");
	}
	/* and a boot per qemu variant used (about 6 s under TCG, docs/campaigns.md) */
	int64_t boots = 0;
	for (int v = 0; v < cfg->nkernels; v++) {
		int used = 0;

		for (int i = 0; i < n && !used; i++)
			used = cells[i].kernel == v;
		boots += used && cfg->kernel[v].runner == RUNNER_QEMU;
	}
	units_format_elapsed((cfg->campaign.duration + CELL_OVERHEAD_NS) * here +
			     boots * VM_BOOT_NS, est, sizeof(est));
	units_format_duration(cfg->campaign.duration, dur, sizeof(dur));
	fprintf(out, "\n%d cells: %d run on this kernel (%s, preempt %s%s), %d in qemu, %d pending\n",
		n, here - in_vm, k.release, k.model, k.dynamic ? ", dynamic" : "",
		in_vm, n - here);
	fprintf(out, "estimated wall time: %s (%s per cell)\n", est, dur);
	free(cells);
	return EXIT_PASS;
}

int campaign_status(const char *dir, FILE *out)
{
	enum { OK, FAIL, SKIP, ERR, PEND, NCOL };
	static const char *const cols[NCOL] = { "ok", "fail", "skipped", "error", "pending" };
	struct prior prior;
	struct config *cfg = malloc(sizeof(*cfg));
	struct cell *cells = NULL;
	struct kernel_info k;
	char err[512], path[PATH_MAX + 32], est[32];
	int n, rc;

	if (!cfg)
		return EXIT_RUNTIME;
	rc = prior_read(dir, &prior, err, sizeof(err));
	if (rc) {
		log_error("%s: %s", dir, rc == -ENOENT
			  ? "no state file: not a latlab campaign directory" : err);
		free(cfg);
		return EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/campaign.ini", dir);
	if (config_load(cfg, path, NULL, 0, err, sizeof(err)) != 0 ||
	    (n = matrix_expand(cfg, &cells)) < 0) {
		log_error("%s: %s", path, err);
		config_free(cfg);
		free(cfg);
		prior_free(&prior);
		return EXIT_USAGE;
	}
	kernel_info_read(&k);
	fprintf(out, "campaign %s in %s: %d cells\n\n", cfg->campaign.name, dir, n);
	fprintf(out, "%-12s %-9s", "kernel", "runs here");
	for (int c = 0; c < NCOL; c++)
		fprintf(out, " %8s", cols[c]);
	fputc('\n', out);
	int left_here = 0;
	const char *next = NULL;
	for (int v = 0; v < cfg->nkernels; v++) {
		int vm = cfg->kernel[v].runner == RUNNER_QEMU;
		int count[NCOL] = { 0 }, here = vm || kernel_matches(cfg->kernel[v].match, &k);

		for (int i = 0; i < n; i++) {
			if (cells[i].kernel != v)
				continue;
			switch (prior_status(&prior, cells[i].id)) {
			case CELL_OK: count[OK]++; break;
			case CELL_FAIL: count[FAIL]++; break;
			case CELL_SKIPPED: count[SKIP]++; break;
			case CELL_ERROR: count[ERR]++; break;
			default:	/* pending, running (cut short), interrupted */
				count[PEND]++;
				if (here) {
					left_here++;
					if (!next)
						next = cells[i].id;
				}
			}
		}
		fprintf(out, "%-12s %-9s", cfg->kernel[v].name,
			vm ? "qemu" : here ? "yes" : "no");
		for (int c = 0; c < NCOL; c++)
			fprintf(out, " %8d", count[c]);
		fputc('\n', out);
	}
	units_format_elapsed((cfg->campaign.duration + CELL_OVERHEAD_NS) * left_here,
			     est, sizeof(est));
	int vms = 0;
	for (int v = 0; v < cfg->nkernels; v++)
		vms += cfg->kernel[v].runner == RUNNER_QEMU;
	fprintf(out, "\n%d cells left on this kernel%s (%s): about %s\n", left_here,
		vms ? " and in qemu" : "",
		k.release, est);
	if (next)
		fprintf(out, "next: %s (latlab run %s resumes there)\n", next, path);
	free(cells);
	config_free(cfg);
	free(cfg);
	prior_free(&prior);
	return EXIT_PASS;
}
