/*
 * [matrix] smt (harness/measure/smt.c) on a sysfs made for it, through
 * axis_hooks as a cell calls it (axis_root): two cores of two hardware
 * threads each, enumerated as Intel does (core 0: CPUs 0 and 2, core 1:
 * CPUs 1 and 3), CPU 0 without an online file (x86 cannot take it
 * offline). smt = off takes a measured CPU's sibling offline through the
 * journal, which brings it back; what cannot be done is refused with its
 * reason: a sibling measured too, a housekeeping CPU, CPU 0, a machine
 * without SMT, no topology.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "axis_ops.h"
#include "config.h"
#include "fakefs.h"

static char root[64], run[96], roots_buf[96];
static const char *roots[2];
static struct config cfg;	/* [campaign] housekeeping: none unless a test sets it */

static void put(const char *rel, const char *value)
{
	fakefs_cpu_put(root, rel, value);
}

static const char *get(const char *rel)
{
	return fakefs_cpu_get(root, rel);
}

static int setup(void **state)
{
	(void)state;
	fakefs_make(root, sizeof(root), "test_smt");
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(roots_buf, sizeof(roots_buf), "%s/sys/", root);
	roots[0] = roots_buf;
	roots[1] = NULL;
	put("cpu0/topology/thread_siblings_list", "0,2");
	put("cpu2/topology/thread_siblings_list", "0,2");
	put("cpu1/topology/thread_siblings_list", "1,3");
	put("cpu3/topology/thread_siblings_list", "1,3");
	for (int cpu = 1; cpu < 4; cpu++) {	/* CPU 0 has none */
		char rel[32];

		snprintf(rel, sizeof(rel), "cpu%d/online", cpu);
		put(rel, "1");
	}
	axis_root = root;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	axis_root = "";
	return fakefs_remove(root);
}

static cpu_set_t cpus_of(int a, int b)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(a, &s);
	if (b >= 0)
		CPU_SET(b, &s);
	return s;
}

static const struct axis_ops *smt(void)
{
	assert_non_null(axis_hooks[TAXIS_SMT]);
	return axis_hooks[TAXIS_SMT];
}

/* Measured CPU 3: its sibling 1 offline for the cell, online again after. */
static void test_off(void **state)
{
	cpu_set_t three = cpus_of(3, -1);
	struct undo u;
	char done[256] = "", why[256] = "", report[256];

	(void)state;
	assert_int_equal(smt()->phase, AXIS_BEFORE_ISOLATION);	/* no cpuset may hold it */
	assert_int_equal(smt()->as_is, SMT_ON);
	assert_int_equal(smt()->check(&cfg, NULL, SMT_OFF, &three, why, sizeof(why)), 0);
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(smt()->begin(&cfg, NULL, SMT_OFF, &three, &u, done, sizeof(done), why,
				      sizeof(why)), 0);
	assert_string_equal(done, "CPU 1 offline (the measured CPUs' siblings)");
	assert_string_equal(get("cpu1/online"), "0");
	assert_string_equal(get("cpu2/online"), "1");	/* another core's */
	assert_int_equal(u.changes, 1);
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_string_equal(get("cpu1/online"), "1");
}

/* What cannot be done is refused, each with its reason, and nothing written. */
static void test_refused(void **state)
{
	static const struct {
		int a, b;
		const char *housekeeping;
		const char *want;
	} cases[] = {
		{ 1, 3, NULL, "CPUs 1 and 3 are siblings, and the cell's threads may run on both: pin one thread a core (affinity) to take the other offline" },
		{ 3, -1, "1", "CPU 1, a sibling of measured CPU 3, is one of [campaign] housekeeping's" },
		{ 2, -1, NULL, "CPU 0, a sibling of measured CPU 2, cannot be taken offline (/sys/devices/system/cpu/cpu0/online: No such file or directory)" },
		{ 5, -1, NULL, "CPU 5: no topology/thread_siblings_list in sysfs" },
	};
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_set_t cpus = cpus_of(cases[i].a, cases[i].b);
		struct undo u;
		char done[64] = "", report[64];

		CPU_ZERO(&cfg.housekeeping);
		if (cases[i].housekeeping)
			CPU_SET(atoi(cases[i].housekeeping), &cfg.housekeeping);
		why[0] = '\0';
		assert_int_equal(smt()->check(&cfg, NULL, SMT_OFF, &cpus, why, sizeof(why)), -1);
		assert_string_equal(why, cases[i].want);
		assert_int_equal(undo_open(&u, run, roots), 0);
		assert_int_equal(smt()->begin(&cfg, NULL, SMT_OFF, &cpus, &u, done, sizeof(done), why,
					      sizeof(why)), -1);
		assert_int_equal(u.changes, 0);
		undo_finish(&u, report, sizeof(report));
	}
	CPU_ZERO(&cfg.housekeeping);
	for (int cpu = 1; cpu < 4; cpu++) {
		char rel[32];

		snprintf(rel, sizeof(rel), "cpu%d/online", cpu);
		assert_string_equal(get(rel), "1");
	}
	/* a guest's cell, checked from the host: its own machine answers */
	assert_int_equal(smt()->check(&cfg, NULL, SMT_OFF, NULL, why, sizeof(why)), 0);
}

/* A machine of one thread a core (as this VM): nothing to take offline, said. */
static void test_no_smt(void **state)
{
	cpu_set_t one = cpus_of(1, -1);
	char why[256] = "";

	(void)state;
	put("cpu1/topology/thread_siblings_list", "1");
	assert_int_equal(smt()->check(&cfg, NULL, SMT_OFF, &one, why, sizeof(why)), -1);
	assert_string_equal(why, "no measured CPU (1) has an SMT sibling online on this machine: nothing to take offline");
	put("cpu1/topology/thread_siblings_list", "1,3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_smt),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
