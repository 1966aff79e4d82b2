#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic.h"
#include "cellread.h"
#include "html.h"
#include "log.h"
#include "report_parts.h"

void report_td_us(FILE *fp, int64_t ns)
{
	fprintf(fp, "<td>%.1f</td>", US(ns));
}

/* A histogram's min, p50, p99, p99.99 and max, a cell each (µs): the tables' columns. */
/* Percentile p of h, a cell; "—" where h has too few samples for it (said on hover). */
static void td_pct(FILE *fp, const struct hist *h, double p)
{
	if (hist_has_support(h, p))
		report_td_us(fp, hist_percentile(h, p));
	else
		fprintf(fp, "<td title=\"p%g needs %llu samples; %llu here\">—</td>", p,
			(unsigned long long)hist_support(p), (unsigned long long)h->count);
}

void report_td_spread(FILE *fp, const struct hist *h)
{
	report_td_us(fp, h->min);
	report_td_us(fp, hist_percentile(h, 50));
	td_pct(fp, h, 99);
	td_pct(fp, h, 99.99);
	report_td_us(fp, h->max);
}

/* A link to the cell's file `name`, named by it; `up` leads from the page to the tree. */
static void cell_link(FILE *fp, const struct tcell *c, const char *up, const char *name)
{
	fputs("<a href=\"", fp);
	html_printf(fp, "%s%s/%s/%s/%s", up, c->host, c->release, c->id, name);
	fputs("\">", fp);
	html_text(fp, name);
	fputs("</a> ", fp);
}

/* Links to a cell's files; `up` leads from the page to the tree. */
void report_cell_files(FILE *fp, const struct tcell *c, const char *up)
{
	static const enum cell_file files[] = { CELLF_SUMMARY, CELLF_HIST, CELLF_SERIES,
						CELLF_LOAD, CELLF_INI, CELLF_LOG };

	if (strcmp(c->status, "pending") != 0)
		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++)
			cell_link(fp, c, up, cell_file_name(files[k]));
	if (c->traced)
		cell_link(fp, c, up, cell_file_name(CELLF_SPIKES));
	if (c->interference[0])
		cell_link(fp, c, up, cell_file_name(CELLF_INTERFERENCE));
}

/* Per cell with captures: each capture's parts and its culprit. */
/* One cell's spike captures as a table; `up` leads from the page to the tree. */
void report_cell_spikes(FILE *fp, const struct tcell *c, const char *up)
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
		report_td_us(fp, s->latency_ns);
		for (int p = 0; p < SPIKE_PARTS; p++) {
			if (s->complete)
				report_td_us(fp, s->part_ns[p]);
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
		char name[48];

		cell_trace_name(name, sizeof(name), s->capture, "txt");
		html_printf(fp, "%s%s/%s/%s/%s", up, c->host, c->release, c->id, name);
		fprintf(fp, "\">%s</a></td></tr>\n", name);
	}
	fputs("</table>\n", fp);
}

