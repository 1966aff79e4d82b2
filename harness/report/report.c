#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include "cellread.h"
#include "cellfiles.h"
#include "exitcodes.h"
#include "files.h"
#include "html.h"
#include "log.h"
#include "plot.h"
#include "report.h"
#include "atomic.h"
#include "csvfile.h"
#include "rows.h"
#include "tree.h"
#include "verdict.h"

#define US(ns) ((double)(ns) / 1000.0)

/* The figures made, for the page. */
struct figure {
	char base[200];		/* fig/NAME (no extension): a whole cell id fits */
	char caption[512];
	int cell;		/* the cell whose page shows it; -1: the index */
};

struct report {
	struct tree t;
	struct rows m;		/* its rows, sides (kernel variants and hosts) and groups */
	struct plotter plot;
	char out[PATH_MAX + 16];	/* DIR/report */
	struct figure *fig;
	int nfig;
	char kernels[1024];	/* distinct kernel variants, blank-separated */
};

static int add_figure(struct report *r, const char *base, const char *caption, int cell)
{
	struct figure *f = realloc(r->fig, (size_t)(r->nfig + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	r->fig = f;
	snprintf(f[r->nfig].base, sizeof(f[0].base), "%s", base);
	snprintf(f[r->nfig].caption, sizeof(f[0].caption), "%s", caption);
	f[r->nfig].cell = cell;
	r->nfig++;
	return 0;
}

/* A cell whose max came in the last tenth of a run of 10 s or more. */
static int still_growing(const struct tcell *c)
{
	return c->nsec >= 10 && c->max_at_s * 10 >= c->nsec * 9;
}

/*
 * The running maximum of each run of a group, second by second, as one
 * CSV (t_s, then a column per run) for runmax.gp. 0 or -errno.
 */
#define RUNMAX_RUNS 20	/* curves per figure: more are unreadable and slow */

struct runmax_file {
	const struct tcell **run;	/* the runs drawn */
	int n;
	int nsec;
};

/* The run whose maximum came later first (still growing), then the larger max. */
static int by_max_at(const void *a, const void *b)
{
	const struct tcell *x = *(const struct tcell *const *)a, *y = *(const struct tcell *const *)b;

	if (x->max_at_s != y->max_at_s)
		return x->max_at_s < y->max_at_s ? 1 : -1;
	return x->wakeup->max < y->wakeup->max ? 1 : x->wakeup->max > y->wakeup->max ? -1 : 0;
}

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

static int runmax_figures(struct report *r, char *err, size_t errlen)
{
	int rc = 0, fig = 0;

	for (int k = 0; rc == 0 && k < r->m.ngroups; k++) {
		const struct rows_group *g = &r->m.group[k];
		const struct tcell **runs = malloc((size_t)g->n * sizeof(*runs));
		struct runmax_file f = { runs, g->n < RUNMAX_RUNS ? g->n : RUNMAX_RUNS, 0 };
		char name[64], path[PATH_MAX + 600], vars[PATH_MAX * 2 + 2048] = "",
			title[1024], rel[64], base[PATH_MAX + 100], caption[600], which[128] = "";
		const struct tcell *c = g->run[0];

		if (!runs)
			return -ENOMEM;
		memcpy(runs, g->run, (size_t)g->n * sizeof(*runs));
		if (g->n > f.n) {
			qsort(runs, (size_t)g->n, sizeof(*runs), by_max_at);
			snprintf(which, sizeof(which), " (the %d whose maximum came latest, of %d)",
				 f.n, g->n);
		}
		for (int i = 0; i < f.n; i++)
			if (runs[i]->nsec > f.nsec)
				f.nsec = runs[i]->nsec;
		if (f.nsec < 2) {
			free(runs);
			continue;	/* one second: no curve to draw */
		}
		snprintf(name, sizeof(name), "runmax-%d.csv", fig);
		snprintf(path, sizeof(path), "%s/fig", r->out);
		rc = afile_write(path, name, fill_runmax, &f);
		free(runs);
		if (rc) {
			snprintf(err, errlen, "%s/%s: %s", path, name, strerror(-rc));
			break;
		}
		snprintf(path, sizeof(path), "%s/fig/%s", r->out, name);
		plot_var(vars, sizeof(vars), "in", path);
		snprintf(title, sizeof(title), "%s (%s): %s, %s, threads %s, affinity %s, %.0f us — running maximum, %d run%s",
			 c->host, c->kernel, c->load, c->workload, c->threads, c->affinity,
			 US(c->interval), g->n, g->n == 1 ? "" : "s");
		plot_var(vars, sizeof(vars), "title", title);
		snprintf(rel, sizeof(rel), "fig/runmax-%d", fig);
		snprintf(base, sizeof(base), "%s/%s", r->out, rel);
		rc = plot_render(&r->plot, "runmax.gp", base, vars, err, errlen);
		snprintf(caption, sizeof(caption),
			 "%s on %s: the largest wake-up latency so far, second by second, each repeat a curve%s (is the run long enough?)",
			 c->workload, c->kernel, which);
		if (rc == 0)
			rc = add_figure(r, rel, caption, -1);
		fig++;
	}
	return rc;
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
static int write_cells_summary(struct report *r, const char *path)
{
	const struct tcell **sorted = calloc((size_t)r->t.n, sizeof(*sorted));
	struct afile af;
	int n = 0, rc;

	if (!sorted)
		return -ENOMEM;
	for (int i = 0; i < r->t.n; i++)
		if (r->t.cell[i].measured)
			sorted[n++] = &r->t.cell[i];
	qsort(sorted, (size_t)n, sizeof(*sorted), by_load);
	rc = afile_open(&af, path);
	if (rc) {
		free(sorted);
		return rc;
	}
	struct csvw w = { .fp = af.fp };
	csvw_header(&w, "index,cell,kernel,kernel_index,load,label,p50_us,p99_us,p99.99_us,max_us");
	for (int i = 0; i < n; i++) {
		const struct tcell *c = sorted[i];
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
		csvw_num(&w, US(hist_percentile(c->wakeup, 50)), 3);
		csvw_num(&w, US(hist_percentile(c->wakeup, 99)), 3);
		csvw_num(&w, US(hist_percentile(c->wakeup, 99.99)), 3);
		csvw_num(&w, US(c->wakeup->max), 3);
		csvw_end(&w);
	}
	free(sorted);
	return afile_commit(&af);
}

/*
 * report/sweep.csv when a workload ran at several sizes; its workloads
 * (blank-separated) go to `names`. 1 if written, 0 if no sweep, -errno.
 */
static int write_sweep(struct report *r, const char *path, char *names,
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
 * A campaign-wide figure: `vars` already hold its data; the title names
 * the campaign, host and kernel. NAME.gp renders fig/NAME.
 */
static int campaign_figure(struct report *r, const struct tcell *first,
			   char *vars, size_t vlen, const char *name,
			   const char *what, const char *caption, char *err,
			   size_t errlen)
{
	char title[1024], base[2 * PATH_MAX], script[64], rel[64];
	int rc;

	snprintf(title, sizeof(title), "%s — %s, %s: %s", r->t.campaign,
		 first->host, first->release, what);
	plot_var(vars, vlen, "title", title);
	snprintf(base, sizeof(base), "%s/fig/%s", r->out, name);
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(rel, sizeof(rel), "fig/%s", name);
	rc = plot_render(&r->plot, script, base, vars, err, errlen);
	return rc ? rc : add_figure(r, rel, caption, -1);
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

static int by_group_max(const void *a, const void *b, void *arg)
{
	const struct report *r = arg;
	int64_t ma = 0, mb = 0;

	for (int i = 0; i < r->m.group[*(const int *)a].n; i++)
		if (r->m.group[*(const int *)a].run[i]->wakeup->max > ma)
			ma = r->m.group[*(const int *)a].run[i]->wakeup->max;
	for (int i = 0; i < r->m.group[*(const int *)b].n; i++)
		if (r->m.group[*(const int *)b].run[i]->wakeup->max > mb)
			mb = r->m.group[*(const int *)b].run[i]->wakeup->max;
	return ma < mb ? 1 : ma > mb ? -1 : 0;
}

/* fig/tail-K.csv: group k's wake-up histogram, its runs merged (hist.csv's columns). */
static int write_group_hist(const struct report *r, int k, const char *path)
{
	struct hist *h = malloc(sizeof(*h));
	struct afile af;
	int rc;

	if (!h)
		return -ENOMEM;
	hist_init(h);
	for (int i = 0; i < r->m.group[k].n; i++)
		hist_merge(h, r->m.group[k].run[i]->wakeup);
	rc = afile_open(&af, path);
	if (rc == 0) {
		struct csvw w = { .fp = af.fp };

		csvw_header(&w, HIST_COLUMNS);
		cell_hist_rows(&w, h, 0, -1, "wakeup");
		rc = afile_commit(&af);
	}
	free(h);
	return rc;
}

static int write_tail_list(const struct report *r, const char *file, char *caption,
			   size_t caplen)
{
	int measured = 0, n = 0, rc = -ENOMEM;

	for (int i = 0; i < r->t.n; i++)
		measured += r->t.cell[i].measured;
	int by_row = measured > TAIL_CELLS, max = by_row ? r->m.ngroups : measured;
	const char **paths = calloc((size_t)max + 1, sizeof(*paths));
	const char **names = calloc((size_t)max + 1, sizeof(*names));
	char **owned = calloc(2 * (size_t)max + 2, sizeof(*owned));
	int *order = calloc((size_t)r->m.ngroups + 1, sizeof(*order));

	if (!paths || !names || !owned || !order)
		goto out;
	snprintf(caption, caplen, "Fraction of wake-ups later than x (1 − CDF), every cell on one axis.");
	for (int i = 0; !by_row && i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->measured)
			continue;
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
			snprintf(caption, caplen, "Fraction of wake-ups later than x (1 − CDF): %d cells, "
				 "so a curve per row and kernel variant with its repeats merged — the %d "
				 "rows with the largest maxima, of %d (the data: fig/tail-K.csv).",
				 measured, shown, r->m.ngroups);
		else
			snprintf(caption, caplen, "Fraction of wake-ups later than x (1 − CDF): %d cells, "
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
			n++;
		}
	}
	rc = plot_write_list(file, paths, names, n);
out:
	for (int i = 0; owned && i < 2 * max + 2; i++)
		free(owned[i]);
	free(owned);
	free(paths);
	free(names);
	free(order);
	return rc;
}

/*
 * A figure of one cell: SCRIPT over the cell's CSV (with one more variable
 * `var` = value, such as metric, when var is not NULL) into fig/KIND-ID,
 * titled with the cell and `what`, captioned "ID: caption".
 */
static int cell_figure(struct report *r, const struct tcell *c, const char *script,
		       const char *csv, const char *var, const char *value, const char *kind,
		       const char *what, const char *caption, char *err, size_t errlen)
{
	char vars[4 * PATH_MAX], path[PATH_MAX + 600], title[1024], rel[sizeof(c->id) + 32],
		base[2 * PATH_MAX], cap[512];
	int rc;

	vars[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", c->dir, csv);
	plot_var(vars, sizeof(vars), "in", path);
	if (var)
		plot_var(vars, sizeof(vars), var, value);
	snprintf(title, sizeof(title), "%s, %s (%s): %s — %s", c->host, c->release,
		 c->kernel, c->id, what);
	plot_var(vars, sizeof(vars), "title", title);
	snprintf(rel, sizeof(rel), "fig/%s-%s", kind, c->id);
	snprintf(base, sizeof(base), "%s/%s", r->out, rel);
	rc = plot_render(&r->plot, script, base, vars, err, errlen);
	snprintf(cap, sizeof(cap), "%s: %s", c->id, caption);
	return rc ? rc : add_figure(r, rel, cap, (int)(c - r->t.cell));
}

static int figures(struct report *r, char *err, size_t errlen)
{
	char vars[16384], path[2 * PATH_MAX], sweep[512];
	int measured = 0, rc;

	for (int i = 0; i < r->t.n; i++)
		measured += r->t.cell[i].measured;
	if (!measured)
		return 0;
	const struct tcell *first = NULL;
	for (int i = 0; i < r->t.n && !first; i++)
		if (r->t.cell[i].measured)
			first = &r->t.cell[i];

	snprintf(path, sizeof(path), "%s/cells-summary.csv", r->out);
	rc = write_cells_summary(r, path);
	if (rc) {
		snprintf(err, errlen, "%.4000s: %s", path, strerror(-rc));
		return rc;
	}
	vars[0] = '\0';
	plot_var(vars, sizeof(vars), "in", path);
	plot_var(vars, sizeof(vars), "kernels", r->kernels);
	rc = campaign_figure(r, first, vars, sizeof(vars), "summary",
			     "wakeup latency per cell",
			     "Max (bar, by kernel variant), p99.99 and p99 (marks) of the wake-up latency, threads merged, grouped by load.",
			     err, errlen);

	char caption[512];

	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/fig/tail.list.gp", r->out);
		rc = write_tail_list(r, path, caption, sizeof(caption));
		if (rc)
			snprintf(err, errlen, "%.4000s: %s", path, strerror(-rc));
	}
	if (rc == 0) {
		vars[0] = '\0';
		plot_var(vars, sizeof(vars), "list", path);
		rc = plot_temp(&r->plot, path);
		if (rc == 0)
			rc = campaign_figure(r, first, vars, sizeof(vars), "tail",
					     "tail of the wakeup latency", caption, err, errlen);
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", r->out);
	int has_sweep = rc == 0 ? write_sweep(r, path, sweep, sizeof(sweep)) : 0;
	if (has_sweep < 0) {
		snprintf(err, errlen, "%.4000s: %s", path, strerror(-has_sweep));
		return has_sweep;
	}
	if (has_sweep > 0) {
		vars[0] = '\0';
		plot_var(vars, sizeof(vars), "in", path);
		plot_var(vars, sizeof(vars), "workloads", sweep);
		rc = campaign_figure(r, first, vars, sizeof(vars), "sweep",
				     "I/O size sweep",
				     "Bandwidth (bytes over time in the I/O) and p99 of the I/O time against the I/O size.",
				     err, errlen);
	}
	if (rc == 0)
		rc = runmax_figures(r, err, errlen);
	for (int i = 0; rc == 0 && i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->measured)
			continue;
		int complete = 0;	/* an incomplete capture has no bar to draw */
		for (int k = 0; k < c->nspikes; k++)
			complete += c->spikes[k].complete;
		if (complete > 0)
			rc = cell_figure(r, c, "spikes.gp", "spikes.csv", NULL, NULL, "spikes",
					 "spike captures",
					 "each spike capture's latency, by part (docs/spikes.md)",
					 err, errlen);
		if (rc == 0 && c->metric[METRIC_NOISE_MAX])
			rc = cell_figure(r, c, "hist.gp", "hist.csv", "metric", "noise_max", "noise",
					 "noise_max histogram",
					 "noise_max histogram (the longest gap of each busy window), per thread",
					 err, errlen);
		if (rc == 0)
			rc = cell_figure(r, c, "hist.gp", "hist.csv", NULL, NULL, "hist",
					 "wakeup latency histogram",
					 "wake-up latency histogram, 1 µs bins, per thread",
					 err, errlen);
		if (rc == 0 && c->nsec > 0)	/* series.csv is optional */
			rc = cell_figure(r, c, "series.gp", "series.csv", NULL, NULL, "series",
					 "per-second maximum",
					 "each thread's maximum per second", err, errlen);
		char window[24];

		snprintf(window, sizeof(window), "%lld", (long long)c->timeline_window);
		if (rc == 0 && c->timeline_windows >= 3)
			rc = cell_figure(r, c, "timeline.gp", "timeline.csv", "window", window, "timeline",
					 "wake-up latency over time",
					 "wake-up latency over time: samples per window and latency bin, threads merged (timeline.csv)",
					 err, errlen);
	}
	return rc;
}

/* One sysinfo.ini as a table, its warnings as a list under it. */
static void html_sysinfo_file(FILE *fp, FILE *in)
{
	char line[1024], warn[8192] = "", section[64] = "";

	fputs("<table>\n", fp);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '[') {
			snprintf(section, sizeof(section), "%.*s",
				 (int)strcspn(line + 1, "]"), line + 1);
			continue;
		}
		char *eq = strstr(line, " = ");
		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(section, "warnings") == 0) {
			size_t u = strlen(warn);
			snprintf(warn + u, sizeof(warn) - u, "%s\n", eq + 3);
			continue;
		}
		fputs("<tr><th class=\"l\">", fp);
		html_printf(fp, "%s.%s", section, line);
		fputs("</th><td class=\"l\">", fp);
		html_text(fp, eq + 3);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (warn[0]) {
		fputs("<p class=\"warn\"><b>What distorts these results:</b></p><ul class=\"warn\">\n", fp);
		for (char *w = strtok(warn, "\n"); w; w = strtok(NULL, "\n")) {
			fputs("<li>", fp);
			html_text(fp, w);
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n", fp);
	}
}

/*
 * The machine each kernel variant ran on (a tree of kernel = stock, rt
 * in qemu holds two): the sysinfo.ini of its first cell that has one.
 */
static void html_sysinfo(FILE *fp, const struct report *r)
{
	char err[PATH_MAX + 700];
	char *shown = calloc((size_t)r->t.n + 1, 1);
	int nshown = 0, machines = 0;

	for (int i = 0; i < r->t.n; i++) {
		int first = 1;

		for (int j = 0; j < i && first; j++)
			first = !tcell_same_side(&r->t.cell[j], &r->t.cell[i]);
		machines += first && r->t.cell[i].host[0];
	}
	fputs("<h2>Machine</h2>\n<details><summary>What the machine was (sysinfo.ini) and what "
	      "distorts its results</summary>\n", fp);
	for (int i = 0; shown && i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];
		int seen = 0;
		FILE *in;

		for (int j = 0; j < i && !seen; j++)
			seen = shown[j] && tcell_same_side(&r->t.cell[j], c);
		if (seen || !(in = cell_file_open(c->dir, CELLF_SYSINFO, CELL_INI_MAX,
						  err, sizeof(err)))) {
			if (!seen && errno != ENOENT)
				log_warn("%s", err);
			continue;
		}
		if (machines > 1) {
			fputs("<h3>", fp);
			html_printf(fp, "kernel variant %s: %s, %s", c->kernel, c->host,
				    c->release);
			fputs("</h3>\n", fp);
		}
		html_sysinfo_file(fp, in);
		fclose(in);
		shown[i] = 1;
		nshown++;
	}
	free(shown);
	if (!nshown)
		fputs("<p>No sysinfo.ini in this tree.</p>\n", fp);
	fputs("</details>\n", fp);
}

static void td_us(FILE *fp, int64_t ns)
{
	fprintf(fp, "<td>%.1f</td>", US(ns));
}

/* A histogram's min, p50, p99, p99.99 and max, a cell each (µs): the tables' columns. */
static void td_spread(FILE *fp, const struct hist *h)
{
	td_us(fp, h->min);
	td_us(fp, hist_percentile(h, 50));
	td_us(fp, hist_percentile(h, 99));
	td_us(fp, hist_percentile(h, 99.99));
	td_us(fp, h->max);
}

/* Links to a cell's files; `up` leads from the page to the tree. */
static void html_cell_files(FILE *fp, const struct tcell *c, const char *up)
{
	static const char *const files[] = { "summary.csv", "hist.csv", "series.csv",
					     "load.csv", "cell.ini", "log.txt" };

	if (strcmp(c->status, "pending") != 0)
		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
			fputs("<a href=\"", fp);
			html_printf(fp, "%s%s/%s/%s/%s", up, c->host, c->release, c->id, files[k]);
			fputs("\">", fp);
			html_text(fp, files[k]);
			fputs("</a> ", fp);
		}
	if (c->traced) {
		fputs("<a href=\"", fp);
		html_printf(fp, "%s%s/%s/%s/spikes.csv", up, c->host, c->release, c->id);
		fputs("\">spikes.csv</a> ", fp);
	}
	if (c->interference[0]) {
		fputs("<a href=\"", fp);
		html_printf(fp, "%s%s/%s/%s/interference.csv", up, c->host, c->release, c->id);
		fputs("\">interference.csv</a> ", fp);
	}
}

static void html_cells(FILE *fp, const struct report *r)
{
	fputs("<h2>Cells</h2>\n<p>Wake-up latency in µs, all threads of a cell merged; "
	      "`response` is wake-up plus the cycle's I/O. Each cell's page has its figures, "
	      "files and log. Click a column's head to sort; type to filter (the view is kept "
	      "in the address: <code>#sort=COLUMN&amp;filter=TEXT</code>).</p>\n"
	      "<p><input id=\"filter\" type=\"search\" placeholder=\"filter cells\" hidden></p>\n"
	      "<table id=\"cells\">\n<tr>"
	      "<th class=\"l\">cell</th><th class=\"l\">kernel</th><th class=\"l\">load</th>"
	      "<th class=\"l\">workload</th><th>threads</th><th class=\"l\">affinity</th>"
	      "<th>interval µs</th><th>prio</th><th>size</th><th class=\"l\">policy</th>"
	      "<th>dma µs</th><th class=\"l\">status</th>"
	      "<th>samples</th><th>min</th><th>p50</th><th>p99</th><th>p99.99</th><th>max</th>"
	      "<th>response max</th><th>max at s</th><th>overruns</th><th>errors</th><th>load ops/s</th>"
	      "<th class=\"l\">why (worst capture)</th><th class=\"l\">files</th></tr>\n", fp);
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		fprintf(fp, "<tr class=\"%s\"><td class=\"l\"><a href=\"cells/", html_status_class(c->status));
		html_text(fp, c->id);
		fputs(".html\">", fp);
		html_text(fp, c->id);
		fputs("</a></td><td class=\"l\">", fp);
		html_text(fp, c->kernel);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->load);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->workload);
		fputs("</td><td>", fp);
		html_text(fp, c->threads);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->affinity);
		fprintf(fp, "</td><td>%.0f</td><td>%lld</td><td>%lld</td><td class=\"l\">",
			US(c->interval), (long long)c->priority, (long long)c->size);
		html_text(fp, c->policy);
		fputs("</td><td>", fp);
		html_text(fp, c->dma_latency);
		fputs("</td><td class=\"l st\">", fp);
		html_text(fp, c->status);
		if (c->reason[0]) {
			fputs(": ", fp);
			html_text(fp, c->reason);
		}
		fputs("</td>", fp);
		if (c->measured) {
			fprintf(fp, "<td>%llu</td>", (unsigned long long)c->wakeup->count);
			td_spread(fp, c->wakeup);
			td_us(fp, c->response->max);
			if (c->nsec)
				fprintf(fp, "<td%s>%d of %d</td>", still_growing(c) ? " class=\"warn\"" : "",
					c->max_at_s, c->nsec);
			else
				fputs("<td></td>", fp);
			fprintf(fp, "<td>%llu</td><td>%llu</td><td>%.0f</td>",
				(unsigned long long)c->overruns,
				(unsigned long long)c->errors, c->load_ops_per_s);
		} else {
			fputs("<td colspan=\"11\"></td>", fp);
		}
		fputs("<td class=\"l\">", fp);
		html_text(fp, c->why);
		fputs("</td><td class=\"l\">", fp);
		html_cell_files(fp, c, "../");
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n<p>Whole tree: <a href=\"../cells.csv\">cells.csv</a> "
	      "<a href=\"../campaign.ini\">campaign.ini</a> <a href=\"../state\">state</a></p>\n", fp);
}

