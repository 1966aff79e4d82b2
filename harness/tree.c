#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "tree.h"

static const char *field(const struct csv_table *t, int row, const char *name)
{
	int c = csv_table_col(t, name);

	return c >= 0 && c < t->ncols[row] ? t->cell[row][c] : "";
}

static int64_t num(const struct csv_table *t, int row, const char *name)
{
	return strtoll(field(t, row, name), NULL, 10);
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* hist.csv rows of `metric`, all threads, into h. */
static int read_hist(const char *dir, const char *metric, struct hist *h)
{
	struct csv_table t;
	char path[PATH_MAX + 600];
	int rc;

	snprintf(path, sizeof(path), "%s/hist.csv", dir);
	rc = csv_table_read(path, &t);
	if (rc)
		return rc;
	for (int r = 1; r < t.nrows; r++)
		if (strcmp(field(&t, r, "metric"), metric) == 0)
			hist_add_bucket(h, num(&t, r, "lo_ns"), num(&t, r, "hi_ns"),
					(uint64_t)num(&t, r, "count"));
	csv_table_free(&t);
	return 0;
}

static double load_rate(const char *dir)
{
	struct csv_table t;
	char path[PATH_MAX + 600];
	double sum = 0;

	snprintf(path, sizeof(path), "%s/load.csv", dir);
	if (csv_table_read(path, &t))
		return 0;
	for (int r = 1; r < t.nrows; r++)
		sum += strtod(field(&t, r, "ops_per_s"), NULL);
	csv_table_free(&t);
	return sum;
}

/* The exact min and max over threads, from cells.csv's rows of a metric. */
static void exact_bounds(struct hist *h, const struct csv_table *t,
			 const char *id, const char *metric)
{
	int first = 1;

	for (int r = 1; r < t->nrows; r++) {
		if (strcmp(field(t, r, "cell"), id) ||
		    strcmp(field(t, r, "metric"), metric))
			continue;
		int64_t lo = num(t, r, "min_ns"), hi = num(t, r, "max_ns");

		if (first || lo < h->min)
			h->min = lo;
		if (first || hi > h->max)
			h->max = hi;
		first = 0;
	}
}

static int add_cell(struct tree *t, const struct csv_table *cs, int r)
{
	struct tcell *c;
	struct tcell *cells = realloc(t->cell, (size_t)(t->n + 1) * sizeof(*c));

	if (!cells)
		return -ENOMEM;
	t->cell = cells;
	c = &t->cell[t->n++];
	memset(c, 0, sizeof(*c));
	copy(c->id, sizeof(c->id), field(cs, r, "cell"));
	copy(c->host, sizeof(c->host), field(cs, r, "host"));
	copy(c->release, sizeof(c->release), field(cs, r, "kernel_release"));
	copy(c->kernel, sizeof(c->kernel), field(cs, r, "kernel"));
	copy(c->load, sizeof(c->load), field(cs, r, "load"));
	copy(c->workload, sizeof(c->workload), field(cs, r, "workload"));
	copy(c->threads, sizeof(c->threads), field(cs, r, "threads"));
	copy(c->affinity, sizeof(c->affinity), field(cs, r, "affinity"));
	copy(c->status, sizeof(c->status), field(cs, r, "status"));
	copy(c->reason, sizeof(c->reason), field(cs, r, "reason"));
	copy(c->policy, sizeof(c->policy), field(cs, r, "policy"));
	c->index = num(cs, r, "index");
	c->interval = num(cs, r, "interval_ns");
	c->priority = num(cs, r, "priority");
	c->size = num(cs, r, "size");
	c->repeat = num(cs, r, "repeat");
	snprintf(c->dir, sizeof(c->dir), "%s/%s/%s/%s", t->dir, c->host,
		 c->release, c->id);
	return 0;
}

static int measure_cell(struct tcell *c, const struct csv_table *cs)
{
	int rc;

	/* per thread: overruns, errors, bytes (the wakeup row of each) */
	for (int r = 1; r < cs->nrows; r++) {
		if (strcmp(field(cs, r, "cell"), c->id) ||
		    strcmp(field(cs, r, "metric"), "wakeup"))
			continue;
		if (field(cs, r, "samples")[0] == '\0')
			return 0;	/* not measured */
		c->nthreads++;
		c->overruns += (uint64_t)num(cs, r, "overruns");
		c->errors += (uint64_t)num(cs, r, "errors");
		c->bytes += (uint64_t)num(cs, r, "bytes");
		c->bytes_per_s += strtod(field(cs, r, "bytes_per_s"), NULL);
	}
	for (int r = 1; r < cs->nrows; r++)
		if (!strcmp(field(cs, r, "cell"), c->id) &&
		    !strcmp(field(cs, r, "metric"), "io") &&
		    num(cs, r, "p99_ns") > c->io_p99)
			c->io_p99 = num(cs, r, "p99_ns");
	if (c->nthreads)
		c->bytes_per_s /= c->nthreads;
	c->wakeup = malloc(sizeof(*c->wakeup));
	c->response = malloc(sizeof(*c->response));
	if (!c->wakeup || !c->response)
		return -ENOMEM;
	hist_init(c->wakeup);
	hist_init(c->response);
	rc = read_hist(c->dir, "wakeup", c->wakeup);
	if (rc == 0)
		rc = read_hist(c->dir, "response", c->response);
	if (rc)
		return rc;
	exact_bounds(c->wakeup, cs, c->id, "wakeup");
	exact_bounds(c->response, cs, c->id, "response");
	c->measured = c->wakeup->count > 0;
	c->load_ops_per_s = load_rate(c->dir);
	return 0;
}

int tree_read(struct tree *t, const char *dir, char *err, size_t errlen)
{
	struct csv_table cs;
	char path[PATH_MAX + 600];
	int rc;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/cells.csv", dir);
	rc = csv_table_read(path, &cs);
	if (rc) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(-rc),
			 rc == -ENOENT ? " (not a latlab results directory)" : "");
		return rc;
	}
	if (csv_table_col(&cs, "cell") < 0 || csv_table_col(&cs, "metric") < 0) {
		snprintf(err, errlen, "%s: not a latlab cells.csv", path);
		csv_table_free(&cs);
		return -EINVAL;
	}
	if (cs.nrows > 1)
		snprintf(t->campaign, sizeof(t->campaign), "%s",
			 field(&cs, 1, "campaign"));
	for (int r = 1; r < cs.nrows && rc == 0; r++) {
		const char *id = field(&cs, r, "cell");

		if (t->n && strcmp(t->cell[t->n - 1].id, id) == 0)
			continue;	/* rows of a cell are together */
		rc = add_cell(t, &cs, r);
		if (rc == 0 && strcmp(t->cell[t->n - 1].status, "pending"))
			rc = measure_cell(&t->cell[t->n - 1], &cs);
		if (rc)
			snprintf(err, errlen, "%s: %s", t->cell[t->n - 1].dir,
				 strerror(-rc));
	}
	csv_table_free(&cs);
	if (rc)
		tree_free(t);
	return rc;
}

