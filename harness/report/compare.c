#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcodes.h"
#include "html.h"
#include "junit.h"
#include "log.h"
#include "model.h"
#include "plot.h"
#include "report.h"
#include "atomic.h"
#include "csvfile.h"
#include "tree.h"
#include "verdict.h"

#define US(ns) ((double)(ns) / 1000.0)
#define MAX_TREES 16
#define MAX_SIDES 16

/*
 * What is compared: a kernel variant on a host, in one tree. A tree of one
 * campaign that ran several variants (kernel = stock, rt) gives a side each.
 */
struct side {
	int tree;
	const char *kernel, *host, *release;
};

/* A cell's axes without repeat; per side, its runs (the repeats). */
struct row {
	char key[512];
	const struct tcell **run[MAX_SIDES];
	int n[MAX_SIDES];
	int sides;		/* sides with at least one run */
	int64_t over[COMPARE_OVER_MAX];	/* exceedance thresholds, ns */
	int nover;
};

/* One row's verdict on two of its sides. */
struct pair {
	int row, a, b;		/* c->rows, c->side indices */
	struct pair_verdict v;	/* a against b */
	int has_noise;		/* the row's workload records noise_max: */
	struct pair_verdict noise;	/* a against b on it */
	int which;		/* judged: regression on max (0) or p99.99 (1); -1 none */
};

struct cmp {
	const struct compare_opts *o;
	struct tree t[MAX_TREES];
	int ntrees;
	struct side side[MAX_SIDES];
	char label[MAX_SIDES][400];
	int nsides;
	struct row *rows;
	int nrows;
	/*
	 * Every verdict, worked out once (make_pairs) for the page, compare.csv,
	 * junit.xml and stdout: each pair of sides a row has (a < b), and with
	 * --baseline each other side against each baseline side (b).
	 */
	struct pair *pairs, *judged;
	int npairs, njudged;
	int regressions;	/* judged pairs worse than the baseline */
	struct plotter plot;
	char out[PATH_MAX];
};

/* "rt@host:6.6.0-rt" — what tells the sides apart, no blanks (gnuplot words). */
static void make_label(struct cmp *c, int s)
{
	const struct side *sd = &c->side[s];

	snprintf(c->label[s], sizeof(c->label[s]), "%s@%s:%s", sd->kernel,
		 sd->host, sd->release);
	for (char *p = c->label[s]; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/*
 * Sides from different trees with the same variant, host and release
 * (two campaigns on one machine) are told apart by their campaign's name,
 * or by the tree's number when that is the same too.
 */
static void distinct_labels(struct cmp *c)
{
	char base[MAX_SIDES][400];
	int dup[MAX_SIDES] = { 0 };

	memcpy(base, c->label, sizeof(base));
	for (int i = 0; i < c->nsides; i++)
		for (int j = 0; j < c->nsides; j++)
			if (i != j && strcmp(base[i], base[j]) == 0)
				dup[i] = 1;
	for (int i = 0; i < c->nsides; i++) {
		const char *camp = c->t[c->side[i].tree].campaign;
		int same_camp = 0;
		size_t u = strlen(c->label[i]);

		if (!dup[i])
			continue;
		for (int j = 0; j < c->nsides; j++)
			same_camp |= j != i && strcmp(base[i], base[j]) == 0 &&
				     strcmp(camp, c->t[c->side[j].tree].campaign) == 0;
		if (camp[0] && !same_camp)
			snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "#%s", camp);
		else
			snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "#%d",
				 c->side[i].tree + 1);
		for (char *p = c->label[i]; *p; p++)
			if (*p == ' ')
				*p = '_';
	}
}

/* The side of tree i that cell belongs to, added when new; -1: too many. */
static int side_of(struct cmp *c, int i, const struct tcell *cell)
{
	for (int s = 0; s < c->nsides; s++) {
		const struct side *sd = &c->side[s];

		if (sd->tree == i && strcmp(sd->kernel, cell->kernel) == 0 &&
		    strcmp(sd->host, cell->host) == 0 &&
		    strcmp(sd->release, cell->release) == 0)
			return s;
	}
	if (c->nsides == MAX_SIDES)
		return -1;
	c->side[c->nsides] = (struct side){ i, cell->kernel, cell->host, cell->release };
	make_label(c, c->nsides);
	return c->nsides++;
}

