#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "config_parts.h"
#include "cpulist.h"
#include "load_ops.h"
#include "match.h"
#include "units.h"
#include "version.h"

/* "NN%" of the period or a duration into *s. 0, or -EINVAL. */
static int dl_spec_parse(const char *spec, struct dl_spec *s)
{
	char *end;
	size_t n = strlen(spec);

	memset(s, 0, sizeof(*s));
	if (n > 1 && spec[n - 1] == '%') {
		double pct = strtod(spec, &end);

		if (end != spec + n - 1 || !(pct > 0 && pct <= 100))
			return -EINVAL;
		s->share = pct / 100;
		return 0;
	}
	return units_parse_duration(spec, &s->ns) == 0 && s->ns > 0 ? 0 : -EINVAL;
}

int64_t config_dl_ns(const struct dl_spec *s, int64_t period)
{
	return s->share > 0 ? (int64_t)((double)period * s->share) : s->ns;
}

/* Where [kernel.NAME] key was set (the last one wins), or the variant's own line. */
struct srcloc config_kernel_loc(const struct config *cfg, const struct kernel_def *k,
				const char *key)
{
	char sec[CFG_NAME_MAX + 8];

	snprintf(sec, sizeof(sec), "kernel.%s", k->name);
	return config_key_loc(cfg, sec, key, k->loc);
}

/* [kernel.NAME] KEY was written (in the file or a --set). */
static int kernel_key_set(const struct config *cfg, const struct kernel_def *k,
			  const char *key)
{
	struct srcloc loc = config_kernel_loc(cfg, k, key);

	return loc.line != k->loc.line || loc.file != k->loc.file;
}

/*
 * A guest of another architecture: emulated (KVM runs only this
 * machine's own), with programs and a busybox built for it, since this
 * machine's are not.
 */
static int check_arch(const struct config *cfg, const struct kernel_def *k,
		      char *err, size_t errlen)
{
	struct srcloc loc;

	if (k->arch != VM_ARCH_ARM64)
		return 0;
	if (k->accel == ACCEL_KVM && k->arch != VM_ARCH_HOST) {
		loc = config_kernel_loc(cfg, k, "accel");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 runs under TCG here (KVM runs only this machine's own architecture): accel = kvm cannot be",
				k->name);
	}
	loc = config_kernel_loc(cfg, k, "arch");
	if (!k->programs[0])
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 needs 'programs =': the folder with latlab and latload built for arm64 (make static CROSS=aarch64-linux-gnu- puts them in build/aarch64-linux-gnu/static)",
				k->name);
	if (!k->busybox[0])
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 needs 'busybox =': a static arm64 busybox (make kernels puts one in kernels/arm64/busybox)",
				k->name);
	return 0;
}

/*
 * A kernel variant's own keys, each check in turn: a qemu variant's image
 * and architecture, qemu_args as argv words, match.
 */
/*
 * clock = icount: qemu counts instructions only when it emulates them
 * (TCG), and with more than one vCPU its round-robin between them is what
 * the figures would show (docs/campaigns.md, "An instruction-counted
 * clock"): one CPU (the default then), no -icount of qemu_args' own.
 */
static int check_clock(const struct config *cfg, struct kernel_def *k,
		       char *err, size_t errlen)
{
	struct srcloc loc;

	if (k->clock != CLOCK_ICOUNT) {
		if (kernel_key_set(cfg, k, "icount_shift")) {
			loc = config_kernel_loc(cfg, k, "icount_shift");
			return cfg_fail(err, errlen, &loc,
					"[kernel.%s] icount_shift is for clock = icount", k->name);
		}
		return 0;
	}
	if (k->runner != RUNNER_QEMU) {
		loc = config_kernel_loc(cfg, k, "clock");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount is qemu's: it needs runner = qemu", k->name);
	}
	if (k->accel == ACCEL_KVM) {
		loc = config_kernel_loc(cfg, k, "accel");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount runs under TCG only (qemu counts the instructions it emulates): accel = kvm cannot be",
				k->name);
	}
	if (!kernel_key_set(cfg, k, "cpus"))
		k->cpus = 1;
	if (k->cpus > 1) {
		loc = config_kernel_loc(cfg, k, "cpus");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount takes cpus = 1: qemu runs an icount guest's vCPUs in turns on one thread, and with more than one the figures are its turn-taking, not the kernel's (a thread a period late under hackbench on Debian's 7.2: docs/campaigns.md)",
				k->name);
	}
	if (strstr(k->qemu_args, "-icount")) {
		loc = config_kernel_loc(cfg, k, "qemu_args");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount sets -icount itself: take it out of qemu_args",
				k->name);
	}
	return 0;
}

