/*
 * Command lines from tables (common/cliopt.c): rows of latlab's kind and
 * the option engine's rows and flags filling two structs in one parse,
 * as latload's are; operands after options or among them by the order
 * asked; help, an unknown option and a refused value told apart.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cliopt.h"
#include "options.h"

struct own {
	int quiet;
	const char *out;
	int n;
};

struct typed {
	int64_t groups;
	int ipc;
};

static int parse_n(const char *arg, void *field)
{
	if (strcmp(arg, "bad") == 0)
		return -EINVAL;
	*(int *)field = (int)strlen(arg);
	return 0;
}

static const struct cli_opt own_cli[] = {
	{ "quiet", 'q', NULL, CLI_FLAG, offsetof(struct own, quiet), NULL, "say less" },
	{ "output", 'o', "DIR", CLI_TEXT, offsetof(struct own, out), NULL, "where" },
	{ "count", 0, "N", CLI_CALL, offsetof(struct own, n), parse_n, NULL },
	{ NULL, 0, NULL, CLI_FLAG, 0, NULL, NULL },
};

static const struct opt typed_rows[] = {
	{ .key = "groups", .type = OPT_INT, .offset = offsetof(struct typed, groups), .min = 1,
	  .max = 100, .def = "10", .help = "groups", .short_opt = 'g' },
	{ .key = "ipc", .type = OPT_ENUM, .offset = offsetof(struct typed, ipc), .def = "socket",
	  .help = "channel", .choices = "socket|pipe" },
	{ 0 },
};

static const struct cli_flag typed_flags[] = {
	{ 'p', "pipe", "ipc", "pipe", "pipes" },
	{ 0, NULL, NULL, NULL, NULL },
};

static enum cli_parsed parse(enum cli_order order, int argc, char **argv, struct own *o,
			     struct typed *t, int *first)
{
	const struct cli_table tables[] = {
		{ own_cli, o, NULL, NULL },
		{ NULL, t, typed_rows, typed_flags },
	};

	memset(o, 0, sizeof(*o));
	memset(t, 0, sizeof(*t));
	return cli_opts_parse(tables, 2, order, argc, argv, first);
}

static void test_two_structs(void **state)
{
	char *argv[] = { "cmd", "-q", "--output", "d", "-g", "7", "-p", "--count", "abc", "x", NULL };
	struct own o;
	struct typed t;
	int first = -1;

	(void)state;
	assert_int_equal(parse(CLI_OPTIONS_FIRST, 10, argv, &o, &t, &first), CLI_PARSED);
	assert_int_equal(o.quiet, 1);
	assert_string_equal(o.out, "d");
	assert_int_equal(o.n, 3);
	assert_int_equal(t.groups, 7);
	assert_int_equal(t.ipc, 1);	/* -p: pipe */
	assert_int_equal(first, 9);
}

static void test_order(void **state)
{
	char *a1[] = { "cmd", "x", "-q", NULL };
	char *a2[] = { "cmd", "x", "-q", NULL };
	struct own o;
	struct typed t;
	int first = -1;

	(void)state;
	/* latload's: the operand ends the options, -q is an operand too */
	assert_int_equal(parse(CLI_OPTIONS_FIRST, 3, a1, &o, &t, &first), CLI_PARSED);
	assert_int_equal(o.quiet, 0);
	assert_int_equal(first, 1);
	/* latlab's: options after an operand (run c.ini -q) */
	assert_int_equal(parse(CLI_ANY_ORDER, 3, a2, &o, &t, &first), CLI_PARSED);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(first, 2);
	assert_string_equal(a2[first], "x");
}

static void test_failures(void **state)
{
	char *help[] = { "cmd", "-g", "3", "--help", NULL };
	char *unknown[] = { "cmd", "--bogus", NULL };
	char *range[] = { "cmd", "-g", "0", NULL };
	char *refused[] = { "cmd", "--count", "bad", NULL };
	char *choice[] = { "cmd", "--ipc", "carrier-pigeon", NULL };
	struct own o;
	struct typed t;
	int first;

	(void)state;
	assert_int_equal(parse(CLI_ANY_ORDER, 4, help, &o, &t, &first), CLI_HELP);
	assert_int_equal(parse(CLI_ANY_ORDER, 2, unknown, &o, &t, &first), CLI_UNKNOWN);
	assert_int_equal(parse(CLI_ANY_ORDER, 3, range, &o, &t, &first), CLI_BAD);
	assert_int_equal(parse(CLI_ANY_ORDER, 3, refused, &o, &t, &first), CLI_BAD);
	assert_int_equal(parse(CLI_ANY_ORDER, 3, choice, &o, &t, &first), CLI_BAD);
}

static void test_help_lines(void **state)
{
	char buf[512] = "";
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	assert_non_null(fp);
	cli_opts_help(own_cli, fp);
	fclose(fp);
	assert_non_null(strstr(buf, "  -q, --quiet"));
	assert_non_null(strstr(buf, "  -o, --output DIR"));
	assert_null(strstr(buf, "count"));	/* no help: not shown */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_structs),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_help_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