static int add_run(struct row *r, int s, const struct tcell *cell)
{
	const struct tcell **run = realloc(r->run[s], (size_t)(r->n[s] + 1) * sizeof(*run));

	if (!run)
		return -ENOMEM;
	r->run[s] = run;
	run[r->n[s]++] = cell;
	r->sides += r->n[s] == 1;
	return 0;
}

static int collect(struct cmp *c)
{
	for (int i = 0; i < c->ntrees; i++)
		for (int k = 0; k < c->t[i].n; k++) {
			const struct tcell *cell = &c->t[i].cell[k];
			char key[512];
			int r, s;

			if (!cell->measured)
				continue;
			s = side_of(c, i, cell);
			if (s < 0) {
				log_error("more than %d kernel variants and hosts to compare", MAX_SIDES);
				return -E2BIG;
			}
			tcell_row_key(cell, key, sizeof(key));
			for (r = 0; r < c->nrows; r++)
				if (strcmp(c->rows[r].key, key) == 0)
					break;
			if (r == c->nrows) {
				struct row *rows = realloc(c->rows,
					(size_t)(c->nrows + 1) * sizeof(*rows));

				if (!rows)
					return -ENOMEM;
				c->rows = rows;
				memset(&rows[r], 0, sizeof(rows[r]));
				snprintf(rows[r].key, sizeof(rows[r].key), "%s", key);
				c->nrows++;
			}
			if (add_run(&c->rows[r], s, cell))
				return -ENOMEM;
		}
	return 0;
}

static struct side_runs runs_of(const struct row *r, int s)
{
	return (struct side_runs){ r->run[s], r->n[s], METRIC_WAKEUP };
}

/* Any run of the row: its axes. */
static const struct tcell *any_run(const struct cmp *c, const struct row *r)
{
	for (int s = 0; s < c->nsides; s++)
		if (r->n[s])
			return r->run[s][0];
	return NULL;
}

/* The sides of the row that are not the baseline's. */
static int is_baseline(const struct cmp *c, int s)
{
	return c->o->baseline && c->side[s].tree == 0;
}

static int figure(struct cmp *c, const struct row *r, int n, char *err,
		  size_t errlen)
{
	char vars[16384] = "", title[1024], base[PATH_MAX + 64],
		list[PATH_MAX + 64], hist[MAX_SIDES][PATH_MAX + 600];
	const char *paths[MAX_SIDES], *names[MAX_SIDES];
	const struct tcell *any = any_run(c, r);
	int k = 0, rc;

	for (int i = 0; i < c->nsides; i++) {
		struct side_runs sr = runs_of(r, i);
		struct side_summary sum;

		if (!sr.n)
			continue;
		verdict_summary(&sr, &sum);
		cell_file_path(hist[k], sizeof(hist[k]), sr.run[sum.typical]->dir, CELLF_HIST);
		paths[k] = hist[k];
		names[k++] = c->label[i];
	}
	snprintf(list, sizeof(list), "%s/fig/compare-%d.list.gp", c->out, n);
	rc = plot_write_list(list, paths, names, k);
	if (rc) {
		snprintf(err, errlen, "%s: %s", list, strerror(-rc));
		return rc;
	}
	plot_var(vars, sizeof(vars), "list", list);
	/* the row's axes, not a cell id: ids differ by kernel variant */
	snprintf(title, sizeof(title), "%s, %s, threads %s, affinity %s, %.0f us: wakeup latency by kernel and host (the run at the median max)",
		 any->load, any->workload, any->threads, any->affinity,
		 US(any->interval));
	plot_var(vars, sizeof(vars), "title", title);
	snprintf(base, sizeof(base), "%s/fig/compare-%d", c->out, n);
	rc = plot_temp(&c->plot, list);
	return rc ? rc : plot_render(&c->plot, "compare.gp", base, vars, err, errlen);
}

