/*
 * report/verdict.c: exceedance rates and their intervals (Poisson, widened
 * by the runs' over-dispersion), and the verdict on two sides' maxima.
 * Synthetic runs: one-sample histograms of known values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compare_model.h"
#include "verdict.h"

#define RUNS 5

static struct hist hists[2][RUNS];
static struct tcell cells[2][RUNS];
static const struct tcell *runs[2][RUNS];

/*
 * Side s's run i: `periods` wake-ups at 1 ms, `late` of them at 5 ms and
 * the rest at 20 µs, its maximum `max` ns.
 */
static void run(int s, int i, uint64_t periods, uint64_t late, int64_t max)
{
	struct tcell *c = &cells[s][i];
	struct hist *h = &hists[s][i];

	memset(c, 0, sizeof(*c));
	hist_init(h);
	for (uint64_t k = 0; k < periods; k++)
		hist_add(h, k < late ? 5000000 : 20000);
	if (max)
		hist_add(h, max);
	c->wakeup = c->metric[METRIC_WAKEUP] = h;
	c->interval = 1000000;
	c->nthreads = 1;
	c->measured = 1;
	runs[s][i] = c;
}

/* Equal runs: dispersion 1, the exact Poisson interval of the total count. */
static void test_exceed_poisson(void **state)
{
	struct side_runs sr = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP };
	struct exceed e;
	double lo, hi;

	(void)state;
	for (int i = 0; i < RUNS; i++)
		run(0, i, 36000, 4, 0);	/* 36 s of 1 ms periods, 4 late each */
	verdict_exceed(&sr, 1000000, &e);
	assert_int_equal(e.count, 20);
	assert_true(e.hours > 0.0499 && e.hours < 0.0501);
	assert_true(e.dispersion == 1);
	stats_poisson_ci(20, VERDICT_CONF, &lo, &hi);
	assert_true(e.rate > 399.9 && e.rate < 400.1);	/* 20 in 0.05 h */
	assert_true(e.lo > lo / 0.05 - 1e-6 && e.lo < lo / 0.05 + 1e-6);
	assert_true(e.hi > hi / 0.05 - 1e-6 && e.hi < hi / 0.05 + 1e-6);
}

/* The same 20, all in one run: far more spread than Poisson; the interval widens, the rate stays. */
static void test_exceed_overdispersed(void **state)
{
	struct side_runs sr = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP };
	struct exceed even, bursty;

	(void)state;
	for (int i = 0; i < RUNS; i++)
		run(0, i, 36000, 4, 0);
	verdict_exceed(&sr, 1000000, &even);
	for (int i = 0; i < RUNS; i++)
		run(0, i, 36000, i == 2 ? 20 : 0, 0);
	verdict_exceed(&sr, 1000000, &bursty);
	assert_int_equal(bursty.count, 20);
	/* counts 0 0 20 0 0 about a mean of 4: chi2 = (4 x 16 + 256) / 4 = 80, over 4 df */
	assert_true(bursty.dispersion > 19.99 && bursty.dispersion < 20.01);
	assert_true(bursty.rate > 399.9 && bursty.rate < 400.1);
	assert_true(bursty.lo < even.lo / 2 && bursty.hi > even.hi * 1.5);
	assert_true(bursty.lo <= bursty.rate && bursty.rate <= bursty.hi);
	/* one run: no spread to see, Poisson */
	sr.n = 1;
	verdict_exceed(&sr, 1000000, &bursty);
	assert_true(bursty.dispersion == 1);
}

/* Hours count the missed periods too: they were measured time. */
static void test_exceed_hours_with_overruns(void **state)
{
	struct side_runs sr = { .run = runs[0], .n = 1, .metric = METRIC_WAKEUP };
	struct exceed e;

	(void)state;
	run(0, 0, 3000, 0, 0);
	cells[0][0].overruns = 600;
	verdict_exceed(&sr, 1000000, &e);
	assert_true(e.hours > 3600 / 3.6e6 - 1e-9 && e.hours < 3600 / 3.6e6 + 1e-9);
}

