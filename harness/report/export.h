/*
 * latlab export: a cell's data in other tools' formats: csv (its
 * samples.bin), cyclictest (--histfile layout), json (cyclictest --json).
 */
#ifndef LATLAB_EXPORT_H
#define LATLAB_EXPORT_H

#include <stdint.h>

/*
 * Export `path` in `format` to `out` (a file, written atomically; NULL:
 * stdout): csv takes a cell directory or a samples.bin; cyclictest and
 * json a cell directory, for `metric`, with `hist_us` 1-µs bins (0: up
 * to the largest max). Returns the exit status.
 */
int export_run(const char *format, const char *path, const char *out,
	       const char *metric, int64_t hist_us);

#endif
