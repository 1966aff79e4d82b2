/*
 * latlab: a real-time latency lab. Its commands are the table `commands`
 * below (run, status, plan, list, report, compare, history, export,
 * sysinfo, hwlat, help; `latlab help` prints it). See docs/guide.md;
 * exit statuses in docs/exit-status.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "axis.h"
#include "beyond.h"
#include "campaign.h"
#include "cellfiles.h"
#include "config.h"
#include "exitcodes.h"
#include "export.h"
#include "hwlat.h"
#include "load_ops.h"
#include "log.h"
#include "report.h"
#include "sysinfo.h"
#include "units.h"
#include "version.h"
#include "watch.h"
#include "watch_opts.h"
#include "workload.h"

#define MAX_SETS 256

struct command {
	const char *name;
	const char *usage;
	const char *help;
	int (*fn)(int argc, char **argv);
};

static int cmd_run(int argc, char **argv);
static int cmd_plan(int argc, char **argv);
static int cmd_list(int argc, char **argv);
static int cmd_sysinfo(int argc, char **argv);
static int cmd_help(int argc, char **argv);
static int cmd_export(int argc, char **argv);
static int cmd_report(int argc, char **argv);
static int cmd_status(int argc, char **argv);
static int cmd_compare(int argc, char **argv);
static int cmd_history(int argc, char **argv);
static int cmd_hwlat(int argc, char **argv);
static int cmd_watch(int argc, char **argv);

static const struct command commands[] = {
	{ "run", "run CONFIG [-o DIR] [--set SECTION.KEY=VALUE]... [--duration D] [--jobs N] [--allow-non-rt] [--restart] [--reboot] [-q]",
	  "run (or resume) every cell of CONFIG that fits the running kernel",
	  cmd_run },
	{ "status", "status DIR", "the cells of a campaign directory by status and kernel variant, and the time left",
	  cmd_status },
	{ "plan", "plan CONFIG [--set SECTION.KEY=VALUE]... [--duration D] [--jobs N] [-o DIR]",
	  "print the cells, the estimated wall time and what run would refuse (its exit status); runs nothing",
	  cmd_plan },
	{ "list", "list [--markdown]", "print the axes, every option with its type, default and help, the workloads and the loads (--markdown: docs/reference.md)",
	  cmd_list },
	{ "report", "report DIR [--axis AXIS] [--metric M] [--margin 10%] [--deadline D [--target P]] [--pdf] [--png] [--jobs N] [-q]",
	  "render DIR's figures (gnuplot) and DIR/report/index.html",
	  cmd_report },
	{ "compare", "compare DIR[,DIR...]... [-o OUT] [--axis AXIS] [--metric M] [--margin 10%] [--deadline D [--target P]] [--pdf] [--jobs N] [--over 100us,1ms] [--baseline TREE[,TREE...] [--tolerance 20%]]",
	  "line up the same cells across kernel variants, hosts and campaigns (one tree of several variants, or several trees; A,B,C: campaigns of one side), or along any axis (--axis load)",
	  cmd_compare },
	{ "history", "history DIR... [-o OUT] [--by time|release] [--deadline D [--target P]] [--jobs N]",
	  "the same cells across many campaign trees: a trend and a waterfall per row, the trees listed",
	  cmd_history },
	{ "export", "export --format csv|cyclictest|json CELL-DIR [-o FILE] [--metric M] [--hist-us N]",
	  "a cell as cyclictest's --histfile or --json, or its samples.bin as CSV",
	  cmd_export },
	{ "sysinfo", "sysinfo", "print what this machine is (sysinfo.ini) and what distorts results",
	  cmd_sysinfo },
	{ "watch", "watch --pid PID | --comm NAME | --command CMD [--tid TID,...] [--duration D] [-o DIR] [--name NAME] [-q]",
	  "the wake-up latencies of a program's own threads, kept by the kernel (histogram triggers): a campaign of one cell, DIR/NAME",
	  cmd_watch },
	{ "hwlat", "hwlat [--duration D]",
	  "the kernel's hwlat tracer in latlab's own tracefs instance: gaps the hardware or firmware took (default 10s)",
	  cmd_hwlat },
	{ "help", "help [COMMAND]", "this help, or one command's", cmd_help },
	{ NULL, NULL, NULL, NULL },
};

/* the command line as run, for sysinfo.ini; main's only global */
static char cmdline_text[4096];

