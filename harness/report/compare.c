#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic.h"
#include "compare_model.h"
#include "exitcodes.h"
#include "log.h"
#include "treelist.h"

int compare_run(const char *const *dirs, int n, const struct compare_opts *o)
{
	struct cmp *c = calloc(1, sizeof(*c));
	char err[8192] = "", path[PATH_MAX + 16];
	int rc = 0, shared = 0, damaged = 0, status = EXIT_RUNTIME;
	char *all[MAX_TREES + 1] = { NULL };
	int group[MAX_TREES + 1] = { 0 }, ntrees = 0;

	if (!c)
		return EXIT_RUNTIME;
	c->o = o;
	/* the baseline first (side group 1), then each argument (2, 3 ...) */
	for (int i = o->baseline ? -1 : 0; i < n; i++) {
		int more = tree_list_split(i < 0 ? o->baseline : dirs[i],
					   i < 0 ? "--baseline" : "a side's list", all + ntrees,
					   MAX_TREES - ntrees, err, sizeof(err));

		if (more == -E2BIG || more == -EINVAL) {
			if (more == -E2BIG)
				log_error("at most %d trees", MAX_TREES);
			else
				log_error("%s", err);
			status = EXIT_USAGE;
			goto out;
		}
		if (more < 0) {
			log_error("out of memory");
			goto out;
		}
		for (int k = 0; k < more; k++)
			group[ntrees + k] = i + 2;
		ntrees += more;
	}
	/* sides and the baseline are sets of trees, whatever their spelling */
	rc = tree_list_distinct(all, group, ntrees, 1, err, sizeof(err));
	if (rc) {
		log_error("%s", err);
		status = rc == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < ntrees; i++) {
		rc = tree_read(&c->t[i], all[i], err, sizeof(err));
		if (rc) {
			log_error("%s", err);
			status = rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
			goto out;
		}
		c->t[i].side_group = group[i];
		damaged += tree_log_damaged(&c->t[i]);
		c->ntrees++;
	}
	if (cmp_collect(c))
		goto out;
	cmp_labels(c);
	shared = cmp_thresholds(c);
	if (!shared && c->m.nomit && !c->m.nrows) {
		log_error("no measured cell has %s (--metric): nothing to compare",
			  metric_name(o->metric));
		status = EXIT_USAGE;
		goto out;
	}
	if (!shared && o->axis == TAXIS_KERNEL) {
		log_error("no cell was measured on two kernel variants or hosts: compare needs the same load, workload, threads, affinity, interval, priority and size in at least two of them (or --axis AXIS: two values of another axis, %s)",
			  TAXIS_NAMES);
		status = EXIT_USAGE;
		goto out;
	}
	if (!shared) {
		log_error("no two cells differ only in %s: --axis %s compares cells whose other axes (and kernel variant) are the same",
			  taxis_name(o->axis), taxis_name(o->axis));
		status = EXIT_USAGE;
		goto out;
	}
	if (cmp_pairs(c)) {
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
	for (int r = 0, fig = 0; rc == 0 && r < c->m.nrows; r++)
		if (c->m.row[r].sides >= 2)
			rc = cmp_figure(c, r, fig++, err, sizeof(err));
	if (rc == 0 && (rc = plot_flush(&c->plot, err, sizeof(err))) == -EIO)
		rc = 0;	/* a figure that failed was said; the page leaves it out */
	if (rc == 0 && o->baseline) {
		rc = afile_write(c->out, "junit.xml", cmp_fill_junit, c);
		if (rc)
			snprintf(err, sizeof(err), "%s/junit.xml: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		rc = afile_write(c->out, "compare.csv", cmp_fill_csv, c);
		if (rc)
			snprintf(err, sizeof(err), "%s/compare.csv: %s", c->out, strerror(-rc));
	}
	if (rc == 0) {
		struct page pg = { c, o->pdf };

		rc = afile_write(c->out, "index.html", cmp_fill_page, &pg);
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
	cmp_print_verdicts(c);
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
	for (int i = 0; i < ntrees; i++)
		free(all[i]);
	return status;
}