/* Maxima apart: a confident verdict; the same: none. */
static void test_pair(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[256];

	(void)state;
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 100, 0, 200000 + 10000 * i);
		run(1, i, 100, 0, 2000000 + 100000 * i);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "quiet lower worst case: "));
	assert_non_null(strstr(text, "5 runs each"));
	/* in a row of two sides the line is the verdict; of three, led by its pair */
	char line[256];

	verdict_line(&v, "quiet", "hog", 2, line, sizeof(line));
	assert_string_equal(line, text);
	verdict_line(&v, "quiet", "hog", 3, line, sizeof(line));
	assert_true(strncmp(line, "quiet against hog: quiet lower worst case: ", 43) == 0);
	assert_string_equal(line + strlen("quiet against hog: "), text);
	for (int i = 0; i < RUNS; i++)
		run(1, i, 100, 0, 200000 + 10000 * (RUNS - 1 - i));
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_NO_DIFFERENCE);
}

/*
 * An equivalence margin: maxima 3 % apart in every run (an exact clock
 * calls that) are "no practical difference" within 10 %, and a call
 * within 2 % (past it); a call whose interval reaches into the margin
 * says it is not shown to exceed it; a tenfold difference is a call past
 * any margin; an interval that reaches past the margin on both sides
 * says nothing.
 */
static void test_margin(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[256];

	(void)state;
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 100, 0, 100000 + 100 * i);
		run(1, i, 100, 0, 103000 + 100 * i);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.margin == 0);
	assert_int_equal(verdict_pair(&a, &b, 0.10, &v), 0);
	assert_int_equal(v.kind, V_EQUIVALENT);
	assert_int_equal(v.kind_tail, V_EQUIVALENT);
	assert_string_equal(verdict_keyword(v.kind), "equivalent");
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_non_null(strstr(text, "no practical difference: within 10 % (stock/rt 0.9"));
	assert_non_null(strstr(text, "5 runs each)"));
	assert_null(strstr(text, "its tail"));
	assert_int_equal(verdict_pair(&a, &b, 0.02, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(verdict_past_margin(&v.max, 0.02));	/* 0.97x-0.98x, all below 1/1.02 */
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_null(strstr(text, "margin"));
	/* one run of five 50 % off: the interval still excludes 1 (a call)
	 * but reaches into the margin, which the words say (CI's idle pair
	 * on the instruction clock, stock/rt 0.97x [0.69x, 0.99x]) */
	run(1, 2, 100, 0, 150000);
	assert_int_equal(verdict_pair(&a, &b, 0.20, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.max.lo < 1 / 1.2 && v.max.hi > 1 / 1.2 && v.max.hi < 1);
	assert_false(verdict_past_margin(&v.max, 0.20));
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_non_null(strstr(text, "stock lower worst case: "));
	assert_non_null(strstr(text, "5 runs each; not shown to exceed the 20 % margin"));
	for (int i = 0; i < RUNS; i++)
		run(1, i, 100, 0, 1000000 + 1000 * i);
	assert_int_equal(verdict_pair(&a, &b, 0.10, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(verdict_past_margin(&v.max, 0.10));
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_null(strstr(text, "margin"));
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_false(verdict_past_margin(&v.max, 0));
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 100, 0, 200000 + 10000 * i);
		run(1, i, 100, 0, 200000 + 10000 * (RUNS - 1 - i));
	}
	assert_int_equal(verdict_pair(&a, &b, 0.10, &v), 0);
	assert_int_equal(v.kind, V_NO_DIFFERENCE);
	assert_true(v.max.lo < 1 / 1.1 && v.max.hi > 1.1);
}

/*
 * With no --margin (VERDICT_MARGIN_AUTO) a host's pair has none and an
 * instruction-clock pair VERDICT_ICOUNT_MARGIN, said as the clock's;
 * --margin 0 is none there too. Runs that shared a boot are said to
 * have, where the sides are a guest's.
 */
static void test_icount_margin(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[1024];

	(void)state;
	for (int i = 0; i < RUNS; i++) {	/* 3 % apart in every run */
		run(0, i, 100, 0, 100000 + 100 * i);
		run(1, i, 100, 0, 103000 + 100 * i);
	}
	assert_int_equal(verdict_pair(&a, &b, VERDICT_MARGIN_AUTO, &v), 0);
	assert_int_equal(v.design, VD_RUNS);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.margin == 0 && !v.margin_default);
	for (int i = 0; i < RUNS; i++) {
		cells[0][i].emulated = cells[1][i].emulated = EMU_ICOUNT;
		snprintf(cells[0][i].boot_id, sizeof(cells[0][i].boot_id), "a");
		snprintf(cells[1][i].boot_id, sizeof(cells[1][i].boot_id), "b%d", i);
	}
	assert_int_equal(verdict_pair(&a, &b, VERDICT_MARGIN_AUTO, &v), 0);
	assert_int_equal(v.design, VD_ICOUNT);
	assert_int_equal(v.kind, V_EQUIVALENT);
	assert_true(v.margin == VERDICT_ICOUNT_MARGIN && v.margin_default);
	assert_int_equal(v.boots_a, 1);
	assert_int_equal(v.boots_b, RUNS);
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_non_null(strstr(text, "no practical difference: within 10 %, the instruction clock's margin (stock/rt 0.9"));
	assert_non_null(strstr(text, "though stock's 5 ran in 1 boot and rt's 5 in 5"));
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.margin == 0 && !v.margin_default);
	/* a run without its boot: the boots unknown, nothing said of them */
	cells[0][2].boot_id[0] = '\0';
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.boots_a, 0);
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_null(strstr(text, "boot"));
	for (int i = 0; i < RUNS; i++) {
		cells[0][i].emulated = cells[1][i].emulated = 0;
		cells[0][i].boot_id[0] = cells[1][i].boot_id[0] = '\0';
	}
}

