/*
 * Attribution of a late wake-up (harness/trace/attrib.c) on synthetic
 * event sequences with known answers. The measured thread is tid 100 at
 * SCHED_FIFO 90 (kernel priority 9) on CPU 1, meant to wake at t = 1000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "attrib.h"

#define TID 100
#define T0 1000
#define TIMER 0xA0

struct seq {
	struct tev ev[64];
	int n;
};

static struct tev *ev(struct seq *s, int64_t ts, int kind, int pid)
{
	struct tev *e = &s->ev[s->n++];

	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->cpu = 1;
	e->kind = kind;
	e->pid = pid;
	snprintf(e->comm, sizeof(e->comm), "%s", pid == 0 ? "<idle>" : pid == TID ? "latlab" : "task");
	return e;
}

static void sw(struct seq *s, int64_t ts, int prev, int prev_prio, const char *prev_comm,
	       int next, int next_prio, const char *next_comm)
{
	struct tev *e = ev(s, ts, TEV_SWITCH, prev);

	e->prev_pid = prev;
	e->prev_prio = prev_prio;
	e->next_pid = next;
	e->next_prio = next_prio;
	snprintf(e->prev_comm, sizeof(e->prev_comm), "%s", prev_comm);
	snprintf(e->next_comm, sizeof(e->next_comm), "%s", next_comm);
}

static void named(struct seq *s, int64_t ts, int kind, int pid, const char *name)
{
	snprintf(ev(s, ts, kind, pid)->name, sizeof(s->ev[0].name), "%s", name);
}

/* The thread arms its timer and sleeps (switch to idle) at 10..20. */
static void slept(struct seq *s)
{
	ev(s, 10, TEV_HRT_START, TID)->ptr = TIMER;
	sw(s, 20, TID, 9, "latlab", 0, 120, "swapper/1");
}

/* Its hrtimer fires at `at` (callback 10 ns, waking inside it) */
static void fires(struct seq *s, int64_t at, int pid)
{
	ev(s, at, TEV_HRT_ENTRY, pid)->ptr = TIMER;
	ev(s, at + 5, TEV_WAKING, pid)->next_pid = TID;
	ev(s, at + 10, TEV_HRT_EXIT, pid)->ptr = TIMER;
}

static int64_t item(const struct attribution *a, int part, const char *name)
{
	for (int i = 0; i < a->nitems; i++)
		if (a->item[i].part == part && strcmp(a->item[i].name, name) == 0)
			return a->item[i].ns;
	return -1;
}

static void explain(struct seq *s, int64_t woke, struct attribution *a)
{
	struct spike_query q = { .tid = TID, .prio = 9, .cpu = 1,
				 .intended = T0, .woke = woke };
	int64_t sum = 0;

	assert_int_equal(attrib_explain(s->ev, s->n, &q, a), 0);
	for (int p = 0; p < PART_COUNT; p++)
		sum += a->part_ns[p];
	if (a->complete)	/* the parts add up to the latency exactly */
		assert_int_equal(sum, woke - T0);
	else
		assert_int_equal(sum, 0);
}

static const char *culprit(const struct attribution *a)
{
	return a->culprit >= 0 ? a->item[a->culprit].name : "";
}

/* An IRQ nested in a softirq: each nanosecond counted once, innermost wins. */
static void test_irq_inside_softirq(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 500, 0, 120, "swapper/1", 50, 120, "kworker/1:2");
	named(&s, 900, TEV_SOFTIRQ_ENTRY, 50, "NET_RX");
	named(&s, 1100, TEV_IRQ_ENTRY, 50, "eth0 (irq 24)");
	ev(&s, 1300, TEV_IRQ_EXIT, 50);
	ev(&s, 1500, TEV_SOFTIRQ_EXIT, 50);
	named(&s, 1500, TEV_VECTOR_ENTRY, 50, "local_timer vector");
	fires(&s, 1600, 50);
	ev(&s, 1700, TEV_VECTOR_EXIT, 50);
	sw(&s, 1800, 50, 120, "kworker/1:2", TID, 9, "latlab");
	explain(&s, 1900, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_SOFTIRQ], 300);	/* 1000-1100, 1300-1500 */
	assert_int_equal(item(&a, PART_IRQ, "eth0 (irq 24)"), 200);
	assert_int_equal(item(&a, PART_IRQ, "local_timer vector"), 100 + 90);
	assert_int_equal(a.part_ns[PART_TIMER], 10);	/* its own callback */
	assert_int_equal(item(&a, PART_BLOCKING, "kworker/1:2:50"), 100);
	assert_int_equal(a.part_ns[PART_RETURN], 100);
	assert_string_equal(culprit(&a), "NET_RX");
	assert_int_equal(a.item[a.culprit].part, PART_SOFTIRQ);
}

