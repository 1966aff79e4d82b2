/* Config parsing: a table of good and bad inputs, --set, the echo. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "units.h"

static char path[64];

static int write_config(const char *text)
{
	FILE *fp;

	snprintf(path, sizeof(path), "/tmp/latlab-test-%d.ini", (int)getpid());
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	fclose(fp);
	return 0;
}

struct bad_case {
	const char *text;
	const char *want;	/* substring of the error, after "path:" */
};

/* Each bad input fails with a message naming its line. */
static void test_bad_configs(void **state)
{
	static const struct bad_case cases[] = {
		{ "[campaign]\nnmae = x\n", "2: unknown key 'nmae' in [campaign]" },
		{ "[campaign]\n\nduration = 10\n", "3: duration = '10' is not a duration" },
		{ "[campaign]\nduration = 10 parsecs\n", "2: duration = '10 parsecs' is not a duration" },
		{ "[campaign]\nduration = 1ms\n", "2: duration = 1ms is out of range" },
		{ "[campaign]\nname = ../etc\n", "2: campaign name '../etc'" },
		{ "[matrix]\nthreads =\n", "2: threads is empty" },
		{ "[matrix]\nthreads = 1,,2\n", "2: threads has an empty item" },
		{ "[matrix]\nthreads = 0\n", "2: threads = 0 is out of range (1 to 1024)" },
		{ "[matrix]\nthreads = 1, 1\n", "2: threads lists '1' twice" },
		{ "[matrix]\npriority = 100\n", "2: priority = 100 is out of range (1 to 99)" },
		{ "[matrix]\npriority = 5-1\n", "2: priority: bad range '5-1'" },
		{ "[matrix]\ninterval = 1us\n", "2: interval = 1us is out of range" },
		{ "[matrix]\ninterval = fast\n", "2: interval = 'fast' is not a duration" },
		{ "[matrix]\nsize = 4x\n", "2: size = '4x' is not a size" },
		{ "[matrix]\naffinity = 0-x\n", "2: affinity: '0-x' is not one of spread|all|isolated|node:N (N 0-1023) or a CPU list (0-3+6)" },
		{ "[matrix]\nworkload = tiemr\n", "2: workload 'tiemr' is neither a workload type nor a [workload.tiemr] section" },
		{ "[matrix]\nload = hackbench\n", "2: load 'hackbench' has no [load.hackbench] section" },
		{ "[matrix]\nkernel = rt, custom\n", "2: kernel variant 'custom' has no [kernel.custom] section" },
		{ "[matrix]\nload = hb\n[load.hb]\ntype = hackbenk\n", "4: unknown load type 'hackbenk'" },
		{ "[matrix]\nload = hb\n[load.hb]\ngroups = 2\n", "3: [load.hb] has no 'type ='" },
		{ "[load.hb]\ntype = hackbench\ngroop = 2\n", "3: unknown key 'groop' for load type 'hackbench'" },
		/* did you mean: a key, a type, a section, an enum value; nothing when none is near */
		{ "[matrix]\nworklod = timer\n", "2: unknown key 'worklod' in [matrix] (did you mean 'workload'?)" },
		{ "[lod.hb]\ntype = cpu\n", "1: unknown section [lod.hb] (did you mean [load.hb]?)" },
		{ "[matrix]\nload = hb\n[load.hb]\ntype = hackbenk\n", "4: unknown load type 'hackbenk' (did you mean 'hackbench'?)" },
		{ "[load.hb]\ntype = hackbench\nready_timout = 2s\n", "3: unknown key 'ready_timout' for load type 'hackbench' (did you mean 'ready_timeout'?)" },
		{ "[load.hb]\ntype = hackbench\nmode = proces\n", "3: mode = 'proces': expected one of process|thread (did you mean 'process'?)" },
		{ "[campaign]\nzzz = 1\n", "2: unknown key 'zzz' in [campaign] (see latlab list)" },
		{ "[matrix]\nsize = 4KB\n", "2: size = '4KB': KB, MB and GB are refused (1000 or 1024?): write KiB, MiB, GiB or k, M, G (powers of 1024), or the bytes" },
		{ "[matrix]\ninterval = 1 ms\n", "2: interval = '1 ms' has a blank between the number and its unit: write it without" },
		{ "[load.hb]\ntype = hackbench\ngroups = 0\n", "3: groups = 0 is out of range (1 to 1000)" },
		{ "[load.hb]\ntype = hackbench\nmode = fibers\n", "3: mode = 'fibers': expected one of process|thread" },
		{ "[load.hb]\ntype = hackbench\ninstances = many\n", "3: instances = 'many': expected a number (1 to 1024) or per-cpu" },
		{ "[load.hb]\ntype = cpu\ncpus = some\n", "3: cpus = 'some': expected all, housekeeping, node:N or a CPU list" },
		{ "[load.hb]\ntype = cpu\nnice = 20\n", "3: nice = 20 is out of range (-20 to 19)" },
		{ "[load.x]\ntype = external\n", "1: [load.x]: command is empty" },
		{ "[load.x]\ntype = external\ncommand = sh -c \"oops\n", "1: [load.x]: command: unclosed quote" },
		{ "[load.hb]\ntype = hackbench\ngroups = 1000\nfds = 100\n", "1: [load.hb]: groups x fds x 2" },
		{ "[workload.w]\ntype = nosuch\n", "2: unknown workload type 'nosuch'" },
		{ "[workload.w]\ntype = null\nfail_evry = 2\n", "3: unknown key 'fail_evry' for workload type 'null'" },
		{ "[workload.w]\ntype = null\nfail_every = -1\n", "3: fail_every = -1 is out of range" },
		{ "[kernel.k]\nmatch = preempt:fast\n", "2: match = 'preempt:fast'" },
		{ "[kernel.k]\nreboot = /sbin/reboot\n", "1: [kernel.k] has no 'match ='" },
		{ "[thresholds]\nmetric = jitter\n", "2: metric = 'jitter': expected one of wakeup|io|response" },
		{ "[thresholds.latency]\nmax = 1ms\n", "1: unknown section [thresholds.latency]" },
		{ "[thresholds.io]\nmetric = io\n", "2: unknown key 'metric' in [thresholds.io]" },
		{ "[thresholds]\np99.99 = 50\n", "2: p99.99 = '50' is not a duration" },
		{ "[bogus]\nkey = 1\n", "1: unknown section [bogus]" },
		{ "[campaign]\nthis line has no equals sign\n", "2: syntax error" },
		{ "[campaign\nname = x\n", "1: syntax error" },
		/* a key given twice: named at the second, with the first's line */
		{ "[matrix]\ninterval = 1ms\nthreads = 1\ninterval = 2ms\n",
		  "4: interval is set twice in [matrix]: here and at line 2" },
		{ "[matrix]\nthreads = 1\n[campaign]\nname = a\n[matrix]\nthreads = 2\n",
		  "6: threads is set twice in [matrix]: here and at line 2" },
		{ "[load.a]\ntype = cpu\ntype = cpu\n", "3: type is set twice in [load.a]" },
		/* an axis item has room for a big machine's CPU list, not more */
		{ "[matrix]\naffinity = 0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1\n",
		  "2: affinity value '0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+0+1+...' is longer than 255 characters" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config *cfg = malloc(sizeof(*cfg));
		char want[300];

		assert_non_null(cfg);
		assert_int_equal(write_config(cases[i].text), 0);
		err[0] = '\0';
		int rc = config_load(cfg, path, NULL, 0, err, sizeof(err));
		snprintf(want, sizeof(want), "%s:%s", path, cases[i].want);
		if (rc == 0 || !strstr(err, want))
			fail_msg("case %zu: rc %d, error '%s', want '%s'", i,
				 rc, err, want);
		config_free(cfg);
		free(cfg);
	}
}

/* One run names every mistake, a line each, up to CONFIG_ERRORS_MAX. */
static void test_many_errors(void **state)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[(CONFIG_ERRORS_MAX + 1) * 512], text[2048] = "[campaign]\n", want[128];
	int lines = 1;

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(write_config("[campaign]\nduraton = 1s\n[matrix]\nthreads = 0\n"
				      "[workload.w]\ntype = null\nfail_evry = 2\n"), 0);
	assert_int_equal(config_load(cfg, path, NULL, 0, err, sizeof(err)), -EINVAL);
	config_free(cfg);
	snprintf(want, sizeof(want), "%s:2: unknown key 'duraton'", path);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "\n%s:4: threads = 0 is out of range", path);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "\n%s:7: unknown key 'fail_evry'", path);
	assert_non_null(strstr(err, want));
	/* 25 unknown keys: the first 20, then how many more */
	for (int i = 0; i < 25; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "k%d = 1\n", i);
	assert_int_equal(write_config(text), 0);
	assert_int_equal(config_load(cfg, path, NULL, 0, err, sizeof(err)), -EINVAL);
	config_free(cfg);
	for (const char *p = err; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, CONFIG_ERRORS_MAX + 1);
	assert_non_null(strstr(err, "k19"));
	assert_null(strstr(err, "k20"));
	assert_non_null(strstr(err, "\n5 more errors not shown"));
	/* --set overrides a key of the file: never "twice" */
	const char *sets[] = { "matrix.threads=2", "matrix.threads=3" };

	assert_int_equal(write_config("[matrix]\nthreads = 1\n"), 0);
	assert_int_equal(config_load(cfg, path, sets, 2, err, sizeof(err)), 0);
	assert_int_equal(cfg->matrix.threads.v[0], 3);
	config_free(cfg);
	free(cfg);
}

