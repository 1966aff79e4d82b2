/*
 * Where a cell runs, and whether the machine it runs on has what it
 * needs. config_load() reads no machine state, so a config written for an
 * 8-CPU board loads on a laptop; these are the questions `run` asks
 * before it writes anything, `plan` prints per cell, and `status` uses to
 * say what is left here.
 */
#ifndef LATLAB_WHERE_H
#define LATLAB_WHERE_H

#include <sched.h>
#include <stddef.h>

#include "config.h"
#include "kernel.h"
#include "matrix.h"

enum where {
	WHERE_HERE,		/* a host variant whose match = fits this kernel */
	WHERE_QEMU,		/* runner = qemu: in a guest this latlab boots */
	WHERE_OTHER,		/* a host variant of another kernel: pending */
	WHERE_CONTAINER,	/* runner = container: in a container this latlab starts */
	WHERE_COUNT,
};

/* A guest this latlab starts (qemu or a container) runs w's cells. */
static inline int where_guest(enum where w)
{
	return w == WHERE_QEMU || w == WHERE_CONTAINER;
}

/* Where kernel variant v's cells run for a host latlab running kernel k. */
enum where where_variant(const struct config *cfg, int v,
			 const struct kernel_info *k);

/* Where cell c of cfg runs: its variant's answer. */
enum where where_runs(const struct config *cfg, const struct cell *c,
		      const struct kernel_info *k);

/* "here", "qemu", "container" or "pending (other kernel)": plan's runs column. */
const char *where_name(enum where w);

/*
 * 0 when the machine that runs c has what c asks for: the CPUs of its
 * affinity and of its load's cpus =, and an isolated CPU for affinity =
 * isolated. That machine is this one for a host variant (and inside a
 * guest: `guest` set); for a qemu variant seen from the host it is a
 * guest of the variant's cpus = CPUs, whose isolated CPUs it cannot know.
 * Else -ENODEV with "FILE:LINE: reason" in why.
 */
/*
 * A warning, not a refusal: real-time (fifo, rr) measured threads of c
 * stacked on one CPU of this machine (threads = 3, affinity = 1), which
 * delay each other by design. 1 with "FILE:LINE: ..." in why, else 0.
 */
int where_stacked(const struct config *cfg, const struct cell *c, char *why,
		  size_t len);

/*
 * A warning, not a refusal: a measured thread of c pinned to a CPU whose
 * SMT sibling (the same core's other hardware thread) is not measured,
 * named with what latlab runs there — the cell's load, its housekeeping,
 * or nothing of its own: the two share the core's pipeline and caches.
 * sysroot: "" for this machine (tests: a scratch root holding
 * sys/devices/system/cpu/cpuN/topology/thread_siblings_list). 1 with the
 * words in why, else 0 (no SMT, no pinned thread, every sibling measured).
 */
int where_smt(const struct config *cfg, const struct cell *c, const char *sysroot,
	      char *why, size_t len);

/* How many of cells (those run on this host or in its containers) have such a sibling; why of the first. */
int where_smt_cells(const struct config *cfg, const struct cell *cells, int n,
		    char *why, size_t len);

/* How many of cells (those run on this host) stack threads; why of the first. */
int where_stacked_cells(const struct config *cfg, const struct cell *cells, int n,
			char *why, size_t len);

/*
 * The file (a workload's path) or directory (a load's dir) cell c's I/O
 * goes to, or NULL when it writes none; *key the option that names it,
 * *section its "workload.NAME" or "load.NAME", *loc (unless NULL) where
 * that is defined.
 */
const char *where_cell_files(const struct config *cfg, const struct cell *c,
			     const char **key, char *section, size_t len, struct srcloc *loc);

/* Does cell c send over IP (its workload, a chain's step or its load)? */
int where_cell_net(const struct config *cfg, const struct cell *c);

int where_fits(const struct config *cfg, const struct cell *c, int guest,
	       char *why, size_t len);

/*
 * What latlab boots qemu variant k with can be read: its image; for
 * another architecture also its programs and busybox. 0, or -errno
 * with "FILE:LINE: reason" in why.
 */
int where_guest_files(const struct config *cfg, const struct kernel_def *k,
		      char *why, size_t len);

/*
 * Before `run` writes anything: every cell fits (where_fits), and every
 * qemu variant with cells can read its image (the host's side only).
 * 0, or -ENODEV / -errno with "FILE:LINE: reason" in why.
 */
int where_preflight(const struct config *cfg, const struct cell *cells,
		    int ncells, int guest, char *why, size_t len);

#endif