/*
 * Either statistic may call, so each interval is 97.5 % (Bonferroni): 5
 * and 5 runs apart are called with an interval of at least that; 4 and 4
 * are not, however far apart (their exact rank interval reaches 97.1 %),
 * and the line says what would give one.
 */
static void test_each_at_97_5(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[256];

	(void)state;
	assert_true(VERDICT_CONF_EACH > 0.974 && VERDICT_CONF_EACH < 0.976);
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 100, 0, 200000 + 10000 * i);
		run(1, i, 100, 0, 2000000 + 100000 * i);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.max.conf >= VERDICT_CONF_EACH);
	a.n = b.n = 4;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_TOO_FEW);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "4 runs each: too few to call (quiet/hog "));
	assert_non_null(strstr(text, "no exact 97.5 % interval from 4 and 4 runs: 4 and 5 runs give one)"));
	b.n = 5;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
}

/*
 * One rule for every statistic's words (issue 45): a tail called inside
 * the margin says so, as a call on the maxima does — the line of the
 * issue read "within 20 %" and then a tail difference inside those 20 %
 * with no note. Bounds keep their side of 1 and of the margin when
 * printed; the too-few words name the run counts that give an interval.
 */
static void test_words(void **state)
{
	struct pair_verdict v;
	char text[512], s[64];

	(void)state;
	memset(&v, 0, sizeof(v));
	v.na = v.nb = 8;
	v.margin = 0.2;
	v.design = VD_RUNS;
	v.apart = -1;
	v.max = (struct ratio_ci){ 1, 0.95, 0.85, 1.03, 0.98 };
	v.kind = V_EQUIVALENT;
	v.tail_pct = 99.5;
	v.tail = (struct ratio_ci){ 1, 1 / 1.14, 1 / 1.23, 1 / 1.08, 0.98 };
	v.kind_tail = V_LOWER;
	verdict_text(&v, "none", "cpu", text, sizeof(text));
	assert_string_equal(text, "no practical difference: within 20 % (none/cpu 0.85x-1.03x, 8 runs each); its tail (p99.5, 5 samples above it in a run): none lower, 1.14x [1.08x, 1.23x], not shown to exceed the 20 % margin");
	v.tail = (struct ratio_ci){ 1, 0.5, 0.4, 0.6, 0.98 };	/* past it: no note */
	verdict_text(&v, "none", "cpu", text, sizeof(text));
	assert_non_null(strstr(text, "none lower, 2.00x [1.67x, 2.50x]"));
	assert_null(strstr(text, "not shown"));
	/* a call on the maxima with a bound just above 1 */
	v.margin = 0;
	v.max = (struct ratio_ci){ 1, 1.09, 1.004, 1.49, 0.98 };
	v.kind = V_HIGHER;
	v.kind_tail = V_TOO_FEW;
	verdict_text(&v, "a", "b", text, sizeof(text));
	assert_string_equal(text, "b lower worst case: 1.09x [1.004x, 1.49x], 8 runs each");
	verdict_ratio_str(0.996, 0, s, sizeof(s));
	assert_string_equal(s, "0.996");
	verdict_ratio_str(1.0, 0, s, sizeof(s));
	assert_string_equal(s, "1.00");
	verdict_ratio_str(0.99999999, 0, s, sizeof(s));	/* six digits at most */
	assert_string_equal(s, "1.000000");
	verdict_ratio_str(1.2003, 0.2, s, sizeof(s));	/* just past a 20 % margin */
	assert_string_equal(s, "1.2003");
	verdict_ratio_str(1.2003, 0, s, sizeof(s));
	assert_string_equal(s, "1.20");
	verdict_ratio_str(0.8334, 0.2, s, sizeof(s));	/* 1/1.2 = 0.83333 */
	assert_string_equal(s, "0.8334");
	verdict_ratio_str(1.49, 0.2, s, sizeof(s));
	assert_string_equal(s, "1.49");
	/* which counts give a 97.5 % interval: 3 and 6 do, 3 and 5 do not */
	verdict_runs_needed(3, 5, s, sizeof(s));
	assert_string_equal(s, "3 and 6 runs give one, or 4 and 5");
	verdict_runs_needed(5, 3, s, sizeof(s));
	assert_string_equal(s, "3 and 6 runs give one, or 4 and 5");
	verdict_runs_needed(4, 4, s, sizeof(s));
	assert_string_equal(s, "4 and 5 runs give one");
	verdict_runs_needed(1, 1, s, sizeof(s));
	assert_string_equal(s, "3 and 6 runs give one, or 4 and 5");
	v.na = 3;
	v.nb = 5;
	v.max.ok = 0;
	v.kind = V_TOO_FEW;
	verdict_text(&v, "a", "b", text, sizeof(text));
	assert_string_equal(text, "3 and 5 runs: too few to call (a/b 1.09x; no exact 97.5 % interval from 3 and 5 runs: 3 and 6 runs give one, or 4 and 5)");
}

