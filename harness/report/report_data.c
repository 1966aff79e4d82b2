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

/* by_group_max's order of the groups, the largest first; NULL on no memory. */
static int *groups_by_max(const struct report *r)
{
	int *order = calloc((size_t)r->m.ngroups + 1, sizeof(*order));

	for (int k = 0; order && k < r->m.ngroups; k++)
		order[k] = k;
	if (order)
		qsort_r(order, (size_t)r->m.ngroups, sizeof(*order), by_group_max, (void *)r);
	return order;
}

int report_tail_list(const struct report *r, const char *file, char *caption,
			   size_t caplen)
{
	int measured = 0, n = 0, rc = -ENOMEM;
	unsigned common = rows_common_axes(&r->m);	/* the tail draws m's rows, whatever --axis */

	for (int k = 0; k < r->m.ngroups; k++)
		measured += r->m.group[k].n;
	int by_row = measured > TAIL_CELLS, max = by_row ? r->m.ngroups : measured;
	struct plot_curve *curve = calloc((size_t)max + 1, sizeof(*curve));
	char **owned = calloc(2 * (size_t)max + 2, sizeof(*owned));
	int *order = groups_by_max(r), *dash = calloc((size_t)r->m.nsides + 1, sizeof(*dash));
	int shown = r->m.ngroups < TAIL_ROWS ? r->m.ngroups : TAIL_ROWS;

	if (!curve || !owned || !order || !dash)
		goto out;
	if (!by_row)
		snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF), every cell on one axis, each on its workload's metric: a colour per kernel variant, a line style per row, its repeats alike.");
	else if (shown < r->m.ngroups)
		snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF): %d cells, "
			 "so a curve per row and kernel variant with its repeats merged — the %d "
			 "rows with the largest maxima, of %d (the data: fig/tail-K.csv); a colour per "
			 "kernel variant.", measured, shown, r->m.ngroups);
	else
		snprintf(caption, caplen, "Fraction of samples later than x (1 − CDF): %d cells, "
			 "so a curve per row and kernel variant with its repeats merged, all %d "
			 "(the data: fig/tail-K.csv); a colour per kernel variant, a line style per row.",
			 measured, shown);
	/* side by side: the legend in groups of a variant, its colour throughout */
	for (int s = 0; s < r->m.nsides; s++)
		for (int j = 0; j < (by_row ? shown : r->m.ngroups); j++) {
			int k = by_row ? order[j] : j;
			const struct rows_group *g = &r->m.group[k];
			const char *metric = metric_name(r->m.row[g->row].metric);
			char row[1024];

			if (g->side != s)
				continue;
			tcell_row_words_omit(g->run[0], common, 0, row, sizeof(row));
			dash[s]++;	/* a line style per row inside the variant's colour */
			for (int i = 0; i < (by_row ? 1 : g->n); i++) {
				const struct tcell *c = g->run[i];
				char hist[PATH_MAX], runs[48];
				int bad;

				runs[0] = '\0';
				if (g->n > 1)
					snprintf(runs, sizeof(runs), " (%d runs)", g->n);

				if (by_row)
					bad = asprintf(&owned[2 * n], "%s/fig/tail-%d.csv", r->out, j) < 0 ||
					      asprintf(&owned[2 * n + 1], "%s%s%s (%d run%s)", c->kernel,
						       row[0] ? " · " : "", row, g->n, g->n == 1 ? "" : "s") < 0 ||
					      (rc = write_group_hist(r, k, owned[2 * n])) != 0;
				else	/* the repeats of a row alike, named once */
					bad = cell_file_path(hist, sizeof(hist), c->dir, CELLF_HIST) != 0 ||
					      !(owned[2 * n] = strdup(hist)) ||
					      asprintf(&owned[2 * n + 1], "%s%s%s%s", i ? "" : c->kernel,
						       i || !row[0] ? "" : " · ", i ? "" : row,
						       i ? "" : runs) < 0;
				if (bad) {
					rc = rc ? rc : -ENOMEM;
					goto out;
				}
				curve[n] = (struct plot_curve){ owned[2 * n], owned[2 * n + 1], metric,
								r->m.side[s].color, dash[s] };
				n++;
			}
		}
	rc = plot_write_list(file, curve, n);
out:
	for (int i = 0; owned && i < 2 * max + 2; i++)
		free(owned[i]);
	free(owned);
	free(curve);
	free(order);
	free(dash);
	return rc;
}
