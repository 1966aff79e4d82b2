/*
 * [matrix] idle: the idle states the measured CPUs may enter, through
 * cpuidle's switch of each state (cpuN/cpuidle/stateK/disable), as
 * cyclictest --deepest-idle-state does: any (as they are), deepest:N
 * (every state deeper than N disabled), poll (every state but the polling
 * one: the CPU spins when idle). Only the measured CPUs; each switch
 * journalled first and set back after the cell (measure/undo.h); a state
 * someone else disabled stays disabled. Beside it, [matrix] dma_latency
 * asks the same of every CPU through PM QoS.
 *
 * root: "" for this machine's sysfs, or a directory laid out as it (tests).
 */
#ifndef LATLAB_IDLE_H
#define LATLAB_IDLE_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "axis.h"	/* the axis's values: IDLE_ANY, IDLE_POLL, deepest:N as N */
#include "undo.h"

/*
 * Can the measured CPUs be held to `want` here? IDLE_ANY always can. Else
 * 0, or -ENODEV with the reason in why: no cpuidle driver, a CPU without
 * cpuidle states, deepest:N beyond a CPU's states, no polling state.
 */
int idle_check(const char *root, int64_t want, const cpu_set_t *cpus, char *why, size_t len);

/*
 * The states `want` excludes disabled on each CPU of cpus, through u.
 * What was switched in done ("CPU 1: C2 C3 disabled"). 0, or -errno with
 * the reason in why (the switches made are in u).
 */
int idle_begin(const char *root, struct undo *u, int64_t want, const cpu_set_t *cpus,
	       char *done, size_t dlen, char *why, size_t len);

#endif
