/* Durations, sizes and CPU lists as users write them. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fakefs.h"
#include "cpulist.h"
#include "files.h"
#include "units.h"

static void test_durations(void **state)
{
	static const struct {
		const char *text;
		int rc;
		int64_t ns;
	} cases[] = {
		{ "1ns", 0, 1 },
		{ "250us", 0, 250000 },
		{ "1.5us", 0, 1500 },
		{ "1 ms", -EILSEQ, 0 },
		{ "1000us", 0, 1000000 },
		{ "10ms", 0, 10000000 },
		{ "60s", 0, 60000000000LL },
		{ "0.5s", 0, 500000000 },
		{ "2m", 0, 120000000000LL },
		{ "1h", 0, 3600000000000LL },
		{ " 5s ", 0, 5000000000LL },
		{ "100", -EINVAL, 0 },		/* a unit is required */
		{ "", -EINVAL, 0 },
		{ "s", -EINVAL, 0 },
		{ "5 parsecs", -EINVAL, 0 },
		{ "5sec", -EINVAL, 0 },
		{ "-5s", -EINVAL, 0 },
		{ "1.2.3s", -EINVAL, 0 },
		{ "99999999999999999999h", -ERANGE, 0 },
		{ "9999999999h", -ERANGE, 0 },
		/* the whole part fits, the fraction tips it over */
		{ "9223372036854775.9us", -ERANGE, 0 },
		{ "2562047.99h", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ns = 0;
		int rc = units_parse_duration(cases[i].text, &ns);

		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].text, rc,
				 cases[i].rc);
		if (rc == 0)
			assert_int_equal(ns, cases[i].ns);
	}
}

static void test_sizes(void **state)
{
	static const struct {
		const char *text;
		int rc;
		int64_t bytes;
	} cases[] = {
		{ "512", 0, 512 },
		{ "512B", 0, 512 },
		{ "4k", 0, 4096 },
		{ "4K", 0, 4096 },
		{ "4KiB", 0, 4096 },
		{ "1M", 0, 1048576 },
		{ "1MiB", 0, 1048576 },
		{ "2G", 0, 2147483648LL },
		{ "1.5k", 0, 1536 },
		{ "4x", -EINVAL, 0 },
		/* KB, MB, GB: 1000 or 1024? refused, never guessed */
		{ "4KB", -EDOM, 0 },
		{ "4kb", -EDOM, 0 },
		{ "1MB", -EDOM, 0 },
		{ "2 GB", -EDOM, 0 },
		{ "4 KiB", -EILSEQ, 0 },
		{ "k", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t b = 0;
		int rc = units_parse_size(cases[i].text, &b);

		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].text, rc,
				 cases[i].rc);
		if (rc == 0)
			assert_int_equal(b, cases[i].bytes);
	}
}

static void test_format_roundtrip(void **state)
{
	static const int64_t values[] = { 1, 999, 1000, 1500, 250000, 1000000,
					  60000000000LL, 3600000000000LL,
					  5400000000000LL };
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		int64_t back;

		units_format_duration(values[i], buf, sizeof(buf));
		assert_int_equal(units_parse_duration(buf, &back), 0);
		assert_int_equal(back, values[i]);
	}
	units_format_duration(1000000, buf, sizeof(buf));
	assert_string_equal(buf, "1ms");
	units_format_size(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4KiB");
	units_format_size(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1000");
	units_format_elapsed(62 * 1000000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "1m 02s");
	units_format_elapsed(3723 * 1000000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "1h 02m");
	/* counts and rates: SI suffixes, three digits, no e-notation */
	static const struct { double v; const char *want; } counts[] = {
		{ 29400, "29.4k" }, { 36900.4, "36.9k" }, { 3.69e6, "3.69M" }, { 124, "124" },
		{ 7.2, "7.20" }, { 0.04, "0.04" }, { 0, "0" }, { 999.4, "999" },
		{ 999.6, "1.00k" }, { 2.3e4, "23.0k" }, { 5e13, "50.0T" }, { 5e16, "50000T" },
	};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		units_format_count(counts[i].v, buf, sizeof(buf));
		assert_string_equal(buf, counts[i].want);
	}
}

/* Estimates that do not fit say so instead of wrapping. */
static void test_elapsed_long(void **state)
{
	char buf[64];

	(void)state;
	units_format_elapsed(INT64_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "more than 292 years");
	units_format_elapsed(3LL * 365 * 24 * 3600 * NS_PER_S, buf, sizeof(buf));
	assert_string_equal(buf, "3.0 years");
	units_format_elapsed(3600LL * NS_PER_S + 120 * NS_PER_S, buf, sizeof(buf));
	assert_string_equal(buf, "1h 02m");
}

