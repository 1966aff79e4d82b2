/* Which CPU each measured thread of a cell runs on, on this machine. */
#ifndef LATLAB_PLACE_H
#define LATLAB_PLACE_H

#include <sched.h>

#include "config.h"
#include "matrix.h"

/*
 * Where each measured thread of `c` runs: cpus[i] is a CPU or -1 (not
 * pinned; `mask` then holds the CPUs it may use). Returns the number of
 * threads (threads = all resolved), or -errno (e.g. -ENODEV: no isolated
 * CPU, no such NUMA node or none of its CPUs online). affinity = node:N is
 * the node's CPUs here, one thread each in turn, as spread. cpus must hold CPU_SETSIZE entries.
 */
int place_threads(const struct config *cfg, const struct cell *c, int *cpus,
		  cpu_set_t *mask);

/*
 * The CPUs of c's placement on this machine: `pinned`, those a pinned
 * thread runs on (none for affinity = all); `used`, every CPU a thread may
 * run on (the pinned ones, or the placement's mask). The number of
 * threads, or -errno as place_threads.
 */
int place_cpus(const struct config *cfg, const struct cell *c, cpu_set_t *pinned, cpu_set_t *used);

/*
 * place_cpus on a machine whose online CPUs are `online` (a qemu guest's,
 * 0 .. cpus - 1, asked before it boots): affinity = isolated and node:N,
 * which only that machine's files can answer, give -ENODEV.
 */
int place_cpus_on(const struct config *cfg, const struct cell *c, const cpu_set_t *online,
		  cpu_set_t *pinned, cpu_set_t *used);

#endif
