#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "campaign_run.h"
#include "cellfiles.h"
#include "exitcodes.h"
#include "log.h"
#include "thresholds.h"

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

static int write_partial(void *arg, struct cell_result *part)
{
	const struct partial *p = arg;

	return cell_write(p->cp->cfg, p->c, &p->cp->env, &p->cp->si, part, p->dir);
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
	int sig = cell_run(cp->cfg, c, &env, dir, &res);

	snprintf(res.preempt, sizeof(res.preempt), "%s", cp->kernel.model);
	if (tk.tty && tk.last_ns)
		fputs("\r\033[K", stderr);	/* the per-cell line replaces it */

	/* a guest under TCG: its CPU is emulated (the host passes kvm or tcg) */
	cell_check_thresholds(cp->cfg, &res, cp->ro->guest && cp->ro->guest_accel &&
			      strcmp(cp->ro->guest_accel, "kvm") != 0);
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
	cp_progress(c, &res, cp->cfg->workload[c->workload].ops->primary, nth, run_n);
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
