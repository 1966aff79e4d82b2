#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_run.h"
#include "chain.h"
#include "container.h"
#include "cpulist.h"
#include "estimate.h"
#include "exitcodes.h"
#include "files.h"
#include "log.h"
#include "matrix.h"
#include "rtrights.h"
#include "worker.h"
#include "verdict.h"
#include "vm.h"
#include "watch.h"
#include "watch_opts.h"
#include "where.h"

/*
 * The wall time of the cells marked in left, as estimate.c reckons it
 * with `jobs` guests side by side, and how it came about in words (into
 * how: "" for a campaign of host cells alone).
 */
static int64_t plan_estimate(const struct config *cfg, const struct cell *cells, int n,
			     const unsigned char *left, const struct kernel_info *k, int jobs,
			     char *how, size_t len)
{
	uint64_t *keys = calloc((size_t)cfg->nkernels + 1, sizeof(*keys));
	struct est_said said;
	char boot[32];

	for (int v = 0; keys && v < cfg->nkernels; v++)
		if (cfg->kernel[v].runner == RUNNER_QEMU)
			keys[v] = vm_file_key(cfg->kernel[v].image);
		else if (cfg->kernel[v].runner == RUNNER_CONTAINER)
			keys[v] = ct_image_key(cfg->kernel[v].image);
	struct est_input in = { cfg, cells, n, left, k, keys, cp_pool_jobs(cfg, jobs) };
	int64_t ns = est_campaign(&in, &said);

	free(keys);
	how[0] = '\0';
	if (!said.boots)
		return ns;
	units_format_duration(VM_BOOT_NS, boot, sizeof(boot));
	int guessed = said.boots - said.boots_measured - said.boots_like;
	size_t at;

	if (said.boots_measured == said.boots)
		snprintf(how, len, "%d guest boot%s as measured here", said.boots,
			 said.boots == 1 ? "" : "s");
	else if (guessed == said.boots)
		snprintf(how, len, "%d guest boot%s, not measured here yet: %s each", said.boots,
			 said.boots == 1 ? "" : "s", boot);
	else {
		snprintf(how, len, "%d guest boot%s", said.boots, said.boots == 1 ? "" : "s");
		at = strlen(how);
		if (said.boots_measured)
			snprintf(how + at, len - at, ", %d as measured here", said.boots_measured);
		at = strlen(how);
		if (said.boots_like)
			snprintf(how + at, len - at, ", %d as this machine's boots of other images",
				 said.boots_like);
		at = strlen(how);
		if (guessed)
			snprintf(how + at, len - at, ", %d not measured here yet: %s each", guessed,
				 boot);
	}
	at = strlen(how);
	if (said.cells_like)
		snprintf(how + at, len - at, ", %d guest cell%s as other images' cells under %s load here",
			 said.cells_like, said.cells_like == 1 ? "" : "s",
			 said.cells_like == 1 ? "its" : "their");
	at = strlen(how);
	if (said.cells_other_load)
		snprintf(how + at, len - at, ", %d guest cell%s under a load not measured here: as the %s measured here",
			 said.cells_other_load, said.cells_other_load == 1 ? "" : "s",
			 "other loads (or idle cells) of guests booted the same way");
	at = strlen(how);
	if (said.cells_guessed)
		snprintf(how + at, len - at, ", %d guest cell%s not measured here yet: %s",
			 said.cells_guessed, said.cells_guessed == 1 ? "" : "s",
			 "on the instruction clock an idle one 0.3x its duration and a loaded one 8x (as on this project's VM), on the host's its duration");
	at = strlen(how);
	if (said.jobs > 1)
		snprintf(how + at, len - at, "; up to %d instruction-clock guests side by side",
			 said.jobs);
	return ns;
}

/*
 * The cells that cannot run where they would (where_fits), a line per
 * distinct reason; returns how many.
 */