/* The timer fires on time; a SCHED_OTHER task keeps the CPU: blocking. */
static void test_blocking_task(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 900, 0, 120, "swapper/1", 50, 120, "kworker/1:2");
	named(&s, 1000, TEV_VECTOR_ENTRY, 50, "local_timer vector");
	fires(&s, 1010, 50);
	ev(&s, 1030, TEV_VECTOR_EXIT, 50);
	sw(&s, 5000, 50, 120, "kworker/1:2", TID, 9, "latlab");
	explain(&s, 5050, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_BLOCKING], 3970);
	assert_int_equal(a.part_ns[PART_IRQ], 20);
	assert_int_equal(a.part_ns[PART_TIMER], 10);
	assert_int_equal(a.part_ns[PART_RETURN], 50);
	assert_string_equal(culprit(&a), "kworker/1:2:50");
	assert_int_equal(a.item[a.culprit].part, PART_BLOCKING);
	assert_int_equal(a.expiry, 1010);
	assert_int_equal(a.switch_in, 5000);
}

/* A higher-priority SCHED_FIFO task runs after the expiry: rt-thread. */
static void test_rt_thread(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, 1000, 0);
	struct tev *w = ev(&s, 1004, TEV_WAKING, 0);
	w->next_pid = 70;
	w->next_prio = 4;	/* SCHED_FIFO 95 */
	/*
	 * No switch out of idle traced (some kernels): the hog's own event
	 * shows it ran. The trace's cmdline cache still has the name of the
	 * parent it was forked from; the switch event has its own.
	 */
	struct tev *h = ev(&s, 2000, TEV_HRT_START, 70);
	h->ptr = 0xB0;
	snprintf(h->comm, sizeof(h->comm), "latlab");
	sw(&s, 4000, 70, 4, "latload", TID, 9, "latlab");
	explain(&s, 4010, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_RT], 4000 - 1010);
	assert_string_equal(culprit(&a), "latload:70 (SCHED_FIFO 95)");
	assert_int_equal(a.item[a.culprit].part, PART_RT);
}

/*
 * Switched in, then preempted before its clock read by a SCHED_FIFO 95
 * task that woke just then, and switched in again 20 us later: the
 * task's time is rt-thread, not the thread's own return (seen in CI: a
 * 20 ms rt-hog labelled "return" from the thread's first switch-in).
 */
static void test_preempted_after_switch_in(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, 1000, 0);
	sw(&s, 1100, 0, 120, "swapper/1", TID, 9, "latlab");
	struct tev *w = ev(&s, 1150, TEV_WAKING, TID);
	w->next_pid = 70;
	w->next_prio = 4;	/* SCHED_FIFO 95 */
	sw(&s, 1200, TID, 9, "latlab", 70, 4, "latload");
	sw(&s, 21200, 70, 4, "latload", TID, 9, "latlab");
	explain(&s, 21300, &a);
	assert_true(a.complete);
	assert_int_equal(a.switch_in, 1100);
	assert_int_equal(item(&a, PART_RT, "latload:70 (SCHED_FIFO 95)"), 20000);
	assert_int_equal(a.part_ns[PART_RETURN], 100 + 100);	/* 1100-1200, 21200-21300 */
	assert_string_equal(culprit(&a), "latload:70 (SCHED_FIFO 95)");
}

/* osnoise(kind, end, duration, source): the kernel's noise event, written as it ends */
static void osnoise(struct seq *s, int kind, int64_t end, int64_t duration, const char *src)
{
	struct tev *e = ev(s, end, TEV_OSNOISE, 0);

	e->os = kind;
	e->value = duration;
	snprintf(e->name, sizeof(e->name), "%s", src);
}

/*
 * The kernel's account beside latlab's (timerlat ran): the noise inside
 * the wait from the expiry (1010) to the switch-in (4000) — a hog's
 * thread noise, cut at the switch-in; the local_timer IRQ that fired
 * the timer, cut at the expiry; one before the window, not counted —
 * with the largest named. Without osnoise events the account is empty.
 */