/*
 * disk = modelled: null_blk keeps what is written in the guest's memory,
 * so its filesystem takes a quarter of it unless disk_size says, and at
 * most half; disk_time and disk_depth are that disk's alone.
 */
static int check_disk(const struct config *cfg, struct kernel_def *k,
		      char *err, size_t errlen)
{
	static const char *const own[] = { "disk_time", "disk_depth" };
	struct srcloc loc;

	if (k->disk != DISK_MODELLED) {
		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
			if (!kernel_key_set(cfg, k, own[i]))
				continue;
			loc = config_kernel_loc(cfg, k, own[i]);
			return cfg_fail(err, errlen, &loc, "[kernel.%s] %s is for disk = modelled",
					k->name, own[i]);
		}
		return 0;
	}
	if (!kernel_key_set(cfg, k, "disk_size"))
		k->disk_size = (k->memory / 4) & ~((1LL << 20) - 1);
	if (k->disk_size > k->memory / 2) {
		char size[32], mem[32];

		units_format_size(k->disk_size, size, sizeof(size));
		units_format_size(k->memory, mem, sizeof(mem));
		loc = config_kernel_loc(cfg, k, "disk_size");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] disk = modelled keeps the disk in the guest's memory: disk_size = %s is more than half of memory = %s (a smaller disk_size, or more memory)",
				k->name, size, mem);
	}
	return 0;
}

/*
 * runner = container: its container_args argv words; they and the image
 * are podman's to check (a word that is not an option of its is podman's
 * error, in the boot's log). container_args or load_in on another runner
 * is refused rather than ignored.
 */
static int check_container(const struct config *cfg, const struct kernel_def *k,
			   char *err, size_t errlen)
{
	struct srcloc loc = config_kernel_loc(cfg, k, "load_in");
	char **words;
	int nwords;

	if (k->load_in != LOAD_IN_CONTAINER && k->runner != RUNNER_CONTAINER)
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] load_in says where a container's load runs: it needs runner = container",
				k->name);
	loc = config_kernel_loc(cfg, k, "container_args");
	if (!k->container_args[0])
		return 0;
	if (k->runner != RUNNER_CONTAINER)
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] container_args are podman's: they need runner = container",
				k->name);
	if (argv_split(k->container_args, &words, &nwords) != 0)
		return cfg_fail(err, errlen, &loc,
				"container_args = '%s': an unclosed quote or a trailing backslash",
				k->container_args);
	free(words);
	return 0;
}

static int check_kernel(const struct config *cfg, struct kernel_def *k,
			char *err, size_t errlen)
{
	struct srcloc loc;
	char **words;
	int nwords, rc;

	if (!k->match[0] && k->runner == RUNNER_CONTAINER)
		/* a container runs on this machine's kernel, whatever it is */
		snprintf(k->match, sizeof(k->match), "any");
	if (!k->image[0] && k->runner == RUNNER_CONTAINER)
		snprintf(k->image, sizeof(k->image), "localhost/latlab:%s", LATLAB_VERSION);
	if (!k->match[0] && k->runner == RUNNER_QEMU)
		/* the guest checks what it booted against it */
		snprintf(k->match, sizeof(k->match), "%s",
			 kernel_builtin_match(k->name) ? kernel_builtin_match(k->name) : "any");
	if (k->runner == RUNNER_QEMU && !k->image[0]) {
		loc = config_kernel_loc(cfg, k, "image");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] runner = qemu needs 'image =' (a bzImage or vmlinuz)%s",
				k->name, loc.line != k->loc.line ? ": it is empty" : "");
	}
	if (k->runner == RUNNER_QEMU && (rc = check_arch(cfg, k, err, errlen)) != 0)
		return rc;
	if ((rc = check_clock(cfg, k, err, errlen)) != 0)
		return rc;
	if ((rc = check_disk(cfg, k, err, errlen)) != 0)
		return rc;
	if (k->numa_nodes > 1 && (k->runner != RUNNER_QEMU || k->numa_nodes > k->cpus)) {
		loc = config_kernel_loc(cfg, k, "numa_nodes");
		if (k->runner != RUNNER_QEMU)
			return cfg_fail(err, errlen, &loc,
					"[kernel.%s] numa_nodes = %lld emulates nodes in qemu: it needs runner = qemu",
					k->name, (long long)k->numa_nodes);
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] numa_nodes = %lld: each node needs a CPU of its own (cpus = %lld)",
				k->name, (long long)k->numa_nodes, (long long)k->cpus);
	}
	if (k->qemu_args[0]) {
		if (argv_split(k->qemu_args, &words, &nwords) != 0) {
			loc = config_kernel_loc(cfg, k, "qemu_args");
			return cfg_fail(err, errlen, &loc,
					"qemu_args = '%s': an unclosed quote or a trailing backslash",
					k->qemu_args);
		}
		free(words);
	}
	if ((rc = check_container(cfg, k, err, errlen)) != 0)
		return rc;
	if (!k->match[0])
		return cfg_fail(err, errlen, &k->loc, "[kernel.%s] has no 'match ='", k->name);
	if (kernel_match_check(k->match) != 0) {
		loc = config_kernel_loc(cfg, k, "match");
		return cfg_fail(err, errlen, &loc,
				"match = '%s': expected one or more terms, blank-separated, each [!]preempt:MODEL (rt, rt+full, rt+lazy, rt+laziest, full, lazy, laziest, voluntary, none, dynamic), [!]release:GLOB, [!]cmdline:GLOB or any",
				k->match);
	}
	return 0;
}

