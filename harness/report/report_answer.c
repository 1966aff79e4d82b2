/*
 * The report's first screen (docs/report.md, "The first screen"): the
 * answer before the evidence. A tree of two kernel variants or hosts or
 * more opens with compare's verdicts, a line per row in words; a tree of
 * one with each row's worst case. Under them, the summary figure: per row,
 * each variant's median maximum with its interval and p99 beside, in the
 * variant's own colour, the verdict over the bars.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "csvfile.h"
#include "html.h"
#include "plot.h"
#include "report_parts.h"
#include "stats.h"
#include "why.h"

/* The interval of a row's median maximum (stats_median_ci). */
#define MEDIAN_CONF 0.95

/*
 * Rows on the first screen, lines and bars: past it, those with the
 * largest worst cases (a thousand bars are no figure), the page says so
 * and the tables below have every row.
 */
#define ANSWER_ROWS 24

/*
 * A side as the report names it: along the kernel its variant, with host
 * and release where two share the name; along another axis its value.
 */
static void side_label(const struct report *r, int s, char *buf, size_t len)
{
	const struct tcell *c = r->am.side[s].first;
	int shared = 0;

	if (r->am.axis != TAXIS_KERNEL) {
		tcell_axis_value(c, r->am.axis, buf, len);
		return;
	}
	for (int j = 0; j < r->am.nsides; j++)
		shared |= j != s && strcmp(r->am.side[j].first->kernel, c->kernel) == 0;
	if (shared)
		snprintf(buf, len, "%s@%s:%s", c->kernel, c->host, c->release);
	else
		snprintf(buf, len, "%s", c->kernel);
}

/* The row's largest median maximum over its sides (ns). */
static double row_worst(const struct report *r, int row)
{
	double worst = 0;

	for (int s = 0; s < r->am.nsides; s++) {
		const struct rows_group *g = rows_group(&r->am, row, s);

		if (g && g->sum.max_med > worst)
			worst = g->sum.max_med;
	}
	return worst;
}