static void test_kernel_account(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	osnoise(&s, OS_THREAD, 500, 200, "kworker/1:0:30");
	named(&s, 1000, TEV_VECTOR_ENTRY, 0, "local_timer vector");
	fires(&s, 1005, 0);
	ev(&s, 1040, TEV_VECTOR_EXIT, 0);
	osnoise(&s, OS_IRQ, 1040, 40, "local_timer:236");
	sw(&s, 1050, 0, 120, "swapper/1", 70, 4, "latload");
	sw(&s, 4000, 70, 4, "latload", TID, 9, "latlab");
	osnoise(&s, OS_THREAD, 4000, 2950, "latload:70");
	explain(&s, 4010, &a);
	assert_true(a.complete);
	assert_string_equal(culprit(&a), "latload:70 (SCHED_FIFO 95)");
	assert_true(a.os_seen);
	assert_int_equal(a.expiry, 1005);
	assert_int_equal(a.os_ns[OS_IRQ], 1040 - 1005);
	assert_int_equal(a.os_ns[OS_THREAD], 2950);
	assert_int_equal(a.os_ns[OS_SOFTIRQ], 0);
	assert_int_equal(a.os_ns[OS_NMI], 0);
	assert_string_equal(a.os_top, "thread latload:70 (2950 ns)");
	assert_string_equal(os_kind_name(OS_SOFTIRQ), "softirq");
	assert_string_equal(os_kind_name(OS_KINDS), "?");

	/* incomplete (no switch-in traced): the window runs to the wake-up */
	s.n--;
	s.n--;
	explain(&s, 4010, &a);
	assert_true(a.os_seen);
	assert_int_equal(a.os_ns[OS_THREAD], 0);
	assert_int_equal(a.os_ns[OS_IRQ], 35);

	/* no osnoise event at all: nothing said for the kernel */
	struct seq t = { .n = 0 };

	slept(&t);
	fires(&t, 1000, 0);
	sw(&t, 1020, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&t, 1030, &a);
	assert_true(a.complete);
	assert_false(a.os_seen);
	assert_string_equal(a.os_top, "");
}

/*
 * The measured thread is SCHED_OTHER (kernel priority 120, whatever the
 * priority axis said): a FIFO 50 task that runs is rt-thread; a nice -5
 * one (115) is above it on the kernel's scale but is no real-time task:
 * blocking.
 */
static void test_measured_sched_other(void **state)
{
	static const struct { int prio, part; const char *name; } cases[] = {
		{ 49, PART_RT, "hog:70 (SCHED_FIFO 50)" },
		{ 115, PART_BLOCKING, "hog:70" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seq s = { .n = 0 };
		struct attribution a;
		struct spike_query q = { .tid = TID, .prio = 120, .cpu = 1,
					 .intended = T0, .woke = 4010 };

		slept(&s);
		fires(&s, 1000, 0);
		sw(&s, 1020, 0, 120, "swapper/1", 70, cases[i].prio, "hog");
		sw(&s, 4000, 70, cases[i].prio, "hog", TID, 120, "latlab");
		assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
		assert_true(a.complete);
		assert_string_equal(culprit(&a), cases[i].name);
		assert_int_equal(a.item[a.culprit].part, cases[i].part);
	}
}

static const char *idle_names(void *arg, int state)
{
	(void)arg;
	return state == 2 ? "C2" : state == 0 ? "POLL" : NULL;
}

/* The CPU sleeps in idle state 2 past the wake time: the idle exit is named. */
static void test_idle_exit(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;
	struct spike_query q = { .tid = TID, .prio = 9, .cpu = 1, .intended = T0,
				 .woke = 1520, .idle_name = idle_names };

	(void)state;
	slept(&s);
	ev(&s, 100, TEV_IDLE, 0)->value = 2;
	ev(&s, 1400, TEV_IDLE, 0)->value = -1;
	named(&s, 1450, TEV_VECTOR_ENTRY, 0, "local_timer vector");
	fires(&s, 1460, 0);
	ev(&s, 1480, TEV_VECTOR_EXIT, 0);
	sw(&s, 1500, 0, 120, "swapper/1", TID, 9, "latlab");
	assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
	assert_true(a.complete);
	assert_int_equal(item(&a, PART_TIMER, "idle exit (state 2 C2)"), 400);
	/* 1400-1450: out of its idle state, the idle task still current */
	assert_int_equal(item(&a, PART_TIMER, "late interrupt while idle"), 50);
	assert_int_equal(a.part_ns[PART_TIMER], 460);
	assert_int_equal(a.part_ns[PART_IRQ], 20);
	assert_int_equal(a.part_ns[PART_UNEXPLAINED], 20);	/* 1480-1500: idle, runnable */
	assert_string_equal(culprit(&a), "idle exit (state 2 C2)");

	/* polling in idle, there is nothing to exit: the interrupt itself was late */
	s.ev[2].value = 0;
	assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
	assert_string_equal(culprit(&a), "late interrupt while idle polling (state 0 POLL)");
}

/* After the wake-up nothing happens for 2 ms: unexplained, not folded in. */
static void test_gap_unexplained(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, 1000, 0);
	sw(&s, 3000, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 3050, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_UNEXPLAINED], 1990);
	assert_int_equal(a.part_ns[PART_TIMER], 10);
	assert_int_equal(a.part_ns[PART_RETURN], 50);
	assert_int_equal(a.item[a.culprit].part, PART_UNEXPLAINED);
}

