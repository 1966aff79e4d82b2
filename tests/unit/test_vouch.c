/*
 * model/vouch.c: what a figure can mean. A table of a cell's facts and a
 * metric against the reasons the figure cannot be judged; the words and
 * keywords, and their parse back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"
#include "vouch.h"

#define IO_RESP (METRIC_BIT(METRIC_IO) | METRIC_BIT(METRIC_RESPONSE))

static void test_table(void **state)
{
	static const struct {
		struct vouch_facts f;
		int metric;
		unsigned want;
	} rows[] = {
		/* the host: every figure */
		{ { CELL_OK, 0, IO_RESP, 0, 0, 0 }, METRIC_RESPONSE, 0 },
		/* a threshold broken is a finding, judged */
		{ { CELL_FAIL, 0, 0, 0, 0, 0 }, METRIC_WAKEUP, 0 },
		/* errored, interrupted, skipped, partial: never */
		{ { CELL_ERROR, 0, 0, 0, 0, 0 }, METRIC_WAKEUP, VR_BIT(VR_STATUS) },
		{ { CELL_INTERRUPTED, 0, 0, 0, 0, 0 }, METRIC_WAKEUP, VR_BIT(VR_STATUS) },
		{ { CELL_SKIPPED, 0, 0, 0, 0, 0 }, METRIC_WAKEUP, VR_BIT(VR_STATUS) },
		{ { CELL_PARTIAL, 0, 0, 0, 0, 0 }, METRIC_WAKEUP, VR_BIT(VR_STATUS) },
		/* the instruction clock: a device's wait only where the metric holds one */
		{ { CELL_OK, EMU_ICOUNT, IO_RESP, 0, 0, 0 }, METRIC_RESPONSE, VR_BIT(VR_DEVICE) },
		{ { CELL_OK, EMU_ICOUNT, IO_RESP, 0, 0, 0 }, METRIC_IO, VR_BIT(VR_DEVICE) },
		{ { CELL_OK, EMU_ICOUNT, IO_RESP, 0, 0, 0 }, METRIC_WAKEUP, 0 },
		{ { CELL_OK, EMU_ICOUNT, 0, 0, 0, 0 }, METRIC_RESPONSE, 0 },
		/* a chain: the step that waits, not the one that computes */
		{ { CELL_OK, EMU_ICOUNT, IO_RESP | METRIC_BIT(METRIC_IO_STEP1), 0, 0, 0 },
		  METRIC_IO_STEP1, VR_BIT(VR_DEVICE) },
		{ { CELL_OK, EMU_ICOUNT, IO_RESP | METRIC_BIT(METRIC_IO_STEP1), 0, 0, 0 },
		  METRIC_IO_STEP2, 0 },
		/* TCG on the host's clock: every figure the emulator's */
		{ { CELL_OK, EMU_TCG, 0, 0, 0, 0 }, METRIC_WAKEUP, VR_BIT(VR_EMULATED) },
		{ { CELL_OK, EMU_TCG, IO_RESP, 0, 0, 0 }, METRIC_RESPONSE, VR_BIT(VR_EMULATED) },
		/* missed: the wake-up by its own, the rest by every period missed */
		{ { CELL_OK, 0, 0, 60, 0.5, 0 }, METRIC_WAKEUP, 0 },
		{ { CELL_OK, 0, 0, 60, 0.5, 0 }, METRIC_RESPONSE, VR_BIT(VR_MISSED) },
		{ { CELL_OK, 0, 0, 60, 12, 0 }, METRIC_WAKEUP, VR_BIT(VR_MISSED) },
		{ { CELL_OK, 0, 0, 60, 12, 0 }, METRIC_TIMERLAT_THREAD, VR_BIT(VR_MISSED) },
		{ { CELL_OK, 0, 0, 10, 10, 0 }, METRIC_WAKEUP, 0 },	/* at the bound: kept */
		/* the corrected wake-up holds its missed periods: nothing left out */
		{ { CELL_OK, 0, 0, 60, 60, 0 }, METRIC_WAKEUP_CORRECTED, 0 },
		/* together */
		{ { CELL_ERROR, EMU_TCG, 0, 97, 97, 0 }, METRIC_WAKEUP,
		  VR_BIT(VR_STATUS) | VR_BIT(VR_EMULATED) | VR_BIT(VR_MISSED) },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned got = vouch_metric(&rows[i].f, rows[i].metric);

		if (got != rows[i].want)
			fail_msg("row %zu: %s: 0x%x, want 0x%x", i, metric_name(rows[i].metric), got,
				 rows[i].want);
	}
}

static void test_words(void **state)
{
	struct vouch_facts f = { CELL_OK, EMU_ICOUNT, IO_RESP, 75, 0, 0 };
	char buf[600];
	unsigned back;

	(void)state;
	vouch_keywords(VR_BIT(VR_EMULATED) | VR_BIT(VR_MISSED), buf, sizeof(buf));
	assert_string_equal(buf, "emulated+missed");
	assert_int_equal(vouch_keywords_parse(buf, &back), 0);
	assert_int_equal(back, VR_BIT(VR_EMULATED) | VR_BIT(VR_MISSED));
	assert_int_equal(vouch_keywords_parse("emulated+nothing", &back), -1);
	vouch_keywords(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* the first reason's words, with its figure */
	vouch_words(VR_BIT(VR_DEVICE) | VR_BIT(VR_MISSED), &f, METRIC_RESPONSE, buf, sizeof(buf));
	assert_non_null(strstr(buf, "on the instruction clock a wait for an emulated device is not the device's time"));
	assert_non_null(strstr(buf, "--metric wakeup"));
	vouch_words(VR_BIT(VR_MISSED), &f, METRIC_RESPONSE, buf, sizeof(buf));
	assert_string_equal(buf, "it missed 75 % of its periods (more than 10 %): its figures are of the periods that ran (--deadline counts the missed ones as late; [campaign] corrected = on records them)");
	vouch_trace_words(VT_SPIKES | VT_WATCH_BPF, buf, sizeof(buf));
	assert_string_equal(buf, "spikes tracing and the BPF watch");
	vouch_trace_words(0, buf, sizeof(buf));
	assert_string_equal(buf, "untraced");
	/* the metrics a cell.ini names, both ways */
	vouch_metrics_text(IO_RESP | METRIC_BIT(METRIC_IO_STEP2), buf, sizeof(buf));
	assert_string_equal(buf, "io,response,io_step2");
	assert_int_equal(vouch_metrics_parse(buf, &back), 0);
	assert_int_equal(back, IO_RESP | METRIC_BIT(METRIC_IO_STEP2));
	assert_int_equal(vouch_metrics_parse("io,bogus", &back), -1);
	/* missed periods are the run's own but after a device's wait on the instruction clock, or under TCG */
	assert_true(vouch_misses_count(&(struct vouch_facts){ CELL_OK, 0, IO_RESP, 5, 0, 0 }));
	assert_true(vouch_misses_count(&(struct vouch_facts){ CELL_OK, EMU_ICOUNT, 0, 5, 0, 0 }));
	assert_false(vouch_misses_count(&(struct vouch_facts){ CELL_OK, EMU_ICOUNT, IO_RESP, 5, 0, 0 }));
	assert_false(vouch_misses_count(&(struct vouch_facts){ CELL_OK, EMU_TCG, 0, 5, 0, 0 }));
	assert_true(vouch_wake_missed_pct(5, 1000) == 0.5);
	assert_true(vouch_wake_missed_pct(5, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
