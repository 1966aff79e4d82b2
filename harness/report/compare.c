#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcodes.h"
#include "html.h"
#include "log.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "tree.h"

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

/* One cell key and, per side, the cell that has it (or NULL). */
struct row {
	char key[512];
	const struct tcell *in[MAX_SIDES];
	int count;
};

struct cmp {
	struct tree t[MAX_TREES];
	int ntrees;
	struct side side[MAX_SIDES];
	char label[MAX_SIDES][400];
	int nsides;
	struct row *rows;
	int nrows;
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
	for (int j = 0; j < s; j++)
		if (strcmp(c->label[j], c->label[s]) == 0) {
			size_t u = strlen(c->label[s]);

			snprintf(c->label[s] + u, sizeof(c->label[s]) - u, "#%d",
				 sd->tree + 1);
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
			tcell_key(cell, key, sizeof(key));
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
			if (!c->rows[r].in[s]) {
				c->rows[r].in[s] = cell;
				c->rows[r].count++;
			}
		}
	return 0;
}

static void verdict(FILE *fp, const struct cmp *c, const struct row *r)
{
	int best = -1, worst = -1;

	for (int i = 0; i < c->nsides; i++) {
		if (!r->in[i])
			continue;
		if (best < 0 || r->in[i]->wakeup->max < r->in[best]->wakeup->max)
			best = i;
		if (worst < 0 || r->in[i]->wakeup->max > r->in[worst]->wakeup->max)
			worst = i;
	}
	double b = US(r->in[best]->wakeup->max), w = US(r->in[worst]->wakeup->max);
	html_printf(fp, "%s has the lower worst case: max %.1f µs against %.1f µs for %s (%.1fx lower)",
		    c->label[best], b, w, c->label[worst], b > 0 ? w / b : 0.0);
}

