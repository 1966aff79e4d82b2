/*
 * Why a side was late beside a verdict (harness/report/why.c): the
 * culprits of its worst captures in the runs judged — the worst by
 * latency across runs, a task's pid left out of its name so that one
 * program is one culprit across runs, gaps and incomplete captures by
 * their kind, most first — and what the line says where a side traced
 * nothing above its threshold, or did not trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tree.h"
#include "why.h"

static struct tspike spike(int64_t lat, const char *kind, const char *culprit, int complete)
{
	struct tspike s;

	memset(&s, 0, sizeof(s));
	s.latency_ns = lat;
	s.complete = complete;
	snprintf(s.kind, sizeof(s.kind), "%s", kind);
	snprintf(s.culprit, sizeof(s.culprit), "%s", culprit);
	return s;
}

/* 14 captures in two runs: the 10 worst are 7 of the hog (two pids), 2 gaps, 1 softirq */
static void test_worst_ten(void **state)
{
	struct tspike r1[7], r2[7];
	struct tcell c1, c2;
	const struct tcell *runs[2] = { &c1, &c2 };
	struct side_runs s = { .run = runs, .n = 2 };
	struct why_side w;
	char line[1024];

	(void)state;
	memset(&c1, 0, sizeof(c1));
	memset(&c2, 0, sizeof(c2));
	for (int i = 0; i < 4; i++) {
		r1[i] = spike(20000 + i, "rt-thread", "latload:712 (SCHED_FIFO 95)", 1);
		r2[i] = spike(21000 + i, "rt-thread", "latload:9001 (SCHED_FIFO 95)", 1);
	}
	r1[4] = spike(30000, "unexplained", "no event for 30 us (latlab:5 current)", 1);
	r1[5] = spike(100, "softirq", "NET_RX", 1);	/* not among the worst */
	r1[6] = spike(99, "timer", "idle exit (state 1)", 1);	/* nor this */
	r2[4] = spike(25000, "unexplained", "no event for 25 us (CPU idle)", 1);
	r2[5] = spike(20500, "softirq", "NET_RX", 1);
	r2[6] = spike(50, "incomplete", "", 0);
	c1.spikes = r1;
	c1.nspikes = 7;
	c1.traced = 1;
	c2.spikes = r2;
	c2.nspikes = 7;
	c2.traced = 1;
	why_side(&s, WHY_WORST, &w);
	assert_int_equal(w.captures, 14);
	assert_int_equal(w.worst, 10);
	assert_int_equal(w.nc, 3);
	assert_string_equal(w.c[0].what, "rt-thread: latload (SCHED_FIFO 95)");
	assert_int_equal(w.c[0].n, 7);	/* 8 of the hog, its lowest (20000) the 11th */
	assert_string_equal(w.c[1].what, "unexplained");
	assert_int_equal(w.c[1].n, 2);
	assert_string_equal(w.c[2].what, "softirq: NET_RX");
	assert_int_equal(w.c[2].n, 1);
	why_side_line("stock", &s, &w, line, sizeof(line));
	assert_string_equal(line, "stock: of its 10 worst captures (of 14), 7 rt-thread: latload (SCHED_FIFO 95), 2 unexplained, 1 softirq: NET_RX");

	/* the 3 worst only; an incomplete capture among them is said as such */
	r1[4] = spike(90000, "incomplete", "", 0);
	why_side(&s, 3, &w);
	assert_int_equal(w.worst, 3);
	assert_string_equal(w.c[0].what, "incomplete");
	assert_string_equal(w.c[1].what, "unexplained");
	assert_string_equal(w.c[2].what, "rt-thread: latload (SCHED_FIFO 95)");
}

/* a name's pid goes, the rest stays: a kworker's own colons, an IRQ's number */
static void test_names(void **state)
{
	struct tspike sp[3] = {
		spike(3, "blocking", "kworker/1:2:88", 1),
		spike(2, "irq", "virtio0-input.0 (irq 24)", 1),
		spike(1, "rt-thread", "peer:88 (SCHED_FIFO 80 equal: FIFO does not preempt)", 1),
	};
	struct tcell c;
	const struct tcell *runs[1] = { &c };
	struct side_runs s = { .run = runs, .n = 1 };
	struct why_side w;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.spikes = sp;
	c.nspikes = 3;
	c.traced = 1;
	why_side(&s, WHY_WORST, &w);
	assert_int_equal(w.nc, 3);
	assert_string_equal(w.c[0].what, "blocking: kworker/1:2");
	assert_string_equal(w.c[1].what, "irq: virtio0-input.0 (irq 24)");
	assert_string_equal(w.c[2].what, "rt-thread: peer (SCHED_FIFO 80 equal: FIFO does not preempt)");
}

/* traced and nothing above its threshold: "no capture"; not traced: nothing; a pair joins them */
static void test_sides(void **state)
{
	struct tspike sp = spike(5000, "softirq", "TIMER", 1);
	struct tcell traced, quiet, untraced;
	const struct tcell *ra[1] = { &traced }, *rb[1] = { &quiet }, *rc[1] = { &untraced };
	struct side_runs a = { .run = ra, .n = 1 }, b = { .run = rb, .n = 1 },
			 u = { .run = rc, .n = 1 };
	char line[1024];

	(void)state;
	memset(&traced, 0, sizeof(traced));
	memset(&quiet, 0, sizeof(quiet));
	memset(&untraced, 0, sizeof(untraced));
	traced.traced = quiet.traced = 1;
	traced.spikes = &sp;
	traced.nspikes = 1;
	why_pair_line(&a, "stock", &b, "rt", line, sizeof(line));
	assert_string_equal(line, "why: stock: of its 1 capture, 1 softirq: TIMER; rt: no capture");
	why_pair_line(&u, "stock", &b, "rt", line, sizeof(line));
	assert_string_equal(line, "why: rt: no capture");
	why_pair_line(&u, "stock", &u, "rt", line, sizeof(line));
	assert_string_equal(line, "");

	/* on a page: escaped, and nothing at all for sides that did not trace */
	char page[1024] = "";
	FILE *fp = fmemopen(page, sizeof(page), "w");

	assert_non_null(fp);
	why_pair_html(fp, &a, "stock<1>", &u, "rt");
	why_pair_html(fp, &u, "stock", &u, "rt");
	fclose(fp);
	assert_string_equal(page, "<br><small class=\"why\">why: stock&lt;1&gt;: of its 1 capture, 1 softirq: TIMER</small>");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_ten),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sides),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
