/*
 * Where a measured thread's memory lives ([matrix] numa, docs/guide.md):
 * the policy a thread on a CPU gets on this machine, set with
 * set_mempolicy while its stack and its workload's buffers are
 * allocated (and in the thread for whatever it touches later), and the
 * nodes its pages ended on, asked of the kernel after (move_pages).
 */
#ifndef LATLAB_NUMA_PLACE_H
#define LATLAB_NUMA_PLACE_H

#include <sched.h>
#include <stddef.h>

#include "axis.h"

/*
 * The nodes with memory under root (NULL: /sys): has_memory, or the online
 * nodes where it is not there. 0, or -errno (no NUMA in this kernel).
 */
int numa_memory_nodes(const char *root, cpu_set_t *nodes);

struct numa_place {
	int kind;		/* enum numa_kind (model/axis.h) */
	int node;		/* the node bound to; -1: none, local unpinned, interleave */
	cpu_set_t interleave;	/* interleave: the nodes (a node set, as a CPU set) */
	char nodes[128];	/* what the policy names, for cell.ini: "1", "0-1", "local" */
};

/*
 * The placement `kind` (with `node`, node:N's number as config/ typed it:
 * cfg->numa_node) means for a thread on
 * `cpu` (-1: unpinned) here, from sysfs under `root` (NULL: /sys):
 * local is the node of its CPU, remote the nearest other node with memory
 * (by the distance matrix, then the lowest number), interleave every node
 * with memory, node:N node N. 0, or -ENODEV with why (remote on a machine
 * of one node; a node it lacks).
 */
int numa_resolve(const char *root, int kind, int node, int cpu, struct numa_place *p, char *why,
		 size_t len);

/* The calling thread's memory policy set to p (none: the default). 0 or -errno. */
int numa_apply(const struct numa_place *p);

/* The calling thread's policy back to the default. */
void numa_reset(void);

/*
 * The nodes [addr, addr + len) is on, as "NODE:PAGES" items ("1:128",
 * "0:2 1:126"), from move_pages; "not resident" for pages with none. 0 or
 * -errno (buf then says why).
 */
int numa_where(const void *addr, size_t len, char *buf, size_t buflen);

/* Does where (numa_where's text) lie wholly on the node p binds to? 1 yes, 0 no, -1 nothing to check. */
int numa_where_ok(const struct numa_place *p, const char *where);

#endif
