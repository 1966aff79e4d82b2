/*
 * The commands that read a config: run, plan, and watch (a config of one
 * cell made from its options).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "cli.h"
#include "config.h"
#include "exitcodes.h"
#include "log.h"
#include "watch.h"
#include "watch_opts.h"

#define MAX_SETS 256

/* --set SECTION.KEY=VALUE, in the order given */
struct set_list {
	const char *v[MAX_SETS + 1];
	int n;
};

struct cfg_args {
	const char *path;
	struct set_list sets;
	const char *output;
	int allow_non_rt;
	int restart;
	int reboot;
	int quiet;
	int jobs;		/* --jobs: instruction-clock guests side by side; 0: per CPU */
	char duration_set[96];	/* --duration D as "campaign.duration=D" */
	/* inside a latlab VM only: the guest's init passes these */
	const char *guest, *guest_accel, *guest_cells, *guest_channel;
};

static int add_set(const char *arg, void *field)
{
	struct set_list *s = field;

	if (s->n >= MAX_SETS - 1) {
		log_error("more than %d --set options", MAX_SETS - 1);
		return -EINVAL;
	}
	s->v[s->n++] = arg;
	return 0;
}

/* --duration D: a --set of campaign.duration that wins over all (added last) */
static int duration(const char *arg, void *field)
{
	char *set = field;

	if (snprintf(set, sizeof(((struct cfg_args *)0)->duration_set), "campaign.duration=%s",
		     arg) >= (int)sizeof(((struct cfg_args *)0)->duration_set)) {
		log_error("--duration '%.40s...': not a duration (too long)", arg);
		return -EINVAL;
	}
	return 0;
}

#define A(f) offsetof(struct cfg_args, f)
#define CONFIG_OPTS							\
	{ "output", 'o', "DIR", CLI_TEXT, A(output), NULL,		\
	  "results directory (overrides [campaign] output)" },		\
	{ "set", 's', "S.K=V", CLI_CALL, A(sets), add_set,		\
	  "override one config option (repeatable; wins over the file)" }, \
	{ "duration", 'd', "D", CLI_CALL, A(duration_set), duration,	\
	  "measuring time per cell (same as --set campaign.duration=D)" }, \
	{ "jobs", 'j', "N", CLI_CALL, A(jobs), cli_jobs_guests,	\
	  "instruction-clock guests side by side (default: one per CPU)" }

const struct cli_opt plan_cli[] = {
	CONFIG_OPTS,
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};

