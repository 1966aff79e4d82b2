#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cellread.h"
#include "compare_model.h"
#include "html.h"
#include "plot.h"
#include "units.h"
#include "why.h"

int cmp_figure(struct cmp *c, int r, int n, char *err, size_t errlen)
{
	char vars[16384] = "", title[1200], words[1024], base[PATH_MAX + 64],
		list[PATH_MAX + 64], hist[MAX_SIDES][PATH_MAX + 600];
	struct plot_curve curve[MAX_SIDES];
	const struct tcell *any = cmp_any(c, r);
	int k = 0, rc;

	for (int i = 0; i < c->m.nsides; i++) {
		const struct rows_group *g = rows_group(&c->m, r, i);

		if (!g)
			continue;
		cell_file_path(hist[k], sizeof(hist[k]), g->run[g->sum.typical]->dir, CELLF_HIST);
		curve[k] = (struct plot_curve){ hist[k], c->label[i], NULL, c->m.side[i].color, 1 };
		k++;
	}
	snprintf(list, sizeof(list), "%s/fig/compare-%d.list.gp", c->out, n);
	rc = plot_write_list(list, curve, k);
	if (rc) {
		snprintf(err, errlen, "%s: %s", list, strerror(-rc));
		return rc;
	}
	plot_var(vars, sizeof(vars), "list", list);
	/* the row's axes in words, not a cell id: ids differ by kernel variant */
	tcell_row_words(any, c->m.axis, words, sizeof(words));
	snprintf(title, sizeof(title), "%s — %s, each side's run at the median max", words,
		 rows_metric_words(c->m.row[r].metric));
	plot_var(vars, sizeof(vars), "title", title);
	plot_var(vars, sizeof(vars), "metric", metric_name(c->m.row[r].metric));
	snprintf(base, sizeof(base), "%s/fig/compare-%d", c->out, n);
	rc = plot_temp(&c->plot, list);
	return rc ? rc : plot_render(&c->plot, "compare.gp", base, 1, vars, err, errlen);
}

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

	for (const struct rows_group *g = c->m.group; g < c->m.group + c->m.ngroups; g++)
		for (int k = 0; k < g->n; k++) {
			const struct tcell *t = g->run[k];
			int i = g->side;

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
	for (int i = 0; i < c->m.nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int j = 0; j < NKINDS; j++) {
		int any = 0;

		for (int i = 0; i < c->m.nsides; i++)
			any |= count[i][j] > 0;
		if (!any)
			continue;
		fprintf(fp, "<tr><td class=\"l\">%s</td>", kinds[j]);
		for (int i = 0; i < c->m.nsides; i++)
			fprintf(fp, "<td>%d (%.0f %%)</td>", count[i][j],
				all[i] > 0 ? 100.0 * ns[i][j] / all[i] : 0.0);
		fputs("</tr>\n", fp);
	}
	fputs("<tr><td class=\"l\">captures</td>", fp);
	for (int i = 0; i < c->m.nsides; i++)
		fprintf(fp, "<td>%d</td>", total[i]);
	fputs("</tr>\n</table>\n", fp);
}

/* Under a verdict, the culprits of each side's worst captures in its runs (where they traced). */
static void html_why(FILE *fp, const struct cmp *c, const struct pair *p)
{
	struct side_runs a = cmp_runs(c, p->row, p->a), b = cmp_runs(c, p->row, p->b);

	why_pair_html(fp, &a, c->label[p->a], &b, c->label[p->b]);
}