/* The figures of one page: the index's (cell -1) or a cell's; `up` prefixes their links. */
void report_figures_html(FILE *fp, const struct report *r, int pdf, int cell,
			 const char *up)
{
	int shown = 0;

	fputs("<h2>Figures</h2>\n", fp);
	if (pdf && cell < 0)
		fputs("<p>Every figure of the report, these and each cell's, in one file: "
		      "<a href=\"report.pdf\">report.pdf</a>.</p>\n", fp);
	for (int i = 0; i < r->nfig; i++) {
		const struct figure *f = &r->fig[i];

		if (f->cell != cell || f->lead)	/* the first screen's is shown there */
			continue;
		fputs("<figure><img src=\"", fp);
		html_printf(fp, "%s%s.svg", up, f->base);
		fputs("\" alt=\"", fp);
		html_text(fp, f->caption);
		fputs("\"><figcaption>", fp);
		html_text(fp, f->caption);
		if (f->cell < 0 || r->png) {	/* a cell's with --png */
			fputs(" <a href=\"", fp);
			html_printf(fp, "%s%s.png", up, f->base);
			fputs("\">PNG</a>", fp);
		}
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
/* A row of a cell page's table: its name and its value, each as text. */
static void fact_row(FILE *fp, const char *name, const char *value)
{
	fputs("<tr><th class=\"l\">", fp);
	html_text(fp, name);
	fputs("</th><td class=\"l\">", fp);
	html_text(fp, value);
	fputs("</td></tr>\n", fp);
}

/*
 * A cell page's first table: its status, every axis of the table as the
 * cell has it, the run's own facts, the latlab that measured it, its
 * load's settings, where its I/O went.
 */
static void cell_facts(FILE *fp, const struct tcell *c)
{
	fprintf(fp, "<table>\n<tr class=\"%s\"><th class=\"l\">status</th><td class=\"l st\">",
		html_status_class(c->status));
	html_text(fp, c->status);
	if (c->reason[0]) {
		fputs(": ", fp);
		html_text(fp, c->reason);
	}
	fputs("</td></tr>\n", fp);
	/* every axis of the table, as the cell has it (a duration in µs), then the run's own */
	for (int a = 0; a < TAXIS_COUNT; a++) {
		char v[64];
		int dur = axis_defs[a].kind == AXK_DURATION;

		if (dur)
			snprintf(v, sizeof(v), "%.0f", US(c->num[a]));
		fprintf(fp, "<tr><th class=\"l\">%s%s</th><td class=\"l\">", taxis_name(a),
			dur ? " µs" : axis_defs[a].kind == AXK_MICROS ? " µs" : "");
		html_text(fp, dur ? v : c->ax[a]);
		fputs("</td></tr>\n", fp);
		if (a == TAXIS_HOST)	/* the host's kernel beside it */
			fact_row(fp, "release", c->release);
	}
	const char *const more[][2] = {
		{ "why (worst capture)", c->why },
		{ "interference", c->interference },
	};
	for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
		fact_row(fp, more[k][0], more[k][1]);
	}
	fprintf(fp, "<tr><th class=\"l\">repeat</th><td class=\"l\">%lld</td></tr>\n",
		(long long)c->repeat);
	/* the latlab that measured it (sysinfo.ini), and its load as it ran (cell.ini) */
	fact_row(fp, "measured by latlab", c->measured_by[0] ? c->measured_by : "unknown");
	if (c->load_settings[0])
		fact_row(fp, "its load's settings", c->load_settings);
	/* where its I/O went and what a wait for it is, as cell.ini says */
	static const char *const io[][2] = {
		{ "files_on", "files on" }, { "files_note", "a file's wait" },
		{ "net_note", "its IP traffic" },
	};
	for (size_t k = 0; k < sizeof(io) / sizeof(io[0]); k++) {
		char v[512];

		cell_ini_get(c->dir, CELLF_INI, "cell", io[k][0], v, sizeof(v));
		if (!v[0])
			continue;
		fact_row(fp, io[k][1], v);
	}
	fputs("</table>\n", fp);
}

/* A measured cell's latencies, threads merged, and its overruns, errors and missed periods. */
static void cell_latencies(FILE *fp, const struct tcell *c)
{
	if (!c->measured)
		return;
	fputs("<h2>Latency (µs, threads merged)</h2>\n<table>\n<tr><th class=\"l\">metric</th>"
	      "<th>samples</th><th>min</th><th>p50</th><th>p99</th><th>p99.99</th><th>max</th></tr>\n", fp);
	for (int m = 0; m < METRIC_COUNT; m++) {
		const struct hist *h = c->metric[m];

		if (!h || !(c->listed & METRIC_BIT(m)))
			continue;	/* a watched program's cell: no wake-up of latlab's */
		fprintf(fp, "<tr><td class=\"l\">%s</td><td>%llu</td>", metric_name(m),
			(unsigned long long)h->count);
		report_td_spread(fp, h);
		fputs("</tr>\n", fp);
	}
	fprintf(fp, "</table>\n<p>%llu overruns, %llu errors", (unsigned long long)c->overruns,
		(unsigned long long)c->errors);
	if (c->nsec)
		fprintf(fp, "; the wake-up's maximum came in second %d of %d", c->max_at_s,
			c->nsec);
	fputs(".</p>\n", fp);
	if (c->missed_pct > 0)
		fprintf(fp, "<p%s>Missed periods: thread %d missed %.1f %% of its periods "
			"(a cycle that ended past its next period skips those it covered; "
			"the latencies above leave them out).</p>\n",
			c->missed_pct >= 1 ? " class=\"warn\"" : "", c->missed_thread,
			c->missed_pct);
}

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
	cell_facts(fp, c);
	cell_latencies(fp, c);
	if (c->nspikes) {
		fputs("<h2>Spike captures</h2>\n", fp);
		report_cell_spikes(fp, c, "../../");
	}
	report_figures_html(fp, pg->r, pg->pdf, pg->i, "../");
	fputs("<h2>Files</h2>\n<p>", fp);
	report_cell_files(fp, c, "../../");
	fputs("</p>\n", fp);
	html_cell_log(fp, c);
	html_foot(fp);
}

/*
 * --pdf: every figure's PDF, the index's then each cell's in page order,
 * as one report/report.pdf (poppler's pdfunite) for a paper's appendix.
 * 0, or -errno / -EIO with err.
 */
int report_pdf(const struct report *r, char *err, size_t errlen)
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
int report_cell_pages(struct report *r, int pdf, char *err, size_t errlen)
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
