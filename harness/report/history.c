/*
 * latlab history DIR... : the same rows across many campaign trees (one a
 * night, or one per kernel version), in campaign time or kernel release
 * order — a max / p99.99 trend line per row and OSADL's waterfall of
 * histograms, with the trees listed. A tree that has none of the rows the
 * others share is named, never silently dropped.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "beyond.h"
#include "cellread.h"
#include "csvfile.h"
#include "exitcodes.h"
#include "files.h"
#include "html.h"
#include "log.h"
#include "plot.h"
#include "report.h"
#include "rows.h"
#include "tree.h"
#include "treelist.h"
#include "verdict.h"


/* A kernel variant on a host in one tree (a side of rows.h): a point of every row's history. */
struct point {
	int tree, side;
	const struct tcell *first;	/* its kernel, host, release */
	char started[32];		/* its first measured cell's start (cell.ini) */
	char label[TAXIS_VALUE_MAX + 256];
};

struct history {
	const struct history_opts *o;
	struct tree *t;
	int ntrees;
	struct rows m;		/* every tree's rows and sides */
	struct point *pt;
	int npt;
	int *row;		/* the rows two trees or more have (m's indices) */
	int nrow;
	int *shares;		/* per tree: rows it has of those shared */
	struct plotter plot;
	char out[PATH_MAX];
	struct beyond beyond;	/* each row and point beyond the runs (--deadline) */
	const char **side_name;	/* per side of m: its point's label */
};

/* The names of m's sides for beyond: their points' labels. 0 or -ENOMEM. */
static int side_names(struct history *h)
{
	h->side_name = calloc((size_t)h->m.nsides + 1, sizeof(*h->side_name));
	if (!h->side_name)
		return -ENOMEM;
	for (int s = 0; s < h->m.nsides; s++)
		h->side_name[s] = "";
	for (int p = 0; p < h->npt; p++)
		h->side_name[h->pt[p].side] = h->pt[p].label;
	return 0;
}

/* The points: every side of every tree that shares a row, with when it ran. */
static int find_points(struct history *h)
{
	h->pt = calloc((size_t)h->m.nsides + 1, sizeof(*h->pt));
	if (!h->pt)
		return -ENOMEM;
	for (int s = 0; s < h->m.nsides; s++) {
		const struct rows_side *sd = &h->m.side[s];
		struct point *p = &h->pt[h->npt];

		if (!h->shares[sd->tree])
			continue;
		h->npt++;
		p->tree = sd->tree;
		p->side = s;
		p->first = sd->first;
		cell_ini_get(sd->first->dir, CELLF_INI, "cell", "started", p->started,
			     sizeof(p->started));
		snprintf(p->label, sizeof(p->label), "%s %s@%s:%s %.10s",
			 h->t[sd->tree].campaign, sd->first->kernel, sd->first->host,
			 sd->first->release, p->started);
	}
	return 0;
}

static const struct history_opts *sort_opts;

/* Campaign time (ISO 8601 sorts as text), or kernel release (version order) first. */
static int by_order(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int d = 0;

	if (sort_opts->by_release)
		d = strverscmp(x->first->release, y->first->release);
	if (d == 0)
		d = strcmp(x->started, y->started);
	return d ? d : x->tree - y->tree;
}

/* Row `row`'s runs at point p (NULL: none there). */
static const struct rows_group *runs_at(const struct history *h, int row,
					const struct point *p)
{
	return rows_group(&h->m, h->row[row], p->side);
}

/* The rows two trees or more have, and per tree how many of them it has. */
static int find_rows(struct history *h)
{
	if (rows_build(&h->m, h->t, h->ntrees, ROWS_OWN_METRIC, TAXIS_KERNEL))
		return -ENOMEM;
	h->shares = calloc((size_t)h->ntrees + 1, sizeof(*h->shares));
	h->row = calloc((size_t)h->m.nrows + 1, sizeof(*h->row));
	if (!h->shares || !h->row)
		return -ENOMEM;
	for (int r = 0; r < h->m.nrows; r++) {
		int tree = -1;

		if (h->m.row[r].trees < 2)
			continue;
		h->row[h->nrow++] = r;
		/* the sides are in tree order: a tree's sides are together */
		for (int s = 0; s < h->m.nsides; s++)
			if (rows_group(&h->m, r, s) && h->m.side[s].tree != tree) {
				tree = h->m.side[s].tree;
				h->shares[tree]++;
			}
	}
	return 0;
}