static void test_long_line(void **state)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char *text = malloc(10000), err[512];

	(void)state;
	snprintf(text, 10000, "[campaign]\nname = x\n[kernel.k]\nmatch = any\nreboot = ");
	size_t n = strlen(text);
	memset(text + n, 'a', 5000);
	snprintf(text + n + 5000, 100, "\n");
	assert_int_equal(write_config(text), 0);
	assert_int_not_equal(config_load(cfg, path, NULL, 0, err, sizeof(err)), 0);
	assert_non_null(strstr(err, ":5: line longer than"));
	config_free(cfg);
	free(cfg);
	free(text);
}

static void test_good_config(void **state)
{
	static const char text[] =
		"; a comment\n"
		"[campaign]\n"
		"name     = rt-vs-stock\n"
		"duration = 1.5s   ; inline comment\n"
		"repeat   = 2\n"
		"[matrix]\n"
		"kernel   = stock, rt\n"
		"threads  = 1-2, all\n"
		"affinity = spread, 0, 0+1\n"
		"workload = timer, flaky\n"
		"interval = 500us, 1ms\n"
		"priority = 80, 90\n"
		"size     = 512, 4k\n"
		"[workload.flaky]\n"
		"type = null\n"
		"fail_every = 10\n"
		"[thresholds]\n"
		"max = 100us\n"
		"p99.99 = 50us\n"
		"overruns = 0\n";
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];

	(void)state;
	assert_int_equal(write_config(text), 0);
	int rc = config_load(cfg, path, NULL, 0, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_string_equal(cfg->campaign.name, "rt-vs-stock");
	assert_int_equal(cfg->campaign.duration, 1500000000LL);
	assert_int_equal(cfg->campaign.repeat, 2);
	assert_int_equal(cfg->matrix.kernel.n, 2);
	assert_int_equal(cfg->matrix.threads.n, 3);
	assert_int_equal(cfg->matrix.threads.v[1], 2);
	assert_int_equal(cfg->matrix.threads.v[2], AXIS_ALL);
	assert_int_equal(cfg->matrix.affinity.n, 3);
	assert_int_equal(cfg->matrix.affinity.v[0], AFF_SPREAD);
	assert_int_equal(cfg->matrix.affinity.v[2], AFF_LIST);
	assert_int_equal(cfg->matrix.interval.v[0], 500000);
	assert_int_equal(cfg->matrix.size.v[1], 4096);
	assert_int_equal(cfg->thresholds.max, 100000);
	assert_int_equal(cfg->thresholds.p99_99, 50000);
	assert_int_equal(cfg->thresholds.p99, OPT_UNSET);
	assert_int_equal(cfg->thresholds.overruns, 0);
	assert_int_equal(cfg->matrix.threads.loc.line, 8);

	int w = config_workload_index(cfg, "flaky");
	assert_true(w >= 0);
	assert_ptr_equal(cfg->workload[w].ops, workload_find("null"));
	assert_int_equal(*(int64_t *)cfg->workload[w].opts, 10);
	int k = config_kernel_index(cfg, "rt");
	assert_true(k >= 0);
	assert_string_equal(cfg->kernel[k].match, "preempt:rt");
	config_free(cfg);
	free(cfg);
}

