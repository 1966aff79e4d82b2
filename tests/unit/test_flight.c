/*
 * The flight recorder's records made latlab's events
 * (harness/trace/flight.c's flight_decode): a ring that wrapped read
 * oldest first and only its settled slots, names from the capture's own
 * switches, callbacks and IRQs named through the hooks, the text on the
 * capture's CPU only — and a wake-up behind an rt-hog, recorded as the
 * BPF programs write it, explained by attrib.c as tracefs's would be.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "flight.h"
#include "tracer_parts.h"

#define TID 100
#define HOG 70
#define T0 100000
#define TIMER 0xA0
#define WAKEUP_FN 0xF1
#define TICK_FN 0xF2

static const char *fn_of(void *arg, uint64_t addr)
{
	(void)arg;
	return addr == WAKEUP_FN ? "hrtimer_wakeup" : addr == TICK_FN ? "tick_nohz_handler" : NULL;
}

static const char *irq_of(void *arg, int irq)
{
	(void)arg;
	return irq == 24 ? "virtio0-input.0" : NULL;
}

static const struct flight_names names = { fn_of, irq_of, NULL };

struct ring {
	struct flight_rec r[64];
	uint32_t mask;
	uint64_t head;
};

/* a record as the programs write it: no task (flight_decode finds it from the switches) */
static struct flight_rec *put(struct ring *g, uint64_t ts, int kind)
{
	struct flight_rec *e = &g->r[g->head++ & g->mask];

	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->kind = (__u32)kind;
	return e;
}

static void sw(struct ring *g, uint64_t ts, int prev, int pprio, const char *pc, int next,
	       int nprio, const char *nc)
{
	struct flight_rec *e = put(g, ts, FL_SWITCH);

	e->prev_pid = prev;
	e->prev_prio = pprio;
	e->next_pid = next;
	e->next_prio = nprio;
	snprintf(e->prev_comm, sizeof(e->prev_comm), "%s", pc);
	snprintf(e->next_comm, sizeof(e->next_comm), "%s", nc);
}

static void collect_free(struct collect *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->text[i]);
	free(c->text);
	free(c->ev);
}

static void test_ring_size(void **state)
{
	(void)state;
	assert_int_equal(flight_ring_events(64 << 10), 1024);	/* the floor */
	assert_int_equal(flight_ring_events(2 << 20), 16384);	/* 16,384 x 88 bytes <= 2 MiB */
	assert_true(flight_ring_events(2 << 20) * sizeof(struct flight_rec) <= (2u << 20));
	assert_int_equal(flight_ring_events(1LL << 40), 1u << 20);	/* the ceiling */
	assert_int_equal(sizeof(struct flight_rec) % 8, 0);	/* the map's element, unpadded */
}

/* 16 slots, 40 events taken: the newest 8 (16 - 8 settled), oldest first */
static void test_wrapped_ring(void **state)
{
	struct ring g = { .mask = 15, .head = 0 };
	struct collect c = { .text_cpu = 1 };

	(void)state;
	for (int i = 0; i < 40; i++)
		put(&g, 1000 + (uint64_t)i, FL_IDLE)->value = i;
	assert_int_equal(flight_decode(g.r, g.mask, g.head, 1, &names, &c), 0);
	assert_int_equal(c.n, 8);
	for (int i = 0; i < c.n; i++) {
		assert_int_equal(c.ev[i].ts, 1000 + 32 + i);
		assert_int_equal(c.ev[i].kind, TEV_IDLE);
		assert_int_equal(c.ev[i].value, 32 + i);
		assert_int_equal(c.ev[i].cpu, 1);
		assert_non_null(strstr(c.text[i], "cpu_idle: state="));
	}
	collect_free(&c);

	/* not wrapped: every event; none taken: none */
	struct ring h = { .mask = 15, .head = 0 };
	struct collect d = { .text_cpu = 1 };

	for (int i = 0; i < 3; i++)
		put(&h, 10 + (uint64_t)i, FL_SOFTIRQ_ENTRY)->value = 3;
	assert_int_equal(flight_decode(h.r, h.mask, h.head, 1, &names, &d), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.ev[0].name, "NET_RX");
	collect_free(&d);
	struct collect e = { .text_cpu = 1 };

	assert_int_equal(flight_decode(h.r, h.mask, 0, 1, &names, &e), 0);
	assert_int_equal(e.n, 0);
	collect_free(&e);
}

