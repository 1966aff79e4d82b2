/*
 * report/rows.c: the rows x sides x runs model report, compare and history
 * share. Synthetic trees whose rows and sides interleave: every row, side
 * and group in the order it first appears, runs in the trees' order, a
 * row's sides and trees counted, the summary made once per group.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>

#include "fakefs.h"
#include "html.h"
#include "plot.h"
#include "rows.h"

#define NCELLS 6

static struct hist hists[2][NCELLS];
static struct tcell cells[2][NCELLS];

/* cell k of tree t: row (its load) and kernel, max wake-up latency */
static void cell(int t, int k, const char *load, const char *kernel, int64_t max, int measured)
{
	struct tcell *c = &cells[t][k];

	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%04d-%s-%s", k, load, kernel);
	snprintf(c->load, sizeof(c->load), "%s", load);
	snprintf(c->kernel, sizeof(c->kernel), "%s", kernel);
	snprintf(c->host, sizeof(c->host), "h");
	snprintf(c->release, sizeof(c->release), "6.1");
	snprintf(c->workload, sizeof(c->workload), "timer");
	c->interval = 1000000;
	c->measured = measured;
	snprintf(c->status, sizeof(c->status), "ok");
	c->vf.status = CELL_OK;
	hist_init(&hists[t][k]);
	hist_add(&hists[t][k], max);
	c->wakeup = c->metric[METRIC_WAKEUP] = &hists[t][k];
}

static int ntrees_made(struct tree *t)
{
	/* tree 0: rows A and B on stock and rt, interleaved */
	cell(0, 0, "A", "stock", 100000, 1);
	cell(0, 1, "B", "rt", 50000, 1);
	cell(0, 2, "A", "rt", 30000, 1);
	cell(0, 3, "B", "stock", 200000, 1);
	cell(0, 4, "A", "stock", 300000, 1);
	cell(0, 5, "C", "rt", 1, 0);		/* not measured: in no row */
	/* tree 1: B and a new row C, on stock */
	cell(1, 0, "B", "stock", 120000, 1);
	cell(1, 1, "C", "stock", 80000, 1);
	cell(1, 2, "A", "stock", 1, 0);
	memset(t, 0, 2 * sizeof(*t));
	t[0].cell = cells[0];
	t[0].n = 6;
	t[1].cell = cells[1];
	t[1].n = 3;
	return 2;
}

