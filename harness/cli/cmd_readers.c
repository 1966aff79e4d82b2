/*
 * The commands that read result trees: report, compare, history, export
 * and status.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "campaign.h"
#include "cli.h"
#include "exitcodes.h"
#include "export.h"
#include "log.h"
#include "options.h"
#include "report.h"
#include "units.h"
#include "verdict.h"

/* the rows report, compare and history share, F(field) the offset in each one's struct */
#define DEADLINE_OPTS(F)						\
	{ "deadline", 0, "D", CLI_CALL, F(deadline_ns), cli_deadline,	\
	  "the deadline the loop must keep: how often it is missed" },	\
	{ "target", 0, "P", CLI_CALL, F(target), cli_target,		\
	  "with --deadline: the miss rate asked for" }
#define VERDICT_OPTS(F)							\
	{ "axis", 0, "AXIS", CLI_CALL, F(axis), cli_axis,		\
	  "the axis the sides are along (default kernel)" },		\
	{ "metric", 0, "M", CLI_CALL, F(metric), cli_metric,		\
	  "the metric (default: each cell's primary)" },		\
	{ "margin", 0, "PCT", CLI_CALL, F(margin), cli_margin,		\
	  "the equivalence margin (10%; default: the A/A spread)" },	\
	DEADLINE_OPTS(F)

#define R(f) offsetof(struct report_opts, f)
const struct cli_opt report_cli[] = {
	VERDICT_OPTS(R),
	{ "pdf", 0, NULL, CLI_FLAG, R(pdf), NULL, "the figures as PDF too" },
	{ "png", 0, NULL, CLI_FLAG, R(png), NULL, "the figures as PNG too" },
	{ "jobs", 'j', "N", CLI_CALL, R(jobs), cli_jobs_gnuplot, "gnuplot processes side by side" },
	{ "quiet", 'q', NULL, CLI_FLAG, R(quiet), NULL, "no progress lines" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef R

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .metric = -1, .axis = TAXIS_KERNEL, .margin = VERDICT_MARGIN_AUTO };
	int first, rc = cli_parse("report", argc, argv, &o, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (first != argc - 1)
		return cli_bad_usage("report");
	return report_run(argv[first], &o);
}

/* --over 50us,100us,1ms: the field is the compare_opts' */
static int over(const char *arg, void *field)
{
	struct compare_opts *o = (struct compare_opts *)((char *)field - offsetof(struct compare_opts, nover));
	char word[64], err[256];

	o->nover = 0;
	if (opt_list_check(arg, "--over", err, sizeof(err))) {
		log_error("%s", err);
		return -EINVAL;
	}
	for (const char *p = arg; opt_list_next(&p, word, sizeof(word), 0);) {
		int64_t ns;

		if (units_parse_duration(word, &ns) != 0 || ns <= 0) {
			log_error("--over: '%s' is not a duration (50us, 1ms)", word);
			return -EINVAL;
		}
		if (o->nover == COMPARE_OVER_MAX) {
			log_error("--over: at most %d thresholds", COMPARE_OVER_MAX);
			return -EINVAL;
		}
		o->over[o->nover++] = ns;
	}
	if (!o->nover) {
		log_error("--over: no threshold");
		return -EINVAL;
	}
	return 0;
}

#define C(f) offsetof(struct compare_opts, f)
const struct cli_opt compare_cli[] = {
	{ "output", 'o', "OUT", CLI_TEXT, C(out), NULL, "where the pages go (default: beside the trees)" },
	VERDICT_OPTS(C),
	{ "pdf", 0, NULL, CLI_FLAG, C(pdf), NULL, "the figures as PDF too" },
	{ "jobs", 'j', "N", CLI_CALL, C(jobs), cli_jobs_gnuplot, "gnuplot processes side by side" },
	{ "over", 0, "D,...", CLI_CALL, C(nover), over, "count the wake-ups above each duration, per hour" },
	{ "baseline", 0, "TREE", CLI_TEXT, C(baseline), NULL, "fail (exit 1) where a row is worse than this tree's by more than --tolerance" },
	{ "tolerance", 0, "PCT", CLI_CALL, C(tolerance), cli_tolerance, "with --baseline: how much worse passes (default 20%)" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef C

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .tolerance = -1, .metric = -1, .axis = TAXIS_KERNEL,
				  .margin = VERDICT_MARGIN_AUTO };
	int first, rc = cli_parse("compare", argc, argv, &o, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (o.tolerance >= 0 && !o.baseline) {
		log_error("--tolerance needs --baseline");
		return EXIT_USAGE;
	}
	if (o.tolerance < 0)
		o.tolerance = 0.2;
	if (argc - first < 1)
		return cli_bad_usage("compare");
	return compare_run((const char *const *)argv + first, argc - first, &o);
}

/* --by time|release */
static int by(const char *arg, void *field)
{
	if (strcmp(arg, "time") && strcmp(arg, "release")) {
		log_error("--by: '%s' is not time or release", arg);
		return -EINVAL;
	}
	*(int *)field = !strcmp(arg, "release");
	return 0;
}

#define H(f) offsetof(struct history_opts, f)
const struct cli_opt history_cli[] = {
	{ "output", 'o', "OUT", CLI_TEXT, H(out), NULL, "where the pages go" },
	{ "by", 0, "time|release", CLI_CALL, H(by_release), by, "the trees' order: when they ran, or the kernel's release" },
	DEADLINE_OPTS(H),
	{ "jobs", 'j', "N", CLI_CALL, H(jobs), cli_jobs_gnuplot, "gnuplot processes side by side" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef H

int cmd_history(int argc, char **argv)
{
	struct history_opts o = { 0 };
	int first, rc = cli_parse("history", argc, argv, &o, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (argc - first < 1)
		return cli_bad_usage("history");
	return history_run((const char *const *)argv + first, argc - first, &o);
}

struct export_args {
	const char *format, *out, *metric;
	int64_t hist_us;
};

static int hist_us(const char *arg, void *field)
{
	int64_t *us = field;

	if (units_parse_int(arg, us) || *us < 1 || *us > 1000000) {
		log_error("--hist-us '%s': a number of microseconds, 1 to 1000000", arg);
		return -EINVAL;
	}
	return 0;
}

#define E(f) offsetof(struct export_args, f)
const struct cli_opt export_cli[] = {
	{ "format", 'f', "F", CLI_TEXT, E(format), NULL, "csv (samples.bin), cyclictest (--histfile) or json (--json)" },
	{ "output", 'o', "FILE", CLI_TEXT, E(out), NULL, "where it goes (default: standard output)" },
	{ "metric", 'm', "M", CLI_TEXT, E(metric), NULL, "the metric (default wakeup)" },
	{ "hist-us", 0, "N", CLI_CALL, E(hist_us), hist_us, "cyclictest's histogram: this many 1 µs buckets" },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};
#undef E

int cmd_export(int argc, char **argv)
{
	struct export_args a = { .metric = "wakeup" };
	int first, rc = cli_parse("export", argc, argv, &a, &first);

	if (rc)
		return rc == 1 ? EXIT_PASS : rc;
	if (!a.format || first != argc - 1)
		return cli_bad_usage("export");
	return export_run(a.format, argv[first], a.out, a.metric, a.hist_us);
}

int cmd_status(int argc, char **argv)
{
	if (argc != 2)
		return cli_bad_usage("status");
	return campaign_status(argv[1], stdout);
}
