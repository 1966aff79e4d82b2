/*
 * [matrix] idle (harness/measure/idle.c) on a sysfs made for it: an x86
 * CPU with POLL, C1, C1E and C6 (C6 disabled by someone else), an arm
 * CPU with WFI and a deeper state, and a machine without a cpuidle
 * driver (as this VM). deepest:N and poll disable what they exclude on the
 * measured CPUs only, a state disabled before stays disabled after, the
 * journal sets back exactly what was switched; what cannot be held is
 * refused with its reason.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fakefs.h"
#include "files.h"
#include "idle.h"

static char root[64], run[96], roots_buf[96];
static const char *roots[2];

static void put(const char *rel, const char *value)
{
	fakefs_cpu_put(root, rel, value);
}

static const char *get(const char *rel)
{
	return fakefs_cpu_get(root, rel);
}

static void cpu_states(int cpu, const char *const *names, int n)
{
	char rel[96];

	for (int k = 0; k < n; k++) {
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/name", cpu, k);
		put(rel, names[k]);
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/disable", cpu, k);
		put(rel, "0");
	}
}

static int setup(void **state)
{
	static const char *const x86[] = { "POLL", "C1", "C1E", "C6" };
	static const char *const arm[] = { "WFI", "cpu-sleep" };

	(void)state;
	fakefs_make(root, sizeof(root), "test_idle");
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(roots_buf, sizeof(roots_buf), "%s/sys/", root);
	roots[0] = roots_buf;
	roots[1] = NULL;
	put("cpuidle/current_driver", "intel_idle");
	cpu_states(0, x86, 4);
	cpu_states(1, x86, 4);
	put("cpu1/cpuidle/state3/disable", "1");	/* the admin's */
	cpu_states(2, arm, 2);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
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

static void test_deepest(void **state)
{
	cpu_set_t one = cpus_of(1, -1);
	struct undo u;
	char done[256], why[256], report[256];

	(void)state;
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(idle_begin(root, &u, 1, &one, done, sizeof(done), why, sizeof(why)), 0);
	assert_string_equal(done, "CPU 1: C1E disabled");	/* C6 was off already */
	assert_string_equal(get("cpu1/cpuidle/state1/disable"), "0");
	assert_string_equal(get("cpu1/cpuidle/state2/disable"), "1");
	assert_string_equal(get("cpu0/cpuidle/state2/disable"), "0");	/* not measured */
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_string_equal(get("cpu1/cpuidle/state2/disable"), "0");
	assert_string_equal(get("cpu1/cpuidle/state3/disable"), "1");	/* still the admin's */
}

static void test_poll(void **state)
{
	cpu_set_t two = cpus_of(0, 1);
	struct undo u;
	char done[256], why[256], report[256];

	(void)state;
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(idle_begin(root, &u, IDLE_POLL, &two, done, sizeof(done), why, sizeof(why)), 0);
	assert_string_equal(done, "CPU 0: C1 C1E C6 disabled; CPU 1: C1 C1E disabled");
	assert_string_equal(get("cpu0/cpuidle/state0/disable"), "0");
	assert_string_equal(get("cpu0/cpuidle/state3/disable"), "1");
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	for (int k = 0; k < 4; k++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "cpu0/cpuidle/state%d/disable", k);
		assert_string_equal(get(rel), "0");
	}
	/* any: nothing looked at, nothing written */
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(idle_begin(root, &u, IDLE_ANY, &two, done, sizeof(done), why, sizeof(why)), 0);
	assert_int_equal(u.changes, 0);
	assert_string_equal(done, "");
	undo_finish(&u, report, sizeof(report));
}

static void test_refused(void **state)
{
	cpu_set_t arm = cpus_of(2, -1), x86 = cpus_of(0, -1), none = cpus_of(5, -1);
	struct undo u;
	char why[256], done[64];

	(void)state;
	assert_int_equal(idle_check(root, IDLE_POLL, &arm, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "CPU 2 has no polling idle state (its states: 0 WFI, 1 cpu-sleep)");
	assert_int_equal(idle_check(root, 0, &arm, why, sizeof(why)), 0);
	assert_int_equal(idle_check(root, 4, &x86, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "CPU 0 has idle states 0-3 (0 POLL, 1 C1, 2 C1E, 3 C6): deepest:4 is beyond them");
	assert_int_equal(idle_check(root, 3, &x86, why, sizeof(why)), 0);
	assert_int_equal(idle_check(root, 1, &none, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "CPU 5 has no cpuidle states (driver intel_idle)");
	/* refused at the start: nothing written */
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(idle_begin(root, &u, IDLE_POLL, &arm, done, sizeof(done), why, sizeof(why)),
			 -ENODEV);
	assert_int_equal(u.changes, 0);
	undo_finish(&u, why, sizeof(why));
	/* no driver, as this VM */
	put("cpuidle/current_driver", "none");
	assert_int_equal(idle_check(root, 1, &x86, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "this machine has no cpuidle driver"));
	assert_int_equal(idle_check(root, IDLE_ANY, &x86, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_deepest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
