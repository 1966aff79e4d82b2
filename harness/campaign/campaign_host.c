#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "campaign_run.h"
#include "exitcodes.h"
#include "log.h"
#include "report.h"
#include "tree.h"
#include "treelist.h"
#include "where.h"

/* compare's own bound on trees (MAX_TREES): a baseline and the campaign */
#define MAX_BASELINE 15

int cp_check_baseline(const struct config *cfg, const char *output, char *why, size_t len)
{
	char err[PATH_MAX + 1024];
	struct tree base;
	int rc;

	if (!cfg->thresholds.baseline[0])
		return 0;
	/* read as the judgement at the end will (compare's own split and
	 * twins): a baseline it cannot read is found now, not after every
	 * cell ran; "A,B,C" is campaigns of it */
	char *trees[MAX_BASELINE] = { NULL };
	int group[MAX_BASELINE], n;

	n = tree_list_split(cfg->thresholds.baseline, "baseline =", trees, MAX_BASELINE, err,
			    sizeof(err));
	if (n == -E2BIG)
		snprintf(err, sizeof(err), "at most %d trees", MAX_BASELINE);
	rc = n < 0 ? n : 0;
	for (int i = 0; i < n; i++)
		group[i] = 1;
	if (rc == 0)
		rc = tree_list_distinct(trees, group, n, 0, err, sizeof(err));
	/* the campaign itself (when it resumes) is not its own baseline */
	char self[2 * PATH_MAX + 2];
	struct stat me, st;

	snprintf(self, sizeof(self), "%s/%s", output, cfg->campaign.name);
	for (int i = 0; rc == 0 && i < n && stat(self, &me) == 0; i++)
		if (stat(trees[i], &st) == 0 && st.st_dev == me.st_dev && st.st_ino == me.st_ino)
			rc = fail_with(err, sizeof(err), -EINVAL,
				       "'%s' is this campaign's own tree (%s): not a baseline of itself",
				       trees[i], self);
	for (int i = 0; rc == 0 && i < n; i++) {
		rc = tree_read(&base, trees[i], err, sizeof(err));
		if (rc == 0 && base.nbad)
			log_warn("baseline = %s: %d of its cells are damaged and will be left out of the judgement",
				 trees[i], base.nbad);
		if (rc == 0)
			tree_free(&base);
	}
	for (int i = 0; i < n; i++)
		free(trees[i]);
	if (rc != 0)
		fail_at(why, len, rc, cfg->baseline_loc.file, cfg->baseline_loc.line,
			"baseline = %s: %s (a results tree of an earlier run, or campaigns of it: A,B,C)",
			cfg->thresholds.baseline, err);
	return rc;
}

/* Everything the cells need is here (or in the guest): before anything is written. */
static int preflight(struct campaign *cp)
{
	const struct config *cfg = cp->cfg;
	char why[2 * PATH_MAX + 1536];
	int rc;

	if (where_preflight(cfg, cp->cells, cp->ncells, 0, why, sizeof(why)) != 0) {
		log_error("%s", why);
		return EXIT_USAGE;
	}
	int stacked = where_stacked_cells(cfg, cp->cells, cp->ncells, why, sizeof(why));
	if (stacked)
		log_warn("%s%s", why, stacked > 1 ? " (and so in more cells)" : "");
	int smt = where_smt_cells(cfg, cp->cells, cp->ncells, why, sizeof(why));
	if (smt)
		log_warn("%s%s", why, smt > 1 ? " (and so in more cells)" : "");
	rc = cp_check_baseline(cfg, cp->ro->output ? cp->ro->output : cfg->campaign.output, why,
			       sizeof(why));
	if (rc != 0) {
		log_error("%s", why);
		return rc == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	if (cp->ro->reboot &&
	    cp_reboot_check(cfg, cp->ro->output ? cp->ro->output : cfg->campaign.output, why,
			    sizeof(why)) != 0) {
		log_error("%s", why);
		return EXIT_USAGE;
	}
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

/* Run by this latlab now: the running kernel is the cell's variant. */
static int host_runs_here(const struct campaign *cp, const struct cell *c)
{
	return where_runs(cp->cfg, c, &cp->kernel) == WHERE_HERE;
}

/*
 * A qemu variant's cells run in its guests (campaign_qemu.c), a container
 * variant's in its containers (campaign_container.c), the others here. An instruction-clock guest takes several rounds a boot, all
 * queued at the first round to run beside others (cp_boot_at,
 * campaign_pool.c); one on the host's clock boots a round at a time,
 * alone, once those are done.
 */
static int host_elsewhere(struct campaign *cp, int v, int round, int *rc)
{
	const struct config *cfg = cp->cfg;

	if (!where_guest(where_variant(cfg, v, &cp->kernel)))
		return 0;
	*rc = EXIT_PASS;
	for (int b = 0; b < cp_boots_at(cfg, v, round, cp->qemu.jobs); b++) {
		struct cp_rounds r = cp_boot_at(cfg, v, round, cp->qemu.jobs, b);

		if (cp_pool_takes(cp, v)) {
			cp_pool_add(cp, v, r);
			continue;
		}
		int before = cp_pool_wait(cp);

		if (before < 0 || before == EXIT_INTERRUPTED) {
			*rc = before;
			return 1;
		}
		cp_fold_exit(rc, before);
		int now = cp_run_qemu(cp, v, r);
		if (now < 0 || now == EXIT_INTERRUPTED) {
			*rc = now;
			return 1;
		}
		cp_fold_exit(rc, now);
	}
	return 1;
}

/*
 * Started after a reboot latlab asked for: did the variant come up? And
 * what each qemu variant boots.
 */
static void host_opened(struct campaign *cp)
{
	if (cp->lg.reboot_to[0])
		cp_after_reboot(cp);
	cp_qemu_images(cp);
}

/* The cells done: against the baseline, then --reboot into the next variant. */
static void host_finish(struct campaign *cp, int *status)
{
	if (cp->cfg->thresholds.baseline[0] &&
	    (*status == EXIT_PASS || *status == EXIT_THRESHOLD))
		judge_baseline(cp, status);
	if (cp->ro->reboot && (*status == EXIT_PASS || *status == EXIT_THRESHOLD)) {
		int rs = cp_reboot_next(cp);

		if (rs != EXIT_PASS)
			*status = rs;
	}
}

/* A variant traces here when it runs on the host (a guest traces its own). */
static int host_traces(const struct campaign *cp, int v)
{
	return cp->cfg->kernel[v].runner == RUNNER_HOST;
}

/* A pending cell of a qemu or container variant is this latlab's to run too. */
static int host_left_here(const struct campaign *cp, const struct cell *c)
{
	return where_guest(where_runs(cp->cfg, c, &cp->kernel));
}

const struct cp_mode cp_host_mode = {
	.name = "host",
	.setup = preflight,
	.traces = host_traces,
	.opened = host_opened,
	.runs_here = host_runs_here,
	.elsewhere = host_elsewhere,
	.finish = host_finish,
	.left_here = host_left_here,
	.says_others = 1,
};
