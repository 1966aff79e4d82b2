#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "campaign_run.h"
#include "cellfiles.h"
#include "container.h"
#include "estimate.h"
#include "exitcodes.h"
#include "files.h"
#include "load.h"
#include "log.h"
#include "place.h"
#include "units.h"
#include "vm.h"
#include "where.h"

/*
 * A container's load_in = host: its one cell's (vm_run's only) load on
 * this machine, outside it, from before the container starts until the
 * container says the cell ended; its lines kept for the container's log.
 */
struct ct_outside {
	struct loadset ls;
	int stopped;		/* stopped, its work counted */
	FILE *lines;		/* its lines (a memstream over text) */
	char *text;
	size_t len;
};

struct vm_run {
	struct campaign *cp;
	int v;
	int status;		/* EXIT_PASS, _THRESHOLD or _RUNTIME so far */
	int rc;			/* a failed write of the state: -errno */
	int64_t started;	/* when the guest started its cell (units_now_ns) */
	const char *config_text;	/* the guest's copy of the config (its FILE:LINEs mapped back) */
	struct ct_outside *outside;	/* a container's load on the host; NULL none */
	int only;		/* the one cell a container was given (load_in = host), or -1: its round's */
};

/* text from the guest, its "/latlab/config.ini:N" said at the user's FILE:LINE */
static void vm_user_loc(const struct vm_run *vr, const char *text, char *out, size_t len)
{
	if (vr->config_text)
		config_echo_map(vr->cp->cfg, vr->config_text, VM_CONFIG_PATH, text, out, len);
	else
		snprintf(out, len, "%s", text);
}

/* The index of a cell the guest names, if it is one it was given; else -1. */
static int vm_cell_index(const struct vm_run *vr, const char *id)
{
	int i = cp_cell_index(vr->cp, id);

	return i >= 0 && vr->cp->cells[i].kernel == vr->v &&
	       !cp_done(vr->cp->lg.status[i]) ? i : -1;
}

/* The load's lines, for the container's log. */
static void outside_line(void *arg, const char *line)
{
	struct ct_outside *o = arg;

	if (o->lines)
		fprintf(o->lines, "%s\n", line);
}

/*
 * Cell i's load on this machine, kept off the CPUs its threads are pinned
 * to here (the container's CPUs are the host's): 0 started (or none to
 * start), or -errno with why (len).
 */
static int outside_start(const struct campaign *cp, int i, struct ct_outside *o,
			 char *why, size_t len)
{
	const struct cell *c = &cp->cells[i];
	const struct load_def *l = &cp->cfg->load[c->load];
	cpu_set_t pinned, used;
	char err[256];
	int rc;

	memset(o, 0, sizeof(*o));
	loadset_init(&o->ls);
	o->lines = open_memstream(&o->text, &o->len);
	if (place_cpus(cp->cfg, c, &pinned, &used) < 0)
		CPU_ZERO(&pinned);
	rc = loadset_start(&o->ls, l, &pinned, outside_line, o, err, sizeof(err));
	if (rc)
		snprintf(why, len, "load %s on the host, outside the container (load_in = host): %s",
			 l->name, err);
	return rc;
}

/* The load stopped and its work counted (once). */
static void outside_stop(struct ct_outside *o)
{
	if (o->stopped)
		return;
	loadset_stop(&o->ls);
	o->stopped = 1;
}

/* Did the stopped load fail to run while the cell measured? 1 with why (len), as cell_judge_load says it; 0. */
static int outside_failed(const struct ct_outside *o, char *why, size_t len)
{
	char w[320];

	if (!o->ls.def || !loadset_judge(&o->ls, w, sizeof(w)))
		return 0;
	snprintf(why, len, "load %s on the host, outside the container: %s", o->ls.def->name, w);
	return 1;
}

/* The load stopped and freed, its lines after the container's own in its log. */
static void outside_end(struct ct_outside *o, const char *log)
{
	outside_stop(o);
	loadset_free(&o->ls);
	if (o->lines)
		fclose(o->lines);
	FILE *fp = log && o->text && o->len ? fopen(log, "ae") : NULL;

	if (fp) {
		fprintf(fp, "# the load on the host, outside the container (load_in = host):\n%s", o->text);
		fclose(fp);
	}
	free(o->text);
	memset(o, 0, sizeof(*o));
}

/*
 * A cell the guest finished, its files in place. Its cells.csv rows are
 * built here from those files (cell.ini, summary.csv, through the strict
 * readers), never copied from the guest: a cell whose files are missing
 * or damaged, or whose cell.ini says another status than the guest did,
 * is an error of its own.
 */
