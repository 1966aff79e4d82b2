/*
 * Why SCHED_FIFO is refused here (harness/measure/rtrights.c), on a /proc
 * and cgroup trees made for it: no CAP_SYS_NICE and a low RLIMIT_RTPRIO;
 * a v1 cpu cgroup, or a v2 one, with no real-time budget somewhere along
 * its path (the topmost such named); none of those (the generic fix, and
 * 0); the container runtime named with what said so; inside a
 * container, where only its own cgroup is seen; the facts [rights] says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "rtrights.h"

#define CAP_ROOT "000001ffffffffff"	/* every capability: CAP_SYS_NICE (23) among them */
#define CAP_NONE "0000000000000000"

/* A /proc/self of a process with capabilities cap and the cgroup lines cg. */
static void self(const char *root, const char *cap, const char *cg, const char *mounts)
{
	char status[128];

	snprintf(status, sizeof(status), "Name:\tlatlab\nCapEff:\t%s", cap);
	fakefs_put(root, "proc/self/status", status);
	fakefs_put(root, "proc/self/cgroup", cg);
	fakefs_put(root, "proc/self/mountinfo", mounts);
}

#define MOUNTS_V1 \
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" \
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n" \
	"33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset"
#define MOUNTS_V2 "30 22 0:27 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw"

static void test_rights(void **state)
{
	char root[64], why[2048];

	(void)state;
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_NONE, "1:cpu,cpuacct:/\n0::/", MOUNTS_V1);
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "this process has no CAP_SYS_NICE and its RLIMIT_RTPRIO is 0 (ulimit -r), below priority 90: run as root, or ulimit -r 90"));
	/* the limit allows it: not the rights; nothing else found either */
	assert_int_equal(rt_rights_why(root, 90, 95, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "run as root, or give this user real-time rights"));
	assert_int_equal(fakefs_remove(root), 0);
}

static void test_budget_v1(void **state)
{
	char root[64], why[2048], want[512];

	(void)state;
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "2:cpuset:/\n1:cpu,cpuacct:/machine.slice/ct\n0::/", MOUNTS_V1);
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/cpu.rt_runtime_us", "950000");
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/machine.slice/cpu.rt_runtime_us", "950000");
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/machine.slice/ct/cpu.rt_runtime_us", "0");
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "its cgroup has no real-time budget: /sys/fs/cgroup/cpu,cpuacct/machine.slice/ct/cpu.rt_runtime_us is 0 (this kernel has CONFIG_RT_GROUP_SCHED"));
	snprintf(want, sizeof(want), "each cgroup from /sys/fs/cgroup/cpu,cpuacct down to /sys/fs/cgroup/cpu,cpuacct/machine.slice/ct");
	assert_non_null(strstr(why, want));
	assert_null(strstr(why, "it runs in"));
	/* a parent without one: it is named, the first to mend */
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/machine.slice/cpu.rt_runtime_us", "0");
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, ": /sys/fs/cgroup/cpu,cpuacct/machine.slice/cpu.rt_runtime_us is 0"));
	/* podman's: named, and its flag */
	fakefs_put(root, "run/.containerenv", "engine=\"podman\"");
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "; it runs in podman (/run/.containerenv): podman run --cpu-rt-runtime=950000"));
	assert_int_equal(fakefs_remove(root), 0);
}

static void test_budget_v2(void **state)
{
	char root[64], why[2048];

	(void)state;
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "0::/system.slice/latlab.service", MOUNTS_V2);
	fakefs_put(root, "sys/fs/cgroup/system.slice/cpu.rt_runtime_us", "950000");
	fakefs_put(root, "sys/fs/cgroup/system.slice/latlab.service/cpu.rt_runtime_us", "0");
	assert_int_equal(rt_rights_why(root, 80, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, ": /sys/fs/cgroup/system.slice/latlab.service/cpu.rt_runtime_us is 0"));
	/* a kernel without RT_GROUP_SCHED has no such file: no cause found */
	assert_int_equal(fakefs_remove(root), 0);
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "0::/system.slice/latlab.service", MOUNTS_V2);
	fakefs_put(root, "sys/fs/cgroup/system.slice/latlab.service/cgroup.procs", "1");
	assert_int_equal(rt_rights_why(root, 80, 0, why, sizeof(why)), 0);
	assert_int_equal(fakefs_remove(root), 0);
}