static void usage(FILE *fp)
{
	fprintf(fp, "usage: latlab COMMAND [OPTIONS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(fp, "  %-8s %s\n", c->name, c->help);
	fprintf(fp, "\nlatlab help COMMAND shows a command's options; latlab --version its version.\n");
}

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int bad_usage(const char *cmd)
{
	const struct command *c = find_command(cmd);

	fprintf(stderr, "usage: latlab %s\n", c->usage);
	return EXIT_USAGE;
}

/* --jobs N, 1 to 64 (what runs side by side: `what`). 0, or -EINVAL after saying why. */
static int parse_jobs(const char *arg, const char *what, int *jobs)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 64) {
		log_error("--jobs: '%s' is not a number of %s (1 to 64)", arg, what);
		return -EINVAL;
	}
	*jobs = (int)v;
	return 0;
}

struct cfg_args {
	const char *path;
	const char *sets[MAX_SETS + 1];
	int nsets;
	const char *output;
	int allow_non_rt;
	int restart;
	int reboot;
	int quiet;
	int jobs;		/* --jobs: instruction-clock guests side by side; 0: per CPU */
	int help;		/* --help was given: usage printed, nothing to do */
	char duration_set[96];
	/* inside a latlab VM only: the guest's init passes these */
	const char *guest, *guest_accel, *guest_cells;
};