static int figure(struct cmp *c, const struct row *r, int n, char *err,
		  size_t errlen)
{
	char vars[16384] = "", title[1024], base[PATH_MAX + 64],
		list[PATH_MAX + 64], hist[MAX_SIDES][sizeof(r->in[0]->dir) + 16];
	const char *paths[MAX_SIDES], *names[MAX_SIDES];
	const struct tcell *any = NULL;
	int k = 0, rc;

	for (int i = 0; i < c->nsides; i++) {
		if (!r->in[i])
			continue;
		any = r->in[i];
		snprintf(hist[k], sizeof(hist[k]), "%s/hist.csv", r->in[i]->dir);
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
	snprintf(title, sizeof(title), "%s, %s, threads %s, affinity %s, %.0f us: wakeup latency by kernel and host",
		 any->load, any->workload, any->threads, any->affinity,
		 US(any->interval));
	plot_var(vars, sizeof(vars), "title", title);
	snprintf(base, sizeof(base), "%s/fig/compare-%d", c->out, n);
	rc = plot_render(&c->plot, "compare.gp", base, vars, err, errlen);
	unlink(list);
	return rc;
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
	static const char *const kinds[] = {
		"timer", "irq", "softirq", "nmi", "rt-thread", "blocking",
		"unexplained", "return", "incomplete",
	};
	enum { NKINDS = sizeof(kinds) / sizeof(kinds[0]) };
	int count[MAX_SIDES][NKINDS] = { { 0 } }, total[MAX_SIDES] = { 0 }, traced = 0;
	double ns[MAX_SIDES][NKINDS] = { { 0 } }, all[MAX_SIDES] = { 0 };

	for (int i = 0; i < c->nsides; i++)
		for (int r = 0; r < c->nrows; r++) {
			const struct tcell *t = c->rows[r].in[i];

			traced |= t && t->traced;
			for (int k = 0; t && k < t->nspikes; k++) {
				const struct tspike *sp = &t->spikes[k];

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

static void fill_page(FILE *fp, void *arg)
{
	struct page *pg = arg;
	struct cmp *c = pg->c;
	int fig = 0;

	html_head(fp, "latlab compare");
	fputs("<h1>latlab compare</h1>\n", fp);
	for (int i = 0; i < c->ntrees; i++)
		if (tree_emulated(&c->t[i])) {
			html_emulated_banner(fp);
			break;
		}
	for (int i = 0; i < c->ntrees; i++)
		html_damaged(fp, &c->t[i]);
	fputs("<p>Kernel variants and hosts compared:</p><ul>\n", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<li><b>", fp);
		html_text(fp, c->label[i]);
		fputs("</b>: ", fp);
		html_text(fp, c->t[c->side[i].tree].dir);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n<h2>Cells measured on more than one</h2>\n"
	      "<p>Wake-up latency, threads merged, µs; ratios against the first column that has the cell.</p>\n"
	      "<table>\n<tr><th class=\"l\">cell (load, workload, threads, affinity)</th>", fp);
	for (int i = 0; i < c->nsides; i++) {
		fputs("<th>", fp);
		html_text(fp, c->label[i]);
		fputs(" p99.99</th><th>max</th><th>ratio max</th>", fp);
	}
	fputs("<th class=\"l\">verdict</th></tr>\n", fp);
	for (int r = 0; r < c->nrows; r++) {
		const struct row *row = &c->rows[r];
		const struct tcell *ref = NULL, *any = NULL;

		if (row->count < 2)
			continue;
		fputs("<tr><td class=\"l\">", fp);
		for (int i = 0; i < c->nsides && !any; i++)
			any = row->in[i];
		html_printf(fp, "%s, %s, threads %s, affinity %s, %.0f µs", any->load,
			    any->workload, any->threads, any->affinity, US(any->interval));
		fputs("</td>", fp);
		for (int i = 0; i < c->nsides; i++) {
			const struct tcell *t = row->in[i];

			if (!t) {
				fputs("<td></td><td></td><td></td>", fp);
				continue;
			}
			if (!ref)
				ref = t;
			fprintf(fp, "<td>%.1f</td><td>%.1f</td><td>%.2f</td>",
				US(hist_percentile(t->wakeup, 99.99)), US(t->wakeup->max),
				ref->wakeup->max ? (double)t->wakeup->max / (double)ref->wakeup->max : 0);
		}
		fputs("<td class=\"l\">", fp);
		verdict(fp, c, row);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	culprit_kinds(fp, c);
	fputs("<h2>Figures</h2>\n", fp);
	for (int r = 0; r < c->nrows; r++) {
		if (c->rows[r].count < 2)
			continue;
		fprintf(fp, "<figure><img src=\"fig/compare-%d.png\" alt=\"comparison %d\">"
			"<figcaption>", fig, fig);
		html_text(fp, c->rows[r].key);
		fprintf(fp, " <a href=\"fig/compare-%d.svg\">SVG</a></figcaption></figure>\n", fig);
		fig++;
	}
	(void)pg->pdf;
	html_foot(fp);
}

int compare_run(const char *const *dirs, int n, const char *out, int pdf)
{
	struct cmp *c = calloc(1, sizeof(*c));
	char err[8192], path[PATH_MAX + 16];
	int rc = 0, shared = 0, damaged = 0, status = EXIT_RUNTIME;

	if (!c)
		return EXIT_RUNTIME;
	if (n > MAX_TREES) {
		log_error("at most %d trees", MAX_TREES);
		free(c);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		rc = tree_read(&c->t[i], dirs[i], err, sizeof(err));
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
	for (int r = 0; r < c->nrows; r++)
		shared += c->rows[r].count >= 2;
	if (!shared) {
		log_error("no cell was measured on two kernel variants or hosts: compare needs the same load, workload, threads, affinity, interval, priority, size and repeat in at least two of them");
		status = EXIT_USAGE;
		goto out;
	}
	if (plotter_init(&c->plot)) {
		log_error("the gnuplot scripts (plots/) are not installed beside latlab; set LATLAB_PLOTS");
		goto out;
	}
	c->plot.pdf = pdf;
	snprintf(c->out, sizeof(c->out), "%s", out ? out : "compare");
	snprintf(path, sizeof(path), "%s/fig", c->out);
	rc = mkdir_p(path);
	for (int r = 0, fig = 0; rc == 0 && r < c->nrows; r++)
		if (c->rows[r].count >= 2)
			rc = figure(c, &c->rows[r], fig++, err, sizeof(err));
	if (rc == 0) {
		struct page pg = { c, pdf };

		rc = afile_write(c->out, "index.html", fill_page, &pg);
		if (rc)
			snprintf(err, sizeof(err), "%s/index.html: %s", c->out,
				 strerror(-rc));
	} else if (rc != -EIO) {
		snprintf(err, sizeof(err), "%s: %s", path, strerror(-rc));
	}
	if (rc) {
		log_error("%s", err);
		goto out;
	}
	printf("%s/index.html: %d cells compared across %d kernel variants and hosts (%d trees)\n",
	       c->out, shared, c->nsides, c->ntrees);
	status = damaged ? EXIT_RUNTIME : EXIT_PASS;
out:
	for (int i = 0; i < c->ntrees; i++)
		tree_free(&c->t[i]);
	free(c->rows);
	free(c);
	return status;
}