/*
 * Runs of different lengths (issue 45): 1 s against 60 s of the same
 * thread, whose longer runs reach higher maxima by chance alone. Their
 * maxima are not compared, nor gated against a baseline; nor is the
 * tail, whose percentile of a short run sits lower by chance: it is shown,
 * and the words say why.
 */
static void test_unequal(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[512];
	int within;

	(void)state;
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 1000, 0, 100000 + 1000 * i);
		run(1, i, 60000, 0, 300000 + 1000 * i);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_true(v.max.ok && v.max.hi < 1);	/* what was called before */
	assert_int_equal(v.kind, V_UNEQUAL);
	assert_string_equal(verdict_keyword(v.kind), "unequal-runs");
	assert_true(v.periods_a > 1000 && v.periods_a < 1002);
	assert_true(v.periods_b > 60000 && v.periods_b < 60002);
	assert_int_equal(cmp_gate(&v, GATE_MAX, &within)->ok, 0);
	verdict_text(&v, "short", "long", text, sizeof(text));
	assert_non_null(strstr(text, "runs of different lengths, maxima not compared (short 1001 periods a run, long 60001: the longer a run, the higher its maximum by chance alone; short/long 0.34x, 5 runs each); its tail (p99.5, 5 samples above it in the shortest run) not called either, a short run's percentile sitting lower by chance alone (short/long 1.00x-1.00x)"));
	assert_int_equal(v.kind_tail, V_UNEQUAL);
	assert_int_equal(cmp_gate(&v, GATE_TAIL, &within)->ok, 0);
	/* 10 % apart is the same length */
	for (int i = 0; i < RUNS; i++)
		run(1, i, 1090, 0, 300000 + 1000 * i);
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_int_equal(cmp_gate(&v, GATE_MAX, &within)->ok, 1);
}

