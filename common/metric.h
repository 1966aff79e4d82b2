/*
 * The metrics a measured thread records, each a histogram, a row per
 * thread in summary.csv and hist.csv, and its maxima in series.csv.
 *
 * Every workload records the first METRIC_CORE (ns):
 *   wakeup   = woke - intended        (what cyclictest reports)
 *   io       = io_done - woke          (the workload's run())
 *   response = io_done - intended      (what the application sees)
 * The rest belong to the workloads that declare them (workload_ops
 * .metrics): a cell has their rows only when its workload records them.
 *   noise_max   the largest gap between two clock reads of a busy window
 *   noise_total the time stolen from it (every gap above the threshold)
 * and one a cell records when [campaign] corrected = on:
 *   wakeup_corrected  the wake-up with every missed period counted at the
 *               latency it would have had (done - its intended wake-up),
 *               as wrk's stats_correct undoes coordinated omission
 * and two a cell records when [trace] timerlat = on, the kernel's own
 * timerlat tracer on the thread's CPU beside it (harness/trace/timerlat.h):
 *   timerlat_irq     its timer's expiry to the timer's handler
 *   timerlat_thread  its timer's expiry to its thread running: the
 *               kernel's measure of what wakeup is
 * and two the kernel keeps per thread in its own histograms
 * (harness/trace/watch.h): beside latlab's threads when [trace] watch =
 * on, and the only ones of a watched program's threads (type = watch)
 *   watch_timer  the expiry its hrtimer asked for to the thread running
 *   watch_sched  its waking to its running (the scheduling delay)
 * and a chain's (workloads/chain.h), one a step:
 *   io_stepN     its Nth step's run(), start to end (io is all of them)
 */
#ifndef LATLAB_METRIC_H
#define LATLAB_METRIC_H

enum metric {
	METRIC_WAKEUP, METRIC_IO, METRIC_RESPONSE,
	METRIC_NOISE_MAX, METRIC_NOISE_TOTAL,
	METRIC_WAKEUP_CORRECTED,
	METRIC_TIMERLAT_IRQ, METRIC_TIMERLAT_THREAD,
	METRIC_WATCH_TIMER, METRIC_WATCH_SCHED,
	METRIC_IO_STEP1, METRIC_IO_STEP2, METRIC_IO_STEP3, METRIC_IO_STEP4,
	METRIC_COUNT
};
#define METRIC_CORE 3		/* wakeup, io, response: every cell's */
#define METRIC_BIT(m) (1u << (m))
#define METRICS_CORE (METRIC_BIT(METRIC_WAKEUP) | METRIC_BIT(METRIC_IO) | \
		      METRIC_BIT(METRIC_RESPONSE))
#define METRIC_STEPS 4		/* io_step1 .. io_step4 */
#define METRIC_NAMES "wakeup|io|response|noise_max|noise_total|wakeup_corrected|timerlat_irq|timerlat_thread|watch_timer|watch_sched|io_step1|io_step2|io_step3|io_step4"

/* A metric's name in every file ("wakeup" ...), "?" if out of range. */
const char *metric_name(int metric);

/* The metric called `name`, or -1. */
int metric_parse(const char *name);

/*
 * The wake-up of threads that recorded the metrics `recorded` (a mask of
 * METRIC_BITs): latlab's own where it woke them; for a watched program's
 * threads (type = watch), which latlab did not wake, the kernel's timer
 * to running, or its waking to running where none woke from a timer of
 * its own. METRIC_WAKEUP when none was recorded. The one order of the
 * console's table and of [thresholds]' wake-up limits.
 */
int metric_wakeup_of(unsigned recorded);

#endif