/* An NMI inside a hard IRQ: counted once, as the NMI. */
static void test_nmi_inside_irq(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	named(&s, 1000, TEV_IRQ_ENTRY, 0, "eth0 (irq 24)");
	ev(&s, 1150, TEV_NMI, 0)->value = 100;	/* the handler ran 1050-1150 */
	ev(&s, 1300, TEV_IRQ_EXIT, 0);
	fires(&s, 1300, 0);
	sw(&s, 1310, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 1320, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_NMI], 100);
	assert_int_equal(a.part_ns[PART_IRQ], 200);
	assert_int_equal(a.part_ns[PART_TIMER], 10);
}

/* Events lost inside the window: incomplete, nothing guessed. */
static void test_overflow_incomplete(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	ev(&s, 1200, TEV_LOST, 0);
	fires(&s, 1300, 0);
	sw(&s, 1310, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 1320, &a);
	assert_false(a.complete);
	assert_int_equal(a.culprit, -1);
	assert_int_equal(a.nitems, 0);
	assert_non_null(strstr(a.note, "lost inside the window"));
}

/* Losses before the window are fine: the walk starts after them. */
static void test_loss_before_window(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	ev(&s, 30, TEV_LOST, 0);
	ev(&s, 30, TEV_IDLE, 0)->value = 1;
	fires(&s, 1300, 0);
	sw(&s, 1310, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 1320, &a);
	assert_true(a.complete);
	assert_int_equal(item(&a, PART_TIMER, "idle exit (state 1)"), 300);
}

/* A buffer that wrapped past the wake time cannot explain it. */
static void test_buffer_begins_late(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	fires(&s, 1300, 0);
	sw(&s, 1310, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 1320, &a);
	assert_false(a.complete);
	assert_non_null(strstr(a.note, "begins 300 ns after"));
}

/* No switch to the thread traced: its own first event bounds the wait. */
static void test_untraced_switch_in(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, 1000, 0);
	ev(&s, 1500, TEV_MARKER, TID);
	explain(&s, 1600, &a);
	assert_true(a.complete);
	assert_int_equal(a.switch_in, 1500);
	assert_int_equal(a.part_ns[PART_UNEXPLAINED], 490);
	assert_int_equal(a.part_ns[PART_RETURN], 100);
	assert_non_null(strstr(a.note, "no switch traced"));
}

/*
 * The flight recorder's ring without a switch: its events' current task
 * is unknown (pid -1, flight_decode). Nothing is said of a task "-1":
 * the time before the expiry is a late interrupt, not one "while
 * task:-1 ran", and the wait after the wake-up is no task's (both were,
 * before the check).
 */
static void test_unknown_current(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	ev(&s, 10, TEV_HRT_START, -1)->ptr = TIMER;
	fires(&s, 1400, -1);
	ev(&s, 1500, TEV_MARKER, TID);
	explain(&s, 1600, &a);
	assert_int_equal(item(&a, PART_TIMER, "late interrupt"), 1400 - T0);
	/* the wake-up to the thread's first event: no task known to blame */
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event"), 90);
	for (int i = 0; i < a.nitems; i++)
		assert_null(strstr(a.item[i].name, "-1"));
}

/* No expiry and no wake-up of the thread in the trace: incomplete. */
static void test_no_wakeup(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 1310, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, 1320, &a);
	assert_false(a.complete);
	assert_non_null(strstr(a.note, "no expiry"));
}

