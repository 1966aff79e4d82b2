#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "cellfiles.h"
#include "cellread.h"
#include "csvfile.h"
#include "plot.h"
#include "report_parts.h"

static void fill_runmax(FILE *fp, void *arg)
{
	const struct runmax_file *f = arg;

	fputs("t_s", fp);
	for (int i = 0; i < f->n; i++)
		fprintf(fp, ",repeat %lld", (long long)f->run[i]->repeat);
	fputc('\n', fp);
	for (int s = 0; s < f->nsec; s++) {
		fprintf(fp, "%d", s);
		for (int i = 0; i < f->n; i++) {
			const struct tcell *c = f->run[i];

			if (s < c->nsec)
				fprintf(fp, ",%lld", (long long)c->runmax[s]);
			else
				fputc(',', fp);
		}
		fputc('\n', fp);
	}
}

/* DIR/NAME: the running maximum of run[0..n), second by second (runmax.gp's CSV). */
int report_runmax_file(const char *dir, const char *name, const struct tcell **run,
		       int n, int nsec)
{
	struct runmax_file f = { run, n, nsec };

	return afile_write(dir, name, fill_runmax, &f);
}

/*
 * `word`'s place (from 1) in the blank-separated `list`; when absent, 0,
 * or with `add` its place at the list's end, -E2BIG when it does not fit:
 * a list handed to gnuplot is never cut short.
 */
static int word_index(char *list, size_t len, const char *word, int add)
{
	size_t wl = strlen(word), used = strlen(list);
	int i = 1;

	for (const char *p = list; *p; i++) {
		size_t n = strcspn(p, " ");

		if (n == wl && strncmp(p, word, n) == 0)
			return i;
		p += n;
		p += *p == ' ';
	}
	if (!add)
		return 0;
	if (used + (used > 0) + wl + 1 > len)
		return -E2BIG;
	snprintf(list + used, len - used, "%s%s", used ? " " : "", word);
	return i;
}

static int kernel_index(struct report *r, const char *kernel)
{
	return word_index(r->kernels, sizeof(r->kernels), kernel, 1);
}

static int by_load(const void *a, const void *b)
{
	const struct tcell *x = *(const struct tcell *const *)a;
	const struct tcell *y = *(const struct tcell *const *)b;
	int c = strcmp(x->load, y->load);

	return c ? c : (int)(x->index - y->index);
}

/* report/cells-summary.csv: one row per measured cell, grouped by load. */
int report_cells_summary(struct report *r, const char *path)
{
	const struct tcell **sorted = calloc((size_t)r->t.n, sizeof(*sorted));
	struct afile af;
	int n = 0, rc;

	if (!sorted)
		return -ENOMEM;
	for (int i = 0; i < r->t.n; i++)
		if (r->t.cell[i].measured && report_metric_of(r, &r->t.cell[i]) >= 0)
			sorted[n++] = &r->t.cell[i];
	qsort(sorted, (size_t)n, sizeof(*sorted), by_load);
	rc = afile_open(&af, path);
	if (rc) {
		free(sorted);
		return rc;
	}
	struct csvw w = { .fp = af.fp };
	csvw_header(&w, "index,cell,kernel,kernel_index,load,label,p50_us,p99_us,p99.99_us,max_us,metric");
	for (int i = 0; i < n; i++) {
		const struct tcell *c = sorted[i];
		const struct hist *h = c->metric[report_metric_of(r, c)];
		char label[256];

		snprintf(label, sizeof(label), "%s", c->id + 5);	/* no NNNN- */
		csvw_int(&w, i);
		csvw_str(&w, c->id);
		csvw_str(&w, c->kernel);
		int k = kernel_index(r, c->kernel);

		if (k < 0) {	/* more kernel variants than the legend's list holds */
			free(sorted);
			afile_abort(&af);
			return k;
		}
		csvw_int(&w, k);
		csvw_str(&w, c->load);
		csvw_str(&w, label);
		csvw_num(&w, US(hist_percentile(h, 50)), 3);
		csvw_num(&w, US(hist_percentile(h, 99)), 3);
		csvw_num(&w, US(hist_percentile(h, 99.99)), 3);
		csvw_num(&w, US(h->max), 3);
		csvw_str(&w, metric_name(report_metric_of(r, c)));
		csvw_end(&w);
	}
	free(sorted);
	return afile_commit(&af);
}

/*
 * report/sweep.csv when a workload ran at several sizes; its workloads
 * (blank-separated) go to `names`. 1 if written, 0 if no sweep, -errno.
 */
int report_sweep(struct report *r, const char *path, char *names,
		       size_t len)
{
	struct afile af;
	int rows = 0, rc;

	names[0] = '\0';
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *a = &r->t.cell[i];

		for (int j = 0; j < r->t.n && a->measured; j++) {
			const struct tcell *b = &r->t.cell[j];

			if (b->measured && !strcmp(a->workload, b->workload) &&
			    a->size != b->size && a->bytes) {
				if (word_index(names, len, a->workload, 1) < 0)
					return -E2BIG;
				break;
			}
		}
	}
	if (!names[0])
		return 0;
	rc = afile_open(&af, path);
	if (rc)
		return rc;
	struct csvw w = { .fp = af.fp };
	csvw_header(&w, "workload,size,bytes_per_s,io_p99_us,response_p99_us");
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->measured || word_index(names, len, c->workload, 0) <= 0)
			continue;
		csvw_str(&w, c->workload);
		csvw_int(&w, c->size);
		csvw_num(&w, c->bytes_per_s, 0);
		csvw_num(&w, US(c->io_p99), 3);
		csvw_num(&w, US(hist_percentile(c->response, 99)), 3);
		csvw_end(&w);
		rows++;
	}
	rc = afile_commit(&af);
	return rc ? rc : rows > 0;
}

