#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "axis.h"
#include "beyond.h"
#include "cli.h"
#include "exitcodes.h"
#include "log.h"
#include "metric.h"
#include "report.h"

static char cmdline_text[4096];
static const struct cli_command *commands;

void cli_set_commands(const struct cli_command *table)
{
	commands = table;
}

const struct cli_command *cli_commands(void)
{
	return commands;
}

void cli_set_cmdline(int argc, char **argv)
{
	size_t used = 0;

	for (int i = 0; i < argc && used < sizeof(cmdline_text) - 1; i++) {
		int n = snprintf(cmdline_text + used, sizeof(cmdline_text) - used, "%s%s",
				 i ? " " : "", argv[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

const char *cli_cmdline(void)
{
	return cmdline_text;
}

const struct cli_command *cli_find(const char *name)
{
	for (const struct cli_command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void cli_usage(FILE *fp)
{
	fprintf(fp, "usage: latlab COMMAND [OPTIONS]\n\ncommands:\n");
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(fp, "  %-8s %s\n", c->name, c->help);
	fprintf(fp, "\nlatlab help COMMAND shows a command's options; latlab --version its version.\n");
}

int cli_bad_usage(const char *cmd)
{
	fprintf(stderr, "usage: latlab %s\n", cli_find(cmd)->usage);
	return EXIT_USAGE;
}

void cli_help(const struct cli_command *c, FILE *fp)
{
	fprintf(fp, "usage: latlab %s\n\n%s\n", c->usage, c->help);
	if (!c->opts || !c->opts->name)
		return;
	fprintf(fp, "\n");
	cli_opts_help(c->opts, fp);
}

int cli_parse(const char *cmd, int argc, char **argv, void *dst, int *first)
{
	const struct cli_command *c = cli_find(cmd);
	struct cli_table t = { c->opts, dst, NULL, NULL };

	switch (cli_opts_parse(&t, 1, CLI_ANY_ORDER, argc, argv, first)) {
	case CLI_PARSED:
		return 0;
	case CLI_HELP:
		printf("usage: latlab %s\n", c->usage);
		return 1;
	case CLI_UNKNOWN:
		return cli_bad_usage(cmd);
	default:
		return EXIT_USAGE;
	}
}

/* --jobs N, 1 to 64 (what runs side by side: `what`) */
static int jobs(const char *arg, const char *what, int *n)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 64) {
		log_error("--jobs: '%s' is not a number of %s (1 to 64)", arg, what);
		return -EINVAL;
	}
	*n = (int)v;
	return 0;
}

int cli_jobs_guests(const char *arg, void *field)
{
	return jobs(arg, "guests side by side", field);
}

int cli_jobs_gnuplot(const char *arg, void *field)
{
	return jobs(arg, "gnuplot processes", field);
}

int cli_axis(const char *arg, void *field)
{
	char names[TAXIS_NAMES_MAX];
	int *axis = field;

	*axis = taxis_parse(arg);
	if (*axis < 0) {
		taxis_names(names, sizeof(names));
		log_error("--axis: '%s' is not an axis (%s)", arg, names);
		return -EINVAL;
	}
	return 0;
}

int cli_metric(const char *arg, void *field)
{
	int *metric = field;

	*metric = metric_parse(arg);
	if (*metric < 0) {
		log_error("--metric: '%s' is not a metric (%s)", arg, METRIC_NAMES);
		return -EINVAL;
	}
	return 0;
}

/* "20%" (or "20") as a fraction, 0 to max_pct %; -EINVAL otherwise */
static int percent(const char *opt, const char *arg, double max_pct, double *frac)
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

int cli_margin(const char *arg, void *field)
{
	if (percent("--margin", arg, 100, field) == 0)
		return 0;
	log_error("--margin: '%s' is not a percentage from 0 to 100 (10%%)", arg);
	return -EINVAL;
}

int cli_tolerance(const char *arg, void *field)
{
	if (percent("--tolerance", arg, 1000, field) == 0)
		return 0;
	log_error("--tolerance: '%s' is not a percentage (20%%)", arg);
	return -EINVAL;
}

int cli_deadline(const char *arg, void *field)
{
	char err[256];
	int rc = beyond_parse_deadline(arg, field, err, sizeof(err));

	if (rc)
		log_error("%s", err);
	return rc;
}

int cli_target(const char *arg, void *field)
{
	char err[256];
	int rc = beyond_parse_target(arg, field, err, sizeof(err));

	if (rc)
		log_error("%s", err);
	return rc;
}