static void test_bad_query(void **state)
{
	struct spike_query q = { .tid = TID, .intended = 10, .woke = 5 };
	struct attribution a;

	(void)state;
	assert_int_equal(attrib_explain(NULL, 0, &q, &a), -22);
	assert_string_equal(part_name(PART_RT), "rt-thread");
	assert_string_equal(part_name(PART_COUNT), "?");
}


#define US 1000	/* the tests above are in ns; these need microseconds */

/*
 * No event at all for 5.2 ms while a task ran, not even the thread's
 * timer: what was due (the timer, at +0) and did not come is a gap,
 * unexplained, whatever task was current — not "late interrupt while sh
 * ran" (a VM's stall looked exactly so).
 */
static void test_gap_while_task_ran(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 500, 0, 120, "swapper/1", 50, 120, "sh");
	fires(&s, T0 + 5228 * US, 50);
	sw(&s, T0 + 5229 * US, 50, 120, "sh", TID, 9, "latlab");
	explain(&s, T0 + 5229 * US + 50, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_TIMER], ATTR_GAP_SLACK_NS + 10);	/* on time, then the callback */
	assert_int_equal(a.part_ns[PART_UNEXPLAINED], 5228 * US - ATTR_GAP_SLACK_NS);
	assert_int_equal(a.item[a.culprit].part, PART_UNEXPLAINED);
	assert_string_equal(culprit(&a), "no event for 5228 us (sh:50 current)");
	assert_int_equal(a.ngaps, 1);
	assert_int_equal(a.gap_from, 500);
	assert_non_null(strstr(a.note, "; 1 gap (the longest 5228 us at +0 us)"));
}

/* 375 us inside a local_timer handler without an event, the thread's timer overdue: a gap too */
static void test_gap_in_handler(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	named(&s, T0 + 2 * US, TEV_VECTOR_ENTRY, 0, "local_timer vector");
	fires(&s, T0 + 377 * US, 0);
	ev(&s, T0 + 378 * US, TEV_VECTOR_EXIT, 0);
	sw(&s, T0 + 379 * US, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, T0 + 380 * US, &a);
	assert_true(a.complete);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 375 us (in local_timer vector)"),
			 377 * US - ATTR_GAP_SLACK_NS);
	assert_int_equal(a.part_ns[PART_IRQ], ATTR_GAP_SLACK_NS - 2 * US + 1 * US - 10);
}

/*
 * A sleeper's wake-up callback (hrtimer_wakeup) wakes its task at once
 * and returns: 4 ms inside one with no event is a gap, not interrupt
 * work (a VM's stall read "irq: hrtimer hrtimer_wakeup" for 4 ms beside
 * an rt-hog, shorter than the tick that would have made it a gap). The
 * thread's own callback stalled is a gap as well; a 20 us callback that
 * emits its wake-up on time is interrupt work still.
 */
static void test_gap_in_wakeup_callback(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 500, 0, 120, "swapper/1", 70, 4, "latload");	/* a FIFO 95 hog runs */
	/* the thread's own callback: entered on time, waking 200 us later */
	ev(&s, T0, TEV_HRT_ENTRY, 70)->ptr = TIMER;
	ev(&s, T0 + 200 * US, TEV_WAKING, 70)->next_pid = TID;
	ev(&s, T0 + 200 * US + 5, TEV_HRT_EXIT, 70)->ptr = TIMER;
	/* another sleeper's, brief: waking after 20 us, out 10 us later */
	named(&s, T0 + 300 * US, TEV_HRT_ENTRY, 70, "hrtimer_wakeup");
	s.ev[s.n - 1].ptr = 0xB0;
	ev(&s, T0 + 320 * US, TEV_WAKING, 70)->next_pid = 80;
	ev(&s, T0 + 330 * US, TEV_HRT_EXIT, 70)->ptr = 0xB0;
	/* and another's stalled: 4 ms before its waking */
	named(&s, T0 + 1000 * US, TEV_HRT_ENTRY, 70, "hrtimer_wakeup");
	s.ev[s.n - 1].ptr = 0xC0;
	ev(&s, T0 + 5000 * US, TEV_WAKING, 70)->next_pid = 81;
	ev(&s, T0 + 5010 * US, TEV_HRT_EXIT, 70)->ptr = 0xC0;
	sw(&s, T0 + 6000 * US, 70, 4, "latload", TID, 9, "latlab");
	explain(&s, T0 + 6000 * US + 50, &a);
	assert_true(a.complete);
	assert_int_equal(item(&a, PART_TIMER, "timer callback"), ATTR_GAP_SLACK_NS + 5);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 200 us (in timer callback)"),
			 200 * US - ATTR_GAP_SLACK_NS);
	assert_int_equal(item(&a, PART_IRQ, "hrtimer hrtimer_wakeup"),
			 30 * US + ATTR_GAP_SLACK_NS + 10 * US);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 4000 us (in hrtimer hrtimer_wakeup)"),
			 4000 * US - ATTR_GAP_SLACK_NS);
	assert_string_equal(culprit(&a), "no event for 4000 us (in hrtimer hrtimer_wakeup)");
	assert_int_equal(a.ngaps, 2);
	assert_int_equal(a.item[a.culprit].part, PART_UNEXPLAINED);
}