/* Options shared by run and plan. Returns 0, or the exit status. */
static int parse_cfg_args(const char *cmd, int argc, char **argv,
			  struct cfg_args *a, int allow_run_opts)
{
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-non-rt", no_argument, NULL, 'R' },
		{ "restart", no_argument, NULL, 'S' },
		{ "reboot", no_argument, NULL, 'B' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "guest", required_argument, NULL, 'G' },
		{ "guest-accel", required_argument, NULL, 'A' },
		{ "guest-cells", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:d:o:qhj:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			if (parse_jobs(optarg, "guests side by side", &a->jobs))
				return EXIT_USAGE;
			break;
		case 's':
			if (a->nsets >= MAX_SETS - 1) {
				log_error("more than %d --set options", MAX_SETS - 1);
				return EXIT_USAGE;
			}
			a->sets[a->nsets++] = optarg;
			break;
		case 'd':
			if (snprintf(a->duration_set, sizeof(a->duration_set),
				     "campaign.duration=%s", optarg) >= (int)sizeof(a->duration_set)) {
				log_error("--duration '%.40s...': not a duration (too long)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			a->output = optarg;	/* run's and plan's */
			break;
		case 'R':
		case 'S':
		case 'B':
		case 'q':
		case 'G':
		case 'A':
		case 'C':
			if (!allow_run_opts)
				return bad_usage(cmd);
			if (opt == 'G')
				a->guest = optarg;
			else if (opt == 'A')
				a->guest_accel = optarg;
			else if (opt == 'C')
				a->guest_cells = optarg;
			else if (opt == 'R')
				a->allow_non_rt = 1;
			else if (opt == 'S')
				a->restart = 1;
			else if (opt == 'B')
				a->reboot = 1;
			else
				a->quiet = 1;
			break;
		case 'h':
			printf("usage: latlab %s\n", find_command(cmd)->usage);
			a->help = 1;
			return 0;
		default:
			return bad_usage(cmd);
		}
	}
	if (optind != argc - 1)
		return bad_usage(cmd);
	a->path = argv[optind];
	/* --duration is a --set of campaign.duration that wins over all */
	if (a->duration_set[0])
		a->sets[a->nsets++] = a->duration_set;
	return 0;
}

static int load_config(const struct cfg_args *a, struct config *cfg)
{
	char err[(CONFIG_ERRORS_MAX + 1) * 512];

	if (config_load(cfg, a->path, a->sets, a->nsets, err, sizeof(err))) {
		log_error_lines(err);
		config_free(cfg);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Parse run/plan arguments, load the config and hand it to `body`.
 * Returns the exit status.
 */
static int with_config(const char *cmd, int argc, char **argv,
		       int allow_run_opts,
		       int (*body)(const struct config *cfg,
				   const struct cfg_args *a))
{
	struct cfg_args a;
	struct config *cfg;
	int rc = parse_cfg_args(cmd, argc, argv, &a, allow_run_opts);

	if (rc != 0 || a.help)
		return rc;
	cfg = malloc(sizeof(*cfg));
	if (!cfg) {
		log_error("out of memory");
		return EXIT_RUNTIME;
	}
	rc = load_config(&a, cfg);
	if (rc == 0) {
		rc = body(cfg, &a);
		config_free(cfg);
	}
	free(cfg);
	return rc;
}

static int run_body(const struct config *cfg, const struct cfg_args *a)
{
	struct run_opts ro = {
		.output = a->output,
		.allow_non_rt = a->allow_non_rt,
		.restart = a->restart,
		.reboot = a->reboot,
		.quiet = a->quiet,
		.jobs = a->jobs,
		.cmdline = cmdline_text,
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

static int cmd_run(int argc, char **argv)
{
	return with_config("run", argc, argv, 1, run_body);
}

static int cmd_plan(int argc, char **argv)
{
	return with_config("plan", argc, argv, 0, plan_body);
}

static void list_table(const char *section, const struct opt *table)
{
	char def[128];

	printf("[%s]\n", section);
	if (!table || !table->key)
		printf("  (no options)\n");
	/* the columns as wide as the section's longest key, type and default */
	int kw = 10, tw = 14, dw = 10;

	for (const struct opt *o = table; o && o->key; o++) {
		int k = (int)strlen(o->key), t = (int)strlen(opt_type_name(o));
		int d = o->def ? (int)strlen(o->def) : 7;

		kw = k > kw ? k : kw;
		tw = t > tw ? t : tw;
		dw = d > dw && d <= 24 ? d : dw;	/* a long default runs over, not every row */
	}
	for (const struct opt *o = table; o && o->key; o++) {
		if (o->def)
			snprintf(def, sizeof(def), "%s", o->def);
		else
			snprintf(def, sizeof(def), "(unset)");
		printf("  %-*s %-*s default %-*s %s%s%s\n", kw, o->key, tw,
		       opt_type_name(o), dw, def, o->help,
		       o->choices ? ": " : "", o->choices ? o->choices : "");
	}
}

/* s in a Markdown table's cell: its | escaped */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			putchar('\\');
		putchar(*s);
	}
}

/* A table of options as Markdown (latlab list --markdown: docs/reference.md) */
static void md_table(const char *section, const struct opt *table)
{
	printf("\n### [%s]\n\n", section);
	if (!table || !table->key) {
		printf("(no options)\n");
		return;
	}
	printf("| key | type | default | what it is |\n|---|---|---|---|\n");
	for (const struct opt *o = table; o && o->key; o++) {
		printf("| `%s` | %s | ", o->key, opt_type_name(o));
		if (o->def && o->def[0]) {
			putchar('`');
			md_cell(o->def);
			putchar('`');
		} else
			printf("%s", o->def ? "(empty)" : "(unset)");
		printf(" | ");
		md_cell(o->help);
		if (o->choices) {
			printf(": ");
			md_cell(o->choices);
		}
		printf(" |\n");
	}
}

/* A workload or load type's line before its table, plain or Markdown. */
static void list_type(const char *name, const char *help)
{
	printf("\n  %-10s %s\n", name, help);
}

static void md_type(const char *name, const char *help)
{
	printf("\n**%s**: ", name);
	md_cell(help);
	printf("\n");
}

/* How latlab list says it: plain, or Markdown (docs/reference.md). */
struct list_style {
	void (*table)(const char *section, const struct opt *table);
	void (*type)(const char *name, const char *help);
	const char *head, *workloads, *loads, *kernels;
	int none;	/* the load type none has a line of its own */
};

static const struct list_style list_plain = {
	list_table, list_type,
	"Axes and options (config sections; --set SECTION.KEY=VALUE):\n\n",
	"\nWorkloads ([workload.NAME] type = ..., or the name itself in the workload axis):\n",
	"\nLoads ([load.NAME] type = ..., or none in the load axis; each instance is a latload process):\n",
	"\nKernel variants built in: running (any kernel), stock (!preempt:rt), rt (preempt:rt)\n",
	1,
};

static const struct list_style list_md = {
	md_table, md_type,
	"\n## Config keys\n\nEach key is `[SECTION] KEY = VALUE` in a config, or `--set SECTION.KEY=VALUE`.\n",
	"\n## Workload types\n\n`[workload.NAME] type = TYPE`, or the type itself in the workload axis.\n",
	"\n## Load types\n\n`[load.NAME] type = TYPE`, or `none` in the load axis; each instance is a latload process.\n",
	"\n## Kernel variants built in\n\n`running` (any kernel), `stock` (`!preempt:rt`), `rt` (`preempt:rt`).\n",
	0,
};

/* One type's line and its options' table ("workload type timer"). */
static void list_one(const struct list_style *st, const char *kind, const char *name,
		     const char *help, const struct opt *options)
{
	char sec[64];

	st->type(name, help);
	snprintf(sec, sizeof(sec), "%s type %s", kind, name);
	if (options && options->key)
		st->table(sec, options);
}

/* Every section's keys, the workload and load types with theirs, in style st. */
static void list_all(const struct list_style *st)
{
	fputs(st->head, stdout);
	st->table("campaign", campaign_options);
	st->table("matrix", matrix_options);
	st->table("thresholds", threshold_options);
	st->table("thresholds (the whole campaign)", baseline_options);
	st->table("trace", trace_options);
	st->table("kernel.NAME", kernel_options);
	st->table("load.NAME", load_options);
	fputs(st->workloads, stdout);
	for (int i = 0; workload_registry[i]; i++)
		list_one(st, "workload", workload_registry[i]->name, workload_registry[i]->help,
			 workload_registry[i]->options);
	fputs(st->loads, stdout);
	if (st->none)
		st->type("none", "no load: the machine as it is");
	for (int i = 0; load_registry[i]; i++)
		list_one(st, "load", load_registry[i]->name, load_registry[i]->help,
			 load_registry[i]->options);
	fputs(st->kernels, stdout);
}

/*
 * What latlab list prints, as Markdown, after the commands: docs/reference.md
 * is this output (make reference writes it; a test holds them equal).
 */
static void list_markdown(void)
{
	printf("## Commands\n\n| command | what it does |\n|---|---|\n");
	for (const struct command *c = commands; c->name; c++) {
		printf("| `latlab ");
		md_cell(c->usage);
		printf("` | ");
		md_cell(c->help);
		printf(" |\n");
	}
	list_all(&list_md);
}

static int cmd_list(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--markdown") == 0) {
		list_markdown();
		return EXIT_PASS;
	}
	if (argc > 1)
		return bad_usage("list");
	list_all(&list_plain);
	return EXIT_PASS;
}

static int cmd_hwlat(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct hwlat_result r;
	int64_t duration = 10 * NS_PER_S;
	char why[PATH_MAX + 256];
	sigset_t sigs;
	int opt, interrupted, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt != 'd')
			return bad_usage("hwlat");
		if (units_parse_duration(optarg, &duration) != 0 || duration < NS_PER_S / 10 ||
		    duration > 3600 * NS_PER_S) {
			log_error("--duration: '%s': a duration from 100ms to 1h", optarg);
			return EXIT_USAGE;
		}
	}
	if (optind != argc)
		return bad_usage("hwlat");
	/* Ctrl-C ends the run early but still removes the instance */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	rc = hwlat_run(duration, &r, &interrupted, why, sizeof(why));
	if (rc) {
		log_error("%s", why);
		return rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	printf("hwlat: max %.1f us, %llu gaps above %.1f us in %.1f s%s\n",
	       (double)r.max_ns / 1e3, (unsigned long long)r.count,
	       (double)r.threshold_ns / 1e3, (double)r.duration_ns / 1e9,
	       interrupted ? " (interrupted)" : "");
	return interrupted ? EXIT_INTERRUPTED : EXIT_PASS;
}

/*
 * latlab watch: the config of a campaign of one `type = watch` cell,
 * written where config_load reads it (a memfd: nothing on disk but the
 * tree), then run as `latlab run` runs any. What the program must be
 * (one of pid, comm, command) is checked here, against the options
 * given, before anything is written.
 */
static int cmd_watch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "command", required_argument, NULL, 'x' },
		{ "tid", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pid = NULL, *comm = NULL, *command = NULL, *tid = NULL;
	const char *duration = "10s", *output = "results", *name = "watch";
	struct cfg_args a = { 0 };
	int opt, how;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': pid = optarg; break;
		case 'c': comm = optarg; break;
		case 'x': command = optarg; break;
		case 't': tid = optarg; break;
		case 'd': duration = optarg; break;
		case 'o': output = optarg; break;
		case 'n': name = optarg; break;
		case 'q': a.quiet = 1; break;
		case 'h':
			printf("usage: latlab %s\n", find_command("watch")->usage);
			return EXIT_PASS;
		default:
			return bad_usage("watch");
		}
	}
	how = !!pid + !!comm + !!command;
	if (optind != argc || how != 1) {
		if (how != 1)
			log_error("watch: name the program by exactly one of --pid, --comm and --command");
		return bad_usage("watch");
	}
	for (const char *const *v = (const char *const[]){ pid, comm, command, tid, duration, output, name, NULL };
	     *v; v++)
		if (strpbrk(*v, "\n\r")) {
			log_error("watch: '%s': a line break in an option", *v);
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
			found = watch_check(why, sizeof(why));
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

static int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo *si = malloc(sizeof(*si));

	(void)argv;
	if (argc > 1) {
		free(si);
		return bad_usage("sysinfo");
	}
	if (!si)
		return EXIT_RUNTIME;
	sysinfo_collect(si, cmdline_text);
	cell_sysinfo_write(si, stdout);
	free(si);
	return EXIT_PASS;
}

