#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "log.h"
#include "model.h"
#include "prior.h"

/* A state file larger than this is not latlab's (a line per cell). */
#define PRIOR_STATE_MAX (64LL << 20)

static int index_prior(struct prior *p);

int prior_read(const char *dir, struct prior *p, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], line[CELL_ID_MAX + 64];
	FILE *fp;
	int have_hash = 0;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), "%s/state", dir);
	int fd = file_open_regular(path, PRIOR_STATE_MAX, err, errlen);
	if (fd < 0)
		return fd;
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return fail_at(err, errlen, -ENOMEM, path, 0, "out of memory");
	}
	while (fgets(line, sizeof(line), fp)) {
		char key[CELL_ID_MAX], value[32];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "config_hash = %" SCNx64, &p->hash) == 1) {
			have_hash = 1;
			continue;
		}
		if (sscanf(line, "reboot_to = %63s", p->reboot_to) == 1)
			continue;
		if (sscanf(line, "boot_id = %39s", p->boot_id) == 1)
			continue;
		int tries, n;
		char variant[64], id[CELL_ID_MAX];
		if (sscanf(line, "went_down.%159[^ ] = %d", id, &n) == 2) {
			struct prior_down *d = realloc(p->down, (size_t)(p->ndown + 1) * sizeof(*d));

			if (!d) {
				fclose(fp);
				prior_free(p);
				return -ENOMEM;
			}
			p->down = d;
			snprintf(d[p->ndown].id, sizeof(d[0].id), "%s", id);
			d[p->ndown++].n = n;
			continue;
		}
		if (sscanf(line, "boot_tries.%63[^ ] = %d", variant, &tries) == 2) {
			if (p->nboots < PRIOR_MAX_VARIANTS) {
				snprintf(p->boot[p->nboots].variant,
					 sizeof(p->boot[0].variant), "%s", variant);
				p->boot[p->nboots++].tries = tries;
			}
			continue;
		}
		if (sscanf(line, "%159s = %31s", key, value) != 2 ||
		    strcmp(key, "cells") == 0)
			continue;
		int st = cell_status_parse(value);
		if (st < 0)
			continue;
		struct prior_cell *c = realloc(p->cell, (size_t)(p->n + 1) * sizeof(*c));
		if (!c) {
			fclose(fp);
			prior_free(p);
			return -ENOMEM;
		}
		p->cell = c;
		snprintf(c[p->n].id, sizeof(c[0].id), "%s", key);
		c[p->n++].status = (enum cell_status)st;
	}
	fclose(fp);
	if (!have_hash) {
		snprintf(err, errlen, "%s: not a latlab state file (no config_hash)", path);
		prior_free(p);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/cells.csv", dir);
	if (csv_table_read(path, &p->rows, err, errlen) != 0)
		memset(&p->rows, 0, sizeof(p->rows));
	if (index_prior(p) != 0) {
		prior_free(p);
		return -ENOMEM;
	}
	return 0;
}

int prior_went_down(const struct prior *p, const char *id)
{
	int n = 0;

	for (int i = 0; i < p->ndown; i++)	/* a later line wins */
		if (strcmp(p->down[i].id, id) == 0)
			n = p->down[i].n;
	return n;
}

void prior_free(struct prior *p)
{
	free(p->down);
	free(p->cell);
	free(p->last);
	free(p->by_id);
	free(p->col_of);
	csv_table_free(&p->rows);
	memset(p, 0, sizeof(*p));
}

/* A row's id: its cell column ("" where the row is too short). */
static const char *row_id(const struct prior *p, int r)
{
	return p->id_col >= 0 && p->id_col < p->rows.ncols[r]
	       ? p->rows.cell[r][p->id_col] : "";
}

/* by id, then by line: equal ids keep their order */
static int by_state_line(const void *a, const void *b, void *arg)
{
	const struct prior *p = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(p->cell[x].id, p->cell[y].id);

	return c ? c : (x > y) - (x < y);
}

static int by_row_id(const void *a, const void *b, void *arg)
{
	const struct prior *p = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(row_id(p, x), row_id(p, y));

	return c ? c : (x > y) - (x < y);
}