struct page {
	struct cmp *c;
	int pdf;
};

/*
 * Why each side was late: its captures by culprit kind (count, and the
 * share of the captured latency), side by side. Nothing when no side traced.
 */
static void culprit_kinds(FILE *fp, const struct cmp *c)
{
	/* spikes.csv's culprit kinds: a part's name, or incomplete */
	enum { NKINDS = SPIKE_PARTS + 1 };
	const char *kinds[NKINDS];
	int count[MAX_SIDES][NKINDS] = { { 0 } }, total[MAX_SIDES] = { 0 }, traced = 0;
	double ns[MAX_SIDES][NKINDS] = { { 0 } }, all[MAX_SIDES] = { 0 };

	for (int k = 0; k < NKINDS; k++)
		kinds[k] = k < SPIKE_PARTS ? spike_part_name(k) : "incomplete";

	for (int i = 0; i < c->nsides; i++)
		for (int r = 0; r < c->nrows; r++)
			for (int k = 0; k < c->rows[r].n[i]; k++) {
				const struct tcell *t = c->rows[r].run[i][k];

				traced |= t->traced;
				for (int q = 0; q < t->nspikes; q++) {
					const struct tspike *sp = &t->spikes[q];

					for (int j = 0; j < NKINDS; j++)
						if (strcmp(sp->kind, kinds[j]) == 0) {
							count[i][j]++;
							ns[i][j] += (double)sp->latency_ns;
						}
					total[i]++;
					all[i] += (double)sp->latency_ns;
				}
			}
	if (!traced)
		return;
	fputs("<h2>Why it was late: culprits of the spike captures</h2>\n"
	      "<p>Captures per culprit kind (their share of the captured latency), per "
	      "side, over every cell it traced. A kind no side has is left out.</p>\n"
	      "<table>\n<tr><th class=\"l\">culprit kind</th>", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int j = 0; j < NKINDS; j++) {
		int any = 0;

		for (int i = 0; i < c->nsides; i++)
			any |= count[i][j] > 0;
		if (!any)
			continue;
		fprintf(fp, "<tr><td class=\"l\">%s</td>", kinds[j]);
		for (int i = 0; i < c->nsides; i++)
			fprintf(fp, "<td>%d (%.0f %%)</td>", count[i][j],
				all[i] > 0 ? 100.0 * ns[i][j] / all[i] : 0.0);
		fputs("</tr>\n", fp);
	}
	fputs("<tr><td class=\"l\">captures</td>", fp);
	for (int i = 0; i < c->nsides; i++)
		fprintf(fp, "<td>%d</td>", total[i]);
	fputs("</tr>\n</table>\n", fp);
}

/* Every pair of sides the row has, a verdict each. */
static void html_verdicts(FILE *fp, const struct cmp *c, int row)
{
	int first = 1;

	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		char text[1200];

		if (p->row != row)
			continue;
		verdict_text(&p->v, c->label[p->a], c->label[p->b], text, sizeof(text));
		if (!first)
			fputs("<br>", fp);
		fprintf(fp, "<span class=\"%s\">", verdict_keyword(p->v.kind));
		html_text(fp, text);
		fputs("</span>", fp);
		if (p->v.p9999.ok)	/* the same for p99.99, as compare.csv has it */
			fprintf(fp, " <small>(p99.99 ratio %.2fx [%.2fx, %.2fx]: %s)</small>",
				p->v.p9999.ratio, p->v.p9999.lo, p->v.p9999.hi,
				verdict_keyword(p->v.kind_p9999));
		if (p->has_noise) {
			verdict_text(&p->noise, c->label[p->a], c->label[p->b], text, sizeof(text));
			fprintf(fp, "<br>noise_max: <span class=\"%s\">", verdict_keyword(p->noise.kind));
			html_text(fp, text);
			fputs("</span>", fp);
		}
		first = 0;
	}
}