/* The row's axes (its first run). */
static const struct tcell *row_any(const struct history *h, int row)
{
	return h->m.row[h->row[row]].any;
}

struct row_files {
	const struct history *h;
	int row;
};

/* fig/trend-R.csv: per point its n, median max with the range, median p99.99 (µs). */
static void fill_trend(FILE *fp, void *arg)
{
	const struct row_files *f = arg;
	struct csvw w = { .fp = fp };

	csvw_header(&w, "point,label,n,max_median_us,max_lo_us,max_hi_us,p99.99_median_us,tick");
	for (int p = 0; p < f->h->npt; p++) {
		const struct rows_group *g = runs_at(f->h, f->row, &f->h->pt[p]);
		const struct side_summary *s = g ? &g->sum : NULL;

		if (!g)
			continue;
		csvw_int(&w, p);
		csvw_str(&w, f->h->pt[p].label);
		csvw_int(&w, g->n);
		csvw_num(&w, US(s->max_med), 3);
		csvw_num(&w, US(s->max_lo), 3);
		csvw_num(&w, US(s->max_hi), 3);
		if (s->p9999_ok)
			csvw_num(&w, US(s->p9999_med), 3);
		else
			csvw_str(&w, "");	/* too few samples for it */
		/* the x axis's label: its release (--by release), or when it ran */
		char tick[2 * TCELL_AXIS_MAX];
		const struct point *pt = &f->h->pt[p];

		if (f->h->o->by_release)
			snprintf(tick, sizeof(tick), "%s %s", pt->first->kernel, pt->first->release);
		else
			snprintf(tick, sizeof(tick), "%s %.16s", pt->first->kernel,
				 pt->started[0] ? pt->started : "?");
		for (char *c = tick; *c; c++)
			if (*c == 'T')
				*c = ' ';
		csvw_str(&w, tick);
		csvw_end(&w);
	}
}

/*
 * fig/waterfall-R.dat: per point its runs' histograms of the row's metric merged, a
 * block each (blank-line separated, for splot): point, latency (µs, the
 * bucket's lower edge), count, and its side's colour (plot_colors: rt is
 * rt's colour here as in report and compare).
 */
static void fill_waterfall(FILE *fp, void *arg)
{
	const struct row_files *f = arg;
	struct hist *m = malloc(sizeof(*m));

	if (!m)
		return;
	fputs("# point latency_us count color\n", fp);
	for (int p = 0; p < f->h->npt; p++) {
		const struct rows_group *g = runs_at(f->h, f->row, &f->h->pt[p]);

		if (!g)
			continue;
		hist_init(m);
		for (int i = 0; i < g->n; i++)	/* rows_build made sure it is there */
			hist_merge(m, g->run[i]->metric[f->h->m.row[f->h->row[f->row]].metric]);
		for (int b = 0; b < HIST_BUCKETS; b++) {
			int64_t lo, hi;

			if (!m->bucket[b])
				continue;
			hist_bucket_range(b, &lo, &hi);
			fprintf(fp, "%d %.3f %llu %d\n", p, US(lo > 0 ? lo : 1),
				(unsigned long long)m->bucket[b], f->h->m.side[f->h->pt[p].side].color);
		}
		fputs("\n\n", fp);
	}
	free(m);
}

