/*
 * What runs a cell, found from its workload's kind (workload_ops.kind):
 * latlab's own measured threads (cell.c), rt-tests' cyclictest
 * (cell_cyclictest.c), or another program's threads watched through the
 * kernel (cell_watch.c). Each kind says what it does with the axes that
 * change the machine for a cell (axis_ops.h: isolation, idle, numa,
 * throttle): latlab's threads apply them; another program's threads are
 * the program's, so a cell of those kinds that sets one is refused by
 * plan and run, never run without what it names. A new kind of cell (a
 * container's, a board's) is a row in cell_kind.c, not a flag tested
 * where a cell is fitted or run.
 */
#ifndef LATLAB_CELL_KIND_H
#define LATLAB_CELL_KIND_H

#include <stddef.h>

#include "cell.h"
#include "workload.h"

struct cell_kind {
	const char *name;	/* "threads", "cyclictest", "watch" */
	/* whose threads its cells measure, for a refusal: "cyclictest's" */
	const char *whose;
	/* 1: its cells apply the machine's axes (axis_hooks); 0: they refuse a cell that sets one */
	int machine_axes;
	/*
	 * 1: its workload's preflight asks about the kernel it runs on,
	 * which a qemu guest asks of its own (watch's BTF); 0: a preflight
	 * asks for this machine's files (a plugin's object), which a guest
	 * has no copy of unless the workload says what it loads
	 */
	int guest_preflights;
	/*
	 * optional: what else cell c needs of the machine that runs it
	 * (local: 1 where that is this one) — cyclictest's options against
	 * the cell's axes, a watch's method against this kernel. 0, or
	 * -EINVAL with the whole reason in why and the config line it is
	 * about in *at
	 */
	int (*fits)(const struct config *cfg, const struct cell *c, int local,
		    struct srcloc *at, char *why, size_t len);
	/* runs cell c as cell_run does (res set to zero, its log open): nonzero if a signal ended it */
	int (*run)(const struct config *cfg, const struct cell *c, const struct run_env *env,
		   const char *dir, struct cell_result *res);
};

/* The kind of a cell of a workload of ops. */
const struct cell_kind *cell_kind_of(const struct workload_ops *ops);

/* The kind of workload_kind k (WORKLOAD_THREADS ... WORKLOAD_KINDS - 1). */
const struct cell_kind *cell_kind_at(enum workload_kind k);

/*
 * The machine axis cell c sets that its kind refuses (a value other
 * than the axis's as_is, for a kind whose cells do not apply them), with
 * the reason in why; -1 for none.
 */
int cell_kind_refuses(const struct cell_kind *kind, const struct config *cfg,
		      const struct cell *c, char *why, size_t len);

#endif
