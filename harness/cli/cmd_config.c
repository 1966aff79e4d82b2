/*
 * The commands that read a config: run, plan, and watch (a config of one
 * cell made from its options).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	const char *guest, *guest_accel, *guest_cells;
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

/*
 * latlab watch: the config of a campaign of one `type = watch` cell,
 * written where config_load reads it (a memfd: nothing on disk but the
 * tree), then run as `latlab run` runs any. What the program must be
 * (one of pid, comm, command) is checked here, against the options
 * given, before anything is written.
 */
int cmd_watch(int argc, char **argv)
{
	struct watch_args w = { .duration = "10s", .output = "results", .name = "watch" };
	const char *pid, *comm, *command, *tid, *duration, *output, *name, *method;
	struct cfg_args a = { 0 };
	int first, how, rc0 = cli_parse("watch", argc, argv, &w, &first);

	if (rc0)
		return rc0 == 1 ? EXIT_PASS : rc0;
	pid = w.pid, comm = w.comm, command = w.command, tid = w.tid;
	duration = w.duration, output = w.output, name = w.name, method = w.method;
	a.quiet = w.quiet;
	how = !!pid + !!comm + !!command;
	if (first != argc || how != 1) {
		if (how != 1)
			log_error("watch: name the program by exactly one of --pid, --comm and --command");
		return cli_bad_usage("watch");
	}
	const char *const given[] = { duration, output, name, pid, comm, command, tid, method };

	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		if (given[k] && strpbrk(given[k], "\n\r")) {
			log_error("watch: '%s': a line break in an option", given[k]);
			return EXIT_USAGE;
		}
	int fd = memfd_create("latlab-watch.ini", MFD_CLOEXEC);
	FILE *fp = fd >= 0 ? fdopen(fd, "w+") : NULL;
	char path[64];

	if (!fp) {
		log_error("watch: memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_RUNTIME;
	}
	fprintf(fp, "[campaign]\nname = %s\nduration = %s\noutput = %s\n"
		"[matrix]\nworkload = watched\n[workload.watched]\ntype = watch\n",
		name, duration, output);
	if (pid)
		fprintf(fp, "pid = %s\n", pid);
	if (comm)
		fprintf(fp, "comm = %s\n", comm);
	if (command)
		fprintf(fp, "command = %s\n", command);
	if (tid)
		fprintf(fp, "tid = %s\n", tid);
	if (method)
		fprintf(fp, "method = %s\n", method);
	fflush(fp);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	a.path = path;
	struct config *cfg = malloc(sizeof(*cfg));
	char err[(CONFIG_ERRORS_MAX + 1) * 512];
	int rc = cfg ? 0 : EXIT_RUNTIME;

	if (cfg && config_load(cfg, path, NULL, 0, err, sizeof(err)) != 0) {
		/* "/proc/self/fd/3:9: [workload.watched] tid: ..." is the options' */
		for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n")) {
			const char *what = line;

			if (strncmp(what, path, strlen(path)) == 0 && strstr(what, ": "))
				what = strstr(what, ": ") + 2;
			if (strncmp(what, "[workload.watched]: ", 20) == 0)
				what += 20;
			log_error("watch: %s", what);
		}
		config_free(cfg);
		rc = EXIT_USAGE;
	} else if (cfg) {
		/*
		 * What run's preflight would say at a line of a config the
		 * user never saw, said of the options ("pid 7: ..." as
		 * "--pid 7: ...", "command = CMD: ..." as "--command CMD: ..."):
		 * the program first, then what this kernel lacks
		 */
		const struct watch_opts *o = cfg->workload[config_workload_index(cfg, "watched")].opts;
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
		config_free(cfg);
	}
	free(cfg);
	fclose(fp);
	return rc;
}