static void fill_csv(FILE *fp, void *arg)
{
	const struct history *h = arg;
	struct csvw w = { .fp = fp };

	tcell_row_header(&w, HISTORY_COLUMNS);
	for (int r = 0; r < h->nrow; r++) {
		const struct tcell *t = row_any(h, r);

		for (int p = 0; p < h->npt; p++) {
			const struct rows_group *g = runs_at(h, r, &h->pt[p]);
			const struct side_summary *s = g ? &g->sum : NULL;

			if (!g)
				continue;
			tcell_row_fields(&w, t);
			csvw_int(&w, p);
			csvw_str(&w, h->t[h->pt[p].tree].dir);
			csvw_str(&w, h->pt[p].first->kernel);
			csvw_str(&w, h->pt[p].first->host);
			csvw_str(&w, h->pt[p].first->release);
			csvw_str(&w, h->pt[p].started);
			csvw_int(&w, g->n);
			csvw_num(&w, s->max_med, 0);
			csvw_num(&w, s->max_lo, 0);
			csvw_num(&w, s->max_hi, 0);
			if (s->p9999_ok)
				csvw_num(&w, s->p9999_med, 0);
			else
				csvw_str(&w, "");	/* too few samples for it */
			csvw_str(&w, metric_name(h->m.row[h->row[r]].metric));
			csvw_end(&w);
		}
	}
}

/*
 * What row r's points can mean: the metric it is judged on where its own
 * cannot be (vouch.h), the points whose figures the runs cannot vouch
 * for, and the runs left out by their status, each said under its title.
 */
static void row_caveats(FILE *fp, const struct history *h, int r)
{
	char metric[256], words[600], left[64];

	if (h->m.row[r].metric != h->m.row[r].asked) {
		rows_metric_said(&h->m, r, metric, sizeof(metric));
		fputs("<p class=\"warn\">Judged on ", fp);
		html_text(fp, metric);
		fputs(".</p>\n", fp);
	}
	for (int s = 0; s < h->m.nsides; s++) {
		struct side_runs sr = rows_runs(&h->m, r, s);
		const struct tcell *first;
		unsigned why = verdict_side_why(&sr, &first);

		snprintf(left, sizeof(left), sr.nleft ? " (%d run%s left out by its status)" : "",
			 sr.nleft, sr.nleft == 1 ? "" : "s");
		if (!why || !first)
			continue;
		vouch_words(why, &first->vf, sr.metric, words, sizeof(words));
		fputs("<p class=\"warn\">", fp);
		html_text(fp, h->side_name[s]);
		fputs(": not a figure to compare: ", fp);
		html_text(fp, words);
		html_text(fp, left);
		fputs(".</p>\n", fp);
	}
}

static void fill_page(FILE *fp, void *arg)
{
	const struct history *h = arg;
	char title[1024];

	html_head(fp, "latlab history");
	fputs("<h1>latlab history</h1>\n<h2>Trees</h2>\n<p>In ", fp);
	fputs(h->o->by_release ? "kernel release order (then campaign time)" :
	      "campaign time order (each kernel variant's first measured cell)", fp);
	fputs("; every number is in <a href=\"history.csv\">history.csv</a>.</p>\n<ol start=\"0\">\n", fp);
	for (int p = 0; p < h->npt; p++) {
		fputs("<li>", fp);
		html_text(fp, h->pt[p].label);
		fputs(": ", fp);
		html_text(fp, h->t[h->pt[p].tree].dir);
		fputs("</li>\n", fp);
	}
	fputs("</ol>\n", fp);
	for (int k = 0; k < h->ntrees; k++)
		if (!h->shares[k]) {
			fputs("<p class=\"warn\">", fp);
			html_printf(fp, "%s (campaign %s) has none of the rows the other trees share: left out.",
				    h->t[k].dir, h->t[k].campaign);
			fputs("</p>\n", fp);
		}
	for (int k = 0; k < h->ntrees; k++)
		html_damaged(fp, &h->t[k]);
	for (int r = 0; r < h->nrow; r++) {
		tcell_row_words(row_any(h, r), TAXIS_KERNEL, title, sizeof(title));
		fputs("<h2>", fp);
		html_text(fp, title);
		fputs("</h2>\n", fp);
		row_caveats(fp, h, h->row[r]);
		char base[PATH_MAX + 64];

		const char *what = rows_metric_words(h->m.row[h->row[r]].metric);

		snprintf(base, sizeof(base), "%s/fig/trend-%d", h->out, r);
		if (plot_drawn(base))
			fprintf(fp, "<figure><img src=\"fig/trend-%d.svg\" alt=\"trend %d\"><figcaption>"
				"The median of the runs' %s maxima (with their range) and of their p99.99, "
				"point by point (the list above). <a href=\"fig/trend-%d.png\">PNG</a>, "
				"<a href=\"fig/trend-%d.csv\">data</a></figcaption></figure>\n", r, r,
				what, r, r);
		snprintf(base, sizeof(base), "%s/fig/waterfall-%d", h->out, r);
		if (plot_drawn(base))
			fprintf(fp, "<figure><img src=\"fig/waterfall-%d.svg\" alt=\"waterfall %d\"><figcaption>"
				"The %s histograms, point by point, its runs merged (OSADL's waterfall). "
				"<a href=\"fig/waterfall-%d.png\">PNG</a></figcaption></figure>\n", r, r,
				what, r);
	}
	beyond_html(&h->beyond, fp);
	html_foot(fp);
}

