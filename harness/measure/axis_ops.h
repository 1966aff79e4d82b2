/*
 * What an axis asks of and does to the machine for a cell, found by its
 * TAXIS_ index: axis_hooks[a], or NULL for an axis that neither checks
 * nor changes anything outside latlab (most of them). An axis that has
 * hooks keeps them in a file of its own here (idle.c, throttle.c,
 * numa_place.c, isolate.c), registered once in axis_ops.c; plan and run
 * ask its check (campaign/where.c), a cell its begin (cell_machine.c),
 * the journal undoes what begin did (after the cell, Ctrl-C, or by the
 * next latlab after SIGKILL), and cell.ini records what was done
 * (results/cellfiles.c) — no code outside its file names the axis.
 *
 * Each begin says its phase (enum axis_phase): before the cpusets are
 * built, after them, or after the cell's load starts. Isolation's check
 * is a hook (isolate.c), but its change is what the phases are ordered
 * around (the cpusets; the loads swept into the housekeeping cpuset after
 * they start, each thread's cpuset said in cell.ini): cell_machine.c
 * calls isolation_begin by name. numa has a check and no begin: each
 * thread is placed as it starts (cell.c, numa_place.c).
 */
#ifndef LATLAB_AXIS_OPS_H
#define LATLAB_AXIS_OPS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "undo.h"

/*
 * When a cell's begin runs, in the cell's order: every phase comes after
 * the threads are placed (each knows its CPU: the `cpus` begin is given).
 */
enum axis_phase {
	/* before the cpusets are built: what changes the CPUs the machine has (its cpusets must not hold them) */
	AXIS_BEFORE_ISOLATION = 1,
	/* the cpusets built, latlab's own threads on the housekeeping CPUs: a setting of the measured CPUs */
	AXIS_AFTER_ISOLATION,
	/* the cell's load started (and swept into the housekeeping cpuset): what acts on the load's tasks */
	AXIS_AFTER_LOAD,
};

struct axis_ops {
	/*
	 * Can cell c take the axis's value v (its item's typed value)?
	 * cpus: every CPU the cell's threads may use on this machine, or
	 * NULL for a cell that runs elsewhere (a guest's, checked from the
	 * host: only what the config alone says). 0, or -1 with the reason
	 * in why. Asked by plan and by run before any cell, and again in a
	 * guest before its cells. NULL: nothing to check.
	 */
	int (*check)(const struct config *cfg, const struct cell *c, int64_t v,
		     const cpu_set_t *cpus, char *why, size_t len);
	/*
	 * The machine set for value v on cpus (every CPU the cell's
	 * threads use), each change journalled in u before it is made;
	 * what was done said in done ("" for nothing: the axis's default).
	 * 0, or -1 with the reason in why (what was changed is in u).
	 * NULL: the axis changes nothing on the machine (numa: each thread
	 * is placed as it starts).
	 */
	int (*begin)(const struct config *cfg, const struct cell *c, int64_t v,
		     const cpu_set_t *cpus, struct undo *u, char *done, size_t dlen, char *why,
		     size_t len);
	/* when begin runs (required with a begin) */
	enum axis_phase phase;
	/*
	 * What begin changed that the journal cannot hold (a limit of
	 * latlab's own process, gone with it), undone after the cell; the
	 * journal's changes are undone after this. NULL: nothing.
	 */
	void (*end)(void);
	/* the value that leaves the machine as it is (idle's any): begin is not called for it */
	int64_t as_is;
	/* the paths its journal lines may write, as undo_roots (NULL-terminated) */
	const char *const *roots;
	/* cell.ini's key for what begin did ("idle_done") */
	const char *done_key;
};

extern const struct axis_ops *const axis_hooks[TAXIS_COUNT];

/*
 * The directory a hook's sysfs and procfs paths are under: "" for this
 * machine; a directory laid out as it for a unit test, which sets it and
 * calls the hooks through axis_hooks as a cell does (tests/unit/fakefs.h)
 * — so that an axis's file needs no header of its own to be tested.
 * Defined in axis_root.c.
 */
extern const char *axis_root;

/* Hooked axis a's value for cell c: its item's typed value (as_is where [matrix] has none). */
int64_t axis_ops_value(const struct config *cfg, const struct cell *c, int a);

/* Would any hooked axis change the machine for c (a value other than its as_is, a begin)? */
int axis_ops_any(const struct config *cfg, const struct cell *c);

/*
 * The first hooked axis of c whose value is not its as_is (isolation,
 * idle, numa, throttle: a change of the machine for latlab's own
 * threads), or -1: what a cell of another program's threads (cyclictest,
 * a watched program) refuses rather than runs without it.
 */
int axis_ops_first_set(const struct config *cfg, const struct cell *c);

/* Has any hooked axis of c something to check (a value other than its as_is, a check)? */
int axis_ops_checks(const struct config *cfg, const struct cell *c);

/* undo_roots and every axis's roots: what a journal may replay (NULL-terminated). */
const char *const *axis_undo_roots(void);

#endif
