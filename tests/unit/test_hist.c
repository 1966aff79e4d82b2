/* Histogram: bucket edges, the error bound, percentiles, merge, overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "hist.h"

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* A value lands in the bucket whose [lo, hi) holds it. */
static void test_bucket_edges(void **state)
{
	static const struct {
		int64_t v;
		int64_t lo, hi;
	} cases[] = {
		{ 0, 0, 1 },
		{ 1, 1, 2 },
		{ 511, 511, 512 },		/* last exact bucket */
		{ 512, 512, 514 },		/* first octave: width 2 */
		{ 513, 512, 514 },
		{ 1023, 1022, 1024 },
		{ 1024, 1024, 1028 },		/* width 4 */
		{ 1000000, 999424, 1001472 },	/* 1 ms: width 2048 */
		{ HIST_RANGE_NS - 1, HIST_RANGE_NS - (1LL << 33), HIST_RANGE_NS },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t lo, hi;
		int idx = hist_index(cases[i].v);

		assert_in_range(idx, 0, HIST_BUCKETS - 1);
		hist_bucket_range(idx, &lo, &hi);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
	}
	assert_int_equal(hist_index(HIST_RANGE_NS - 1), HIST_BUCKETS - 1);
}

/* Buckets tile [0, range) with no gap or overlap, in order. */
static void test_buckets_contiguous(void **state)
{
	int64_t prev_hi = 0;

	(void)state;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		int64_t lo, hi;

		hist_bucket_range(i, &lo, &hi);
		assert_int_equal(lo, prev_hi);
		assert_true(hi > lo);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi - 1), i);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, HIST_RANGE_NS);
	/* at least an hour */
	assert_true(HIST_RANGE_NS >= 3600LL * 1000000000LL);
}

/* Every bucket is at most 0.5 % of its lower edge wide (above exact). */
static void test_error_bound(void **state)
{
	(void)state;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		int64_t lo, hi;

		hist_bucket_range(i, &lo, &hi);
		if (hi - lo == 1)
			continue;	/* exact */
		assert_true((double)(hi - lo) / (double)lo <= 0.005);
	}
	/* a sweep of values: the reported percentile is within 0.5 % */
	for (int64_t v = 1; v < HIST_RANGE_NS / 2; v = v * 3 + 7) {
		struct hist *h = new_hist();
		int64_t lo, hi;

		hist_add(h, v);
		hist_add(h, v + 1000000);	/* so the clamp to max is no help */
		hist_bucket_range(hist_index(v), &lo, &hi);
		int64_t p = hist_percentile(h, 50);
		assert_true(p >= v);
		assert_true((double)(p - v) <= 0.005 * (double)v);
		free(h);
	}
}