static int by_worst(const void *a, const void *b, void *arg)
{
	double x = row_worst(arg, *(const int *)a), y = row_worst(arg, *(const int *)b);

	return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

/* Which rows the first screen shows, each its place there (slot), in the matrix's order. */
static int pick_rows(struct report *r)
{
	int *order = calloc((size_t)r->am.nrows + 1, sizeof(*order));

	r->slot = calloc((size_t)r->am.nrows + 1, sizeof(*r->slot));
	if (!order || !r->slot) {
		free(order);
		return -ENOMEM;
	}
	for (int i = 0; i < r->am.nrows; i++) {
		order[i] = i;
		r->slot[i] = -1;
	}
	if (r->am.nrows > ANSWER_ROWS)
		qsort_r(order, (size_t)r->am.nrows, sizeof(*order), by_worst, r);
	for (int k = 0; k < r->am.nrows && k < ANSWER_ROWS; k++)
		r->slot[order[k]] = 0;
	for (int i = 0; i < r->am.nrows; i++)
		if (r->slot[i] == 0)
			r->slot[i] = r->nslots++;
	free(order);
	return 0;
}

/* Group g's median maximum with its interval, in µs; its coverage. */
static double median_max(const struct report *r, const struct rows_group *g, double *med,
			 double *lo, double *hi)
{
	double *v = malloc((size_t)g->n * sizeof(*v)), cover;
	int m = r->am.row[g->row].metric;

	if (!v) {
		*med = *lo = *hi = NAN;
		return NAN;
	}
	for (int i = 0; i < g->n; i++)
		v[i] = US(g->run[i]->metric[m]->max);
	*med = stats_median(v, g->n);
	cover = stats_median_ci(v, g->n, MEDIAN_CONF, lo, hi);
	free(v);
	return cover;
}

void report_metric_label(const struct report *r, char *buf, size_t len)
{
	int m = -1, mixed = 0;

	/* what the rows are judged on: their own metric, or the first that can be */
	for (int i = 0; i < r->am.nrows; i++) {
		int k = r->am.row[i].metric;

		mixed |= m >= 0 && k != m;
		m = k;
	}
	/* on the instruction clock a µs is 1,000 instructions' time, not the host's */
	int kinds = tree_emulated(&r->t);
	const char *unit = kinds == EMU_ICOUNT ? "µs of instruction time" :
			   kinds & EMU_TCG ? "µs, emulated: the emulator's pace" : "µs";

	if (mixed || m < 0)
		snprintf(buf, len, "latency (%s): each workload's own metric", unit);
	else
		snprintf(buf, len, "%s %s(%s)", rows_metric_words(m),
			 m >= METRIC_NOISE_MAX ? "" : "latency ", unit);
}

int report_answer_build(struct report *r)
{
	int max = 0;

	if (pick_rows(r))
		return -ENOMEM;
	r->median = calloc((size_t)r->am.ngroups + 1, sizeof(*r->median));
	if (!r->median)
		return -ENOMEM;
	for (int g = 0; g < r->am.ngroups; g++) {
		struct report_median *m = &r->median[g];

		m->cover = median_max(r, &r->am.group[g], &m->med, &m->lo, &m->hi);
		if (isnan(m->cover))
			return -ENOMEM;
	}

	r->label = calloc((size_t)r->am.nsides + 1, sizeof(*r->label));
	if (!r->label)
		return -ENOMEM;
	for (int s = 0; s < r->am.nsides; s++)
		side_label(r, s, r->label[s], sizeof(r->label[s]));
	/* every pair of sides a row can have: a side of runs left out only is said too */
	max = r->am.nrows * (r->am.nsides * (r->am.nsides - 1) / 2);
	r->verdict = calloc((size_t)max + 1, sizeof(*r->verdict));
	if (!r->verdict)
		return -ENOMEM;
	for (int i = 0; i < r->am.nrows; i++)
		for (int a = 0; a < r->am.nsides; a++)
			for (int b = a + 1; b < r->am.nsides; b++) {
				struct side_runs sa = rows_runs(&r->am, i, a), sb = rows_runs(&r->am, i, b);
				struct report_verdict *v = &r->verdict[r->nverdicts];

				if ((!sa.n && !sa.nleft) || (!sb.n && !sb.nleft))
					continue;
				*v = (struct report_verdict){ .row = i, .a = a, .b = b };
				if (verdict_pair(&sa, &sb, r->margin, &v->v))
					return -ENOMEM;
				r->nverdicts++;
			}
	return 0;
}

/* "rt 1.83x lower", "no clear difference", "too few": a verdict over its bars. */
static void verdict_short(const struct report *r, const struct report_verdict *v,
			  char *buf, size_t len)
{
	const struct ratio_ci *q = &v->v.max;
	char x[32];

	switch (v->v.kind) {
	case V_LOWER:
	case V_HIGHER:
		verdict_ratio_str(v->v.kind == V_LOWER ? 1 / q->ratio : q->ratio, v->v.margin, x,
				  sizeof(x));
		snprintf(buf, len, "%s %sx lower", r->label[v->v.kind == V_LOWER ? v->a : v->b], x);
		break;
	case V_NO_DIFFERENCE:
		snprintf(buf, len, "no clear difference");
		break;
	case V_EQUIVALENT:
		snprintf(buf, len, "within %.3g %%", 100 * v->v.margin);
		break;
	case V_UNEQUAL:
		snprintf(buf, len, "runs of different lengths");
		break;
	case V_UNJUDGED:
		snprintf(buf, len, "no verdict: not comparable");
		break;
	default:
		snprintf(buf, len, "too few to call");
	}
}

/* Does the figure show a verdict: a row of two sides on it? */
static int verdict_labels(const struct report *r)
{
	for (int k = 0; k < r->nverdicts; k++)
		if (r->am.row[r->verdict[k].row].sides == 2 && r->slot[r->verdict[k].row] >= 0)
			return 1;
	return 0;
}

/*
 * fig/summary.csv (a bar per row and side: x, colour, median max, its
 * interval, p99 median, in µs) and fig/summary.list.gp (the sides' names
 * and colours for the legend, a tick per row, the verdicts, the y range).
 */
/* Each group's bar, a row of summary.csv; the bars' lowest and highest ends into *ylo, *yhi. */
static void summary_rows(const struct report *r, struct csvw *w, double width, double *ylo,
			 double *yhi)
{
	for (int g = 0; g < r->am.ngroups; g++) {
		const struct rows_group *gr = &r->am.group[g];
		double med = r->median[g].med, lo = r->median[g].lo, hi = r->median[g].hi;
		double x = r->slot[gr->row] + (gr->side - (r->am.nsides - 1) / 2.0) * width;
		double p99 = gr->sum.p99_ok ? US(gr->sum.p99_med) : NAN;

		if (r->slot[gr->row] < 0)
			continue;
		csvw_num(w, x, 4);
		csvw_int(w, gr->row);
		csvw_int(w, gr->side);
		csvw_int(w, r->am.side[gr->side].color);
		csvw_int(w, gr->n);
		csvw_num(w, med, 3);
		csvw_num(w, lo, 3);
		csvw_num(w, hi, 3);
		csvw_num(w, r->median[g].cover, 4);
		if (isnan(p99))
			csvw_str(w, "NaN");	/* too few samples for it: gnuplot draws no dot */
		else
			csvw_num(w, p99, 3);
		csvw_str(w, metric_name(r->am.row[gr->row].metric));
		csvw_end(w);
		if (lo > 0 && lo < *ylo)
			*ylo = lo;
		if (p99 > 0 && p99 < *ylo)
			*ylo = p99;
		if (hi > *yhi)
			*yhi = hi;
	}
}

/*
 * The figure's gnuplot list: the sides' names and colours, the bars'
 * width, the ticks' range (ylo to yhi, room for the verdicts), a tick a
 * row, a verdict over each pair of bars.
 */
static void summary_list(const struct report *r, FILE *l, double width, double ylo, double yhi)
{
	unsigned common = rows_common_axes(&r->am);

	fprintf(l, "nsides = %d\narray side_names[%d]\narray side_colors[%d]\n",
		r->am.nsides, r->am.nsides, r->am.nsides);
	for (int s = 0; s < r->am.nsides; s++) {
		fprintf(l, "side_names[%d] = ", s + 1);
		plot_quoted(l, r->label[s]);
		fprintf(l, "\nside_colors[%d] = %d\n", s + 1, r->am.side[s].color);
	}
	fprintf(l, "bar_width = %.4f\nnrows = %d\n", width, r->nslots);
	/* room above the bars for the verdicts (over a pair of bars), below for the p99 marks */
	int labels = verdict_labels(r);
	fprintf(l, "tick_lo = %.6g\ntick_hi = %.6g\n", ylo / 1.5, yhi * (labels ? 4 : 1.5));
	fputs("set xtics (", l);
	for (int i = 0, k = 0; i < r->am.nrows; i++) {
		char words[1024];

		if (r->slot[i] < 0)
			continue;
		tcell_row_words_omit(r->am.row[i].any, common, 0, words, sizeof(words));
		fputs(k++ ? ", " : "", l);
		plot_quoted(l, words);
		fprintf(l, " %d", r->slot[i]);
	}
	fputs(")\n", l);
	for (int k = 0; k < r->nverdicts; k++) {
		const struct report_verdict *v = &r->verdict[k];
		double top = 0;
		char text[256];

		if (r->am.row[v->row].sides != 2 || r->slot[v->row] < 0)
			continue;	/* over a pair of bars only: more would be a puzzle */
		for (int s = 0; s < r->am.nsides; s++) {
			const struct rows_group *g = rows_group(&r->am, v->row, s);

			if (g && r->median[g - r->am.group].hi > top)
				top = r->median[g - r->am.group].hi;
		}
		verdict_short(r, v, text, sizeof(text));
		fputs("set label ", l);
		plot_quoted(l, text);
		fprintf(l, " at %d, %.6g center front\n", r->slot[v->row], top * 1.6);
	}
}

static int summary_files(const struct report *r, const char *csv, const char *list)
{
	FILE *l = fopen(list, "we");
	double ylo = INFINITY, yhi = 0, width = 0.8 / (r->am.nsides > 0 ? r->am.nsides : 1);
	struct afile af;
	int rc = l ? afile_open(&af, csv) : -errno;

	if (rc) {
		if (l)
			fclose(l);
		return rc;
	}
	af.derived = 1;	/* redrawn from the tree at any time: no fsync */
	struct csvw w = { .fp = af.fp };

	csvw_header(&w, "x,row,side,color,n,max_med_us,max_lo_us,max_hi_us,coverage,p99_med_us,metric");
	summary_rows(r, &w, width, &ylo, &yhi);
	rc = afile_commit(&af);
	if (rc) {
		fclose(l);
		return rc;
	}
	if (!(ylo < INFINITY) || yhi <= 0)
		ylo = 1, yhi = 10;
	summary_list(r, l, width, ylo, yhi);
	if (ferror(l))
		rc = -EIO;
	if (fclose(l) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* What the title has no room for: every side's kernel release and host, and the runs. */
/* Has every row one run? (then it is said once, above the lines) */
static int one_run_each(const struct report *r)
{
	for (int g = 0; g < r->am.ngroups; g++)
		if (r->slot[r->am.group[g].row] >= 0 && r->am.group[g].n != 1)
			return 0;
	return 1;
}

static void caption_sides(const struct report *r, char *caption, size_t caplen)
{
	int lo = 0, hi = 0;

	for (int s = 0; s < r->am.nsides; s++) {
		const struct tcell *c = r->am.side[s].first;
		size_t u = strlen(caption);

		/* "running" is the built-in variant: the kernel that ran, said as such */
		int running = r->am.nsides == 1 && strcmp(c->kernel, "running") == 0;

		snprintf(caption + u, caplen - u, "%s%s%s%s%s%s on %s", s ? "; " : " ",
			 running ? "The kernel that ran: " : r->label[s], running ? "" : ": ",
			 c->release, c->preempt[0] ? ", preempt " : "", c->preempt, c->host);
	}
	for (int g = 0; g < r->am.ngroups; g++) {
		int n = r->am.group[g].n;

		lo = g == 0 || n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	size_t u = strlen(caption);

	if (lo == hi)
		snprintf(caption + u, caplen - u, "; %d run%s each.", lo, lo == 1 ? "" : "s");
	else
		snprintf(caption + u, caplen - u, "; %d to %d runs a bar.", lo, hi);
}

int report_summary_figure(struct report *r, char *caption, size_t caplen, char *err,
			  size_t errlen)
{
	char csv[PATH_MAX + 64], list[PATH_MAX + 64], vars[4 * PATH_MAX + 2048] = "",
		base[PATH_MAX + 64], title[2800], words[1024], label[96];
	const struct tcell *first = r->am.nrows ? r->am.row[0].any : NULL;
	unsigned all = (1u << TAXIS_COUNT) - 1, common = rows_common_axes(&r->am);
	int rc;

	if (!first)
		return 0;
	snprintf(csv, sizeof(csv), "%s/fig/summary.csv", r->out);
	snprintf(list, sizeof(list), "%s/fig/summary.list.gp", r->out);
	rc = summary_files(r, csv, list);
	if (rc) {
		snprintf(err, errlen, "%s: %s", csv, strerror(-rc));
		return rc;
	}
	/* what every row shares, once, in the title */
	tcell_row_words_omit(first, (all & ~common) | 1u << r->am.axis | 1u << TAXIS_HOST, 1,
			     words, sizeof(words));
	char kernels[600] = "";

	for (int s = 0; s < r->am.nsides && r->am.axis == TAXIS_KERNEL; s++) {	/* each side's release */
		size_t u = strlen(kernels);

		snprintf(kernels + u, sizeof(kernels) - u, "%s%s %s", s ? ", " : "", r->label[s],
			 r->am.side[s].first->release);
	}
	snprintf(title, sizeof(title), "%s — %s%s%s: worst case per row%s%s", r->t.campaign,
		 first->host, kernels[0] ? ", " : "", kernels, words[0] ? ", " : "", words);
	report_metric_label(r, label, sizeof(label));
	plot_var(vars, sizeof(vars), "in", csv);
	plot_var(vars, sizeof(vars), "list", list);
	plot_var(vars, sizeof(vars), "title", title);
	plot_var(vars, sizeof(vars), "ylabel", label);
	snprintf(base, sizeof(base), "%s/fig/summary", r->out);
	rc = plot_render(&r->plot, "summary.gp", base, 1, vars, err, errlen);
	if (rc == 0)
		rc = plot_temp(&r->plot, list);
	char side[96] = "";

	if (r->am.nsides > 1)
		snprintf(side, sizeof(side), " and %s, a colour each",
			 r->am.axis == TAXIS_KERNEL ? "kernel variant" : taxis_name(r->am.axis));
	if (one_run_each(r))
		snprintf(caption, caplen, "Worst case per row%s: its run's maximum (bar) and p99 (dot).",
			 side);
	else
		snprintf(caption, caplen, "Worst case per row%s: the median of the runs' maxima (bar) "
			 "with the %.0f %% interval of that median (with fewer than 6 runs the range: "
			 "93.8 %% at 5), the median of the runs' p99 (dot)%s.", side, 100 * MEDIAN_CONF,
			 verdict_labels(r) ? ", the verdict over each pair of bars" : "");
	if (r->nslots < r->am.nrows) {
		size_t u = strlen(caption);

		snprintf(caption + u, caplen - u, " The %d rows with the largest worst cases, of %d.",
			 r->nslots, r->am.nrows);
	}
	caption_sides(r, caption, caplen);
	return rc ? rc : 1;
}

/* "hackbench · timer · 1 thread, one CPU each · 1 ms · FIFO 80" for row i, the compared axis left out */
static void row_words(const struct report *r, int i, char *buf, size_t len)
{
	tcell_row_words(r->am.row[i].any, r->am.axis, buf, len);
}

/* Is there DIR/compare/index.html beside this report? */
static int has_compare(const struct report *r)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/compare/index.html", r->t.dir);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Past ANSWER_ROWS: which rows the first screen shows. */
static void more_rows(FILE *fp, const struct report *r)
{
	if (r->nslots < r->am.nrows)
		fprintf(fp, "<p>The %d rows with the largest worst cases, of %d; every row is in "
			"the tables below.</p>\n", r->nslots, r->am.nrows);
}

/* The row's side whose median maximum is lowest (-1: none has runs). */
static int row_lowest(const struct report *r, int row)
{
	int best = -1;
	double low = 0;

	for (int s = 0; s < r->am.nsides; s++) {
		const struct rows_group *g = rows_group(&r->am, row, s);
		double med = g ? r->median[g - r->am.group].med : 0;

		if (g && (best < 0 || med < low)) {
			best = s;
			low = med;
		}
	}
	return best;
}

/*
 * A row of three sides or more, in one line: the side lowest in the
 * worst case, the sides it is shown lower than (each ratio and interval),
 * and those it is not (no clear difference, within the margin, too few):
 * "softirq: lowest rt-full, 5.1 µs; lower than lazy 75x [70x, 80x], ...;
 * not shown lower than rt-lazy, stable-rt".
 */
static void html_row_answer(FILE *fp, const struct report *r, int row)
{
	int best = row_lowest(r, row), called = 0, other = 0;
	const struct rows_group *g = best >= 0 ? rows_group(&r->am, row, best) : NULL;

	if (!g)
		return;
	fputs("lowest worst case: <b>", fp);
	html_text(fp, r->label[best]);
	fprintf(fp, "</b>, %.1f µs", r->median[g - r->am.group].med);
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < r->nverdicts; k++) {
			const struct report_verdict *v = &r->verdict[k];
			int mine = v->a == best ? V_LOWER : v->b == best ? V_HIGHER : -1;
			int against = v->a == best ? v->b : v->a;

			if (v->row != row || mine < 0)
				continue;
			/* a call past the margin, if one was named; else the rest */
			int lower = (int)v->v.kind == mine &&
				    (v->v.margin <= 0 || verdict_past_margin(&v->v.max, v->v.margin));
			const struct ratio_ci *q = &v->v.max;

			if (pass == 0 && lower) {
				fputs(called++ ? ", " : "; lower than ", fp);
				html_text(fp, r->label[against]);
				char ci[128];

				verdict_interval_str(q, mine == V_LOWER, v->v.margin, ci, sizeof(ci));
				fprintf(fp, " %s", ci);
			} else if (pass == 1 && !lower) {
				fputs(other++ ? ", " : "; not shown lower than ", fp);
				html_text(fp, r->label[against]);
			}
		}
}

/*
 * A line per row: its verdict, or for a row of three sides or more its
 * answer (the lowest side against the others) and every pair's verdict
 * under it, folded, each line naming its pair.
 */
/* Beside a verdict, the culprits of each side's worst captures in its runs (where they traced). */
static void html_why(FILE *fp, const struct report *r, const struct report_verdict *v)
{
	struct side_runs a = rows_runs(&r->am, v->row, v->a), b = rows_runs(&r->am, v->row, v->b);

	why_pair_html(fp, &a, r->label[v->a], &b, r->label[v->b]);
}

static void html_verdict_lines(FILE *fp, const struct report *r)
{
	fputs("<ul class=\"answer\">\n", fp);
	for (int i = 0; i < r->am.nrows; i++) {
		int pairs = 0, k0 = -1;
		char words[1024], text[1200];

		for (int k = 0; k < r->nverdicts; k++)
			if (r->verdict[k].row == i && pairs++ == 0)
				k0 = k;
		if (!pairs || r->slot[i] < 0)
			continue;
		char metric[256];

		row_words(r, i, words, sizeof(words));
		rows_metric_said(&r->am, i, metric, sizeof(metric));
		fprintf(fp, "<li class=\"%s\"><b>", pairs == 1 ? verdict_keyword(r->verdict[k0].v.kind) : "pairs");
		html_text(fp, words);
		fputs("</b> (", fp);
		html_text(fp, metric);
		fputs("): ", fp);
		if (pairs > 1) {
			html_row_answer(fp, r, i);
			fprintf(fp, "\n<details><summary>each pair (%d)</summary>\n<ul>\n", pairs);
		}
		for (int k = k0; k < r->nverdicts; k++) {
			const struct report_verdict *v = &r->verdict[k];

			if (v->row != i)
				continue;
			verdict_line(&v->v, r->label[v->a], r->label[v->b], r->am.row[i].sides, text,
				     sizeof(text));
			if (pairs > 1)
				fprintf(fp, "<li class=\"%s\">", verdict_keyword(v->v.kind));
			html_text(fp, text);
			html_why(fp, r, v);
			fputs(pairs > 1 ? "</li>\n" : "", fp);
		}
		fputs(pairs > 1 ? "</ul></details></li>\n" : "</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	more_rows(fp, r);
}

static void html_worst_lines(FILE *fp, const struct report *r)
{
	int all_one = one_run_each(r);

	fputs("<ul class=\"answer\">\n", fp);
	for (int g = 0; g < r->am.ngroups; g++) {
		const struct rows_group *gr = &r->am.group[g];
		const struct report_median *m = &r->median[g];
		char words[1024], p99[32];

		if (r->slot[gr->row] < 0)
			continue;
		char metric[256];
		const struct tcell *why_run;
		struct side_runs sr = rows_runs(&r->am, gr->row, gr->side);
		unsigned why = verdict_side_why(&sr, &why_run);

		row_words(r, gr->row, words, sizeof(words));
		rows_metric_said(&r->am, gr->row, metric, sizeof(metric));
		fputs("<li><b>", fp);
		html_text(fp, words);
		fputs("</b> (", fp);
		html_text(fp, metric);
		fprintf(fp, "): worst case %.1f µs", m->med);
		if (gr->n == 1 && !all_one)
			fputs(" (one run: no interval)", fp);
		else if (gr->n > 1)
			fprintf(fp, " [%.1f, %.1f] (the median of %d runs' maxima, a %.1f %% interval)",
				m->lo, m->hi, gr->n, 100 * m->cover);
		fprintf(fp, ", p99 %s µs", rows_pct_text(&gr->sum, 1, p99, sizeof(p99)));
		if (why && why_run) {	/* a figure the run cannot vouch for: said beside it */
			char words2[600];

			vouch_words(why, &why_run->vf, r->am.row[gr->row].metric, words2,
				    sizeof(words2));
			fputs(" <span class=\"warn\">— not a figure to judge: ", fp);
			html_text(fp, words2);
			fputs("</span>", fp);
		}
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	more_rows(fp, r);
}

void report_answer_html(FILE *fp, const struct report *r, int pdf)
{
	if (!r->am.ngroups)
		return;
	if (r->am.nsides >= 2) {
		char along[96];

		if (r->am.axis == TAXIS_KERNEL)
			snprintf(along, sizeof(along), "kernel variants");
		else
			snprintf(along, sizeof(along), "values of %s (<code>--axis %s</code>)",
				 taxis_name(r->am.axis), taxis_name(r->am.axis));
		fputs("<h2 id=\"verdict\">Verdict</h2>\n", fp);
		fprintf(fp, "<p>Each row of the matrix, its %s against each other on the row's worst "
			"case: the ratio of the medians of the runs' maxima with a 97.5 %% interval, "
			"and of their tails, so that a difference that is not there is called at most "
			"5 %% of the time (docs/report.md, \"How sure is a verdict\").</p>\n", along);
		html_verdict_lines(fp, r);
		if (has_compare(r))
			fputs("<p>The full comparison — rates above thresholds, the tails, why each "
			      "side was late, a figure per row: <a href=\"../compare/index.html\">"
			      "compare</a>.</p>\n", fp);
		else {
			fputs("<p>The full comparison (rates above thresholds, the tails, why each side "
			      "was late, a figure per row): <code>latlab compare ", fp);
			html_text(fp, r->t.dir);
			if (r->am.axis != TAXIS_KERNEL)
				fprintf(fp, " --axis %s", taxis_name(r->am.axis));
			fputs("</code>, then this report again links to it.</p>\n", fp);
		}
	} else {
		if (one_run_each(r))
			fputs("<h2 id=\"verdict\">Worst case</h2>\n<p>Each row of the matrix: the "
			      "largest latency its one run saw, and its p99. One run shows what "
			      "happened once, not how much another run would differ: with "
			      "<code>repeat = 5</code> each row gets an interval, and two kernels "
			      "(or two values of any axis) a verdict.</p>\n", fp);
		else
			fputs("<h2 id=\"verdict\">Worst case</h2>\n<p>Each row of the matrix: the "
			      "median of its runs' maxima, with an interval that holds the true "
			      "median as often as it says (made from the runs themselves, with no "
			      "assumption about their law; with fewer than 6 runs it is their "
			      "range), and the median of their p99.</p>\n", fp);
		html_worst_lines(fp, r);
	}
	for (int i = 0; i < r->nfig; i++) {
		const struct figure *f = &r->fig[i];

		if (!f->lead)
			continue;
		/* f->base is the report's own name (fig/summary): no escaping needed */
		fprintf(fp, "<figure class=\"lead\"><img src=\"%s.svg\" alt=\"worst case per row\"><figcaption>",
			f->base);
		html_text(fp, f->caption);
		fprintf(fp, " <a href=\"%s.png\">PNG</a>", f->base);
		if (pdf)
			fprintf(fp, " <a href=\"%s.pdf\">PDF</a>", f->base);
		fprintf(fp, " <a href=\"%s.csv\">data</a></figcaption></figure>\n", f->base);
	}
}
