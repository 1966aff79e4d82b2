#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "axis_ops.h"
#include "campaign_run.h"
#include "exitcodes.h"
#include "hwlat.h"
#include "log.h"
#include "reconcile.h"
#include "rtrights.h"
#include "tracer.h"
#include "undo.h"
#include "worker.h"

int cp_max_priority(const struct config *cfg)
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
	int prio = cp_max_priority(cp->cfg);
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
	char why[1200];

	rt_rights_here(prio, why, sizeof(why));
	log_error("cannot create a SCHED_FIFO thread at priority %d: %s", prio,
		  strerror(-rc));
	log_error("%s; or pass --allow-non-rt to measure SCHED_OTHER threads instead", why);
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

/*
 * Every cell still to run, in the campaign's order (matrix_run_order),
 * a round at a time: in round r each kernel variant's cells of repeat r,
 * those the mode runs elsewhere (a qemu variant's, in a guest booted for
 * that round) by the mode, the others here when the mode says they run
 * here. order = blocked is one round of every repeat, a variant at a
 * time. A host variant that needs a reboot runs none here: its cells wait
 * for the boot into it, so host variants stay blocked whatever the order.
 * Instruction-clock guests the mode queued side by side (campaign_pool.c)
 * are waited for before a cell runs here, and at the end. The exit status
 * of the whole campaign's cells.
 */
