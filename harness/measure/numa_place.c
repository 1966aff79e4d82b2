#include <errno.h>
#include <limits.h>
#include <numaif.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axis_ops.h"
#include "cpulist.h"
#include "files.h"
#include "numa_place.h"
#include "options.h"

int numa_memory_nodes(const char *root, cpu_set_t *nodes)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/devices/system/node/has_memory", root ? root : "/sys");
	if (cpulist_read_file(path, nodes) == 0 && CPU_COUNT(nodes) > 0)
		return 0;
	return cpulist_nodes(root, nodes);
}

/* The node `cpu` belongs to, or -1. */
static int node_of_cpu(const char *root, int cpu)
{
	cpu_set_t nodes, cpus;

	if (cpu < 0 || cpulist_nodes(root, &nodes) != 0)
		return -1;
	for (int n = 0; n < CPU_SETSIZE; n++)
		if (CPU_ISSET(n, &nodes) && cpulist_node(root, n, &cpus) == 0 &&
		    CPU_ISSET(cpu, &cpus))
			return n;
	return -1;
}

/*
 * Node `from`'s distance to node `to`: its distance file lists one number
 * per online node, in their order. INT_MAX when unknown.
 */
static int distance(const char *root, int from, int to)
{
	char path[PATH_MAX], line[1024];
	cpu_set_t nodes;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/distance",
		 root ? root : "/sys", from);
	if (cpulist_nodes(root, &nodes) != 0 || file_first_line(path, line, sizeof(line)) != 0)
		return INT_MAX;
	char *p = line;

	for (int n = 0; n < CPU_SETSIZE; n++) {
		if (!CPU_ISSET(n, &nodes))
			continue;
		char *end;
		long d = strtol(p, &end, 10);

		if (end == p)
			return INT_MAX;
		if (n == to)
			return (int)d;
		p = end;
	}
	return INT_MAX;
}

int numa_resolve(const char *root, int kind, int node, int cpu, struct numa_place *p, char *why,
		 size_t len)
{
	cpu_set_t mem;
	int here = node_of_cpu(root, cpu);

	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->node = -1;
	switch (kind) {
	case NUMA_NONE:
		snprintf(p->nodes, sizeof(p->nodes), "default");
		return 0;
	case NUMA_LOCAL:
		if (cpu < 0) {	/* unpinned: wherever it runs when it allocates */
			snprintf(p->nodes, sizeof(p->nodes), "local");
			return 0;
		}
		p->node = here >= 0 ? here : 0;	/* a kernel without NUMA: node 0 */
		break;
	case NUMA_REMOTE: {
		int best = -1, bestd = INT_MAX, from = here >= 0 ? here : 0;

		if (numa_memory_nodes(root, &mem) != 0)
			CPU_ZERO(&mem);
		for (int n = 0; n < CPU_SETSIZE; n++) {
			int d;

			if (!CPU_ISSET(n, &mem) || n == from)
				continue;
			d = distance(root, from, n);
			if (best < 0 || d < bestd) {
				best = n;
				bestd = d;
			}
		}
		if (best < 0) {
			if (cpu >= 0)
				snprintf(why, len, "no node with memory besides node %d, that of CPU %d",
					 from, cpu);
			else
				snprintf(why, len, "no node with memory besides node %d", from);
			return -ENODEV;
		}
		p->node = best;
		break;
	}
	case NUMA_INTERLEAVE:
		if (numa_memory_nodes(root, &mem) != 0 || CPU_COUNT(&mem) == 0) {
			CPU_ZERO(&mem);
			CPU_SET(0, &mem);
		}
		p->interleave = mem;
		cpulist_format(&mem, p->nodes, sizeof(p->nodes));
		return 0;
	default:	/* node:N */
		if (numa_memory_nodes(root, &mem) != 0 || CPU_COUNT(&mem) == 0) {
			CPU_ZERO(&mem);
			CPU_SET(0, &mem);	/* no NUMA in this kernel: node 0 alone */
		}
		if (node < 0 || node >= CPU_SETSIZE || !CPU_ISSET(node, &mem)) {
			snprintf(why, len, "this machine has no node %d with memory", node);
			return -ENODEV;
		}
		p->node = node;
	}
	snprintf(p->nodes, sizeof(p->nodes), "%d", p->node);
	return 0;
}

