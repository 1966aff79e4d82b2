/*
 * Every kind of cell either applies or refuses every axis that changes
 * the machine (issue 76): walked kind by kind, axis by axis, each axis
 * set to each of its words that is not its as_is, from the tables
 * themselves — a new kind or a new hooked axis is walked with no change
 * here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "axis_ops.h"
#include "cell_kind.h"
#include "config.h"
#include "matrix.h"

/* A config of workload `type` with [matrix] key = word (word NULL: none). */
static struct config *load(const char *type, const char *key, const char *word)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	char wtype[64], wmethod[64], set[96], err[512];
	const char *sets[5] = { "matrix.workload=w", wtype };
	int n = 2;

	assert_non_null(cfg);
	snprintf(wtype, sizeof(wtype), "workload.w.type=%s", type);
	if (strcmp(type, "watch") == 0) {	/* one of command, pid and comm */
		snprintf(wmethod, sizeof(wmethod), "workload.w.pid=1");
		sets[n++] = wmethod;
	}
	if (word) {
		snprintf(set, sizeof(set), "matrix.%s=%s", key, word);
		sets[n++] = set;
	}
	if (config_load(cfg, NULL, sets, n, err, sizeof(err)))
		fail_msg("config_load (%s, %s = %s): %s", type, key, word ? word : "-", err);
	return cfg;
}

/* The registered workload whose kind is k: its type. */
static const char *type_of(enum workload_kind k)
{
	for (int i = 0; workload_registry[i]; i++)
		if (workload_registry[i]->kind == k)
			return workload_registry[i]->name;
	return NULL;
}

static void kinds_by_axes(void **state)
{
	int walked = 0, refused = 0;

	(void)state;
	for (int k = 0; k < WORKLOAD_KINDS; k++) {
		const struct cell_kind *kind = cell_kind_at((enum workload_kind)k);
		const char *type = type_of((enum workload_kind)k);

		assert_non_null(kind->name);
		assert_non_null(kind->run);
		assert_non_null(type);	/* every kind is some workload's */
		for (int a = 0; a < TAXIS_COUNT; a++) {
			const struct opt_word *w = axis_defs[a].values;

			if (!axis_hooks[a])
				continue;
			assert_non_null(w);	/* a hooked axis takes words */
			for (; w->word; w++) {
				if (w->max || w->value == axis_hooks[a]->as_is)
					continue;	/* a numbered word ("node:N") or as it is */
				struct config *cfg = load(type, taxis_name(a), w->word);
				struct cell *cells;
				char why[512] = "", want[512];

				assert_true(matrix_expand(cfg, &cells) >= 1);
				int r = cell_kind_refuses(kind, cfg, &cells[0], why, sizeof(why));

				if (kind->machine_axes) {	/* applied: cell_machine_begin's */
					assert_int_equal(r, -1);
					assert_string_equal(why, "");
				} else {
					snprintf(want, sizeof(want), "%s = %s: latlab does that for its own threads, not for %s (workload w, type = %s)",
						 taxis_name(a), w->word, kind->whose, type);
					assert_int_equal(r, a);
					assert_string_equal(why, want);
					refused++;
				}
				walked++;
				free(cells);
				config_free(cfg);
				free(cfg);
			}
		}
		/* the axes at their as_is: nothing to refuse */
		struct config *cfg = load(type, NULL, NULL);
		struct cell *cells;
		char why[512] = "";

		assert_true(matrix_expand(cfg, &cells) >= 1);
		assert_int_equal(cell_kind_refuses(kind, cfg, &cells[0], why, sizeof(why)), -1);
		free(cells);
		config_free(cfg);
		free(cfg);
	}
	/* isolation's two, idle's poll, numa's three, throttle's off: three kinds, two refusing */
	assert_true(walked >= 3 * 4);
	assert_true(refused >= 2 * 4);
}

/* A kind's workloads: threads run() each period; the others have none. */
static void kinds_of_workloads(void **state)
{
	(void)state;
	for (int i = 0; workload_registry[i]; i++) {
		const struct workload_ops *ops = workload_registry[i];
		const struct cell_kind *kind = cell_kind_of(ops);

		assert_ptr_equal(kind, cell_kind_at(ops->kind));
		assert_int_equal(ops->run != NULL, ops->kind == WORKLOAD_THREADS);
	}
	assert_string_equal(cell_kind_of(workload_find("cyclictest"))->name, "cyclictest");
	assert_string_equal(cell_kind_of(workload_find("watch"))->name, "watch");
	assert_string_equal(cell_kind_of(workload_find("timer"))->name, "threads");
}

/*
 * Every hook that changes the machine says when (a phase the cell runs:
 * cell_machine.c), names what it did in cell.ini, and takes words; a
 * check alone (numa, isolation's) has no phase to say.
 */
static void hooks_have_phases(void **state)
{
	int begins = 0;

	(void)state;
	for (int a = 0; a < TAXIS_COUNT; a++) {
		const struct axis_ops *ops = axis_hooks[a];

		if (!ops)
			continue;
		assert_non_null(axis_defs[a].values);
		if (!ops->begin) {
			assert_int_equal(ops->phase, 0);
			continue;
		}
		assert_true(ops->phase >= AXIS_BEFORE_ISOLATION && ops->phase <= AXIS_AFTER_LOAD);
		assert_non_null(ops->done_key);
		begins++;
	}
	assert_true(begins >= 2);	/* idle, throttle */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kinds_by_axes),
		cmocka_unit_test(kinds_of_workloads),
		cmocka_unit_test(hooks_have_phases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
