/* Matrix expansion: order, ids, counts; thread placement. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "cpulist.h"
#include "matrix.h"
#include "place.h"

static struct config *load(const char *const *sets, int n)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];

	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, n, err, sizeof(err)))
		fail_msg("%s", err);
	return cfg;
}

static void release(struct config *cfg)
{
	config_free(cfg);
	free(cfg);
}

static void test_single_cell(void **state)
{
	struct config *cfg = load(NULL, 0);
	struct cell *cells;

	(void)state;
	assert_int_equal(matrix_expand(cfg, &cells), 1);
	assert_string_equal(cells[0].id, "0000-none-timer-t1-aspread-1");
	assert_int_equal(cells[0].interval, 1000000);
	free(cells);
	release(cfg);
}

/* The product, in the documented order, with stable readable ids. */
static void test_product_and_ids(void **state)
{
	const char *sets[] = {
		"matrix.workload=timer,null",
		"matrix.threads=1,all",
		"matrix.affinity=spread,0-1+3",
		"matrix.interval=500us,1ms",
		"campaign.repeat=2",
	};
	static const char *const want[] = {
		"0000-none-timer-t1-aspread-i500us-1",
		"0001-none-timer-t1-aspread-i500us-2",
		"0002-none-timer-t1-aspread-i1ms-1",
		"0003-none-timer-t1-aspread-i1ms-2",
		"0004-none-timer-t1-a0_1.3-i500us-1",
	};
	struct cell *cells;
	struct config *cfg;

	(void)state;
	/* 0-1+3 is not online on a 2-CPU machine: use only spread there */
	cpu_set_t online;
	cpulist_online(&online);
	if (!CPU_ISSET(3, &online))
		sets[2] = "matrix.affinity=spread,0";
	cfg = load(sets, 5);
	int n = matrix_expand(cfg, &cells);
	assert_int_equal(n, 2 * 2 * 2 * 2 * 2);
	for (int i = 0; i < 4; i++)
		assert_string_equal(cells[i].id, want[i]);
	assert_string_equal(cells[4].id, CPU_ISSET(3, &online) ? want[4]
			    : "0004-none-timer-t1-a0-i500us-1");
	assert_string_equal(cells[8].id, "0008-none-timer-tall-aspread-i500us-1");
	assert_string_equal(cells[16].id, "0016-none-null-t1-aspread-i500us-1");
	assert_int_equal(cells[8].threads, AXIS_ALL);
	/* ids are unique */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			assert_string_not_equal(cells[i].id, cells[j].id);
	/* and the same config gives the same plan */
	struct cell *again;
	assert_int_equal(matrix_expand(cfg, &again), n);
	assert_memory_equal(cells, again, sizeof(*cells) * (size_t)n);
	free(again);
	free(cells);
	release(cfg);
}

/*
 * A tree extended with more repeats keeps every id it had: its first
 * runs as they were numbered, each later run after all of them, the same
 * however many extensions follow; no two cells share a number.
 */
static void test_extended_ids(void **state)
{
	const char *first[] = { "matrix.interval=500us,1ms,2ms", "campaign.repeat=2" };
	const char *more[] = { "matrix.interval=500us,1ms,2ms", "campaign.repeat=4",
			       "campaign.repeat_first=2" };
	const char *most[] = { "matrix.interval=500us,1ms,2ms", "campaign.repeat=7",
			       "campaign.repeat_first=2" };
	struct config *a = load(first, 2), *b = load(more, 3), *c = load(most, 3);
	struct cell *ca, *cb, *cc;
	int na = matrix_expand(a, &ca), nb = matrix_expand(b, &cb), nc = matrix_expand(c, &cc);

	(void)state;
	assert_int_equal(na, 6);
	assert_int_equal(nb, 12);
	assert_int_equal(nc, 21);
	/* every id of the first tree is in the extended one, unchanged */
	for (int i = 0; i < na; i++) {
		int found = 0;

		for (int j = 0; j < nb; j++)
			found += strcmp(ca[i].id, cb[j].id) == 0;
		assert_int_equal(found, 1);
	}
	/* every id of the first extension is in the second */
	for (int i = 0; i < nb; i++) {
		int found = 0;

		for (int j = 0; j < nc; j++)
			found += strcmp(cb[i].id, cc[j].id) == 0;
		assert_int_equal(found, 1);
	}
	/* numbers unique and dense: 0 .. n-1 */
	unsigned char seen[21] = { 0 };

	for (int j = 0; j < nc; j++) {
		assert_true(cc[j].index >= 0 && cc[j].index < nc);
		assert_int_equal(seen[cc[j].index]++, 0);
	}
	/* run 3 of the first interval comes after every first run */
	for (int j = 0; j < nb; j++)
		if (cb[j].repeat == 3 && cb[j].interval == 500000)
			assert_string_equal(cb[j].id, "0006-none-timer-t1-aspread-i500us-3");
	free(ca);
	free(cb);
	free(cc);
	release(a);
	release(b);
	release(c);
	/* a tree is only ever extended: repeat_first above repeat is refused */
	const char *bad[] = { "campaign.repeat=2", "campaign.repeat_first=3" };
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];

	assert_non_null(cfg);
	assert_int_not_equal(config_load(cfg, NULL, bad, 2, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "repeat_first = 3 is above repeat = 2"));
	config_free(cfg);
	free(cfg);
}

