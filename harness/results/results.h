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
	int derived;	/* set after afile_open: rename without the fsyncs (see afile_write_derived) */
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

/*
 * The same for a file that can be made again from others (a report's
 * pages): still never half-written under its name, but not fsynced — a
 * thousand cell pages, two fsyncs each, cost seconds.
 */
int afile_write_derived(const char *dir, const char *name,
			void (*fill)(FILE *fp, void *arg), void *arg);

/* mkdir -p, mode 0755. 0 or -errno. */
int mkdir_p(const char *path);

/*
 * A cell's directory from an earlier, unfinished run (dir exists): renamed
 * to DIR.partial-N, the first N free, and said so. Results are never
 * overwritten.
 */
void dir_keep_partial(const char *dir);
/* The same for NAME in the directory dirfd (shown: its path, for the log). */
void dir_keep_partial_at(int dirfd, const char *name, const char *shown);

/*
 * TREE/NAMES[0]/.../NAMES[n-1] as an open directory, each component below
 * tree made when missing and opened with O_NOFOLLOW: a symbolic link
 * planted in the tree leads nowhere (-ENOTDIR). Each name must be a
 * single component (-EINVAL). A descriptor (close it), or -errno.
 */
int dir_open_beneath(const char *tree, const char *const *names, int n);

/*
 * NAME in dirfd removed: a file or a link itself (never its target), or a
 * directory with the files in it (one level; opened O_NOFOLLOW).
 */
void dir_remove_flat_at(int dirfd, const char *name);

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
 * A whole CSV file (libcsv) as rows of fields; the first row is the
 * header. Every number on disk is read through csv_table_int/_num, which
 * take a field only when it parses whole.
 */
struct csv_table {
	char path[PATH_MAX];	/* as read, for messages */
	int nrows;
	int *ncols;
	int *line;	/* the line each row begins on (1: the header) */
	char ***cell;	/* cell[row][col] */
};

/* The largest file csv_table_read takes (bytes). */
#define CSV_TABLE_MAX (1LL << 30)

/*
 * Read PATH. It must be a regular file (a FIFO or a device is refused
 * without waiting for it) of at most CSV_TABLE_MAX bytes, well-formed
 * CSV ending in a newline, with a header and as many fields in every
 * row as in the header. 0, or -errno / -EINVAL with "PATH:LINE: reason"
 * (or "PATH: reason") in err. Free with csv_table_free, also after an
 * error.
 */
int csv_table_read(const char *path, struct csv_table *t, char *err,
		   size_t errlen);
void csv_table_free(struct csv_table *t);
/* Column index of `name` in the header row, or -1. */
int csv_table_col(const struct csv_table *t, const char *name);
/* Field `name` of row r; "" when there is no such column. */
const char *csv_table_str(const struct csv_table *t, int row, const char *name);
/*
 * Field `name` of row r as a whole decimal integer (no blank, no trailing
 * text, in int64_t's range) or a finite number. 0, or -EINVAL / -ERANGE
 * with "PATH:LINE: NAME = 'text' is not ..." in err.
 */
int csv_table_int(const struct csv_table *t, int row, const char *name,
		  int64_t *v, char *err, size_t errlen);
int csv_table_num(const struct csv_table *t, int row, const char *name,
		  double *v, char *err, size_t errlen);
/* Field `name` of row r, which csv_table_int has already checked, as a number. */
int64_t csv_table_checked(const struct csv_table *t, int row, const char *name);

#endif
