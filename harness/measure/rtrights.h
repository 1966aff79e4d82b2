/*
 * Why this process cannot have a SCHED_FIFO thread at a priority, and
 * what would give it one (docs/guide.md, "Real-time rights, cgroups and
 * containers"): the rights (CAP_SYS_NICE, RLIMIT_RTPRIO), the real-time
 * budget of its cgroup where the kernel has CONFIG_RT_GROUP_SCHED
 * (cpu.rt_runtime_us along its path: 0 in a child cgroup, what podman,
 * docker or a systemd service with a cpu controller make, refuses
 * SCHED_FIFO even to root), and the container runtime it runs in, named.
 * The kernel's files are read under root ("" for /): tests give a fake
 * tree.
 */
#ifndef LATLAB_RTRIGHTS_H
#define LATLAB_RTRIGHTS_H

#include <limits.h>
#include <stddef.h>

/*
 * The container runtime this process runs in, as the files under root
 * say (podman's /run/.containerenv, docker's /.dockerenv, pid 1's
 * container=, a cgroup path of kubepods, libpod, docker, crio or
 * containerd), into name with what said so ("podman (/run/.containerenv)",
 * "docker (/.dockerenv)", "a Kubernetes pod (its cgroup's path)",
 * "lxc (pid 1's container=)"); 0, or -ENOENT for none. Signs, not
 * proofs: /.dockerenv counts only where / is not the whole of a
 * filesystem of its own (a machine made from a container's image keeps
 * the file on its own disk).
 */
int rt_container(const char *root, char *name, size_t len);

/*
 * Why a SCHED_FIFO thread at priority prio is refused here, with its
 * fix, into why: no CAP_SYS_NICE (root's /proc/self/status CapEff) and
 * an RLIMIT_RTPRIO (rtprio_limit, its soft value) below prio; or a
 * cgroup along this process's path with cpu.rt_runtime_us 0; then the
 * container, if one, named. 1 when a cause was found, 0 when none (why
 * then holds the generic rights' fix).
 */
int rt_rights_why(const char *root, int prio, long long rtprio_limit, char *why, size_t len);

/* The same for this process on this machine (its RLIMIT_RTPRIO, /). */
int rt_rights_here(int prio, char *why, size_t len);

/*
 * Where this process runs, as sysinfo.ini's [rights] says it: the
 * container runtime (rt_container's, or "none"), its cpu cgroup's path
 * in the hierarchy (as the host names it, from /proc/self/cgroup) and
 * that cgroup's cpu.rt_runtime_us ("none (no RT_GROUP_SCHED)" where the
 * kernel has no such file), and whether CapEff holds CAP_SYS_NICE and
 * CAP_IPC_LOCK (1, 0; -1 unknown). Never fails: "unknown" for what
 * cannot be read.
 */
struct rt_facts {
	char container[64];
	char cgroup[PATH_MAX];
	char rt_runtime_us[40];
	int sys_nice, ipc_lock;
};
void rt_facts_read(const char *root, struct rt_facts *f);

#endif