static void test_percentiles(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	assert_int_equal(hist_percentile(h, 50), 0);	/* empty */
	for (int64_t v = 1; v <= 100; v++)
		hist_add(h, v);		/* exact range: percentiles exact */
	static const struct {
		double p;
		int64_t want;
	} cases[] = {
		{ 1, 1 }, { 50, 50 }, { 90, 90 }, { 99, 99 }, { 99.99, 100 },
		{ 100, 100 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(hist_percentile(h, cases[i].p), cases[i].want);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	assert_true(hist_mean(h) > 50.49 && hist_mean(h) < 50.51);
	/* stddev of 1..100 (sample) = 29.011 */
	assert_true(hist_stddev(h) > 29.0 && hist_stddev(h) < 29.02);
	free(h);
}

/* A percentile never exceeds max nor goes below min. */
static void test_percentile_clamped(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	hist_add(h, 1000001);	/* bucket [999424+..., ...) wider than 1 */
	assert_int_equal(hist_percentile(h, 50), 1000001);
	assert_int_equal(hist_percentile(h, 100), 1000001);
	free(h);
}

static void test_overflow(void **state)
{
	struct hist *h = new_hist();

	(void)state;
	hist_add(h, 10);
	hist_add(h, HIST_RANGE_NS);		/* first value out of range */
	hist_add(h, HIST_RANGE_NS * 2);
	hist_add(h, -5);			/* clock went backwards */
	assert_int_equal(h->count, 4);
	assert_int_equal(h->overflow, 2);
	assert_int_equal(h->underflow, 1);
	assert_int_equal(h->max, HIST_RANGE_NS * 2);
	assert_int_equal(h->min, -5);
	/* the top percentile is in the overflow: the exact max */
	assert_int_equal(hist_percentile(h, 100), HIST_RANGE_NS * 2);
	assert_int_equal(hist_percentile(h, 25), -5);
	assert_int_equal(hist_percentile(h, 50), 10);
	/* mean and stddev are of in-range samples only */
	assert_true(hist_mean(h) == 10.0);
	free(h);
}

static void test_merge(void **state)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();

	(void)state;
	for (int64_t v = 0; v < 5000; v += 7) {
		hist_add(a, v);
		hist_add(all, v);
	}
	for (int64_t v = 3; v < 2000000; v += 991) {
		hist_add(b, v);
		hist_add(all, v);
	}
	hist_add(b, HIST_RANGE_NS + 1);
	hist_add(all, HIST_RANGE_NS + 1);
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->overflow, 1);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_int_equal(a->sum, all->sum);
	assert_memory_equal(a->bucket, all->bucket, sizeof(a->bucket));
	for (double p = 10; p <= 100; p += 10)
		assert_int_equal(hist_percentile(a, p), hist_percentile(all, p));
	/* merging an empty one changes nothing, and into an empty one copies */
	struct hist *e = new_hist();
	hist_merge(a, e);
	assert_int_equal(a->count, all->count);
	hist_merge(e, all);
	assert_int_equal(e->min, all->min);
	assert_int_equal(e->max, all->max);
	free(a);
	free(b);
	free(all);
	free(e);
}

/* A histogram rebuilt from its hist.csv rows has the same percentiles. */
static void test_rebuild_from_buckets(void **state)
{
	struct hist *h = new_hist(), *r = new_hist();

	(void)state;
	for (int64_t v = 100; v < 3000000; v = v * 5 / 4 + 13)
		hist_add(h, v);
	hist_add(h, HIST_RANGE_NS + 5);
	for (int b = 0; b < HIST_BUCKETS; b++) {
		int64_t lo, hi;

		hist_bucket_range(b, &lo, &hi);
		hist_add_bucket(r, lo, hi, h->bucket[b]);
	}
	hist_add_bucket(r, HIST_RANGE_NS, h->max + 1, h->overflow);
	assert_int_equal(r->count, h->count);
	assert_int_equal(r->overflow, 1);
	assert_int_equal(r->max, h->max);
	assert_memory_equal(r->bucket, h->bucket, sizeof(h->bucket));
	r->min = h->min;	/* exact, from summary.csv */
	for (double p = 10; p < 100; p += 9.9)
		assert_int_equal(hist_percentile(r, p), hist_percentile(h, p));
	assert_true(hist_mean(r) / hist_mean(h) > 0.998);
	assert_true(hist_mean(r) / hist_mean(h) < 1.002);
	free(h);
	free(r);
}

/* Samples above a threshold: whole buckets above it, the overflow, never a straddling bucket. */
static void test_count_above(void **state)
{
	struct hist *h = new_hist();
	static const struct {
		int64_t over;
		uint64_t want;
	} cases[] = {
		{ 99, 4 }, { 100, 3 }, { 999, 3 }, { 1000, 2 }, { 1001, 2 },
		{ 100000, 2 }, { 200000, 1 }, { 1LL << 43, 0 },
	};

	(void)state;
	hist_add(h, 100);
	hist_add(h, 1000);
	hist_add(h, 200001);	/* its bucket's lower edge is 200000 or below */
	hist_add(h, HIST_RANGE_NS + 5);	/* the overflow */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = hist_count_above(h, cases[i].over);

		if (got != cases[i].want)
			fail_msg("over %lld: %llu, want %llu", (long long)cases[i].over,
				 (unsigned long long)got, (unsigned long long)cases[i].want);
	}
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_above),
		cmocka_unit_test(test_bucket_edges),
		cmocka_unit_test(test_buckets_contiguous),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_percentile_clamped),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_rebuild_from_buckets),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
