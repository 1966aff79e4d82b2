/*
 * Where a cell runs and whether it fits: config_load reads no machine
 * state, so a config for a bigger machine loads; where_fits names what
 * this one lacks, with file:line.
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
#include <unistd.h>

#include "config.h"
#include "cpulist.h"
#include "matrix.h"
#include "where.h"
#include "fakefs.h"

static struct config *load(const char *const *sets, int n)
{
	struct config *cfg = malloc(sizeof(*cfg));
	char err[512];

	assert_non_null(cfg);
	if (config_load(cfg, NULL, sets, n, err, sizeof(err)))
		fail_msg("config_load: %s", err);
	return cfg;
}

struct fit_case {
	const char *sets[4];
	int cell;		/* the cell checked */
	const char *want;	/* substring of why; NULL: it fits */
};

/* A CPU one past the last online one: on any machine, not there. */
static int first_offline(void)
{
	cpu_set_t on;
	int last = 0;

	cpulist_online(&on);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &on))
			last = c;
	return last + 1;
}

static void test_fits(void **state)
{
	char off[16], aff[64], load_cpus[64], want_aff[256], want_load[256];
	int cpu = first_offline();

	(void)state;
	snprintf(off, sizeof(off), "%d", cpu);
	snprintf(aff, sizeof(aff), "matrix.affinity=spread,%s", off);
	snprintf(load_cpus, sizeof(load_cpus), "load.hb.cpus=0-%s", off);
	snprintf(want_aff, sizeof(want_aff), "--set:1: affinity '%s': CPU %s is not online (online: ", off, off);
	snprintf(want_load, sizeof(want_load), "--set:3: [load.hb] cpus = '0-%s': CPU %s is not online", off, off);
	const struct fit_case cases[] = {
		{ { aff }, 0, NULL },
		{ { aff }, 1, want_aff },
		{ { "matrix.load=hb", "load.hb.type=cpu", load_cpus }, 0, want_load },
		{ { "matrix.load=hb", "load.hb.type=cpu", "load.hb.cpus=0" }, 0, NULL },
		/* a qemu variant's guest has its cpus = CPUs, whatever the host has */
		{ { "matrix.kernel=vm", "kernel.vm.runner=qemu", "kernel.vm.image=/x",
		    "matrix.affinity=3" }, 0, "affinity '3': CPU 3 is not online in the guest (online: 0-1)" },
		{ { "matrix.kernel=vm", "kernel.vm.runner=qemu", "kernel.vm.image=/x",
		    "kernel.vm.cpus=4" }, 0, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = 0;

		while (n < 4 && cases[i].sets[n])
			n++;
		struct config *cfg = load(cases[i].sets, n);
		struct cell *cells;
		char why[512] = "";

		assert_true(matrix_expand(cfg, &cells) > cases[i].cell);
		int rc = where_fits(cfg, &cells[cases[i].cell], 0, why, sizeof(why));
		if (!cases[i].want && rc != 0)
			fail_msg("case %zu: %s", i, why);
		if (cases[i].want && (rc != -ENODEV || !strstr(why, cases[i].want)))
			fail_msg("case %zu: rc %d '%s', want '%s'", i, rc, why, cases[i].want);
		free(cells);
		config_free(cfg);
		free(cfg);
	}
}

/* run's preflight: the first misfit, and a qemu image that cannot be read. */
static void test_preflight(void **state)
{
	const char *sets[] = { "matrix.kernel=vm", "kernel.vm.runner=qemu",
			       "kernel.vm.image=/nonexistent/bzImage" };
	struct config *cfg = load(sets, 3);
	struct cell *cells;
	char why[1024];
	int n = matrix_expand(cfg, &cells);

	(void)state;
	assert_int_equal(where_preflight(cfg, cells, n, 0, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "[kernel.vm] image = /nonexistent/bzImage: No such file"));
	/* inside the guest the image is not the question */
	assert_int_equal(where_preflight(cfg, cells, n, 1, why, sizeof(why)), 0);
	free(cells);
	config_free(cfg);
	free(cfg);
}

/* One answer to "where does this variant's cell run". */
static void test_runs(void **state)
{
	const char *sets[] = { "matrix.kernel=stock,rt,vm", "kernel.vm.runner=qemu",
			       "kernel.vm.image=/x" };
	struct config *cfg = load(sets, 3);
	struct kernel_info stock = { .release = "6.1.0", .model = "full" };
	struct kernel_info rt = { .release = "6.1.0-rt", .model = "rt" };
	struct cell *cells;

	(void)state;
	assert_int_equal(matrix_expand(cfg, &cells), 3);
	assert_int_equal(where_runs(cfg, &cells[0], &stock), WHERE_HERE);
	assert_int_equal(where_runs(cfg, &cells[1], &stock), WHERE_OTHER);
	assert_int_equal(where_runs(cfg, &cells[1], &rt), WHERE_HERE);
	assert_int_equal(where_runs(cfg, &cells[0], &rt), WHERE_OTHER);
	assert_int_equal(where_runs(cfg, &cells[2], &rt), WHERE_QEMU);
	assert_string_equal(where_name(WHERE_OTHER), "pending (other kernel)");
	assert_string_equal(where_name(WHERE_CONTAINER), "container");
	free(cells);
	config_free(cfg);
	free(cfg);
}

/* where_smt on a scratch /sys: CPUs 0 and 1 one core's two threads, or two cores */
static const char *smt_case(const char *root, const char *const *sets, int n, char *why, size_t len)
{
	struct config *cfg = load(sets, n);
	struct cell *cells;
	int cells_n = matrix_expand(cfg, &cells), found;

	assert_true(cells_n >= 1);
	why[0] = '\0';
	found = where_smt(cfg, &cells[0], root, why, len);
	free(cells);
	config_free(cfg);
	free(cfg);
	return found ? why : NULL;
}

static void test_smt(void **state)
{
	char root[64], why[1024];
	const char *w;
	cpu_set_t usable;

	(void)state;
	cpulist_usable(&usable);
	if (!CPU_ISSET(0, &usable) || !CPU_ISSET(1, &usable))
		skip();		/* needs CPUs 0 and 1 to place threads on */
	fakefs_make(root, sizeof(root), "latlab-test-smt");
	fakefs_put(root, "sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1");
	fakefs_put(root, "sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-1");
	{
		/* the measured CPU 1's sibling runs the load */
		const char *sets[] = { "matrix.threads=1", "matrix.affinity=1", "matrix.load=hb",
				       "load.hb.type=cpu" };
		w = smt_case(root, sets, 4, why, sizeof(why));
		assert_non_null(w);
		assert_non_null(strstr(w, ": its measured CPU 1 shares a core with CPU 0 (SMT siblings), which it does not measure: the load hb runs there"));
	}
	{
		/* a load kept to CPU 1 leaves the sibling to housekeeping, said */
		const char *sets[] = { "matrix.threads=1", "matrix.affinity=1", "matrix.load=hb",
				       "load.hb.type=cpu", "load.hb.cpus=1", "campaign.housekeeping=0" };
		w = smt_case(root, sets, 6, why, sizeof(why));
		assert_non_null(w);
		assert_non_null(strstr(w, "CPU 0 (SMT siblings), which it does not measure: latlab's housekeeping runs there (housekeeping = 0)"));
	}
	{
		const char *sets[] = { "matrix.threads=1", "matrix.affinity=1", "matrix.load=none" };
		w = smt_case(root, sets, 3, why, sizeof(why));
		assert_non_null(w);
		assert_non_null(strstr(w, "latlab puts nothing of its own there"));
	}
	{
		/* both siblings measured, or threads not pinned: nothing to say */
		const char *both[] = { "matrix.threads=2", "matrix.affinity=0-1", "matrix.load=none" };
		const char *all[] = { "matrix.threads=1", "matrix.affinity=all", "matrix.load=none" };

		assert_null(smt_case(root, both, 3, why, sizeof(why)));
		assert_null(smt_case(root, all, 3, why, sizeof(why)));
	}
	/* two cores: no sibling */
	fakefs_put(root, "sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0");
	fakefs_put(root, "sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1");
	{
		const char *sets[] = { "matrix.threads=1", "matrix.affinity=1", "matrix.load=hb",
				       "load.hb.type=cpu" };
		assert_null(smt_case(root, sets, 4, why, sizeof(why)));
	}
	fakefs_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_preflight),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_smt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