static int plan_misfits(const struct config *cfg, const struct cell *cells,
			int n, char *const *why, FILE *out)
{
	int total = 0;

	for (int i = 0; i < n; i++) {
		int same = 0, seen = 0;

		if (!why[i])
			continue;
		total++;
		for (int j = 0; j < i && !seen; j++)
			seen = why[j] && strcmp(why[j], why[i]) == 0;
		if (seen)
			continue;
		for (int j = i; j < n; j++)
			same += why[j] && strcmp(why[j], why[i]) == 0;
		fprintf(out, "%d cell%s cannot run %s: %s\n", same, same == 1 ? "" : "s",
			cfg->kernel[cells[i].kernel].runner == RUNNER_QEMU
			? "in its guest" : "on this machine",
			why[i]);
	}
	return total;
}

/*
 * What each node:N of the affinity axis and of the loads' cpus = stands
 * for here: "affinity node:0: CPUs 0-1 on this machine" (a node the
 * machine lacks is a misfit above; a qemu variant's nodes are its own).
 */
static void plan_nodes(const struct config *cfg, FILE *out)
{
	const struct axis *ax = &cfg->matrix.affinity;

	for (int i = 0; i < ax->n + cfg->nloads; i++) {
		const char *what = i < ax->n ? ax->s[i] : cfg->load[i - ax->n].cpus;
		int node = cpulist_node_number(what);
		cpu_set_t set;
		char list[256];

		if (node < 0)
			continue;
		if (i < ax->n)
			fprintf(out, "affinity %s: ", what);
		else
			fprintf(out, "[load.%s] cpus = %s: ", cfg->load[i - ax->n].name, what);
		if (cpulist_node(NULL, node, &set) == 0) {
			cpulist_format(&set, list, sizeof(list));
			fprintf(out, "CPUs %s on this machine", list);
		} else
			fprintf(out, "no such node on this machine");
		for (int v = 0; v < cfg->nkernels; v++) {
			const struct kernel_def *kd = &cfg->kernel[v];
			int64_t first, last, mib;

			if (kd->runner != RUNNER_QEMU)
				continue;
			if (vm_guest_node(kd, node, &first, &last, &mib) != 0)
				fprintf(out, "; none in the guest of %s", kd->name);
			else if (first == last)
				fprintf(out, "; CPU %lld in the guest of %s", (long long)first, kd->name);
			else
				fprintf(out, "; CPUs %lld-%lld in the guest of %s", (long long)first,
					(long long)last, kd->name);
		}
		fputc('\n', out);
	}
}

/* Is workload w a step of a chain? */
static int chain_step(const struct config *cfg, const struct workload_def *w)
{
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct chain_opts *o = cfg->workload[i].opts;

		if (cfg->workload[i].ops != &workload_chain)
			continue;
		for (int k = 0; k < o->n; k++)
			if (o->opts[k] == w->opts)
				return 1;
	}
	return 0;
}

static void say_unused(FILE *out, const char *kind, const char *name, const struct srcloc *loc)
{
	fprintf(out, "[%s.%s] (%s:%d) is in no cell: the matrix does not name it\n", kind, name,
		loc->file, loc->line);
}

/*
 * Sections nothing measures: a [kernel.X], [load.X] or [workload.X] the
 * matrix does not name (nor a chain as its step). Often a misspelling;
 * a line each, with where it is.
 */
static void plan_unused(const struct config *cfg, FILE *out)
{
	for (int i = 0; i < cfg->nkernels; i++)
		if (!axis_has_item(&cfg->matrix.kernel, cfg->kernel[i].name))
			say_unused(out, "kernel", cfg->kernel[i].name, &cfg->kernel[i].loc);
	for (int i = 0; i < cfg->nloads; i++)
		if (!axis_has_item(&cfg->matrix.load, cfg->load[i].name))
			say_unused(out, "load", cfg->load[i].name, &cfg->load[i].loc);
	for (int i = 0; i < cfg->nworkloads; i++)
		if (!axis_has_item(&cfg->matrix.workload, cfg->workload[i].name) &&
		    !chain_step(cfg, &cfg->workload[i]))
			say_unused(out, "workload", cfg->workload[i].name, &cfg->workload[i].loc);
}

/*
 * What run would find in OUTPUT/NAME: nothing, a tree to resume, one to
 * extend with more repeats (cfg becomes the extending config, *ext, to
 * free), or another config's run, which run refuses (EXIT_USAGE,
 * returned). A tree to resume or extend leaves its state in *prior
 * (*have set) for the cells done.
 */