static void test_container(void **state)
{
	char root[64], name[128];

	(void)state;
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "0::/", MOUNTS_V2);
	assert_int_equal(rt_container(root, name, sizeof(name)), -ENOENT);
	fakefs_put(root, "proc/self/cgroup", "0::/kubepods.slice/kubepods-pod1.slice/cri-containerd-ab.scope");
	assert_int_equal(rt_container(root, name, sizeof(name)), 0);
	assert_string_equal(name, "a Kubernetes pod (its cgroup's path)");
	fakefs_put(root, "proc/1/environ", "PATH=/bin");
	assert_int_equal(rt_container(root, name, sizeof(name)), 0);	/* still the path */
	FILE *fp;
	char path[128];

	snprintf(path, sizeof(path), "%s/proc/1/environ", root);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fwrite("PATH=/bin\0container=lxc\0", 1, 24, fp);
	fclose(fp);
	assert_int_equal(rt_container(root, name, sizeof(name)), 0);
	assert_string_equal(name, "lxc (pid 1's container=)");
	fakefs_put(root, ".dockerenv", "");
	assert_int_equal(rt_container(root, name, sizeof(name)), 0);
	assert_string_equal(name, "docker (/.dockerenv)");
	assert_int_equal(fakefs_remove(root), 0);
	/* /.dockerenv on a root that is a disk of its own: a machine made from an image */
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "1:cpu,cpuacct:/\n0::/",
	     "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" MOUNTS_V1);
	fakefs_put(root, ".dockerenv", "");
	assert_int_equal(rt_container(root, name, sizeof(name)), -ENOENT);
	/* on an overlay, as docker's root is: docker */
	fakefs_put(root, "proc/self/mountinfo",
		   "400 300 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l\n" MOUNTS_V1);
	assert_int_equal(rt_container(root, name, sizeof(name)), 0);
	assert_string_equal(name, "docker (/.dockerenv)");
	assert_int_equal(fakefs_remove(root), 0);
}

/*
 * Inside a podman container on cgroup v1: the cpu hierarchy is mounted
 * at the container's own cgroup (mount root /libpod_parent/libpod-ab),
 * whose budget is 0; its parents are not seen. The facts [rights] says.
 */
static void test_inside_container(void **state)
{
	char root[64], why[2048];
	struct rt_facts f;

	(void)state;
	fakefs_make(root, sizeof(root), "latlab-rtrights");
	self(root, CAP_ROOT, "5:cpu,cpuacct:/libpod_parent/libpod-ab\n0::/",
	     "600 500 0:50 / / rw - overlay overlay rw\n"
	     "610 600 0:28 /libpod_parent/libpod-ab /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct");
	fakefs_put(root, "run/.containerenv", "engine=\"podman\"");
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/cpu.rt_runtime_us", "0");
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "its cgroup has no real-time budget: /sys/fs/cgroup/cpu,cpuacct/cpu.rt_runtime_us is 0 — the container's own cgroup, /libpod_parent/libpod-ab on the host"));
	assert_non_null(strstr(why, "its parent /libpod_parent first"));
	assert_non_null(strstr(why, "; it runs in podman (/run/.containerenv): podman run --cpu-rt-runtime=950000 --cap-add=SYS_NICE,IPC_LOCK"));
	rt_facts_read(root, &f);
	assert_string_equal(f.container, "podman (/run/.containerenv)");
	assert_string_equal(f.cgroup, "/libpod_parent/libpod-ab");
	assert_string_equal(f.rt_runtime_us, "0");
	assert_int_equal(f.sys_nice, 1);
	assert_int_equal(f.ipc_lock, 1);
	/* given a budget: no cause found there */
	fakefs_put(root, "sys/fs/cgroup/cpu,cpuacct/cpu.rt_runtime_us", "100000");
	assert_int_equal(rt_rights_why(root, 90, 0, why, sizeof(why)), 0);
	rt_facts_read(root, &f);
	assert_string_equal(f.rt_runtime_us, "100000");
	/* no CAP_SYS_NICE nor CAP_IPC_LOCK (podman's default set); a kernel without RT_GROUP_SCHED */
	self(root, CAP_NONE, "0::/", MOUNTS_V2);
	rt_facts_read(root, &f);
	assert_int_equal(f.sys_nice, 0);
	assert_int_equal(f.ipc_lock, 0);
	/* in a container, "/" is its cgroup namespace's root, not the machine's: said */
	assert_string_equal(f.cgroup, "/ (the root of the container's own cgroup namespace: the host names it otherwise)");
	assert_string_equal(f.rt_runtime_us, "none (no RT_GROUP_SCHED)");
	/* the machine itself at its root cgroup: "/" as it is */
	char env[PATH_MAX];

	snprintf(env, sizeof(env), "%s/run/.containerenv", root);
	assert_int_equal(unlink(env), 0);
	rt_facts_read(root, &f);
	assert_string_equal(f.container, "none");
	assert_string_equal(f.cgroup, "/");
	assert_int_equal(fakefs_remove(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rights),
		cmocka_unit_test(test_budget_v1),
		cmocka_unit_test(test_budget_v2),
		cmocka_unit_test(test_container),
		cmocka_unit_test(test_inside_container),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
