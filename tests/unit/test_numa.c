/*
 * measure/numa_place.c: what [matrix] numa means for a thread on a CPU, read
 * from a sysfs made for the test (two and three nodes, with distances),
 * and where a buffer's pages are, asked of this machine's kernel.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "fakefs.h"
#include "numa_place.h"
#include "options.h"

static char root[] = "/tmp/latlab-numa-XXXXXX";

/* node n: its CPUs and its distance row */
static void node(int n, const char *cpus, const char *distance)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/system/node/node%d && "
		 "echo %s > %s/devices/system/node/node%d/cpulist && "
		 "echo '%s' > %s/devices/system/node/node%d/distance",
		 root, n, cpus, root, n, distance, root, n);
	assert_int_equal(system(cmd), 0);
}

static void nodes(const char *online)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/devices && mkdir -p %s/devices/system/node && "
		 "echo %s > %s/devices/system/node/online && echo %s > %s/devices/system/node/has_memory",
		 root, root, online, root, online, root);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fakefs_remove(root);
}

static void test_two_nodes(void **state)
{
	struct numa_place p;
	char why[256];

	(void)state;
	nodes("0-1");
	node(0, "0,2", "10 21");
	node(1, "1,3", "21 10");
	/* local: the node of its CPU; remote: the other */
	assert_int_equal(numa_resolve(root, NUMA_LOCAL, -1, 3, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 1);
	assert_string_equal(p.nodes, "1");
	assert_int_equal(numa_resolve(root, NUMA_REMOTE, -1, 2, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 1);
	assert_int_equal(numa_resolve(root, NUMA_REMOTE, -1, 1, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 0);
	/* local unpinned: wherever it runs */
	assert_int_equal(numa_resolve(root, NUMA_LOCAL, -1, -1, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, -1);
	assert_string_equal(p.nodes, "local");
	assert_int_equal(numa_resolve(root, NUMA_INTERLEAVE, -1, 0, &p, why, sizeof(why)), 0);
	assert_string_equal(p.nodes, "0-1");
	assert_true(CPU_COUNT(&p.interleave) == 2 && CPU_ISSET(0, &p.interleave) &&
		    CPU_ISSET(1, &p.interleave));	/* the set numa_apply binds, typed */
	assert_int_equal(numa_resolve(root, NUMA_NODE, 1, 0, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 1);
	assert_int_equal(numa_resolve(root, NUMA_NODE, 2, 0, &p, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "this machine has no node 2 with memory");
	assert_int_equal(numa_resolve(root, NUMA_NONE, -1, 0, &p, why, sizeof(why)), 0);
	assert_string_equal(p.nodes, "default");
}

/* remote is the nearest other node by the distance matrix, then the lowest number */
static void test_nearest(void **state)
{
	struct numa_place p;
	char why[256];

	(void)state;
	nodes("0-2");
	node(0, "0", "10 30 20");
	node(1, "1", "30 10 20");
	node(2, "2", "20 20 10");
	assert_int_equal(numa_resolve(root, NUMA_REMOTE, -1, 0, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 2);
	assert_int_equal(numa_resolve(root, NUMA_REMOTE, -1, 2, &p, why, sizeof(why)), 0);
	assert_int_equal(p.node, 0);
	/* one node: no remote to bind to */
	nodes("0");
	node(0, "0-3", "10");
	assert_int_equal(numa_resolve(root, NUMA_REMOTE, -1, 1, &p, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "no node with memory besides node 0, that of CPU 1");
}

/* this machine: a buffer bound to node 0 is there, page by page */
static void test_where(void **state)
{
	struct numa_place p = { .kind = NUMA_NODE, .node = 0 };
	char where[128];
	size_t len = 16 * 4096;

	(void)state;
	int rc = numa_apply(&p);

	if (rc == -ENOSYS)	/* qemu-user (make cross) has no memory policies */
		skip();
	assert_int_equal(rc, 0);
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	numa_reset();
	assert_true(buf != MAP_FAILED);
	assert_int_equal(numa_where(buf, len, where, sizeof(where)), 0);
	assert_string_equal(where, "0:16");
	assert_int_equal(numa_where_ok(&p, where), 1);
	assert_int_equal(numa_where_ok(&p, "0:8 1:8"), 0);
	assert_int_equal(numa_where_ok(&p, "1:16"), 0);
	assert_int_equal(numa_where_ok(&p, "none"), -1);
	munmap(buf, len);
	/* a buffer not there yet: not resident */
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_int_equal(numa_where(buf, len, where, sizeof(where)), 0);
	assert_string_equal(where, "16 not resident");
	munmap(buf, len);
	assert_int_equal(numa_where(NULL, 0, where, sizeof(where)), 0);
	assert_string_equal(where, "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_nodes),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_where),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
