#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic.h"
#include "axis_ops.h"
#include "campaign_run.h"
#include "cellfiles.h"
#include "exitcodes.h"
#include "guest.h"
#include "ledger.h"
#include "log.h"
#include "channel.h"
#include "undo.h"
#include "units.h"
#include "thresholds.h"
#include "vouch.h"

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

int cp_signalled(struct campaign *cp)
{
	struct timespec zero = { 0, 0 };
	sigset_t sigs;

	if (atomic_load(&cp->signalled))
		return 1;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	if (sigtimedwait(&sigs, NULL, &zero) <= 0)
		return 0;
	atomic_store(&cp->signalled, 1);	/* taken here: the others ask the flag */
	return 1;
}

/* A cell an earlier run finished: kept when resuming. */
int cp_done(enum cell_status st)
{
	return st == CELL_OK || st == CELL_FAIL || st == CELL_SKIPPED;
}

/* Cell i is skipped, with why. */
void cp_skip(struct campaign *cp, int i, const char *why)
{
	struct cell_result res = { .status = CELL_SKIPPED };

	snprintf(res.reason, sizeof(res.reason), "%s", why);
	ledger_settle(&cp->lg, i, CELL_SKIPPED, why, cp_rows(cp, &cp->cells[i], CELL_SKIPPED, &res));
}

/* Every pending cell of variant v is given up: skipped, with why. */
void cp_give_up_variant(struct campaign *cp, int v, const char *why)
{
	for (int i = 0; i < cp->ncells; i++)
		if (cp->cells[i].kernel == v && !cp_done(cp->lg.status[i]))
			cp_skip(cp, i, why);
}