static void html_rows(FILE *fp, const struct cmp *c)
{
	fputs("<h2>Rows measured on more than one side</h2>\n"
	      "<p>A row is a cell's axes without its repeat; each side holds its runs "
	      "(n). Wake-up latency in µs, threads merged: the median of the runs' maxima "
	      "with their range, and the medians of their p99.99 and p99. The verdict "
	      "compares the medians of the maxima with a 95 % interval "
	      "(docs/report.md: how sure a verdict is).</p>\n"
	      "<table>\n<tr><th class=\"l\">row (load, workload, threads, affinity, interval, priority, size)</th>", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs(" n</th><th>max (median [range])</th><th>p99.99</th><th>p99</th>", fp);
	}
	fputs("<th class=\"l\">verdict</th></tr>\n", fp);
	for (int r = 0; r < c->nrows; r++) {
		const struct row *row = &c->rows[r];
		char title[1024];

		if (row->sides < 2)
			continue;
		tcell_row_title(any_run(c, row), title, sizeof(title));
		fputs("<tr><td class=\"l\">", fp);
		html_text(fp, title);
		fputs("</td>", fp);
		for (int i = 0; i < c->nsides; i++) {
			struct side_runs sr = runs_of(row, i);
			struct side_summary s;

			if (!sr.n) {
				fputs("<td></td><td></td><td></td><td></td>", fp);
				continue;
			}
			verdict_summary(&sr, &s);
			fprintf(fp, "<td>%d</td><td>%.1f [%.1f, %.1f]</td><td>%.1f</td><td>%.1f</td>",
				s.n, US(s.max_med), US(s.max_lo), US(s.max_hi),
				US(s.p9999_med), US(s.p99_med));
		}
		fputs("<td class=\"l\">", fp);
		html_verdicts(fp, c, r);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void html_exceed(FILE *fp, const struct cmp *c)
{
	fputs("<h2>Wake-ups above a threshold, per hour of measuring</h2>\n"
	      "<p>Counted from the histograms (every wake-up, all runs and threads of "
	      "a side), per hour of the cells' measuring, with a 95 % Poisson interval. "
	      "Unlike a maximum, a rate is meaningful from one long run. Thresholds: "
	      "<code>--over</code>, or the row's pooled p99 and p99.99 rounded up.</p>\n"
	      "<table>\n<tr><th class=\"l\">row</th><th>above</th>", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int r = 0; r < c->nrows; r++) {
		const struct row *row = &c->rows[r];
		char title[1024];

		if (row->sides < 2)
			continue;
		tcell_row_title(any_run(c, row), title, sizeof(title));
		for (int k = 0; k < row->nover; k++) {
			fputs("<tr><td class=\"l\">", fp);
			if (k == 0)
				html_text(fp, title);
			fprintf(fp, "</td><td>%.0f µs</td>", US(row->over[k]));
			for (int i = 0; i < c->nsides; i++) {
				struct side_runs sr = runs_of(row, i);
				struct exceed e;

				if (!sr.n) {
					fputs("<td></td>", fp);
					continue;
				}
				verdict_exceed(&sr, row->over[k], &e);
				fprintf(fp, "<td>%.3g/h [%.3g, %.3g] (%llu in %.3g h)</td>", e.rate,
					e.lo, e.hi, (unsigned long long)e.count, e.hours);
			}
			fputs("</tr>\n", fp);
		}
	}
	fputs("</table>\n", fp);
}

/*
 * Against the baseline: a side's row regresses when the interval of its
 * ratio to the baseline (max or p99.99) lies wholly above 1 + tolerance.
 */
static int regresses(const struct pair_verdict *v, double tol, int *which)
{
	*which = -1;
	if (v->max.ok && v->max.lo > 1 + tol)
		*which = 0;
	else if (v->p9999.ok && v->p9999.lo > 1 + tol)
		*which = 1;
	return *which >= 0;
}

static void html_baseline(FILE *fp, const struct cmp *c)
{
	if (!c->o->baseline)
		return;
	fprintf(fp, "<h2>Against the baseline</h2>\n<p>Each side's rows against the "
		"baseline's (<code>--baseline</code>), tolerance %.0f %%: a row regresses "
		"when the 95 %% interval of its ratio to the baseline (max or p99.99) lies "
		"wholly above 1 + tolerance.</p>\n<table>\n<tr><th class=\"l\">row</th>"
		"<th class=\"l\">side</th><th>max ratio [95 %%]</th><th>p99.99 ratio [95 %%]</th>"
		"<th class=\"l\">judgement</th></tr>\n", 100 * c->o->tolerance);
	for (const struct pair *p = c->judged; p < c->judged + c->njudged; p++) {
		const struct pair_verdict *v = &p->v;
		char title[1024];

		tcell_row_title(any_run(c, &c->rows[p->row]), title, sizeof(title));
		fprintf(fp, "<tr class=\"%s\"><td class=\"l\">", p->which >= 0 ? "fail" : "ok");
		html_text(fp, title);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->label[p->a]);
		fprintf(fp, "</td><td>%.2fx [%.2fx, %.2fx]%s</td><td>%.2fx [%.2fx, %.2fx]%s</td><td class=\"l\">%s</td></tr>\n",
			v->max.ratio, v->max.lo, v->max.hi, v->max.ok ? "" : " (too few)",
			v->p9999.ratio, v->p9999.lo, v->p9999.hi,
			v->p9999.ok ? "" : " (too few)",
			p->which == 0 ? "regression (max)" : p->which == 1 ? "regression (p99.99)" :
			v->max.ok ? "within tolerance" : "too few runs to judge");
	}
	fputs("</table>\n", fp);
}

static void fill_page(FILE *fp, void *arg)
{
	struct page *pg = arg;
	struct cmp *c = pg->c;
	int fig = 0;

	html_head(fp, "latlab compare");
	fputs("<h1>latlab compare</h1>\n", fp);
	int kinds = 0;

	for (int i = 0; i < c->ntrees; i++)
		kinds |= tree_emulated(&c->t[i]);
	if (kinds)
		html_emulated_banner(fp, kinds);
	for (int i = 0; i < c->ntrees; i++)
		html_damaged(fp, &c->t[i]);
	fputs("<p>Kernel variants and hosts compared:</p><ul>\n", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<li><b>", fp);
		html_text(fp, c->label[i]);
		fputs("</b>: ", fp);
		html_text(fp, c->t[c->side[i].tree].dir);
		fputs(is_baseline(c, i) ? " (baseline)</li>\n" : "</li>\n", fp);
	}
	fputs("</ul>\n<p>Every number here, machine-readable: <a href=\"compare.csv\">compare.csv</a>"
	      "</p>\n", fp);
	html_rows(fp, c);
	html_exceed(fp, c);
	html_baseline(fp, c);
	culprit_kinds(fp, c);
	fputs("<h2>Figures</h2>\n", fp);
	for (int r = 0; r < c->nrows; r++) {
		if (c->rows[r].sides < 2)
			continue;
		char base[PATH_MAX + 64];

		snprintf(base, sizeof(base), "%s/fig/compare-%d", c->out, fig);
		if (!plot_drawn(base)) {
			fig++;
			continue;
		}
		fprintf(fp, "<figure><img src=\"fig/compare-%d.png\" alt=\"comparison %d\">"
			"<figcaption>", fig, fig);
		html_text(fp, c->rows[r].key);
		fprintf(fp, " <a href=\"fig/compare-%d.svg\">SVG</a></figcaption></figure>\n", fig);
		fig++;
	}
	(void)pg->pdf;
	html_foot(fp);
}

/* A ratio and its interval; the interval empty when there is none (too few). */
static void ratio_fields(struct csvw *w, const struct ratio_ci *r)
{
	csvw_num(w, r->ratio, 4);
	if (r->ok) {
		csvw_num(w, r->lo, 4);
		csvw_num(w, r->hi, 4);
	} else {
		csvw_str(w, "");
		csvw_str(w, "");
	}
}

/* A side's wake-ups above a threshold: count, hours, rate and its interval. */
static void exceed_fields(struct csvw *w, const struct exceed *e)
{
	csvw_int(w, (int64_t)e->count);
	csvw_num(w, e->hours, 6);
	csvw_num(w, e->rate, 3);
	csvw_num(w, e->lo, 3);
	csvw_num(w, e->hi, 3);
}

/* noise_max's medians (its sides' summaries), ratio and verdict; empty where the row has none. */
static void noise_fields(struct csvw *w, const struct pair *p,
			 const struct side_summary *sa, const struct side_summary *sb)
{
	if (!p->has_noise) {
		for (int k = 0; k < 6; k++)
			csvw_str(w, "");
		return;
	}
	csvw_num(w, sa->max_med, 0);
	csvw_num(w, sb->max_med, 0);
	ratio_fields(w, &p->noise.max);
	csvw_str(w, verdict_keyword(p->noise.kind));
}

/* compare.csv: a line per row x pair of sides x threshold (docs/formats.md). */
static void fill_csv(FILE *fp, void *arg)
{
	const struct cmp *c = arg;
	struct csvw w = { .fp = fp };

	csvw_header(&w, COMPARE_COLUMNS);
	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		const struct row *row = &c->rows[p->row];
		const struct tcell *t = any_run(c, row);
		struct side_runs a = runs_of(row, p->a), b = runs_of(row, p->b);
		struct side_summary sa, sb, na = { 0 }, nb = { 0 };

		verdict_summary(&a, &sa);
		verdict_summary(&b, &sb);
		if (p->has_noise) {	/* noise_max's, once a pair, not once a threshold */
			struct side_runs x = a, y = b;

			x.metric = y.metric = METRIC_NOISE_MAX;
			verdict_summary(&x, &na);
			verdict_summary(&y, &nb);
		}
		for (int k = 0; k < row->nover; k++) {
			struct exceed ea, eb;

			verdict_exceed(&a, row->over[k], &ea);
			verdict_exceed(&b, row->over[k], &eb);
			tcell_row_fields(&w, t);
			csvw_str(&w, c->label[p->a]);
			csvw_str(&w, c->label[p->b]);
			csvw_int(&w, a.n);
			csvw_int(&w, b.n);
			csvw_num(&w, sa.max_med, 0);
			csvw_num(&w, sb.max_med, 0);
			ratio_fields(&w, &p->v.max);
			csvw_num(&w, sa.p9999_med, 0);
			csvw_num(&w, sb.p9999_med, 0);
			ratio_fields(&w, &p->v.p9999);
			csvw_str(&w, verdict_keyword(p->v.kind));
			csvw_str(&w, verdict_keyword(p->v.kind_p9999));
			csvw_int(&w, row->over[k]);
			exceed_fields(&w, &ea);
			exceed_fields(&w, &eb);
			noise_fields(&w, p, &na, &nb);
			csvw_end(&w);
		}
	}
}