static int vm_finished_locked(struct vm_run *vr, const struct vm_cell *vc)
{
	struct campaign *cp = vr->cp;
	int i = vm_cell_index(vr, vc->id);
	enum cell_status said = CELL_ERROR, st;
	struct cell_result res;
	struct chan_brief *b;
	char *rows = NULL;

	if (i < 0)
		return 0;
	memset(&res, 0, sizeof(res));
	if (vc->dir)
		rows = ledger_rows_from_dir(cp->cfg, &cp->cells[i], vc->dir, vc->host,
					    vc->release, &said);
	if (rows && (int)said == vc->status) {
		st = (enum cell_status)vc->status;
		vm_user_loc(vr, vc->reason, res.reason, sizeof(res.reason));
	} else if (!vc->dir && (vc->status == CELL_ERROR || vc->status == CELL_SKIPPED)) {
		/* it failed before it had a directory: the guest's word, at the user's line */
		st = (enum cell_status)vc->status;
		vm_user_loc(vr, vc->reason, res.reason, sizeof(res.reason));
	} else {
		st = CELL_ERROR;
		snprintf(res.reason, sizeof(res.reason),
			 "the guest said %s, but %s", cell_status_name(vc->status),
			 !vc->dir ? "sent no files" : rows ? "its cell.ini says otherwise"
			 : "its cell.ini or summary.csv is missing or damaged");
		log_error("%s: %s", vc->id, res.reason);
		free(rows);
		rows = NULL;
	}
	/* its load, on the host, stopped (vm_finished): it must have run, as in a cell of the host's */
	if (vr->outside && vr->only == i && (st == CELL_OK || st == CELL_FAIL) &&
	    outside_failed(vr->outside, res.reason, sizeof(res.reason))) {
		st = CELL_ERROR;
		log_error("%s: %s", vc->id, res.reason);
		free(rows);
		rows = NULL;
	}
	if (!rows)
		rows = ledger_rows(cp->cfg, &cp->cells[i], st, &res, vc->host, vc->release,
				   cp->env.policy);
	ledger_settle(&cp->lg, i, st, res.reason, rows);
	b = &cp->brief[i];
	chan_brief_parse(vc->brief, b);	/* none, or garbled: not in the table */
	cp_fold(&vr->status, st);
	if (vr->started && vc->status != CELL_ERROR && vc->status != CELL_SKIPPED) {
		const struct cell *c = &cp->cells[i];
		const struct load_def *l = &cp->cfg->load[c->load];

		est_record_cell(&cp->cfg->kernel[vr->v], cp_image_key(cp, vr->v),
				l->ops ? l->type : "none", cp->cfg->campaign.duration,
				units_now_ns() - vr->started);
	}
	vr->started = 0;
	vr->rc = ledger_progress(&cp->lg, cp->dir, i);
	return vr->rc != 0;
}

/* The hooks run on the guest's thread: each takes the campaign's lock. */
static int vm_finished(void *arg, const struct vm_cell *vc)
{
	struct vm_run *vr = arg;

	/* a container's load on the host: its cell over, stopped (a grace
	 * period: outside the lock) before the cell is judged */
	if (vr->outside)
		outside_stop(vr->outside);
	pthread_mutex_lock(&vr->cp->lock);
	int rc = vm_finished_locked(vr, vc);
	pthread_mutex_unlock(&vr->cp->lock);
	return rc;
}

/* The state says which cell the guest measures, as for a cell run here. */
static int vm_started(void *arg, const char *id)
{
	struct vm_run *vr = arg;
	struct campaign *cp = vr->cp;
	int rc;

	pthread_mutex_lock(&cp->lock);
	int i = vm_cell_index(vr, id);
	if (i < 0) {
		rc = -1;	/* not a cell this guest was given */
	} else {
		cp->lg.status[i] = CELL_RUNNING;
		vr->started = units_now_ns();
		vr->rc = ledger_mark(&cp->lg, cp->dir, i);
		rc = vr->rc != 0;
	}
	pthread_mutex_unlock(&cp->lock);
	return rc;
}

/*
 * Asked every poll of the guest's channel (200 ms at most): also the
 * moment a container's load on the host is looked after as a host cell's
 * own is while it measures — one that ended is started again, one that
 * keeps ending in an error is stopped and said (loadset_poll).
 */
static int vm_stop(void *arg)
{
	struct vm_run *vr = arg;

	if (vr->outside)	/* once stopped, loadset_poll does nothing */
		loadset_poll(&vr->outside->ls);
	return cp_signalled(vr->cp);
}

/*
 * A guest's log line, on the host's stderr: its warnings (the emulated
 * CPU, the VM, throttling) come with every boot, and are said once per
 * variant; the rest as they come.
 */
static void vm_said(void *arg, const char *text)
{
	struct vm_run *vr = arg;

	int warning = strncmp(text, "warning: ", 9) == 0;
	char mapped[2048];

	vm_user_loc(vr, text, mapped, sizeof(mapped));
	text = mapped;

	/* -q hides the guest's progress as it does the host's, never its errors */
	if (vr->cp->ro->quiet && !warning && strncmp(text, "error: ", 7) != 0)
		return;
	pthread_mutex_lock(&vr->cp->lock);
	if (!warning || cp_said_once(vr->cp, vr->v, text))
		fprintf(stderr, "latlab: guest %s: %s\n", vr->cp->cfg->kernel[vr->v].name, text);
	pthread_mutex_unlock(&vr->cp->lock);
}

/*
 * DIR/vm/NAME-N.console.log for the first unused N, made empty: a guest
 * of the same variant booting beside this one takes the next.
 */
