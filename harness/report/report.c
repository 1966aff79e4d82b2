#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "exitcodes.h"
#include "log.h"
#include "report.h"
#include "report_parts.h"

static int add_figure(struct report *r, const char *base, const char *caption, int cell)
{
	struct figure *f = realloc(r->fig, (size_t)(r->nfig + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	r->fig = f;
	snprintf(f[r->nfig].base, sizeof(f[0].base), "%s", base);
	snprintf(f[r->nfig].caption, sizeof(f[0].caption), "%s", caption);
	f[r->nfig].cell = cell;
	f[r->nfig].lead = 0;
	r->nfig++;
	return 0;
}

/*
 * The running maximum of each run of a group, second by second, as one
 * CSV (t_s, then a column per run) for runmax.gp. 0 or -errno.
 */
#define RUNMAX_RUNS 20	/* curves per figure: more are unreadable and slow */

/* The run whose maximum came later first (still growing), then the larger max. */
static int by_max_at(const void *a, const void *b)
{
	const struct tcell *x = *(const struct tcell *const *)a, *y = *(const struct tcell *const *)b;

	if (x->max_at_s != y->max_at_s)
		return x->max_at_s < y->max_at_s ? 1 : -1;
	return x->wakeup->max < y->wakeup->max ? 1 : x->wakeup->max > y->wakeup->max ? -1 : 0;
}

static int runmax_figures(struct report *r, char *err, size_t errlen)
{
	int rc = 0, fig = 0;

	for (int k = 0; rc == 0 && k < r->m.ngroups; k++) {
		const struct rows_group *g = &r->m.group[k];
		const struct tcell **runs = malloc((size_t)g->n * sizeof(*runs));
		struct runmax_file f = { runs, g->n < RUNMAX_RUNS ? g->n : RUNMAX_RUNS, 0 };
		char name[64], path[PATH_MAX + 600], vars[PATH_MAX * 2 + 2048] = "",
			title[2048], rel[64], base[PATH_MAX + 100], caption[1200], which[128] = "";
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
		rc = report_runmax_file(path, name, f.run, f.n, f.nsec);
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
		rc = plot_render(&r->plot, "runmax.gp", base, 1, vars, err, errlen);
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
 * A campaign-wide figure: `vars` already hold its data; the title names
 * the campaign, host and kernel. NAME.gp renders fig/NAME.
 */
static int campaign_figure(struct report *r, const struct tcell *first,
			   char *vars, size_t vlen, const char *name,
			   const char *what, const char *caption, char *err,
			   size_t errlen)
{
	char title[2048], base[2 * PATH_MAX], script[64], rel[64];
	int rc;

	char kernels[600] = "";

	/* every side's release, not only the first cell's */
	for (int s = 0; s < r->m.nsides; s++) {
		const struct tcell *c = r->m.side[s].first;
		size_t u = strlen(kernels);

		snprintf(kernels + u, sizeof(kernels) - u, "%s%s %s", s ? ", " : "", c->kernel,
			 c->release);
	}
	snprintf(title, sizeof(title), "%s — %s, %s: %s", r->t.campaign,
		 first->host, kernels[0] ? kernels : first->release, what);
	plot_var(vars, vlen, "title", title);
	snprintf(base, sizeof(base), "%s/fig/%s", r->out, name);
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(rel, sizeof(rel), "fig/%s", name);
	rc = plot_render(&r->plot, script, base, 1, vars, err, errlen);
	return rc ? rc : add_figure(r, rel, caption, -1);
}

/*
 * A figure of one cell: SCRIPT over the cell's CSV (with one more variable
 * `var` = value, such as metric, when var is not NULL) into fig/KIND-ID,
 * titled with the cell and `what`, captioned "ID: caption".
 */
static int cell_figure(struct report *r, const struct tcell *c, const char *script,
		       enum cell_file csv, const char *var, const char *value, const char *kind,
		       const char *what, const char *caption, char *err, size_t errlen)
{
	char vars[4 * PATH_MAX], path[PATH_MAX + 600], title[1024], rel[sizeof(c->id) + 32],
		base[2 * PATH_MAX], cap[512];
	int rc;

	vars[0] = '\0';
	cell_file_path(path, sizeof(path), c->dir, csv);
	plot_var(vars, sizeof(vars), "in", path);
	if (var)
		plot_var(vars, sizeof(vars), var, value);
	snprintf(title, sizeof(title), "%s, %s (%s): %s — %s", c->host, c->release,
		 c->kernel, c->id, what);
	plot_var(vars, sizeof(vars), "title", title);
	snprintf(rel, sizeof(rel), "fig/%s-%s", kind, c->id);
	snprintf(base, sizeof(base), "%s/%s", r->out, rel);
	rc = plot_render(&r->plot, script, base, r->png, vars, err, errlen);
	snprintf(cap, sizeof(cap), "%s: %s", c->id, caption);
	return rc ? rc : add_figure(r, rel, cap, (int)(c - r->t.cell));
}

/*
 * A measured cell's own figures: its spike captures (where one is
 * complete), its workload's histogram per thread, every metric's, the
 * per-second maxima, the timeline. 0, or -errno with err.
 */
static int cell_figures(struct report *r, const struct tcell *c, char *err, size_t errlen)
{
	int rc = 0, complete = 0;	/* an incomplete capture has no bar to draw */

	for (int k = 0; k < c->nspikes; k++)
		complete += c->spikes[k].complete;
	if (complete > 0)
		rc = cell_figure(r, c, "spikes.gp", CELLF_SPIKES, NULL, NULL, "spikes",
				 "spike captures",
				 "each spike capture's latency, by part (docs/spikes.md)",
				 err, errlen);
	/* its workload's own metric per thread, then every metric it has */
	char hwhat[96], hcaption[256], metrics[128] = "";

	snprintf(hwhat, sizeof(hwhat), "%s histogram", rows_metric_words(c->primary));
	snprintf(hcaption, sizeof(hcaption), "%s histogram, 1 µs bins, per thread%s",
		 rows_metric_words(c->primary), c->primary == METRIC_NOISE_MAX ?
		 " (the longest gap of each busy window)" : c->primary == METRIC_RESPONSE ?
		 " (from the intended wake-up to the end of the I/O)" : "");
	if (rc == 0)
		rc = cell_figure(r, c, "hist.gp", CELLF_HIST, "metric",
				 metric_name(c->primary), "hist", hwhat, hcaption, err, errlen);
	for (int m = 0; m < METRIC_COUNT; m++)
		if (c->metric[m] && (c->listed & METRIC_BIT(m)))
			snprintf(metrics + strlen(metrics), sizeof(metrics) - strlen(metrics),
				 "%s%s", metrics[0] ? " " : "", metric_name(m));
	if (rc == 0)
		rc = cell_figure(r, c, "metrics.gp", CELLF_HIST, "metrics", metrics,
				 "metrics", "every metric's histogram",
				 "every metric's histogram, threads merged: wake-up, time in the I/O, response (and the workload's own)",
				 err, errlen);
	if (rc == 0 && c->nsec > 0)	/* series.csv is optional */
		rc = cell_figure(r, c, "series.gp", CELLF_SERIES, NULL, NULL, "series",
				 "per-second maximum",
				 "each thread's maximum per second", err, errlen);
	char window[24];

	snprintf(window, sizeof(window), "%lld", (long long)c->timeline_window);
	if (rc == 0 && c->timeline_windows >= 3)
		rc = cell_figure(r, c, "timeline.gp", CELLF_TIMELINE, "window", window, "timeline",
				 "wake-up latency over time",
				 "wake-up latency over time: samples per window and latency bin, threads merged (timeline.csv)",
				 err, errlen);
	return rc;
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

	char label[96], what[160], lead[sizeof(r->fig->caption)];

	report_metric_label(r, label, sizeof(label));
	rc = report_summary_figure(r, lead, sizeof(lead), err, errlen);
	if (rc > 0 && (rc = add_figure(r, "fig/summary", lead, -1)) == 0)
		r->fig[r->nfig - 1].lead = 1;
	char caption[1024];

	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/fig/tail.list.gp", r->out);
		rc = report_tail_list(r, path, caption, sizeof(caption));
		if (rc)
			snprintf(err, errlen, "%.4000s: %s", path, strerror(-rc));
	}
	if (rc == 0) {
		vars[0] = '\0';
		plot_var(vars, sizeof(vars), "list", path);
		plot_var(vars, sizeof(vars), "xlabel", label);
		snprintf(what, sizeof(what), "tail of the %s", label);
		rc = plot_temp(&r->plot, path);
		if (rc == 0)
			rc = campaign_figure(r, first, vars, sizeof(vars), "tail",
					     what, caption, err, errlen);
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", r->out);
	int has_sweep = rc == 0 ? report_sweep(r, path, sweep, sizeof(sweep)) : 0;
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
	for (int i = 0; rc == 0 && i < r->t.n; i++)
		if (r->t.cell[i].measured)
			rc = cell_figures(r, &r->t.cell[i], err, errlen);
	return rc;
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

/* The names of am's sides for beyond (its labels). 0 or -ENOMEM. */
static int side_names(struct report *r)
{
	r->side_name = calloc((size_t)r->am.nsides + 1, sizeof(*r->side_name));
	if (!r->side_name)
		return -ENOMEM;
	for (int s = 0; s < r->am.nsides; s++)
		r->side_name[s] = r->label[s];
	return 0;
}

/*
 * The report of r's tree (its out made): rows, answer, figures, the cell
 * pages, the PDF, beyond.csv and the overview. 0, or -errno with err.
 */
static int report_write(struct report *r, const struct report_opts *o, char *err,
			size_t errlen)
{
	const int pdf = o->pdf, metric = o->metric;
	int rc;

	rc = rows_build(&r->m, &r->t, 1, metric, TAXIS_KERNEL);
	if (rc == 0)
		rc = rows_build(&r->am, &r->t, 1, metric, o->axis);
	if (rc == 0)
		rc = report_answer_build(r);
	if (rc == 0)
		rc = side_names(r);
	if (rc == 0)	/* for --deadline, or the campaign's [thresholds] max */
		rc = beyond_start(&r->beyond, &r->am, r->side_name, o->deadline_ns, o->target, r->t.dir);
	if (rc)
		snprintf(err, errlen, "out of memory");
	else if (r->m.nomit)
		log_warn("%d measured cells have no %s: left out of the overview and the figures",
			 r->m.nomit, metric_name(metric));
	if (rc == 0)
		rc = figures(r, err, errlen);
	if (rc == 0 && (rc = plot_flush(&r->plot, err, errlen)) == -EIO) {
		/* figures that failed were said; the pages leave them out */
		drop_undrawn(r);
		rc = 0;
	}
	if (rc == 0)
		rc = report_cell_pages(r, pdf, err, errlen);
	if (rc == 0 && pdf)
		rc = report_pdf(r, err, errlen);
	if (rc == 0 && r->beyond.fit) {
		rc = afile_write(r->out, "beyond.csv", beyond_fill_csv, &r->beyond);
		if (rc)
			snprintf(err, errlen, "%s/beyond.csv: %s", r->out, strerror(-rc));
	}
	if (rc == 0) {
		struct page pg = { r, pdf };

		rc = afile_write(r->out, "index.html", report_fill_index, &pg);
		if (rc)
			snprintf(err, errlen, "%s/index.html: %s", r->out,
				 strerror(-rc));
	}
	return rc;
}

int report_run(const char *dir, const struct report_opts *o)
{
	const int pdf = o->pdf, metric = o->metric;
	struct report r;
	char err[8192], path[PATH_MAX + 64];
	int rc;

	memset(&r, 0, sizeof(r));
	r.metric = metric;
	r.margin = o->margin;
	r.png = o->png;
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
	r.plot.jobs = o->jobs;
	/* a report on another metric goes beside the default one, never over it */
	if (metric == ROWS_OWN_METRIC)
		snprintf(r.out, sizeof(r.out), "%s/report", dir);
	else
		snprintf(r.out, sizeof(r.out), "%s/report-%s", dir, metric_name(metric));
	snprintf(path, sizeof(path), "%s/fig", r.out);
	rc = mkdir_p(path);
	if (rc) {
		log_error("%s: %s", path, strerror(-rc));
		tree_free(&r.t);
		return EXIT_RUNTIME;
	}
	rc = report_write(&r, o, err, sizeof(err));
	if (r.plot.warnings)
		log_warn("gnuplot printed %d warnings; the last: %s",
			 r.plot.warnings, r.plot.last_warning);
	if (rc == 0 && !o->quiet) {
		char text[1200];

		if (rows_unmeasured_text(&r.t, text, sizeof(text)))
			printf("%s\n", text);
		beyond_print(&r.beyond, stdout);
		printf("%s/index.html\n", r.out);
	}
	if (rc)
		log_error("%s", err);
	plotter_free(&r.plot);
	free(r.fig);
	free(r.label);
	free(r.verdict);
	free(r.slot);
	free(r.median);
	beyond_free(&r.beyond);
	free(r.side_name);
	rows_free(&r.m);
	rows_free(&r.am);
	int damaged = r.t.nbad + r.plot.failed;
	tree_free(&r.t);
	return rc || damaged ? EXIT_RUNTIME : EXIT_PASS;
}