static int plan_tree(const struct config **cfg, const char *output, struct config **ext,
		     struct prior *prior, int *have, FILE *out)
{
	char dir[PATH_MAX], err[PATH_MAX + 256];
	struct cp_tree_was was = { 0, 0 };
	int rc = cp_extension(*cfg, output, ext, &was, err, sizeof(err));

	*have = 0;
	if (rc < 0) {
		fprintf(out, "%s\n", err);
		return EXIT_USAGE;
	}
	if (snprintf(dir, sizeof(dir), "%s/%s", output, (*cfg)->campaign.name) >= (int)sizeof(dir) ||
	    prior_read(dir, prior, err, sizeof(err)) != 0)
		return EXIT_PASS;	/* none (or unreadable: run says so) */
	if (*ext) {
		*cfg = *ext;
		if ((*ext)->campaign.repeat > was.repeat)
			fprintf(out, "%s holds %lld runs of each cell: repeat = %lld adds the runs beyond\n",
				dir, (long long)was.repeat, (long long)(*ext)->campaign.repeat);
	} else if (prior->hash != config_hash(*cfg)) {
		fprintf(out, "%s holds this campaign run with another config: run refuses it (exit 2) without --restart (the old tree kept under a dated name) or another -o\n",
			dir);
		prior_free(prior);
		return EXIT_USAGE;
	}
	*have = 1;
	return EXIT_PASS;
}

/*
 * Which way this machine's kernel would keep each watch (type = watch, and
 * [trace] watch): BPF or histogram triggers. What cannot run is said
 * per cell above; a qemu guest chooses in its own kernel.
 */
static void plan_watch(const struct config *cfg, FILE *out)
{
	int chosen = WATCH_HIST, guests = 0;
	char why[512];

	for (int k = 0; k < cfg->nkernels; k++)
		guests += cfg->kernel[k].runner == RUNNER_QEMU && axis_has_item(&cfg->matrix.kernel, cfg->kernel[k].name);
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct workload_def *wd = &cfg->workload[i];
		const struct watch_opts *o = wd->opts;

		if (wd->ops != &workload_watch || !axis_has_item(&cfg->matrix.workload, wd->name) ||
		    watch_check(o->method, &chosen, why, sizeof(why)) != 0)
			continue;
		fprintf(out, "[workload.%s] type = watch: through %s on this machine (method = %s)%s\n",
			wd->name, chosen == WATCH_BPF ? "BPF" : "histogram triggers",
			watch_method_name(o->method), guests ? "; a qemu guest chooses in its own kernel" : "");
	}
	if (!cfg->trace.watch)
		return;
	int method = watch_method_of_trace(cfg->trace.watch);

	if (watch_check(method, &chosen, why, sizeof(why)) == 0)
		fprintf(out, "[trace] watch: through %s on this machine%s\n",
			chosen == WATCH_BPF ? "BPF" : "histogram triggers",
			guests ? "; a qemu guest chooses in its own kernel" : "");
	else
		fprintf(out, "[trace] watch: off on this machine, the cells run without it: %s\n", why);
}

/*
 * What a verdict needs: compare gives a 97.5 % interval only from
 * enough runs a side; a matrix of more than one cell with fewer repeats
 * is told so now, not after the run.
 */
static void plan_repeat(const struct config *cfg, int n, FILE *out)
{
	int r = (int)cfg->campaign.repeat, need = r;

	if (n / r < 2 || verdict_runs_enough(r, r))
		return;
	while (!verdict_runs_enough(need, need))
		need++;
	if (r == 1)
		fprintf(out, "repeat = 1: one run a cell gives figures, not a verdict: set repeat = %d for compare's 97.5 %% interval between two cells\n",
			need);
	else
		fprintf(out, "repeat = %d: with %d and %d runs compare cannot give a 97.5 %% interval: set repeat = %d\n",
			r, r, r, need);
}

/*
 * dma_latency holds /dev/cpu_dma_latency (its default, 0, too): where the
 * device cannot be opened (a container without it), said once — each
 * cell then runs with the C-states as the system leaves them, and its
 * cell.ini says `dma_latency = not held`.
 */
