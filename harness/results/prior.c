#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "log.h"
#include "prior.h"

/* A state file larger than this is not latlab's (a line per cell). */
#define PRIOR_STATE_MAX (64LL << 20)

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
		int tries;
		char variant[64];
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
	return 0;
}

void prior_free(struct prior *p)
{
	free(p->cell);
	csv_table_free(&p->rows);
	memset(p, 0, sizeof(*p));
}

enum cell_status prior_status(const struct prior *p, const char *id)
{
	/* a cell's later line wins: the state appends changes */
	for (int i = p->n - 1; i >= 0; i--)
		if (strcmp(p->cell[i].id, id) == 0)
			return p->cell[i].status;
	return CELL_PENDING;
}

static int id_col(const struct prior *p)
{
	return csv_table_col(&p->rows, "cell");
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
	for (int r = 1; r < p->rows.nrows; r++) {
		if (col >= p->rows.ncols[r] || strcmp(p->rows.cell[r][col], id))
			continue;
		for (int c = 0; c < p->rows.ncols[r]; c++)
			csvw_str(&w, p->rows.cell[r][c]);
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

	if (col < 0 || rcol < 0)
		return "";
	for (int r = 1; r < p->rows.nrows; r++)
		if (col < p->rows.ncols[r] && rcol < p->rows.ncols[r] &&
		    strcmp(p->rows.cell[r][col], id) == 0)
			return p->rows.cell[r][rcol];
	return "";
}

int prior_where(const struct prior *p, const char *id, const char **status,
		const char **host, const char **release)
{
	int col = id_col(p);

	for (int r = 1; col >= 0 && r < p->rows.nrows; r++) {
		if (col >= p->rows.ncols[r] || strcmp(p->rows.cell[r][col], id))
			continue;
		*status = csv_table_str(&p->rows, r, "status");
		*host = csv_table_str(&p->rows, r, "host");
		*release = csv_table_str(&p->rows, r, "kernel_release");
		return 0;
	}
	return -ENOENT;
}
