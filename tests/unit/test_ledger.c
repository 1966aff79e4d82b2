/*
 * The ledger round trip: state and cells.csv written by the campaign,
 * read back by the resume reader (prior.c) and by the tree reader — the
 * same statuses, rows, reasons, reboot intent and config hash.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "config.h"
#include "ledger.h"
#include "matrix.h"
#include "model.h"
#include "prior.h"
#include "atomic.h"
#include "tree.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/latlab-ledger-%d", (int)getpid());
	return mkdir_p(dir);
}

static int teardown(void **state)
{
	(void)state;
	return fakefs_remove(dir);
}

static void test_roundtrip(void **state)
{
	const char *sets[] = { "matrix.kernel=stock,rt", "matrix.workload=timer,null",
			       "campaign.name=rt", "kernel.rt.match=preempt:rt" };
	static const enum cell_status want[] = { CELL_OK, CELL_SKIPPED, CELL_PENDING,
						 CELL_FAIL };
	static const char *const why[] = { "", "no such device, \"quoted\"", "",
					   "max 2ms > 1ms" };
	struct config *cfg = malloc(sizeof(*cfg));
	struct ledger lg;
	struct prior p;
	struct tree t;
	struct cell *cells;
	char err[PATH_MAX + 512];

	(void)state;
	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, 4, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(matrix_expand(cfg, &cells), 4);
	assert_int_equal(ledger_init(&lg, cfg, cells, 4), 0);
	for (int i = 0; i < 4; i++) {
		struct cell_result res = { .status = want[i] };

		snprintf(res.reason, sizeof(res.reason), "%s", why[i]);
		/* settled twice, as a cell that ran and then ended: the second replaces the first */
		ledger_settle(&lg, i, CELL_RUNNING, "an earlier reason", strdup("an earlier row\n"));
		ledger_settle(&lg, i, want[i], why[i],
			      /* not measured (no threads): one row each, statistics empty */
			      ledger_rows(cfg, &cells[i], want[i], &res, "host", "6.1.0", SCHED_FIFO));
		assert_int_equal(lg.status[i], want[i]);
		assert_string_equal(lg.reason[i], why[i]);
		assert_non_null(lg.rows[i]);
		assert_null(strstr(lg.rows[i], "an earlier row"));
	}
	snprintf(lg.reboot_to, sizeof(lg.reboot_to), "rt");
	lg.boot_tries[config_kernel_index(cfg, "rt")] = 2;
	assert_int_equal(ledger_write(&lg, dir), 0);

	assert_int_equal(prior_read(dir, &p, err, sizeof(err)), 0);
	assert_int_equal(p.hash, config_hash(cfg));
	assert_string_equal(p.reboot_to, "rt");
	assert_int_equal(p.nboots, 1);
	assert_string_equal(p.boot[0].variant, "rt");
	assert_int_equal(p.boot[0].tries, 2);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(prior_status(&p, cells[i].id), want[i]);
		assert_string_equal(prior_reason(&p, cells[i].id), why[i]);
		char *rows = prior_rows(&p, cells[i].id);
		assert_non_null(rows);
		assert_string_equal(rows, lg.rows[i]);
		free(rows);
	}
	assert_int_equal(prior_status(&p, "no-such-cell"), CELL_PENDING);
	prior_free(&p);

	/* the tree reader takes the same cells.csv; nothing was measured */
	assert_int_equal(tree_read(&t, dir, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.nbad, 0);
	assert_string_equal(t.cell[1].reason, why[1]);
	assert_string_equal(t.cell[3].status, "fail");
	tree_free(&t);

	ledger_free(&lg);
	free(cells);
	config_free(cfg);
	free(cfg);
}

/*
 * Changes are appended to the state (a cell's last line wins) and the
 * whole files come back after LEDGER_EVERY_NS; either way the resume
 * reader sees the last status.
 */