static int cmd_status(int argc, char **argv)
{
	if (argc != 2)
		return bad_usage("status");
	return campaign_status(argv[1], stdout);
}

/* --axis AXIS: one of the axis table's. 0, or -EINVAL after saying why. */
static int parse_axis(const char *arg, int *axis)
{
	char names[TAXIS_NAMES_MAX];

	*axis = taxis_parse(arg);
	if (*axis < 0) {
		taxis_names(names, sizeof(names));
		log_error("--axis: '%s' is not an axis (%s)", arg, names);
		return -EINVAL;
	}
	return 0;
}

/* --metric M: one of METRIC_NAMES. 0, or -EINVAL after saying why. */
static int parse_metric(const char *arg, int *metric)
{
	*metric = metric_parse(arg);
	if (*metric < 0) {
		log_error("--metric: '%s' is not a metric (%s)", arg, METRIC_NAMES);
		return -EINVAL;
	}
	return 0;
}

/* "20%" (or "20") as a fraction, 0 to max_pct %; -EINVAL otherwise. */
static int parse_percent(const char *opt, const char *arg, double max_pct, double *frac)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || (*end && strcmp(end, "%") != 0) || !(v >= 0 && v <= max_pct))
		return -EINVAL;
	if (!*end)	/* a bare number could be read as a ratio: say how it was read */
		log_info("%s %s: read as %g %%", opt, arg, v);
	*frac = v / 100;
	return 0;
}