/* Each row's trend and waterfall: data files, then queued figures. */
static int figures(struct history *h, char *err, size_t errlen)
{
	char dir[PATH_MAX + 16], name[64], path[PATH_MAX + 80], vars[4 * PATH_MAX],
		title[1200], rowt[1024];
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/fig", h->out);
	for (int r = 0; rc == 0 && r < h->nrow; r++) {
		struct row_files f = { h, r };

		tcell_row_words(row_any(h, r), TAXIS_KERNEL, rowt, sizeof(rowt));
		for (int kind = 0; rc == 0 && kind < 2; kind++) {
			snprintf(name, sizeof(name), kind ? "waterfall-%d.dat" : "trend-%d.csv", r);
			rc = afile_write(dir, name, kind ? fill_waterfall : fill_trend, &f);
			if (rc) {
				snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
				break;
			}
			vars[0] = '\0';
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			plot_var(vars, sizeof(vars), "in", path);
			snprintf(title, sizeof(title), "%s — %s %s, point by point", rowt,
				 rows_metric_words(h->m.row[h->row[r]].metric),
				 kind ? "histograms" : "latency");
			plot_var(vars, sizeof(vars), "title", title);
			plot_var(vars, sizeof(vars), "xlabel", h->o->by_release ? "kernel release" :
				 "when the campaign ran (its first measured cell, UTC)");
			snprintf(path, sizeof(path), "%s/%s-%d", dir, kind ? "waterfall" : "trend", r);
			rc = plot_render(&h->plot, kind ? "waterfall.gp" : "trend.gp", path, 1,
					 vars, err, errlen);
		}
	}
	if (rc == 0 && (rc = plot_flush(&h->plot, err, errlen)) == -EIO)
		rc = 0;	/* a figure that failed was said; the page leaves it out */
	return rc;
}

/*
 * The trees dirs[0..n) read into h (each once, whatever its spelling),
 * the damage each holds counted into *damaged. 0, or the exit status,
 * said.
 */
static int read_trees(struct history *h, const char *const *dirs, int n, int *damaged)
{
	char err[8192] = "";
	int rc, *point = calloc((size_t)n + 1, sizeof(*point));

	if (!point) {
		log_error("out of memory");
		free(point);
		return EXIT_RUNTIME;
	}
	/* each tree a point once, whatever its spelling */
	for (int i = 0; i < n; i++)
		point[i] = i;
	rc = tree_list_distinct((char *const *)dirs, point, n, 0, err, sizeof(err));
	free(point);
	if (rc) {
		log_error("%s", err);
		return rc == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		rc = tree_read(&h->t[i], dirs[i], err, sizeof(err));
		if (rc) {
			log_error("%s", err);
			return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
		}
		h->ntrees++;
		*damaged += tree_log_damaged(&h->t[i]);
	}
	if (n < 2) {
		log_error("history needs two trees or more (a campaign per night, or per kernel)");
		return EXIT_USAGE;
	}
	return 0;
}

