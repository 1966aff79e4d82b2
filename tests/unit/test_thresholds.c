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
#include "vouch.h"

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

/* cfg's first cell (its first workload and kernel), at 1 ms */
static const struct cell *first_cell(void)
{
	static struct cell c;

	memset(&c, 0, sizeof(c));
	c.interval = 1000000;
	return &c;
}

/*
 * Judged: a one-thread cell of `kept` samples (20 µs wake-ups, `io_ns`
 * of I/O each) and `missed` periods missed.
 */
static enum cell_status judged_io(const struct config *cfg, uint64_t kept, uint64_t missed,
				  int64_t io_ns, int emulated, char *reason, size_t len)
{
	struct worker *w = calloc(1, sizeof(*w));
	struct cell_result res = { .status = CELL_OK, .nthreads = 1, .workers = w };

	assert_non_null(w);
	for (int m = 0; m < METRIC_COUNT; m++)
		hist_init(&w->hist[m]);
	w->metrics = METRICS_CORE;
	for (uint64_t i = 0; i < kept; i++) {
		hist_add(&w->hist[METRIC_WAKEUP], 20000);
		hist_add(&w->hist[METRIC_IO], io_ns);
		hist_add(&w->hist[METRIC_RESPONSE], 20000 + io_ns);
	}
	w->cycles = kept;
	w->overruns = missed;
	cell_check_thresholds(cfg, first_cell(), &res, emulated);
	snprintf(reason, len, "%s", res.reason);
	free(w);
	return res.status;
}

static enum cell_status judged(const struct config *cfg, uint64_t kept, uint64_t missed,
			       int emulated, char *reason, size_t len)
{
	return judged_io(cfg, kept, missed, 1000, emulated, reason, len);
}

static void release(struct config *cfg)
{
	config_free(cfg);
	free(cfg);
}

/*
 * A missed period never ran: later than any limit of latlab's own figures.
 * max fails on one; a percentile where its rank, counting the missed
 * periods above every sample, falls on one.
 */
static void test_missed_are_late(void **state)
{
	const char *max[] = { "thresholds.missed=off", "thresholds.max=400us" };
	const char *p99[] = { "thresholds.missed=off", "thresholds.p99=400us" };
	struct config *m = load(max, 2), *p = load(p99, 2);
	char why[512];

	(void)state;
	assert_int_equal(judged(m, 1000, 0, 0, why, sizeof(why)), CELL_OK);
	assert_int_equal(judged(m, 1000, 5, 0, why, sizeof(why)), CELL_FAIL);
	assert_string_equal(why, "thread 0 wakeup max = a missed period (5 of 1005 never ran: later than any limit below the period) > 400000 ns");
	/* p99 of 1,005 periods is the 995th: a kept one; of 1,020 the 1,010th: missed */
	assert_int_equal(judged(p, 1000, 5, 0, why, sizeof(why)), CELL_OK);
	assert_int_equal(judged(p, 1000, 20, 0, why, sizeof(why)), CELL_FAIL);
	assert_string_equal(why, "thread 0 wakeup p99 = a missed period (20 of 1020 never ran: later than any limit below the period) > 400000 ns");
	release(m);
	/* a limit past the period (1 ms): how late a missed one was is not known */
	const char *late[] = { "thresholds.missed=off", "thresholds.max=2ms" };
	m = load(late, 2);
	assert_int_equal(judged(m, 1000, 5, 0, why, sizeof(why)), CELL_OK);
	release(m);
	release(p);
}

/* Every limit broken is said, "; " between, not only the first */
static void test_every_limit(void **state)
{
	const char *sets[] = { "thresholds.missed=1%", "thresholds.max=10us", "thresholds.p50=15us",
			       "thresholds.errors=0" };
	struct config *cfg = load(sets, 4);
	char why[512];

	(void)state;
	assert_int_equal(judged(cfg, 980, 20, 0, why, sizeof(why)), CELL_FAIL);
	assert_string_equal(why, "thread 0 missed 2.0 % of its periods (20 of 1000) > missed = 1%; "
			    "thread 0 wakeup p50 = 20000 ns > 15000 ns; "
			    "thread 0 wakeup max = a missed period (20 of 1000 never ran: later than any limit below the period) > 10000 ns");
	release(cfg);
}

