#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "results.h"

int afile_open(struct afile *af, const char *path)
{
	int fd;

	if (strlen(path) >= sizeof(af->path))
		return -ENAMETOOLONG;
	snprintf(af->path, sizeof(af->path), "%s", path);
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%d", path, (int)getpid());
	/* O_NOFOLLOW: never write through a planted symlink */
	fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		  O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int rc = -errno;

		close(fd);
		unlink(af->tmp);
		return rc;
	}
	return 0;
}

static int fsync_dir(const char *path)
{
	char copy[PATH_MAX];
	int fd, rc = 0;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0 && errno != EINVAL)
		rc = -errno;
	close(fd);
	return rc;
}

int afile_commit(struct afile *af)
{
	int rc = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		rc = -(errno ? errno : EIO);
	if (rc == 0 && fsync(fileno(af->fp)) != 0)
		rc = -errno;
	if (fclose(af->fp) != 0 && rc == 0)
		rc = -errno;
	af->fp = NULL;
	if (rc == 0 && rename(af->tmp, af->path) != 0)
		rc = -errno;
	if (rc != 0) {
		unlink(af->tmp);
		return rc;
	}
	return fsync_dir(af->path);
}

void afile_abort(struct afile *af)
{
	if (af->fp)
		fclose(af->fp);
	af->fp = NULL;
	unlink(af->tmp);
}

int afile_write(const char *dir, const char *name,
		void (*fill)(FILE *fp, void *arg), void *arg)
{
	char path[PATH_MAX];
	struct afile af;
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	rc = afile_open(&af, path);
	if (rc)
		return rc;
	fill(af.fp, arg);
	return afile_commit(&af);
}

int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

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
	char ***cells = realloc(t->cell, (size_t)(t->nrows + 1) * sizeof(*cells));
	int *ncols = realloc(t->ncols, (size_t)(t->nrows + 1) * sizeof(*ncols));

	(void)c;
	if (cells)
		t->cell = cells;
	if (ncols)
		t->ncols = ncols;
	if (!cells || !ncols) {
		b->oom = 1;
		return;
	}
	t->cell[t->nrows] = b->row;
	t->ncols[t->nrows++] = b->ncols;
	b->row = NULL;
	b->ncols = 0;
}

int csv_table_read(const char *path, struct csv_table *t)
{
	struct csv_parser p;
	struct csv_build b = { .t = t };
	char buf[65536];
	size_t n;
	int rc = 0;
	FILE *fp = fopen(path, "re");

	memset(t, 0, sizeof(*t));
	if (!fp)
		return -errno;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		fclose(fp);
		return -ENOMEM;
	}
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (csv_parse(&p, buf, n, on_field, on_row, &b) != n) {
			rc = -EINVAL;
			break;
		}
	if (ferror(fp))
		rc = -EIO;
	if (rc == 0 && csv_fini(&p, on_field, on_row, &b) != 0)
		rc = -EINVAL;
	csv_free(&p);
	fclose(fp);
	for (int i = 0; i < b.ncols; i++)
		free(b.row[i]);
	free(b.row);
	if (b.oom)
		rc = -ENOMEM;
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

/* A cell's directory from an earlier, unfinished run: kept beside, as .partial-N. */
void dir_keep_partial(const char *dir)
{
	char to[2 * PATH_MAX];
	struct stat st;

	if (stat(dir, &st) != 0)
		return;
	for (int n = 1; n < 1000; n++) {
		snprintf(to, sizeof(to), "%s.partial-%d", dir, n);
		if (stat(to, &st) == 0)
			continue;
		if (rename(dir, to) == 0)
			log_info("kept the earlier, unfinished data of this cell as %s", to);
		return;
	}
}