/*
 * One quiet run with one 5 ms stall against a load that delays the thread
 * 50 times a run: no verdict on maxima, a confident one on the tail.
 */
static void test_tail_outlier(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[512];

	(void)state;
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 1000, 0, i == 4 ? 5000000 : 0);	/* 20 us, and one 5 ms stall */
		run(1, i, 1000, 50, 0);			/* 50 of 1000 at 5 ms: a real load */
		hist_init(&hists[1][i]);
		for (int k = 0; k < 1000; k++)
			hist_add(&hists[1][i], k < 50 ? 3000000 + 1000 * i : 20000);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_NO_DIFFERENCE);
	assert_true(v.tail_pct > 99.49 && v.tail_pct < 99.51);	/* 5 of 1000 above it */
	assert_int_equal(v.kind_tail, V_LOWER);
	assert_int_equal(v.apart, -1);	/* no cell.ini: when they ran is unknown */
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "no clear difference (quiet/hog "));
	assert_int_equal(v.design, VD_RUNS);	/* one campaign, time unknown: its runs */
	assert_non_null(strstr(text, "its tail"));
	for (int i = 0; i < RUNS; i++) {	/* interleaved rounds */
		cells[0][i].started = (1000 + 10 * i) * 1000000000LL;
		cells[1][i].started = (1005 + 10 * i) * 1000000000LL;
		cells[0][i].elapsed_ns = cells[1][i].elapsed_ns = 2000000000;
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.apart, 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "; its tail (p99.5, 5 samples above it in a run): quiet lower, "));
	/* apart in time in one campaign (blocked): one campaign a side, no call across time */
	for (int i = 0; i < RUNS; i++) {
		cells[1][i].started = (5000 + 10 * i) * 1000000000LL;
		run(0, i, 1000, 0, 0);	/* no stall now: the runs would call it */
		cells[0][i].started = (1000 + 10 * i) * 1000000000LL;
		cells[0][i].elapsed_ns = 2000000000;
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.apart, 1);
	assert_int_equal(v.apart_ns, (5000 - 1042) * 1000000000LL);
	assert_int_equal(v.design, VD_CAMPAIGNS);
	assert_int_equal(v.ca, 1);
	assert_int_equal(v.cb, 1);
	assert_int_equal(v.kind, V_TOO_FEW);
	assert_int_equal(v.max_runs.ok, 1);	/* what a baseline with one campaign judges */
	assert_true(v.max_runs.hi < 1);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "ran apart, one campaign each (5 runs each): too few campaigns to call across time (quiet/hog "));
	/* three campaigns against two: the campaigns' medians, between campaigns */
	static const int ka[RUNS] = { 0, 0, 1, 1, 2 }, kb[RUNS] = { 3, 3, 4, 4, 4 };
	a.camp = ka;
	b.camp = kb;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.design, VD_CAMPAIGNS);
	assert_int_equal(v.ca, 3);
	assert_int_equal(v.cb, 2);
	assert_int_equal(v.kind, V_LOWER);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "3 and 2 campaigns (5 runs each), between campaigns"));
	/* the same campaigns holding both sides, interleaved: the runs again */
	b.camp = ka;
	for (int i = 0; i < RUNS; i++)
		cells[1][i].started = (1001 + 10 * i) * 1000000000LL;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.design, VD_RUNS);
	/* one campaign on an instruction-counted clock, blocked: the runs */
	for (int i = 0; i < RUNS; i++) {
		cells[1][i].started = (5000 + 10 * i) * 1000000000LL;
		cells[0][i].emulated = cells[1][i].emulated = EMU_ICOUNT;
	}
	a.camp = b.camp = NULL;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.apart, 1);
	assert_int_equal(v.design, VD_ICOUNT);
	assert_int_equal(v.kind, V_LOWER);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "; apart in time, on an instruction-counted clock the host's moment does not reach"));
	/* a run whose I/O went through an emulated device: the host reaches it there */
	cells[1][3].devices = TCELL_DEV_CARDS;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.devices, TCELL_DEV_CARDS);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "does not reach"));
	assert_non_null(strstr(text, "; apart in time, on an instruction-counted clock the host's moment reaches through the guest's cards alone: qemu's I/O thread on the host paces what it delivers"));
	cells[0][0].devices = TCELL_DEV_DISK;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "reaches through the guest's disk and cards alone: qemu's I/O thread on the host paces what each delivers"));
	cells[0][0].devices = cells[1][3].devices = 0;
	/* figures of two latlabs: said, naming each side's; one latlab, or a run that does not say: nothing */
	assert_null(strstr(text, "measured by different latlabs"));
	for (int i = 0; i < RUNS; i++) {
		snprintf(cells[0][i].measured_by, sizeof(cells[0][i].measured_by), "0.9 (git aaaaaaa)");
		snprintf(cells[1][i].measured_by, sizeof(cells[1][i].measured_by), "%s",
			 i == 2 ? "0.9 (git bbbbbbb)" : "0.9 (git aaaaaaa)");
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "; measured by different latlabs (quiet: 0.9 (git aaaaaaa); hog: 0.9 (git bbbbbbb)): a difference may be latlab's, not the kernels'"));
	snprintf(cells[0][4].measured_by, sizeof(cells[0][4].measured_by), "0.9 (git bbbbbbb)");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "measured by different latlabs"));	/* each side has both ... */
	/* ... pooled within each side: said */
	assert_non_null(strstr(text, "; each side's runs came from different latlabs (0.9 (git aaaaaaa); 0.9 (git bbbbbbb)), pooled as one side"));
	/* each side of the same three latlabs, its first two another pair: each side's said */
	snprintf(cells[0][2].measured_by, sizeof(cells[0][2].measured_by), "0.9 (git bbbbbbb)");
	snprintf(cells[0][4].measured_by, sizeof(cells[0][4].measured_by), "0.9 (git ccccccc)");
	snprintf(cells[1][1].measured_by, sizeof(cells[1][1].measured_by), "0.9 (git ccccccc)");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "measured by different latlabs"));
	assert_non_null(strstr(text, "; each side's runs came from different latlabs (quiet: 0.9 (git aaaaaaa) and 0.9 (git bbbbbbb); hog: 0.9 (git aaaaaaa) and 0.9 (git ccccccc)), each pooled as one side"));
	snprintf(cells[0][2].measured_by, sizeof(cells[0][2].measured_by), "0.9 (git aaaaaaa)");
	snprintf(cells[1][1].measured_by, sizeof(cells[1][1].measured_by), "0.9 (git aaaaaaa)");
	cells[0][4].measured_by[0] = '\0';
	snprintf(cells[0][1].measured_by, sizeof(cells[0][1].measured_by), "0.8");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "measured by different latlabs"));	/* a run that does not say */
	assert_non_null(strstr(text, "; hog's runs came from different latlabs (0.9 (git aaaaaaa); 0.9 (git bbbbbbb)), pooled as one side"));
	cells[1][2].measured_by[0] = '\0';
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "different latlabs"));	/* each side's runs of one latlab, or not said */
	/* one load, other settings: said; the same settings, or two loads (an axis of loads): nothing */
	for (int i = 0; i < RUNS; i++) {
		cells[0][i].measured_by[0] = cells[1][i].measured_by[0] = '\0';
		snprintf(cells[0][i].load, sizeof(cells[0][i].load), "softirq");
		snprintf(cells[1][i].load, sizeof(cells[1][i].load), "softirq");
		snprintf(cells[0][i].load_settings, sizeof(cells[0][i].load_settings),
			 "type = softirq, connections = 1024");
		snprintf(cells[1][i].load_settings, sizeof(cells[1][i].load_settings),
			 "type = softirq, connections = 1024");
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "under the same load with other settings"));
	snprintf(cells[1][0].load_settings, sizeof(cells[1][0].load_settings),
		 "type = softirq, connections = 256");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "; under the same load with other settings (quiet: type = softirq, connections = 1024; hog: type = softirq, connections = 256): a difference may be the load's, not the kernels'"));
	assert_null(strstr(text, "ran the load with other settings"));
	/* both settings on each side: not a difference between them, but each side's pooled runs said */
	snprintf(cells[0][3].load_settings, sizeof(cells[0][3].load_settings),
		 "type = softirq, connections = 256");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "under the same load with other settings"));
	assert_non_null(strstr(text, "; each side's runs ran the load with other settings (type = softirq, connections = 1024; type = softirq, connections = 256), pooled as one side"));
	/* one side's runs under two settings beside another side's that do not all say: that side named */
	cells[0][1].load_settings[0] = '\0';
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "under the same load with other settings"));
	assert_non_null(strstr(text, "; hog's runs ran the load with other settings (type = softirq, connections = 256; type = softirq, connections = 1024), pooled as one side"));
	/* a side of one setting and a side of two differ between them: that said, not the pooling */
	snprintf(cells[0][1].load_settings, sizeof(cells[0][1].load_settings),
		 "type = softirq, connections = 1024");
	snprintf(cells[0][3].load_settings, sizeof(cells[0][3].load_settings),
		 "type = softirq, connections = 1024");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_non_null(strstr(text, "; under the same load with other settings (quiet: type = softirq, connections = 1024; hog: type = softirq, connections = 256)"));
	assert_null(strstr(text, "ran the load with other settings"));
	/* a run of each side that does not say its settings (an older tree): nothing */
	cells[0][1].load_settings[0] = cells[1][1].load_settings[0] = '\0';
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "other settings"));
	snprintf(cells[1][0].load_settings, sizeof(cells[1][0].load_settings),
		 "type = softirq, connections = 256");
	snprintf(cells[1][0].load, sizeof(cells[1][0].load), "storm");
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "quiet", "hog", text, sizeof(text));
	assert_null(strstr(text, "under the same load with other settings"));
	assert_null(strstr(text, "ran the load with other settings"));
	for (int i = 0; i < RUNS; i++) {
		cells[0][i].emulated = cells[1][i].emulated = 0;
		cells[0][i].load[0] = cells[1][i].load[0] = '\0';
		cells[0][i].load_settings[0] = cells[1][i].load_settings[0] = '\0';
	}
	/* too few samples for a tail */
	for (int i = 0; i < RUNS; i++) {
		run(0, i, 50, 0, 0);
		run(1, i, 50, 5, 0);
	}
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_true(v.tail_pct == 0);
	assert_int_equal(v.kind_tail, V_TOO_FEW);
}