/* The state's last line of each id, and cells.csv's rows, sorted by id. */
static int index_prior(struct prior *p)
{
	p->id_col = csv_table_col(&p->rows, "cell");
	/* the columns of now, by name in the rows read */
	char names[CELLS_HEAD_MAX + sizeof(SUMMARY_COLUMNS)];

	cells_head_columns(names, sizeof(names));
	strcat(names, SUMMARY_COLUMNS);

	p->ncols_now = 1;
	for (const char *q = names; *q; q++)
		p->ncols_now += *q == ',';
	p->col_of = malloc((size_t)p->ncols_now * sizeof(*p->col_of));
	if (!p->col_of)
		return -ENOMEM;
	int k = 0;
	for (char *name = strtok(names, ","); name && k < p->ncols_now; name = strtok(NULL, ","))
		p->col_of[k++] = p->rows.nrows ? csv_table_col(&p->rows, name) : -1;
	p->ncols_now = k;
	p->last = malloc(((size_t)p->n + 1) * sizeof(*p->last));
	p->by_id = malloc(((size_t)p->rows.nrows + 1) * sizeof(*p->by_id));
	if (!p->last || !p->by_id)
		return -ENOMEM;
	for (int i = 0; i < p->n; i++)
		p->last[i] = i;
	qsort_r(p->last, (size_t)p->n, sizeof(*p->last), by_state_line, p);
	/* a cell's later line wins: the state appends changes */
	for (int i = 0; i < p->n; i++) {
		if (p->nlast && strcmp(p->cell[p->last[p->nlast - 1]].id,
				       p->cell[p->last[i]].id) == 0)
			p->nlast--;
		p->last[p->nlast++] = p->last[i];
	}
	for (int r = 1; r < p->rows.nrows; r++)
		p->by_id[p->nby_id++] = r;
	qsort_r(p->by_id, (size_t)p->nby_id, sizeof(*p->by_id), by_row_id, p);
	return 0;
}

enum cell_status prior_status(const struct prior *p, const char *id)
{
	int lo = 0, hi = p->nlast;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(p->cell[p->last[mid]].id, id);

		if (c == 0)
			return p->cell[p->last[mid]].status;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return CELL_PENDING;
}

/* The first of id's rows in by_id (its rows follow, in file order), or nby_id. */
static int first_row(const struct prior *p, const char *id)
{
	int lo = 0, hi = p->nby_id;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(row_id(p, p->by_id[mid]), id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int id_col(const struct prior *p)
{
	return p->id_col;
}

int prior_rows_together(const struct prior *p, const char *id)
{
	int first = first_row(p, id), k = first;

	while (k + 1 < p->nby_id && !strcmp(row_id(p, p->by_id[k + 1]), id))
		k++;
	/* by_id holds equal ids in file order: together when consecutive */
	return first >= p->nby_id || p->by_id[k] - p->by_id[first] == k - first;
}

char *prior_rows(const struct prior *p, const char *id)
{
	int col = id_col(p);
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (col < 0)
		return NULL;
	fp = open_memstream(&text, &len);
	if (!fp)
		return NULL;
	struct csvw w = { .fp = fp };
	for (int k = first_row(p, id); k < p->nby_id && !strcmp(row_id(p, p->by_id[k]), id); k++) {
		int r = p->by_id[k];

		/* as cells.csv is now, whatever the version that wrote it */
		for (int c = 0; c < p->ncols_now; c++) {
			int from = p->col_of[c];

			csvw_str(&w, from >= 0 && from < p->rows.ncols[r] ? p->rows.cell[r][from] : "");
		}
		csvw_end(&w);
	}
	fclose(fp);
	if (len == 0) {
		free(text);
		return NULL;
	}
	return text;
}

const char *prior_reason(const struct prior *p, const char *id)
{
	int col = id_col(p), rcol = csv_table_col(&p->rows, "reason");

	int k = first_row(p, id), r;

	if (col < 0 || rcol < 0 || k >= p->nby_id || strcmp(row_id(p, p->by_id[k]), id))
		return "";
	r = p->by_id[k];
	return rcol < p->rows.ncols[r] ? p->rows.cell[r][rcol] : "";
}

int prior_where(const struct prior *p, const char *id, const char **status,
		const char **host, const char **release)
{
	int k = first_row(p, id);

	if (id_col(p) >= 0 && k < p->nby_id && !strcmp(row_id(p, p->by_id[k]), id)) {
		int r = p->by_id[k];

		*status = csv_table_str(&p->rows, r, "status");
		*host = csv_table_str(&p->rows, r, "host");
		*release = csv_table_str(&p->rows, r, "kernel_release");
		return 0;
	}
	return -ENOENT;
}