/* Every pair of sides the row has, a verdict each. */
static void html_verdicts(FILE *fp, const struct cmp *c, int row)
{
	int first = 1;

	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		char text[1200];

		if (p->row != row)
			continue;
		verdict_line(&p->v, c->label[p->a], c->label[p->b], c->m.row[row].sides, text,
			     sizeof(text));
		if (!first)
			fputs("<br>", fp);
		fprintf(fp, "<span class=\"%s\">", verdict_keyword(p->v.kind));
		html_text(fp, text);
		fputs("</span>", fp);
		char ci[128];

		if (p->v.kind == V_UNJUDGED) {	/* no figure of it to show */
			first = 0;
			continue;
		}
		if (p->v.p9999.ok) {	/* the same for p99.99, as compare.csv has it */
			verdict_interval_str(&p->v.p9999, 0, p->v.margin, ci, sizeof(ci));
			fprintf(fp, " <small>(p99.99 ratio %s: %s)</small>", ci,
				verdict_keyword(p->v.kind_p9999));
		}
		if (p->v.tail_pct > 0 && p->v.tail.ok) {	/* the tail: more than one sample a run */
			verdict_interval_str(&p->v.tail, 0, p->v.margin, ci, sizeof(ci));
			fprintf(fp, " <small>(tail p%.4g ratio %s: %s)</small>", p->v.tail_pct, ci,
				verdict_keyword(p->v.kind_tail));
		}
		if (p->v.apart == 1)
			fputs(" <small class=\"warn\">(the sides ran apart in time)</small>", fp);
		for (int m = 0; m < METRIC_COUNT; m++) {	/* the others, smaller */
			if (!(p->has & METRIC_BIT(m)) || m == c->m.row[row].metric)
				continue;
			verdict_text(&p->by[m], c->label[p->a], c->label[p->b], text, sizeof(text));
			fprintf(fp, "<br><small>%s: <span class=\"%s\">", rows_metric_words(m),
				verdict_keyword(p->by[m].kind));
			html_text(fp, text);
			fputs("</span></small>", fp);
		}
		html_why(fp, c, p);
		first = 0;
	}
}