/*
 * The policy and dma_latency axes: their items' values (a policy; -1 for
 * none or microseconds), and the deadline options against every interval.
 */
static int check_policy_axes(struct config *cfg, char *err, size_t errlen)
{
	struct axis *pol = &cfg->matrix.policy, *dma = &cfg->matrix.dma_latency;
	struct srcloc loc;
	int deadline = 0;

	for (int i = 0; i < pol->n; i++)
		deadline |= pol->v[i] == POL_DEADLINE;
	for (int i = 0; i < dma->n; i++) {
		int64_t ns;

		if (strcmp(dma->s[i], "none") == 0 || strcmp(dma->s[i], "0") == 0) {
			dma->v[i] = dma->s[i][0] == '0' ? 0 : -1;	/* 0 needs no unit */
			continue;
		}
		if (units_parse_duration(dma->s[i], &ns) != 0 || ns < 0 ||
		    ns / NS_PER_US > INT32_MAX)
			return cfg_fail(err, errlen, &dma->loc,
					"dma_latency = '%s': expected none or a duration (0, 10us, 1ms)",
					dma->s[i]);
		dma->v[i] = ns / NS_PER_US;
	}
	/* typed once; wrong only where a deadline thread would need them */
	int bad_rt = dl_spec_parse(cfg->campaign.dl_runtime, &cfg->dl_runtime),
	    bad_dl = dl_spec_parse(cfg->campaign.dl_deadline, &cfg->dl_deadline);

	for (int i = 0; deadline && i < cfg->matrix.interval.n; i++) {
		int64_t period = cfg->matrix.interval.v[i];
		int64_t rt = config_dl_ns(&cfg->dl_runtime, period), dl = config_dl_ns(&cfg->dl_deadline, period);
		const char *bad = bad_rt || rt <= 0 ? "dl_runtime" : bad_dl || dl <= 0 ? "dl_deadline" : NULL;

		if (!bad && !(rt <= dl && dl <= period))
			bad = "dl_runtime";
		if (bad) {
			loc = config_key_loc(cfg, "campaign", bad, pol->loc);
			return cfg_fail(err, errlen, &loc,
					"policy = deadline with interval %lld ns: %s must be a percentage (1%%-100%%) or a duration, and runtime <= deadline <= period (dl_runtime = %s, dl_deadline = %s)",
					(long long)period, bad, cfg->campaign.dl_runtime,
					cfg->campaign.dl_deadline);
		}
	}
	return 0;
}

/* Each variant's [trace] mode: its own, or [trace]'s. */
static void resolve_trace_modes(struct config *cfg)
{
	for (int k = 0; k < cfg->nkernels; k++) {
		struct kernel_def *kd = &cfg->kernel[k];

		kd->trace_mode = kd->trace == KTRACE_INHERIT ? cfg->trace.mode :
				 kd->trace == KTRACE_SPIKES ? TRACE_SPIKES : TRACE_OFF;
	}
}

