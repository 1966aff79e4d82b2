/*
 * A cell's hist.csv and summary.csv, read together and cross-checked
 * (cell_files_read, tree.h): every summary row's samples, min, max and
 * mean against its thread's buckets, the buckets on latlab's grid.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellread.h"
#include "hist.h"
#include "metric.h"
#include "model.h"
#include "tree_parts.h"

/* Summary rows: one per thread x metric; what hist.csv must agree with. */
struct tally {
	int64_t thread;
	int metric;
	uint64_t samples, counted;	/* summary.csv's, hist.csv's sum */
	int64_t min, max, mean;		/* summary.csv's */
	int64_t lo, hi;			/* hist.csv's lowest edge, highest */
	double sum;			/* of the buckets' middles x counts */
	int outside;			/* underflow or overflow rows */
};

void cell_files_free(struct cell_files *f)
{
	csv_table_free(&f->summary);
	csv_table_free(&f->hist);
}

static struct tally *find_tally(struct tally *ts, int n, int64_t thread, int metric)
{
	for (int i = 0; i < n; i++)
		if (ts[i].thread == thread && ts[i].metric == metric)
			return &ts[i];
	return NULL;
}

static int check_summary(const struct csv_table *s, struct tally *ts, char *err,
			 size_t len)
{
	int rc = tr_has_columns(s, "thread,metric,samples,min_ns,max_ns", err, len);

	for (int r = 1; rc == 0 && r < s->nrows; r++) {
		struct tally *t = &ts[r - 1];
		int64_t samples;

		rc = tr_row_ints(s, r, "thread,cpu,samples,min_ns,mean_ns,max_ns", err, len);
		if (rc)
			break;
		t->thread = csv_table_checked(s, r, "thread");
		t->metric = metric_parse(tr_field(s, r, "metric"));
		samples = csv_table_checked(s, r, "samples");
		if (t->metric < 0 || t->thread < 0 || samples < 0) {
			snprintf(err, len, "%s:%d: thread %s, metric '%.20s', samples %s: not a thread, metric and count",
				 s->path, s->line[r], tr_field(s, r, "thread"),
				 tr_field(s, r, "metric"), tr_field(s, r, "samples"));
			return -EINVAL;
		}
		if (find_tally(ts, r - 1, t->thread, t->metric)) {
			snprintf(err, len, "%s:%d: thread %lld, %s twice", s->path,
				 s->line[r], (long long)t->thread, tr_field(s, r, "metric"));
			return -EINVAL;
		}
		t->samples = (uint64_t)samples;
		t->min = csv_table_checked(s, r, "min_ns");
		t->max = csv_table_checked(s, r, "max_ns");
		t->mean = csv_table_checked(s, r, "mean_ns");
		if (samples > 0 && t->min > t->max) {
			snprintf(err, len, "%s:%d: min_ns %lld above max_ns %lld", s->path,
				 s->line[r], (long long)t->min, (long long)t->max);
			return -EINVAL;
		}
	}
	return rc;
}

/*
 * [lo, hi) is a bucket of the histogram's grid (hist.h), or the one row
 * below zero ([min, 0)) or above its range ([2^42, max + 1)) it writes.
 */
static int on_grid(int64_t lo, int64_t hi)
{
	int64_t blo, bhi;

	if (hi == 0)
		return lo < 0;
	if (lo == HIST_RANGE_NS)
		return hi > lo;
	if (lo < 0 || lo >= HIST_RANGE_NS)
		return 0;
	hist_bucket_range(hist_index(lo), &blo, &bhi);
	return blo == lo && bhi == hi;
}

/*
 * The buckets of a thread's metric span exactly summary.csv's [min, max]
 * (the lowest holds min, the highest max), and their mean is summary's
 * within a bucket's width (the middle of a bucket stands for its samples:
 * 0.2 % at most; 0.5 % and 2 ns allowed).
 */