/* --margin 10% (or 10): the equivalence margin, a fraction, 0 (none) to 100 %. */
static int parse_margin(const char *arg, double *margin)
{
	if (parse_percent("--margin", arg, 100, margin) == 0)
		return 0;
	log_error("--margin: '%s' is not a percentage from 0 to 100 (10%%)", arg);
	return -EINVAL;
}

/* --deadline D, --target P (report, compare, history): 0, or -EINVAL said. */
static int parse_beyond(int opt, const char *arg, int64_t *deadline, double *target)
{
	char err[256];
	int rc = opt == 'D' ? beyond_parse_deadline(arg, deadline, err, sizeof(err))
			    : beyond_parse_target(arg, target, err, sizeof(err));

	if (rc)
		log_error("%s", err);
	return rc;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pdf", no_argument, NULL, 'p' },
		{ "png", no_argument, NULL, 'P' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "metric", required_argument, NULL, 'm' },
		{ "axis", required_argument, NULL, 'a' },
		{ "margin", required_argument, NULL, 'M' },
		{ "deadline", required_argument, NULL, 'D' },
		{ "target", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .metric = -1, .axis = TAXIS_KERNEL, .margin = VERDICT_MARGIN_AUTO };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "qj:", longopts, NULL)) != -1) {
		if (opt == 'p')
			o.pdf = 1;
		else if (opt == 'P')
			o.png = 1;
		else if (opt == 'q')
			o.quiet = 1;
		else if (opt == 'j') {
			if (parse_jobs(optarg, "gnuplot processes", &o.jobs))
				return EXIT_USAGE;
		} else if (opt == 'm') {
			if (parse_metric(optarg, &o.metric))
				return EXIT_USAGE;
		} else if (opt == 'a') {
			if (parse_axis(optarg, &o.axis))
				return EXIT_USAGE;
		} else if (opt == 'M') {
			if (parse_margin(optarg, &o.margin))
				return EXIT_USAGE;
		} else if (opt == 'D' || opt == 'T') {
			if (parse_beyond(opt, optarg, &o.deadline_ns, &o.target))
				return EXIT_USAGE;
		} else
			return bad_usage("report");
	}
	if (optind != argc - 1)
		return bad_usage("report");
	return report_run(argv[optind], &o);
}