static void vm_log_paths(const struct campaign *cp, int v, char *console,
			 char *qemu, size_t len)
{
	for (int n = 1;; n++) {
		snprintf(console, len, "%s/vm/%s-%d.console.log", cp->dir,
			 cp->cfg->kernel[v].name, n);
		snprintf(qemu, len, "%s/vm/%s-%d.qemu.log", cp->dir,
			 cp->cfg->kernel[v].name, n);
		int fd = open(console, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
		if (fd >= 0 || errno != EEXIST || n >= 9999)
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

	cell_path(dir, sizeof(dir), cp->dir, out->host, out->release, c->id);
	dir_keep_partial(dir);
	res.started_real = (int64_t)time(NULL) * NS_PER_S;
	snprintf(res.reason, sizeof(res.reason), "%.480s; see console.log",
		 out->why);
	rc = mkdir_p(dir);
	if (rc == 0 && copy_file(console, dir, "console.log") != 0)
		log_warn("%s: no console log to keep beside the cell", console);
	if (rc == 0 && out->sysinfo)
		rc = cell_write_sysinfo_text(dir, out->sysinfo);
	if (rc == 0)
		rc = cell_write(cp->cfg, c, &cp->env, NULL, &res, dir);
	ledger_settle(&cp->lg, i, CELL_FAIL, res.reason,
		      ledger_rows(cp->cfg, c, CELL_FAIL, &res, out->host, out->release,
				  cp->env.policy));
	memset(&cp->brief[i], 0, sizeof(cp->brief[i]));
	log_error("kernel variant %s: cell %s failed: %s", cp->cfg->kernel[c->kernel].name,
		  c->id, res.reason);
	return rc ? rc : cp_write(cp);
}

/*
 * accel = auto: KVM only where a guest has been seen to come up under it
 * (a -1 in cp->qemu.kvm: this boot is the probe); TCG otherwise, loudly.
 */
static int choose_accel(struct campaign *cp, const struct kernel_def *k,
			int *probe)
{
	*probe = 0;
	if (k->accel != ACCEL_AUTO)
		return k->accel;
	if (!vm_arch_native(k) || k->clock == CLOCK_ICOUNT)
		return ACCEL_TCG;	/* another machine's CPU, or instruction time */
	if (cp->qemu.kvm < 0 && !vm_kvm_present()) {
		log_warn("accel = auto: /dev/kvm cannot be opened: emulating the CPU (TCG)");
		cp->qemu.kvm = 0;
	}
	if (cp->qemu.kvm < 0) {
		*probe = 1;
		return ACCEL_KVM;
	}
	return cp->qemu.kvm ? ACCEL_KVM : ACCEL_TCG;
}

/*
 * A KVM probe boot waits this long for the guest's first word: 30 s, or
 * LATLAB_KVM_PROBE_TIMEOUT (a testing aid beside LATLAB_KVM_DEVICE:
 * vm.bats's fake KVM that hangs need not cost 30 s; docs/campaigns.md)
 */
static int64_t kvm_probe_ns(void)
{
	const char *env = getenv("LATLAB_KVM_PROBE_TIMEOUT");
	int64_t ns;

	if (env && units_parse_duration(env, &ns) == 0 && ns >= NS_PER_S && ns <= 30 * NS_PER_S)
		return ns;
	return 30 * NS_PER_S;
}

/*
 * The ids of variant v's cells still to run (of the rounds r when set:
 * a boot takes a round or several), in run order, one a line
 * (malloc'ed), with their count and the index of the first; NULL when
 * there are none. A cell a guest beside this one measures is not.
 */
static char *pending_ids(const struct campaign *cp, int v, struct cp_rounds r, int *n,
			 int *first, int *writes, int *nets)
{
	char section[CFG_NAME_MAX + 16];
	const char *key;

	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	*n = 0;
	*first = -1;
	*writes = 0;
	*nets = 0;
	for (int k = 0; fp && k < cp->ncells; k++) {
		int i = cp->order[k];

		/* an error is final for this run, as here (a resume runs it
		 * again); a boot of some rounds takes their cells */
		if (cp->cells[i].kernel == v && !cp_done(cp->lg.status[i]) &&
		    cp->lg.status[i] != CELL_ERROR && cp->lg.status[i] != CELL_RUNNING &&
		    (!r.first || (cp->cells[i].repeat >= r.first && cp->cells[i].repeat <= r.last))) {
			fprintf(fp, "%s\n", cp->cells[i].id);
			if (where_cell_files(cp->cfg, &cp->cells[i], &key, section, sizeof(section), NULL))
				*writes = 1;
			if (where_cell_net(cp->cfg, &cp->cells[i]))
				*nets = 1;
			if (!(*n)++)
				*first = i;
		}
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
	cp_give_up_variant(cp, v, why);
	return cp_write(cp);
}

/* vm_give_up, as the status a runner returns: EXIT_RUNTIME, or -errno. */
static int give_up_status(struct campaign *cp, int v, const char *why)
{
	int rc = vm_give_up(cp, v, why);

	return rc ? rc : EXIT_RUNTIME;
}

/* A runner's program (qemu, podman) on PATH: 0, or the variant given up with why (give_up_status). */
static int need_program(struct campaign *cp, int v, const char *program, const char *why)
{
	char path[PATH_MAX];

	return path_lookup(program, path, sizeof(path)) == 0 ? 0 : give_up_status(cp, v, why);
}

/*
 * What a boot leaves of variant v's cells: the cell running when the
 * guest hung or died fails; a boot that ran nothing counts against
 * boot_attempts; a guest that finished with cells left cannot run them.
 * Folds into *status; 0 or -errno.
 */
static int vm_after_boot(struct campaign *cp, int v, struct cp_rounds round, int only,
			 const struct vm_outcome *out, const char *console, int *status)
{
	const struct config *cfg = cp->cfg;
	const char *name = cfg->kernel[v].name;
	int i = out->running[0] ? cp_cell_index(cp, out->running) : -1, n, first;
	char why[PATH_MAX + 700];

	if (i >= 0) {
		cp_fold(status, CELL_FAIL);
		return vm_fail_cell(cp, i, out, console);
	}
	if (!out->done && !out->finished) {
		cp->lg.boot_tries[v]++;
		log_error("kernel variant %s: %s (boot %d of %lld; console log: %s)",
			  name, out->why, cp->lg.boot_tries[v],
			  (long long)cfg->campaign.boot_attempts, console);
		if (cp->lg.boot_tries[v] < cfg->campaign.boot_attempts)
			return cp_write(cp);
		snprintf(why, sizeof(why), "kernel variant %s did not run %s after %d %s: %.500s",
			 name, cfg->kernel[v].runner == RUNNER_CONTAINER ? "in a container" : "in qemu",
			 cp->lg.boot_tries[v],
			 cfg->kernel[v].runner == RUNNER_CONTAINER ? "containers" : "boots", out->why);
		*status = EXIT_RUNTIME;
		return vm_give_up(cp, v, why);
	}
	int writes, nets;
	char *left = out->done ? pending_ids(cp, v, round, &n, &first, &writes, &nets) : NULL;
	/* a container of one cell that ran it leaves the round's others to the next */
	if (left && only >= 0 &&
	    (cp_done(cp->lg.status[only]) || cp->lg.status[only] == CELL_ERROR)) {
		free(left);
		left = NULL;
	}
	if (left) {
		free(left);
		snprintf(why, sizeof(why), "the %s of kernel variant %s finished without running it (see %s)",
			 cfg->kernel[v].runner == RUNNER_CONTAINER ? "container" : "guest", name, console);
		*status = EXIT_RUNTIME;
		return vm_give_up(cp, v, why);
	}
	return cp_write(cp);
}

/* What a boot of variant v is about to be, said (the clock once per variant). */
/* " of round 2", " of rounds 1-3" (with of_all: " of 5" after), or "" for a blocked campaign's one. */
static void rounds_words(const struct campaign *cp, struct cp_rounds round, int of_all,
			 char *buf, size_t len)
{
	char all[32] = "";

	buf[0] = '\0';
	if (!round.first)
		return;
	if (of_all)
		snprintf(all, sizeof(all), " of %lld", (long long)cp->cfg->campaign.repeat);
	if (round.first == round.last)
		snprintf(buf, len, " of round %d%s", round.first, all);
	else
		snprintf(buf, len, " of rounds %d-%d%s", round.first, round.last, all);
}

static void say_boot(struct campaign *cp, int v, struct cp_rounds round, int accel, int probe,
		     int pending, const char *console)
{
	const struct kernel_def *k = &cp->cfg->kernel[v];
	const struct vm_arch *arch = vm_arch(k);
	char of[48] = "";

	if (k->clock == CLOCK_ICOUNT && cp_said_once(cp, v, "the clock"))
		log_info("kernel variant %s runs in qemu on an instruction-counted clock (1 instruction = %lld ns): its latencies are the kernel's code paths in instruction time, for comparing variants measured the same way, not a board's",
			 k->name, 1LL << k->icount_shift);
	else if (accel == ACCEL_TCG && k->clock != CLOCK_ICOUNT && cp_said_once(cp, v, "the clock"))
		log_warn("kernel variant %s runs in qemu under TCG (the CPU is emulated): absolute latencies are emulation-bound; only the comparison between variants measured the same way means anything",
			 k->name);
	rounds_words(cp, round, 1, of, sizeof(of));
	log_info("kernel variant %s: booting %s in qemu (%s, %s%s, %lld CPUs, %lld MiB) for %d cells%s; console: %s",
		 k->name, cp_boot_image(cp, v), arch->name,
		 accel == ACCEL_KVM ? "kvm" : k->clock == CLOCK_ICOUNT ? "tcg, icount" : "tcg",
		 probe ? ", probing KVM" : "", (long long)k->cpus,
		 (long long)(k->memory >> 20), pending, of, console);
}

/*
 * What a boot that ran ends in: results that could not be written, an
 * interrupted cell back to pending, a KVM probe that failed (no boot
 * counted), or the boot's cells judged (vm_after_boot). 0 to boot again,
 * EXIT_INTERRUPTED, or -errno.
 */
static int after_boot(struct campaign *cp, int v, struct cp_rounds round, struct vm_run *vr,
		      int probe,
		      const struct vm_outcome *out, const char *console)
{
	int rc = vr->rc;

	if (rc)
		log_error("writing results under %s: %s", cp->dir, strerror(-rc));
	if (out->host_errno) {
		log_error("kernel variant %s: %s%s", cp->cfg->kernel[v].name,
			  out->paused ? "" : "writing what the guest sent: ", out->why);
		return -out->host_errno;
	}
	if (rc)
		return rc;
	if (out->interrupted) {
		/* the cell the guest measured is still to run */
		int i = out->running[0] ? cp_cell_index(cp, out->running) : -1;

		if (i >= 0 && cp->lg.status[i] == CELL_RUNNING)
			cp->lg.status[i] = CELL_PENDING;
		rc = cp_write(cp);
		return rc ? rc : EXIT_INTERRUPTED;
	}
	if (probe && !out->hello) {
		/* not the kernel's fault: no boot counted */
		log_warn("accel = auto: a guest under KVM did not come up (%s): emulating the CPU (TCG) instead",
			 out->why);
		cp->qemu.kvm = 0;
		return 0;
	}
	if (probe) {
		log_info("accel = auto: KVM works");
		cp->qemu.kvm = 1;
	}
	return vm_after_boot(cp, v, round, vr->only, out, console, &vr->status);
}

/* The key of variant v's image = (its content; a container's, its name; 0: not known). */
uint64_t cp_image_key(const struct campaign *cp, int v)
{
	if (cp->cfg->kernel[v].runner == RUNNER_CONTAINER)
		return ct_image_key(cp->cfg->kernel[v].image);
	return cp->qemu.image ? cp->qemu.image[v].key : 0;
}

/* What variant v's guests boot: image =, or the ELF inside it (cp_qemu_images). */
const char *cp_boot_image(const struct campaign *cp, int v)
{
	return cp->qemu.image && cp->qemu.image[v].path[0] ? cp->qemu.image[v].path
							     : cp->cfg->kernel[v].image;
}

void cp_qemu_images(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;

	free(cp->qemu.image);
	cp->qemu.image = calloc((size_t)cfg->nkernels, sizeof(*cp->qemu.image));
	for (int v = 0; cp->qemu.image && v < cfg->nkernels; v++) {
		const struct kernel_def *k = &cfg->kernel[v];
		struct vm_image *im = &cp->qemu.image[v];
		int n, first, writes, nets;
		char *left;

		if (where_variant(cfg, v, &cp->kernel) != WHERE_QEMU ||
		    !(left = pending_ids(cp, v, (struct cp_rounds){ 0, 0 }, &n, &first, &writes, &nets)))
			continue;
		free(left);
		if (!vm_image(k, im)) {
			log_info("kernel variant %s boots %s as it is: %s", k->name, k->image, im->why);
			continue;
		}
		char t[32];

		units_format_elapsed(im->unpack_ns, t, sizeof(t));
		log_info("kernel variant %s: %s is a bzImage: booting the ELF kernel inside it at its PVH entry, %s (%s payload, %.1f MB%s)",
			 k->name, k->image, im->path, im->packer, (double)im->size / 1e6,
			 im->cached ? ", from the cache, checked against the image" : "");
		if (im->remade)
			log_warn("kernel variant %s: the cached copy did not match its image (its size, digest or ELF): unpacked again",
				 k->name);
		if (!im->cached)
			log_info("kernel variant %s: unpacked in %s, kept for the next run (by the image's content)",
				 k->name, t);
	}
	/* the cache kept to its size, never trimming what this run boots */
	const char **keep = calloc((size_t)cfg->nkernels + 1, sizeof(*keep));

	for (int v = 0; keep && cp->qemu.image && v < cfg->nkernels; v++)
		keep[v] = cp->qemu.image[v].elf ? cp->qemu.image[v].path : NULL;
	if (keep)
		vm_cache_trim(keep, cfg->nkernels);
	free(keep);
}

/* Variant v's guest of the rounds `round` runs now (on), or no more. Under cp->lock. */
static void booted(struct campaign *cp, int v, struct cp_rounds round, int on)
{
	int n = cp->qemu.nbooted;
	int max = (int)(sizeof(cp->qemu.booted) / sizeof(cp->qemu.booted[0]));

	if (on && n < max) {
		cp->qemu.booted[cp->qemu.nbooted++] = (struct cp_booted){ v, round };
		return;
	}
	for (int b = 0; !on && b < n; b++)
		if (cp->qemu.booted[b].v == v && cp->qemu.booted[b].round.first == round.first) {
			cp->qemu.booted[b] = cp->qemu.booted[n - 1];
			cp->qemu.nbooted--;
			return;
		}
}

/*
 * A boot ended: what it took, and the campaign's time left as estimate.c
 * sees it now (the boots just measured included). Under cp->lock.
 */
static void say_left(struct campaign *cp, int v, struct cp_rounds round,
		     const struct vm_outcome *out)
{
	const char *name = cp->cfg->kernel[v].name;
	unsigned char *left = calloc((size_t)cp->ncells + 1, 1);
	uint64_t *keys = calloc((size_t)cp->cfg->nkernels + 1, sizeof(*keys));
	struct est_said said;
	char up[48] = "", rest[32], of[48];
	int done = 0;

	if (!left || !keys)
		goto out;
	for (int i = 0; i < cp->ncells; i++) {
		const struct cell *c = &cp->cells[i];

		left[i] = !cp_done(cp->lg.status[i]) && cp->lg.status[i] != CELL_ERROR ? EST_TO_RUN : 0;
		done += !left[i];
		for (int b = 0; left[i] && b < cp->qemu.nbooted; b++) {
			const struct cp_booted *g = &cp->qemu.booted[b];

			if (g->v == c->kernel && (!g->round.first || (c->repeat >= g->round.first &&
								      c->repeat <= g->round.last)))
				left[i] = EST_BOOTED;
		}
	}
	const char *boot = cp->cfg->kernel[v].runner == RUNNER_CONTAINER ? "container" : "boot";

	rounds_words(cp, round, 0, of, sizeof(of));
	if (out->hello)
		snprintf(up, sizeof(up), " (%.1f s to latlab in it)", out->up_ns / 1e9);
	if (done == cp->ncells) {
		log_info("kernel variant %s: its %s%s took %.1f s%s; all %d cells done", name, boot, of,
			 out->wall_ns / 1e9, up, done);
		goto out;
	}
	for (int k = 0; k < cp->cfg->nkernels; k++)
		keys[k] = cp_image_key(cp, k);
	struct est_input in = { cp->cfg, cp->cells, cp->ncells, left, &cp->kernel, keys,
				cp->qemu.jobs };
	units_format_elapsed(est_campaign(&in, &said), rest, sizeof(rest));
	log_info("kernel variant %s: its %s%s took %.1f s%s; %d of %d cells done, about %s left",
		 name, boot, of, out->wall_ns / 1e9, up, done, cp->ncells, rest);
out:
	free(left);
	free(keys);
}

/*
 * Every pending cell of variant v (of the rounds `round`; 0, 0: all), in qemu:
 * boot, run what is left, and again after a guest that hung or died,
 * until each cell is done or the variant is given up (boot_attempts
 * boots that ran nothing). Returns the exit status of its cells,
 * EXIT_INTERRUPTED, or -errno when the results cannot be written.
 *
 * Guests of other variants or rounds may run beside it (campaign_pool.c):
 * cp->lock is held throughout but while the initramfs is written and the
 * guest runs (its hooks take it).
 */
/*
 * What a cell of variant v may send of its files in all (vm_boot's
 * cell_bytes_max): 1 GiB (spike captures, logs) and four times the
 * variant's largest cell's estimate (cp_cell_need), at most 64 blobs.
 */
static int64_t cell_files_max(const struct campaign *cp, int v)
{
	double most = 0;

	for (int i = 0; i < cp->ncells; i++) {
		if (cp->cells[i].kernel != v)
			continue;
		double need = cp_cell_need(cp, &cp->cells[i]);

		if (need > most)
			most = need;
	}
	most = 1073741824.0 + 4 * most;
	return most < (double)CHAN_BLOB_MAX * 64 ? (int64_t)most : CHAN_BLOB_MAX * 64;
}

/* The resolved config a guest or a container is given (malloc'ed), or NULL. */
static char *guest_config(const struct config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return NULL;
	config_write_ini(fp, cfg);
	if (fclose(fp) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * Cell i, whose load could not start on the host: an error before it had
 * a directory (as a guest's that failed so), folded into *status. 0 or
 * -errno.
 */
static int outside_error(struct campaign *cp, int i, const char *host, const char *why,
			 int *status)
{
	struct cell_result res = { .status = CELL_ERROR };
	struct utsname u;

	if (uname(&u) != 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(res.reason, sizeof(res.reason), "%.500s", why);
	log_error("%s: %s", cp->cells[i].id, why);
	ledger_settle(&cp->lg, i, CELL_ERROR, why,
		      ledger_rows(cp->cfg, &cp->cells[i], CELL_ERROR, &res, host, u.release,
				  cp->env.policy));
	cp_fold(status, CELL_ERROR);
	int rc = ledger_progress(&cp->lg, cp->dir, i);

	return rc ? rc : cp_write(cp);
}

/*
 * What a boot (a guest's, a container's: who) said, taken: a word of
 * its not taken, said; its times kept for the next estimate; its cells
 * (after_boot); what is left said. 0, or after_boot's status.
 */
static int took_boot(struct campaign *cp, int v, struct cp_rounds round, struct vm_run *vr,
		     int probe, struct vm_outcome *out, const char *console, const char *who)
{
	const struct kernel_def *k = &cp->cfg->kernel[v];
	int rc;

	if (out->hello_note[0])
		log_warn("kernel variant %s: the %s's %s", k->name, who, out->hello_note);
	if (out->hello && out->done)
		est_record_boot(k, cp_image_key(cp, v), out->up_ns, out->down_ns);
	rc = after_boot(cp, v, round, vr, probe, out, console);
	if (rc == 0)
		say_left(cp, v, round, out);
	free(out->sysinfo);
	return rc;
}

/*
 * Every pending cell of container variant v (of the rounds `round`): a
 * podman run of them, again after a container that died, until each is
 * done or the variant given up (boot_attempts runs that ran nothing),
 * as a qemu variant's boots (docs/containers.md).
 */
static int run_container(struct campaign *cp, int v, struct cp_rounds round)
{
	const struct config *cfg = cp->cfg;
	const struct kernel_def *k = &cfg->kernel[v];
	struct vm_run vr = { .cp = cp, .v = v, .status = EXIT_PASS, .only = -1 };
	struct vm_hooks hooks = { &vr, vm_started, vm_finished, vm_stop, vm_said };
	char vmdir[PATH_MAX + 8], log[PATH_MAX + 80], unused[PATH_MAX + 80], host[160],
	     why[600], of[48];
	char *config_text, *cells;
	int rc, pending, first, writes, nets;

	pthread_mutex_lock(&cp->lock);
	/* nothing left of it (given up at an earlier round): nothing to check or say */
	cells = pending_ids(cp, v, round, &pending, &first, &writes, &nets);
	int any = cells != NULL;

	free(cells);
	if (!any) {
		pthread_mutex_unlock(&cp->lock);
		return EXIT_PASS;
	}
	/* podman and the image at the variant's first start, not every round's (a podman process) */
	if (cp_said_once(cp, v, "podman and its image checked")) {
		rc = need_program(cp, v, "podman", "podman is not on PATH (apt-get install podman; make deps installs it)");
		if (rc == 0 && ct_image_present(k->image, why, sizeof(why)) != 0)
			rc = give_up_status(cp, v, why);
		if (rc) {
			pthread_mutex_unlock(&cp->lock);
			return rc;
		}
	}
	if (!(config_text = guest_config(cfg))) {
		pthread_mutex_unlock(&cp->lock);
		return -ENOMEM;
	}
	vr.config_text = config_text;
	snprintf(vmdir, sizeof(vmdir), "%s/vm", cp->dir);
	snprintf(host, sizeof(host), "%.120s-ct", cp->host);
	rc = mkdir_p(vmdir);
	while (rc == 0 && (cells = pending_ids(cp, v, round, &pending, &first, &writes, &nets)) != NULL) {
		struct vm_outcome out;
		struct ct_outside outside;
		const struct load_def *l = &cfg->load[cp->cells[first].load];
		/* load_in = host: a container a cell, its load here around it */
		int here = config_load_outside(k, l);

		rc = cp_signalled(cp) ? EXIT_INTERRUPTED : cp_check_space(cp, &cp->cells[first]);
		if (rc) {
			free(cells);
			break;
		}
		vr.only = -1;
		if (k->load_in == LOAD_IN_HOST) {
			cells[strcspn(cells, "\n") + 1] = '\0';
			pending = 1;
			vr.only = first;
		}
		if (here && outside_start(cp, first, &outside, why, sizeof(why)) != 0) {
			outside_end(&outside, NULL);
			free(cells);
			rc = outside_error(cp, first, host, why, &vr.status);
			continue;
		}
		/* NAME-N.console.log: the container's log, podman's with it (the
		 * qemu.log name beside it is not made, nor used) */
		vm_log_paths(cp, v, log, unused, sizeof(log));
		rounds_words(cp, round, 1, of, sizeof(of));
		char budget[96] = "", beside[CFG_NAME_MAX + 64] = "";

		if (ct_rt_hierarchy(why, sizeof(why)) == 0)
			snprintf(budget, sizeof(budget), ", a real-time budget of %lld ms a second",
				 (long long)(k->rt_runtime / NS_PER_MS));
		if (here)
			snprintf(beside, sizeof(beside), ", load %s on the host outside it", l->name);
		log_info("kernel variant %s: starting %s in podman (this machine's kernel%s%s) for %d cells%s; its log: %s",
			 k->name, k->image, budget, beside, pending, of, log);
		struct ct_boot b = {
			.cfg = cfg, .variant = v, .config_text = config_text, .cells_text = cells,
			.log = log, .tree = cp->dir, .hostname = host,
			.cell_bytes_max = cell_files_max(cp, v),
		};
		vr.outside = here ? &outside : NULL;
		booted(cp, v, round, 1);
		pthread_mutex_unlock(&cp->lock);
		rc = ct_boot(&b, &hooks, &out);
		if (here)
			outside_end(&outside, log);
		pthread_mutex_lock(&cp->lock);
		vr.outside = NULL;
		booted(cp, v, round, 0);
		free(cells);
		if (rc) {
			snprintf(why, sizeof(why), "cannot start podman: %s", strerror(-rc));
			vr.status = EXIT_RUNTIME;
			rc = vm_give_up(cp, v, why);
			break;
		}
		rc = took_boot(cp, v, round, &vr, 0, &out, log, "container");
	}
	pthread_mutex_unlock(&cp->lock);
	free(config_text);
	return rc ? rc : vr.status;
}

/* What a boot of a variant is given for its cells. */
struct boot_devs {
	int writes, nets;	/* its cells write files; send over IP */
	int disk;		/* a disk (disk = on or modelled) */
	int file;		/* qemu's: a file on the host behind a virtio-blk card */
	int net;		/* two cards on a hub (net = device) */
	int veth;		/* a veth pair (net = veth) */
};

static struct boot_devs boot_devs(const struct kernel_def *k, int writes, int nets)
{
	struct boot_devs d = { .writes = writes, .nets = nets };

	d.disk = writes && k->disk != DISK_RAM;
	d.file = d.disk && k->disk == DISK_ON;
	d.net = nets && k->net == NET_DEVICE;
	d.veth = nets && k->net == NET_VETH;
	return d;
}

/* Said before a boot: the devices it is given, or what its cells go without. */
static void say_devices(const struct kernel_def *k, const struct boot_devs *d)
{
	if (d->disk) {
		char size[32], t[32];

		units_format_size(k->disk_size, size, sizeof(size));
		units_format_duration(k->disk_time, t, sizeof(t));
		if (d->file)
			log_info("kernel variant %s: its cells write files: a disk of its own for this boot (virtio-blk, ext4, %s, cache=%s, at " VM_DISK_MOUNT " in the guest; removed after the boot)",
				 k->name, size, vm_disk_caches[k->disk_cache]);
		else
			log_info("kernel variant %s: its cells write files: a modelled disk for this boot (null_blk in the guest's memory, each request completed by a timer %s after it is queued, in the guest's own clock, queue depth %lld; ext4, %s, at " VM_DISK_MOUNT ")",
				 k->name, t, (long long)k->disk_depth, size);
	} else if (d->writes) {
		log_warn("kernel variant %s: disk = ram: its cells' files are in the guest's RAM (no block device, no disk interrupt)",
			 k->name);
	}
	if (d->net)
		log_info("kernel variant %s: its cells send over IP: two virtio-net cards on a hub inside qemu, the peer behind the second (" VM_NET_PEER ") in a network namespace of its own",
			 k->name);
	else if (d->veth)
		log_info("kernel variant %s: its cells send over IP: a veth pair, the peer behind its twin (" VM_NET_PEER ") in a network namespace of its own (softirqs, no device or its interrupt)",
			 k->name);
	else if (d->nets)
		log_warn("kernel variant %s: net = loopback: its cells' traffic stays on 127.0.0.1 (softirqs, no network device or its interrupt)",
			 k->name);
	/* latlab does not know what they do: a device or netdev of their own */
	if (k->qemu_args[0])
		log_info("kernel variant %s: qemu_args adds %s to qemu's command (the first line of vm/%s-N.qemu.log: the whole command)",
			 k->name, k->qemu_args, k->name);
}

/*
 * A boot's files, made outside the campaign's lock: its initramfs at
 * cpio and its disk — a file at disk, or a modelled one whose filesystem
 * goes in the initramfs. 0, or -errno with what could not be made in
 * *what and why in err (nothing of it left behind).
 */
static int boot_files(const struct kernel_def *k, struct vm_guest *g, const struct boot_devs *d,
		      const char *cpio, const char *disk, const char **what, char *err,
		      size_t len)
{
	struct vm_disk_pack pack = { 0 };
	int rc = 0;

	*what = "initramfs";
	if (d->disk && !d->file) {
		rc = vm_disk_pack(disk, k->disk_size, &pack, err, len);
		*what = "disk";
		g->pack = &pack;
	}
	if (rc == 0 && (rc = vm_initramfs(g, cpio, err, len)) != 0)
		*what = "initramfs";
	vm_disk_pack_free(&pack);
	g->pack = NULL;
	if (rc == 0 && d->file && (rc = vm_disk_make(disk, k->disk_size, err, len)) != 0) {
		*what = "disk";
		unlink(cpio);
	}
	return rc;
}

int cp_run_qemu(struct campaign *cp, int v, struct cp_rounds round)
{
	const struct config *cfg = cp->cfg;
	const struct kernel_def *k = &cfg->kernel[v];

	if (k->runner == RUNNER_CONTAINER)
		return run_container(cp, v, round);
	struct vm_run vr = { .cp = cp, .v = v, .status = EXIT_PASS, .only = -1 };
	struct vm_hooks hooks = { &vr, vm_started, vm_finished, vm_stop, vm_said };
	char vmdir[PATH_MAX + 8], cpio[PATH_MAX + 80], console[PATH_MAX + 80],
	     qlog[PATH_MAX + 80], err[512], host[160];
	char *config_text, *cells;
	char disk[PATH_MAX + 80], mods[PATH_MAX];
	int rc, pending, first, writes, nets;

	pthread_mutex_lock(&cp->lock);
	const struct vm_arch *arch = vm_arch(k);
	snprintf(err, sizeof(err), "%s is not on PATH (install %s: make deps)", arch->qemu,
		 arch->package);
	if ((rc = need_program(cp, v, arch->qemu, err)) != 0) {
		pthread_mutex_unlock(&cp->lock);
		return rc;
	}
	if (!(config_text = guest_config(cfg))) {
		pthread_mutex_unlock(&cp->lock);
		return -ENOMEM;
	}
	vr.config_text = config_text;
	snprintf(vmdir, sizeof(vmdir), "%s/vm", cp->dir);
	snprintf(host, sizeof(host), "%.120s-vm", cp->host);
	const int64_t cell_bytes_max = cell_files_max(cp, v);
	rc = mkdir_p(vmdir);
	cp_remove_stale_temps(vmdir);	/* an initramfs of a latlab killed while booting */
	while (rc == 0 && (cells = pending_ids(cp, v, round, &pending, &first, &writes, &nets)) != NULL) {
		int probe, accel = choose_accel(cp, k, &probe);
		const struct boot_devs d = boot_devs(k, writes, nets);
		const char *what = "initramfs";
		struct vm_guest g = {
			.cfg = cfg, .variant = v, .accel = accel, .config_text = config_text,
			.cells_text = cells, .hostname = host, .disk = d.disk, .net = d.net,
			.veth = d.veth,
		};
		struct vm_outcome out;

		/* modules = is the user's; else the image's own (plan checked them) */
		if ((d.disk || d.net || d.veth) && !k->modules[0] &&
		    vm_device_modules(k, d.disk ? vm_disk_modules(k) : d.net ? "net.list" : "veth.list",
				      mods, sizeof(mods), err, sizeof(err)) == 0)
			g.device_modules = mods;
		snprintf(disk, sizeof(disk), "%s/%s-%d.disk.tmp.%d", vmdir, k->name, round.first,
			 (int)getpid());
		say_devices(k, &d);
		rc = cp_signalled(cp) ? EXIT_INTERRUPTED : cp_check_space(cp, &cp->cells[first]);
		if (rc == 0) {
			/* one a boot: a variant's boots may run side by side */
			snprintf(cpio, sizeof(cpio), "%s/%s-%d.initramfs.tmp.%d", vmdir,
				 k->name, round.first, (int)getpid());
			pthread_mutex_unlock(&cp->lock);
			rc = boot_files(k, &g, &d, cpio, disk, &what, err, sizeof(err));
			pthread_mutex_lock(&cp->lock);
			if (rc == -ENOSPC || rc == -EDQUOT) {
				log_error("%s", err);	/* the host's disk: stop, give nothing up */
			} else if (rc < 0) {
				char why[600];

				snprintf(why, sizeof(why), "no %s for the guest: %s", what, err);
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
		say_boot(cp, v, round, accel, probe, pending, console);
		struct vm_boot b = {
			.cfg = cfg, .variant = v, .accel = accel, .kernel = cp_boot_image(cp, v),
			.initramfs = cpio, .console_log = console, .qemu_log = qlog,
			.tree = cp->dir, .disk = d.file ? disk : NULL, .net = d.net,
			.hostname = host,
			.cell_bytes_max = cell_bytes_max,
			.boot_timeout = probe && k->boot_timeout > kvm_probe_ns() ? kvm_probe_ns()
										   : k->boot_timeout,
		};
		booted(cp, v, round, 1);
		pthread_mutex_unlock(&cp->lock);
		rc = vm_boot(&b, &hooks, &out);
		pthread_mutex_lock(&cp->lock);
		booted(cp, v, round, 0);
		unlink(cpio);
		if (d.file)
			unlink(disk);
		if (rc) {
			char why[300];

			snprintf(why, sizeof(why), "cannot start %s: %s", arch->qemu,
				 strerror(-rc));
			vr.status = EXIT_RUNTIME;
			rc = vm_give_up(cp, v, why);
			break;
		}
		rc = took_boot(cp, v, round, &vr, probe, &out, console, "guest");
	}
	pthread_mutex_unlock(&cp->lock);
	free(config_text);
	return rc ? rc : vr.status;
}