/*
 * The tail figure's curves. Up to TAIL_CELLS measured cells: each cell's
 * hist.csv, by id. More: a curve per row and kernel variant (its repeats
 * merged, written as fig/tail-K.csv), the TAIL_ROWS with the largest
 * maxima; `caption` says which. A thousand curves on one axis take
 * gnuplot minutes and nobody can read them.
 */
#define TAIL_CELLS 20

#define TAIL_ROWS 24

/* The largest max of group g's runs on its row's metric. */
static int64_t group_max(const struct report *r, int g)
{
	const struct rows_group *gr = &r->m.group[g];
	int m = r->m.row[gr->row].metric;
	int64_t max = 0;

	for (int i = 0; i < gr->n; i++)
		if (gr->run[i]->metric[m]->max > max)
			max = gr->run[i]->metric[m]->max;
	return max;
}

static int by_group_max(const void *a, const void *b, void *arg)
{
	int64_t ma = group_max(arg, *(const int *)a), mb = group_max(arg, *(const int *)b);

	return ma < mb ? 1 : ma > mb ? -1 : 0;
}

/* fig/tail-K.csv: group k's histogram of its row's metric, its runs merged (hist.csv's columns). */
static int write_group_hist(const struct report *r, int k, const char *path)
{
	struct hist *h = malloc(sizeof(*h));
	int m = r->m.row[r->m.group[k].row].metric;
	struct afile af;
	int rc;

	if (!h)
		return -ENOMEM;
	hist_init(h);
	for (int i = 0; i < r->m.group[k].n; i++)
		hist_merge(h, r->m.group[k].run[i]->metric[m]);
	rc = afile_open(&af, path);
	if (rc == 0) {
		struct csvw w = { .fp = af.fp };

		csvw_header(&w, HIST_COLUMNS);
		cell_hist_rows(&w, h, 0, -1, metric_name(m));
		rc = afile_commit(&af);
	}
	free(h);
	return rc;
}

int report_tail_list(const struct report *r, const char *file, char *caption,
			   size_t caplen)
{
	int measured = 0, n = 0, rc = -ENOMEM;

	for (int i = 0; i < r->t.n; i++)
		measured += r->t.cell[i].measured && report_metric_of(r, &r->t.cell[i]) >= 0;
	int by_row = measured > TAIL_CELLS, max = by_row ? r->m.ngroups : measured;
	const char **paths = calloc((size_t)max + 1, sizeof(*paths));
	const char **names = calloc((size_t)max + 1, sizeof(*names));
	const char **metrics = calloc((size_t)max + 1, sizeof(*metrics));
	char **owned = calloc(2 * (size_t)max + 2, sizeof(*owned));
	int *order = calloc((size_t)r->m.ngroups + 1, sizeof(*order));

	if (!paths || !names || !metrics || !owned || !order)
		goto out;
	snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF), every cell on one axis, each on its workload's metric.");
	for (int i = 0; !by_row && i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->measured || report_metric_of(r, c) < 0)
			continue;
		metrics[n] = metric_name(report_metric_of(r, c));
		char hist[PATH_MAX];

		if (cell_file_path(hist, sizeof(hist), c->dir, CELLF_HIST) != 0 ||
		    !(owned[n] = strdup(hist)))
			goto out;
		paths[n] = owned[n];
		names[n++] = c->id;
	}
	if (by_row) {
		for (int k = 0; k < r->m.ngroups; k++)
			order[k] = k;
		qsort_r(order, (size_t)r->m.ngroups, sizeof(*order), by_group_max, (void *)r);
		int shown = r->m.ngroups < TAIL_ROWS ? r->m.ngroups : TAIL_ROWS;

		if (shown < r->m.ngroups)
			snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF): %d cells, "
				 "so a curve per row and kernel variant with its repeats merged — the %d "
				 "rows with the largest maxima, of %d (the data: fig/tail-K.csv).",
				 measured, shown, r->m.ngroups);
		else
			snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF): %d cells, "
				 "so a curve per row and kernel variant with its repeats merged, all %d "
				 "(the data: fig/tail-K.csv).", measured, shown);
		for (int j = 0; j < shown; j++) {
			const struct tcell *c = r->m.group[order[j]].run[0];

			if (asprintf(&owned[2 * n], "%s/fig/tail-%d.csv", r->out, j) < 0 ||
			    asprintf(&owned[2 * n + 1], "%s %s/%s t%s a%s %.0fus p%lld s%lld (%d runs)",
				     c->kernel, c->load, c->workload, c->threads, c->affinity,
				     US(c->interval), (long long)c->priority, (long long)c->size,
				     r->m.group[order[j]].n) < 0)
				goto out;
			rc = write_group_hist(r, order[j], owned[2 * n]);
			if (rc)
				goto out;
			paths[n] = owned[2 * n];
			names[n] = owned[2 * n + 1];
			metrics[n] = metric_name(r->m.row[r->m.group[order[j]].row].metric);
			n++;
		}
	}
	rc = plot_write_list(file, paths, names, metrics, n);
out:
	for (int i = 0; owned && i < 2 * max + 2; i++)
		free(owned[i]);
	free(owned);
	free(paths);
	free(names);
	free(metrics);
	free(order);
	return rc;
}
