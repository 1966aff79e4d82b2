/* The workload registry and the built-in workloads' option handling. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"
#include "workload.h"

static int64_t ok_run(struct workload_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void test_registry_valid(void **state)
{
	(void)state;
	assert_int_equal(workload_registry_check(workload_registry), 0);
	assert_non_null(workload_find("timer"));
	assert_non_null(workload_find("null"));
	assert_null(workload_find("nosuch"));
	for (int i = 0; workload_registry[i]; i++)
		assert_non_null(workload_registry[i]->help);
}

/* Start-up refuses a descriptor without run(), a name, or a unique name. */
static void test_registry_rejects(void **state)
{
	static const struct workload_ops no_run = { .name = "x" };
	static const struct workload_ops no_name = { .run = ok_run };
	static const struct workload_ops a = { .name = "a", .run = ok_run };
	static const struct workload_ops a2 = { .name = "a", .run = ok_run };
	const struct workload_ops *bad1[] = { &a, &no_run, NULL };
	const struct workload_ops *bad2[] = { &no_name, NULL };
	const struct workload_ops *bad3[] = { &a, &a2, NULL };
	const struct workload_ops *good[] = { &a, NULL };

	(void)state;
	assert_int_equal(workload_registry_check(bad1), -EINVAL);
	assert_int_equal(workload_registry_check(bad2), -EINVAL);
	assert_int_equal(workload_registry_check(bad3), -EINVAL);
	assert_int_equal(workload_registry_check(good), 0);
}

/* null: setup/run/teardown, and fail_every makes every n-th cycle EIO. */
static void test_null_fail_every(void **state)
{
	const struct workload_ops *w = workload_find("null");
	void *opts = calloc(1, w->opts_size);
	struct workload_ctx ctx = { 0 };
	char err[128];
	int fails = 0;

	(void)state;
	opt_defaults(w->options, opts);
	assert_int_equal(opt_parse(opt_find(w->options, "fail_every"), opts,
				   "3", err, sizeof(err)), 0);
	/* a rejected value leaves the option as it was */
	assert_int_not_equal(opt_parse(opt_find(w->options, "fail_every"), opts,
				       "-1", err, sizeof(err)), 0);
	assert_int_equal(*(int64_t *)opts, 3);
	ctx.opts = opts;
	assert_int_equal(w->setup(&ctx), 0);
	for (int i = 1; i <= 9; i++) {
		int64_t rc = w->run(&ctx);

		if (rc < 0) {
			assert_int_equal(rc, -EIO);
			assert_int_equal(i % 3, 0);
			fails++;
		}
	}
	assert_int_equal(fails, 3);
	w->teardown(&ctx);
	assert_null(ctx.priv);
	free(opts);
}

static void test_timer_has_no_io(void **state)
{
	const struct workload_ops *w = workload_find("timer");
	struct workload_ctx ctx = { 0 };

	(void)state;
	assert_null(w->setup);
	assert_int_equal(w->run(&ctx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_valid),
		cmocka_unit_test(test_registry_rejects),
		cmocka_unit_test(test_null_fail_every),
		cmocka_unit_test(test_timer_has_no_io),
	};

	return cmocka_run_group_tests_name("workloads", tests, NULL, NULL);
}