/* "SIDE against the baseline BASE: max ratio 1.52x [1.31x, 1.80x]": a regression in words. */
static void regression_text(const struct cmp *c, const struct pair *p, char *buf, size_t len)
{
	const struct ratio_ci *r = p->which ? &p->v.p9999 : &p->v.max;

	snprintf(buf, len, "%s against the baseline %s: %s ratio %.2fx [%.2fx, %.2fx], above 1 + %.0f %%",
		 c->label[p->a], c->label[p->b], p->which ? "p99.99" : "max",
		 r->ratio, r->lo, r->hi, 100 * c->o->tolerance);
}

struct junit_rows {
	const struct cmp *c;
	char title[1024], text[1200];
};

/* Judged pair i as a testcase: the row of a side, failed on regression. */
static void junit_row(int i, struct junit_case *jc, void *arg)
{
	struct junit_rows *jr = arg;
	const struct cmp *c = jr->c;
	const struct pair *p = &c->judged[i];

	tcell_row_title(any_run(c, &c->rows[p->row]), jr->title, sizeof(jr->title));
	jc->classname = c->label[p->a];
	jc->name = jr->title;
	if (p->which >= 0) {
		regression_text(c, p, jr->text, sizeof(jr->text));
		jc->result = JUNIT_FAILURE;
		jc->message = jr->text;
	}
}

