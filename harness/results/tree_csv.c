/*
 * The tree reader's own helpers over the strict CSV reader (tree_parts.h):
 * a column's text, lists of column names, integer columns, bounds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "tree_parts.h"

const char *tr_field(const struct csv_table *t, int row, const char *name)
{
	return csv_table_str(t, row, name);
}

void tr_copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* The next name of a comma-separated list at *p into name; 0 at its end. */
int tr_next_name(const char **p, char *name, size_t len)
{
	return opt_list_next(p, name, len, 0);
}

/* Each of the comma-separated integer columns of row r parses whole. */
int tr_row_ints(const struct csv_table *t, int r, const char *names,
		    char *err, size_t len)
{
	char name[32];
	int64_t v;

	while (tr_next_name(&names, name, sizeof(name)))
		if (csv_table_int(t, r, name, &v, err, len))
			return -EINVAL;
	return 0;
}

/* Every comma-separated column is in the header. */
int tr_has_columns(const struct csv_table *t, const char *names,
		       char *err, size_t len)
{
	char name[32];

	while (tr_next_name(&names, name, sizeof(name))) {
		if (csv_table_col(t, name) < 0) {
			snprintf(err, len, "%s:1: no column '%s': not latlab's", t->path, name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Row r's integer column `name` (already checked to be one) within [lo,
 * hi], else -EINVAL at FILE:LINE with what bounds it: a figure a reader
 * shows must be one the cell can hold.
 */
int tr_row_within(const struct csv_table *t, int r, const char *name, int64_t lo,
		      int64_t hi, const char *bound, char *err, size_t len)
{
	int64_t v = csv_table_checked(t, r, name);

	if (v >= lo && v <= hi)
		return 0;
	snprintf(err, len, "%.400s:%d: %s = %lld: %s", t->path, t->line[r], name, (long long)v,
		 bound);
	return -EINVAL;
}

