/*
 * Which captures a cell keeps ([trace] keep, harness/measure/cell_trace.c):
 * the first `captures` above the threshold, or the worst — where a later
 * capture goes among those kept, and the threshold the trap is raised to
 * once they are all taken.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cell_parts.h"

static void kept_of(struct capture *kept, const int64_t *lat, int n)
{
	memset(kept, 0, (size_t)n * sizeof(*kept));
	for (int i = 0; i < n; i++) {
		kept[i].n = i + 1;
		kept[i].latency_ns = lat[i];
	}
}

/* room left: the next place, whichever way the cell keeps */
static void test_slot_room(void **state)
{
	struct capture kept[3];
	const int64_t lat[] = { 900, 700 };

	(void)state;
	kept_of(kept, lat, 2);
	assert_int_equal(spikes_slot(kept, 2, 3, 0, 1), 2);
	assert_int_equal(spikes_slot(kept, 2, 3, 1, 1), 2);
	assert_int_equal(spikes_slot(kept, 0, 3, 1, 5000), 0);
}

/* full: the first kept refuse every later one; the worst, only one no worse than the least */
static void test_slot_full(void **state)
{
	struct capture kept[3];
	const int64_t lat[] = { 900, 700, 800 };

	(void)state;
	kept_of(kept, lat, 3);
	assert_int_equal(spikes_slot(kept, 3, 3, 0, 100000), -1);
	assert_int_equal(spikes_slot(kept, 3, 3, 1, 701), 1);
	assert_int_equal(spikes_slot(kept, 3, 3, 1, 100000), 1);
	assert_int_equal(spikes_slot(kept, 3, 3, 1, 700), -1);	/* equal: not worse */
	assert_int_equal(spikes_slot(kept, 3, 3, 1, 600), -1);
}

/* of equal least ones, the earliest taken goes */
static void test_slot_equal_least(void **state)
{
	struct capture kept[4];
	const int64_t lat[] = { 900, 500, 800, 500 };

	(void)state;
	kept_of(kept, lat, 4);
	assert_int_equal(spikes_slot(kept, 4, 4, 1, 501), 1);
}

/* the trap's threshold: the configured one until full, then the least kept (never below it) */
static void test_floor(void **state)
{
	struct capture kept[3];
	const int64_t lat[] = { 900, 700, 800 };

	(void)state;
	kept_of(kept, lat, 3);
	assert_int_equal(spikes_floor(kept, 2, 3, 1, 500), 500);
	assert_int_equal(spikes_floor(kept, 3, 3, 0, 500), 500);
	assert_int_equal(spikes_floor(kept, 3, 3, 1, 500), 700);
	assert_int_equal(spikes_floor(kept, 3, 3, 1, 750), 750);
	assert_int_equal(spikes_floor(kept, 0, 0, 1, 500), 500);
}

static int by_latency_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y) - (x > y);
}

enum { STREAM = 5000, KEPT = 4, THRESHOLD = 1000 };

/*
 * A cell's wake-ups as the trap and the poll see them: only one above the
 * trap's threshold is taken, and goes where spikes_slot says (the least
 * out, the rest in their order, as cell_trace.c's keep_worse does). The
 * kept are the stream's KEPT worst above the threshold; keeping the
 * first, its first KEPT above it.
 */
static void run_stream(const int64_t *lat, int keep_worst, int64_t *kept_lat, int *nkept,
		       int *taken)
{
	struct capture kept[KEPT];
	int64_t trap = THRESHOLD;
	int n = 0;

	*taken = 0;
	for (int i = 0; i < STREAM; i++) {
		if (lat[i] <= trap)
			continue;
		int slot = spikes_slot(kept, n, KEPT, keep_worst, lat[i]);

		if (slot < 0)
			continue;
		(*taken)++;
		if (slot == n) {
			n++;
		} else {
			memmove(&kept[slot], &kept[slot + 1], (size_t)(n - 1 - slot) * sizeof(*kept));
			slot = n - 1;
		}
		kept[slot].latency_ns = lat[i];
		trap = spikes_floor(kept, n, KEPT, keep_worst, THRESHOLD);
	}
	for (int i = 0; i < n; i++)
		kept_lat[i] = kept[i].latency_ns;
	*nkept = n;
}

static void test_stream(void **state)
{
	int64_t all[STREAM], above[STREAM], kept[KEPT];
	int nabove = 0, nkept, taken;

	(void)state;
	srand(7);
	for (int i = 0; i < STREAM; i++) {
		all[i] = rand() % 50000;
		if (all[i] > THRESHOLD)
			above[nabove++] = all[i];
	}
	run_stream(all, 0, kept, &nkept, &taken);
	assert_int_equal(nkept, KEPT);
	assert_memory_equal(kept, above, sizeof(kept));	/* the first four, in order */
	run_stream(all, 1, kept, &nkept, &taken);
	assert_int_equal(nkept, KEPT);
	qsort(above, (size_t)nabove, sizeof(*above), by_latency_desc);
	qsort(kept, KEPT, sizeof(*kept), by_latency_desc);
	assert_memory_equal(kept, above, sizeof(kept));	/* the four worst */
	/* a raised threshold takes few: records of a random stream, not every spike */
	assert_true(taken < 60);
	assert_true(taken > KEPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_room),
		cmocka_unit_test(test_slot_full),
		cmocka_unit_test(test_slot_equal_least),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