/* junit.xml with --baseline: a testcase per row x side, failed on regression. */
static void fill_junit(FILE *fp, void *arg)
{
	struct junit_rows jr = { .c = arg };

	junit_write(fp, &(struct junit_suite){ "latlab compare --baseline", 0 },
		    jr.c->njudged, junit_row, &jr);
}

/* Each verdict on stdout, a line per row and pair. */
static void print_verdicts(const struct cmp *c)
{
	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		char title[1024], text[1200];

		tcell_row_title(any_run(c, &c->rows[p->row]), title, sizeof(title));
		verdict_text(&p->v, c->label[p->a], c->label[p->b], text, sizeof(text));
		printf("%s: %s\n", title, text);
		if (p->has_noise) {
			verdict_text(&p->noise, c->label[p->a], c->label[p->b], text, sizeof(text));
			printf("%s: noise_max: %s\n", title, text);
		}
	}
}

/* The rows worse than the baseline, named on stderr. */
static void print_regressions(const struct cmp *c)
{
	for (const struct pair *p = c->judged; p < c->judged + c->njudged; p++) {
		const struct ratio_ci *r = p->which ? &p->v.p9999 : &p->v.max;
		char title[1024];

		if (p->which < 0)
			continue;
		tcell_row_title(any_run(c, &c->rows[p->row]), title, sizeof(title));
		log_error("regression: %s on %s: %s %.2fx [%.2fx, %.2fx] the baseline's (%s), beyond %.0f %%",
			  title, c->label[p->a], p->which ? "p99.99" : "max", r->ratio,
			  r->lo, r->hi, c->label[p->b], 100 * c->o->tolerance);
	}
}