static void test_kernel_in_id(void **state)
{
	const char *sets[] = { "matrix.kernel=stock,rt" };
	struct config *cfg = load(sets, 1);
	struct cell *cells;

	(void)state;
	assert_int_equal(matrix_expand(cfg, &cells), 2);
	assert_string_equal(cells[0].id, "0000-stock-none-timer-t1-aspread-1");
	assert_string_equal(cells[1].id, "0001-rt-none-timer-t1-aspread-1");
	free(cells);
	release(cfg);
}

/* Too many cells is a config error with the count, not a failed expansion. */
static void test_too_many_cells(void **state)
{
	const char *sets[] = { "matrix.priority=1-60", "matrix.threads=1-50",
			       "campaign.repeat=40" };
	struct config *cfg = malloc(sizeof(*cfg));
	struct cell *cells = NULL;
	char err[512];

	(void)state;
	assert_non_null(cfg);
	assert_int_not_equal(config_load(cfg, NULL, sets, 3, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "--set:1: the matrix has 120000 cells"));
	assert_non_null(strstr(err, "at most 100000"));
	/* and the expansion still refuses, whatever built the config */
	cfg->campaign.repeat = 40;
	cfg->matrix.priority.n = 60;
	cfg->matrix.threads.n = 50;
	assert_int_equal(matrix_expand(cfg, &cells), -E2BIG);
	release(cfg);
}

static void test_placement(void **state)
{
	static int cpus[CPU_SETSIZE];
	cpu_set_t online, mask;
	int ncpu;

	(void)state;
	cpulist_online(&online);
	ncpu = CPU_COUNT(&online);
	static const struct {
		const char *threads, *affinity;
		int want_n;		/* -1: ncpu */
		int want_cpu0, want_cpu1;	/* -2: don't care */
	} cases[] = {
		{ "1", "spread", 1, 0, -2 },
		{ "all", "spread", -1, 0, 1 },
		{ "2", "0", 2, 0, 0 },		/* two threads share CPU 0 */
		{ "3", "all", 3, -1, -1 },	/* unpinned */
		{ "all", "0", 1, 0, -2 },	/* one per CPU of the affinity */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char t[64], a[64];
		const char *sets[] = { t, a };

		snprintf(t, sizeof(t), "matrix.threads=%s", cases[i].threads);
		snprintf(a, sizeof(a), "matrix.affinity=%s", cases[i].affinity);
		struct config *cfg = load(sets, 2);
		struct cell *cells;
		assert_int_equal(matrix_expand(cfg, &cells), 1);
		int n = place_threads(cfg, &cells[0], cpus, &mask);
		int want = cases[i].want_n < 0 ? ncpu : cases[i].want_n;
		assert_int_equal(n, want);
		assert_int_equal(cpus[0], cases[i].want_cpu0);
		if (n > 1 && cases[i].want_cpu1 != -2 &&
		    !(cases[i].want_cpu1 == 1 && ncpu < 2))
			assert_int_equal(cpus[1], cases[i].want_cpu1);
		free(cells);
		release(cfg);
	}
}

/* The run order: rounds, a seeded shuffle of each, or the matrix's. */
static void test_run_order(void **state)
{
	const char *sets[] = {
		"matrix.workload=timer,null,sysfs-read", "campaign.repeat=3",
		"campaign.order=interleaved",
	};
	struct config *cfg = load(sets, 3);
	struct cell *cells;
	int n, order[9], again[9], seen[9] = { 0 };

	(void)state;
	n = matrix_expand(cfg, &cells);
	assert_int_equal(n, 9);
	/* interleaved: every cell's repeat 1, then 2, then 3, each round in the matrix's order */
	matrix_run_order(cfg, cells, n, order);
	for (int k = 0; k < n; k++) {
		assert_int_equal(cells[order[k]].repeat, k / 3 + 1);
		assert_int_equal(cells[order[k]].workload, cells[k % 3 * 3].workload);
	}
	release(cfg);
	/* blocked: the matrix's order */
	sets[2] = "campaign.order=blocked";
	cfg = load(sets, 3);
	matrix_run_order(cfg, cells, n, order);
	for (int k = 0; k < n; k++)
		assert_int_equal(order[k], k);
	release(cfg);
	/* shuffled: rounds still, each a permutation of its cells; the same seed the same order */
	const char *shuf[] = { sets[0], sets[1], "campaign.order=shuffled", "campaign.seed=7" };
	int differs = 0;

	cfg = load(shuf, 4);
	matrix_run_order(cfg, cells, n, order);
	matrix_run_order(cfg, cells, n, again);
	assert_memory_equal(order, again, sizeof(order));
	for (int k = 0; k < n; k++) {
		assert_int_equal(cells[order[k]].repeat, k / 3 + 1);
		seen[order[k]]++;
		differs |= order[k] != k / 3 + (k % 3) * 3;
	}
	for (int i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	release(cfg);
	/* another seed: another order (for these two, checked); none set: from the config */
	shuf[3] = "campaign.seed=8";
	cfg = load(shuf, 4);
	matrix_run_order(cfg, cells, n, again);
	assert_true(differs || memcmp(order, again, sizeof(order)) != 0);
	assert_true(memcmp(order, again, sizeof(order)) != 0);
	release(cfg);
	cfg = load(shuf, 3);
	assert_int_not_equal(matrix_order_seed(cfg), 0);
	release(cfg);
	free(cells);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_cell),
		cmocka_unit_test(test_run_order),
		cmocka_unit_test(test_product_and_ids),
		cmocka_unit_test(test_extended_ids),
		cmocka_unit_test(test_kernel_in_id),
		cmocka_unit_test(test_too_many_cells),
		cmocka_unit_test(test_placement),
	};

	return cmocka_run_group_tests_name("matrix", tests, NULL, NULL);
}
