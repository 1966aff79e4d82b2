/*
 * [matrix] throttle (harness/measure/throttle.c) on a /proc and debugfs
 * made for it: a 6.12+ kernel with fair servers on two CPUs, a 6.1
 * kernel with none, and one in lockdown (debugfs there, its files not
 * readable). off writes sched_rt_runtime_us = -1 and the measured CPUs'
 * server runtimes 0, each journalled first; the journal sets back exactly
 * what was there, at the cell's end and by the next latlab after a
 * SIGKILL; a soft RLIMIT_RTTIME is the net while throttling is off and
 * set back after; default touches nothing.
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "files.h"
#include "kernel.h"
#include "throttle.h"
#include "undo.h"

enum { DEFAULT, OFF };

static char root[64], run[96], roots_buf[2][128];
static const char *roots[3];

static void put(const char *rel, const char *value)
{
	fakefs_put(root, rel, value);
}

static const char *get(const char *rel)
{
	return fakefs_get(root, rel);
}

#define FAIR "/sys/kernel/debug/sched/fair_server/cpu"

static int setup(void **state)
{
	(void)state;
	fakefs_make(root, sizeof(root), "test_throttle");
	snprintf(run, sizeof(run), "%s/run", root);
	snprintf(roots_buf[0], sizeof(roots_buf[0]), "%s/proc/sys/kernel/", root);
	snprintf(roots_buf[1], sizeof(roots_buf[1]), "%s/sys/kernel/debug/sched/", root);
	roots[0] = roots_buf[0];
	roots[1] = roots_buf[1];
	roots[2] = NULL;
	put("/proc/sys/kernel/osrelease", "6.12.57+deb13-amd64");
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000");
	put("/proc/sys/kernel/sched_rt_period_us", "1000000");
	for (int cpu = 0; cpu < 2; cpu++) {
		char rel[96];

		snprintf(rel, sizeof(rel), FAIR "%d/runtime", cpu);
		put(rel, "50000000");
		snprintf(rel, sizeof(rel), FAIR "%d/period", cpu);
		put(rel, "1000000000");
	}
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fakefs_remove(root);
}

static cpu_set_t cpu1(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(1, &s);
	return s;
}

static void test_off(void **state)
{
	cpu_set_t one = cpu1();
	struct kernel_facts f;
	struct rlimit before, during, after;
	struct undo u;
	char done[512], why[256], report[256];

	(void)state;
	kernel_facts_read(root, &f);
	assert_int_equal(f.fair.state, 1);
	assert_int_equal(throttle_check_at(root, &f, OFF, why, sizeof(why)), 0);
	assert_int_equal(getrlimit(RLIMIT_RTTIME, &before), 0);
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(throttle_begin_at(root, &f, OFF, &one, &u, done, sizeof(done), why,
					   sizeof(why)), 0);
	assert_string_equal(done, "sched_rt_runtime_us -1 (was 950000); fair_server runtime 0 on CPUs 1 (was 50000000 ns); a real-time thread that runs 1000 ms without blocking gets SIGXCPU (RLIMIT_RTTIME)");
	assert_string_equal(get("/proc/sys/kernel/sched_rt_runtime_us"), "-1");
	assert_string_equal(get(FAIR "1/runtime"), "0");
	assert_string_equal(get(FAIR "0/runtime"), "50000000");	/* not measured */
	assert_int_equal(u.changes, 2);
	assert_int_equal(getrlimit(RLIMIT_RTTIME, &during), 0);
	assert_int_equal(during.rlim_cur, 1000000);
	assert_int_equal(during.rlim_max, before.rlim_max);	/* the hard limit as it was */
	throttle_end();
	assert_int_equal(getrlimit(RLIMIT_RTTIME, &after), 0);
	assert_int_equal(after.rlim_cur, before.rlim_cur);
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_string_equal(get("/proc/sys/kernel/sched_rt_runtime_us"), "950000");
	assert_string_equal(get(FAIR "1/runtime"), "50000000");
}

static void test_default_touches_nothing(void **state)
{
	cpu_set_t one = cpu1();
	struct kernel_facts f;
	struct undo u;
	char done[256] = "x", why[256], report[256];

	(void)state;
	kernel_facts_read(root, &f);
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(throttle_begin_at(root, &f, DEFAULT, &one, &u, done, sizeof(done), why,
					   sizeof(why)), 0);
	assert_int_equal(u.changes, 0);
	assert_string_equal(done, "");
	undo_finish(&u, report, sizeof(report));
}

/* 6.1: RT throttling only, no servers to set */
static void test_no_servers(void **state)
{
	cpu_set_t one = cpu1();
	struct kernel_facts f;
	struct undo u;
	char done[512], why[256], report[256], servers[128];

	(void)state;
	snprintf(servers, sizeof(servers), "%s/sys/kernel/debug/sched/fair_server", root);
	assert_int_equal(fakefs_remove(servers), 0);
	kernel_facts_read(root, &f);
	assert_int_equal(f.fair.state, 0);
	assert_int_equal(throttle_check_at(root, &f, OFF, why, sizeof(why)), 0);
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(throttle_begin_at(root, &f, OFF, &one, &u, done, sizeof(done), why,
					   sizeof(why)), 0);
	assert_int_equal(u.changes, 1);
	assert_null(strstr(done, "fair_server"));
	throttle_end();
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_string_equal(get("/proc/sys/kernel/sched_rt_runtime_us"), "950000");
}

/* lockdown: the servers there and not readable; refused, nothing written */
static void test_refused(void **state)
{
	struct kernel_facts f;
	char why[512], path[256];

	(void)state;
	kernel_facts_read(root, &f);
	f.fair.state = -1;	/* as kernel.c says a server it cannot read */
	snprintf(f.fair.why, sizeof(f.fair.why), "debugfs sched/fair_server: %s", strerror(EPERM));
	assert_int_equal(throttle_check_at(root, &f, OFF, why, sizeof(why)), -1);
	assert_string_equal(why, "the fair_server's runtime cannot be set: debugfs sched/fair_server: Operation not permitted (a kernel in lockdown keeps debugfs even from root: see dmesg)");
	assert_int_equal(throttle_check_at(root, &f, DEFAULT, why, sizeof(why)), 0);
	/* no sched_rt_runtime_us to write */
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/sched_rt_runtime_us", root);
	assert_int_equal(unlink(path), 0);
	kernel_facts_read(root, &f);
	assert_int_equal(throttle_check_at(root, &f, OFF, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "sched_rt_runtime_us cannot be written: No such file"));
}

/* a latlab killed mid-cell: the next one's undo_stale sets it all back */
static void test_sigkill(void **state)
{
	cpu_set_t one = cpu1();
	struct kernel_facts f;
	int status;

	(void)state;
	kernel_facts_read(root, &f);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct undo u;
		char done[512], why[256];

		if (undo_open(&u, run, roots) != 0 ||
		    throttle_begin_at(root, &f, OFF, &one, &u, done, sizeof(done), why,
				      sizeof(why)) != 0)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_string_equal(get("/proc/sys/kernel/sched_rt_runtime_us"), "-1");
	assert_string_equal(get(FAIR "1/runtime"), "0");
	assert_int_equal(undo_stale(run, roots, NULL, NULL), 1);
	assert_string_equal(get("/proc/sys/kernel/sched_rt_runtime_us"), "950000");
	assert_string_equal(get(FAIR "1/runtime"), "50000000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_touches_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_servers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sigkill, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