/*
 * The hypervisor's share of the runs (interference.csv's steal): per
 * side and both together; a verdict of no difference where it reached
 * VERDICT_STEAL_NOTE says its stalls can hide one, a call does not, and
 * a tree that does not say its steal gives -1, not 0.
 */
static void test_steal_note(void **state)
{
	struct side_runs a = { .run = runs[0], .n = RUNS, .metric = METRIC_WAKEUP }, b = { .run = runs[1], .n = RUNS, .metric = METRIC_WAKEUP };
	struct pair_verdict v;
	char text[512];

	(void)state;
	for (int i = 0; i < RUNS; i++) {	/* 1 s each, maxima interleaved: no difference */
		run(0, i, 1000, 0, 200000 + 20000 * i);
		run(1, i, 1000, 0, 210000 + 20000 * (RUNS - 1 - i));
		for (int s = 0; s < 2; s++)
			cells[s][i].intf_cpus = cells[s][i].steal_cpus = 1;
	}
	cells[0][2].steal_ms = 30;	/* 30 ms of 10 s: 0.3 % of both, 0.6 % of a's */
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_NO_DIFFERENCE);
	assert_true(fabs(v.steal - 0.003) < 1e-5);
	assert_true(fabs(v.steal_a - 0.006) < 1e-5);
	assert_true(v.steal_b == 0);
	verdict_text(&v, "q1", "q2", text, sizeof(text));
	assert_non_null(strstr(text, "no clear difference (q1/q2 "));
	assert_non_null(strstr(text, "; the hypervisor took 0.3 % of the measured CPUs' time during these runs, and its stalls can hide a difference"));
	cells[0][2].steal_ms = 20;	/* 0.2 %: under the note's share */
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	verdict_text(&v, "q1", "q2", text, sizeof(text));
	assert_null(strstr(text, "hypervisor"));
	/* a tree before the rows of 0: a run without one beside a run with one had none stolen */
	for (int i = 0; i < RUNS; i++)
		cells[0][i].steal_cpus = cells[1][i].steal_cpus = 0;
	cells[0][2].steal_cpus = 1;
	cells[0][2].steal_ms = 30;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_true(fabs(v.steal - 0.003) < 1e-5);
	assert_true(v.steal_b == -1);	/* b's runs have no row: unknown, not 0 */
	/* no run says: unknown, and nothing said */
	cells[0][2].steal_cpus = 0;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_true(v.steal == -1 && v.steal_a == -1 && v.steal_b == -1);
	verdict_text(&v, "q1", "q2", text, sizeof(text));
	assert_null(strstr(text, "hypervisor"));
	/* a run without interference.csv counts for nothing either way */
	cells[0][2].steal_cpus = 1;
	cells[0][0].intf_cpus = 0;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_true(fabs(v.steal_a - 0.0075) < 1e-5);	/* 30 ms of 4 s */
	/* a call: the stalls did not hide it, nothing to say */
	for (int i = 0; i < RUNS; i++)
		run(1, i, 1000, 0, 2000000 + 100000 * i);
	for (int i = 0; i < RUNS; i++)
		cells[1][i].intf_cpus = cells[1][i].steal_cpus = 1;
	cells[1][0].steal_ms = 500;
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_LOWER);
	assert_true(v.steal > VERDICT_STEAL_NOTE);
	verdict_text(&v, "q1", "hog", text, sizeof(text));
	assert_null(strstr(text, "hypervisor"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exceed_poisson),
		cmocka_unit_test(test_exceed_overdispersed),
		cmocka_unit_test(test_exceed_hours_with_overruns),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_each_at_97_5),
		cmocka_unit_test(test_margin),
		cmocka_unit_test(test_icount_margin),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_unequal),
		cmocka_unit_test(test_tail_outlier),
		cmocka_unit_test(test_steal_note),
	};

	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
