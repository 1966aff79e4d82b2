/*
 * latlab export: convert measured data to other formats. Today:
 * --format csv, a cell's samples.bin as t_ns,thread,metric,value_ns rows.
 */
#ifndef LATLAB_EXPORT_H
#define LATLAB_EXPORT_H

/*
 * Export `path` (a cell directory or a samples.bin) in `format` to `out`
 * (a file, written atomically; NULL: stdout). Returns the exit status.
 */
int export_run(const char *format, const char *path, const char *out);

#endif
