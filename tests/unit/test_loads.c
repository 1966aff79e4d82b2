/* Load types: registry, option tables and checks, argv splitting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "argv.h"
#include "load_ops.h"

static void test_argv_split(void **state)
{
	static const struct {
		const char *cmd;
		int rc;
		const char *words[6];
	} cases[] = {
		{ "hackbench -g 4", 0, { "hackbench", "-g", "4" } },
		{ "  a\tb  ", 0, { "a", "b" } },
		{ "stress-ng --cpu 2 --metrics-brief", 0,
		  { "stress-ng", "--cpu", "2", "--metrics-brief" } },
		{ "sh -c \"sleep 1; echo hi\"", 0, { "sh", "-c", "sleep 1; echo hi" } },
		{ "a\" b\"c d", 0, { "a bc", "d" } },
		{ "a\\ b c", 0, { "a b", "c" } },
		{ "say \\\"x\\\"", 0, { "say", "\"x\"" } },
		{ "\"\"", 0, { "" } },
		{ "$HOME *", 0, { "$HOME", "*" } },	/* no shell */
		{ "", -EINVAL, { NULL } },
		{ "   ", -EINVAL, { NULL } },
		{ "a \"b", -EINVAL, { NULL } },
		{ "a\\", -EINVAL, { NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char **argv = NULL;
		int argc = 0;
		int rc = argv_split(cases[i].cmd, &argv, &argc);

		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].cmd, rc,
				 cases[i].rc);
		if (rc)
			continue;
		int n = 0;
		while (cases[i].words[n])
			n++;
		assert_int_equal(argc, n);
		for (int w = 0; w < n; w++)
			assert_string_equal(argv[w], cases[i].words[w]);
		assert_null(argv[argc]);
		free(argv);
		/* the program: the first word, as split */
		char first[64] = "x";

		assert_int_equal(argv_first(cases[i].cmd, first, sizeof(first)), 0);
		assert_string_equal(first, cases[i].words[0]);
	}
	char first[64] = "kept";

	assert_int_equal(argv_first("a \"b", first, sizeof(first)), -EINVAL);
}

static int64_t ok_run(struct load_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void test_registry(void **state)
{
	static const char *const names[] = { "hackbench", "cpu", "memory",
					     "disk", "fork", "net", "timer",
					     "external" };
	static const struct load_ops no_run = { .name = "x" };
	static const struct load_ops a = { .name = "a", .run = ok_run };
	const struct load_ops *bad[] = { &a, &no_run, NULL };
	const struct load_ops *dup[] = { &a, &a, NULL };

	(void)state;
	assert_int_equal(load_registry_check(load_registry), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct load_ops *l = load_find(names[i]);

		assert_non_null(l);
		assert_non_null(l->help);
	}
	assert_null(load_find("none"));	/* the harness's keyword, no type */
	assert_int_equal(load_registry_check(bad), -EINVAL);
	assert_int_equal(load_registry_check(dup), -EINVAL);
}

/* hackbench: rt-tests' defaults, flags map onto options, checks. */
static void test_hackbench_options(void **state)
{
	const struct load_ops *hb = load_find("hackbench");
	void *opts = calloc(1, hb->opts_size);
	char err[256], buf[64];

	(void)state;
	opt_defaults(hb->options, opts);
	static const struct {
		const char *key, *want;
		char short_opt;
	} defaults[] = {
		{ "groups", "10", 'g' }, { "fds", "20", 'f' },
		{ "loops", "100", 'l' }, { "datasize", "100", 's' },
		{ "mode", "process", 0 }, { "ipc", "socket", 0 },
	};
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		const struct opt *o = opt_find(hb->options, defaults[i].key);

		assert_non_null(o);
		opt_format(o, opts, buf, sizeof(buf));
		assert_string_equal(buf, defaults[i].want);
		assert_int_equal(o->short_opt, defaults[i].short_opt);
	}
	int flags = 0;
	for (const struct cli_flag *f = hb->flags; f->letter; f++, flags++)
		assert_int_equal(opt_parse(opt_find(hb->options, f->key), opts,
					   f->value, err, sizeof(err)), 0);
	assert_int_equal(flags, 3);	/* -p -T -P */
	assert_int_equal(hb->check(opts, err, sizeof(err)), 0);
	assert_int_equal(opt_parse(opt_find(hb->options, "groups"), opts,
				   "1000", err, sizeof(err)), 0);
	assert_int_equal(hb->check(opts, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "workers"));
	assert_int_not_equal(opt_parse(opt_find(hb->options, "groups"), opts,
				       "0", err, sizeof(err)), 0);
	free(opts);
}

static void test_external_check(void **state)
{
	const struct load_ops *ext = load_find("external");
	void *opts = calloc(1, ext->opts_size);
	char err[256];

	(void)state;
	opt_defaults(ext->options, opts);
	assert_int_equal(ext->check(opts, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "command is empty"));
	opt_parse(opt_find(ext->options, "command"), opts, "x \"y", err,
		  sizeof(err));
	assert_int_equal(ext->check(opts, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unclosed quote"));
	opt_parse(opt_find(ext->options, "command"), opts, "hackbench -g 2",
		  err, sizeof(err));
	assert_int_equal(ext->check(opts, err, sizeof(err)), 0);
	free(opts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argv_split),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_hackbench_options),
		cmocka_unit_test(test_external_check),
	};

	return cmocka_run_group_tests_name("loads", tests, NULL, NULL);
}