/* names: the capture's own switches, "<idle>" for pid 0; hooks for callbacks and IRQs */
static void test_names(void **state)
{
	struct ring g = { .mask = 63, .head = 0 };
	struct collect c = { .text_cpu = 2 };
	struct flight_rec *e;

	(void)state;
	put(&g, 1, FL_HRT_ENTRY)->fn = WAKEUP_FN;	/* in 55, named by a later switch */
	put(&g, 2, FL_HRT_START)->fn = 0xDEAD;	/* a callback the hook cannot name */
	put(&g, 3, FL_IRQ_ENTRY)->value = 24;
	put(&g, 4, FL_IRQ_ENTRY)->value = 9;
	e = put(&g, 5, FL_VECTOR_ENTRY);
	e->value = FV_LOCAL_TIMER;
	e->ptr = 236;
	sw(&g, 6, 55, 120, "kworker/2:1\x01", 0, 120, "swapper/2");
	e = put(&g, 7, FL_LOCK_BEGIN);
	e->ptr = 0xABC;
	e->value = 2;
	put(&g, 7, 99);	/* a kind the reader does not know: left out */
	put(&g, 8, FL_NONE);	/* a slot never written: left out */
	assert_int_equal(flight_decode(g.r, g.mask, g.head, 2, &names, &c), 0);
	assert_int_equal(c.n, 7);
	assert_string_equal(c.ev[0].comm, "kworker/2:1?");	/* a control byte made printable */
	assert_string_equal(c.ev[0].name, "hrtimer_wakeup");
	assert_string_equal(c.ev[1].name, "callback");
	assert_string_equal(c.ev[2].name, "virtio0-input.0 (irq 24)");
	assert_string_equal(c.ev[3].name, "irq (irq 9)");
	assert_string_equal(c.ev[4].name, "local_timer vector");
	assert_string_equal(c.ev[4].comm, "kworker/2:1?");
	assert_int_equal(c.ev[5].kind, TEV_SWITCH);
	assert_string_equal(c.ev[5].next_comm, "swapper/2");
	assert_non_null(strstr(c.text[5], "==> next_comm=swapper/2 next_pid=0"));
	assert_non_null(strstr(c.text[4], "local_timer_entry: vector=236"));
	assert_int_equal(c.ev[6].kind, TEV_OTHER);	/* a line to read, no part of its own */
	assert_non_null(strstr(c.text[4], "kworker/2:1?-55      local_timer_entry"));
	assert_non_null(strstr(c.text[6], "<idle>-0       contention_begin: 0xabc (flags=0x2)"));
	collect_free(&c);

	/* another CPU's events carry no text */
	struct collect d = { .text_cpu = 1 };

	assert_int_equal(flight_decode(g.r, g.mask, g.head, 2, &names, &d), 0);
	for (int i = 0; i < d.n; i++)
		assert_null(d.text[i]);
	collect_free(&d);
}

/*
 * Each event's task is the CPU's current one, from the ring's own
 * switches: before the first, its prev; after each, its next. A ring
 * without a switch names none (-1); it has no switch to the thread
 * either, so attribution calls it incomplete rather than blame "-1".
 */
