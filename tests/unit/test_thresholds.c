/*
 * measure/thresholds.c: a cell's judgement. Missed periods above
 * [thresholds] missed fail it (the default, 1 %, too), from MISSED_MIN of
 * them; on an emulated CPU only a limit the config gives is applied.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "thresholds.h"

/* cfg from --set lines only (no file): the defaults and these */
static struct config *load(const char *const *sets, int n)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[2048];

	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, n, err, sizeof(err)))
		fail_msg("%s", err);
	return cfg;
}

/* Judged: a one-thread cell of `kept` samples and `missed` periods missed. */
static enum cell_status judged(const struct config *cfg, uint64_t kept, uint64_t missed,
			       int emulated, char *reason, size_t len)
{
	struct worker *w = calloc(1, sizeof(*w));
	struct cell_result res = { .status = CELL_OK, .nthreads = 1, .workers = w };

	assert_non_null(w);
	for (int m = 0; m < METRIC_COUNT; m++)
		hist_init(&w->hist[m]);
	w->metrics = METRICS_CORE;
	for (uint64_t i = 0; i < kept; i++)
		hist_add(&w->hist[METRIC_WAKEUP], 20000);
	w->cycles = kept;
	w->overruns = missed;
	cell_check_thresholds(cfg, &res, emulated);
	snprintf(reason, len, "%s", res.reason);
	free(w);
	return res.status;
}

static void test_missed(void **state)
{
	const char *given[] = { "thresholds.missed=1%" };
	const char *off[] = { "thresholds.missed=off" };
	struct config *dflt = load(NULL, 0), *set = load(given, 1), *none = load(off, 1);
	char why[256];

	(void)state;
	/* the default: 2 % missed fails, 0.5 % passes */
	assert_int_equal(judged(dflt, 980, 20, 0, why, sizeof(why)), CELL_FAIL);
	assert_string_equal(why, "thread 0 missed 2.0 % of its periods (20 of 1000) > missed = 1%");
	assert_int_equal(judged(dflt, 1990, 10, 0, why, sizeof(why)), CELL_OK);
	/* fewer than MISSED_MIN: said elsewhere, not judged (a short cell's one stall) */
	assert_int_equal(judged(dflt, 100, MISSED_MIN - 1, 0, why, sizeof(why)), CELL_OK);
	/* emulated: the default is not applied; one written in the config is */
	assert_int_equal(judged(dflt, 320, 680, 1, why, sizeof(why)), CELL_OK);
	assert_int_equal(judged(set, 320, 680, 1, why, sizeof(why)), CELL_FAIL);
	/* off: never */
	assert_int_equal(judged(none, 320, 680, 0, why, sizeof(why)), CELL_OK);
	/* a thread with no sample is an error, not a pass */
	assert_int_equal(judged(none, 0, 0, 0, why, sizeof(why)), CELL_ERROR);
	config_free(dflt);
	config_free(set);
	config_free(none);
	free(dflt);
	free(set);
	free(none);
}

/*
 * A watched program's threads (type = watch): no wake-up of latlab's, so
 * [thresholds] max judges the kernel's timer to running, or where a
 * thread was not woken by a timer its scheduling delay; a thread with
 * either is measured, one with none is an error.
 */
static void test_watched(void **state)
{
	const char *max[] = { "thresholds.max=100us" };
	struct config *cfg = load(max, 1);
	struct worker *w = calloc(2, sizeof(*w));
	struct cell_result res = { .status = CELL_OK, .nthreads = 2, .workers = w };

	(void)state;
	assert_non_null(w);
	for (int t = 0; t < 2; t++)
		for (int m = 0; m < METRIC_COUNT; m++)
			hist_init(&w[t].hist[m]);
	w[0].metrics = METRIC_BIT(METRIC_WATCH_TIMER) | METRIC_BIT(METRIC_WATCH_SCHED);
	hist_add(&w[0].hist[METRIC_WATCH_TIMER], 60000);
	hist_add(&w[0].hist[METRIC_WATCH_SCHED], 10000);
	w[1].metrics = METRIC_BIT(METRIC_WATCH_SCHED);	/* woken by another thread */
	hist_add(&w[1].hist[METRIC_WATCH_SCHED], 20000);
	cell_check_thresholds(cfg, &res, 0);
	assert_int_equal(res.status, CELL_OK);
	hist_add(&w[1].hist[METRIC_WATCH_SCHED], 250000);
	cell_check_thresholds(cfg, &res, 0);
	assert_int_equal(res.status, CELL_FAIL);
	assert_string_equal(res.reason, "thread 1 watch_sched max = 250000 ns > 100000 ns");
	res.status = CELL_OK;
	hist_add(&w[0].hist[METRIC_WATCH_TIMER], 150000);
	cell_check_thresholds(cfg, &res, 0);
	assert_string_equal(res.reason, "thread 0 watch_timer max = 150000 ns > 100000 ns");
	/* a watched thread with nothing at all measured nothing */
	res.status = CELL_OK;
	memset(&w[1], 0, sizeof(w[1]));
	w[1].metrics = METRIC_BIT(METRIC_WATCH_SCHED);
	cell_check_thresholds(cfg, &res, 0);
	assert_int_equal(res.status, CELL_ERROR);
	free(w);
	config_free(cfg);
	free(cfg);
}

/* the one order of a wake-up: latlab's, else the kernel's timer, else its waking */
static void test_wakeup_order(void **state)
{
	const unsigned timer = METRIC_BIT(METRIC_WATCH_TIMER), sched = METRIC_BIT(METRIC_WATCH_SCHED);

	(void)state;
	assert_int_equal(metric_wakeup_of(METRICS_CORE | timer | sched), METRIC_WAKEUP);	/* [trace] watch = on */
	assert_int_equal(metric_wakeup_of(timer | sched), METRIC_WATCH_TIMER);
	assert_int_equal(metric_wakeup_of(sched), METRIC_WATCH_SCHED);
	assert_int_equal(metric_wakeup_of(METRIC_BIT(METRIC_IO)), METRIC_WAKEUP);
	assert_int_equal(metric_wakeup_of(0), METRIC_WAKEUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_watched),
		cmocka_unit_test(test_wakeup_order),
	};

	return cmocka_run_group_tests_name("thresholds", tests, NULL, NULL);
}