/* h's figures, beyond.csv (--deadline), history.csv and index.html under h->out: 0, or -errno with err. */
static int write_history(struct history *h, const struct history_opts *o, char *err,
			 size_t errlen)
{
	char path[PATH_MAX + 16];
	int rc;

	h->plot.jobs = o->jobs;
	snprintf(h->out, sizeof(h->out), "%s", o->out ? o->out : "history");
	snprintf(path, sizeof(path), "%s/fig", h->out);
	rc = mkdir_p(path);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	if (rc == 0)
		rc = figures(h, err, errlen);
	if (rc == 0 && ((rc = side_names(h)) != 0 ||	/* --deadline only */
			(rc = beyond_start(&h->beyond, &h->m, h->side_name, o->deadline_ns, o->target,
					   NULL)) != 0))
		snprintf(err, errlen, "out of memory");
	if (rc == 0 && h->beyond.fit &&
	    (rc = afile_write(h->out, "beyond.csv", beyond_fill_csv, &h->beyond)) != 0)
		snprintf(err, errlen, "%s/beyond.csv: %s", h->out, strerror(-rc));
	if (rc == 0 && (rc = afile_write(h->out, "history.csv", fill_csv, h)) != 0)
		snprintf(err, errlen, "%s/history.csv: %s", h->out, strerror(-rc));
	if (rc == 0 && (rc = afile_write(h->out, "index.html", fill_page, h)) != 0)
		snprintf(err, errlen, "%s/index.html: %s", h->out, strerror(-rc));
	return rc;
}

int history_run(const char *const *dirs, int n, const struct history_opts *o)
{
	struct history h = { .o = o };
	char err[8192] = "";
	int status = EXIT_RUNTIME, rc, damaged = 0;

	h.t = calloc((size_t)n, sizeof(*h.t));
	if (!h.t) {
		log_error("out of memory");
		return EXIT_RUNTIME;
	}
	if ((rc = read_trees(&h, dirs, n, &damaged)) != 0) {
		status = rc;
		goto out;
	}
	sort_opts = o;
	if (find_rows(&h) || find_points(&h)) {
		log_error("out of memory");
		goto out;
	}
	if (h.npt > 1)
		qsort(h.pt, (size_t)h.npt, sizeof(*h.pt), by_order);
	for (int k = 0; k < h.ntrees; k++)
		if (!h.shares[k])
			log_warn("%s (campaign %s) has none of the rows the other trees share: left out",
				 h.t[k].dir, h.t[k].campaign);
	if (!h.nrow) {
		char rows[TAXIS_NAMES_MAX];

		taxis_row_words(rows, sizeof(rows));
		log_error("no row (the same %s) was measured in two of these trees", rows);
		status = EXIT_USAGE;
		goto out;
	}
	if (plotter_init(&h.plot)) {
		log_error("the gnuplot scripts (plots/) are not installed beside latlab; set LATLAB_PLOTS");
		goto out;
	}
	rc = write_history(&h, o, err, sizeof(err));
	if (rc) {
		log_error("%s", err);
		goto out;
	}
	beyond_print(&h.beyond, stdout);
	printf("%s/index.html: %d rows over %d points from %d trees\n", h.out, h.nrow,
	       h.npt, h.ntrees);
	status = damaged || h.plot.failed ? EXIT_RUNTIME : EXIT_PASS;
out:
	plotter_free(&h.plot);
	for (int i = 0; i < h.ntrees; i++)
		tree_free(&h.t[i]);
	free(h.t);
	beyond_free(&h.beyond);
	free(h.side_name);
	rows_free(&h.m);
	free(h.pt);
	free(h.row);
	free(h.shares);
	return status;
}