static void html_rows(FILE *fp, const struct cmp *c)
{
	fputs("<h2>Rows measured on more than one side</h2>\n"
	      "<p>A row is a cell's axes without its repeat; each side holds its runs "
	      "(n). Each row is judged on its workload's own metric (response for I/O, "
	      "wake-up for timer, noise max for noise; <code>--metric</code> picks another), "
	      "in µs, threads merged: the median of the runs' maxima "
	      "with their range, and the medians of their p99.99 and p99. The verdict "
	      "compares the medians of the maxima with a 97.5 % interval, as the tail's, "
	      "so that the two together call a difference that is not there at most 5 % of the time "
	      "(a percentile is shown where every run has the samples it needs: p99.99 10,000, "
	      "p99 100; — where not) "
	      "(docs/report.md: how sure a verdict is); the other metrics' verdicts "
	      "follow it, smaller, and all are in compare.csv.</p>\n"
	      "<table>\n<tr><th class=\"l\">row (its axes)</th>"
	      "<th class=\"l\">metric</th>", fp);
	for (int i = 0; i < c->m.nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs(" n</th><th>max (median [range])</th><th>p99.99</th><th>p99</th>", fp);
	}
	fputs("<th class=\"l\">verdict</th></tr>\n", fp);
	for (int r = 0; r < c->m.nrows; r++) {
		char title[1024];

		if (c->m.row[r].sides < 2)
			continue;
		rows_row_title(&c->m, r, title, sizeof(title));
		fputs("<tr><td class=\"l\">", fp);
		html_text(fp, title);
		fprintf(fp, "</td><td class=\"l\">%s</td>", rows_metric_words(c->m.row[r].metric));
		for (int i = 0; i < c->m.nsides; i++) {
			const struct rows_group *g = rows_group(&c->m, r, i);

			if (!g) {
				fputs("<td></td><td></td><td></td><td></td>", fp);
				continue;
			}
			char p4[32], p2[32];

			fprintf(fp, "<td>%d</td><td>%.1f [%.1f, %.1f]</td><td>%s</td><td>%s</td>",
				g->sum.n, US(g->sum.max_med), US(g->sum.max_lo), US(g->sum.max_hi),
				rows_pct_text(&g->sum, 0, p4, sizeof(p4)),
				rows_pct_text(&g->sum, 1, p2, sizeof(p2)));
		}
		fputs("<td class=\"l\">", fp);
		html_verdicts(fp, c, r);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

static void html_exceed(FILE *fp, const struct cmp *c)
{
	fputs("<h2>Samples above a threshold, per hour of measuring</h2>\n"
	      "<p>Counted from the histograms of the row's metric (every sample, all runs and threads of "
	      "a side), per hour of the cells' measuring, with a 95 % Poisson interval, "
	      "widened by the runs' own dispersion when they vary more than independent counts "
	      "would (quasi-Poisson). "
	      "Unlike a maximum, a rate is meaningful from one long run. Thresholds: "
	      "<code>--over</code>, or the row's pooled p99 and p99.99 rounded up.</p>\n"
	      "<table>\n<tr><th class=\"l\">row</th><th>above</th>", fp);
	for (int i = 0; i < c->m.nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int r = 0; r < c->m.nrows; r++) {
		const struct row_over *row = &c->over[r];
		char title[1024];

		if (c->m.row[r].sides < 2)
			continue;
		rows_row_title(&c->m, r, title, sizeof(title));
		for (int k = 0; k < row->nover; k++) {
			fputs("<tr><td class=\"l\">", fp);
			if (k == 0)
				html_text(fp, title);
			fprintf(fp, "</td><td>%.0f µs</td>", US(row->over[k]));
			for (int i = 0; i < c->m.nsides; i++) {
				struct side_runs sr = cmp_runs(c, r, i);
				struct exceed e;

				if (!sr.n) {
					fputs("<td></td>", fp);
					continue;
				}
				verdict_exceed(&sr, row->over[k], &e);
				char rate[24], lo[24], hi[24], took[48];

				units_format_count(e.rate, rate, sizeof(rate));
				units_format_count(e.lo, lo, sizeof(lo));
				units_format_count(e.hi, hi, sizeof(hi));
				units_format_elapsed((int64_t)(e.hours * 3.6e12), took, sizeof(took));
				fprintf(fp, "<td>%s/h [%s, %s] (%llu in %s", rate, lo, hi,
					(unsigned long long)e.count, took);
				if (e.dispersion > 1)
					fprintf(fp, "; runs %.1fx as dispersed as independent counts: widened",
						e.dispersion);
				fputs(")</td>", fp);
			}
			fputs("</tr>\n", fp);
		}
	}
	fputs("</table>\n", fp);
}

static void html_baseline(FILE *fp, const struct cmp *c)
{
	if (!c->o->baseline)
		return;
	fprintf(fp, "<h2>Against the baseline</h2>\n<p>Each side's rows against the "
		"baseline's (<code>--baseline</code>), tolerance %.0f %%: a row regresses "
		"when the 97.5 %% interval of its ratio to the baseline (max or p99.99) lies "
		"wholly above 1 + tolerance.</p>\n<table>\n<tr><th class=\"l\">row</th>"
		"<th class=\"l\">side</th><th>max ratio [97.5 %%]</th><th>p99.99 ratio [97.5 %%]</th>"
		"<th class=\"l\">judgement</th></tr>\n", 100 * c->o->tolerance);
	for (const struct pair *p = c->judged; p < c->judged + c->njudged; p++) {
		const struct pair_verdict *v = &p->v;
		char title[1024];

		rows_row_title(&c->m, p->row, title, sizeof(title));
		fprintf(fp, "<tr class=\"%s\"><td class=\"l\">", p->which >= 0 ? "fail" : "ok");
		html_text(fp, title);
		fputs("</td><td class=\"l\">", fp);
		html_text(fp, c->label[p->a]);
		int wm, wp;
		const struct ratio_ci *m = cmp_gate(v, 0, &wm), *q = cmp_gate(v, 1, &wp);

		char mci[128], qci[128];

		verdict_interval_str(m, 0, c->o->tolerance, mci, sizeof(mci));
		verdict_interval_str(q, 0, c->o->tolerance, qci, sizeof(qci));
		fprintf(fp, "</td><td>%s%s</td><td>%s%s</td><td class=\"l\">%s%s</td></tr>\n",
			mci, m->ok ? "" : " (too few)", qci, q->ok ? "" : " (too few)",
			p->which == GATE_MAX ? "regression (max)" : p->which == GATE_P9999 ? "regression (p99.99)" :
			p->which == GATE_TAIL ? "regression (tail)" :
			m->ok ? "within tolerance" : "too few runs to judge",
			wm ? " <small>(within campaigns: one a side, the tolerance for what changed between them)</small>" : "");
	}
	fputs("</table>\n", fp);
}

/* Each side compared: its label, the kernel it ran and its model, its tree, the way to its report. */
static void html_sides(FILE *fp, const struct cmp *c)
{
	for (int i = 0; i < c->m.nsides; i++) {
		const char *dir = c->t[c->m.side[i].tree].dir;
		char report[PATH_MAX + 32], link[PATH_MAX];

		const struct tcell *first = c->m.side[i].first;

		fputs("<li><b>", fp);
		html_text(fp, c->label[i]);
		fputs("</b>: ", fp);
		/* the kernel each side ran, and its model: a label is only a name */
		html_printf(fp, "%s%s%s on %s, in ", first->release, first->preempt[0] ? ", " : "",
			    first->preempt, first->host);
		html_text(fp, dir);
		/*
		 * the way back to its tree's report: linked even before it is
		 * rendered (make demo-kernels compares, then reports, so that
		 * the report can link here), and said so
		 */
		snprintf(report, sizeof(report), "%s/report/index.html", dir);
		if (html_rel_path(c->out, dir, link, sizeof(link)) == 0) {
			struct stat st;

			fputs(" (<a href=\"", fp);
			html_text(fp, link);
			fputs("/report/index.html\">its report</a>", fp);
			if (stat(report, &st) != 0) {
				fputs(", not rendered yet: <code>latlab report ", fp);
				html_text(fp, dir);
				fputs("</code>", fp);
			}
			fputs(")", fp);
		}
		fputs(cmp_is_baseline(c, i) ? " (baseline)</li>\n" : "</li>\n", fp);
	}
}

/* A figure for each row of two sides or more, where it was drawn. */
static void html_figures(FILE *fp, const struct cmp *c)
{
	int fig = 0;

	for (int r = 0; r < c->m.nrows; r++) {
		if (c->m.row[r].sides < 2)
			continue;
		char base[PATH_MAX + 64];

		snprintf(base, sizeof(base), "%s/fig/compare-%d", c->out, fig);
		if (!plot_drawn(base)) {
			fig++;
			continue;
		}
		fprintf(fp, "<figure><img src=\"fig/compare-%d.png\" alt=\"comparison %d\">"
			"<figcaption>", fig, fig);
		char words[1024];

		tcell_row_words(c->m.row[r].any, c->m.axis, words, sizeof(words));
		html_text(fp, words);
		fprintf(fp, ": the %s histogram of each side's run at the median maximum, a colour per side "
			"<a href=\"fig/compare-%d.svg\">SVG</a></figcaption></figure>\n",
			rows_metric_words(c->m.row[r].metric), fig);
		fig++;
	}
}

void cmp_fill_page(FILE *fp, void *arg)
{
	struct page *pg = arg;
	struct cmp *c = pg->c;

	html_head(fp, "latlab compare");
	fputs("<h1>latlab compare</h1>\n", fp);
	int kinds = 0;

	for (int i = 0; i < c->ntrees; i++)
		kinds |= tree_emulated(&c->t[i]);
	if (kinds)
		html_emulated_banner(fp, kinds);
	for (int i = 0; i < c->ntrees; i++) {
		html_damaged(fp, &c->t[i]);
		html_unmeasured(fp, &c->t[i]);
	}
	if (c->m.axis == TAXIS_KERNEL)
		fputs("<p>Kernel variants and hosts compared:</p><ul>\n", fp);
	else
		fprintf(fp, "<p>Compared along <b>%s</b> (<code>--axis %s</code>): a row is the cells "
			"whose other axes and kernel variant are the same, a side one value of %s "
			"in one tree:</p><ul>\n", taxis_name(c->m.axis), taxis_name(c->m.axis),
			taxis_name(c->m.axis));
	html_sides(fp, c);
	fputs("</ul>\n<p>Every number here, machine-readable: <a href=\"compare.csv\">compare.csv</a>"
	      "</p>\n", fp);
	html_rows(fp, c);
	html_exceed(fp, c);
	beyond_html(&c->beyond, fp);
	html_baseline(fp, c);
	culprit_kinds(fp, c);
	fputs("<h2>Figures</h2>\n", fp);
	html_figures(fp, c);
	(void)pg->pdf;
	html_foot(fp);
}
