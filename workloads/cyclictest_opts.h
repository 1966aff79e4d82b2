/*
 * The cyclictest workload's options (workloads/cyclictest.c), which the
 * cell that runs it (harness/measure/cell_cyclictest.c) reads.
 */
#ifndef LATLAB_CYCLICTEST_OPTS_H
#define LATLAB_CYCLICTEST_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"

struct cyclictest_opts {
	char program[OPT_STR_MAX];	/* a path, or a name on PATH */
	int64_t histogram;		/* ns: the histogram's top (-h, 1 ns bins) */
};

/* The program's path on this machine (as PATH finds it), or -ENOENT with why. */
int cyclictest_program(const struct cyclictest_opts *o, char *path, size_t len, char *err,
		       size_t errlen);

#endif