static void test_defaults(void **state)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];

	(void)state;
	assert_int_equal(config_load(cfg, NULL, NULL, 0, err, sizeof(err)), 0);
	assert_string_equal(cfg->campaign.name, "latlab");
	assert_int_equal(cfg->campaign.duration, 60 * NS_PER_S);
	assert_int_equal(cfg->matrix.interval.v[0], NS_PER_MS);
	assert_int_equal(cfg->matrix.priority.v[0], 90);
	assert_string_equal(cfg->matrix.workload.s[0], "timer");
	assert_string_equal(cfg->matrix.kernel.s[0], "running");
	assert_int_equal(cfg->has_thresholds, 0);

	/* a rejected axis value leaves the axis as it was */
	const struct opt *o = opt_find(matrix_options, "threads");
	assert_int_equal(opt_parse(o, &cfg->matrix, "1-3", err, sizeof(err)), 0);
	assert_int_not_equal(opt_parse(o, &cfg->matrix, "2, x", err, sizeof(err)), 0);
	assert_int_equal(cfg->matrix.threads.n, 3);
	assert_int_equal(cfg->matrix.threads.v[2], 3);
	config_free(cfg);
	free(cfg);
}

static void test_sets(void **state)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];
	const char *good[] = {
		"campaign.duration=2s",
		"matrix.threads=2",
		"thresholds.p99.99=40us",
		"workload.w.type=null",
		"workload.w.fail_every=3",
		"matrix.workload=w",
	};
	static const struct {
		const char *set;
		const char *want;
	} bad[] = {
		{ "campaign.duration", "--set:1: 'campaign.duration': expected section.key=value" },
		{ "duration=2s", "--set:1: 'duration=2s': expected section.key=value" },
		{ "campaign.duration=2", "--set:1: duration = '2' is not a duration" },
		{ "matrix.nope=1", "--set:1: unknown key 'nope' in [matrix]" },
		{ "workload.w=1", "--set:1: 'workload.w=1': expected" },
	};

	(void)state;
	assert_int_equal(write_config("[campaign]\nduration = 5s\n"), 0);
	int rc = config_load(cfg, path, good, 6, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(cfg->campaign.duration, 2 * NS_PER_S);	/* --set wins */
	assert_int_equal(cfg->matrix.threads.v[0], 2);
	assert_int_equal(cfg->thresholds.p99_99, 40000);
	assert_int_equal(*(int64_t *)cfg->workload[config_workload_index(cfg, "w")].opts, 3);
	config_free(cfg);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *one[] = { bad[i].set };

		rc = config_load(cfg, path, one, 1, err, sizeof(err));
		if (rc == 0 || !strstr(err, bad[i].want))
			fail_msg("'%s': rc %d, error '%s'", bad[i].set, rc, err);
		config_free(cfg);
	}
	free(cfg);
}

