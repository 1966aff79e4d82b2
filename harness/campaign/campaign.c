#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cellread.h"
#include "campaign_run.h"
#include "hwlat.h"
#include "report.h"
#include "tracer.h"
#include "cellfiles.h"
#include "cpulist.h"
#include "exitcodes.h"
#include "files.h"
#include "guest.h"
#include "log.h"
#include "atomic.h"
#include "thresholds.h"
#include "tree.h"
#include "where.h"
#include "worker.h"

/* The rows of a cell run on this machine. */
char *cp_rows(const struct campaign *cp, const struct cell *c,
	      enum cell_status st, const struct cell_result *res)
{
	return ledger_rows(cp->cfg, c, st, res, cp->host, cp->kernel.release,
			   cp->env.policy);
}

/* cells.csv, state and junit.xml, before and after every cell */
int cp_write(struct campaign *cp)
{
	return ledger_write(&cp->lg, cp->dir);
}

int cp_signalled(void)
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

/* A cell an earlier run finished: kept when resuming. */
int cp_done(enum cell_status st)
{
	return st == CELL_OK || st == CELL_FAIL || st == CELL_SKIPPED;
}

/* Run by this latlab now: the running kernel is the cell's variant. */
static int runs_here(const struct campaign *cp, const struct cell *c)
{
	if (cp->ro->guest)
		return c->kernel == cp->guest.v && cp->guest.want[c - cp->cells];
	return where_runs(cp->cfg, c, &cp->kernel) == WHERE_HERE;
}

/* What a checkpoint of the running cell is written with. */
struct partial {
	const struct campaign *cp;
	const struct cell *c;
	const char *dir;
};

static int write_partial(void *arg, struct cell_result *part)
{
	const struct partial *p = arg;

	return cell_write(p->cp->cfg, p->c, &p->cp->env, &p->cp->si, part, p->dir);
}

/*
 * Cell i on this machine: measured, judged, written, said, reported.
 * 0 to go on (its status is in the ledger), or the exit status that
 * stops the campaign: EXIT_INTERRUPTED, or EXIT_RUNTIME (results that
 * cannot be written, no real-time privilege).
 */