/* Append a's verdict against b on row r to *list. 0, or -ENOMEM. */
static int add_pair(struct pair **list, int *n, const struct cmp *c, int r, int a, int b)
{
	struct side_runs x = runs_of(&c->rows[r], a), y = runs_of(&c->rows[r], b);
	struct pair p = { .row = r, .a = a, .b = b, .which = -1 };
	struct pair *more;

	if (!x.n || !y.n)
		return 0;
	int rc = verdict_pair(&x, &y, &p.v);
	if (rc)
		return rc;
	if (side_has_metric(&x, METRIC_NOISE_MAX) && side_has_metric(&y, METRIC_NOISE_MAX)) {
		x.metric = y.metric = METRIC_NOISE_MAX;
		p.has_noise = 1;
		rc = verdict_pair(&x, &y, &p.noise);
		if (rc)
			return rc;
	}
	more = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
	if (!more)
		return -ENOMEM;
	*list = more;
	more[(*n)++] = p;
	return 0;
}

/* Every verdict the outputs show, once; the regressions counted. 0 or -errno. */
static int make_pairs(struct cmp *c)
{
	int rc = 0;

	for (int r = 0; rc == 0 && r < c->nrows; r++) {
		for (int i = 0; rc == 0 && i < c->nsides; i++)
			for (int j = i + 1; rc == 0 && j < c->nsides; j++)
				rc = add_pair(&c->pairs, &c->npairs, c, r, i, j);
		for (int b = 0; rc == 0 && b < c->nsides; b++)
			for (int s = 0; rc == 0 && is_baseline(c, b) && s < c->nsides; s++)
				if (!is_baseline(c, s))
					rc = add_pair(&c->judged, &c->njudged, c, r, s, b);
	}
	for (struct pair *p = c->judged; rc == 0 && p < c->judged + c->njudged; p++)
		c->regressions += regresses(&p->v, c->o->tolerance, &p->which);
	return rc;
}

static void free_cmp(struct cmp *c)
{
	plotter_free(&c->plot);
	for (int i = 0; i < c->ntrees; i++)
		tree_free(&c->t[i]);
	for (int r = 0; r < c->nrows; r++)
		for (int s = 0; s < MAX_SIDES; s++)
			free(c->rows[r].run[s]);
	free(c->rows);
	free(c->pairs);
	free(c->judged);
	free(c);
}