/* A FIFO task at the thread's own priority: rt-thread (it is not preempted), said so */
static void test_equal_priority(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, T0 + 2 * US, 0);
	sw(&s, T0 + 3 * US, 0, 120, "swapper/1", 70, 9, "peer");
	sw(&s, T0 + 40 * US, 70, 9, "peer", TID, 9, "latlab");
	explain(&s, T0 + 41 * US, &a);
	assert_true(a.complete);
	assert_int_equal(a.part_ns[PART_RT], 37 * US);
	assert_int_equal(a.part_ns[PART_BLOCKING], 0);
	assert_string_equal(culprit(&a), "peer:70 (SCHED_FIFO 90 equal: FIFO does not preempt)");
}

/*
 * A switch missing from the trace: a SCHED_OTHER task ran by the events
 * (the flight recorder names each event's task from the switches), then
 * the switch to the thread is out of an equal-priority FIFO task the
 * trace never switched in — incomplete, said, not the first task's
 * blocking (trace.bats beside a hog and hackbench, 2026-12-08: 19.9 ms of
 * an rt-hog's burst filed to "tokio-rt-worker:105").
 */
static void test_switch_missing(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, T0 - 900, 0, 120, "swapper/1", 50, 120, "peer");
	fires(&s, T0 + 2 * US, 50);
	ev(&s, T0 + 10 * US, TEV_HRT_START, 50);	/* named the believed task */
	sw(&s, T0 + 40 * US, 70, 19, "hog", TID, 19, "latlab");
	explain(&s, T0 + 41 * US, &a);
	assert_false(a.complete);
	assert_non_null(strstr(a.note, "a switch on CPU 1 is missing from the trace: peer:50 ran by its events, but the switch at +40000 ns is out of hog:70"));
	/* before the window, the same mismatch is the past's: the switch in it sets the task */
	s.n = 0;
	slept(&s);
	sw(&s, 300, 0, 120, "swapper/1", 50, 120, "peer");
	sw(&s, 600, 70, 19, "hog", 80, 120, "other");
	fires(&s, T0 + 2 * US, 80);
	sw(&s, T0 + 3 * US, 80, 120, "other", TID, 19, "latlab");
	explain(&s, T0 + 4 * US, &a);
	assert_true(a.complete);
}

/* preemptirq events show interrupts off in a task: its time, blocking, no gap */
static void test_irqs_off(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	sw(&s, 500, 0, 120, "swapper/1", 50, 120, "sh");
	ev(&s, 600, TEV_IRQS_OFF, 50);
	ev(&s, T0 + 300 * US, TEV_IRQS_ON, 50);
	fires(&s, T0 + 301 * US, 50);
	sw(&s, T0 + 302 * US, 50, 120, "sh", TID, 9, "latlab");
	explain(&s, T0 + 302 * US + 50, &a);
	assert_true(a.complete);
	assert_int_equal(a.ngaps, 0);
	assert_int_equal(a.part_ns[PART_UNEXPLAINED], 0);
	assert_int_equal(item(&a, PART_BLOCKING, "sh:50 (interrupts off)"), 300 * US);
	assert_string_equal(culprit(&a), "sh:50 (interrupts off)");
}

/*
 * After the expiry a task holds the CPU, its ticks every 1 ms, then none
 * for 2.9 ms: the tick due at +2100 us (+ the slack) and missing is a
 * gap; before it the task's time is blocking.
 */
