/*
 * trace/timerlat.c: the kernel's timerlat samples to each CPU's
 * histograms (the tracer itself needs a kernel with it: tests/cli/guests/vm-session.bats runs it
 * in Debian's rt guest), and what it refuses before touching tracefs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "timerlat.h"

/* Samples of CPUs 1 and 3 go to their own; another CPU's and another context's nowhere. */
static void test_add(void **state)
{
	struct timerlat_cpu cpu[2];
	struct timerlat t = { .n = 2, .cpu = cpu, .event_id = -1 };

	(void)state;
	memset(cpu, 0, sizeof(cpu));
	cpu[0].cpu = 1;
	cpu[1].cpu = 3;
	for (int i = 0; i < 2; i++) {
		hist_init(&cpu[i].irq);
		hist_init(&cpu[i].thread);
	}
	timerlat_add(&t, 1, 0, 1000, 0);	/* the IRQ's: no pid of the thread */
	timerlat_add(&t, 1, 1, 3000, 42);
	timerlat_add(&t, 1, 1, 4000, 42);
	timerlat_add(&t, 3, 1, 5000, 43);
	timerlat_add(&t, 2, 1, 7000, 44);	/* a CPU not asked for */
	timerlat_add(&t, 3, 2, 100, 43);	/* a context this latlab does not know */
	assert_int_equal(cpu[0].irq.count, 1);
	assert_int_equal(cpu[0].irq.max, 1000);
	assert_int_equal(cpu[0].thread.count, 2);
	assert_int_equal(cpu[0].thread.max, 4000);
	assert_int_equal(cpu[0].kpid, 42);
	assert_int_equal(cpu[1].irq.count, 0);
	assert_int_equal(cpu[1].thread.count, 1);
	assert_int_equal(cpu[1].kpid, 43);
	assert_int_equal(t.foreign, 1);
	assert_ptr_equal(timerlat_of(&t, 3), &cpu[1]);
	assert_null(timerlat_of(&t, 0));
}

/* A period outside 100 µs - 1 s, or no CPU: refused with why, nothing opened. */
static void test_refused(void **state)
{
	struct timerlat t;
	char why[256];
	const int cpus[] = { 0 };

	(void)state;
	assert_int_equal(timerlat_open(&t, cpus, 1, 50000, why, sizeof(why)), -ERANGE);
	assert_non_null(strstr(why, "its period is 100 us to 1 s"));
	assert_null(t.inst);
	timerlat_free(&t);
	assert_int_equal(timerlat_open(&t, cpus, 1, 2000000000LL, why, sizeof(why)), -ERANGE);
	timerlat_free(&t);
	assert_int_equal(timerlat_open(&t, cpus, 0, 1000000, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "no CPU"));
	timerlat_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