/* events = system:event, ...: the names' shape (whether they exist is the run's), typed */
static int check_trace_events(struct config *cfg, char *err, size_t errlen)
{
	const char *p = cfg->trace.events;
	char word[OPT_STR_MAX], why[OPT_STR_MAX + 128];
	struct srcloc loc = config_key_loc(cfg, "trace", "events", (struct srcloc){ 0 });

	cfg->trace.nevents = 0;
	if (*p && opt_list_check(p, "events", why, sizeof(why)))
		return cfg_fail(err, errlen, &loc, "%s", why);
	while (opt_list_next(&p, word, sizeof(word), 1)) {
		const char *w = word, *colon = strchr(w, ':');
		struct trace_event *te = &cfg->trace.event[cfg->trace.nevents];

		int ok = colon && colon != w && colon[1] && !strchr(colon + 1, ':') &&
			 (size_t)(colon - w) < sizeof(te->sys) && strlen(colon + 1) < sizeof(te->ev);
		for (const char *c = w; ok && *c; c++)
			ok = isalnum((unsigned char)*c) || *c == '_' || *c == ':';
		if (!ok)
			return cfg_fail(err, errlen, &loc,
					"events: '%s' is not system:event (letters, digits, '_'), e.g. sched:sched_migrate_task",
					w);
		if (cfg->trace.nevents == TRACE_EVENTS_MAX)
			return cfg_fail(err, errlen, &loc, "events: more than %d", TRACE_EVENTS_MAX);
		snprintf(te->sys, sizeof(te->sys), "%.*s", (int)(colon - w), w);
		snprintf(te->ev, sizeof(te->ev), "%s", colon + 1);
		cfg->trace.nevents++;
	}
	return 0;
}

/* method = bpf records its own events: none added, no osnoise account (timerlat's); recorder = lean is its */
static int check_trace_method(const struct config *cfg, char *err, size_t errlen)
{
	struct srcloc loc = config_key_loc(cfg, "trace", "method", (struct srcloc){ 0 });

	if (cfg->trace.recorder == TRACE_REC_LEAN && cfg->trace.method == TRACE_BY_TRACEFS) {
		struct srcloc rl = config_key_loc(cfg, "trace", "recorder", loc);

		return cfg_fail(err, errlen, &rl,
				"recorder = lean is the flight recorder's: it needs method = bpf (or auto)");
	}
	if (cfg->trace.method != TRACE_BY_BPF || (!cfg->trace.nevents && !cfg->trace.timerlat))
		return 0;
	return cfg_fail(err, errlen, &loc,
			"method = bpf records its own events only: %s needs method = tracefs (or auto, which takes tracefs then)",
			cfg->trace.nevents ? "events" : "timerlat = on (its osnoise events)");
}

/*
 * [thresholds] baseline: a tree, or campaigns of it (A,B,C), none empty
 * — an empty list would turn the gate off. Whether they are trees the
 * preflight says, before any cell runs (the config reads no machine).
 */
static int check_baseline(const struct config *cfg, char *err, size_t errlen)
{
	char why[OPT_STR_MAX + 128];

	if (!cfg->thresholds.baseline[0] ||
	    opt_list_check(cfg->thresholds.baseline, "baseline", why, sizeof(why)) == 0)
		return 0;
	return cfg_fail(err, errlen, &cfg->baseline_loc, "%s (a results tree, or campaigns of it: A,B,C)",
			why);
}

/* The product of the axes (and repeat): at most MATRIX_MAX_CELLS cells. */
static int check_matrix_size(const struct config *cfg, char *err, size_t errlen)
{
	const struct matrix_opts *m = &cfg->matrix;
	long double cells = (long double)cfg->campaign.repeat;
	struct srcloc loc = config_key_loc(cfg, "campaign", "repeat", (struct srcloc){ 0 });
	char counts[1024] = "";

	for (int a = 0; a < TAXIS_COUNT; a++) {
		if (!taxis_in_matrix(a))
			continue;
		cells *= m->ax[a].n;
		if (m->ax[a].n > 1 && m->ax[a].loc.file)
			loc = m->ax[a].loc;	/* the last axis that multiplies */
		size_t u = strlen(counts);

		snprintf(counts + u, sizeof(counts) - u, "%d %s x ", m->ax[a].n, axis_defs[a].plural);
	}
	if (cfg->campaign.repeat_first > cfg->campaign.repeat) {
		loc = config_key_loc(cfg, "campaign", "repeat_first", loc);
		return cfg_fail(err, errlen, &loc, "repeat_first = %lld is above repeat = %lld: a tree is only ever extended",
				(long long)cfg->campaign.repeat_first, (long long)cfg->campaign.repeat);
	}
	if (cells <= MATRIX_MAX_CELLS)
		return 0;
	return cfg_fail(err, errlen, &loc, "the matrix has %.0Lf cells (%srepeat %lld): at most %d",
			cells, counts, (long long)cfg->campaign.repeat, MATRIX_MAX_CELLS);
}

/*
 * [thresholds] missed = P% (0 to 100, up to 4 decimals) or off, into
 * parts per million. 0, or -EINVAL at the key's line.
 */