int compare_run(const char *const *dirs, int n, const struct compare_opts *o)
{
	struct cmp *c = calloc(1, sizeof(*c));
	char err[8192] = "", path[PATH_MAX + 16];
	int rc = 0, shared = 0, damaged = 0, status = EXIT_RUNTIME;
	const char *all[MAX_TREES + 1];
	int ntrees = 0;

	if (!c)
		return EXIT_RUNTIME;
	c->o = o;
	if (o->baseline)
		all[ntrees++] = o->baseline;
	if (n + ntrees > MAX_TREES) {
		log_error("at most %d trees", MAX_TREES);
		free(c);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++)
		all[ntrees++] = dirs[i];
	for (int i = 0; i < ntrees; i++) {
		rc = tree_read(&c->t[i], all[i], err, sizeof(err));
		if (rc) {
			log_error("%s", err);
			status = rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
			goto out;
		}
		damaged += tree_log_damaged(&c->t[i]);
		c->ntrees++;
	}
	if (collect(c))
		goto out;
	distinct_labels(c);
	for (int r = 0; r < c->nrows; r++) {
		struct row *row = &c->rows[r];
		struct side_runs sides[MAX_SIDES];

		shared += row->sides >= 2;
		for (int s = 0; s < c->nsides; s++)
			sides[s] = runs_of(row, s);
		if (o->nover) {
			memcpy(row->over, o->over, (size_t)o->nover * sizeof(row->over[0]));
			row->nover = o->nover;
		} else {
			row->nover = verdict_default_over(sides, c->nsides, row->over,
							  COMPARE_OVER_MAX);
		}
	}
	if (!shared) {
		log_error("no cell was measured on two kernel variants or hosts: compare needs the same load, workload, threads, affinity, interval, priority and size in at least two of them");
		status = EXIT_USAGE;
		goto out;
	}
	if (make_pairs(c)) {
		log_error("out of memory");
		goto out;
	}
	if (plotter_init(&c->plot)) {
		log_error("the gnuplot scripts (plots/) are not installed beside latlab; set LATLAB_PLOTS");
		goto out;
	}
	c->plot.pdf = o->pdf;
	c->plot.jobs = o->jobs;
	snprintf(c->out, sizeof(c->out), "%s", o->out ? o->out : "compare");
	snprintf(path, sizeof(path), "%s/fig", c->out);
	rc = mkdir_p(path);
	for (int r = 0, fig = 0; rc == 0 && r < c->nrows; r++)
		if (c->rows[r].sides >= 2)
			rc = figure(c, &c->rows[r], fig++, err, sizeof(err));
	if (rc == 0 && (rc = plot_flush(&c->plot, err, sizeof(err))) == -EIO)
		rc = 0;	/* a figure that failed was said; the page leaves it out */
	if (rc == 0 && o->baseline) {
		rc = afile_write(c->out, "junit.xml", fill_junit, c);
		if (rc)
			snprintf(err, sizeof(err), "%s/junit.xml: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		rc = afile_write(c->out, "compare.csv", fill_csv, c);
		if (rc)
			snprintf(err, sizeof(err), "%s/compare.csv: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		struct page pg = { c, o->pdf };

		rc = afile_write(c->out, "index.html", fill_page, &pg);
		if (rc)
			snprintf(err, sizeof(err), "%s/index.html: %s", c->out,
				 strerror(-rc));
	} else if (rc != -EIO && !err[0]) {
		snprintf(err, sizeof(err), "%s: %s", path, strerror(-rc));
	}
	if (rc) {
		log_error("%s", err);
		goto out;
	}
	print_verdicts(c);
	printf("%s/index.html: %d rows compared across %d kernel variants and hosts (%d trees)\n",
	       c->out, shared, c->nsides, c->ntrees);
	if (c->regressions) {
		print_regressions(c);
		log_error("%d row%s worse than the baseline %s beyond %.0f %% (%s/junit.xml)",
			  c->regressions, c->regressions == 1 ? " is" : "s are", o->baseline,
			  100 * o->tolerance, c->out);
	}
	status = damaged || c->plot.failed ? EXIT_RUNTIME
		 : c->regressions ? EXIT_THRESHOLD : EXIT_PASS;
out:
	free_cmp(c);
	return status;
}
