/*
 * compare's statistics (harness/report/stats.c) against values computed
 * independently in Python (the Mann-Whitney law by enumerating every
 * ordering, Poisson tails by summing the mass; the script is quoted in
 * docs/report.md), pasted here as fixtures.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

#define CLOSE(x, want, rel) \
	assert_true(fabs((double)(x) - (double)(want)) <= (rel) * fabs((double)(want)) + 1e-12)

static void test_median(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	CLOSE(stats_median(odd, 3), 3, 0);
	CLOSE(stats_median(even, 4), 2.5, 0);
	assert_true(isnan(stats_median(odd, 0)));
}

/* P(U <= u), exact, against itertools' enumeration of the orderings. */
static void test_mw_law(void **state)
{
	(void)state;
	CLOSE(stats_mw_cdf(4, 5, 3), 0.05555555555555555, 1e-12);
	CLOSE(stats_mw_cdf(5, 5, 2), 0.015873015873015872, 1e-12);
	CLOSE(stats_mw_cdf(6, 7, 10), 0.06876456876456877, 1e-12);
	CLOSE(stats_mw_cdf(5, 5, 25), 1.0, 1e-12);
	CLOSE(stats_mw_cdf(5, 5, -1), 0.0, 0);
	/* large samples: the normal approximation, centred on n m / 2 */
	CLOSE(stats_mw_cdf(200, 200, 19999), 0.5, 1e-3);
}

/* The Moses interval of a ratio: a side about 2.6x the other, 6 runs each. */
static void test_ratio_ci(void **state)
{
	const double a[] = { 812, 955, 1210, 790, 1034, 880 };
	const double b[] = { 301, 415, 288, 360, 512, 330 };
	struct ratio_ci r;

	(void)state;
	assert_int_equal(stats_ratio_ci(a, 6, b, 6, 0.95, &r), 0);
	assert_true(r.ok);
	CLOSE(r.lo, 1.9566265060240973, 1e-12);
	CLOSE(r.hi, 3.3611111111111094, 1e-12);
	CLOSE(r.conf, 0.9588744588744589, 1e-12);
	CLOSE(r.ratio, (880.0 + 955.0) / 2 / ((330.0 + 360.0) / 2), 1e-12);
	/* the other way round: the reciprocal interval */
	assert_int_equal(stats_ratio_ci(b, 6, a, 6, 0.95, &r), 0);
	CLOSE(r.lo, 0.29752066115702497, 1e-12);
	CLOSE(r.hi, 0.5110837438423643, 1e-12);
}

/* Two samples of the same thing: the interval holds 1. */
static void test_ratio_no_difference(void **state)
{
	const double c[] = { 100, 130, 90, 115, 104 }, d[] = { 105, 95, 120, 99, 111 };
	struct ratio_ci r;

	(void)state;
	assert_int_equal(stats_ratio_ci(c, 5, d, 5, 0.95, &r), 0);
	assert_true(r.ok);
	CLOSE(r.lo, 0.8333333333333338, 1e-12);
	CLOSE(r.hi, 1.2380952380952381, 1e-12);
	CLOSE(r.conf, 0.9682539682539683, 1e-12);
	assert_true(r.lo < 1 && r.hi > 1);
}

/* Too few runs: < 3 each, or no exact 95 % interval (3 and 3). */
static void test_ratio_too_few(void **state)
{
	const double x[] = { 1, 2, 3 }, y[] = { 1.5, 2.5, 3.5 };
	const double p[] = { 10, 20, 30 }, q[] = { 1, 2, 3, 4, 5 };
	const double bad[] = { 1, 0, 3 };
	struct ratio_ci r;

	(void)state;
	assert_int_equal(stats_ratio_ci(x, 3, y, 3, 0.95, &r), 0);
	assert_false(r.ok);
	CLOSE(r.ratio, 2.0 / 2.5, 1e-12);
	assert_int_equal(stats_ratio_ci(x, 2, y, 3, 0.95, &r), 0);
	assert_false(r.ok);
	assert_int_equal(stats_ratio_ci(p, 3, q, 5, 0.95, &r), 0);
	assert_true(r.ok);
	CLOSE(r.lo, 2.0, 1e-12);
	CLOSE(r.hi, 30.0, 1e-12);
	CLOSE(r.conf, 0.9642857142857143, 1e-12);
	assert_int_equal(stats_ratio_ci(bad, 3, y, 3, 0.95, &r), -EINVAL);
}