/* The echo parses back to the same config (same hash). */
static void test_echo_roundtrip(void **state)
{
	struct config *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	char err[512], *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(write_config("[matrix]\nthreads = 1-2\nworkload = w, timer\n"
				      "[workload.w]\ntype = null\nfail_every = 4\n"
				      "[thresholds]\nmax = 1ms\n"
				      "[thresholds.response]\np99 = 2ms\nerrors = 0\n"), 0);
	assert_int_equal(config_load(a, path, NULL, 0, err, sizeof(err)), 0);
	assert_true(a->has_metric_thresholds[METRIC_RESPONSE]);
	assert_int_equal(a->metric_thresholds[METRIC_RESPONSE].p99, 2 * NS_PER_MS);
	assert_int_equal(a->metric_thresholds[METRIC_RESPONSE].max, OPT_UNSET);
	FILE *fp = open_memstream(&text, &len);
	config_write_ini(fp, a);
	fclose(fp);
	assert_int_equal(write_config(text), 0);
	int rc = config_load(b, path, NULL, 0, err, sizeof(err));
	if (rc)
		fail_msg("echo does not parse: %s\n%s", err, text);
	assert_int_equal(config_hash(a), config_hash(b));
	b->campaign.duration++;
	assert_int_not_equal(config_hash(a), config_hash(b));
	config_free(a);
	config_free(b);
	free(a);
	free(b);
	free(text);
}

/*
 * A guest's error at its copy of the config said at the user's line: the
 * echo's line of a key maps to where the user set it; a default, a
 * section line or a line past the end map to nothing and stay.
 */
static void test_echo_map(void **state)
{
	struct config *a = malloc(sizeof(*a));
	char err[512], *text = NULL, out[512], in[128];
	size_t len = 0;
	int iso = 0, dur = 0, n = 1;

	(void)state;
	assert_int_equal(write_config("; a comment\n[campaign]\nname = t\n\n[matrix]\n"
				      "interval = 1ms\nisolation = none, cpuset\n"), 0);
	assert_int_equal(config_load(a, path, NULL, 0, err, sizeof(err)), 0);
	FILE *fp = open_memstream(&text, &len);
	config_write_ini(fp, a);
	fclose(fp);
	for (const char *p = text; *p; n++) {	/* the echo's lines of isolation and duration */
		if (strncmp(p, "isolation ", 10) == 0)
			iso = n;
		if (strncmp(p, "duration ", 9) == 0)
			dur = n;
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	}
	assert_true(iso > 0 && dur > 0);
	snprintf(in, sizeof(in), "/latlab/config.ini:%d: isolation = cpuset: no", iso);
	config_echo_map(a, text, "/latlab/config.ini", in, out, sizeof(out));
	snprintf(in, sizeof(in), "%s:7 (the guest's copy: line %d): isolation = cpuset: no", path, iso);
	assert_string_equal(out, in);
	/* duration is the default: no line of the user's, said as it was */
	snprintf(in, sizeof(in), "/latlab/config.ini:%d: duration", dur);
	config_echo_map(a, text, "/latlab/config.ini", in, out, sizeof(out));
	assert_string_equal(out, in);
	config_echo_map(a, text, "/latlab/config.ini", "/latlab/config.ini:9999: x", out, sizeof(out));
	assert_string_equal(out, "/latlab/config.ini:9999: x");
	config_echo_map(a, text, "/latlab/config.ini", "no path here", out, sizeof(out));
	assert_string_equal(out, "no path here");
	config_free(a);
	free(a);
	free(text);
}

