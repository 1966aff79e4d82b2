#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csvfile.h"
#include "files.h"
#include "log.h"

/* ---- writing ---- */

static void sep(struct csvw *w)
{
	if (w->col++ > 0)
		fputc(',', w->fp);
}

void csvw_str(struct csvw *w, const char *s)
{
	sep(w);
	if (s[strcspn(s, ",\"\r\n")] != '\0' || s[0] == ' ')
		csv_fwrite(w->fp, s, strlen(s));	/* quotes, doubles " */
	else
		fputs(s, w->fp);
}

void csvw_int(struct csvw *w, int64_t v)
{
	sep(w);
	fprintf(w->fp, "%lld", (long long)v);
}

void csvw_num(struct csvw *w, double v, int decimals)
{
	sep(w);
	fprintf(w->fp, "%.*f", decimals, v);
}

void csvw_end(struct csvw *w)
{
	fputc('\n', w->fp);
	w->col = 0;
}

void csvw_header(struct csvw *w, const char *names)
{
	fputs(names, w->fp);
	csvw_end(w);
}

/* ---- reading ---- */

struct csv_build {
	struct csv_table *t;
	char **row;
	int ncols;
	int line;		/* the physical line being parsed */
	int row_line;		/* the line the row being built began on */
	int oom;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csv_build *b = data;
	char **row = realloc(b->row, (size_t)(b->ncols + 1) * sizeof(*row));
	char *f = malloc(len + 1);

	if (!row || !f) {
		free(f);
		if (row)
			b->row = row;
		b->oom = 1;
		return;
	}
	b->row = row;
	memcpy(f, s, len);
	f[len] = '\0';
	b->row[b->ncols++] = f;
}

static void on_row(int c, void *data)
{
	struct csv_build *b = data;
	struct csv_table *t = b->t;
	size_t n = (size_t)t->nrows + 1;
	char ***cells = realloc(t->cell, n * sizeof(*cells));
	int *ncols = realloc(t->ncols, n * sizeof(*ncols));
	int *lines = realloc(t->line, n * sizeof(*lines));

	(void)c;
	if (cells)
		t->cell = cells;
	if (ncols)
		t->ncols = ncols;
	if (lines)
		t->line = lines;
	if (!cells || !ncols || !lines) {
		b->oom = 1;
		return;
	}
	t->cell[t->nrows] = b->row;
	t->line[t->nrows] = b->row_line;
	t->ncols[t->nrows++] = b->ncols;
	b->row = NULL;
	b->ncols = 0;
	/* called at the row's newline, before parse_lines counts it */
	b->row_line = b->line + 1;
}

/* "PATH:LINE: why" (line 0: "PATH: why") in err; rc. */
#define table_fail(err, len, path, line, rc, ...) \
	fail_at(err, len, rc, path, line, __VA_ARGS__)

/* Parse buf[0..n) a line at a time, so each row knows its first line. */
static int parse_lines(struct csv_parser *p, struct csv_build *b,
		       const char *buf, size_t n)
{
	while (n > 0) {
		const char *nl = memchr(buf, '\n', n);
		size_t part = nl ? (size_t)(nl - buf) + 1 : n;

		if (csv_parse(p, buf, part, on_field, on_row, b) != part)
			return -EINVAL;
		b->line += nl != NULL;
		buf += part;
		n -= part;
	}
	return 0;
}

int csv_table_read(const char *path, struct csv_table *t, char *err,
		   size_t errlen)
{
	struct csv_parser p;
	struct csv_build b = { .t = t, .line = 1, .row_line = 1 };
	char buf[65536], last = '\n';
	ssize_t n;
	int rc = 0, fd;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	fd = file_open_regular(path, CSV_TABLE_MAX, err, errlen);
	if (fd < 0)
		return fd;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		close(fd);
		return table_fail(err, errlen, path, 0, -ENOMEM, "out of memory");
	}
	while (rc == 0 && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = table_fail(err, errlen, path, b.line, -errno, "%s",
					strerror(errno));
			break;
		}
		last = buf[n - 1];
		if (parse_lines(&p, &b, buf, (size_t)n))
			rc = table_fail(err, errlen, path, b.line, -EINVAL, "%s",
					csv_strerror(csv_error(&p)));
	}
	if (rc == 0 && csv_fini(&p, on_field, on_row, &b) != 0)
		rc = table_fail(err, errlen, path, b.row_line, -EINVAL,
				"a quoted field is never closed");
	if (rc == 0 && last != '\n')
		rc = table_fail(err, errlen, path, b.line, -EINVAL,
				"the last line has no newline: the file was cut short");
	csv_free(&p);
	close(fd);
	for (int i = 0; i < b.ncols; i++)
		free(b.row[i]);
	free(b.row);
	if (b.oom)
		rc = table_fail(err, errlen, path, 0, -ENOMEM, "out of memory");
	for (int r = 1; rc == 0 && r < t->nrows; r++)
		if (t->ncols[r] != t->ncols[0])
			rc = table_fail(err, errlen, path, t->line[r], -EINVAL,
					"%d fields, but the header has %d",
					t->ncols[r], t->ncols[0]);
	if (rc == 0 && t->nrows == 0)
		rc = table_fail(err, errlen, path, 0, -EINVAL,
				"empty: not even a header");
	if (rc)
		csv_table_free(t);
	return rc;
}

void csv_table_free(struct csv_table *t)
{
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols[r]; c++)
			free(t->cell[r][c]);
		free(t->cell[r]);
	}
	free(t->cell);
	free(t->ncols);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

int csv_table_col(const struct csv_table *t, const char *name)
{
	if (t->nrows == 0)
		return -1;
	for (int c = 0; c < t->ncols[0]; c++)
		if (strcmp(t->cell[0][c], name) == 0)
			return c;
	return -1;
}

const char *csv_table_str(const struct csv_table *t, int row, const char *name)
{
	int c = csv_table_col(t, name);

	return c >= 0 && c < t->ncols[row] ? t->cell[row][c] : "";
}

int csv_table_int(const struct csv_table *t, int row, const char *name,
		  int64_t *v, char *err, size_t errlen)
{
	const char *s = csv_table_str(t, row, name);
	char *end;

	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (csv_table_col(t, name) < 0)
		return table_fail(err, errlen, t->path, 1, -EINVAL,
				  "no column '%s'", name);
	if (!s[0] || *end || end == s || s[0] == ' ')
		return table_fail(err, errlen, t->path, t->line[row], -EINVAL,
				  "%s = '%.40s' is not an integer", name, s);
	if (errno == ERANGE)
		return table_fail(err, errlen, t->path, t->line[row], -ERANGE,
				  "%s = '%.40s' is out of range", name, s);
	*v = x;
	return 0;
}

int64_t csv_table_checked(const struct csv_table *t, int row, const char *name)
{
	return strtoll(csv_table_str(t, row, name), NULL, 10);
}

int csv_table_num(const struct csv_table *t, int row, const char *name,
		  double *v, char *err, size_t errlen)
{
	const char *s = csv_table_str(t, row, name);
	char *end;

	if (csv_table_col(t, name) < 0)
		return table_fail(err, errlen, t->path, 1, -EINVAL,
				  "no column '%s'", name);
	errno = 0;
	double x = strtod(s, &end);
	if (!s[0] || *end || end == s || s[0] == ' ' || errno == ERANGE ||
	    x != x || x - x != 0)
		return table_fail(err, errlen, t->path, t->line[row], -EINVAL,
				  "%s = '%.40s' is not a finite number", name, s);
	*v = x;
	return 0;
}