int cp_said_once(struct campaign *cp, int v, const char *line)
{
	char *key, **more;

	if (asprintf(&key, "%s\t%s", cp->cfg->kernel[v].name, line) < 0)
		return 1;	/* no memory to remember it: said again */
	for (int i = 0; i < cp->qemu.nsaid; i++)
		if (strcmp(cp->qemu.said[i], key) == 0) {
			free(key);
			return 0;
		}
	more = realloc(cp->qemu.said, (size_t)(cp->qemu.nsaid + 1) * sizeof(*more));
	if (!more) {
		free(key);
		return 1;
	}
	cp->qemu.said = more;
	cp->qemu.said[cp->qemu.nsaid++] = key;
	return 1;
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

/* What a checkpoint of the running cell is written with. */
struct partial {
	const struct campaign *cp;
	const struct cell *c;
	const char *dir;
};

/*
 * How cell c's machine runs (vouch.h): here, 0; a guest under KVM, 0; a
 * guest under TCG (the host passes kvm or tcg), EMU_ICOUNT on the
 * instruction clock, else EMU_TCG.
 */
static int cp_emulated(const struct campaign *cp, const struct cell *c)
{
	if (!cp->ro->guest || !cp->ro->guest_accel || strcmp(cp->ro->guest_accel, "kvm") == 0)
		return 0;
	return cp->cfg->kernel[c->kernel].clock == CLOCK_ICOUNT ? EMU_ICOUNT : EMU_TCG;
}

static int write_partial(void *arg, struct cell_result *part)
{
	const struct partial *p = arg;

	return cell_write(p->cp->cfg, p->c, &p->cp->env, &p->cp->si, part, p->dir);
}

/* Does cell c run code latlab did not write (a plugin, a chain's plugin step)? */
static int runs_foreign(const struct campaign *cp, const struct cell *c)
{
	const struct workload_def *wd = &cp->cfg->workload[c->workload];

	return wd->ops->loads && wd->ops->loads(wd->opts);
}

/*
 * Beyond the cell's duration: its set-up, its end and its files. A step
 * that has not returned by then never will (a blocked one holds its
 * thread, which the cell's end joins).
 */
#define APART_GRACE_NS (15 * NS_PER_S)

/*
 * Has the cell's time run out? The guest's (or host's) clock past the
 * deadline; in an instruction-clock guest the host's time must agree.
 * There the guest's clock jumps to its next timer whenever the guest
 * waits for the host with nothing to run (sleep=off: a disk's flush on
 * the host), and the 20 ms polls below are such timers: a flush that
 * takes the host a second can be minutes of guest time. So once the
 * guest's clock is past the deadline, the host's clock (the RTC, which
 * qemu keeps on the host's time) must go on another APART_GRACE_NS
 * before the cell is a hang; *rtc_at holds when that wait began (-1:
 * not yet; it stays -1 where the guest has no RTC: the guest's clock
 * alone then).
 */
static int apart_overdue(const struct campaign *cp, int64_t deadline, int64_t *rtc_at)
{
	int64_t now;

	if (units_now_ns() <= deadline)
		return 0;
	if (!cp->ro->guest || !cp_icount_guest(&cp->cfg->kernel[cp->guest.v]))
		return 1;
	now = guest_host_seconds();
	if (now < 0)
		return 1;
	if (*rtc_at < 0)
		*rtc_at = now;
	return now - *rtc_at >= APART_GRACE_NS / NS_PER_S;
}

int cp_kill_descendants(void)
{
	int killed = 0;

	/* a child killed hands its own children to us (a subreaper): again until none */
	for (int pass = 0; pass < 64; pass++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		int found = 0;

		while (d && (e = readdir(d))) {
			char path[128], buf[4096];
			int fd;
			ssize_t n;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%.32s/children", e->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
			if (fd >= 0)
				close(fd);
			buf[n > 0 ? n : 0] = '\0';
			for (char *q = buf, *end; *q; q = end) {
				long child = strtol(q, &end, 10);

				if (end == q)
					break;
				if (child > 0 && kill((pid_t)child, SIGKILL) == 0) {
					waitpid((pid_t)child, NULL, 0);
					found++;
				}
			}
		}
		if (d)
			closedir(d);
		killed += found;
		if (!found)
			break;
	}
	return killed;
}

/* What the cell's process says at its end, a line: STATUS FATAL SIG BRIEF REASON. */
struct apart_word {
	int said, status, fatal, sig;
	char brief[256], reason[256];
};

/*
 * The cell in a process of its own, which measures, judges, writes its
 * files and prints its line as cp_run_here does, then says its outcome
 * on fd and ends. Never returns.
 */
static void apart_child(struct campaign *cp, const struct cell *c, struct run_env *env,
			const char *dir, int nth, int run_n, int lava, int fd)
{
	struct cell_result res;
	struct chan_brief b;
	char brief[256];

	/*
	 * Its own process group, and every orphan of the code it runs comes
	 * back to it (a subreaper): what that code forks ends with the cell
	 */
	setpgid(0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* memory locks are not inherited across fork */
	if (cp->env.mlocked)
		mlockall(MCL_CURRENT | MCL_FUTURE);
	int sig = cell_run(cp->cfg, c, env, dir, &res);
	int left = cp_kill_descendants();

	snprintf(res.preempt, sizeof(res.preempt), "%s", cp->kernel.model);
	cell_check_thresholds(cp->cfg, c, &res, cp_emulated(cp, c));
	if (left && res.status != CELL_ERROR) {	/* the code's processes outlived its cell */
		res.status = CELL_FAIL;
		snprintf(res.reason, sizeof(res.reason),
			 "the cell's code left %d process%s running after the cell (forked by a plugin?): killed",
			 left, left == 1 ? "" : "es");
	}
	int rc = res.nthreads || res.status != CELL_OK
		 ? cell_write(cp->cfg, c, &cp->env, &cp->si, &res, dir) : 0;

	cp_progress(c, &res, cp->cfg->workload[c->workload].ops->primary, nth, run_n);
	if (lava)
		cp_lava(c, &res);
	cp_brief(&b, &res);
	chan_brief_format(&b, brief, sizeof(brief));
	for (char *p = res.reason; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	dprintf(fd, "%d\t%d\t%d\t%s\t%s\n", rc ? (int)CELL_ERROR : (int)res.status, res.fatal,
		sig, brief, rc ? strerror(-rc) : res.reason);
	fflush(NULL);
	_exit(0);
}

/*
 * The word the cell's process said on fd (nothing if it died first),
 * read without waiting: its process has ended, and an orphan of its
 * code that holds the pipe's other end must not hold latlab.
 */
static void apart_read(int fd, struct apart_word *w)
{
	char line[1024];
	FILE *fp;

	memset(w, 0, sizeof(*w));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return;
	}
	if (fgets(line, sizeof(line), fp)) {
		char *save = NULL, *f[5];
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		for (char *t = strtok_r(line, "\t", &save); t && n < 5; t = strtok_r(NULL, "\t", &save))
			f[n++] = t;
		if (n >= 4) {
			w->said = 1;
			w->status = atoi(f[0]);
			w->fatal = atoi(f[1]);
			w->sig = atoi(f[2]);
			snprintf(w->brief, sizeof(w->brief), "%s", f[3]);
			snprintf(w->reason, sizeof(w->reason), "%s", n == 5 ? f[4] : "");
		}
	}
	fclose(fp);
}

/*
 * Wait for the cell's process pid to end, its wait status in *st: passed
 * a signal of latlab's (SIGTERM), killed if it has not ended 3 s after
 * that or when overdue (apart_overdue: deadline, *rtc_at its wait on the
 * host's clock). 1 if it was killed.
 */
static int wait_apart(struct campaign *cp, pid_t pid, int64_t deadline, int *st, int64_t *rtc_at)
{
	int64_t told = 0;	/* when a signal of ours was passed on */
	int killed = 0;

	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			break;
		/* SIGINT or SIGTERM to latlab: the cell's process ends its cell
		 * too, and is killed if it has not within 3 s (a step that
		 * blocks holds its thread for good) */
		if (cp_signalled(cp) && !told) {
			kill(pid, SIGTERM);
			told = units_now_ns();
		}
		if (!killed && (apart_overdue(cp, deadline, rtc_at) ||
				(told && units_now_ns() - told > 3 * NS_PER_S))) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		usleep(20000);
	}
	return killed;
}

/*
 * Why the cell's process failed its cell (its wait status st, killed by
 * wait_apart, its word w, the orphans it left), into why; "" when it
 * ended as the cell's code must.
 */
static void apart_why(struct campaign *cp, int st, int killed, int64_t rtc_at,
		      const struct apart_word *w, int orphans, char *why, size_t len)
{
	char t[32];

	why[0] = '\0';
	units_format_duration(cp->cfg->campaign.duration + APART_GRACE_NS, t, sizeof(t));
	if (killed && !cp_signalled(cp) && rtc_at >= 0)
		snprintf(why, len, "the cell's code did not return within %s of the guest's time (its duration and %llds), nor within %llds more of the host's: its process was killed (a plugin that blocks?)",
			 t, (long long)(APART_GRACE_NS / NS_PER_S), (long long)(APART_GRACE_NS / NS_PER_S));
	else if (killed && !cp_signalled(cp))
		snprintf(why, len, "the cell's code did not return within %s (its duration and %llds): its process was killed (a plugin that blocks?)",
			 t, (long long)(APART_GRACE_NS / NS_PER_S));
	else if (WIFSIGNALED(st) && !w->said)
		snprintf(why, len, "the cell's process was killed by signal %d (%s) before the cell ended (a plugin's fault?)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && !w->said)
		snprintf(why, len, "the cell's process exited with status %d before the cell ended (a plugin's exit()?)",
			 WEXITSTATUS(st));
	else if (orphans)
		snprintf(why, len, "the cell's code left %d process%s running after its process ended (forked by a plugin?): killed",
			 orphans, orphans == 1 ? "" : "es");
}

/*
 * Cell i's outcome from its process into the ledger: its own files' rows
 * where its word and its cell.ini agree; else a failed cell, written
 * with why (its process's failure, or the disagreement).
 */
static void apart_record(struct campaign *cp, int i, const char *dir, const struct apart_word *w,
			 char *why, size_t len)
{
	const struct cell *c = &cp->cells[i];
	char *rows = NULL;
	enum cell_status said = CELL_ERROR;

	if (!why[0] && w->said && w->status != CELL_ERROR && w->status != CELL_SKIPPED)
		rows = ledger_rows_from_dir(cp->cfg, c, dir, cp->host, cp->kernel.release, &said);
	if (!why[0] && w->said && rows && (int)said != w->status) {
		free(rows);
		rows = NULL;
		snprintf(why, len, "the cell's process said %s, but its cell.ini says otherwise",
			 cell_status_name(w->status));
	}
	struct cell_result res;

	memset(&res, 0, sizeof(res));
	if (why[0]) {
		res.status = CELL_FAIL;
		snprintf(res.reason, sizeof(res.reason), "%s", why);
		log_error("%s: %s", c->id, why);
		cell_write(cp->cfg, c, &cp->env, &cp->si, &res, dir);
	} else {
		res.status = (enum cell_status)w->status;
		snprintf(res.reason, sizeof(res.reason), "%s", w->reason);
	}
	if (!rows)
		rows = ledger_rows(cp->cfg, c, res.status, &res, cp->host, cp->kernel.release,
				   cp->env.policy);
	ledger_settle(&cp->lg, i, res.status, res.reason, rows);
	if (w->said)
		chan_brief_parse(w->brief, &cp->brief[i]);
}

/*
 * Cell i in a process of its own (it runs code latlab did not write): a
 * crash, an exit or a hang of that code ends that process, not latlab,
 * and fails the cell with what happened; the campaign goes on. Its files
 * are read back as a guest's are. 0, EXIT_INTERRUPTED, EXIT_RUNTIME.
 */
static int run_apart(struct campaign *cp, int i, int nth, int run_n, int lava, const char *dir,
		     struct run_env *env)
{
	const struct cell *c = &cp->cells[i];
	int64_t deadline = units_now_ns() + cp->cfg->campaign.duration + APART_GRACE_NS;
	struct apart_word w;
	char why[300] = "";
	int p[2], st = 0, killed, rc;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return log_error("pipe: %s", strerror(errno)), EXIT_RUNTIME;
	/* an orphan of the cell's code whose process died first comes to latlab, to be killed */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);	/* nothing buffered is written twice by the child's exit */
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return log_error("fork: %s", strerror(errno)), EXIT_RUNTIME;
	}
	if (pid == 0) {
		close(p[0]);
		apart_child(cp, c, env, dir, nth, run_n, lava, p[1]);
	}
	setpgid(pid, pid);	/* also here: killpg works at once */
	close(p[1]);
	int64_t rtc_at = -1;	/* apart_overdue's wait on the host's clock */

	killed = wait_apart(cp, pid, deadline, &st, &rtc_at);
	/*
	 * Whatever of its group is left (its code's children, where it died
	 * before killing them), and the orphans that came to latlab
	 */
	kill(-pid, SIGKILL);
	int orphans = cp_kill_descendants();

	apart_read(p[0], &w);
	/* its word counts from a process that ended as the cell's code must: exit 0 */
	if (w.said && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		w.said = 0;
	apart_why(cp, st, killed, rtc_at, &w, orphans, why, sizeof(why));
	/* what it changed on the machine, if it died holding it: undone now */
	if (why[0])
		undo_stale(UNDO_DIR, axis_undo_roots(), NULL, NULL);

	apart_record(cp, i, dir, &w, why, sizeof(why));
	rc = ledger_progress(&cp->lg, cp->dir, i);
	if (cp->mode->cell_ended)
		cp->mode->cell_ended(cp, i, dir);
	if (rc) {
		log_error("writing results under %s: %s", cp->dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (w.fatal)
		log_error("%s", w.reason);
	return w.sig || cp_signalled(cp) ? EXIT_INTERRUPTED : w.fatal ? EXIT_RUNTIME : 0;
}

int cp_run_here(struct campaign *cp, int i, int nth, int run_n, int lava)
{
	const struct cell *c = &cp->cells[i];
	struct cell_result res;
	char dir[PATH_MAX + CELL_ID_MAX + 300];
	int rc;

	if (cp_signalled(cp))
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
	if (cp->mode->cell_started)
		cp->mode->cell_started(cp, i);
	struct ticker tk = { cp, c, nth, run_n, isatty(2), 0 };
	struct partial part = { cp, c, dir };
	struct run_env env = cp->env;

	env.checkpoint = write_partial;
	env.checkpoint_arg = &part;
	if (!cp->ro->quiet) {
		env.tick = cp_tick;
		env.tick_arg = &tk;
	}
	if (runs_foreign(cp, c))
		return run_apart(cp, i, nth, run_n, lava, dir, &env);
	int sig = cell_run(cp->cfg, c, &env, dir, &res);

	snprintf(res.preempt, sizeof(res.preempt), "%s", cp->kernel.model);
	if (tk.tty && tk.last_ns)
		fputs("\r\033[K", stderr);	/* the per-cell line replaces it */

	cell_check_thresholds(cp->cfg, c, &res, cp_emulated(cp, c));
	int written = res.nthreads || res.status != CELL_OK
		? cell_write(cp->cfg, c, &cp->env, &cp->si, &res, dir)
		: 0;
	/* files not all written (a full disk): not done, whatever it measured */
	enum cell_status st = written ? CELL_PENDING : res.status;

	ledger_settle(&cp->lg, i, st, res.reason, cp_rows(cp, c, st, &res));
	cp_brief(&cp->brief[i], &res);
	rc = written ? written : ledger_progress(&cp->lg, cp->dir, i);
	if (!written)
		cp_progress(c, &res, cp->cfg->workload[c->workload].ops->primary, nth, run_n);
	else	/* the state still says running: it runs anew */
		log_error("[%d/%d] %s: measured, but its files could not all be written (%s): it runs anew when the campaign resumes, what it wrote kept beside",
			  nth, run_n, c->id, strerror(-written));
	if (cp->mode->cell_ended)
		cp->mode->cell_ended(cp, i, dir);
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