static int cleanup(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* An option's words: parse, format, list and help from one table. */
static void test_words(void **state)
{
	static const struct opt_word w[] = {
		{ .word = "any", .value = -1, .help = "as they are" },
		{ .word = "deepest:N", .value = 0, .help = "N and shallower", .max = 15,
		  .flags = OPT_WORD_PLUS },
		{ .word = "node:N", .value = 7, .max = 3 },
		{ .word = "poll", .value = -2 },
		{ .word = NULL },
	};
	char buf[512];
	int64_t v = 99;

	(void)state;
	assert_int_equal(opt_word_parse(w, "any", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(opt_word_parse(w, "deepest:0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(opt_word_parse(w, "deepest:15", &v), 0);
	assert_int_equal(v, 15);
	/* node:N without OPT_WORD_PLUS: the word's value, N its reader's */
	assert_int_equal(opt_word_parse(w, "node:3", &v), 0);
	assert_int_equal(v, 7);
	v = 99;
	const char *const bad[] = { "deepest:16", "deepest:", "deepest:x", "deepest:1x",
				    "deepest:-1", "deepest:01", "deepest: 1", "node:4", "Any", "an", "anyx", "", "deepest:N" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(opt_word_parse(w, bad[i], &v), -1);
		assert_int_equal(v, 99);	/* left as it was */
	}
	opt_word_format(w, 4, buf, sizeof(buf));
	assert_string_equal(buf, "deepest:4");
	opt_word_format(w, -2, buf, sizeof(buf));
	assert_string_equal(buf, "poll");
	opt_word_format(w, -5, buf, sizeof(buf));
	assert_string_equal(buf, "?");
	opt_words_list(w, buf, sizeof(buf));
	assert_string_equal(buf, "any|deepest:N|node:N|poll");
	opt_words_help(w, buf, sizeof(buf));
	assert_string_equal(buf, "any (as they are), deepest:N (N 0-15: N and shallower), node:N (N 0-3) or poll");

	/* an axis of words through the option's parse: the value, the message */
	const struct opt o = { .key = "idle", .type = OPT_AXIS_CHOICE, .words = w };
	struct axis ax = { 0 };
	char err[256];

	assert_int_equal(opt_parse(&o, &ax, "any, deepest:2, poll", err, sizeof(err)), 0);
	assert_int_equal(ax.n, 3);
	assert_int_equal(ax.v[0], -1);
	assert_int_equal(ax.v[1], 2);
	assert_int_equal(ax.v[2], -2);
	assert_int_equal(opt_parse(&o, &ax, "pol", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "idle: 'pol' is not one of any|deepest:N|node:N|poll (deepest:N N 0-15, node:N N 0-3) (did you mean 'poll'?)");
	assert_int_equal(ax.n, 3);	/* the axis as it was */
	/* and the matrix's rows: every axis of words formats what it parses */
	for (int a = 0; a < TAXIS_COUNT; a++)
		for (const struct opt_word *x = axis_defs[a].values; x && x->word; x++) {
			char text[64];
			int64_t got;

			if (x->max)
				snprintf(text, sizeof(text), "%.*s%d", (int)strlen(x->word) - 1,
					 x->word, x->max);
			else
				snprintf(text, sizeof(text), "%s", x->word);
			assert_int_equal(opt_word_parse(axis_defs[a].values, text, &got), 0);
			if (!x->max || (x->flags & OPT_WORD_PLUS)) {
				axis_value_format(a, got, buf, sizeof(buf));
				assert_string_equal(buf, text);
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_configs),
		cmocka_unit_test(test_many_errors),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_good_config),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_echo_roundtrip),
		cmocka_unit_test(test_echo_map),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, cleanup);
}
