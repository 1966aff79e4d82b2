/*
 * [matrix] throttle's hooks with a root ("" for this machine, or a
 * directory laid out as it: tests/unit/test_throttle.c). The campaign
 * reaches them through throttle_axis_ops (axis_ops.h); throttle.c says
 * what off does and how it is set back.
 */
#ifndef LATLAB_THROTTLE_H
#define LATLAB_THROTTLE_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"
#include "undo.h"

/* Can throttle value v be set here? 0, or -errno with why. */
int throttle_check_at(const char *root, const struct kernel_facts *f, int64_t v, char *why,
		      size_t len);

/*
 * Set throttle value v for a cell on cpus, each write journalled in u
 * first; what was done into done. 0, or -errno with why.
 */
int throttle_begin_at(const char *root, const struct kernel_facts *f, int64_t v,
		      const cpu_set_t *cpus, struct undo *u, char *done, size_t dlen, char *why,
		      size_t len);

/* The cell's end: the soft RLIMIT_RTTIME set back (the journal sets back the rest). */
void throttle_end(void);

#endif
