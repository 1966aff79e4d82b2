/*
 * The wake-up methods and clocks (harness/measure/wakeup.c) in this
 * thread, without real-time priority: every method on every clock sleeps
 * to the period and never wakes before it (the latency it measures is
 * never below 0), and a clock a method cannot use is refused at set-up
 * with the kernel's error, not in the loop. Timing is not judged here
 * beyond "not early" and a sanity bound (bench/ and docs/guide.md measure
 * the methods side by side).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <cmocka.h>

#include "wakeup.h"

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void test_never_early(void **state)
{
	(void)state;
	for (int m = WAKE_ABS; m <= WAKE_PSELECT; m++)
		for (int c = WCLOCK_MONOTONIC; c <= WCLOCK_TAI; c++) {
			struct waker w;
			int rc = waker_init(&w, m, c);

			if (m == WAKE_TIMERFD && c == WCLOCK_TAI) {
				/* timerfd_create takes no CLOCK_TAI (timerfd.c: its clocks are listed) */
				assert_int_equal(rc, -EINVAL);
				waker_fini(&w);
				continue;
			}
			assert_int_equal(rc, 0);
			int64_t worst = 0;

			for (int i = 0; i < 20; i++) {
				int64_t at = mono_ns() + 300000;

				assert_int_equal(waker_sleep(&w, at), 0);
				int64_t late = waker_now(&w) - at;

				assert_true(late >= 0);
				assert_true(late < 1000000000);	/* a sanity bound, not a pace */
				if (late > worst)
					worst = late;
			}
			/* a period already past: at once */
			assert_int_equal(waker_sleep(&w, mono_ns() - 1000000), 0);
			print_message("method %d clock %d: worst %lld ns of 20\n", m, c, (long long)worst);
			waker_fini(&w);
		}
}

/* On the other clocks, now is CLOCK_MONOTONIC's within a read's time. */
static void test_offset(void **state)
{
	(void)state;
	for (int c = WCLOCK_REALTIME; c <= WCLOCK_TAI; c++) {
		struct waker w;

		assert_int_equal(waker_init(&w, WAKE_ABS, c), 0);
		int64_t a = mono_ns(), x = waker_now(&w), b = mono_ns();

		assert_true(x >= a - 100000 && x <= b + 100000);
		assert_true(waker_clockid(c) == (c == WCLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_TAI));
		waker_fini(&w);
	}
}

/*
 * The auxiliary clocks (CLOCK_AUX + N): refused at set-up where the kernel
 * lacks them or has not enabled them (this VM's 6.18 has none), never in
 * the loop; where one is enabled, it sleeps as the others do.
 */
static void test_aux(void **state)
{
	(void)state;
	assert_true(waker_clockid(WCLOCK_AUX0) == 16);
	assert_true(waker_clockid(WCLOCK_AUX0 + 7) == 23);
	for (int n = 0; n < 8; n++) {
		char path[64];
		struct waker w;
		FILE *fp;
		int enabled = 0;

		snprintf(path, sizeof(path), "/sys/kernel/time/aux_clocks/%d/enable", n);
		fp = fopen(path, "r");
		if (fp) {
			enabled = fgetc(fp) == '1';
			fclose(fp);
		}
		int rc = waker_init(&w, WAKE_ABS, WCLOCK_AUX0 + n);

		if (!enabled)
			assert_true(rc < 0);	/* EINVAL here; a disabled one may say otherwise */
		waker_fini(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_early),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_aux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
