/*
 * What the tree reader's files share (tree.c, cellcheck.c, treecell.c,
 * tree_csv.c), private to results/.
 */
#ifndef LATLAB_TREE_PARTS_H
#define LATLAB_TREE_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "csvfile.h"
#include "hist.h"
#include "tree.h"

/* Row r's value of column name ("" where the file has no such column). */
const char *tr_field(const struct csv_table *t, int row, const char *name);

/* src into dst, cut to len. */
void tr_copy(char *dst, size_t len, const char *src);

/* The next name of a comma-separated list at *p into name; 0 at its end. */
int tr_next_name(const char **p, char *name, size_t len);

/* Each of the comma-separated integer columns of row r parses whole. 0 or -EINVAL (err: FILE:LINE). */
int tr_row_ints(const struct csv_table *t, int r, const char *names, char *err, size_t len);

/* Every comma-separated column is in the header. 0 or -EINVAL (err: FILE:1). */
int tr_has_columns(const struct csv_table *t, const char *names, char *err, size_t len);

/*
 * Row r's integer column `name` (already checked to be one) within [lo,
 * hi], else -EINVAL at FILE:LINE with what bounds it.
 */
int tr_row_within(const struct csv_table *t, int r, const char *name, int64_t lo, int64_t hi,
		  const char *bound, char *err, size_t len);

/* hist.csv rows of `metric`, all threads, into h. */
void tr_add_hist(const struct csv_table *t, const char *metric, struct hist *h);

/*
 * A measured cell's files besides hist.csv and summary.csv: spikes.csv,
 * series.csv, interference.csv, timeline.csv, load.csv, into c (its
 * threads, wake-up maximum and span known). 0, or -errno with FILE:LINE.
 */
int tr_read_cell_files(struct tcell *c, char *err, size_t len);

#endif