static void test_appended(void **state)
{
	const char *sets[] = { "matrix.workload=timer,null", "campaign.name=ap" };
	struct config *cfg = malloc(sizeof(*cfg));
	char err[PATH_MAX + 512], path[PATH_MAX], line[PATH_MAX + 16];
	struct ledger lg;
	struct prior p;
	struct cell *cells;
	int lines = 0;

	(void)state;
	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, 2, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(matrix_expand(cfg, &cells), 2);
	assert_int_equal(ledger_init(&lg, cfg, cells, 2), 0);
	snprintf(path, sizeof(path), "%s/ap", dir);
	assert_int_equal(mkdir_p(path), 0);
	assert_int_equal(ledger_write(&lg, path), 0);
	lg.status[0] = CELL_RUNNING;
	assert_int_equal(ledger_mark(&lg, path, 0), 0);
	lg.status[0] = CELL_OK;
	assert_int_equal(ledger_progress(&lg, path, 0), 0);
	assert_int_equal(lg.appended, 2);	/* not yet: 10 s have not passed */
	assert_int_equal(prior_read(path, &p, err, sizeof(err)), 0);
	assert_int_equal(prior_status(&p, cells[0].id), CELL_OK);
	assert_int_equal(prior_status(&p, cells[1].id), CELL_PENDING);
	prior_free(&p);
	lg.status[1] = CELL_FAIL;
	lg.written_ns -= LEDGER_EVERY_NS;	/* as if 10 s had passed */
	assert_int_equal(ledger_progress(&lg, path, 1), 0);
	assert_int_equal(lg.appended, 0);	/* rewritten whole */
	snprintf(line, sizeof(line), "%s/state", path);
	FILE *fp = fopen(line, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		lines += strstr(line, "-aspread-1 = ") != NULL;
	fclose(fp);
	assert_int_equal(lines, 2);	/* one line per cell again */
	assert_int_equal(prior_read(path, &p, err, sizeof(err)), 0);
	assert_int_equal(prior_status(&p, cells[0].id), CELL_OK);
	assert_int_equal(prior_status(&p, cells[1].id), CELL_FAIL);
	prior_free(&p);
	ledger_free(&lg);
	free(cells);
	config_free(cfg);
	free(cfg);
}

/* A state that is not latlab's is refused, not taken for an empty run. */
static void test_not_a_state(void **state)
{
	char path[PATH_MAX], err[PATH_MAX + 512];
	struct prior p;
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/other", dir);
	assert_int_equal(mkdir_p(path), 0);
	assert_int_equal(prior_read(path, &p, err, sizeof(err)), -ENOENT);
	snprintf(path, sizeof(path), "%s/other/state", dir);
	fp = fopen(path, "w");
	fputs("cells = 3\n0000-x = ok\n", fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/other", dir);
	assert_int_equal(prior_read(path, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a latlab state file"));
}

/* path/name holding text. */
static void put(const char *path, const char *name, const char *text)
{
	char file[PATH_MAX + 64];
	FILE *fp;

	snprintf(file, sizeof(file), "%s/%s", path, name);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/*
 * The indexed lookups resume uses (sorted, O(log n) each): a cell's later
 * state line wins, ids absent are pending, a cell's rows come back in
 * file order wherever they stand, and its first row says where it ran.
 */
static void test_lookups(void **state)
{
	char path[PATH_MAX], err[PATH_MAX + 512];
	const char *st, *host, *rel;
	struct prior p;
	char *rows;

	(void)state;
	snprintf(path, sizeof(path), "%s/look", dir);
	assert_int_equal(mkdir_p(path), 0);
	put(path, "state", "config_hash = 1\ncells = 3\n0002-c = ok\n0000-a = running\n"
	    "0001-b = fail\n0000-a = ok\n0002-c = error\n");
	put(path, "cells.csv", "cell,status,host,kernel_release,reason\n"
	    "0001-b,fail,h,r,too slow\n0000-a,ok,h,r,\n0002-c,error,h2,r2,x\n"
	    "0000-a,ok,h,r,second\n");
	assert_int_equal(prior_read(path, &p, err, sizeof(err)), 0);
	assert_int_equal(prior_status(&p, "0000-a"), CELL_OK);
	assert_int_equal(prior_status(&p, "0001-b"), CELL_FAIL);
	assert_int_equal(prior_status(&p, "0002-c"), CELL_ERROR);
	assert_int_equal(prior_status(&p, "0003-d"), CELL_PENDING);
	rows = prior_rows(&p, "0000-a");
	/* as cells.csv has its columns now: each by name, "" where the file had none */
	char want[4096] = "", names[CELLS_HEAD_MAX + sizeof(SUMMARY_COLUMNS)];
	const char *const second[] = { "", "second" };

	cells_head_columns(names, CELLS_HEAD_MAX);
	strcat(names, SUMMARY_COLUMNS);
	for (int line = 0; line < 2; line++) {
		char copy[sizeof(names)];
		int first = 1;

		memcpy(copy, names, sizeof(names));
		for (char *n = strtok(copy, ","); n; n = strtok(NULL, ",")) {
			const char *v = !strcmp(n, "cell") ? "0000-a" : !strcmp(n, "status") ? "ok" :
					!strcmp(n, "host") ? "h" : !strcmp(n, "kernel_release") ? "r" :
					!strcmp(n, "reason") ? second[line] : "";

			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
				 first ? "" : ",", v);
			first = 0;
		}
		strcat(want, "\n");
	}
	assert_string_equal(rows, want);
	free(rows);
	assert_null(prior_rows(&p, "0003-d"));
	assert_int_equal(prior_where(&p, "0002-c", &st, &host, &rel), 0);
	assert_string_equal(host, "h2");
	assert_string_equal(rel, "r2");
	assert_int_equal(prior_where(&p, "0003-d", &st, &host, &rel), -ENOENT);
	assert_string_equal(prior_reason(&p, "0001-b"), "too slow");
	assert_string_equal(prior_reason(&p, "0003-d"), "");
	prior_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_appended),
		cmocka_unit_test(test_not_a_state),
		cmocka_unit_test(test_lookups),
	};

	return cmocka_run_group_tests_name("ledger", tests, setup, teardown);
}
