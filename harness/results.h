/*
 * Writing result files: atomically (temporary name, fflush, fsync,
 * rename, fsync of the directory) so a crash never leaves a half file
 * that looks whole, and CSV through libcsv.
 */
#ifndef LATLAB_RESULTS_H
#define LATLAB_RESULTS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

struct afile {
	char path[PATH_MAX];
	char tmp[PATH_MAX + 32];
	FILE *fp;
};

/* Open PATH.tmp.PID for writing. 0 or -errno. */
int afile_open(struct afile *af, const char *path);

/*
 * Flush, fsync, close and rename over the final name. 0 or -errno (ENOSPC
 * shows here); on error the temporary file is removed and the old file,
 * if any, is untouched.
 */
int afile_commit(struct afile *af);

/* Give up: close and remove the temporary file. */
void afile_abort(struct afile *af);

/*
 * DIR/NAME written atomically by fill(fp, arg). 0 or -errno (-ENOSPC:
 * disk full); on error the old file, if any, is untouched.
 */
int afile_write(const char *dir, const char *name,
		void (*fill)(FILE *fp, void *arg), void *arg);

/* mkdir -p, mode 0755. 0 or -errno. */
int mkdir_p(const char *path);

/*
 * A cell's directory from an earlier, unfinished run (dir exists): renamed
 * to DIR.partial-N, the first N free, and said so. Results are never
 * overwritten.
 */
void dir_keep_partial(const char *dir);

/* A CSV row writer: fields are quoted only when they need it. */
struct csvw {
	FILE *fp;
	int col;
};

/* Write the comma-separated names as the header row. */
void csvw_header(struct csvw *w, const char *names);
void csvw_str(struct csvw *w, const char *s);
void csvw_int(struct csvw *w, int64_t v);
/* Fixed-point with `decimals` digits ("12.50"). */
void csvw_num(struct csvw *w, double v, int decimals);
void csvw_end(struct csvw *w);

/*
 * Read a whole CSV file (libcsv) into rows of fields. The first row is
 * the header. 0 or -errno / -EINVAL (malformed); free with csv_table_free.
 */
struct csv_table {
	int nrows;
	int *ncols;
	char ***cell;	/* cell[row][col] */
};

int csv_table_read(const char *path, struct csv_table *t);
void csv_table_free(struct csv_table *t);
/* Column index of `name` in the header row, or -1. */
int csv_table_col(const struct csv_table *t, const char *name);

#endif
