/*
 * A cell's directory of files, written from its in-memory result: the
 * writer side of the results model (the reader is tree.h). Each file is
 * written atomically; cell.ini comes last, so a directory without it is
 * incomplete.
 */
#ifndef LATLAB_CELLFILES_H
#define LATLAB_CELLFILES_H

#include "cell.h"
#include "config.h"
#include "sysinfo.h"

/* sysinfo.ini's text: what the machine is, section by section, then [warnings]. */
void cell_sysinfo_write(const struct sysinfo *si, FILE *fp);

/* DIR/sysinfo.ini as text another latlab wrote (a guest's), atomically. 0 or -errno. */
int cell_write_sysinfo_text(const char *dir, const char *text);

/*
 * Write the cell directory's files (cell.ini, sysinfo.ini unless si is
 * NULL, hist.csv, summary.csv, series.csv, load.csv, log.txt), each
 * atomically. 0 or -errno (-ENOSPC: disk full).
 */
int cell_write(const struct config *cfg, const struct cell *c,
	       const struct run_env *env, const struct sysinfo *si,
	       struct cell_result *res, const char *dir);

struct csvw;
/*
 * hist.csv's rows (HIST_COLUMNS) of one histogram: its non-empty buckets,
 * the underflow and the overflow.
 */
void cell_hist_rows(struct csvw *csv, const struct hist *h, int64_t thread,
		    int64_t cpu, const char *metric);

/* A histogram's summary.csv statistics: samples, min_ns ... max_ns. */
void cell_hist_summary(struct csvw *csv, const struct hist *h);

/* One thread x metric summary row's fields, appended to the writer. */
void cell_summary_fields(struct csvw *csv, const struct worker *w, int metric);

#endif