int numa_apply(const struct numa_place *p)
{
	unsigned long mask[CPU_SETSIZE / (8 * sizeof(unsigned long))] = { 0 };
	const unsigned long bits = 8 * sizeof(mask[0]);
	int mode;

	switch (p->kind) {
	case NUMA_NONE:
		return 0;
	case NUMA_LOCAL:
	case NUMA_REMOTE:
	case NUMA_NODE:
		if (p->node < 0)	/* local, unpinned: the node it runs on */
			return set_mempolicy(MPOL_LOCAL, NULL, 0) ? -errno : 0;
		mode = MPOL_BIND;
		mask[p->node / bits] |= 1UL << (p->node % bits);
		break;
	default:	/* interleave */
		mode = MPOL_INTERLEAVE;
		for (int n = 0; n < CPU_SETSIZE; n++)
			if (CPU_ISSET(n, &p->interleave))
				mask[n / bits] |= 1UL << (n % bits);
	}
	return set_mempolicy(mode, mask, CPU_SETSIZE) ? -errno : 0;
}

void numa_reset(void)
{
	set_mempolicy(MPOL_DEFAULT, NULL, 0);
}

int numa_where(const void *addr, size_t len, char *buf, size_t buflen)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t first = (uintptr_t)addr & ~(uintptr_t)(page - 1);
	size_t npages = ((uintptr_t)addr + len - first + (size_t)page - 1) / (size_t)page;
	void **pages = calloc(npages + 1, sizeof(*pages));
	int *status = calloc(npages + 1, sizeof(*status));
	int count[64] = { 0 }, absent = 0, rc = 0;

	buf[0] = '\0';
	if (!addr || !len) {
		snprintf(buf, buflen, "none");
		free(pages);
		free(status);
		return 0;
	}
	if (!pages || !status) {
		snprintf(buf, buflen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < npages; i++)
		pages[i] = (void *)(first + i * (size_t)page);
	/* nodes NULL: ask where each page is, move nothing */
	if (move_pages(0, npages, pages, NULL, status, 0) != 0) {
		rc = -errno;
		snprintf(buf, buflen, "unknown (move_pages: %s)", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < npages; i++) {
		if (status[i] >= 0 && status[i] < 64)
			count[status[i]]++;
		else
			absent++;
	}
	for (int n = 0; n < 64; n++)
		if (count[n]) {
			size_t u = strlen(buf);

			snprintf(buf + u, buflen - u, "%s%d:%d", u ? " " : "", n, count[n]);
		}
	if (absent) {
		size_t u = strlen(buf);

		snprintf(buf + u, buflen - u, "%s%d not resident", u ? " " : "", absent);
	}
out:
	free(pages);
	free(status);
	return rc;
}

int numa_where_ok(const struct numa_place *p, const char *where)
{
	char want[16];

	if (p->node < 0 || strcmp(where, "none") == 0 || strncmp(where, "unknown", 7) == 0)
		return -1;
	snprintf(want, sizeof(want), "%d:", p->node);
	/* one item, on the node bound to */
	return strncmp(where, want, strlen(want)) == 0 && !strchr(where, ' ');
}

/*
 * Does this machine (cpus set), or the guest a cell runs in (cpus NULL:
 * its variant's numa_nodes), have the node numa = remote or node:N
 * binds to? Every other value fits any machine.
 */
static int numa_check(const struct config *cfg, const struct cell *c, int64_t v,
		      const cpu_set_t *cpus, char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	long long nodes = k->numa_nodes > 0 ? (long long)k->numa_nodes : 1;
	int node = cfg->numa_node[c->numa];
	struct numa_place p;
	char have[128] = "0 (no NUMA in this kernel)";
	cpu_set_t mem;

	if (v != NUMA_REMOTE && v != NUMA_NODE)
		return 0;
	if (!cpus) {
		if (v == NUMA_REMOTE && nodes < 2)
			return snprintf(why, len, "[kernel.%s] numa_nodes = %lld: one node", k->name,
					nodes), -1;
		if (v == NUMA_NODE && node >= nodes)
			return snprintf(why, len, "[kernel.%s] numa_nodes = %lld: nodes 0-%lld", k->name,
					nodes, nodes - 1), -1;
		return 0;
	}
	if (numa_resolve(NULL, (int)v, node, -1, &p, why, len) == 0)
		return 0;
	if (numa_memory_nodes(NULL, &mem) == 0)
		cpulist_format(&mem, have, sizeof(have));
	size_t n = strlen(why);

	snprintf(why + n, len - n, " (nodes with memory: %s)", have);
	return -1;
}

const struct axis_ops numa_axis_ops = {
	.check = numa_check,
	.as_is = NUMA_NONE,
};