static void test_orders_and_counts(void **state)
{
	struct tree t[2];
	struct rows m;
	int n = ntrees_made(t);

	(void)state;
	assert_int_equal(rows_build(&m, t, n, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	/* sides: tree 0 stock, tree 0 rt, tree 1 stock */
	assert_int_equal(m.nsides, 3);
	assert_int_equal(m.side[0].tree, 0);
	assert_string_equal(m.side[0].first->kernel, "stock");
	assert_string_equal(m.side[1].first->kernel, "rt");
	assert_int_equal(m.side[2].tree, 1);
	/* rows: A, B, C (C only from tree 1: tree 0's C was not measured) */
	assert_int_equal(m.nrows, 3);
	assert_string_equal(m.row[0].any->load, "A");
	assert_string_equal(m.row[1].any->load, "B");
	assert_string_equal(m.row[2].any->load, "C");
	assert_int_equal(m.row[0].sides, 2);
	assert_int_equal(m.row[0].trees, 1);
	assert_int_equal(m.row[1].sides, 3);
	assert_int_equal(m.row[1].trees, 2);
	assert_int_equal(m.row[2].sides, 1);
	/* groups in the order of their first run */
	assert_int_equal(m.ngroups, 6);
	const int want[6][2] = { { 0, 0 }, { 1, 1 }, { 0, 1 }, { 1, 0 }, { 1, 2 }, { 2, 2 } };
	for (int g = 0; g < 6; g++) {
		assert_int_equal(m.group[g].row, want[g][0]);
		assert_int_equal(m.group[g].side, want[g][1]);
	}
	/* A on stock: its two runs in the tree's order, summarised once */
	const struct rows_group *a = rows_group(&m, 0, 0);
	assert_non_null(a);
	assert_int_equal(a->n, 2);
	assert_ptr_equal(a->run[0], &cells[0][0]);
	assert_ptr_equal(a->run[1], &cells[0][4]);
	assert_int_equal(a->sum.n, 2);
	assert_true(a->sum.max_lo <= 100000 && a->sum.max_hi >= 300000);
	/* none where a row did not run */
	assert_null(rows_group(&m, 0, 2));
	assert_int_equal(rows_runs(&m, 0, 2).n, 0);
	assert_int_equal(rows_runs(&m, 1, 2).n, 1);
	rows_free(&m);
	assert_int_equal(m.nrows, 0);
}

/* Trees of one side_group are campaigns of one side: their runs pool, each with its tree */
static void test_side_group(void **state)
{
	struct tree t[2];
	struct rows m;
	int n = ntrees_made(t);

	(void)state;
	t[0].side_group = t[1].side_group = 2;
	assert_int_equal(rows_build(&m, t, n, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	/* sides: stock (trees 0 and 1), rt (tree 0) */
	assert_int_equal(m.nsides, 2);
	assert_int_equal(m.side[0].tree, 0);
	assert_string_equal(m.side[0].first->kernel, "stock");
	/* B on stock: tree 0's run and tree 1's, each with its campaign */
	const struct rows_group *b = rows_group(&m, 1, 0);
	assert_non_null(b);
	assert_int_equal(b->n, 2);
	assert_int_equal(b->camp[0], 0);
	assert_int_equal(b->camp[1], 1);
	struct side_runs r = rows_runs(&m, 1, 0);
	assert_ptr_equal(r.camp, b->camp);
	rows_free(&m);
	/* other groups: sides apart again */
	t[1].side_group = 3;
	assert_int_equal(rows_build(&m, t, n, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.nsides, 3);
	rows_free(&m);
}

/*
 * Each row is judged on its workload's own metric unless one is asked
 * for; cells without the metric asked for are left out, and counted.
 */
static void test_metric(void **state)
{
	static struct hist wake, resp;
	struct tcell c[2];
	struct tree t = { .cell = c, .n = 2 };
	struct rows m;

	(void)state;
	memset(c, 0, sizeof(c));
	hist_init(&wake);
	hist_init(&resp);
	hist_add(&wake, 20000);
	hist_add(&resp, 8000000);
	for (int i = 0; i < 2; i++) {
		snprintf(c[i].kernel, sizeof(c[i].kernel), "%s", i ? "rt" : "stock");
		snprintf(c[i].workload, sizeof(c[i].workload), "file-write");
		c[i].measured = 1;
		c[i].wakeup = c[i].metric[METRIC_WAKEUP] = &wake;
		c[i].response = c[i].metric[METRIC_RESPONSE] = &resp;
		c[i].primary = METRIC_RESPONSE;
		c[i].vf.status = CELL_OK;
	}
	assert_int_equal(rows_build(&m, &t, 1, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.nrows, 1);
	assert_int_equal(m.row[0].metric, METRIC_RESPONSE);
	assert_int_equal(rows_runs(&m, 0, 1).metric, METRIC_RESPONSE);
	assert_true(m.group[0].sum.max_med >= 8000000);
	rows_free(&m);
	assert_int_equal(rows_build(&m, &t, 1, METRIC_WAKEUP, TAXIS_KERNEL), 0);
	assert_int_equal(m.row[0].metric, METRIC_WAKEUP);
	assert_true(m.group[0].sum.max_med < 100000);
	rows_free(&m);
	/* no noise_max in a file-write cell: no row, both cells counted */
	assert_int_equal(rows_build(&m, &t, 1, METRIC_NOISE_MAX, TAXIS_KERNEL), 0);
	assert_int_equal(m.nrows, 0);
	assert_int_equal(m.nomit, 2);
	rows_free(&m);
	/* a primary one run lacks: the row falls back to the wake-up */
	c[1].response = c[1].metric[METRIC_RESPONSE] = NULL;
	assert_int_equal(rows_build(&m, &t, 1, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.row[0].metric, METRIC_WAKEUP);
	rows_free(&m);
	assert_string_equal(rows_metric_words(METRIC_NOISE_MAX), "noise max");
	assert_string_equal(rows_metric_words(METRIC_RESPONSE), "response");
}

/*
 * A row's own metric that cannot be judged (vouch.h: a device's wait on
 * the instruction clock) gives way to the first that can, and the line
 * says so; asked for by name it stays, for the verdict to refuse. A run
 * whose cell errored is left out of its group and said beside it.
 */
static void test_vouched(void **state)
{
	static struct hist wake, resp;
	struct tcell c[3];
	struct tree t = { .cell = c, .n = 3 };
	struct rows m;
	char said[256];

	(void)state;
	memset(c, 0, sizeof(c));
	hist_init(&wake);
	hist_init(&resp);
	hist_add(&wake, 20000);
	hist_add(&resp, 8000000);
	for (int i = 0; i < 3; i++) {
		snprintf(c[i].kernel, sizeof(c[i].kernel), "%s", i == 1 ? "rt" : "stock");
		snprintf(c[i].workload, sizeof(c[i].workload), "chain");
		snprintf(c[i].status, sizeof(c[i].status), "%s", i == 2 ? "error" : "ok");
		c[i].measured = 1;
		c[i].wakeup = c[i].metric[METRIC_WAKEUP] = &wake;
		c[i].response = c[i].metric[METRIC_RESPONSE] = &resp;
		c[i].primary = METRIC_RESPONSE;
		c[i].vf.status = i == 2 ? CELL_ERROR : CELL_OK;
		c[i].vouch[METRIC_RESPONSE] = VR_BIT(VR_DEVICE);
	}
	assert_int_equal(rows_build(&m, &t, 1, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.row[0].metric, METRIC_WAKEUP);
	assert_int_equal(m.row[0].asked, METRIC_RESPONSE);
	assert_int_equal(m.row[0].asked_why, VR_BIT(VR_DEVICE));
	rows_metric_said(&m, 0, said, sizeof(said));
	assert_string_equal(said, "wake-up (response cannot be judged here: device-wait)");
	/* the errored run: in no group, beside stock's one run */
	struct side_runs stock = rows_runs(&m, 0, 0);
	assert_int_equal(stock.n, 1);
	assert_int_equal(stock.nleft, 1);
	assert_ptr_equal(stock.left[0], &c[2]);
	assert_int_equal(rows_runs(&m, 0, 1).nleft, 0);
	rows_free(&m);
	/* asked for: kept, and the verdict has none */
	assert_int_equal(rows_build(&m, &t, 1, METRIC_RESPONSE, TAXIS_KERNEL), 0);
	assert_int_equal(m.row[0].metric, METRIC_RESPONSE);
	rows_metric_said(&m, 0, said, sizeof(said));
	assert_string_equal(said, "response");
	struct side_runs a = rows_runs(&m, 0, 0), b = rows_runs(&m, 0, 1);
	struct pair_verdict v;
	char text[1200];

	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_UNJUDGED);
	assert_int_equal(v.kind_tail, V_UNJUDGED);
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_non_null(strstr(text, "no verdict: either side's response cannot be judged (device-wait; one run each): on the instruction clock a wait for an emulated device is not the device's time"));
	assert_non_null(strstr(text, "; stock: 1 errored, left out"));
	rows_free(&m);
	/* the other side gone wholly: no run to judge */
	c[0].vf.status = CELL_ERROR;
	snprintf(c[0].status, sizeof(c[0].status), "error");
	snprintf(c[0].reason, sizeof(c[0].reason), "load disk: instance 0 did no work over the cell (ops = 0)");
	assert_int_equal(rows_build(&m, &t, 1, METRIC_WAKEUP, TAXIS_KERNEL), 0);
	a = rows_runs(&m, 0, 0);
	b = rows_runs(&m, 0, 1);
	assert_int_equal(a.n, 0);
	assert_int_equal(a.nleft, 2);
	assert_int_equal(verdict_pair(&a, &b, 0, &v), 0);
	assert_int_equal(v.kind, V_UNJUDGED);
	verdict_text(&v, "stock", "rt", text, sizeof(text));
	assert_string_equal(text, "no verdict: stock has no run to judge (0 and 1 runs); stock: 2 errored, left out (load disk: instance 0 did no work over the cell (ops = 0))");
	rows_free(&m);
}

static void test_empty(void **state)
{
	struct tree t = { 0 };
	struct rows m;

	(void)state;
	assert_int_equal(rows_build(&m, &t, 1, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.nrows + m.nsides + m.ngroups, 0);
	rows_free(&m);
}

/*
 * One palette keyed by meaning: a name's colour is its own on every page
 * (rt is rt wherever it appears), equal names share one, and a name whose
 * colour was taken on the page moves to the next free one.
 */
static void test_colors(void **state)
{
	const char *a[] = { "stock", "rt" }, *b[] = { "rt", "other", "stock" };
	const char *same[] = { "x", "x" };
	const char *many[PLOT_COLORS + 2];
	char names[PLOT_COLORS + 2][8];
	int ca[2], cb[3], cs[2], cm[PLOT_COLORS + 2];

	(void)state;
	plot_colors(a, 2, ca);
	plot_colors(b, 3, cb);
	assert_int_not_equal(ca[0], ca[1]);
	assert_int_equal(ca[1], cb[0]);		/* rt, in another page's order */
	assert_true(cb[1] != cb[0] && cb[1] != cb[2]);
	plot_colors(same, 2, cs);
	assert_int_equal(cs[0], cs[1]);
	/* PLOT_COLORS names: all different; past them, they repeat */
	for (int i = 0; i < PLOT_COLORS + 2; i++) {
		snprintf(names[i], sizeof(names[i]), "v%d", i);
		many[i] = names[i];
	}
	plot_colors(many, PLOT_COLORS + 2, cm);
	for (int i = 0; i < PLOT_COLORS + 2; i++) {
		assert_true(cm[i] >= 1 && cm[i] <= PLOT_COLORS);
		for (int j = 0; j < i && i < PLOT_COLORS; j++)
			assert_int_not_equal(cm[i], cm[j]);
	}
	/* the rows model colours its sides by their kernel variant's name */
	struct tree t[2];
	struct rows m;
	int n = ntrees_made(t);

	assert_int_equal(rows_build(&m, t, n, ROWS_OWN_METRIC, TAXIS_KERNEL), 0);
	assert_int_equal(m.nsides, 3);	/* stock, rt in tree 0; stock in tree 1 */
	assert_int_equal(m.side[0].color, ca[0]);
	assert_int_equal(m.side[1].color, ca[1]);
	assert_int_equal(m.side[2].color, m.side[0].color);	/* stock is stock */
	/* what every row shares: all but the load (A, B, C), with the axis and host */
	unsigned common = rows_common_axes(&m);

	assert_false(common & 1u << TAXIS_LOAD);
	assert_true(common & 1u << TAXIS_KERNEL && common & 1u << TAXIS_HOST);
	assert_true(common & 1u << TAXIS_WORKLOAD && common & 1u << TAXIS_INTERVAL);
	rows_free(&m);
	/* along the load, the load is the axis: every other axis here is shared */
	assert_int_equal(rows_build(&m, t, n, ROWS_OWN_METRIC, TAXIS_LOAD), 0);
	common = rows_common_axes(&m);
	assert_true(common & 1u << TAXIS_LOAD);
	assert_false(common & 1u << TAXIS_KERNEL);	/* stock and rt are rows now */
	rows_free(&m);
}

/* A row as a reader says it, the compared axis left out. */
static void test_row_words(void **state)
{
	char buf[512];
	struct tcell c = { 0 };

	(void)state;
	snprintf(c.kernel, sizeof(c.kernel), "rt");
	snprintf(c.load, sizeof(c.load), "hackbench");
	snprintf(c.workload, sizeof(c.workload), "file-write");
	snprintf(c.threads, sizeof(c.threads), "1");
	snprintf(c.affinity, sizeof(c.affinity), "1");
	snprintf(c.policy, sizeof(c.policy), "fifo");
	snprintf(c.dma_latency, sizeof(c.dma_latency), "0");
	c.interval = 1000000;
	c.priority = 90;
	c.size = 4096;
	tcell_row_words(&c, TAXIS_KERNEL, buf, sizeof(buf));
	assert_string_equal(buf, "hackbench · file-write · 1 thread on CPU 1 · 1 ms · FIFO 90 · 4KiB");
	tcell_row_words(&c, TAXIS_LOAD, buf, sizeof(buf));
	assert_string_equal(buf, "rt · file-write · 1 thread on CPU 1 · 1 ms · FIFO 90 · 4KiB");
	tcell_row_words(&c, TAXIS_PRIORITY, buf, sizeof(buf));
	assert_string_equal(buf, "rt · hackbench · file-write · 1 thread on CPU 1 · 1 ms · FIFO · 4KiB");
	tcell_row_words(&c, TAXIS_POLICY, buf, sizeof(buf));
	assert_string_equal(buf, "rt · hackbench · file-write · 1 thread on CPU 1 · 1 ms · priority 90 · 4KiB");
	/* a timer has no size; idle, spread, 200 µs, SCHED_OTHER, a latency request */
	snprintf(c.workload, sizeof(c.workload), "timer");
	snprintf(c.load, sizeof(c.load), "none");
	snprintf(c.threads, sizeof(c.threads), "all");
	snprintf(c.affinity, sizeof(c.affinity), "spread");
	snprintf(c.policy, sizeof(c.policy), "other");
	snprintf(c.dma_latency, sizeof(c.dma_latency), "10us");
	c.interval = 200000;
	tcell_row_words(&c, TAXIS_KERNEL, buf, sizeof(buf));
	assert_string_equal(buf, "no load · timer · a thread per CPU, one CPU each · 200 µs · SCHED_OTHER · cpu_dma_latency 10us");
	/* along the host the kernel variant is part of the row */
	tcell_row_words(&c, TAXIS_HOST, buf, sizeof(buf));
	assert_true(strncmp(buf, "rt · no load", 12) == 0);
	/* only what is left */
	tcell_row_words_omit(&c, ~(1u << TAXIS_INTERVAL), 1, buf, sizeof(buf));
	assert_string_equal(buf, "200 µs");
	/* a timer's size: left out when terse, said when it is what differs */
	c.size = 17;
	tcell_row_words_omit(&c, ~(1u << TAXIS_SIZE), 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	tcell_row_words_omit(&c, ~(1u << TAXIS_SIZE), 0, buf, sizeof(buf));
	assert_string_equal(buf, "17 B");
	snprintf(c.dma_latency, sizeof(c.dma_latency), "0");
	tcell_row_words_omit(&c, ~(1u << TAXIS_DMA), 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	tcell_row_words_omit(&c, ~(1u << TAXIS_DMA), 0, buf, sizeof(buf));
	assert_string_equal(buf, "cpu_dma_latency 0");
	snprintf(c.threads, sizeof(c.threads), "2");
	snprintf(c.affinity, sizeof(c.affinity), "0-1");
	tcell_row_words_omit(&c, ~(1u << TAXIS_THREADS | 1u << TAXIS_AFFINITY), 1, buf, sizeof(buf));
	assert_string_equal(buf, "2 threads on CPUs 0-1");
	snprintf(c.affinity, sizeof(c.affinity), "node:1");
	tcell_row_words_omit(&c, ~(1u << TAXIS_THREADS | 1u << TAXIS_AFFINITY), 1, buf, sizeof(buf));
	assert_string_equal(buf, "2 threads on node 1");
	/* where its memory lives, when the numa axis says */
	snprintf(c.numa, sizeof(c.numa), "remote");
	tcell_row_words_omit(&c, ~(1u << TAXIS_NUMA), 1, buf, sizeof(buf));
	assert_string_equal(buf, "remote memory");
	snprintf(c.numa, sizeof(c.numa), "node:1");
	tcell_row_words_omit(&c, ~(1u << TAXIS_NUMA), 1, buf, sizeof(buf));
	assert_string_equal(buf, "memory on node 1");
	snprintf(c.numa, sizeof(c.numa), "none");
	tcell_row_words_omit(&c, ~(1u << TAXIS_NUMA), 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	tcell_row_words_omit(&c, ~(1u << TAXIS_NUMA), 0, buf, sizeof(buf));
	assert_string_equal(buf, "memory where first touched");
}

/* How a page links into another tree: relative, through the real directories. */
static void test_rel_path(void **state)
{
	char dir[] = "/tmp/latlab-rel-XXXXXX", p[PATH_MAX], q[PATH_MAX], buf[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(q, sizeof(q), "%s/a", dir);
	assert_int_equal(mkdir(q, 0700), 0);
	snprintf(p, sizeof(p), "%s/a/cmp", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(q, sizeof(q), "%s/b", dir);
	assert_int_equal(mkdir(q, 0700), 0);
	snprintf(q, sizeof(q), "%s/b/report", dir);
	assert_int_equal(mkdir(q, 0700), 0);
	/* from a/cmp to b/report: up two, down two */
	assert_int_equal(html_rel_path(p, q, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../../b/report");
	/* to a directory below, to the one above, to itself */
	snprintf(q, sizeof(q), "%s/a", dir);
	assert_int_equal(html_rel_path(q, p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "cmp");
	assert_int_equal(html_rel_path(p, q, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "..");
	assert_int_equal(html_rel_path(p, p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, ".");
	/* a name that shares a prefix is not a parent: a/cmp to a/cmpx */
	snprintf(q, sizeof(q), "%s/a/cmpx", dir);
	assert_int_equal(mkdir(q, 0700), 0);
	assert_int_equal(html_rel_path(p, q, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../cmpx");
	/* what is not there has no path */
	snprintf(q, sizeof(q), "%s/nothing", dir);
	assert_int_equal(html_rel_path(p, q, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(fakefs_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders_and_counts),
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_vouched),
		cmocka_unit_test(test_side_group),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_colors),
		cmocka_unit_test(test_row_words),
		cmocka_unit_test(test_rel_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