static int run_here(struct campaign *cp, int i, int nth, int run_n, int lava)
{
	const struct cell *c = &cp->cells[i];
	struct cell_result res;
	char dir[PATH_MAX + CELL_ID_MAX + 300];
	int rc;

	if (cp_signalled())
		return EXIT_INTERRUPTED;
	if (cp_check_space(cp, c))
		return EXIT_RUNTIME;
	if (cell_path(dir, sizeof(dir), cp->dir, cp->host, cp->kernel.release,
		      c->id) != 0) {
		log_error("%s/...: %s", cp->dir, strerror(ENAMETOOLONG));
		return EXIT_RUNTIME;
	}
	cp_remove_stale_temps(dir);	/* a killed writer's, not kept beside */
	dir_keep_partial(dir);
	/* if latlab dies now, the state says which cell was running */
	cp->lg.status[i] = CELL_RUNNING;
	rc = ledger_mark(&cp->lg, cp->dir, i);
	if (rc) {
		log_error("writing results under %s: %s", cp->dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (cp->ro->guest)
		guest_say(CHAN_START, "%s", c->id);
	struct ticker tk = { cp, c, nth, run_n, isatty(2), 0 };
	struct partial part = { cp, c, dir };
	struct run_env env = cp->env;

	env.checkpoint = write_partial;
	env.checkpoint_arg = &part;
	if (!cp->ro->quiet) {
		env.tick = cp_tick;
		env.tick_arg = &tk;
	}
	int sig = cell_run(cp->cfg, c, &env, dir, &res);

	snprintf(res.preempt, sizeof(res.preempt), "%s", cp->kernel.model);
	if (tk.tty && tk.last_ns)
		fputs("\r\033[K", stderr);	/* the per-cell line replaces it */

	cell_check_thresholds(cp->cfg, &res);
	rc = res.nthreads || res.status != CELL_OK
		? cell_write(cp->cfg, c, &cp->env, &cp->si, &res, dir)
		: 0;
	cp->lg.status[i] = res.status;
	free(cp->lg.reason[i]);
	cp->lg.reason[i] = strdup(res.reason);
	cp_brief(&cp->brief[i], &res);
	free(cp->lg.rows[i]);
	cp->lg.rows[i] = cp_rows(cp, c, res.status, &res);
	if (rc == 0)
		rc = ledger_progress(&cp->lg, cp->dir, i);
	cp_progress(c, &res, nth, run_n);
	if (cp->ro->guest)
		cp_guest_report(cp, i, dir);
	if (lava)
		cp_lava(c, &res);
	int fatal = res.fatal;
	if (fatal)
		log_error("%s", res.reason);
	cell_result_free(&res);
	if (rc) {
		log_error("writing results under %s: %s", cp->dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	return sig ? EXIT_INTERRUPTED : fatal ? EXIT_RUNTIME : 0;
}

/*
 * Every cell still to run, a kernel variant at a time (kernel is the
 * outermost axis, so a variant's cells are one run of the plan): a qemu
 * variant's in its guests, a host variant's here when it is the running
 * kernel. The exit status of the whole campaign's cells.
 */
static int run_cells(struct campaign *cp)
{
	int run_n = 0, nth = 0, status = EXIT_PASS, rc, next;
	int lava = cp_lava_present();

	/* cells kept from an earlier run count in the exit status too */
	for (int i = 0; i < cp->ncells; i++) {
		if (cp_done(cp->lg.status[i]))
			cp_fold(&status, cp->lg.status[i]);
		else
			run_n += runs_here(cp, &cp->cells[i]);
	}
	for (int first = 0; first < cp->ncells; first = next) {
		int v = cp->cells[first].kernel;

		for (next = first; next < cp->ncells && cp->cells[next].kernel == v;)
			next++;
		if (!cp->ro->guest && where_variant(cp->cfg, v, &cp->kernel) == WHERE_QEMU) {
			rc = cp_run_qemu(cp, v);
			if (rc < 0)
				return EXIT_RUNTIME;
			if (rc == EXIT_INTERRUPTED)
				return rc;
			cp_fold_exit(&status, rc);
			continue;
		}
		for (int i = first; i < next; i++) {
			if (cp_done(cp->lg.status[i]) || !runs_here(cp, &cp->cells[i]))
				continue;
			rc = run_here(cp, i, ++nth, run_n, lava);
			if (rc)
				return rc;
			cp_fold(&status, cp->lg.status[i]);
		}
	}
	return status;
}

static int count_skipped_all(const struct campaign *cp)
{
	int ran = 0, skipped = 0;

	for (int i = 0; i < cp->ncells; i++) {
		ran += cp->lg.status[i] != CELL_PENDING;
		skipped += cp->lg.status[i] == CELL_SKIPPED;
	}
	return ran > 0 && ran == skipped;
}

/* Cell i is skipped, with why. */
void cp_skip(struct campaign *cp, int i, const char *why)
{
	struct cell_result res = { .status = CELL_SKIPPED };

	snprintf(res.reason, sizeof(res.reason), "%s", why);
	cp->lg.status[i] = CELL_SKIPPED;
	free(cp->lg.reason[i]);
	cp->lg.reason[i] = strdup(why);
	free(cp->lg.rows[i]);
	cp->lg.rows[i] = cp_rows(cp, &cp->cells[i], CELL_SKIPPED, &res);
}

/* Every pending cell of variant v is given up: skipped, with why. */
void cp_give_up_variant(struct campaign *cp, int v, const char *why)
{
	for (int i = 0; i < cp->ncells; i++)
		if (cp->cells[i].kernel == v && !cp_done(cp->lg.status[i]))
			cp_skip(cp, i, why);
}

int cp_cell_index(const struct campaign *cp, const char *id)
{
	for (int i = 0; i < cp->ncells; i++)
		if (strcmp(cp->cells[i].id, id) == 0)
			return i;
	return -1;
}

void cp_fold_exit(int *status, int exit_status)
{
	if (exit_status == EXIT_RUNTIME ||
	    (exit_status == EXIT_THRESHOLD && *status == EXIT_PASS))
		*status = exit_status;
}

void cp_fold(int *status, enum cell_status st)
{
	cp_fold_exit(status, st == CELL_ERROR ? EXIT_RUNTIME
			     : st == CELL_FAIL ? EXIT_THRESHOLD : EXIT_PASS);
}

/*
 * [trace] mode = spikes somewhere here: instances a killed latlab left
 * are removed, and sysinfo.ini says what this kernel can trace.
 */
static void trace_setup(struct campaign *cp)
{
	char dir[PATH_MAX], missing[512];
	int any = 0, removed;

	for (int v = 0; v < cp->cfg->nkernels; v++)
		any |= config_trace_mode(cp->cfg, v) == TRACE_SPIKES &&
		       (cp->ro->guest || cp->cfg->kernel[v].runner == RUNNER_HOST);
	if (!any)
		return;
	removed = tracer_sweep();
	if (removed)
		log_info("removed %d tracing instance%s a killed latlab left behind",
			 removed, removed == 1 ? "" : "s");
	tracer_probe(dir, sizeof(dir), missing, sizeof(missing));
	sysinfo_add(&cp->si, "trace", "tracefs", "%s", dir[0] ? dir : "none");
	sysinfo_add(&cp->si, "trace", "missing_events", "%s", missing[0] ? missing : "none");
}

/*
 * [campaign] hwlat = D: the kernel's hwlat tracer before the first cell,
 * its result (or why there is none) in every cell's sysinfo.ini.
 */
static void hwlat_setup(struct campaign *cp)
{
	struct hwlat_result r;
	char why[PATH_MAX + 256];
	int interrupted;

	if (!cp->cfg->campaign.hwlat)
		return;
	log_info("hwlat: %lld s of the hwlat tracer before the first cell",
		 (long long)(cp->cfg->campaign.hwlat / NS_PER_S));
	if (hwlat_run(cp->cfg->campaign.hwlat, &r, &interrupted, why, sizeof(why)) != 0) {
		log_warn("%s", why);
		sysinfo_add(&cp->si, "hwlat", "result", "%s", why);
		return;
	}
	sysinfo_add(&cp->si, "hwlat", "duration_ns", "%lld", (long long)r.duration_ns);
	sysinfo_add(&cp->si, "hwlat", "threshold_ns", "%lld", (long long)r.threshold_ns);
	sysinfo_add(&cp->si, "hwlat", "max_ns", "%lld", (long long)r.max_ns);
	sysinfo_add(&cp->si, "hwlat", "count", "%llu", (unsigned long long)r.count);
	log_info("hwlat: max %.1f us, %llu gaps above %.1f us", (double)r.max_ns / 1e3,
		 (unsigned long long)r.count, (double)r.threshold_ns / 1e3);
}

/* Everything the cells need is here (or in the guest): before anything is written. */
static int preflight(const struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	char why[PATH_MAX + 512], err[PATH_MAX + 1024];
	struct tree base;
	int rc;

	if (where_preflight(cfg, cp->cells, cp->ncells, 0, why, sizeof(why)) != 0) {
		log_error("%s", why);
		return EXIT_USAGE;
	}
	if (!cfg->thresholds.baseline[0])
		return EXIT_PASS;
	/* read as the judgement at the end will: a baseline it cannot read
	 * is found now, not after every cell ran */
	rc = tree_read(&base, cfg->thresholds.baseline, err, sizeof(err));
	if (rc != 0) {
		fail_at(why, sizeof(why), rc, cfg->baseline_loc.file, cfg->baseline_loc.line,
			"baseline = %s: %s (a results tree of an earlier run)",
			cfg->thresholds.baseline, err);
		log_error("%s", why);
		return EXIT_USAGE;
	}
	if (base.nbad)
		log_warn("baseline = %s: %d of its cells are damaged and will be left out of the judgement",
			 cfg->thresholds.baseline, base.nbad);
	tree_free(&base);
	return EXIT_PASS;
}

/*
 * [thresholds] baseline: the finished campaign against the baseline tree,
 * as latlab compare --baseline would judge it (TREE/baseline/ holds its
 * page, compare.csv and junit.xml). A row worse beyond the tolerance whose
 * interval says so fails the run (exit 1).
 */
static void judge_baseline(const struct campaign *cp, int *status)
{
	const struct threshold_opts *t = &cp->cfg->thresholds;
	char out[PATH_MAX + 16];
	const char *dirs[1] = { cp->dir };
	struct compare_opts o = {
		.out = out, .baseline = t->baseline,
		.tolerance = (double)t->baseline_tolerance / 100,
	};

	snprintf(out, sizeof(out), "%s/baseline", cp->dir);
	log_info("judging the campaign against the baseline %s (tolerance %lld %%)",
		 t->baseline, (long long)t->baseline_tolerance);
	int rc = compare_run(dirs, 1, &o);
	if (rc == EXIT_THRESHOLD) {
		cp_fold_exit(status, EXIT_THRESHOLD);
	} else if (rc != EXIT_PASS) {
		log_error("the baseline judgement could not be made (exit %d): see above", rc);
		cp_fold_exit(status, EXIT_RUNTIME);
	}
}

/* The status a cell directory's cell.ini says ("" when none). */
static void ini_status(const char *dir, char *out, size_t len)
{
	cell_ini_get(dir, CELLF_INI, "cell", "status", out, len);
}

/*
 * The directory TREE/HOST/RELEASE/ID whose cell.ini says `status`, with
 * its host and release: 0, or -ENOENT.
 */
static int find_cell_dir(const char *tree, const char *id, const char *status,
			 char *dir, size_t len, char *host, char *release, size_t hlen)
{
	DIR *hd = opendir(tree);
	struct dirent *h, *r;
	char sub[PATH_MAX + 300], said[32];
	int rc = -ENOENT;

	while (hd && rc && (h = readdir(hd)) != NULL) {
		if (h->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", tree, h->d_name);
		DIR *rd = opendir(sub);

		while (rd && rc && (r = readdir(rd)) != NULL) {
			if (r->d_name[0] == '.' ||
			    cell_path(dir, len, tree, h->d_name, r->d_name, id) != 0)
				continue;
			ini_status(dir, said, sizeof(said));
			if (strcmp(said, status) == 0) {
				snprintf(host, hlen, "%s", h->d_name);
				snprintf(release, hlen, "%s", r->d_name);
				rc = 0;
			}
		}
		if (rd)
			closedir(rd);
	}
	if (hd)
		closedir(hd);
	return rc;
}

/*
 * A cell that measured (ok, fail) keeps its summary.csv and hist.csv
 * whole, as the tree reader checks them; else it runs again, said.
 */
static int measured_files_whole(const char *dir, enum cell_status st, const char *id)
{
	char err[PATH_MAX + 1024];
	struct cell_files f;

	if (st != CELL_OK && st != CELL_FAIL)
		return 1;
	if (cell_files_read(dir, &f, err, sizeof(err)) != 0) {
		log_warn("%s: its files are damaged (%s): it runs again", id, err);
		return 0;
	}
	cell_files_free(&f);
	return 1;
}

/*
 * The cells.csv rows of cell i, which the state says an earlier run
 * finished with status st — if the disk agrees: its rows in cells.csv say
 * st and, for a cell that ran, so does its cell.ini. cells.csv may be
 * older than the state (a crash between its whole writes): then the rows
 * are rebuilt from the directory whose cell.ini says st. NULL when the
 * disk disagrees (said): the cell runs again.
 */
static char *kept_rows(const struct campaign *cp, const struct prior *prior,
		       int i, enum cell_status st)
{
	const char *id = cp->cells[i].id, *name = cell_status_name(st);
	const char *status = "nothing", *host, *release;
	char dir[PATH_MAX + CELL_ID_MAX + 300], said[32], h[NAME_MAX + 1], r[NAME_MAX + 1];

	if (prior_where(prior, id, &status, &host, &release) == 0 &&
	    strcmp(status, name) == 0) {
		if (st == CELL_SKIPPED)
			return prior_rows(prior, id);	/* given up, perhaps without a directory */
		said[0] = '\0';
		if (cell_path(dir, sizeof(dir), cp->dir, host, release, id) == 0)
			ini_status(dir, said, sizeof(said));
		if (strcmp(said, name) != 0) {
			log_warn("%s: the state says %s, its cell.ini says %s: it runs again", id,
				 name, said[0] ? said : "nothing (no cell.ini)");
			return NULL;
		}
		if (!measured_files_whole(dir, st, id))
			return NULL;
		if (prior_rows_together(prior, id))
			return prior_rows(prior, id);
		log_warn("%s: cells.csv holds its rows in more than one place: rebuilt from %s",
			 id, dir);
		return ledger_rows_from_dir(cp->cfg, &cp->cells[i], dir, host, release, NULL);
	}
	if (find_cell_dir(cp->dir, id, name, dir, sizeof(dir), h, r, sizeof(h)) == 0) {
		char *rows = ledger_rows_from_dir(cp->cfg, &cp->cells[i], dir, h, r, NULL);

		if (rows) {
			log_info("%s: cells.csv says %s, the state and its cell.ini %s: its rows rebuilt from %s",
				 id, status, name, dir);
			return rows;
		}
	}
	log_warn("%s: the state says %s, cells.csv says %s, and no directory of it does: it runs again",
		 id, name, status);
	return NULL;
}

/*
 * The campaign directory under its lock: new, or resumed (the cells an
 * earlier run finished kept with their rows), then campaign.ini and the
 * ledger written. An exit status.
 */
static int open_campaign(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	const char *output = cp->ro->output ? cp->ro->output : cfg->campaign.output;
	struct prior prior;
	char holder[32];
	int rc, kept = 0;

	cp->lock_fd = cp_lock(output, cfg->campaign.name, holder, sizeof(holder));
	if (cp->lock_fd < 0) {
		if (cp->lock_fd == -EWOULDBLOCK)
			log_error("campaign %s in %s is being run by another latlab (pid %s): wait for it, or stop it",
				  cfg->campaign.name, output, holder[0] ? holder : "?");
		else
			log_error("%s/.%s.lock: %s", output, cfg->campaign.name,
				  strerror(-cp->lock_fd));
		return EXIT_RUNTIME;
	}
	rc = cp_prepare_dir(cp, output, &prior);
	if (rc == -EBADMSG) {
		log_error("%s: the campaign's state cannot be read, and latlab will not guess what was done: --restart keeps this tree under a dated name and starts over, or mend or remove %s/state",
			  cp->dir, cp->dir);
		return EXIT_USAGE;
	}
	if (rc == -ESTALE) {
		log_error("%s holds campaign %s run with another config (its state's config_hash differs): run the same config to resume it, --restart to start over (the old tree is kept under a dated name), or choose another -o",
			  cp->dir, cfg->campaign.name);
		return EXIT_USAGE;
	}
	int resuming = rc == 1;
	if (resuming)
		rc = 0;
	if (rc == 0)
		rc = ledger_write_config(cp->dir, cp->cfg);
	for (int i = 0; i < cp->ncells; i++) {
		const char *id = cp->cells[i].id;
		enum cell_status st = resuming ? prior_status(&prior, id) : CELL_PENDING;

		if (cp_done(st) && (cp->lg.rows[i] = kept_rows(cp, &prior, i, st))) {
			cp->lg.status[i] = st;
			cp->lg.reason[i] = strdup(prior_reason(&prior, id));
			kept++;
			continue;
		}
		cp->lg.rows[i] = cp_rows(cp, &cp->cells[i], CELL_PENDING, NULL);
	}
	if (resuming) {
		snprintf(cp->lg.reboot_to, sizeof(cp->lg.reboot_to), "%s", prior.reboot_to);
		for (int b = 0; b < prior.nboots; b++) {
			int v = config_kernel_index(cfg, prior.boot[b].variant);

			if (v >= 0)
				cp->lg.boot_tries[v] = prior.boot[b].tries;
		}
		prior_free(&prior);
		log_info("resuming campaign %s in %s: %d of %d cells already done",
			 cfg->campaign.name, cp->dir, kept, cp->ncells);
	}
	if (rc == 0)
		rc = cp_write(cp);
	if (rc) {
		log_error("%s: %s", cp->dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_PASS;
}

/* What is left after the run: here (or in qemu), and for other variants. */
static void say_left(const struct campaign *cp)
{
	int other = 0, left = 0;

	for (int i = 0; i < cp->ncells; i++) {
		const struct cell *c = &cp->cells[i];

		if (cp->lg.status[i] != CELL_PENDING)
			continue;
		if (runs_here(cp, c) ||
		    (!cp->ro->guest && where_runs(cp->cfg, c, &cp->kernel) == WHERE_QEMU))
			left++;
		else
			other++;
	}
	if (left)
		log_info("%d cells not run", left);
	if (other && !cp->ro->guest)	/* a guest runs what it is given */
		log_info("%d cells pending for other kernel variants", other);
}

int campaign_run(const struct config *cfg, const struct run_opts *ro)
{
	struct campaign cp = { .cfg = cfg, .ro = ro, .lock_fd = -1 };
	int status = EXIT_RUNTIME;

	cp.ncells = matrix_expand(cfg, &cp.cells);
	if (cp.ncells < 0) {
		log_error("%s: the matrix has more than %d cells", cfg->path,
			  MATRIX_MAX_CELLS);
		return EXIT_USAGE;
	}
	cp.brief = calloc((size_t)cp.ncells, sizeof(*cp.brief));
	if (ledger_init(&cp.lg, cfg, cp.cells, cp.ncells) != 0 || !cp.brief)
		goto out;
	kernel_info_read(&cp.kernel);
	gethostname(cp.host, sizeof(cp.host) - 1);
	/* both name directories of the results tree: one name each */
	path_component(cp.host);
	path_component(cp.kernel.release);
	cp.qemu.kvm = -1;
	if (ro->guest && (status = cp_guest_setup(&cp)) != EXIT_PASS)
		goto out;
	if (!ro->guest && (status = preflight(&cp)) != EXIT_PASS)
		goto out;
	status = EXIT_RUNTIME;
	if (choose_policy(&cp) != 0)
		goto out;
	sysinfo_collect(&cp.si, ro->cmdline);
	trace_setup(&cp);
	hwlat_setup(&cp);
	if (ro->guest)
		cp_guest_sysinfo(&cp);
	cp.env.cmdline = ro->cmdline;
	for (int i = 0; i < cp.si.nwarn; i++)
		log_warn("%s", cp.si.warn[i]);
	lock_memory(&cp);

	status = open_campaign(&cp);
	if (status != EXIT_PASS)
		goto out;
	log_info("campaign %s: %d cells, results in %s", cfg->campaign.name,
		 cp.ncells, cp.dir);
	if (cp.lg.reboot_to[0])
		cp_after_reboot(&cp);
	if (ro->guest)
		cp_guest_check_kernel(&cp);
	status = run_cells(&cp);
	/* the whole ledger, compacted, however the cells ended */
	if (cp_write(&cp) != 0 && (status == EXIT_PASS || status == EXIT_THRESHOLD))
		status = EXIT_RUNTIME;
	if (!ro->guest && cfg->thresholds.baseline[0] &&
	    (status == EXIT_PASS || status == EXIT_THRESHOLD))
		judge_baseline(&cp, &status);
	if (ro->reboot && (status == EXIT_PASS || status == EXIT_THRESHOLD)) {
		int rs = cp_reboot_next(&cp);

		if (rs != EXIT_PASS)
			status = rs;
	}
	if (!ro->quiet)
		cp_print_table(&cp, stdout);
	if (status == EXIT_INTERRUPTED)
		log_info("interrupted: results so far are kept in %s", cp.dir);
	else if (status == EXIT_PASS && count_skipped_all(&cp)) {
		log_error("every cell was skipped");
		status = EXIT_RUNTIME;
	}
	say_left(&cp);
out:
	if (ro->guest)
		guest_say(CHAN_DONE, "%d", status);
	ledger_free(&cp.lg);
	free(cp.brief);
	free(cp.cells);
	free(cp.guest.want);
	if (cp.lock_fd >= 0)
		close(cp.lock_fd);	/* releases the lock */
	return status;
}