static void plan_dma(const struct config *cfg, FILE *out)
{
	const struct axis *ax = &cfg->matrix.dma_latency;
	int holds = !ax->n;	/* the default, 0, holds it */
	int fd;

	for (int i = 0; i < ax->n; i++)
		holds |= ax->v[i] >= 0;
	if (!holds)
		return;
	fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return;
	}
	fprintf(out, "dma_latency: /dev/cpu_dma_latency: %s: C-states not held, each cell.ini says dma_latency = not held (in a container: podman run --device /dev/cpu_dma_latency)\n",
		strerror(errno));
}

/* Where latlab may run on fewer CPUs than are online (a container's cpuset): said. */
static void plan_usable(FILE *out)
{
	cpu_set_t online, usable;
	char on[256], us[256];

	cpulist_online(&online);
	cpulist_usable(&usable);
	if (CPU_EQUAL(&online, &usable))
		return;
	cpulist_format(&online, on, sizeof(on));
	cpulist_format(&usable, us, sizeof(us));
	fprintf(out, "latlab may run on CPUs %s of the online %s (its affinity: a container's --cpuset-cpus, taskset, or a cgroup's cpuset.cpus): affinity = spread and all place threads there, and a CPU outside them is refused\n",
		us, on);
}

/*
 * What run checks before it writes anything, that where_fits did not:
 * each qemu variant's image and programs, the baseline, SCHED_FIFO. A
 * line each; the exit status run would give.
 */
/*
 * A container variant: podman and its image here (run gives it up
 * without them, exit 3), and the budget latlab will give it. 0, or -1.
 */
static int plan_container(const struct kernel_def *k, FILE *out)
{
	char why[512], dir[64];

	if (path_lookup("podman", why, sizeof(why)) != 0) {
		fprintf(out, "kernel variant %s: podman is not on PATH (apt-get install podman): its cells would be skipped (exit 3)\n",
			k->name);
		return -1;
	}
	if (ct_image_present(k->image, why, sizeof(why)) != 0) {
		fprintf(out, "kernel variant %s: %s: its cells would be skipped (exit 3)\n", k->name, why);
		return -1;
	}
	fprintf(out, "kernel variant %s: in podman, image %s", k->name, k->image);
	if (ct_rt_hierarchy(dir, sizeof(dir)) == 0)
		fprintf(out, "; a real-time budget of %lld ms a second (RT_GROUP_SCHED: a parent cgroup latlab makes in %s, removed after)",
			(long long)(k->rt_runtime / NS_PER_MS), dir);
	if (k->load_in == LOAD_IN_HOST)
		fprintf(out, "; its cells' loads on this machine, outside the container (load_in = host): a container a cell");
	fputc('\n', out);
	return 0;
}

static int plan_preflight(const struct config *cfg, const struct cell *cells, int n,
			  const char *output, FILE *out)
{
	char why[2 * PATH_MAX + 1536];
	int status = EXIT_PASS, seen[CFG_DEFS_MAX] = { 0 };

	for (int i = 0; i < n; i++) {
		const struct kernel_def *k = &cfg->kernel[cells[i].kernel];

		if (k->runner == RUNNER_CONTAINER && !seen[cells[i].kernel]++) {
			if (plan_container(k, out) != 0 && status == EXIT_PASS)
				status = EXIT_RUNTIME;
			continue;
		}
		if (k->runner != RUNNER_QEMU || seen[cells[i].kernel]++)
			continue;
		if (where_guest_files(cfg, k, why, sizeof(why)) != 0) {
			fprintf(out, "%s\n", why);
			status = EXIT_USAGE;
		}
	}
	if (cp_check_baseline(cfg, output, why, sizeof(why)) != 0) {
		fprintf(out, "%s\n", why);
		status = EXIT_USAGE;
	}
	int prio = cp_max_priority(cfg);
	int rc = worker_probe_policy(SCHED_FIFO, prio);

	if (rc != 0) {
		rt_rights_here(prio, why, sizeof(why));
		fprintf(out, "no SCHED_FIFO thread at priority %d here (%s): %s; or run --allow-non-rt to measure SCHED_OTHER threads (exit 3 without it)\n",
			prio, strerror(-rc), why);
		if (status == EXIT_PASS)
			status = EXIT_RUNTIME;
	}
	return status;
}