static void test_task_from_switches(void **state)
{
	struct ring g = { .mask = 63, .head = 0 };
	struct collect c = { .text_cpu = 0 };

	(void)state;
	put(&g, 1, FL_IRQ_ENTRY)->value = 9;		/* in 41, before the first switch */
	sw(&g, 2, 41, 120, "make", 42, 120, "cc1");
	put(&g, 3, FL_SOFTIRQ_ENTRY)->value = 3;	/* in 42 */
	sw(&g, 4, 42, 120, "cc1", 0, 120, "swapper/0");
	put(&g, 5, FL_IDLE)->value = 1;			/* in the idle task */
	sw(&g, 6, 0, 120, "swapper/0", 41, 120, "make");
	put(&g, 7, FL_HRT_EXIT);			/* in 41 again */
	assert_int_equal(flight_decode(g.r, g.mask, g.head, 0, &names, &c), 0);
	assert_int_equal(c.n, 7);
	const int want[] = { 41, 41, 42, 42, 0, 0, 41 };
	const char *comm[] = { "make", "make", "cc1", "cc1", "<idle>", "<idle>", "make" };

	for (int i = 0; i < 7; i++) {
		assert_int_equal(c.ev[i].pid, want[i]);
		assert_string_equal(c.ev[i].comm, comm[i]);
	}
	collect_free(&c);

	/* no switch in the ring: no task, and attribution knows nothing current */
	struct ring h = { .mask = 63, .head = 0 };
	struct collect d = { .text_cpu = 0 };
	struct attribution a;

	put(&h, T0 + 100, FL_SOFTIRQ_ENTRY)->value = 3;
	put(&h, T0 + 900, FL_SOFTIRQ_EXIT)->value = 3;
	assert_int_equal(flight_decode(h.r, h.mask, h.head, 0, &names, &d), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ev[0].pid, -1);
	assert_string_equal(d.ev[0].comm, "<...>");

	struct spike_query q = { .tid = TID, .prio = 19, .cpu = 0, .intended = T0,
				 .woke = T0 + 1000, .default_idle = 1, .tick_ns = 4000000 };

	assert_int_equal(attrib_explain(d.ev, d.n, &q, &a), 0);
	assert_false(a.complete);	/* said incomplete, no task "<...>:-1" blamed */
	assert_int_equal(a.nitems, 0);
	collect_free(&d);
}

/*
 * The thread (FIFO 80, kernel 19) sleeps on its hrtimer; the timer fires
 * at T0 in the idle task and wakes it and a FIFO 95 hog (kernel 4) that
 * runs first for 4 ms: rt-thread, to the nanosecond.
 */
static void test_explained_as_tracefs(void **state)
{
	struct ring g = { .mask = 63, .head = 0 };
	struct collect c = { .text_cpu = 1 };
	struct flight_rec *e;
	struct attribution a;

	(void)state;
	e = put(&g, T0 - 5000, FL_HRT_START);
	e->ptr = TIMER;
	e->fn = WAKEUP_FN;
	e->value = T0;
	sw(&g, T0 - 4990, TID, 19, "latlab", 0, 120, "swapper/1");
	put(&g, T0 - 4980, FL_IDLE)->value = 1;
	put(&g, T0 + 100, FL_IDLE)->value = -1;
	put(&g, T0 + 200, FL_VECTOR_ENTRY)->value = FV_LOCAL_TIMER;
	e = put(&g, T0 + 300, FL_HRT_ENTRY);
	e->ptr = TIMER;
	e->fn = WAKEUP_FN;
	e = put(&g, T0 + 310, FL_WAKING);
	e->next_pid = TID;
	e->next_prio = 19;
	put(&g, T0 + 320, FL_HRT_EXIT)->ptr = TIMER;
	e = put(&g, T0 + 330, FL_WAKING);
	e->next_pid = HOG;
	e->next_prio = 4;
	snprintf(e->next_comm, sizeof(e->next_comm), "latload");
	put(&g, T0 + 400, FL_VECTOR_EXIT)->value = FV_LOCAL_TIMER;
	sw(&g, T0 + 500, 0, 120, "swapper/1", HOG, 4, "latload");
	sw(&g, T0 + 4000500, HOG, 4, "latload", TID, 19, "latlab");
	assert_int_equal(flight_decode(g.r, g.mask, g.head, 1, &names, &c), 0);

	struct spike_query q = { .tid = TID, .prio = 19, .cpu = 1, .intended = T0,
				 .woke = T0 + 4001000, .default_idle = 1, .tick_ns = 4000000 };
	int64_t sum = 0;

	assert_int_equal(attrib_explain(c.ev, c.n, &q, &a), 0);
	assert_true(a.complete);
	for (int p = 0; p < PART_COUNT; p++)
		sum += a.part_ns[p];
	assert_int_equal(sum, 4001000);
	assert_int_equal(a.expiry, T0 + 300);
	assert_int_equal(a.switch_in, T0 + 4000500);
	assert_int_equal(a.item[a.culprit].part, PART_RT);
	assert_string_equal(a.item[a.culprit].name, "latload:70 (SCHED_FIFO 95)");
	assert_int_equal(a.part_ns[PART_RT], 4000000);
	assert_int_equal(a.part_ns[PART_RETURN], 500);
	collect_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_size),
		cmocka_unit_test(test_wrapped_ring),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_task_from_switches),
		cmocka_unit_test(test_explained_as_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
