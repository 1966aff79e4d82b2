/*
 * latlab: a real-time latency lab. Its commands are the table below
 * (`latlab help` prints it), each in a cli/cmd_*.c with its options'
 * table; this file only dispatches. See docs/guide.md; exit statuses in
 * docs/exit-status.md.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "exitcodes.h"
#include "load_ops.h"
#include "log.h"
#include "version.h"
#include "workload.h"

/* latlab's commands, in the order `latlab help` lists them */
static const struct cli_command commands[] = {
	{ "run", "run CONFIG [-o DIR] [--set SECTION.KEY=VALUE]... [--duration D] [--jobs N] [--allow-non-rt] [--restart] [--reboot] [-q]",
	  "run (or resume) every cell of CONFIG that fits the running kernel", run_cli, cmd_run },
	{ "status", "status DIR", "the cells of a campaign directory by status and kernel variant, and the time left",
	  NULL, cmd_status },
	{ "plan", "plan CONFIG [--set SECTION.KEY=VALUE]... [--duration D] [--jobs N] [-o DIR]",
	  "print the cells, the estimated wall time and what run would refuse (its exit status); runs nothing",
	  plan_cli, cmd_plan },
	{ "list", "list [--markdown]", "print the axes, every option with its type, default and help, the workloads and the loads (--markdown: docs/reference.md)",
	  NULL, cmd_list },
	{ "report", "report DIR [--axis AXIS] [--metric M] [--margin 10%] [--deadline D [--target P]] [--pdf] [--png] [--jobs N] [-q]",
	  "render DIR's figures (gnuplot) and DIR/report/index.html", report_cli, cmd_report },
	{ "compare", "compare DIR[,DIR...]... [-o OUT] [--axis AXIS] [--metric M] [--margin 10%] [--deadline D [--target P]] [--pdf] [--jobs N] [--over 100us,1ms] [--baseline TREE[,TREE...] [--tolerance 20%]]",
	  "line up the same cells across kernel variants, hosts and campaigns (one tree of several variants, or several trees; A,B,C: campaigns of one side), or along any axis (--axis load)",
	  compare_cli, cmd_compare },
	{ "history", "history DIR... [-o OUT] [--by time|release] [--deadline D [--target P]] [--jobs N]",
	  "the same cells across many campaign trees: a trend and a waterfall per row, the trees listed",
	  history_cli, cmd_history },
	{ "export", "export --format csv|cyclictest|json CELL-DIR [-o FILE] [--metric M] [--hist-us N]",
	  "a cell as cyclictest's --histfile or --json, or its samples.bin as CSV", export_cli,
	  cmd_export },
	{ "sysinfo", "sysinfo", "print what this machine is (sysinfo.ini) and what distorts results",
	  NULL, cmd_sysinfo },
	{ "watch", "watch --pid PID | --comm NAME | --command CMD [--tid TID,...] [--duration D] [-o DIR] [--name NAME] [--method auto|bpf|hist] [-q]",
	  "the wake-up latencies of a program's own threads, kept by the kernel (BPF, or histogram triggers): a campaign of one cell, DIR/NAME",
	  watch_cli, cmd_watch },
	{ "hwlat", "hwlat [--duration D]",
	  "the kernel's hwlat tracer in latlab's own tracefs instance: gaps the hardware or firmware took (default 10s)",
	  hwlat_cli, cmd_hwlat },
	{ "help", "help [COMMAND]", "this help, or one command's", NULL, cmd_help },
	{ NULL, NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	const struct cli_command *c;
	sigset_t sigs;

	cli_set_commands(commands);
	cli_set_cmdline(argc, argv);
	if (argc < 2) {
		cli_usage(stderr);
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
	c = cli_find(argv[1]);
	if (!c) {
		log_error("unknown command '%s'", argv[1]);
		cli_usage(stderr);
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