/* --over 50us,100us,1ms: 0, or -EINVAL with the bad word in err. */
static int parse_over(const char *arg, struct compare_opts *o, char *err, size_t len)
{
	char word[64];

	o->nover = 0;
	if (opt_list_check(arg, "--over", err, len))
		return -EINVAL;
	for (const char *p = arg; opt_list_next(&p, word, sizeof(word), 0);) {
		int64_t ns;

		if (units_parse_duration(word, &ns) != 0 || ns <= 0) {
			snprintf(err, len, "--over: '%s' is not a duration (50us, 1ms)", word);
			return -EINVAL;
		}
		if (o->nover == COMPARE_OVER_MAX) {
			snprintf(err, len, "--over: at most %d thresholds", COMPARE_OVER_MAX);
			return -EINVAL;
		}
		o->over[o->nover++] = ns;
	}
	if (!o->nover) {
		snprintf(err, len, "--over: no threshold");
		return -EINVAL;
	}
	return 0;
}

/* --tolerance 20% (or 20): a fraction, 0 to 1000 %. */
static int parse_tolerance(const char *arg, double *tol)
{
	return parse_percent("--tolerance", arg, 1000, tol);
}

static int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pdf", no_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "over", required_argument, NULL, 'v' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "metric", required_argument, NULL, 'm' },
		{ "axis", required_argument, NULL, 'a' },
		{ "margin", required_argument, NULL, 'M' },
		{ "deadline", required_argument, NULL, 'D' },
		{ "target", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts o = { .tolerance = 0.2, .metric = -1, .axis = TAXIS_KERNEL,
				  .margin = VERDICT_MARGIN_AUTO };
	char err[256];
	int opt, tol_set = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:j:", longopts, NULL)) != -1) {
		if (opt == 'p') {
			o.pdf = 1;
		} else if (opt == 'j') {
			if (parse_jobs(optarg, "gnuplot processes", &o.jobs))
				return EXIT_USAGE;
		} else if (opt == 'o') {
			o.out = optarg;
		} else if (opt == 'v') {
			if (parse_over(optarg, &o, err, sizeof(err)) != 0) {
				log_error("%s", err);
				return EXIT_USAGE;
			}
		} else if (opt == 'm') {
			if (parse_metric(optarg, &o.metric))
				return EXIT_USAGE;
		} else if (opt == 'a') {
			if (parse_axis(optarg, &o.axis))
				return EXIT_USAGE;
		} else if (opt == 'M') {
			if (parse_margin(optarg, &o.margin))
				return EXIT_USAGE;
		} else if (opt == 'D' || opt == 'T') {
			if (parse_beyond(opt, optarg, &o.deadline_ns, &o.target))
				return EXIT_USAGE;
		} else if (opt == 'b') {
			o.baseline = optarg;
		} else if (opt == 't') {
			tol_set = 1;
			if (parse_tolerance(optarg, &o.tolerance) != 0) {
				log_error("--tolerance: '%s' is not a percentage (20%%)", optarg);
				return EXIT_USAGE;
			}
		} else {
			return bad_usage("compare");
		}
	}
	if (tol_set && !o.baseline) {
		log_error("--tolerance needs --baseline");
		return EXIT_USAGE;
	}
	if (argc - optind < 1)
		return bad_usage("compare");
	return compare_run((const char *const *)argv + optind, argc - optind, &o);
}

