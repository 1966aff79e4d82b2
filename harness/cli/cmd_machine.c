/*
 * The commands about this machine — sysinfo, hwlat — and help.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cellfiles.h"
#include "cli.h"
#include "exitcodes.h"
#include "hwlat.h"
#include "log.h"
#include "sysinfo.h"
#include "units.h"

/* --duration D: 100 ms to 1 h */
static int hwlat_duration(const char *arg, void *field)
{
	int64_t *ns = field;

	if (units_parse_duration(arg, ns) != 0 || *ns < NS_PER_S / 10 || *ns > 3600 * NS_PER_S) {
		log_error("--duration: '%s': a duration from 100ms to 1h", arg);
		return -EINVAL;
	}
	return 0;
}

const struct cli_opt hwlat_cli[] = {
	{ "duration", 0, "D", CLI_CALL, 0, hwlat_duration, "how long the tracer runs (default 10s)" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};

int cmd_hwlat(int argc, char **argv)
{
	struct hwlat_result r;
	int64_t duration = 10 * NS_PER_S;
	char why[PATH_MAX + 256];
	sigset_t sigs;
	int first, interrupted, rc = cli_parse("hwlat", argc, argv, &duration, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (first != argc)
		return cli_bad_usage("hwlat");
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

int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo *si;

	(void)argv;
	if (argc > 1)
		return cli_bad_usage("sysinfo");
	si = malloc(sizeof(*si));
	if (!si)
		return EXIT_RUNTIME;
	sysinfo_collect(si, cli_cmdline());
	cell_sysinfo_write(si, stdout);
	free(si);
	return EXIT_PASS;
}

int cmd_help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		cli_usage(stdout);
		return EXIT_PASS;
	}
	c = cli_find(argv[1]);
	if (!c) {
		log_error("no command '%s'", argv[1]);
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	cli_help(c, stdout);
	return EXIT_PASS;
}