void tree_free(struct tree *t)
{
	for (int i = 0; i < t->n; i++) {
		free(t->cell[i].wakeup);
		free(t->cell[i].response);
	}
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

void tcell_key(const struct tcell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%s|%s|%s|%lld|%lld|%lld|%lld", c->load,
		 c->workload, c->threads, c->affinity, (long long)c->interval,
		 (long long)c->priority, (long long)c->size,
		 (long long)c->repeat);
}

int tcell_emulated(const struct tcell *c)
{
	char path[sizeof(c->dir) + 16], line[256], section[32] = "";
	FILE *fp;
	int tcg = 0;

	snprintf(path, sizeof(path), "%s/sysinfo.ini", c->dir);
	fp = fopen(path, "re");
	while (fp && !tcg && fgets(line, sizeof(line), fp)) {
		if (line[0] == '[')
			snprintf(section, sizeof(section), "%.*s",
				 (int)strcspn(line + 1, "]"), line + 1);
		else if (strcmp(section, "vm") == 0 &&
			 strncmp(line, "accel = ", 8) == 0)
			tcg = strncmp(line + 8, "kvm", 3) != 0;
	}
	if (fp)
		fclose(fp);
	return tcg;
}

int tree_emulated(const struct tree *t)
{
	for (int i = 0; i < t->n; i++)
		if (tcell_emulated(&t->cell[i]))
			return 1;
	return 0;
}
