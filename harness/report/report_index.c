#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cellread.h"
#include "html.h"
#include "log.h"
#include "units.h"
#include "report_parts.h"

/* A cell whose max came in the last tenth of a run of 10 s or more. */
static int still_growing(const struct tcell *c)
{
	return c->nsec >= 10 && c->max_at_s * 10 >= c->nsec * 9;
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

/* A cell's row of the overview's table: its axes, status, figures, why and files. */
/* <td class="CLS">TEXT</td>, the text escaped */
static void td_text(FILE *fp, const char *cls, const char *text)
{
	fprintf(fp, "<td class=\"%s\">", cls);
	html_text(fp, text);
	fputs("</td>", fp);
}

static void html_cell_row(FILE *fp, const struct tcell *c)
{
	char size[32] = "—";

	fprintf(fp, "<tr class=\"%s\"><td class=\"l\"><a href=\"cells/", html_status_class(c->status));
	html_text(fp, c->id);
	fputs(".html\">", fp);
	html_text(fp, c->id);
	fputs("</a></td>", fp);
	td_text(fp, "l", c->kernel);
	td_text(fp, "l", c->load);
	td_text(fp, "l", c->workload);
	td_text(fp, "more", c->threads);
	td_text(fp, "l more", c->affinity);
	if (tcell_moves_bytes(c))
		snprintf(size, sizeof(size), "%lld", (long long)c->size);
	fprintf(fp, "<td>%.0f</td><td class=\"more\">%lld</td><td class=\"more\">%s</td>",
		US(c->interval), (long long)c->priority, size);
	td_text(fp, "l more", c->policy);
	td_text(fp, "more", c->dma_latency);
	fputs("<td class=\"l st\">", fp);
	html_text(fp, c->status);
	if (c->reason[0]) {
		fputs(": ", fp);
		html_text(fp, c->reason);
	}
	fputs("</td>", fp);
	/* the worst thread's share of its periods missed: not buried at the right */
	if (c->measured)
		fprintf(fp, "<td%s>%.1f</td>", c->missed_pct >= 1 ? " class=\"warn\"" : "",
			c->missed_pct);
	else
		fputs("<td></td>", fp);
	if (c->measured) {
		fprintf(fp, "<td class=\"more\">%llu</td>", (unsigned long long)c->wakeup->count);
		report_td_spread(fp, c->wakeup);
		report_td_us(fp, c->response->max);
		if (c->nsec)
			fprintf(fp, "<td%s>%d of %d</td>", still_growing(c) ? " class=\"warn\"" : "",
				c->max_at_s, c->nsec);
		else
			fputs("<td></td>", fp);
		char ops[24];

		units_format_count(c->load_ops_per_s, ops, sizeof(ops));
		fprintf(fp, "<td class=\"more\">%llu</td><td class=\"more\">%llu</td>"
			"<td data-v=\"%.0f\">%s</td>", (unsigned long long)c->overruns,
			(unsigned long long)c->errors, c->load_ops_per_s, ops);
	} else {
		/* a cell each, so that hiding the secondary columns keeps the rows aligned */
		fputs("<td class=\"more\"></td><td></td><td></td><td></td><td></td><td></td><td></td>"
		      "<td></td><td class=\"more\"></td><td class=\"more\"></td><td></td>", fp);
	}
	td_text(fp, "l", c->why);
	fputs("<td class=\"l more\">", fp);
	report_cell_files(fp, c, "../");
	fputs("</td></tr>\n", fp);
}

static void html_cells(FILE *fp, const struct report *r)
{
	fputs("<h2>Cells</h2>\n<p>Wake-up latency in µs, all threads of a cell merged; "
	      "`response` is wake-up plus the cycle's I/O. Each cell's page has its figures, "
	      "files and log. Click a column's head to sort; type to filter (the view is kept "
	      "in the address: <code>#sort=COLUMN&amp;filter=TEXT</code>).</p>\n"
	      "<p><input id=\"filter\" type=\"search\" placeholder=\"filter cells\" hidden></p>\n"
	      "<p><label hidden id=\"allcols\"><input type=\"checkbox\"> every column (threads, "
	      "affinity, priority, size, policy, dma, samples, overruns, errors, files)</label></p>\n"
	      "<table id=\"cells\">\n<tr>"
	      "<th class=\"l\">cell</th><th class=\"l\">kernel</th><th class=\"l\">load</th>"
	      "<th class=\"l\">workload</th><th class=\"more\">threads</th><th class=\"l more\">affinity</th>"
	      "<th>interval µs</th><th class=\"more\">prio</th><th class=\"more\">size</th><th class=\"l more\">policy</th>"
	      "<th class=\"more\">dma µs</th><th class=\"l\">status</th><th>missed %</th>"
	      "<th class=\"more\">samples</th><th>min</th><th>p50</th><th>p99</th><th>p99.99</th><th>max</th>"
	      "<th>response max</th><th>max at s</th><th class=\"more\">overruns</th><th class=\"more\">errors</th><th>load ops/s</th>"
	      "<th class=\"l\">why (worst capture)</th><th class=\"l more\">files</th></tr>\n", fp);
	for (int i = 0; i < r->t.n; i++)
		html_cell_row(fp, &r->t.cell[i]);
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
			double v = (double)m->group[k].run[i]->metric[m->row[m->group[k].row].metric]->max;

			if (v > 0 && v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	fputs("<h2 id=\"overview\">Overview</h2>\n<p>Each row of the matrix against each kernel variant and "
	      "host, on the row's metric: the median of the runs' maxima / of their p99.99 in µs, and n "
	      "(runs). A row's metric is what its workload exists for — the response (from the "
	      "intended wake-up to the end of the I/O) for I/O workloads, the wake-up for timer, "
	      "the noise max for noise — unless <code>latlab report --metric</code> named one. "
	      "Colour: the maximum on a log scale from the page's lowest (green) to its "
	      "highest (red). An entry links to the page of its run at the median.</p>\n"
	      "<table>\n<tr><th class=\"l\">row (its axes)</th>"
	      "<th class=\"l\">metric</th>", fp);
	for (int j = 0; j < m->nsides; j++) {
		const struct tcell *c = m->side[j].first;

		fputs("<th>", fp);
		html_printf(fp, "%s@%s:%s", c->kernel, c->host, c->release);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (int i = 0; i < m->nrows; i++) {
		const struct tcell *c = m->row[i].any;

		char title[1024];

		fputs("<tr><td class=\"l\">", fp);
		tcell_row_title(c, title, sizeof(title));
		html_text(fp, title);
		fprintf(fp, "</td><td class=\"l\">%s</td>", rows_metric_words(m->row[i].metric));
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
			char p4[32];

			fprintf(fp, ".html\">%.1f / %s</a> <small>n=%d</small>",
				US(sum->max_med), rows_pct_text(sum, 0, p4, sizeof(p4)), sum->n);
			double missed = 0;

			for (int k = 0; k < g->n; k++)
				if (g->run[k]->missed_pct > missed)
					missed = g->run[k]->missed_pct;
			if (missed >= 0.1)	/* its numbers leave those periods out */
				fprintf(fp, "<br><small class=\"warn\">missed %.1f %% of periods</small>",
					missed);
			fputs("</td>", fp);
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
	fputs("<h2>Rows: the repeats together</h2>\n<p>Each row's metric (the overview's) in µs, threads merged. "
	      "One run's maximum is the noisiest number a latency test gives: the median "
	      "of the runs' maxima, with their range, says more. <code>latlab compare</code> "
	      "puts an interval on the difference between kernels.</p>\n<table>\n<tr>"
	      "<th class=\"l\">kernel</th><th class=\"l\">row (its axes)</th>"
	      "<th class=\"l\">metric</th><th>n</th><th>max (median [range])</th><th>p99.99</th><th>p99</th></tr>\n", fp);
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
		char p4[32], p2[32];

		fprintf(fp, "</td><td class=\"l\">%s</td><td>%d</td><td>%.1f [%.1f, %.1f]</td><td>%s</td><td>%s</td></tr>\n",
			rows_metric_words(r->m.row[g->row].metric), sum.n, US(sum.max_med), US(sum.max_lo), US(sum.max_hi),
			rows_pct_text(&sum, 0, p4, sizeof(p4)), rows_pct_text(&sum, 1, p2, sizeof(p2)));
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
		report_td_us(fp, hist_percentile(nm, 50));
		report_td_us(fp, hist_percentile(nm, 99));
		report_td_us(fp, hist_percentile(nm, 99.99));
		report_td_us(fp, nm->max);
		fprintf(fp, "<td>%.1f</td>", hist_mean(nt) / 1e3);
		report_td_us(fp, hist_percentile(nt, 99));
		report_td_us(fp, nt->max);
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
		report_cell_spikes(fp, c, "../");
	}
}

/*
 * The cells table's script (table.js, made a C string by the build: see
 * the Makefile's table_js.h), between <script> tags.
 */
static const char table_script[] =
#include "table_js.h"
	;

void report_fill_index(FILE *fp, void *arg)
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
	html_unmeasured(fp, &r->t);
	report_answer_html(fp, r, pg->pdf);
	html_overview(fp, r);
	html_sysinfo(fp, r);
	html_cells(fp, r);
	html_groups(fp, r);
	html_long_enough(fp, r);
	beyond_html(&r->beyond, fp);
	html_noise(fp, r);
	html_interference(fp, r);
	html_spikes(fp, r);
	report_figures_html(fp, r, pg->pdf, -1, "");
	fputs("<script>\n", fp);
	fputs(table_script, fp);
	fputs("</script>\n", fp);
	html_foot(fp);
}
