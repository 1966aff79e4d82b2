#include <errno.h>

#include "cpulist.h"
#include "place.h"

/* place_threads on the machine whose online CPUs are *on (NULL: this one's, read here). */
static int threads_on(const struct config *cfg, const struct cell *c, const cpu_set_t *on,
		      int *cpus, cpu_set_t *mask)
{
	const struct placement *pl = &cfg->place[c->affinity];
	int kind = pl->kind;
	cpu_set_t online, set;
	int n, ncpu;

	if (on)
		online = *on;
	else	/* this machine's: those latlab may run on (a container's cpuset) */
		cpulist_usable(&online);
	if (on && (kind == AFF_ISOLATED || kind == AFF_NODE))
		return -ENODEV;	/* only that machine's files say */
	switch (kind) {
	case AFF_ISOLATED:
		if (cpulist_read_file("/sys/devices/system/cpu/isolated",
				      &set) != 0 || CPU_COUNT(&set) == 0)
			return -ENODEV;
		CPU_AND(&set, &set, &online);
		break;
	case AFF_LIST:
		CPU_AND(&set, &pl->cpus, &online);
		break;
	case AFF_NODE:	/* the node's CPUs on the machine that runs the cell, spread */
		if (cpulist_node(NULL, pl->node, &set) != 0)
			return -ENODEV;
		CPU_AND(&set, &set, &online);
		break;
	default:
		set = online;
		break;
	}
	ncpu = CPU_COUNT(&set);
	if (ncpu == 0)
		return -ENODEV;
	n = c->threads == AXIS_ALL ? ncpu : (int)c->threads;
	*mask = set;
	for (int i = 0; i < n; i++)
		cpus[i] = kind == AFF_ALL ? -1 : cpulist_nth(&set, i % ncpu);
	return n;
}

int place_threads(const struct config *cfg, const struct cell *c, int *cpus,
		  cpu_set_t *mask)
{
	return threads_on(cfg, c, NULL, cpus, mask);
}

int place_cpus(const struct config *cfg, const struct cell *c, cpu_set_t *pinned, cpu_set_t *used)
{
	return place_cpus_on(cfg, c, NULL, pinned, used);
}

int place_cpus_on(const struct config *cfg, const struct cell *c, const cpu_set_t *online,
		  cpu_set_t *pinned, cpu_set_t *used)
{
	int cpus[CPU_SETSIZE];
	int n = threads_on(cfg, c, online, cpus, used);

	CPU_ZERO(pinned);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0)
			CPU_SET(cpus[i], pinned);
	if (n > 0 && CPU_COUNT(pinned))
		*used = *pinned;	/* pinned threads use their own CPUs, not the placement's */
	return n;
}
