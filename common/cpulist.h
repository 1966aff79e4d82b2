/* CPU lists as the kernel writes them ("0-3,8"), in cpu_set_t. */
#ifndef LATLAB_CPULIST_H
#define LATLAB_CPULIST_H

#include <sched.h>
#include <stddef.h>

/*
 * Parse "0-3,8" (',' or '+' between items, so a list can sit inside a
 * comma-separated matrix axis as "0-1+3"). Empty text is an empty set.
 * 0 or -EINVAL (malformed) / -ERANGE (CPU >= CPU_SETSIZE).
 */
int cpulist_parse(const char *s, cpu_set_t *set);

/* Canonical "0-3,8" form; "" for an empty set. */
void cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* The n-th CPU (0-based) in the set, or -1. */
int cpulist_nth(const cpu_set_t *set, int n);

/*
 * Read a kernel CPU list file (/sys/devices/system/cpu/online ...).
 * 0 or -errno; a missing file is -ENOENT.
 */
int cpulist_read_file(const char *path, cpu_set_t *set);

/* The highest NUMA node `node:N` may name (the kernel's MAX_NUMNODES is 1024). */
#define NODE_MAX 1023

/*
 * "node:N": N (0..NODE_MAX), or -1 when the text is not that (no digits,
 * anything after them, a sign, leading zeros beyond "0").
 */
int cpulist_node_number(const char *s);

/*
 * The CPUs of NUMA node `node` (sysfs node/nodeN/cpulist, or its
 * equivalent under `root`, NULL for /sys: what a test points elsewhere);
 * on a kernel without NUMA (no node/ directory) node 0 is every online
 * CPU. 0, -ENOENT when the machine has no such node, -errno.
 */
int cpulist_node(const char *root, int node, cpu_set_t *set);

/* The NUMA nodes the machine has (sysfs node/online), as a set of numbers; 0 or -errno. */
int cpulist_nodes(const char *root, cpu_set_t *nodes);

/* CPUs online now (sysfs, falling back to sysconf). Never fails. */
void cpulist_online(cpu_set_t *set);

/*
 * The online CPUs this process may run on: those of the affinity it had
 * the first time this was asked (a container's --cpuset-cpus, taskset,
 * a cgroup's cpuset.cpus), not what a cell's housekeeping later set.
 * The online CPUs where the kernel would not say. Never fails.
 */
void cpulist_usable(cpu_set_t *set);

#endif