/*
 * The overview: a row per row of the matrix (a cell's axes without kernel
 * and repeat), a column per kernel variant and host, each entry the
 * median of its runs' maxima and of their p99.99 (µs) with n, coloured
 * from green to red on a log scale over the page, and linking to the
 * page of its run at the median.
 */
static void html_overview(FILE *fp, const struct report *r)
{
	const struct rows *m = &r->m;
	double lo = INFINITY, hi = 0;

	if (!m->ngroups)
		return;
	for (int k = 0; k < m->ngroups; k++)
		for (int i = 0; i < m->group[k].n; i++) {
			double v = (double)m->group[k].run[i]->wakeup->max;

			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	fputs("<h2>Overview</h2>\n<p>Each row of the matrix against each kernel variant and "
	      "host: the median of the runs' wake-up maxima / of their p99.99 in µs, and n "
	      "(runs). Colour: the maximum on a log scale from the page's lowest (green) to its "
	      "highest (red). An entry links to the page of its run at the median.</p>\n"
	      "<table>\n<tr><th class=\"l\">load, workload, threads, affinity, interval, priority, size</th>", fp);
	for (int j = 0; j < m->nsides; j++) {
		const struct tcell *c = m->side[j].first;

		fputs("<th>", fp);
		html_printf(fp, "%s@%s:%s", c->kernel, c->host, c->release);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int i = 0; i < m->nrows; i++) {
		const struct tcell *c = m->row[i].any;

		fputs("<tr><td class=\"l\">", fp);
		html_printf(fp, "%s, %s, %s, %s, %.0f µs, %lld, %lld", c->load, c->workload,
			    c->threads, c->affinity, US(c->interval), (long long)c->priority,
			    (long long)c->size);
		fputs("</td>", fp);
		for (int j = 0; j < m->nsides; j++) {
			const struct rows_group *g = rows_group(m, i, j);

			if (!g) {
				fputs("<td></td>", fp);
				continue;
			}
			const struct side_summary *sum = &g->sum;
			double f = hi > lo && sum->max_med > 0 ?
				(log(sum->max_med) - log(lo)) / (log(hi) - log(lo)) : 0;
			int hue = (int)(120 * (1 - (f < 0 ? 0 : f > 1 ? 1 : f)));

			fprintf(fp, "<td style=\"background:hsl(%d,70%%,85%%)\"><a href=\"cells/", hue);
			html_text(fp, g->run[sum->typical]->id);
			fprintf(fp, ".html\">%.1f / %.1f</a> <small>n=%d</small></td>",
				US(sum->max_med), US(sum->p9999_med), sum->n);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

/* The repeats of a row together: n, the median max with its range, medians of p99.99, p99. */
static void html_groups(FILE *fp, const struct report *r)
{
	int any = 0;

	for (int k = 0; k < r->m.ngroups; k++)
		any |= r->m.group[k].n > 1;
	if (!any)
		return;
	fputs("<h2>Rows: the repeats together</h2>\n<p>Wake-up latency in µs, threads merged. "
	      "One run's maximum is the noisiest number a latency test gives: the median "
	      "of the runs' maxima, with their range, says more. <code>latlab compare</code> "
	      "puts an interval on the difference between kernels.</p>\n<table>\n<tr>"
	      "<th class=\"l\">kernel</th><th class=\"l\">row (load, workload, threads, affinity, interval, priority, size)</th>"
	      "<th>n</th><th>max (median [range])</th><th>p99.99</th><th>p99</th></tr>\n", fp);
	for (int k = 0; k < r->m.ngroups; k++) {
		const struct rows_group *g = &r->m.group[k];
		const struct tcell *c = g->run[0];
		const struct side_summary sum = g->sum;
		char title[512];

		fputs("<tr><td class=\"l\">", fp);
		html_text(fp, c->kernel);
		fputs("</td><td class=\"l\">", fp);
		tcell_row_title(c, title, sizeof(title));
		html_text(fp, title);
		fprintf(fp, "</td><td>%d</td><td>%.1f [%.1f, %.1f]</td><td>%.1f</td><td>%.1f</td></tr>\n",
			sum.n, US(sum.max_med), US(sum.max_lo), US(sum.max_hi),
			US(sum.p9999_med), US(sum.p99_med));
	}
	fputs("</table>\n", fp);
}

/*
 * The noise workload's cells: the largest gap per busy window (noise_max)
 * and the time stolen from it (noise_total), threads merged, with the
 * stolen share of the window (mean noise_total over the mean window).
 */
static void html_noise(FILE *fp, const struct report *r)
{
	int any = 0;

	for (int i = 0; i < r->t.n; i++)
		any |= r->t.cell[i].measured && r->t.cell[i].metric[METRIC_NOISE_MAX] &&
		       r->t.cell[i].metric[METRIC_NOISE_TOTAL];
	if (!any)
		return;
	fputs("<h2>OS noise</h2>\n<p>The <code>noise</code> workload's cells, in µs, threads "
	      "merged: each period the thread reads the clock for its busy window; "
	      "<b>noise_max</b> is the longest gap between two reads in a window (what took "
	      "the CPU away), <b>noise_total</b> the sum of the gaps above the threshold "
	      "(the time stolen from it), as oslat and the osnoise tracer count them.</p>\n"
	      "<table>\n<tr><th class=\"l\">cell</th><th class=\"l\">kernel</th>"
	      "<th class=\"l\">load</th><th>windows</th><th>noise_max p50</th><th>p99</th>"
	      "<th>p99.99</th><th>max</th><th>noise_total mean</th><th>p99</th><th>max</th>"
	      "<th>stolen</th></tr>\n", fp);
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];
		const struct hist *nm = c->metric[METRIC_NOISE_MAX], *nt = c->metric[METRIC_NOISE_TOTAL];

		if (!c->measured || !nm || !nt)
			continue;
		fputs("<tr><td class=\"l\">", fp);
		html_text(fp, c->id);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->kernel);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->load);
		fprintf(fp, "</td><td>%llu</td>", (unsigned long long)nm->count);
		td_us(fp, hist_percentile(nm, 50));
		td_us(fp, hist_percentile(nm, 99));
		td_us(fp, hist_percentile(nm, 99.99));
		td_us(fp, nm->max);
		fprintf(fp, "<td>%.1f</td>", hist_mean(nt) / 1e3);
		td_us(fp, hist_percentile(nt, 99));
		td_us(fp, nt->max);
		if (c->io_mean > 0)
			fprintf(fp, "<td>%.2f %%</td></tr>\n", 100 * hist_mean(nt) / c->io_mean);
		else
			fputs("<td></td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

/* What interfered with each measured cell's CPUs (interference.csv). */
static void html_interference(FILE *fp, const struct report *r)
{
	int any = 0;

	for (int i = 0; i < r->t.n; i++)
		any |= r->t.cell[i].interference[0] != 0;
	if (!any)
		return;
	fputs("<h2>Interference on the measured CPUs</h2>\n<p>Per cell and measured CPU, "
	      "over the cell: its three largest interrupt and softirq sources (counts) and "
	      "its SMIs where the CPU can count them; every count is in the cell's "
	      "interference.csv.</p>\n<ul>\n", fp);
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->interference[0])
			continue;
		fputs("<li>", fp);
		html_printf(fp, "%s: %s", c->id, c->interference);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

/* Is the run long enough? A max in the last tenth of a run was still growing. */
static void html_long_enough(FILE *fp, const struct report *r)
{
	int judged = 0, growing = 0;

	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		judged += c->measured && c->nsec >= 10;
		growing += c->measured && still_growing(c);
	}
	fputs("<h2>Is the run long enough?</h2>\n", fp);
	if (!judged) {
		fputs("<p>No cell ran 10 s or more: too short to tell whether its maximum had "
		      "stopped growing (the <i>max at s</i> column and the running-maximum "
		      "figures show when each maximum came).</p>\n", fp);
		return;
	}
	if (!growing) {
		fprintf(fp, "<p>Every cell of 10 s or more (%d) reached its maximum before the last "
			"tenth of its run.</p>\n", judged);
		return;
	}
	fputs("<p class=\"warn\">The worst case was still growing: these cells reached their "
	      "maximum in the last tenth of the run. A longer run would likely see a larger "
	      "one.</p>\n<ul>\n", fp);
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->measured || !still_growing(c))
			continue;
		fputs("<li>", fp);
		html_printf(fp, "%s: max %.1f µs first reached at %d s of %d s", c->id,
			    US(c->wakeup->max), c->max_at_s, c->nsec);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

/* Per cell with captures: each capture's parts and its culprit. */
/* One cell's spike captures as a table; `up` leads from the page to the tree. */
static void html_cell_spikes(FILE *fp, const struct tcell *c, const char *up)
{
	fputs("<table>\n<tr><th>capture</th><th>thread</th><th>at ms</th>"
	      "<th>latency</th>", fp);
	for (int p = 0; p < SPIKE_PARTS; p++)
		fprintf(fp, "<th>%s</th>", spike_part_name(p));
	fputs("<th class=\"l\">culprit</th><th class=\"l\">trace</th></tr>\n", fp);
	for (int k = 0; k < c->nspikes; k++) {
		const struct tspike *s = &c->spikes[k];

		fprintf(fp, "<tr><td>%lld</td><td>%lld</td><td>%.1f</td>",
			(long long)s->capture, (long long)s->thread,
			(double)s->t_ns / 1e6);
		td_us(fp, s->latency_ns);
		for (int p = 0; p < SPIKE_PARTS; p++) {
			if (s->complete)
				td_us(fp, s->part_ns[p]);
			else
				fputs("<td></td>", fp);
		}
		fputs("<td class=\"l\">", fp);
		html_text(fp, s->kind);
		if (s->culprit[0]) {
			fputs(": ", fp);
			html_text(fp, s->culprit);
			html_printf(fp, " (%.0f %%)", s->latency_ns ?
				    100.0 * (double)s->culprit_ns / (double)s->latency_ns : 0.0);
		}
		fputs("</td><td class=\"l\"><a href=\"", fp);
		html_printf(fp, "%s%s/%s/%s/trace-%lld.txt", up, c->host, c->release, c->id,
			    (long long)s->capture);
		fprintf(fp, "\">trace-%lld.txt</a></td></tr>\n", (long long)s->capture);
	}
	fputs("</table>\n", fp);
}

static void html_spikes(FILE *fp, const struct report *r)
{
	int any = 0;

	for (int i = 0; i < r->t.n; i++)
		any |= r->t.cell[i].nspikes > 0;
	if (!any)
		return;
	fputs("<h2>Spike captures</h2>\n<p>Why the late wake-ups were late: each capture's "
	      "latency split into parts (µs) from the kernel's events, the largest "
	      "contributor is the culprit (docs/spikes.md explains how to read them). <i>incomplete</i>: the trace did not cover "
	      "the window; nothing is guessed.</p>\n", fp);
	for (int i = 0; i < r->t.n; i++) {
		const struct tcell *c = &r->t.cell[i];

		if (!c->nspikes)
			continue;
		fputs("<h3>", fp);
		html_text(fp, c->id);
		fputs("</h3>\n", fp);
		html_cell_spikes(fp, c, "../");
	}
}

/* The figures gnuplot could not draw (said by plot_flush) off every page. */
static void drop_undrawn(struct report *r)
{
	char path[PATH_MAX + 256];
	int kept = 0;

	for (int i = 0; i < r->nfig; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->out, r->fig[i].base);
		if (plot_drawn(path))
			r->fig[kept++] = r->fig[i];
	}
	r->nfig = kept;
}

/* The figures of one page: the index's (cell -1) or a cell's; `up` prefixes their links. */
static void html_figures(FILE *fp, const struct report *r, int pdf, int cell,
			 const char *up)
{
	int shown = 0;

	fputs("<h2>Figures</h2>\n", fp);
	if (pdf && cell < 0)
		fputs("<p>Every figure of the report, these and each cell's, in one file: "
		      "<a href=\"report.pdf\">report.pdf</a>.</p>\n", fp);
	for (int i = 0; i < r->nfig; i++) {
		const struct figure *f = &r->fig[i];

		if (f->cell != cell)
			continue;
		fputs("<figure><img src=\"", fp);
		html_printf(fp, "%s%s.svg", up, f->base);
		fputs("\" alt=\"", fp);
		html_text(fp, f->caption);
		fputs("\"><figcaption>", fp);
		html_text(fp, f->caption);
		fputs(" <a href=\"", fp);
		html_printf(fp, "%s%s.png", up, f->base);
		fputs("\">PNG</a>", fp);
		if (pdf) {
			fputs(" <a href=\"", fp);
			html_printf(fp, "%s%s.pdf", up, f->base);
			fputs("\">PDF</a>", fp);
		}
		fputs("</figcaption></figure>\n", fp);
		shown++;
	}
	if (!shown)
		fputs(cell < 0 ? "<p>No cell has measured samples yet: nothing to draw.</p>\n" :
		      "<p>Nothing measured: nothing to draw.</p>\n", fp);
}

struct page {
	struct report *r;
	int pdf;
};

/*
 * The cells table, sortable and filterable: a click on a column's head
 * sorts by it (again: the other way), the box filters rows by their text,
 * and the view is kept in the address (#sort=N&filter=TEXT; N counts
 * columns from 1, negative descending) so it can be linked to. Without
 * script it is the plain table.
 */
static const char table_script[] =
	"<script>\n(function () {\n"
	"  var t = document.getElementById('cells'), f = document.getElementById('filter');\n"
	"  if (!t || !f) return;\n"
	"  var rows = Array.prototype.slice.call(t.rows, 1), col = 0;\n"
	"  function key(r, c) {\n"
	"    var s = r.cells[c] ? r.cells[c].textContent : '', v = parseFloat(s);\n"
	"    return /^\\s*-?[0-9.]/.test(s) && !isNaN(v) ? v : s.toLowerCase();\n"
	"  }\n"
	"  function sort(n) {\n"
	"    var c = Math.abs(n) - 1, d = n < 0 ? -1 : 1;\n"
	"    if (c < 0 || c >= t.rows[0].cells.length) return;\n"
	"    rows.sort(function (a, b) {\n"
	"      var x = key(a, c), y = key(b, c);\n"
	"      if (typeof x !== typeof y) return (typeof x === 'number' ? -1 : 1) * d;\n"
	"      return (x < y ? -1 : x > y ? 1 : 0) * d;\n"
	"    });\n"
	"    rows.forEach(function (r) { r.parentNode.appendChild(r); });\n"
	"    col = n;\n"
	"  }\n"
	"  function filter(q) {\n"
	"    var shown = 0;\n"
	"    q = q.toLowerCase();\n"
	"    rows.forEach(function (r) {\n"
	"      r.hidden = q !== '' && r.textContent.toLowerCase().indexOf(q) < 0;\n"
	"      shown += r.hidden ? 0 : 1;\n"
	"    });\n"
	"    t.setAttribute('data-shown', shown);\n"
	"  }\n"
	"  function keep() {\n"
	"    history.replaceState(null, '', '#sort=' + col + '&filter=' + encodeURIComponent(f.value));\n"
	"  }\n"
	"  Array.prototype.forEach.call(t.rows[0].cells, function (th, c) {\n"
	"    th.style.cursor = 'pointer';\n"
	"    th.addEventListener('click', function () { sort(col === c + 1 ? -(c + 1) : c + 1); keep(); });\n"
	"  });\n"
	"  f.hidden = false;\n"
	"  f.addEventListener('input', function () { filter(f.value); keep(); });\n"
	"  var h = {};\n"
	"  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {\n"
	"    var i = kv.indexOf('=');\n"
	"    if (i > 0) h[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));\n"
	"  });\n"
	"  if (h.sort) sort(parseInt(h.sort, 10) || 0);\n"
	"  f.value = h.filter || '';\n"
	"  filter(f.value);\n"
	"})();\n</script>\n";

static void fill_index(FILE *fp, void *arg)
{
	struct page *pg = arg;
	struct report *r = pg->r;
	char title[256];
	time_t now = time(NULL);
	struct tm tm;
	char stamp[64];

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", &tm);
	snprintf(title, sizeof(title), "latlab report: %s", r->t.campaign);
	html_head(fp, title);
	fputs("<h1>", fp);
	html_text(fp, title);
	fputs("</h1>\n<p>", fp);
	html_printf(fp, "%d cells, rendered %s from the CSV files of this directory.",
		    r->t.n, stamp);
	fputs("</p>\n", fp);
	int kinds = tree_emulated(&r->t);

	if (kinds)
		html_emulated_banner(fp, kinds);
	html_damaged(fp, &r->t);
	html_overview(fp, r);
	html_sysinfo(fp, r);
	html_cells(fp, r);
	html_groups(fp, r);
	html_long_enough(fp, r);
	html_noise(fp, r);
	html_interference(fp, r);
	html_spikes(fp, r);
	html_figures(fp, r, pg->pdf, -1, "");
	fputs(table_script, fp);
	html_foot(fp);
}

struct cell_page {
	const struct report *r;
	int i;			/* the cell */
	int pdf;
};

#define LOG_SHOWN (64 * 1024)	/* of a cell's log.txt, inline; the file is linked */

/* The cell's log.txt, escaped, in a <pre>: its first LOG_SHOWN bytes. */
static void html_cell_log(FILE *fp, const struct tcell *c)
{
	char err[PATH_MAX + 700], *buf = malloc(LOG_SHOWN + 1);
	FILE *in;
	size_t n;

	/* any size: only its first LOG_SHOWN bytes are read */
	if (!buf || !(in = cell_file_open(c->dir, CELLF_LOG, LLONG_MAX, err, sizeof(err)))) {
		if (buf && errno != ENOENT)
			log_warn("%s", err);
		free(buf);
		return;
	}
	n = fread(buf, 1, LOG_SHOWN, in);
	buf[n] = '\0';
	int more = fgetc(in) != EOF;

	fclose(in);
	fputs("<h2>log.txt</h2>\n<pre>", fp);
	html_text(fp, buf);
	if (more)
		fputs("\n… (the rest is in the file, linked above)", fp);
	fputs("</pre>\n", fp);
	free(buf);
}

/* report/cells/ID.html: one cell, its numbers, figures, files and log. */
static void fill_cell_page(FILE *fp, void *arg)
{
	const struct cell_page *pg = arg;
	const struct tcell *c = &pg->r->t.cell[pg->i];
	char title[256];

	snprintf(title, sizeof(title), "latlab cell %s", c->id);
	html_head(fp, title);
	fputs("<p><a href=\"../index.html\">the campaign's report</a></p>\n<h1>", fp);
	html_text(fp, c->id);
	fputs("</h1>\n", fp);
	int kinds = tcell_emulated(c);

	if (kinds)
		html_emulated_banner(fp, kinds);
	fprintf(fp, "<table>\n<tr class=\"%s\"><th class=\"l\">status</th><td class=\"l st\">",
		html_status_class(c->status));
	html_text(fp, c->status);
	if (c->reason[0]) {
		fputs(": ", fp);
		html_text(fp, c->reason);
	}
	fputs("</td></tr>\n", fp);
	const char *const axes[][2] = {
		{ "kernel", c->kernel }, { "host", c->host }, { "release", c->release },
		{ "load", c->load }, { "workload", c->workload }, { "threads", c->threads },
		{ "affinity", c->affinity }, { "policy", c->policy },
		{ "dma_latency µs", c->dma_latency }, { "why (worst capture)", c->why },
		{ "interference", c->interference },
	};
	for (size_t k = 0; k < sizeof(axes) / sizeof(axes[0]); k++) {
		fputs("<tr><th class=\"l\">", fp);
		html_text(fp, axes[k][0]);
		fputs("</th><td class=\"l\">", fp);
		html_text(fp, axes[k][1]);
		fputs("</td></tr>\n", fp);
	}
	fprintf(fp, "<tr><th class=\"l\">interval µs, priority, size, repeat</th>"
		"<td class=\"l\">%.0f, %lld, %lld, %lld</td></tr>\n</table>\n",
		US(c->interval), (long long)c->priority, (long long)c->size,
		(long long)c->repeat);
	if (c->measured) {
		fputs("<h2>Latency (µs, threads merged)</h2>\n<table>\n<tr><th class=\"l\">metric</th>"
		      "<th>samples</th><th>min</th><th>p50</th><th>p99</th><th>p99.99</th><th>max</th></tr>\n", fp);
		for (int m = 0; m < METRIC_COUNT; m++) {
			const struct hist *h = c->metric[m];

			if (!h)
				continue;
			fprintf(fp, "<tr><td class=\"l\">%s</td><td>%llu</td>", metric_name(m),
				(unsigned long long)h->count);
			td_spread(fp, h);
			fputs("</tr>\n", fp);
		}
		fprintf(fp, "</table>\n<p>%llu overruns, %llu errors", (unsigned long long)c->overruns,
			(unsigned long long)c->errors);
		if (c->nsec)
			fprintf(fp, "; the wake-up's maximum came in second %d of %d", c->max_at_s,
				c->nsec);
		fputs(".</p>\n", fp);
	}
	if (c->nspikes) {
		fputs("<h2>Spike captures</h2>\n", fp);
		html_cell_spikes(fp, c, "../../");
	}
	html_figures(fp, pg->r, pg->pdf, pg->i, "../");
	fputs("<h2>Files</h2>\n<p>", fp);
	html_cell_files(fp, c, "../../");
	fputs("</p>\n", fp);
	html_cell_log(fp, c);
	html_foot(fp);
}

/*
 * --pdf: every figure's PDF, the index's then each cell's in page order,
 * as one report/report.pdf (poppler's pdfunite) for a paper's appendix.
 * 0, or -errno / -EIO with err.
 */
static int one_pdf(const struct report *r, char *err, size_t errlen)
{
	char **argv = calloc((size_t)r->nfig + 3, sizeof(*argv)), out[PATH_MAX + 32];
	int n = 0, rc = -ENOMEM, status;

	if (!argv)
		goto out;
	argv[n++] = "pdfunite";
	for (int cell = -1; cell < r->t.n; cell++)
		for (int i = 0; i < r->nfig; i++)
			if (r->fig[i].cell == cell &&
			    asprintf(&argv[n++], "%s/%s.pdf", r->out, r->fig[i].base) < 0) {
				argv[--n] = NULL;
				goto out;
			}
	snprintf(out, sizeof(out), "%s/report.pdf", r->out);
	argv[n] = out;
	if (n == 1) {	/* nothing drawn */
		rc = 0;
		goto out;
	}
	pid_t pid = fork();

	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (pid == 0) {
		execvp("pdfunite", argv);
		fprintf(stderr, "latlab: error: cannot run pdfunite: %s (install poppler-utils)\n",
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
	if (rc)
		snprintf(err, errlen, "%s: pdfunite failed (exit %d)", out,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
out:
	for (int i = 1; argv && argv[i] && argv[i] != out; i++)
		free(argv[i]);
	free(argv);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* Every cell's page in report/cells/. 0, or -errno with err. */
static int cell_pages(struct report *r, int pdf, char *err, size_t errlen)
{
	char dir[PATH_MAX + 32], name[sizeof(r->t.cell[0].id) + 8];
	int rc;

	snprintf(dir, sizeof(dir), "%s/cells", r->out);
	rc = mkdir_p(dir);
	for (int i = 0; rc == 0 && i < r->t.n; i++) {
		struct cell_page pg = { r, i, pdf };

		snprintf(name, sizeof(name), "%s.html", r->t.cell[i].id);
		rc = afile_write_derived(dir, name, fill_cell_page, &pg);
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
	return rc;
}

int report_run(const char *dir, int pdf, int jobs, int quiet)
{
	struct report r;
	char err[8192], path[PATH_MAX + 64];
	int rc;

	memset(&r, 0, sizeof(r));
	rc = tree_read(&r.t, dir, err, sizeof(err));
	if (rc) {
		log_error("%s", err);
		return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
	}
	tree_log_damaged(&r.t);
	if (plotter_init(&r.plot)) {
		log_error("the gnuplot scripts (plots/) are not installed beside latlab; set LATLAB_PLOTS");
		tree_free(&r.t);
		return EXIT_RUNTIME;
	}
	r.plot.pdf = pdf;
	r.plot.jobs = jobs;
	snprintf(r.out, sizeof(r.out), "%s/report", dir);
	snprintf(path, sizeof(path), "%s/fig", r.out);
	rc = mkdir_p(path);
	if (rc) {
		log_error("%s: %s", path, strerror(-rc));
		tree_free(&r.t);
		return EXIT_RUNTIME;
	}
	rc = rows_build(&r.m, &r.t, 1);
	if (rc)
		snprintf(err, sizeof(err), "out of memory");
	if (rc == 0)
		rc = figures(&r, err, sizeof(err));
	if (rc == 0 && (rc = plot_flush(&r.plot, err, sizeof(err))) == -EIO) {
		/* figures that failed were said; the pages leave them out */
		drop_undrawn(&r);
		rc = 0;
	}
	if (rc == 0)
		rc = cell_pages(&r, pdf, err, sizeof(err));
	if (rc == 0 && pdf)
		rc = one_pdf(&r, err, sizeof(err));
	if (rc == 0) {
		struct page pg = { &r, pdf };

		rc = afile_write(r.out, "index.html", fill_index, &pg);
		if (rc)
			snprintf(err, sizeof(err), "%s/index.html: %s", r.out,
				 strerror(-rc));
	}
	if (r.plot.warnings)
		log_warn("gnuplot printed %d warnings; the last: %s",
			 r.plot.warnings, r.plot.last_warning);
	if (rc == 0 && !quiet)
		printf("%s/index.html\n", r.out);
	if (rc)
		log_error("%s", err);
	plotter_free(&r.plot);
	free(r.fig);
	rows_free(&r.m);
	int damaged = r.t.nbad + r.plot.failed;
	tree_free(&r.t);
	return rc || damaged ? EXIT_RUNTIME : EXIT_PASS;
}