static void test_ints(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(units_parse_int("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(units_parse_int("-3", &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(units_parse_int("0x4b", &v), 0);
	assert_int_equal(v, 0x4b);
	assert_int_equal(units_parse_int("010", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(units_parse_int("0xg", &v), -EINVAL);
	assert_int_equal(units_parse_int("4 2", &v), -EINVAL);
	assert_int_equal(units_parse_int("x", &v), -EINVAL);
	assert_int_equal(units_parse_int("99999999999999999999", &v), -ERANGE);
}

static void test_cpulists(void **state)
{
	static const struct {
		const char *text;
		int rc;
		const char *canon;	/* formatted back */
	} cases[] = {
		{ "0", 0, "0" },
		{ "0-3", 0, "0-3" },
		{ "0-3,8", 0, "0-3,8" },
		{ "0+2", 0, "0,2" },
		{ "3,1,2", 0, "1-3" },
		{ " 1 , 2 ", 0, "1-2" },
		{ "", 0, "" },
		{ "3-1", -EINVAL, NULL },
		{ "a", -EINVAL, NULL },
		{ "1,", -EINVAL, NULL },
		{ "1-", -EINVAL, NULL },
		{ "-1", -EINVAL, NULL },
		{ "1;2", -EINVAL, NULL },
		{ "99999", -ERANGE, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_set_t set;
		char buf[64];
		int rc = cpulist_parse(cases[i].text, &set);

		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].text, rc,
				 cases[i].rc);
		if (rc)
			continue;
		cpulist_format(&set, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].canon);
	}
}

static void test_cpulist_nth_and_online(void **state)
{
	cpu_set_t set;

	(void)state;
	assert_int_equal(cpulist_parse("1,4-5", &set), 0);
	assert_int_equal(cpulist_nth(&set, 0), 1);
	assert_int_equal(cpulist_nth(&set, 2), 5);
	assert_int_equal(cpulist_nth(&set, 3), -1);
	cpulist_online(&set);
	assert_true(CPU_COUNT(&set) >= 1);
	assert_true(CPU_ISSET(0, &set));
	assert_int_equal(cpulist_read_file("/nonexistent/online", &set),
			 -ENOENT);
}

/* node:N, and a node's CPUs from a sysfs of two nodes made for the test. */
static void test_cpulist_nodes(void **state)
{
	char root[] = "/tmp/latlab-nodes-XXXXXX", path[PATH_MAX], cmd[PATH_MAX + 64];
	cpu_set_t set;
	char buf[64];

	(void)state;
	assert_int_equal(cpulist_node_number("node:0"), 0);
	assert_int_equal(cpulist_node_number("node:17"), 17);
	assert_int_equal(cpulist_node_number("node:1023"), 1023);
	assert_int_equal(cpulist_node_number("node:1024"), -1);
	assert_int_equal(cpulist_node_number("node:"), -1);
	assert_int_equal(cpulist_node_number("node:01"), -1);
	assert_int_equal(cpulist_node_number("node:-1"), -1);
	assert_int_equal(cpulist_node_number("node:1x"), -1);
	assert_int_equal(cpulist_node_number("nodes:1"), -1);
	assert_int_equal(cpulist_node_number("1"), -1);
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/system/node/node0 %s/devices/system/node/node1 && "
		 "echo 0-1 > %s/devices/system/node/online && "
		 "echo 0,2 > %s/devices/system/node/node0/cpulist && "
		 "echo 1,3 > %s/devices/system/node/node1/cpulist", root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cpulist_nodes(root, &set), 0);
	cpulist_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0-1");
	assert_int_equal(cpulist_node(root, 1, &set), 0);
	cpulist_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "1,3");
	assert_int_equal(cpulist_node(root, 2, &set), -ENOENT);
	snprintf(path, sizeof(path), "%s/nothing", root);
	assert_int_equal(cpulist_nodes(path, &set), -ENOENT);
	/* a kernel without NUMA: node 0 is every online CPU, node 1 is not there */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/flat/devices/system/cpu && echo 0-3 > %s/flat/devices/system/cpu/online",
		 root, root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/flat", root);
	assert_int_equal(cpulist_node(path, 0, &set), 0);
	cpulist_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	assert_int_equal(cpulist_node(path, 1, &set), -ENOENT);
	assert_int_equal(fakefs_remove(root), 0);
}

/* The filesystem a path is on: the longest mount point leading to it. */
static void test_mount_of(void **state)
{
	char src[256], type[64];

	(void)state;
	assert_int_equal(file_mount_of("/proc/self/status", src, sizeof(src), type, sizeof(type)), 0);
	assert_string_equal(type, "proc");
	assert_int_equal(file_mount_of("/proc", src, sizeof(src), type, sizeof(type)), 0);
	assert_string_equal(type, "proc");
	/* /procx is not under /proc: the root's */
	assert_int_equal(file_mount_of("/procx/y", src, sizeof(src), type, sizeof(type)), 0);
	assert_string_not_equal(type, "proc");
	/* need not exist; must be absolute */
	assert_int_equal(file_mount_of("/sys/no/such/file", src, sizeof(src), type, sizeof(type)), 0);
	assert_string_equal(type, "sysfs");
	assert_int_equal(file_mount_of("proc/x", src, sizeof(src), type, sizeof(type)), -EINVAL);
}

/*
 * The CPUs latlab may run on: the affinity it had when first asked (a
 * container's cpuset, taskset), not what it set later for a cell's
 * housekeeping. The only test of this process that asks.
 */
static void test_cpulist_usable(void **state)
{
	cpu_set_t online, all, one, got;

	(void)state;
	cpulist_online(&online);
	if (CPU_COUNT(&online) < 2 || sched_getaffinity(0, sizeof(all), &all) != 0)
		skip();
	CPU_ZERO(&one);
	CPU_SET(cpulist_nth(&online, 1), &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		skip();
	cpulist_usable(&got);
	assert_true(CPU_EQUAL(&got, &one));
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	cpulist_usable(&got);	/* still the first answer */
	assert_true(CPU_EQUAL(&got, &one));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_elapsed_long),
		cmocka_unit_test(test_mount_of),
		cmocka_unit_test(test_cpulists),
		cmocka_unit_test(test_cpulist_nth_and_online),
		cmocka_unit_test(test_cpulist_nodes),
		cmocka_unit_test(test_cpulist_usable),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