/*
 * Each cell's line (its id, variant, and where it runs or that it cannot
 * run here), the reason a cell cannot in whys[i] (strdup'ed), the cells
 * that can counted by where in count[].
 */
static void plan_cells(const struct config *cfg, const struct cell *cells, int n,
		       const struct kernel_info *k, char **whys, int *count, FILE *out)
{
	char why[PATH_MAX + 512];

	fprintf(out, "%-44s %-8s %s\n", "cell", "kernel", "runs");
	for (int i = 0; i < n; i++) {
		enum where w = where_runs(cfg, &cells[i], k);
		int fits = where_fits(cfg, &cells[i], 0, why, sizeof(why)) == 0;

		if (!fits)
			whys[i] = strdup(why);
		else
			count[w]++;
		fprintf(out, "%-44s %-8s %s\n", cells[i].id,
			cfg->kernel[cells[i].kernel].name,
			fits ? where_name(w) : "cannot run here");
	}
}

/* What a policy of the matrix does with the priority axis and a pinned thread. */
static void plan_policies(const struct config *cfg, FILE *out)
{
	for (int i = 0; i < cfg->matrix.policy.n; i++) {
		int p = (int)cfg->matrix.policy.v[i];

		if (p == POL_DEADLINE || p == POL_OTHER)
			fprintf(out, "policy %s: the priority axis does not apply to its cells (ignored)\n",
				policy_name(p));
		if (p == POL_DEADLINE && strcmp(cfg->matrix.affinity.s[0], "all") != 0 &&
		    cfg->matrix.isolation.v[0] == ISO_NONE)
			fprintf(out, "policy deadline: a thread pinned to one CPU is refused by the kernel without a root domain of its own (skipped where isolation = none): isolation = cpuset, or affinity = all\n");
	}
}

/* The order the runs go in ([campaign] order), and the shuffle's seed. */
static void plan_order(const struct config *cfg, FILE *out)
{
	if (cfg->campaign.repeat > 1 && cfg->campaign.order == ORDER_BLOCKED)
		fprintf(out, "run order: blocked: the matrix's order, each cell's %lld repeats back to back\n",
			(long long)cfg->campaign.repeat);
	else if (cfg->campaign.repeat > 1)
		fprintf(out, "run order: %s: %lld rounds, each every cell once%s (a qemu variant on the host's clock boots once a round, instruction-clock guests boot once for several rounds unless boots = round; host variants that need a reboot one after the other)\n",
			cfg->campaign.order == ORDER_SHUFFLED ? "shuffled" : "interleaved",
			(long long)cfg->campaign.repeat,
			cfg->campaign.order == ORDER_SHUFFLED ? ", in a random order" : ", in the matrix's order");
	if (cfg->campaign.repeat > 1 && cfg->campaign.order == ORDER_SHUFFLED)
		fprintf(out, "seed: %llu%s\n", (unsigned long long)matrix_order_seed(cfg),
			cfg->campaign.seed ? "" : " (from the config: [campaign] seed = N picks another)");
}

/*
 * The wall time of the cells that fit and are not done in the tree run
 * would resume (prior, when have), into est; how it was reckoned in how.
 * The done cells counted in *done.
 */
static void plan_time(const struct config *cfg, const struct cell *cells, int n, char **whys,
		      const struct prior *prior, int have, const struct kernel_info *k, int jobs,
		      int *done, char *est, size_t elen, char *how, size_t hlen)
{
	unsigned char *left = calloc((size_t)n + 1, 1);

	for (int i = 0; left && i < n; i++) {
		int was = have && cp_done(prior_status(prior, cells[i].id));

		left[i] = !whys[i] && !was;
		*done += was;
	}
	units_format_elapsed(left ? plan_estimate(cfg, cells, n, left, k, jobs, how, hlen) : 0,
			     est, elen);
	free(left);
}

/* How many cells run where (this kernel, qemu, a container, pending), and this machine's own. */
static void plan_counts(const struct config *cfg, int n, const int *count,
			const struct kernel_info *k, FILE *out)
{
	fprintf(out, "\n%d cells: %d run on this kernel (%s, preempt %s%s), %d in qemu, ",
		n, count[WHERE_HERE], k->release, k->model, k->dynamic ? ", dynamic" : "",
		count[WHERE_QEMU]);
	if (count[WHERE_CONTAINER])
		fprintf(out, "%d in a container, ", count[WHERE_CONTAINER]);
	fprintf(out, "%d pending\n", count[WHERE_OTHER]);
	if (count[WHERE_HERE]) {
		plan_usable(out);
		plan_dma(cfg, out);
	}
}