static int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "metric", required_argument, NULL, 'm' },
		{ "hist-us", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *out = NULL, *metric = "wakeup";
	int64_t hist_us = 0;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:o:m:", longopts, NULL)) != -1) {
		if (opt == 'f')
			format = optarg;
		else if (opt == 'o')
			out = optarg;
		else if (opt == 'm')
			metric = optarg;
		else if (opt == 'H') {
			if (units_parse_int(optarg, &hist_us) || hist_us < 1 ||
			    hist_us > 1000000) {
				log_error("--hist-us '%s': a number of microseconds, 1 to 1000000",
					  optarg);
				return EXIT_USAGE;
			}
		} else
			return bad_usage("export");
	}
	if (!format || optind != argc - 1)
		return bad_usage("export");
	return export_run(format, argv[optind], out, metric, hist_us);
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return EXIT_PASS;
	}
	c = find_command(argv[1]);
	if (!c) {
		log_error("no command '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	printf("usage: latlab %s\n\n%s\n", c->usage, c->help);
	if (c->fn == cmd_run)
		printf("\n  -o, --output DIR      results directory (overrides [campaign] output)\n"
		       "  -s, --set S.K=V       override one config option (repeatable; wins over the file)\n"
		       "  -d, --duration D      measuring time per cell (same as --set campaign.duration=D)\n"
		       "      --allow-non-rt    if SCHED_FIFO is refused, measure SCHED_OTHER threads (marked policy=other)\n"
		       "      --restart         do not resume an earlier run in the same directory: keep it aside, start over\n"
		       "      --reboot          then boot the next kernel variant with pending cells ([kernel.NAME] reboot =)\n"
		       "  -q, --quiet           no progress lines\n");
	return EXIT_PASS;
}

int main(int argc, char **argv)
{
	const struct command *c;
	sigset_t sigs;
	size_t used = 0;

	for (int i = 0; i < argc && used < sizeof(cmdline_text) - 1; i++) {
		int n = snprintf(cmdline_text + used, sizeof(cmdline_text) - used,
				 "%s%s", i ? " " : "", argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		char features[256];

		version_features(features, sizeof(features));
		printf("latlab %s\nfeatures: %s\n", version_text(), features);
		return EXIT_PASS;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help(1, argv);
	if (workload_registry_check(workload_registry) != 0 ||
	    load_registry_check(load_registry) != 0)
		return EXIT_RUNTIME;
	c = find_command(argv[1]);
	if (!c) {
		log_error("unknown command '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	/*
	 * run takes SIGINT/SIGTERM with sigtimedwait() in its main thread
	 * only: default them (a shell's background job inherits SIG_IGN) and
	 * block them before any thread exists, so every thread inherits it.
	 * Every other command dies of them, as a shell command does: all they
	 * write is atomic (a temporary file, then a rename).
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* a workload's peer that died is an EPIPE error, not our death */
	signal(SIGPIPE, SIG_IGN);
	if (c->fn == cmd_run) {
		sigemptyset(&sigs);
		sigaddset(&sigs, SIGINT);
		sigaddset(&sigs, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	}
	return c->fn(argc - 1, argv + 1);
}

static int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "by", required_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "deadline", required_argument, NULL, 'D' },
		{ "target", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct history_opts o = { 0 };
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:j:", longopts, NULL)) != -1) {
		if (opt == 'o') {
			o.out = optarg;
		} else if (opt == 'b') {
			if (strcmp(optarg, "time") && strcmp(optarg, "release")) {
				log_error("--by: '%s' is not time or release", optarg);
				return EXIT_USAGE;
			}
			o.by_release = !strcmp(optarg, "release");
		} else if (opt == 'j') {
			if (parse_jobs(optarg, "gnuplot processes", &o.jobs))
				return EXIT_USAGE;
		} else if (opt == 'D' || opt == 'T') {
			if (parse_beyond(opt, optarg, &o.deadline_ns, &o.target))
				return EXIT_USAGE;
		} else {
			return bad_usage("history");
		}
	}
	if (argc - optind < 1)
		return bad_usage("history");
	return history_run((const char *const *)argv + optind, argc - optind, &o);
}