static int check_missed(struct config *cfg, char *err, size_t errlen)
{
	const char *s = cfg->thresholds.missed;
	int64_t whole = 0, frac = 0, div = 1;
	const char *p = s;

	cfg->thresholds.missed_given =
		config_key_loc(cfg, "thresholds", "missed", (struct srcloc){ 0 }).file != NULL;
	if (strcmp(s, "off") == 0) {
		cfg->thresholds.missed_ppm = -1;
		return 0;
	}
	for (; isdigit((unsigned char)*p) && whole < 1000; p++)
		whole = whole * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p) && div < 10000; p++) {
			frac = frac * 10 + (*p - '0');
			div *= 10;
		}
	if (p == s || strcmp(p, "%") != 0 || whole > 100 || (whole == 100 && frac)) {
		struct srcloc loc = config_key_loc(cfg, "thresholds", "missed", (struct srcloc){ 0 });

		return cfg_fail(err, errlen, &loc,
				"missed = '%s': a share of the periods from 0%% to 100%% (as 1%% or 0.5%%), or off", s);
	}
	cfg->thresholds.missed_ppm = whole * 10000 + frac * 10000 / div;
	return 0;
}

int validate(struct config *cfg, struct cfg_errs *errs)
{
	struct srcloc loc;
	char err[1024];
	size_t errlen = sizeof(err);
	int defs;

	if (!valid_name(cfg->campaign.name)) {
		loc = config_key_loc(cfg, "campaign", "name", (struct srcloc){ 0 });
		cfg_fail(err, errlen, &loc,
			 "campaign name '%s': use letters, digits, '_', '.', '-' (at most %d; not . or ..)",
			 cfg->campaign.name, CFG_NAME_MAX - 1);
		cfg_errs_add(errs, err);
	}
	if (!cfg->campaign.output[0]) {
		loc = config_key_loc(cfg, "campaign", "output", (struct srcloc){ 0 });
		cfg_fail(err, errlen, &loc, "output is empty");
		cfg_errs_add(errs, err);
	}
	if (cfg->campaign.timeline % NS_PER_S) {
		loc = config_key_loc(cfg, "campaign", "timeline", (struct srcloc){ 0 });
		cfg_fail(err, errlen, &loc,
			 "timeline = %lld ns: whole seconds (10s, 1m), or 0s for none",
			 (long long)cfg->campaign.timeline);
		cfg_errs_add(errs, err);
	}
	if (check_missed(cfg, err, errlen))
		cfg_errs_add(errs, err);
	CPU_ZERO(&cfg->housekeeping);
	if (cfg->campaign.housekeeping[0] &&
	    (cpulist_parse(cfg->campaign.housekeeping, &cfg->housekeeping) != 0 ||
	     CPU_COUNT(&cfg->housekeeping) == 0)) {
		loc = config_key_loc(cfg, "campaign", "housekeeping", (struct srcloc){ 0 });
		cfg_fail(err, errlen, &loc, "housekeeping = '%s': expected a CPU list (0, 0-1, 0+2), or nothing",
			 cfg->campaign.housekeeping);
		cfg_errs_add(errs, err);
	}
	defs = add_builtin_defs(cfg, err, errlen);
	if (defs)
		cfg_errs_add(errs, err);
	if (check_trace_events(cfg, err, errlen) || check_trace_method(cfg, err, errlen))
		cfg_errs_add(errs, err);
	if (check_baseline(cfg, err, errlen))
		cfg_errs_add(errs, err);
	if (check_policy_axes(cfg, err, errlen))
		cfg_errs_add(errs, err);
	for (int i = 0; i < cfg->nkernels; i++)
		if (check_kernel(cfg, &cfg->kernel[i], err, errlen))
			cfg_errs_add(errs, err);
	/* the definitions the axes name exist only once the built-ins are added */
	for (int i = 0; defs == 0 && i < cfg->nloads; i++)
		if (resolve_load(cfg, &cfg->load[i], err, errlen))
			cfg_errs_add(errs, err);
	for (int i = 0; defs == 0 && i < cfg->nworkloads; i++)
		if (resolve_workload(cfg, &cfg->workload[i], err, errlen))
			cfg_errs_add(errs, err);
	if (errs->n == 0 && resolve_chains(cfg, err, errlen))
		cfg_errs_add(errs, err);
	if (errs->n == 0 && check_matrix_size(cfg, err, errlen))
		cfg_errs_add(errs, err);
	resolve_trace_modes(cfg);
	if (errs->n == 0 && resolve_places(cfg))
		cfg_errs_add(errs, "the affinity axis: an item that was read cannot be typed");
	return errs->n ? -EINVAL : 0;
}