/* Exact Poisson intervals at 0, 1, 10 and 1000 counts. */
static void test_poisson(void **state)
{
	static const struct {
		long long k;
		double lo, hi;
	} cases[] = {
		{ 0, 0.0, 3.688879454113935 },
		{ 1, 0.025317807984289842, 5.571643390938897 },
		{ 10, 4.795388696132415, 18.39035604201778 },
		{ 1000, 938.9730184077257, 1063.9521360163012 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double lo, hi;

		stats_poisson_ci(cases[i].k, 0.95, &lo, &hi);
		CLOSE(lo, cases[i].lo, 1e-9);
		CLOSE(hi, cases[i].hi, 1e-9);
	}
}

/* Student's t: the tables' 97.5 % points, and the Cauchy (df 1) in closed form */
static void test_t(void **state)
{
	(void)state;
	CLOSE(stats_t_cdf(1, 1), 0.75, 1e-9);
	CLOSE(stats_t_cdf(0, 7), 0.5, 1e-12);
	CLOSE(stats_t_cdf(-2, 3), 1 - stats_t_cdf(2, 3), 1e-12);
	CLOSE(stats_t_quantile(0.975, 1), 12.706205, 1e-6);
	CLOSE(stats_t_quantile(0.975, 2), 4.302653, 1e-6);
	CLOSE(stats_t_quantile(0.975, 3), 3.182446, 1e-6);
	CLOSE(stats_t_quantile(0.975, 4), 2.776445, 1e-6);
	CLOSE(stats_t_quantile(0.975, 10), 2.228139, 1e-6);
	CLOSE(stats_t_quantile(0.975, 30), 2.042272, 1e-6);
	CLOSE(stats_t_quantile(0.025, 30), -2.042272, 1e-6);
}

/* The campaigns' interval: geometric means and the pooled t of their logs (Python, by hand) */
static void test_ratio_t(void **state)
{
	const double a[] = { 200, 300, 250 }, b[] = { 100, 120 };
	struct ratio_ci r;

	(void)state;
	assert_int_equal(stats_ratio_t_ci(a, 3, b, 2, 0.95, &r), 0);
	assert_true(r.ok);
	CLOSE(r.ratio, 2.251333307837342, 1e-9);
	CLOSE(r.lo, 1.327780859696448, 1e-6);
	CLOSE(r.hi, 3.817272726868927, 1e-6);
	assert_int_equal(stats_ratio_t_ci(b, 2, a, 3, 0.95, &r), 0);
	CLOSE(r.lo, 1 / 3.817272726868927, 1e-6);
	/* 1 and 2: one degree of freedom, below STATS_T_MIN_DF: the ratio, no interval */
	assert_int_equal(stats_ratio_t_ci(a, 1, b, 2, 0.95, &r), 0);
	assert_false(r.ok);
	CLOSE(r.ratio, 200 / sqrt(12000.0), 1e-9);
	/* every campaign the same: an interval of width 0 is still one */
	const double c[] = { 5, 5 }, d[] = { 10, 10 };
	assert_int_equal(stats_ratio_t_ci(c, 2, d, 2, 0.95, &r), 0);
	assert_true(r.ok && r.lo == r.hi);
	CLOSE(r.ratio, 0.5, 1e-12);
	const double z[] = { 0, 5 };
	assert_int_equal(stats_ratio_t_ci(z, 2, d, 2, 0.95, &r), -EINVAL);
}

/*
 * The median's interval: order statistics k and n+1-k, k the largest with
 * 1 - 2 P(B(n, 1/2) < k) >= conf; the range below 6 values at 95 %.
 */
static void test_median_ci(void **state)
{
	const double v[] = { 9, 1, 7, 3, 5, 10, 2, 8, 4, 6 };
	double lo, hi;

	(void)state;
	/* 5 values: only the range, at 1 - 2/32 */
	CLOSE(stats_median_ci(v, 5, 0.95, &lo, &hi), 0.9375, 1e-12);
	assert_true(lo == 1 && hi == 9);
	/* 10: x(2) and x(9), 1 - 2 * 11/1024; x(3) would give only 0.891 */
	CLOSE(stats_median_ci(v, 10, 0.95, &lo, &hi), 1 - 22.0 / 1024, 1e-12);
	assert_true(lo == 2 && hi == 9);
	/* at 80 % the same ten give x(3) and x(8) (0.891; x(4) 0.656 is too little) */
	CLOSE(stats_median_ci(v, 10, 0.80, &lo, &hi), 1 - 112.0 / 1024, 1e-12);
	assert_true(lo == 3 && hi == 8);
	/* 6: x(1) and x(6) at 1 - 2/64 */
	CLOSE(stats_median_ci(v, 6, 0.95, &lo, &hi), 1 - 2.0 / 64, 1e-12);
	assert_true(lo == 1 && hi == 10);
	/* one value: itself, covering nothing; two: 50 % */
	CLOSE(stats_median_ci(v, 1, 0.95, &lo, &hi), 0, 1e-12);
	assert_true(lo == 9 && hi == 9);
	CLOSE(stats_median_ci(v, 2, 0.95, &lo, &hi), 0.5, 1e-12);
	/* none: no interval */
	assert_true(isnan(stats_median_ci(v, 0, 0.95, &lo, &hi)) && isnan(lo) && isnan(hi));
	/* many: the binomial sums stay exact enough (n = 200: k = 86, 96.0 %) */
	double many[200];

	for (int i = 0; i < 200; i++)
		many[i] = i + 1;
	double cover = stats_median_ci(many, 200, 0.95, &lo, &hi);

	assert_true(cover >= 0.95 && cover < 0.97);
	assert_true(lo == 86 && hi == 115);
}

/* chi-square's upper tail: the 95 % quantiles at 1 and 4 df, exp(-x/2) at 2 df, and Q(5, 15) summed by its series in Python */
static void test_chi2(void **state)
{
	(void)state;
	CLOSE(stats_chi2_sf(3.841458820694124, 1), 0.05, 1e-9);
	CLOSE(stats_chi2_sf(9.487729036781154, 4), 0.05, 1e-9);
	CLOSE(stats_chi2_sf(2, 2), exp(-1.0), 1e-12);
	CLOSE(stats_chi2_sf(30, 10), 0.0008566412107747778, 1e-6);
	CLOSE(stats_chi2_sf(0, 3), 1, 0);
	assert_true(isnan(stats_chi2_sf(1, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_mw_law),
		cmocka_unit_test(test_ratio_ci),
		cmocka_unit_test(test_ratio_no_difference),
		cmocka_unit_test(test_ratio_too_few),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_t),
		cmocka_unit_test(test_ratio_t),
		cmocka_unit_test(test_median_ci),
		cmocka_unit_test(test_chi2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