static void test_missing_ticks(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, T0 + 10 * US, 0);
	sw(&s, T0 + 20 * US, 0, 120, "swapper/1", 50, 120, "kworker/1:2");
	named(&s, T0 + 100 * US, TEV_HRT_ENTRY, 50, "tick_nohz_handler");
	ev(&s, T0 + 101 * US, TEV_HRT_EXIT, 50);
	named(&s, T0 + 1100 * US, TEV_HRT_ENTRY, 50, "tick_nohz_handler");
	ev(&s, T0 + 1101 * US, TEV_HRT_EXIT, 50);
	sw(&s, T0 + 4000 * US, 50, 120, "kworker/1:2", TID, 9, "latlab");
	explain(&s, T0 + 4001 * US, &a);
	assert_true(a.complete);
	assert_int_equal(a.ngaps, 1);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 2899 us (kworker/1:2:50 current)"),
			 4000 * US - (2100 * US + ATTR_GAP_SLACK_NS));
	assert_int_equal(item(&a, PART_BLOCKING, "kworker/1:2:50"),
			 (2100 * US + ATTR_GAP_SLACK_NS) - 20 * US - 2 * US);
}

/*
 * A hard interrupt's handler that runs 300 us (an irq_work spinning, the
 * forensics bench's injected cause) while the thread's timer is due: on
 * a clock that counts the CPU's instructions (a guest's icount) no stall
 * can hide in it — the handler's; on the host's clock the time past the
 * slack is a gap, for a hypervisor may have stopped the CPU there.
 */
static void test_counted_clock(void **state)
{
	(void)state;
	for (int counted = 0; counted < 2; counted++) {
		struct seq s = { .n = 0 };
		struct attribution a;
		struct spike_query q = { .tid = TID, .prio = 9, .cpu = 1, .intended = T0,
					 .woke = T0 + 320 * US, .counted_clock = counted };

		slept(&s);
		sw(&s, 30, 0, 120, "swapper/1", 50, 120, "task");
		named(&s, T0 - 100, TEV_VECTOR_ENTRY, 50, "irq_work vector");
		ev(&s, T0 + 300 * US, TEV_VECTOR_EXIT, 50);
		fires(&s, T0 + 305 * US, 50);
		sw(&s, T0 + 310 * US, 50, 120, "task", TID, 9, "latlab");
		assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
		assert_true(a.complete);
		if (counted) {
			assert_int_equal(a.ngaps, 0);
			assert_int_equal(item(&a, PART_IRQ, "irq_work vector"), 300 * US);
			assert_int_equal(item(&a, PART_TIMER, "late interrupt while task:50 ran"), 5 * US);
			assert_string_equal(culprit(&a), "irq_work vector");
		} else {
			/* the slack, then the gap; and the 5 us after it, the timer long due */
			assert_int_equal(a.ngaps, 2);
			assert_int_equal(item(&a, PART_IRQ, "irq_work vector"), ATTR_GAP_SLACK_NS);
			assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 300 us (in irq_work vector)"),
					 300 * US - ATTR_GAP_SLACK_NS);
			assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 5 us (task:50 current)"), 5 * US);
		}
	}
}

/*
 * An idle CPU whose state the trace does not say (no cpu_idle event), the
 * thread's interrupt 6 ms late: no idle exit takes that long (the deepest
 * state's exit bounds it, else ATTR_IDLE_EXIT_MAX_NS): a gap, not "late
 * interrupt" as before.
 */
static void test_idle_stall(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	slept(&s);
	fires(&s, T0 + 6000 * US, 0);
	sw(&s, T0 + 6001 * US, 0, 120, "swapper/1", TID, 9, "latlab");
	explain(&s, T0 + 6002 * US, &a);
	assert_true(a.complete);
	assert_int_equal(a.ngaps, 1);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 6000 us (CPU idle)"),
			 6000 * US - ATTR_IDLE_EXIT_MAX_NS - ATTR_GAP_SLACK_NS);
	assert_int_equal(item(&a, PART_TIMER, "late interrupt while idle"), ATTR_IDLE_EXIT_MAX_NS + ATTR_GAP_SLACK_NS);
}

/*
 * The same stall, 1.5 ms, on a CPU without a cpuidle driver (this VM: its
 * HLT hands the CPU to the host): the default idle's exit bounds it, so
 * past ATTR_DEFAULT_IDLE_EXIT_NS and the slack it is a gap; with cpuidle
 * states whose latency is unknown, still within ATTR_IDLE_EXIT_MAX_NS: an
 * idle exit, as before. A wake-up on time from the default idle has no gap.
 */
