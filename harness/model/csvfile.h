/*
 * CSV through libcsv: a row writer that quotes only when it must, and the
 * one strict reader of a whole file (csv_table_read).
 */
#ifndef LATLAB_CSVFILE_H
#define LATLAB_CSVFILE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

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