/* A measured CPU shared: two cells' threads stacked on one, or a thread beside its SMT sibling. */
static void plan_shared_cpus(const struct config *cfg, const struct cell *cells, int n, FILE *out)
{
	char why[PATH_MAX + 512];
	int stacked = where_stacked_cells(cfg, cells, n, why, sizeof(why));

	if (stacked)
		fprintf(out, "warning: %s%s\n", why, stacked > 1 ? " (and so in more cells)" : "");
	int smt = where_smt_cells(cfg, cells, n, why, sizeof(why));

	if (smt)
		fprintf(out, "warning: %s%s\n", why, smt > 1 ? " (and so in more cells)" : "");
}

int campaign_plan(const struct config *cfg, const char *output, int jobs, FILE *out)
{
	struct kernel_info k;
	struct cell *cells;
	struct config *ext = NULL;
	struct prior prior;
	int have = 0, done = 0;
	char *tree_said = NULL;
	size_t tree_len = 0;
	FILE *said = open_memstream(&tree_said, &tree_len);
	int status;

	if (!said)
		return EXIT_RUNTIME;
	/* the tree run would resume or extend, said after the cells */
	if (!output)
		output = cfg->campaign.output;
	status = plan_tree(&cfg, output, &ext, &prior, &have, said);
	fclose(said);

	int n = matrix_expand(cfg, &cells), count[WHERE_COUNT] = { 0 }, misfit;
	char est[32], dur[32];
	char **whys;

	if (n < 0) {
		log_error("%s: the matrix has more than %d cells", cfg->path,
			  MATRIX_MAX_CELLS);
		free(tree_said);
		free(ext);
		if (have)
			prior_free(&prior);
		return EXIT_USAGE;
	}
	whys = calloc((size_t)n + 1, sizeof(*whys));
	if (!whys) {
		free(cells);
		free(tree_said);
		free(ext);
		if (have)
			prior_free(&prior);
		return EXIT_RUNTIME;
	}
	kernel_info_read(&k);
	plan_cells(cfg, cells, n, &k, whys, count, out);
	/* the cells that fit, with the boots that run them */
	char how[320] = "";

	plan_time(cfg, cells, n, whys, &prior, have, &k, jobs, &done, est, sizeof(est), how,
		  sizeof(how));
	units_format_duration(cfg->campaign.duration, dur, sizeof(dur));
	plan_counts(cfg, n, count, &k, out);
	misfit = plan_misfits(cfg, cells, n, whys, out);
	plan_shared_cpus(cfg, cells, n, out);
	int checks = plan_preflight(cfg, cells, n, output, out);

	fputs(tree_said ? tree_said : "", out);
	if (have)
		fprintf(out, "%s/%s: resumes: %d of %d cells done, the estimate is for the rest\n",
			output, cfg->campaign.name, done, n);
	if (misfit)
		status = EXIT_USAGE;
	if (status == EXIT_PASS || (checks != EXIT_PASS && checks < status))
		status = checks;	/* a usage error (2) said before a runtime one (3) */
	plan_policies(cfg, out);
	plan_watch(cfg, out);
	plan_nodes(cfg, out);
	plan_unused(cfg, out);
	plan_repeat(cfg, n, out);
	plan_order(cfg, out);
	fprintf(out, "estimated wall time: %s (%s per cell%s%s)\n", est, dur, how[0] ? "; " : "", how);
	if (status != EXIT_PASS)
		fprintf(out, "latlab run refuses this config here (exit %d): see above\n", status);
	for (int i = 0; i < n; i++)
		free(whys[i]);
	free(whys);
	free(cells);
	free(tree_said);
	free(ext);
	if (have)
		prior_free(&prior);
	return status;
}

/*
 * A campaign tree's state, config and cells, the config checked against
 * the state: the number of cells, or -1 said (prior and cfg freed).
 */