static void test_default_idle_stall(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;
	struct spike_query q = { .tid = TID, .prio = 9, .cpu = 1, .intended = T0,
				 .woke = T0 + 1502 * US, .default_idle = 1 };

	(void)state;
	slept(&s);
	ev(&s, 30, TEV_IDLE, 0)->value = 1;
	fires(&s, T0 + 1500 * US, 0);
	sw(&s, T0 + 1501 * US, 0, 120, "swapper/1", TID, 9, "latlab");
	assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
	assert_true(a.complete);
	assert_int_equal(a.ngaps, 1);
	assert_int_equal(item(&a, PART_UNEXPLAINED, "no event for 1500 us (CPU idle)"),
			 1500 * US - ATTR_DEFAULT_IDLE_EXIT_NS - ATTR_GAP_SLACK_NS);
	assert_int_equal(item(&a, PART_TIMER, "idle exit (state 1)"),
			 ATTR_DEFAULT_IDLE_EXIT_NS + ATTR_GAP_SLACK_NS);
	assert_int_equal(a.item[a.culprit].part, PART_UNEXPLAINED);
	q.default_idle = 0;
	assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
	assert_int_equal(a.ngaps, 0);
	assert_int_equal(a.item[a.culprit].part, PART_TIMER);
	assert_string_equal(culprit(&a), "idle exit (state 1)");
	/* on time: 8 us after the intended wake, no gap either way */
	s.n = 0;
	slept(&s);
	ev(&s, 30, TEV_IDLE, 0)->value = 1;
	fires(&s, T0 + 8 * US, 0);
	sw(&s, T0 + 9 * US, 0, 120, "swapper/1", TID, 9, "latlab");
	q.default_idle = 1;
	q.woke = T0 + 10 * US;
	assert_int_equal(attrib_explain(s.ev, s.n, &q, &a), 0);
	assert_int_equal(a.ngaps, 0);
}

/* A pid reused in the buffer: the task is named as of the time it ran */
static void test_name_of_its_time(void **state)
{
	struct seq s = { .n = 0 };
	struct attribution a;

	(void)state;
	sw(&s, 5, 0, 120, "swapper/1", 70, 4, "old");		/* pid 70 once, FIFO 95 */
	sw(&s, 8, 70, 4, "old", 0, 120, "swapper/1");
	slept(&s);
	fires(&s, T0 + 2 * US, 0);
	sw(&s, T0 + 3 * US, 0, 120, "swapper/1", 70, 120, "new");	/* another task, SCHED_OTHER */
	sw(&s, T0 + 30 * US, 70, 120, "new", TID, 9, "latlab");
	explain(&s, T0 + 31 * US, &a);
	assert_true(a.complete);
	assert_string_equal(culprit(&a), "new:70");
	assert_int_equal(a.item[a.culprit].part, PART_BLOCKING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_inside_softirq),
		cmocka_unit_test(test_blocking_task),
		cmocka_unit_test(test_rt_thread),
		cmocka_unit_test(test_measured_sched_other),
		cmocka_unit_test(test_idle_exit),
		cmocka_unit_test(test_default_idle_stall),
		cmocka_unit_test(test_gap_unexplained),
		cmocka_unit_test(test_nmi_inside_irq),
		cmocka_unit_test(test_overflow_incomplete),
		cmocka_unit_test(test_loss_before_window),
		cmocka_unit_test(test_buffer_begins_late),
		cmocka_unit_test(test_untraced_switch_in),
		cmocka_unit_test(test_no_wakeup),
		cmocka_unit_test(test_bad_query),
		cmocka_unit_test(test_gap_while_task_ran),
		cmocka_unit_test(test_gap_in_handler),
		cmocka_unit_test(test_gap_in_wakeup_callback),
		cmocka_unit_test(test_equal_priority),
		cmocka_unit_test(test_irqs_off),
		cmocka_unit_test(test_switch_missing),
		cmocka_unit_test(test_missing_ticks),
		cmocka_unit_test(test_name_of_its_time),
		cmocka_unit_test(test_preempted_after_switch_in),
		cmocka_unit_test(test_idle_stall),
		cmocka_unit_test(test_unknown_current),
		cmocka_unit_test(test_counted_clock),
		cmocka_unit_test(test_kernel_account),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