/*
 * A limit on a figure the run cannot vouch for is not judged, and said:
 * a file-write that syncs on a disk, on the instruction clock (its
 * response holds the device's wait); any figure under TCG's host clock.
 * Here, the same limits judge.
 */
static void test_unjudged(void **state)
{
	const char *sets[] = { "thresholds.missed=off", "thresholds.metric=response",
			       "thresholds.max=100us", "matrix.workload=w",
			       "workload.w.type=file-write", "workload.w.sync=fdatasync",
			       "workload.w.path=/var/tmp/latlab-thr.dat" };
	struct config *cfg = load(sets, 7);
	char why[512];

	(void)state;
	assert_int_equal(judged_io(cfg, 1000, 0, 500000, 0, why, sizeof(why)), CELL_FAIL);
	assert_string_equal(why, "thread 0 response max = 520000 ns > 100000 ns");
	assert_int_equal(judged_io(cfg, 1000, 0, 500000, EMU_ICOUNT, why, sizeof(why)), CELL_OK);
	assert_string_equal(why, "not judged: response (device-wait), a figure the run cannot vouch for");
	assert_int_equal(judged_io(cfg, 1000, 0, 500000, EMU_TCG, why, sizeof(why)), CELL_OK);
	assert_string_equal(why, "not judged: response (emulated), a figure the run cannot vouch for");
	release(cfg);
	/*
	 * the wake-up beside the syncing write is judged; the periods its
	 * waits made it miss on the instruction clock are the clock's, not
	 * counted; here they are
	 */
	const char *wake[] = { "thresholds.missed=off", "thresholds.max=100us", "matrix.workload=w",
			       "workload.w.type=file-write", "workload.w.sync=fdatasync",
			       "workload.w.path=/var/tmp/latlab-thr.dat" };
	cfg = load(wake, 6);
	assert_int_equal(judged_io(cfg, 1000, 50, 500000, EMU_ICOUNT, why, sizeof(why)), CELL_OK);
	assert_int_equal(judged_io(cfg, 1000, 50, 500000, 0, why, sizeof(why)), CELL_FAIL);
	release(cfg);
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
	cell_check_thresholds(cfg, first_cell(), &res, 0);
	assert_int_equal(res.status, CELL_OK);
	hist_add(&w[1].hist[METRIC_WATCH_SCHED], 250000);
	cell_check_thresholds(cfg, first_cell(), &res, 0);
	assert_int_equal(res.status, CELL_FAIL);
	assert_string_equal(res.reason, "thread 1 watch_sched max = 250000 ns > 100000 ns");
	res.status = CELL_OK;
	hist_add(&w[0].hist[METRIC_WATCH_TIMER], 150000);
	cell_check_thresholds(cfg, first_cell(), &res, 0);
	assert_string_equal(res.reason, "thread 0 watch_timer max = 150000 ns > 100000 ns; "
			    "thread 1 watch_sched max = 250000 ns > 100000 ns");
	/* a watched thread with nothing at all measured nothing */
	res.status = CELL_OK;
	memset(&w[1], 0, sizeof(w[1]));
	w[1].metrics = METRIC_BIT(METRIC_WATCH_SCHED);
	cell_check_thresholds(cfg, first_cell(), &res, 0);
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
		cmocka_unit_test(test_missed_are_late),
		cmocka_unit_test(test_every_limit),
		cmocka_unit_test(test_unjudged),
		cmocka_unit_test(test_watched),
		cmocka_unit_test(test_wakeup_order),
	};

	return cmocka_run_group_tests_name("thresholds", tests, NULL, NULL);
}