static int status_load(const char *dir, struct config *cfg, struct prior *prior,
		       struct cell **cells)
{
	char err[2 * PATH_MAX + 256], path[PATH_MAX + 32];
	int n = -1, rc = prior_read(dir, prior, err, sizeof(err));

	if (rc) {
		log_error("%s: %s", dir, rc == -ENOENT
			  ? "no state file: not a latlab campaign directory" : err);
		return -1;
	}
	ledger_config_path(path, sizeof(path), dir);
	rc = config_load(cfg, path, NULL, 0, err, sizeof(err));
	if (rc == 0 && config_hash(cfg) != prior->hash) {
		/* the cells it would list are not the ones the state knows */
		snprintf(err, sizeof(err), "%s does not match %s/state (its config_hash differs): edited or damaged since the run",
			 path, dir);
		rc = -ESTALE;
	}
	if (rc == 0 && (n = matrix_expand(cfg, cells)) < 0) {
		snprintf(err, sizeof(err), "%s: the matrix has more than %d cells",
			 path, MATRIX_MAX_CELLS);
		rc = -E2BIG;
	}
	if (rc) {
		log_error("%s", err);
		config_free(cfg);
		prior_free(prior);
		return -1;
	}
	return n;
}

int campaign_status(const char *dir, FILE *out)
{
	enum { OK, FAIL, SKIP, ERR, PEND, NCOL };
	static const char *const cols[NCOL] = { "ok", "fail", "skipped", "error", "pending" };
	struct prior prior;
	struct config *cfg = malloc(sizeof(*cfg));
	struct cell *cells = NULL;
	struct kernel_info k;
	char est[32];
	int n;

	if (!cfg)
		return EXIT_RUNTIME;
	n = status_load(dir, cfg, &prior, &cells);
	if (n < 0) {
		free(cfg);
		return EXIT_USAGE;
	}
	kernel_info_read(&k);
	fprintf(out, "campaign %s in %s: %d cells\n\n", cfg->campaign.name, dir, n);
	fprintf(out, "%-12s %-9s", "kernel", "runs here");
	for (int c = 0; c < NCOL; c++)
		fprintf(out, " %8s", cols[c]);
	fputc('\n', out);
	int left_here = 0, vms = 0;
	const char *next = NULL;
	unsigned char *left = calloc((size_t)n + 1, 1);
	for (int v = 0; v < cfg->nkernels; v++) {
		enum where w = where_variant(cfg, v, &k);
		int count[NCOL] = { 0 }, here = w != WHERE_OTHER;

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
				if (left)
					left[i] = 1;
				if (here) {
					left_here++;
					if (!next)
						next = cells[i].id;
				}
			}
		}
		fprintf(out, "%-12s %-9s", cfg->kernel[v].name,
			w == WHERE_QEMU ? "qemu" : w == WHERE_CONTAINER ? "container" : here ? "yes" : "no");
		for (int c = 0; c < NCOL; c++)
			fprintf(out, " %8d", count[c]);
		fputc('\n', out);
		vms |= (w == WHERE_QEMU) | (w == WHERE_CONTAINER) << 1;
	}
	char how[320] = "";
	units_format_elapsed(left ? plan_estimate(cfg, cells, n, left, &k, 0, how, sizeof(how)) : 0,
			     est, sizeof(est));
	free(left);
	fprintf(out, "\n%d cells left on this kernel%s (%s): about %s%s%s%s\n", left_here,
		vms == 1 ? " and in qemu" : vms == 2 ? " and in containers" : vms ? " and in qemu and containers" : "",
		k.release, est, how[0] ? " (" : "", how, how[0] ? ")" : "");
	if (next) {
		/* from anywhere: the tree's config, and its output (the tree's parent) */
		char abs[PATH_MAX], parent[PATH_MAX];

		if (!realpath(dir, abs))
			snprintf(abs, sizeof(abs), "%s", dir);
		snprintf(parent, sizeof(parent), "%s", abs);
		char *slash = strrchr(parent, '/');
		if (slash && slash != parent)
			*slash = '\0';
		fprintf(out, "next: %s (latlab run %s/campaign.ini -o %s resumes there)\n",
			next, abs, parent);
	}
	free(cells);
	config_free(cfg);
	free(cfg);
	prior_free(&prior);
	return EXIT_PASS;
}