const struct cli_opt run_cli[] = {
	CONFIG_OPTS,
	{ "allow-non-rt", 0, NULL, CLI_FLAG, A(allow_non_rt), NULL,
	  "if SCHED_FIFO is refused, measure SCHED_OTHER threads (marked policy=other)" },
	{ "restart", 0, NULL, CLI_FLAG, A(restart), NULL,
	  "do not resume an earlier run in the same directory: keep it aside, start over" },
	{ "reboot", 0, NULL, CLI_FLAG, A(reboot), NULL,
	  "then boot the next kernel variant with pending cells ([kernel.NAME] reboot =)" },
	{ "quiet", 'q', NULL, CLI_FLAG, A(quiet), NULL, "no progress lines" },
	/* the guest's init passes these (vm/initramfs.c) */
	{ "guest", 0, "NAME", CLI_TEXT, A(guest), NULL, NULL },
	{ "guest-accel", 0, "ACCEL", CLI_TEXT, A(guest_accel), NULL, NULL },
	{ "guest-cells", 0, "LIST", CLI_TEXT, A(guest_cells), NULL, NULL },
	/* and the latlab that starts a container (campaign_container.c) */
	{ "guest-channel", 0, "FD", CLI_TEXT, A(guest_channel), NULL, NULL },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef A

static int run_body(const struct config *cfg, const struct cfg_args *a)
{
	struct run_opts ro = {
		.output = a->output,
		.allow_non_rt = a->allow_non_rt,
		.restart = a->restart,
		.reboot = a->reboot,
		.quiet = a->quiet,
		.jobs = a->jobs,
		.cmdline = cli_cmdline(),
		.guest = a->guest,
		.guest_accel = a->guest_accel,
		.guest_cells = a->guest_cells,
		.guest_channel = a->guest_channel,
	};

	log_set_quiet(a->quiet);
	return campaign_run(cfg, &ro);
}

static int plan_body(const struct config *cfg, const struct cfg_args *a)
{
	return campaign_plan(cfg, a->output, a->jobs, stdout);
}

/*
 * run's and plan's command line read, the config loaded and handed to
 * `body`. The exit status.
 */
static int with_config(const char *cmd, int argc, char **argv,
		       int (*body)(const struct config *cfg, const struct cfg_args *a))
{
	struct cfg_args a = { 0 };
	struct config *cfg;
	char err[(CONFIG_ERRORS_MAX + 1) * 512];
	int first, rc = cli_parse(cmd, argc, argv, &a, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (first != argc - 1)
		return cli_bad_usage(cmd);
	a.path = argv[first];
	if (a.duration_set[0])
		a.sets.v[a.sets.n++] = a.duration_set;
	cfg = malloc(sizeof(*cfg));
	if (!cfg) {
		log_error("out of memory");
		return EXIT_RUNTIME;
	}
	if (config_load(cfg, a.path, a.sets.v, a.sets.n, err, sizeof(err))) {
		log_error_lines(err);
		rc = EXIT_USAGE;
	} else {
		rc = body(cfg, &a);
	}
	config_free(cfg);
	free(cfg);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	return with_config("run", argc, argv, run_body);
}

int cmd_plan(int argc, char **argv)
{
	return with_config("plan", argc, argv, plan_body);
}

/* latlab watch's options */
struct watch_args {
	const char *pid, *comm, *command, *tid, *duration, *output, *name, *method;
	int quiet;
};

#define W(f) offsetof(struct watch_args, f)
const struct cli_opt watch_cli[] = {
	{ "pid", 0, "PID", CLI_TEXT, W(pid), NULL, "the program: a process by its id" },
	{ "comm", 0, "NAME", CLI_TEXT, W(comm), NULL, "the program: the one process called NAME" },
	{ "command", 0, "CMD", CLI_TEXT, W(command), NULL, "the program: started by latlab, ended after the cell" },
	{ "tid", 0, "TID,...", CLI_TEXT, W(tid), NULL, "only these of its threads (default: every one)" },
	{ "duration", 0, "D", CLI_TEXT, W(duration), NULL, "how long to watch (default 10s)" },
	{ "output", 'o', "DIR", CLI_TEXT, W(output), NULL, "results directory (default results)" },
	{ "name", 0, "NAME", CLI_TEXT, W(name), NULL, "the campaign's name: DIR/NAME (default watch)" },
	{ "method", 0, "M", CLI_TEXT, W(method), NULL, "how the kernel keeps the histograms: auto (default), bpf or hist" },
	{ "quiet", 'q', NULL, CLI_FLAG, W(quiet), NULL, "no progress lines" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef W

/* one option of a typed section: "--KEY: why" said, -EINVAL */
static int typed(const struct opt *table, void *base, const char *key, const char *value)
{
	char err[512];

	if (!value)
		return 0;
	if (opt_parse(opt_find(table, key), base, value, err, sizeof(err)) != 0) {
		log_error("watch: %s", err);
		return -EINVAL;
	}
	return 0;
}

/*
 * latlab watch: a campaign of one `type = watch` cell, its config made
 * typed from the options (no file: config_init, each option parsed by
 * its table, config_finish), then run as `latlab run` runs any. What the
 * program must be (one of pid, comm, command) is checked against the
 * options given, then the program, then the kernel, before anything is
 * written.
 */
int cmd_watch(int argc, char **argv)
{
	struct watch_args w = { .duration = "10s", .output = "results", .name = "watch" };
	struct cfg_args a = { 0 };
	char err[(CONFIG_ERRORS_MAX + 1) * 512];
	int first, rc = cli_parse("watch", argc, argv, &w, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	a.quiet = w.quiet;
	int how = !!w.pid + !!w.comm + !!w.command;

	if (first != argc || how != 1) {
		if (how != 1)
			log_error("watch: name the program by exactly one of --pid, --comm and --command");
		return cli_bad_usage("watch");
	}
	struct config *cfg = malloc(sizeof(*cfg));

	if (!cfg)
		return EXIT_RUNTIME;
	config_init(cfg);
	struct workload_def *wd = config_add_workload(cfg, "watched", "watch", err, sizeof(err));
	struct watch_opts *o = wd ? wd->opts : NULL;

	if (!wd)
		log_error("watch: %s", err);
	if (!wd || typed(campaign_options, &cfg->campaign, "name", w.name) ||
	    typed(campaign_options, &cfg->campaign, "duration", w.duration) ||
	    typed(campaign_options, &cfg->campaign, "output", w.output) ||
	    typed(matrix_options, &cfg->matrix, "workload", "watched") ||
	    typed(wd->ops->options, o, "pid", w.pid) || typed(wd->ops->options, o, "comm", w.comm) ||
	    typed(wd->ops->options, o, "command", w.command) ||
	    typed(wd->ops->options, o, "tid", w.tid) || typed(wd->ops->options, o, "method", w.method)) {
		rc = EXIT_USAGE;
		goto out;
	}
	/* the options against each other ("tid: ..."), said as the type says them */
	if (wd->ops->check && wd->ops->check(o, err, sizeof(err)) != 0) {
		log_error("watch: %s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (config_finish(cfg, err, sizeof(err)) != 0) {
		for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n"))
			log_error("watch: %s", line);
		rc = EXIT_USAGE;
		goto out;
	}
	/*
	 * What run's preflight would say of the workload's keys, said of the
	 * options ("pid 7: ..." as "--pid 7: ...", "command = CMD: ..." as
	 * "--command CMD: ..."): the program first, then what this kernel lacks
	 */
	const char *key = "";
	char msg[512], why[sizeof(msg) + 16];
	int found = watch_program_check(o, &key, msg, sizeof(msg));

	if (found) {
		size_t k = strlen(key);

		if (strncmp(msg, key, k) == 0 && msg[k] == ' ')
			snprintf(why, sizeof(why), "--%s %s", key,
				 msg + k + (strncmp(msg + k, " = ", 3) == 0 ? 3 : 1));
		else	/* comm's: "no process is called ..." */
			snprintf(why, sizeof(why), "%s", msg);
	}
	if (found == 0)
		found = watch_check(o->method, NULL, why, sizeof(why));
	if (found) {
		log_error("watch: %s", why);
		rc = EXIT_USAGE;
	} else {
		rc = run_body(cfg, &a);
	}
out:
	config_free(cfg);
	free(cfg);
	return rc;
}