static int check_span(const struct csv_table *h, const struct tally *t, char *err,
		      size_t len)
{
	double mean = t->counted ? t->sum / (double)t->counted : 0;

	if (t->samples == 0)
		return 0;
	if (t->lo > t->min || t->hi <= t->max) {
		snprintf(err, len, "%s: thread %lld's %s buckets span [%lld, %lld), summary.csv's min and max are %lld and %lld",
			 h->path, (long long)t->thread, metric_name(t->metric),
			 (long long)t->lo, (long long)t->hi, (long long)t->min,
			 (long long)t->max);
		return -EINVAL;
	}
	if (!t->outside && fabs(mean - (double)t->mean) > 0.005 * (double)t->mean + 2) {
		snprintf(err, len, "%s: thread %lld's %s buckets have a mean of %.0f ns, summary.csv says %lld",
			 h->path, (long long)t->thread, metric_name(t->metric), mean,
			 (long long)t->mean);
		return -EINVAL;
	}
	return 0;
}

static int check_hist(const struct csv_table *h, struct tally *ts, int nts,
		      char *err, size_t len)
{
	int rc = tr_has_columns(h, "thread,metric,lo_ns,hi_ns,count", err, len);

	for (int r = 1; rc == 0 && r < h->nrows; r++) {
		int metric = metric_parse(tr_field(h, r, "metric"));
		int64_t lo, hi, count;
		struct tally *t;

		rc = tr_row_ints(h, r, "thread,lo_ns,hi_ns,count", err, len);
		if (rc)
			break;
		lo = csv_table_checked(h, r, "lo_ns");
		hi = csv_table_checked(h, r, "hi_ns");
		count = csv_table_checked(h, r, "count");
		t = find_tally(ts, nts, csv_table_checked(h, r, "thread"), metric);
		if (!t) {
			snprintf(err, len, "%s:%d: thread %s, metric '%.20s' is not in summary.csv",
				 h->path, h->line[r], tr_field(h, r, "thread"),
				 tr_field(h, r, "metric"));
			return -EINVAL;
		}
		if (lo >= hi || count < 0 || !on_grid(lo, hi)) {
			snprintf(err, len, "%s:%d: bucket [%lld, %lld) of count %lld: not a bucket of latlab's histogram",
				 h->path, h->line[r], (long long)lo, (long long)hi,
				 (long long)count);
			return -EINVAL;
		}
		if (count > 0 && (lo > t->max || hi - 1 < t->min)) {
			snprintf(err, len, "%s:%d: bucket [%lld, %lld) lies outside summary.csv's min %lld and max %lld",
				 h->path, h->line[r], (long long)lo, (long long)hi,
				 (long long)t->min, (long long)t->max);
			return -EINVAL;
		}
		if (count > 0) {
			if (t->counted == 0 || lo < t->lo)
				t->lo = lo;
			if (t->counted == 0 || hi > t->hi)
				t->hi = hi;
			t->outside |= hi == 0 || lo == HIST_RANGE_NS;
			t->sum += ((double)lo + (double)(hi - 1)) / 2 * (double)count;
		}
		if (t->counted + (uint64_t)count < t->counted) {
			snprintf(err, len, "%s:%d: counts overflow", h->path, h->line[r]);
			return -EINVAL;
		}
		t->counted += (uint64_t)count;
	}
	for (int i = 0; rc == 0 && i < nts; i++) {
		if (ts[i].counted != ts[i].samples) {
			snprintf(err, len, "%s: thread %lld's %s buckets hold %llu samples, summary.csv says %llu",
				 h->path, (long long)ts[i].thread, metric_name(ts[i].metric),
				 (unsigned long long)ts[i].counted,
				 (unsigned long long)ts[i].samples);
			return -EINVAL;
		}
		rc = check_span(h, &ts[i], err, len);
	}
	return rc;
}

int cell_files_read(const char *dir, struct cell_files *f, char *err, size_t len)
{
	char path[PATH_MAX + 600];
	struct tally *ts = NULL;
	int rc;

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	rc = csv_table_read(path, &f->summary, err, len);
	if (rc == 0) {
		snprintf(path, sizeof(path), "%s/hist.csv", dir);
		rc = csv_table_read(path, &f->hist, err, len);
	}
	if (rc == 0 && !(ts = calloc((size_t)f->summary.nrows, sizeof(*ts))))
		rc = -ENOMEM;
	if (rc == 0)
		rc = check_summary(&f->summary, ts, err, len);
	if (rc == 0)
		rc = check_hist(&f->hist, ts, f->summary.nrows - 1, err, len);
	free(ts);
	if (rc)
		cell_files_free(f);
	return rc;
}