static int run_cells(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	int run_n = 0, nth = 0, status = EXIT_PASS, rc;
	int lava = cp_lava_present();
	int rounds = cp_rounds_of(cfg);

	/* cells kept from an earlier run count in the exit status too */
	for (int i = 0; i < cp->ncells; i++) {
		if (cp_done(cp->lg.status[i]))
			cp_fold(&status, cp->lg.status[i]);
		else
			run_n += cp->mode->runs_here(cp, &cp->cells[i]);
	}
	for (int r = 1; r <= rounds; r++) {
		int round = rounds > 1 ? r : 0;

		for (int first = 0, next; first < cp->ncells; first = next) {
			int v = cp->cells[cp->order[first]].kernel;

			for (next = first; next < cp->ncells && cp->cells[cp->order[next]].kernel == v;)
				next++;
			if (cp->mode->elsewhere && cp->mode->elsewhere(cp, v, round, &rc)) {
				if (rc < 0 || rc == EXIT_INTERRUPTED)
					goto stop;
				cp_fold_exit(&status, rc);
				continue;
			}
			for (int k = first; k < next; k++) {
				int i = cp->order[k];

				if ((round && cp->cells[i].repeat != round) ||
				    cp_done(cp->lg.status[i]) || !cp->mode->runs_here(cp, &cp->cells[i]))
					continue;
				rc = cp_pool_wait(cp);	/* nothing runs beside a cell here */
				if (rc < 0 || rc == EXIT_INTERRUPTED)
					goto stop;
				cp_fold_exit(&status, rc);
				rc = cp_run_here(cp, i, ++nth, run_n, lava);
				if (rc)
					return rc;
				cp_fold(&status, cp->lg.status[i]);
			}
		}
	}
	rc = cp_pool_wait(cp);
	if (rc >= 0 && rc != EXIT_INTERRUPTED) {
		cp_fold_exit(&status, rc);
		return status;
	}
stop:
	cp_pool_wait(cp);	/* the guests still running end first */
	return rc < 0 ? EXIT_RUNTIME : rc;
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

/*
 * [trace] mode = spikes somewhere here: instances a killed latlab left
 * are removed, and sysinfo.ini says what this kernel can trace.
 */
static void trace_setup(struct campaign *cp)
{
	char dir[PATH_MAX], missing[512];
	int any = 0, removed;

	for (int v = 0; v < cp->cfg->nkernels; v++)
		any |= cp->cfg->kernel[v].trace_mode == TRACE_SPIKES &&
		       (!cp->mode->traces || cp->mode->traces(cp, v));
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

/*
 * Cell i's record of boots that ended while it ran: the state's, and one
 * more when the state says it was running and was written in another
 * boot (a crash, a power cut, a watchdog: not latlab killed in this one).
 * A cell the machine went down under boot_attempts times is given up —
 * skipped, with the reason — so that a cell that brings the kernel down
 * is not rerun at every boot all night.
 */
static void went_down(struct campaign *cp, const struct prior *prior, int i,
		      enum cell_status st)
{
	const char *id = cp->cells[i].id;
	long long limit = cp->cfg->campaign.boot_attempts;
	char why[256];

	cp->lg.went_down[i] = prior_went_down(prior, id);
	if (st != CELL_RUNNING || !prior->boot_id[0] || !cp->lg.boot_id[0] ||
	    strcmp(prior->boot_id, cp->lg.boot_id) == 0)
		return;
	if (++cp->lg.went_down[i] < limit) {
		log_warn("the machine went down while cell %s ran (%d of %lld times): it runs again, its data so far kept beside",
			 id, cp->lg.went_down[i], limit);
		return;
	}
	snprintf(why, sizeof(why), "the machine went down while this cell ran, %d times (a crash, a power cut or a watchdog): given up; its data so far is in its directory",
		 cp->lg.went_down[i]);
	log_error("%s: %s", id, why);
	cp_skip(cp, i, why);
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

		if (resuming)
			went_down(cp, &prior, i, st);
		char *rows = cp_done(st) ? reconcile_rows(cfg, cp->dir, &prior, &cp->cells[i], st) : NULL;

		if (rows) {
			ledger_settle(&cp->lg, i, st, prior_reason(&prior, id), rows);
			cp->kept[i] = 1;
			kept++;
			continue;
		}
		if (!cp->lg.rows[i])	/* (went_down's give-up has its rows) */
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
		if (cp->mode->runs_here(cp, c) ||
		    (cp->mode->left_here && cp->mode->left_here(cp, c)))
			left++;
		else
			other++;
	}
	if (left)
		log_info("%d cells not run", left);
	if (other && cp->mode->says_others)	/* a guest runs what it is given */
		log_info("%d cells pending for other kernel variants", other);
}

/* ---- the phases, in order: campaign_run below drives them ---- */

static void say_undone(void *arg, const char *line)
{
	(void)arg;
	log_warn("%s", line);
}

/*
 * The mode's own start: the host's preflight, the guest's hello. Before
 * it, what a latlab killed mid-cell left changed on the machine (its
 * cpusets, interrupts, idle states) is undone: the machine the preflight
 * judges is the machine as it was.
 */
static int ph_setup(struct campaign *cp, int status)
{
	(void)status;
	/* a latlab killed mid-cell left its cpusets, interrupts or idle states: undone first */
	int undone = undo_stale(UNDO_DIR, axis_undo_roots(), say_undone, NULL);

	if (undone < 0 && undone != -EACCES)
		log_warn("%s: %s (what a killed latlab changed is not undone)", UNDO_DIR,
			 strerror(-undone));
	return cp->mode->setup ? cp->mode->setup(cp) : EXIT_PASS;
}

static int ph_policy(struct campaign *cp, int status)
{
	(void)status;
	return choose_policy(cp) == 0 ? EXIT_PASS : EXIT_RUNTIME;
}

/* What this machine is, what it can trace, hwlat, memory locked. */
static int ph_machine(struct campaign *cp, int status)
{
	(void)status;
	sysinfo_collect(&cp->si, cp->ro->cmdline);
	trace_setup(cp);
	hwlat_setup(cp);
	if (cp->mode->facts)
		cp->mode->facts(cp);
	cp->env.cmdline = cp->ro->cmdline;
	for (int i = 0; i < cp->si.nwarn; i++)
		log_warn("%s", cp->si.warn[i]);
	/* a load of real-time threads that never sleep is what throttling stops */
	for (int i = 0; cp->si.runs_long && i < cp->cfg->nloads; i++)
		if (strcmp(cp->cfg->load[i].type, "rt-hog") == 0) {
			log_warn("[load.%s] runs real-time threads that keep a CPU busy: %s (sysinfo.ini [sched] runs_long)",
				 cp->cfg->load[i].name, sysinfo_get(&cp->si, "sched", "runs_long"));
			break;
		}
	lock_memory(cp);
	return EXIT_PASS;
}

/* The directory, new or resumed, and what the mode checks before the cells. */
static int ph_open(struct campaign *cp, int status)
{
	status = open_campaign(cp);
	if (status != EXIT_PASS)
		return status;
	log_info("campaign %s: %d cells, results in %s", cp->cfg->campaign.name,
		 cp->ncells, cp->dir);
	if (cp->mode->opened)
		cp->mode->opened(cp);
	return EXIT_PASS;
}

static int ph_cells(struct campaign *cp, int status)
{
	(void)status;
	return run_cells(cp);
}

/* The whole ledger, compacted, however the cells ended. */
static int ph_ledger(struct campaign *cp, int status)
{
	if (cp_write(cp) != 0 && (status == EXIT_PASS || status == EXIT_THRESHOLD))
		return EXIT_RUNTIME;
	return status;
}

/* The mode's judgement of the finished cells: the baseline, --reboot. */
static int ph_finish(struct campaign *cp, int status)
{
	if (cp->mode->finish)
		cp->mode->finish(cp, &status);
	return status;
}

/* The end-of-run table, and what the run leaves said. */
static int ph_said(struct campaign *cp, int status)
{
	if (!cp->ro->quiet)
		cp_print_table(cp, stdout);
	if (status == EXIT_INTERRUPTED)
		log_info("interrupted: results so far are kept in %s", cp->dir);
	else if (status == EXIT_PASS && count_skipped_all(cp)) {
		log_error("every cell was skipped");
		status = EXIT_RUNTIME;
	}
	say_left(cp);
	return status;
}

/*
 * One campaign, host or guest alike: each phase takes the status so far
 * and returns it; after a gate the rest runs only when it is EXIT_PASS.
 */
static const struct phase {
	const char *name;
	int (*run)(struct campaign *cp, int status);
	int gate;
} phases[] = {
	{ "setup", ph_setup, 1 },
	{ "policy", ph_policy, 1 },
	{ "machine", ph_machine, 1 },
	{ "open", ph_open, 1 },
	{ "cells", ph_cells, 0 },
	{ "ledger", ph_ledger, 0 },
	{ "finish", ph_finish, 0 },
	{ "said", ph_said, 0 },
};

int campaign_run(const struct config *cfg, const struct run_opts *ro)
{
	struct campaign cp = {
		.cfg = cfg, .ro = ro, .lock_fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER,
		.mode = ro->guest ? &cp_guest_mode : &cp_host_mode,
	};
	int status = EXIT_RUNTIME;
	struct config *ext = NULL;

	/* repeat raised on an earlier tree: its runs kept, the new ones added */
	if (!ro->guest && !ro->restart) {
		char why[PATH_MAX + 256];
		struct cp_tree_was was = { 0, 0 };
		int rc = cp_extension(cfg, ro->output ? ro->output : cfg->campaign.output, &ext,
				      &was, why, sizeof(why));

		if (rc < 0) {
			log_error("%s", why);
			return EXIT_USAGE;
		}
		if (ext && ext->campaign.repeat > was.repeat)
			log_info("campaign %s: its tree holds %lld runs of each cell; repeat = %lld adds the runs beyond",
				 cfg->campaign.name, (long long)was.repeat, (long long)ext->campaign.repeat);
		if (ext) {
			cp.cfg = cfg = ext;
			cp.extends = was.hash;
		}
	}
	cp.ncells = matrix_expand(cfg, &cp.cells);
	if (cp.ncells < 0) {
		log_error("%s: the matrix has more than %d cells", cfg->path,
			  MATRIX_MAX_CELLS);
		free(ext);
		return EXIT_USAGE;
	}
	cp.brief = calloc((size_t)cp.ncells, sizeof(*cp.brief));
	cp.kept = calloc((size_t)cp.ncells + 1, 1);
	cp.order = calloc((size_t)cp.ncells + 1, sizeof(*cp.order));
	if (ledger_init(&cp.lg, cfg, cp.cells, cp.ncells) != 0 || !cp.brief || !cp.kept ||
	    !cp.order)
		goto out;
	matrix_run_order(cfg, cp.cells, cp.ncells, cp.order);
	kernel_info_read(&cp.kernel);
	gethostname(cp.host, sizeof(cp.host) - 1);
	/* both name directories of the results tree: one name each */
	path_component(cp.host);
	path_component(cp.kernel.release);
	cp.qemu.kvm = -1;
	cp.qemu.jobs = ro->guest ? 1 : cp_pool_jobs(cfg, ro->jobs);
	if (cp_pool_init(&cp) != 0)
		log_warn("no memory to run guests side by side: one at a time");
	status = EXIT_PASS;
	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		status = phases[p].run(&cp, status);
		if (phases[p].gate && status != EXIT_PASS)
			break;
	}
out:
	cp_pool_free(&cp);
	if (cp.mode->end)
		cp.mode->end(&cp, status);
	ledger_free(&cp.lg);
	free(cp.brief);
	free(cp.kept);
	free(cp.order);
	free(cp.cells);
	free(cp.guest.want);
	free(cp.qemu.image);
	for (int i = 0; i < cp.qemu.nsaid; i++)
		free(cp.qemu.said[i]);
	free(cp.qemu.said);
	if (cp.lock_fd >= 0)
		close(cp.lock_fd);	/* releases the lock */
	pthread_mutex_destroy(&cp.lock);
	free(ext);
	return status;
}
