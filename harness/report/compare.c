#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "compare_model.h"
#include "exitcodes.h"
#include "log.h"
#include "treelist.h"

/*
 * The trees each argument names (the baseline's first, side group 1;
 * then 2, 3 ...), read into c. EXIT_PASS, or the exit status it said why.
 */
static int read_trees(struct cmp *c, const char *const *dirs, int n, int *damaged)
{
	const struct compare_opts *o = c->o;
	char err[8192] = "", *all[MAX_TREES + 1] = { NULL };
	int group[MAX_TREES + 1] = { 0 }, ntrees = 0, rc = 0, status = EXIT_PASS;

	for (int i = o->baseline ? -1 : 0; i < n && status == EXIT_PASS; i++) {
		int more = tree_list_split(i < 0 ? o->baseline : dirs[i],
					   i < 0 ? "--baseline" : "a side's list", all + ntrees,
					   MAX_TREES - ntrees, err, sizeof(err));

		if (more == -E2BIG)
			log_error("at most %d trees", MAX_TREES);
		else if (more == -EINVAL)
			log_error("%s", err);
		else if (more < 0)
			log_error("out of memory");
		if (more < 0)
			status = more == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		for (int k = 0; k < more; k++)
			group[ntrees + k] = i + 2;
		ntrees += more > 0 ? more : 0;
	}
	/* sides and the baseline are sets of trees, whatever their spelling */
	if (status == EXIT_PASS && (rc = tree_list_distinct(all, group, ntrees, 1, err,
							     sizeof(err))) != 0) {
		log_error("%s", err);
		status = rc == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	for (int i = 0; status == EXIT_PASS && i < ntrees; i++) {
		rc = tree_read(&c->t[i], all[i], err, sizeof(err));
		if (rc) {
			log_error("%s", err);
			status = rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
			break;
		}
		c->t[i].side_group = group[i];
		*damaged += tree_log_damaged(&c->t[i]);
		c->ntrees++;
	}
	for (int i = 0; i < ntrees; i++)
		free(all[i]);
	return status;
}

/* The rows two sides share, or the exit status that said there are none. */
static int shared_rows(struct cmp *c, int *shared)
{
	const struct compare_opts *o = c->o;

	*shared = cmp_thresholds(c);
	if (*shared)
		return EXIT_PASS;
	if (c->m.nomit && !c->m.nrows) {
		log_error("no measured cell has %s (--metric): nothing to compare",
			  metric_name(o->metric));
	} else if (o->axis == TAXIS_KERNEL) {
		char names[TAXIS_NAMES_MAX], rows[TAXIS_NAMES_MAX];

		taxis_names(names, sizeof(names));
		taxis_row_words(rows, sizeof(rows));
		log_error("no cell was measured on two kernel variants or hosts: compare needs a row (the same %s) in at least two of them (or --axis AXIS: two values of another axis, %s)",
			  rows, names);
	} else {
		log_error("no two cells differ only in %s: --axis %s compares cells whose other axes (and kernel variant) are the same",
			  taxis_name(o->axis), taxis_name(o->axis));
	}
	return EXIT_USAGE;
}

/*
 * Without -o the page goes next to the trees, not into the directory
 * compare runs in: one tree's in TREE/compare (where its report links
 * it), several trees' beside the first, named by them:
 * results/compare-stock+rt.
 */
static void default_out(struct cmp *c)
{
	char parent[PATH_MAX];
	size_t u;

	if (c->ntrees == 1) {
		if (snprintf(c->out, sizeof(c->out), "%s/compare", c->t[0].dir) >= (int)sizeof(c->out))
			snprintf(c->out, sizeof(c->out), "compare");	/* a path too long: here */
		return;
	}
	snprintf(parent, sizeof(parent), "%s", c->t[0].dir);
	u = (size_t)snprintf(c->out, sizeof(c->out), "%s/compare-", dirname(parent));
	for (int i = 0; i < c->ntrees && u < sizeof(c->out) - 1; i++) {
		char name[PATH_MAX];

		snprintf(name, sizeof(name), "%s", c->t[i].dir);
		u += (size_t)snprintf(c->out + u, sizeof(c->out) - u, "%s%.40s", i ? "+" : "",
				      basename(name));
	}
}

/* The figures, junit.xml (--baseline), compare.csv and index.html. 0, or -errno with err. */
static int write_outputs(struct cmp *c, char *err, size_t errlen)
{
	const struct compare_opts *o = c->o;
	char path[PATH_MAX + 16];
	int rc;

	if (o->out)
		snprintf(c->out, sizeof(c->out), "%s", o->out);
	else
		default_out(c);
	snprintf(path, sizeof(path), "%s/fig", c->out);
	rc = mkdir_p(path);
	for (int r = 0, fig = 0; rc == 0 && r < c->m.nrows; r++)
		if (c->m.row[r].sides >= 2)
			rc = cmp_figure(c, r, fig++, err, errlen);
	if (rc == 0 && (rc = plot_flush(&c->plot, err, errlen)) == -EIO)
		rc = 0;	/* a figure that failed was said; the page leaves it out */
	if (rc == 0 && o->baseline) {
		rc = afile_write(c->out, "junit.xml", cmp_fill_junit, c);
		if (rc)
			snprintf(err, errlen, "%s/junit.xml: %s", c->out, strerror(-rc));
	}
	if (rc == 0 && c->beyond.fit) {
		rc = afile_write(c->out, "beyond.csv", beyond_fill_csv, &c->beyond);
		if (rc)
			snprintf(err, errlen, "%s/beyond.csv: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		rc = afile_write(c->out, "compare.csv", cmp_fill_csv, c);
		if (rc)
			snprintf(err, errlen, "%s/compare.csv: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		struct page pg = { c, o->pdf };

		rc = afile_write(c->out, "index.html", cmp_fill_page, &pg);
		if (rc)
			snprintf(err, errlen, "%s/index.html: %s", c->out, strerror(-rc));
	} else if (rc != -EIO && !err[0]) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	}
	return rc;
}

int compare_run(const char *const *dirs, int n, const struct compare_opts *o)
{
	struct cmp *c = calloc(1, sizeof(*c));
	char err[8192] = "";
	int shared = 0, damaged = 0, status;

	if (!c)
		return EXIT_RUNTIME;
	c->o = o;
	status = read_trees(c, dirs, n, &damaged);
	if (status == EXIT_PASS && cmp_collect(c))
		status = EXIT_RUNTIME;
	if (status == EXIT_PASS) {
		cmp_labels(c);
		status = shared_rows(c, &shared);
	}
	if (status == EXIT_PASS && cmp_pairs(c)) {
		log_error("out of memory");
		status = EXIT_RUNTIME;
	}
	/* for --deadline, or the first tree's [thresholds] max */
	if (status == EXIT_PASS && beyond_start(&c->beyond, &c->m, c->side_name, o->deadline_ns,
						o->target, c->t[0].dir)) {
		log_error("out of memory");
		status = EXIT_RUNTIME;
	}
	if (status == EXIT_PASS && plotter_init(&c->plot)) {
		log_error("the gnuplot scripts (plots/) are not installed beside latlab; set LATLAB_PLOTS");
		status = EXIT_RUNTIME;
	}
	if (status != EXIT_PASS)
		goto out;
	c->plot.pdf = o->pdf;
	c->plot.jobs = o->jobs;
	if (write_outputs(c, err, sizeof(err))) {
		log_error("%s", err);
		status = EXIT_RUNTIME;
		goto out;
	}
	cmp_print_verdicts(c);
	for (int i = 0; i < c->ntrees; i++) {	/* the half of a matrix no row has */
		char text[1200];

		if (rows_unmeasured_text(&c->t[i], text, sizeof(text)))
			printf("%s: %s\n", c->t[i].dir, text);
	}
	beyond_print(&c->beyond, stdout);
	if (o->axis == TAXIS_KERNEL)
		printf("%s/index.html: %d rows compared across %d kernel variants and hosts (%d trees)\n",
		       c->out, shared, c->m.nsides, c->ntrees);
	else
		printf("%s/index.html: %d rows compared across %d values of %s (%d trees)\n",
		       c->out, shared, c->m.nsides, taxis_name(o->axis), c->ntrees);
	if (c->regressions) {
		cmp_print_regressions(c);
		log_error("%d row%s worse than the baseline %s beyond %.0f %% (%s/junit.xml)",
			  c->regressions, c->regressions == 1 ? " is" : "s are", o->baseline,
			  100 * o->tolerance, c->out);
	}
	status = damaged || c->plot.failed ? EXIT_RUNTIME
		 : c->regressions ? EXIT_THRESHOLD : EXIT_PASS;
out:
	cmp_free(c);
	return status;
}
