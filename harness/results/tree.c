#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cellread.h"
#include "config.h"
#include "csvfile.h"
#include "files.h"
#include "log.h"
#include "model.h"
#include "tree.h"
#include "units.h"
#include "workload.h"

static const char *field(const struct csv_table *t, int row, const char *name)
{
	return csv_table_str(t, row, name);
}


static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* The next name of a comma-separated list at *p into name; 0 at its end. */
static int next_name(const char **p, char *name, size_t len)
{
	return opt_list_next(p, name, len, 0);
}

/* Each of the comma-separated integer columns of row r parses whole. */
static int row_ints(const struct csv_table *t, int r, const char *names,
		    char *err, size_t len)
{
	char name[32];
	int64_t v;

	while (next_name(&names, name, sizeof(name)))
		if (csv_table_int(t, r, name, &v, err, len))
			return -EINVAL;
	return 0;
}

/* Every comma-separated column is in the header. */
static int has_columns(const struct csv_table *t, const char *names,
		       char *err, size_t len)
{
	char name[32];

	while (next_name(&names, name, sizeof(name))) {
		if (csv_table_col(t, name) < 0) {
			snprintf(err, len, "%s:1: no column '%s': not latlab's", t->path, name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Row r's integer column `name` (already checked to be one) within [lo,
 * hi], else -EINVAL at FILE:LINE with what bounds it: a figure a reader
 * shows must be one the cell can hold.
 */
static int row_within(const struct csv_table *t, int r, const char *name, int64_t lo,
		      int64_t hi, const char *bound, char *err, size_t len)
{
	int64_t v = csv_table_checked(t, r, name);

	if (v >= lo && v <= hi)
		return 0;
	snprintf(err, len, "%.400s:%d: %s = %lld: %s", t->path, t->line[r], name, (long long)v,
		 bound);
	return -EINVAL;
}

/*
 * What a cell's time bounds (the steal of a CPU, a capture's moment):
 * its span and this much around it — the counters read before the start
 * (100 ms ahead) and after the threads end, /proc/stat's 10 ms ticks.
 */
#define SPAN_SLACK_NS NS_PER_S

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
	int rc = has_columns(s, "thread,metric,samples,min_ns,max_ns", err, len);

	for (int r = 1; rc == 0 && r < s->nrows; r++) {
		struct tally *t = &ts[r - 1];
		int64_t samples;

		rc = row_ints(s, r, "thread,cpu,samples,min_ns,mean_ns,max_ns", err, len);
		if (rc)
			break;
		t->thread = csv_table_checked(s, r, "thread");
		t->metric = metric_parse(field(s, r, "metric"));
		samples = csv_table_checked(s, r, "samples");
		if (t->metric < 0 || t->thread < 0 || samples < 0) {
			snprintf(err, len, "%s:%d: thread %s, metric '%.20s', samples %s: not a thread, metric and count",
				 s->path, s->line[r], field(s, r, "thread"),
				 field(s, r, "metric"), field(s, r, "samples"));
			return -EINVAL;
		}
		if (find_tally(ts, r - 1, t->thread, t->metric)) {
			snprintf(err, len, "%s:%d: thread %lld, %s twice", s->path,
				 s->line[r], (long long)t->thread, field(s, r, "metric"));
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
	int rc = has_columns(h, "thread,metric,lo_ns,hi_ns,count", err, len);

	for (int r = 1; rc == 0 && r < h->nrows; r++) {
		int metric = metric_parse(field(h, r, "metric"));
		int64_t lo, hi, count;
		struct tally *t;

		rc = row_ints(h, r, "thread,lo_ns,hi_ns,count", err, len);
		if (rc)
			break;
		lo = csv_table_checked(h, r, "lo_ns");
		hi = csv_table_checked(h, r, "hi_ns");
		count = csv_table_checked(h, r, "count");
		t = find_tally(ts, nts, csv_table_checked(h, r, "thread"), metric);
		if (!t) {
			snprintf(err, len, "%s:%d: thread %s, metric '%.20s' is not in summary.csv",
				 h->path, h->line[r], field(h, r, "thread"),
				 field(h, r, "metric"));
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

/* hist.csv rows of `metric`, all threads, into h. */
static void add_hist(const struct csv_table *t, const char *metric, struct hist *h)
{
	for (int r = 1; r < t->nrows; r++)
		if (strcmp(field(t, r, "metric"), metric) == 0)
			hist_add_bucket(h, csv_table_checked(t, r, "lo_ns"), csv_table_checked(t, r, "hi_ns"),
					(uint64_t)csv_table_checked(t, r, "count"));
}

/*
 * A cell's file that only some cells have (load.csv, series.csv,
 * spikes.csv, interference.csv): 1 when it is not there, 0 read into *t,
 * or -errno with err.
 */
static int optional_csv(const char *dir, const char *name, struct csv_table *t,
			char *err, size_t len)
{
	char path[PATH_MAX + 600];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = csv_table_read(path, t, err, len);
	return rc == -ENOENT ? 1 : rc;
}

/* The sum of load.csv's rates; a cell without load.csv had no load. */
static int load_rate(const char *dir, double *sum, char *err, size_t len)
{
	struct csv_table t;
	int rc;

	*sum = 0;
	rc = optional_csv(dir, cell_file_name(CELLF_LOAD), &t, err, len);
	if (rc == 1)
		return 0;
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		double v;

		rc = csv_table_num(&t, r, "ops_per_s", &v, err, len);
		*sum += v;
	}
	csv_table_free(&t);
	return rc;
}

/*
 * series.csv: the wake-up's running maximum second by second, and the
 * first second that reached the cell's maximum (is the run long enough?).
 */
static int read_series(struct tcell *c, char *err, size_t len)
{
	struct csv_table t;
	int64_t last = -1, best = -1;
	int rc;

	rc = optional_csv(c->dir, cell_file_name(CELLF_SERIES), &t, err, len);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = has_columns(&t, "t_s,thread,metric,max_ns", err, len);
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		rc = row_ints(&t, r, "t_s,thread,max_ns", err, len);
		if (rc == 0 && (csv_table_checked(&t, r, "t_s") < 0 ||
				csv_table_checked(&t, r, "t_s") > 7 * 24 * 3600)) {
			snprintf(err, len, "%s:%d: t_s = %lld: not a second of a cell", t.path,
				 t.line[r], (long long)csv_table_checked(&t, r, "t_s"));
			rc = -EINVAL;
		}
		if (rc == 0 && csv_table_checked(&t, r, "t_s") > last)
			last = csv_table_checked(&t, r, "t_s");
	}
	/* a cell that measured has a maximum for its first second at least */
	if (rc == 0 && last < 0 && c->measured) {
		snprintf(err, len, "%s: no rows, though the cell measured %llu wake-ups",
			 t.path, (unsigned long long)c->wakeup->count);
		rc = -EINVAL;
	}
	if (rc == 0 && last >= 0) {
		c->runmax = calloc((size_t)last + 1, sizeof(*c->runmax));
		if (!c->runmax)
			rc = -ENOMEM;
	}
	for (int r = 1; rc == 0 && c->runmax && r < t.nrows; r++) {
		int64_t s = csv_table_checked(&t, r, "t_s"), v = csv_table_checked(&t, r, "max_ns");

		if (strcmp(field(&t, r, "metric"), "wakeup") == 0 && v > c->runmax[s])
			c->runmax[s] = v;	/* each second's max, over threads */
	}
	if (rc == 0 && c->runmax) {
		c->nsec = (int)last + 1;
		for (int s = 0; s < c->nsec; s++) {
			if (c->runmax[s] > best) {
				best = c->runmax[s];
				c->max_at_s = s;
			}
			c->runmax[s] = best;
		}
	}
	csv_table_free(&t);
	return rc;
}

/*
 * timeline.csv: its rows checked; how many windows it has and how long
 * one is (the smallest step between two windows' starts).
 */
static int read_timeline(struct tcell *c, char *err, size_t len)
{
	struct csv_table t;
	int64_t last = -1;
	int rc;

	rc = optional_csv(c->dir, cell_file_name(CELLF_TIMELINE), &t, err, len);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = has_columns(&t, TIMELINE_COLUMNS, err, len);
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		rc = row_ints(&t, r, "t_s,thread,bin,lo_ns,hi_ns,count", err, len);
		if (rc)
			break;
		int64_t s = csv_table_checked(&t, r, "t_s"), bin = csv_table_checked(&t, r, "bin");

		if (s < 0 || s > 7 * 24 * 3600 || bin < 0 || bin >= 100 ||
		    metric_parse(field(&t, r, "metric")) < 0) {
			snprintf(err, len, "%s:%d: t_s %lld, metric '%.20s', bin %lld: not a window's bin",
				 t.path, t.line[r], (long long)s, field(&t, r, "metric"),
				 (long long)bin);
			rc = -EINVAL;
			break;
		}
		if (s != last) {	/* windows in time order, threads within */
			if (last >= 0 && s > last &&
			    (c->timeline_window == 0 || s - last < c->timeline_window))
				c->timeline_window = s - last;
			c->timeline_windows += s > last;
			last = s > last ? s : last;
		}
	}
	csv_table_free(&t);
	if (rc == 0 && c->timeline_windows == 1)
		c->timeline_window = 0;
	return rc;
}

/*
 * interference.csv: per measured CPU, in words, its three largest
 * interrupt and softirq sources, its steal time and its SMIs ("CPU 1:
 * 2626 LOC Local timer interrupts, 1183964 NET_RX, ..., 150 ms stolen by
 * the hypervisor, SMI unavailable").
 */
static int read_interference(struct tcell *c, char *err, size_t len)
{
	struct csv_table t;
	int rc;

	rc = optional_csv(c->dir, cell_file_name(CELLF_INTERFERENCE), &t, err, len);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = has_columns(&t, INTERFERENCE_COLUMNS, err, len);
	/* a CPU loses at most the time the cell took (and the reads around it) */
	int64_t steal_max = (c->span_ns + SPAN_SLACK_NS) / NS_PER_MS;
	char bound[96];

	snprintf(bound, sizeof(bound), "more than the %.3f s the cell took", c->span_ns / 1e9);
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		rc = row_ints(&t, r, "cpu", err, len);
		if (rc == 0)
			rc = row_within(&t, r, "cpu", 0, CPU_SETSIZE - 1, "not a CPU", err, len);
		if (rc == 0 && field(&t, r, "count")[0])
			rc = row_ints(&t, r, "count", err, len);
		if (rc == 0 && field(&t, r, "count")[0])
			rc = row_within(&t, r, "count", 0, INT64_MAX, "a count below 0", err, len);
		if (rc == 0 && !strcmp(field(&t, r, "kind"), "steal") && field(&t, r, "count")[0])
			rc = row_within(&t, r, "count", 0, steal_max, bound, err, len);
		for (int q = 1; rc == 0 && q < r; q++)	/* one steal row a CPU */
			if (!strcmp(field(&t, r, "kind"), "steal") && !strcmp(field(&t, q, "kind"), "steal") &&
			    csv_table_checked(&t, q, "cpu") == csv_table_checked(&t, r, "cpu")) {
				snprintf(err, len, "%.400s:%d: a second steal row for CPU %lld (line %d has one)",
					 t.path, t.line[r], (long long)csv_table_checked(&t, r, "cpu"),
					 t.line[q]);
				rc = -EINVAL;
			}
	}
	cpu_set_t cpus;	/* the CPUs the file names: one pass over its rows each */

	CPU_ZERO(&cpus);
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		int64_t cpu = csv_table_checked(&t, r, "cpu");

		if (cpu >= 0 && cpu < CPU_SETSIZE)
			CPU_SET((int)cpu, &cpus);
	}
	for (int cpu = 0; rc == 0 && cpu < CPU_SETSIZE; cpu++) {
		int top[3] = { -1, -1, -1 }, smi = -1, steal = -1, any = 0;

		if (!CPU_ISSET(cpu, &cpus))
			continue;

		for (int r = 1; r < t.nrows; r++) {
			const char *kind = field(&t, r, "kind");

			if (csv_table_checked(&t, r, "cpu") != cpu)
				continue;
			any = 1;
			if (strcmp(kind, "smi") == 0) {
				smi = r;
				continue;
			}
			if (strcmp(kind, "steal") == 0) {
				steal = r;
				continue;
			}
			if (strcmp(kind, "irq") && strcmp(kind, "softirq"))
				continue;
			int64_t v = csv_table_checked(&t, r, "count");
			for (int k = 0; k < 3; k++)
				if (top[k] < 0 || v > csv_table_checked(&t, top[k], "count")) {
					memmove(&top[k + 1], &top[k], (size_t)(2 - k) * sizeof(top[0]));
					top[k] = r;
					break;
				}
		}
		if (!any)
			continue;
		size_t u = strlen(c->interference);
		snprintf(c->interference + u, sizeof(c->interference) - u, "%sCPU %d:",
			 u ? "; " : "", cpu);
		for (int k = 0; k < 3 && top[k] >= 0; k++) {
			u = strlen(c->interference);
			snprintf(c->interference + u, sizeof(c->interference) - u, "%s %lld %s",
				 k ? "," : "", (long long)csv_table_checked(&t, top[k], "count"),
				 field(&t, top[k], "source"));
		}
		u = strlen(c->interference);
		c->intf_cpus++;
		if (steal >= 0) {	/* a row of 0 says nothing was stolen: counted, not worded */
			int64_t ms = csv_table_checked(&t, steal, "count");

			c->steal_cpus++;
			if (ms > 0) {
				/* bounded above: a sum that cannot overflow, checked all the same */
				if (__builtin_add_overflow(c->steal_ms, ms, &c->steal_ms))
					c->steal_ms = INT64_MAX;
				snprintf(c->interference + u, sizeof(c->interference) - u,
					 "%s %lld ms stolen by the hypervisor", top[0] >= 0 ? "," : "",
					 (long long)ms);
				u = strlen(c->interference);
			}
		}
		if (smi >= 0 && field(&t, smi, "count")[0])
			snprintf(c->interference + u, sizeof(c->interference) - u, ", %lld SMI",
				 (long long)csv_table_checked(&t, smi, "count"));
		else if (smi >= 0)
			snprintf(c->interference + u, sizeof(c->interference) - u, ", SMI unavailable");
	}
	csv_table_free(&t);
	return rc;
}

/*
 * A capture's figures are the cell's: its number 1 up (once each), one of
 * its threads, a CPU, a time within the cell, a latency no larger than
 * the cell's wake-up maximum (the capture is one of its wake-ups), a
 * complete flag, and the kernel's own account not below 0.
 */
static int spike_row_fits(const struct tcell *c, const struct csv_table *t, int r, int64_t max,
			  char *err, size_t len)
{
	char bound[96];
	int rc;

	snprintf(bound, sizeof(bound), "outside the %.3f s the cell took", c->span_ns / 1e9);
	rc = row_within(t, r, "capture", 1, INT32_MAX, "captures are numbered from 1", err, len);
	for (int q = 1; rc == 0 && q < r; q++)
		if (csv_table_checked(t, q, "capture") == csv_table_checked(t, r, "capture")) {
			snprintf(err, len, "%.400s:%d: capture %lld again (line %d)", t->path,
				 t->line[r], (long long)csv_table_checked(t, r, "capture"), t->line[q]);
			return -EINVAL;
		}
	if (rc == 0)
		rc = row_within(t, r, "thread", 0, c->nthreads - 1, "not one of the cell's threads",
				err, len);
	if (rc == 0)
		rc = row_within(t, r, "cpu", 0, CPU_SETSIZE - 1, "not a CPU", err, len);
	if (rc == 0)
		rc = row_within(t, r, "t_ns", 0, c->span_ns + SPAN_SLACK_NS, bound, err, len);
	if (rc == 0) {
		snprintf(bound, sizeof(bound), "above the cell's wake-up maximum, %lld ns",
			 (long long)max);
		rc = row_within(t, r, "latency_ns", 0, max, bound, err, len);
	}
	if (rc == 0)
		rc = row_within(t, r, "complete", 0, 1, "complete is 0 or 1", err, len);
	const char *cols = "steal_ns,os_irq_ns,os_softirq_ns,os_thread_ns,os_nmi_ns";
	char col[32];

	while (rc == 0 && next_name(&cols, col, sizeof(col))) {
		if (csv_table_col(t, col) < 0 || !field(t, r, col)[0])
			continue;	/* older trees, or none measured */
		rc = row_ints(t, r, col, err, len);
		if (rc == 0)
			rc = row_within(t, r, col, 0, INT64_MAX, "below 0", err, len);
	}
	return rc;
}

/* spikes.csv, where the cell traced: each capture, checked. */
static int read_spikes(struct tcell *c, char *err, size_t len)
{
	struct csv_table t;
	int rc;

	rc = optional_csv(c->dir, cell_file_name(CELLF_SPIKES), &t, err, len);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = has_columns(&t, SPIKES_COLUMNS, err, len);
	c->spikes = t.nrows > 1 ? calloc((size_t)t.nrows - 1, sizeof(*c->spikes)) : NULL;
	if (rc == 0 && t.nrows > 1 && !c->spikes)
		rc = -ENOMEM;
	int64_t max = c->wakeup ? c->wakeup->max : 0;

	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		struct tspike *s = &c->spikes[r - 1];

		rc = row_ints(&t, r, "capture,thread,cpu,t_ns,latency_ns,complete", err, len);
		if (rc == 0)
			rc = spike_row_fits(c, &t, r, max, err, len);
		if (rc)
			break;
		s->capture = csv_table_checked(&t, r, "capture");
		s->thread = csv_table_checked(&t, r, "thread");
		s->t_ns = csv_table_checked(&t, r, "t_ns");
		s->latency_ns = csv_table_checked(&t, r, "latency_ns");
		s->complete = csv_table_checked(&t, r, "complete") == 1;
		copy(s->kind, sizeof(s->kind), field(&t, r, "culprit_kind"));
		copy(s->culprit, sizeof(s->culprit), field(&t, r, "culprit"));
		if (!s->complete)
			continue;	/* its parts are empty: not guessed */
		int64_t sum = 0;

		for (int p = 0; rc == 0 && p < SPIKE_PARTS; p++) {
			const char *col = spike_part_column(p);

			rc = row_ints(&t, r, col, err, len);
			if (rc == 0)
				rc = row_within(&t, r, col, 0, s->latency_ns, "a part of the latency "
						"below 0 or above it", err, len);
			s->part_ns[p] = rc ? 0 : csv_table_checked(&t, r, col);
			sum += s->part_ns[p];	/* each at most the latency: no overflow */
		}
		if (rc == 0 && sum > s->latency_ns) {
			snprintf(err, len, "%.400s:%d: its parts add up to %lld ns, more than its latency_ns %lld",
				 t.path, t.line[r], (long long)sum, (long long)s->latency_ns);
			rc = -EINVAL;
		}
		if (rc == 0)
			rc = row_ints(&t, r, "culprit_ns", err, len);
		if (rc == 0)
			rc = row_within(&t, r, "culprit_ns", 0, s->latency_ns,
					"the culprit's share below 0 or above the latency", err, len);
		if (rc == 0)
			s->culprit_ns = csv_table_checked(&t, r, "culprit_ns");
	}
	if (rc == 0) {
		c->traced = 1;
		c->nspikes = t.nrows > 1 ? t.nrows - 1 : 0;
	}
	csv_table_free(&t);
	return rc;
}

/*
 * A cell's rows of cells.csv: [first, end), together (tree_read reads a
 * cell from its first row to the next cell's), so nothing below scans the
 * whole file once per cell.
 */
struct rows {
	const struct csv_table *t;
	int first, end;
};

/* Has the cell a row of `metric`? */
static int cell_lists_metric(const struct rows *rs, const char *metric)
{
	for (int r = rs->first; r < rs->end; r++)
		if (!strcmp(field(rs->t, r, "metric"), metric))
			return 1;
	return 0;
}

/* The exact min and max over threads, from the cell's rows of a metric. */
static void exact_bounds(struct hist *h, const struct rows *rs, const char *metric)
{
	const struct csv_table *t = rs->t;
	int first = 1;

	for (int r = rs->first; r < rs->end; r++) {
		if (strcmp(field(t, r, "metric"), metric))
			continue;
		int64_t lo = csv_table_checked(t, r, "min_ns"), hi = csv_table_checked(t, r, "max_ns");

		if (first || lo < h->min)
			h->min = lo;
		if (first || hi > h->max)
			h->max = hi;
		first = 0;
	}
}

/* A path component from a file: one name, never a way out of the tree. */
static int safe_name(const char *s)
{
	return s[0] && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

#define CELL_INTS "index,interval_ns,priority,size,repeat"
#define MEASURED_INTS "thread,samples,min_ns,p99_ns,max_ns,overruns,errors,bytes"

/* Every row of the cell beginning at row r0 of cells.csv is whole. */
static int check_rows(const struct tcell *c, const struct csv_table *cs, int r0,
		      char *err, size_t len)
{
	double v;

	/* a pending cell has no host or release yet; what it has is a name too */
	int pending = strcmp(c->status, "pending") == 0;

	if (!safe_name(c->id) ||
	    (!safe_name(c->host) && !(pending && !c->host[0])) ||
	    (!safe_name(c->release) && !(pending && !c->release[0]))) {
		snprintf(err, len, "%s:%d: cell '%.40s', host '%.40s', kernel_release '%.40s': not names of directories",
			 cs->path, cs->line[r0], c->id, c->host, c->release);
		return -EINVAL;
	}
	if (cell_status_parse(c->status) < 0) {
		snprintf(err, len, "%s:%d: status '%.20s' is not a cell status",
			 cs->path, cs->line[r0], c->status);
		return -EINVAL;
	}
	for (int r = r0; r < cs->nrows && !strcmp(field(cs, r, "cell"), c->id); r++) {
		if (row_ints(cs, r, CELL_INTS, err, len))
			return -EINVAL;
		if (field(cs, r, "samples")[0] == '\0')
			continue;	/* not measured: its statistics are empty */
		if (row_ints(cs, r, MEASURED_INTS, err, len) ||
		    csv_table_num(cs, r, "bytes_per_s", &v, err, len) ||
		    metric_parse(field(cs, r, "metric")) < 0) {
			if (metric_parse(field(cs, r, "metric")) < 0)
				snprintf(err, len, "%s:%d: metric '%.20s' is not one of %s",
					 cs->path, cs->line[r], field(cs, r, "metric"),
					 METRIC_NAMES);
			return -EINVAL;
		}
	}
	return 0;
}

static int add_cell(struct tree *t, const struct csv_table *cs, int r,
		    char *err, size_t len)
{
	struct tcell *c;
	struct tcell *cells = realloc(t->cell, (size_t)(t->n + 1) * sizeof(*c));

	if (!cells)
		return -ENOMEM;
	t->cell = cells;
	c = &t->cell[t->n++];
	memset(c, 0, sizeof(*c));
	copy(c->id, sizeof(c->id), field(cs, r, "cell"));
	copy(c->host, sizeof(c->host), field(cs, r, "host"));
	copy(c->release, sizeof(c->release), field(cs, r, "kernel_release"));
	copy(c->kernel, sizeof(c->kernel), field(cs, r, "kernel"));
	copy(c->load, sizeof(c->load), field(cs, r, "load"));
	copy(c->workload, sizeof(c->workload), field(cs, r, "workload"));
	copy(c->threads, sizeof(c->threads), field(cs, r, "threads"));
	copy(c->affinity, sizeof(c->affinity), field(cs, r, "affinity"));
	copy(c->status, sizeof(c->status), field(cs, r, "status"));
	copy(c->reason, sizeof(c->reason), field(cs, r, "reason"));
	copy(c->policy, sizeof(c->policy), field(cs, r, "policy"));
	copy(c->why, sizeof(c->why), field(cs, r, "why"));
	copy(c->dma_latency, sizeof(c->dma_latency),
	     field(cs, r, "dma_latency")[0] ? field(cs, r, "dma_latency") : "0");
	copy(c->numa, sizeof(c->numa), field(cs, r, "numa")[0] ? field(cs, r, "numa") : "none");
	copy(c->preempt, sizeof(c->preempt),
	     strcmp(field(cs, r, "preempt"), "unknown") == 0 ? "" : field(cs, r, "preempt"));
	if (check_rows(c, cs, r, err, len))
		return -EINVAL;
	c->index = csv_table_checked(cs, r, "index");
	c->interval = csv_table_checked(cs, r, "interval_ns");
	c->priority = csv_table_checked(cs, r, "priority");
	c->size = csv_table_checked(cs, r, "size");
	c->repeat = csv_table_checked(cs, r, "repeat");
	c->line = cs->line[r];
	if (cell_path(c->dir, sizeof(c->dir), t->dir, c->host, c->release, c->id)) {
		snprintf(err, len, "%s:%d: the cell's directory is too long a path",
			 cs->path, cs->line[r]);
		return -EINVAL;
	}
	return 0;
}

/*
 * When the cell ran: cell.ini's started_ns, or (a tree from before it) its
 * started (UTC, whole seconds), and elapsed_ns.
 */
static void cell_started(struct tcell *c)
{
	char text[40], *end;
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	cell_ini_get(c->dir, CELLF_INI, "cell", "started_ns", text, sizeof(text));
	c->started = strtoll(text, &end, 10);
	if (end != text && !*end && c->started > 0)
		goto elapsed;
	cell_ini_get(c->dir, CELLF_INI, "cell", "started", text, sizeof(text));
	end = strptime(text, "%Y-%m-%dT%H:%M:%SZ", &tm);
	c->started = end && !*end ? (int64_t)timegm(&tm) * 1000000000LL : 0;
elapsed:
	cell_ini_get(c->dir, CELLF_INI, "cell", "elapsed_ns", text, sizeof(text));
	c->elapsed_ns = strtoll(text, &end, 10);
	if (end == text || *end || c->elapsed_ns < 0)
		c->elapsed_ns = 0;
}

/*
 * The metric the cell's workload exists for: cell.ini's `metric`, else (a
 * tree from before it) what the workload of that name declares, else the
 * wake-up; always one the cell has a histogram of.
 */
static int cell_primary(const struct tcell *c)
{
	char name[32];
	const struct workload_ops *w = workload_find(c->workload);
	int m;

	cell_ini_get(c->dir, CELLF_INI, "cell", "metric", name, sizeof(name));
	m = metric_parse(name);
	if (m < 0 && w)
		m = w->primary;
	return m >= 0 && m < METRIC_COUNT && c->metric[m] ? m : METRIC_WAKEUP;
}

/*
 * cells.csv's rows of a cell repeat its summary.csv: each row is one of
 * summary's, every summary column the same text. A number edited in one
 * and not the other is damage, not a figure.
 */
static int check_listed(const struct rows *rs, const struct csv_table *s,
			char *err, size_t len)
{
	const struct csv_table *cs = rs->t;

	for (int r = rs->first; r < rs->end; r++) {
		const char *names = SUMMARY_COLUMNS, *thread = field(cs, r, "thread"),
			   *metric = field(cs, r, "metric");
		char name[32];
		int k = 1;

		while (k < s->nrows && (strcmp(field(s, k, "thread"), thread) ||
					strcmp(field(s, k, "metric"), metric)))
			k++;
		if (k == s->nrows) {
			snprintf(err, len, "%.400s:%d: thread %.20s's %.20s is not in %.400s", cs->path,
				 cs->line[r], thread, metric, s->path);
			return -EINVAL;
		}
		while (next_name(&names, name, sizeof(name)))
			if (strcmp(field(cs, r, name), field(s, k, name))) {
				snprintf(err, len, "%.400s:%d: %s = '%.30s', but %.400s:%d says '%.30s'",
					 cs->path, cs->line[r], name, field(cs, r, name),
					 s->path, s->line[k], field(s, k, name));
				return -EINVAL;
			}
	}
	return 0;
}

static int measure_cell(struct tcell *c, const struct rows *rs, char *err,
			size_t len)
{
	const struct csv_table *cs = rs->t;
	struct cell_files f;
	uint64_t listed = 0;
	double io_sum = 0, io_n = 0;
	int rc;

	/* per thread: overruns, errors, bytes (the wakeup row of each); io's p99 and mean */
	for (int r = rs->first; r < rs->end; r++) {
		const char *metric = field(cs, r, "metric");

		if (field(cs, r, "samples")[0] == '\0')
			return 0;	/* not measured */
		if (!strcmp(metric, "io")) {
			if (csv_table_checked(cs, r, "p99_ns") > c->io_p99)
				c->io_p99 = csv_table_checked(cs, r, "p99_ns");
			io_sum += (double)csv_table_checked(cs, r, "mean_ns") *
				  (double)csv_table_checked(cs, r, "samples");
			io_n += (double)csv_table_checked(cs, r, "samples");
		}
		if (strcmp(metric, "wakeup"))
			continue;
		c->nthreads++;
		listed += (uint64_t)csv_table_checked(cs, r, "samples");
		/* its periods, kept and missed, at its interval: how long it measured */
		double periods = (double)csv_table_checked(cs, r, "samples") +
				 (double)csv_table_checked(cs, r, "overruns");

		if (periods * (double)c->interval > (double)c->span_ns)
			c->span_ns = periods * (double)c->interval < 9e18 ?
				     (int64_t)(periods * (double)c->interval) : INT64_MAX / 2;
		c->overruns += (uint64_t)csv_table_checked(cs, r, "overruns");
		/* from samples and overruns, so trees from before missed_pct have it too */
		double missed = missed_pct((uint64_t)csv_table_checked(cs, r, "samples"),
					   (uint64_t)csv_table_checked(cs, r, "overruns"));

		if (missed > c->missed_pct) {
			c->missed_pct = missed;
			c->missed_thread = (int)csv_table_checked(cs, r, "thread");
		}
		c->errors += (uint64_t)csv_table_checked(cs, r, "errors");
		c->bytes += (uint64_t)csv_table_checked(cs, r, "bytes");
		c->bytes_per_s += strtod(field(cs, r, "bytes_per_s"), NULL);
	}
	c->io_mean = io_n > 0 ? io_sum / io_n : 0;
	if (!c->nthreads)
		return 0;	/* cells.csv lists nothing measured */
	c->bytes_per_s /= c->nthreads;
	rc = cell_files_read(c->dir, &f, err, len);
	if (rc == 0)
		rc = check_listed(rs, &f.summary, err, len);
	if (rc) {
		cell_files_free(&f);
		return rc;
	}
	/* the core three always; a workload's own metrics where it has rows */
	for (int m = 0; m < METRIC_COUNT; m++) {
		if (m >= METRIC_CORE && !cell_lists_metric(rs, metric_name(m)))
			continue;
		c->metric[m] = malloc(sizeof(*c->metric[m]));
		if (!c->metric[m]) {
			cell_files_free(&f);
			return -ENOMEM;
		}
		hist_init(c->metric[m]);
		add_hist(&f.hist, metric_name(m), c->metric[m]);
		exact_bounds(c->metric[m], rs, metric_name(m));
	}
	cell_files_free(&f);
	c->wakeup = c->metric[METRIC_WAKEUP];
	c->response = c->metric[METRIC_RESPONSE];
	if (c->wakeup->count != listed) {
		snprintf(err, len, "%s/hist.csv: %llu wake-ups, cells.csv says %llu",
			 c->dir, (unsigned long long)c->wakeup->count,
			 (unsigned long long)listed);
		return -EINVAL;
	}
	c->measured = c->wakeup->count > 0;
	c->primary = cell_primary(c);
	cell_started(c);
	if (c->elapsed_ns > c->span_ns)
		c->span_ns = c->elapsed_ns;
	c->emulated = tcell_emulated(c);
	rc = read_spikes(c, err, len);
	if (rc == 0)
		rc = read_series(c, err, len);
	if (rc == 0)
		rc = read_interference(c, err, len);
	if (rc == 0)
		rc = read_timeline(c, err, len);
	return rc ? rc : load_rate(c->dir, &c->load_ops_per_s, err, len);
}

/* A cell whose files cannot be trusted: kept in the list, not measured. */
static int mark_bad(struct tree *t, struct tcell *c, const char *why)
{
	for (int m = 0; m < METRIC_COUNT; m++) {
		free(c->metric[m]);
		c->metric[m] = NULL;
	}
	free(c->spikes);
	free(c->runmax);
	c->wakeup = c->response = NULL;
	c->spikes = NULL;
	c->runmax = NULL;
	c->nsec = 0;
	c->nspikes = c->traced = 0;
	c->measured = 0;
	c->nthreads = 0;
	c->bad = strdup(why);
	t->nbad++;
	return c->bad ? 0 : -ENOMEM;
}

static int by_id(const void *a, const void *b)
{
	const struct tcell *const *x = a, *const *y = b;

	return strcmp((*x)->id, (*y)->id);
}

/*
 * A cell whose rows stand in two places of cells.csv (not one after the
 * other) is not two cells: every copy is left out, named with both lines.
 * Sorted by id: O(n log n) for any tree.
 */
static int left_out_twice(struct tree *t)
{
	struct tcell **by = malloc((size_t)t->n * sizeof(*by));
	char why[256];
	int rc = 0;

	if (!by)
		return t->n ? -ENOMEM : 0;
	for (int i = 0; i < t->n; i++)
		by[i] = &t->cell[i];
	qsort(by, (size_t)t->n, sizeof(*by), by_id);
	for (int i = 1; rc == 0 && i < t->n; i++) {
		if (strcmp(by[i - 1]->id, by[i]->id))
			continue;
		snprintf(why, sizeof(why), "cells.csv lists it twice, at lines %d and %d",
			 by[i - 1]->line < by[i]->line ? by[i - 1]->line : by[i]->line,
			 by[i - 1]->line < by[i]->line ? by[i]->line : by[i - 1]->line);
		for (int k = i - 1; rc == 0 && k <= i; k++)
			if (!by[k]->bad)
				rc = mark_bad(t, by[k], why);
	}
	free(by);
	return rc;
}

/* The campaign trees right below dir (an output root): "a, b" into buf. */
static void campaigns_in(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[PATH_MAX + 300];
	size_t used = 0;

	buf[0] = '\0';
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!tree_is_campaign(sub) || used + strlen(e->d_name) + 3 >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->d_name);
	}
	if (d)
		closedir(d);
}

int tree_read(struct tree *t, const char *dir, char *err, size_t errlen)
{
	struct csv_table cs;
	char path[PATH_MAX + 600], why[PATH_MAX + 1024];
	int rc;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/cells.csv", dir);
	rc = csv_table_read(path, &cs, err, errlen);
	if (rc == -ENOENT || rc == -ENOTDIR) {
		char names[512];

		campaigns_in(dir, names, sizeof(names));
		if (names[0])
			snprintf(err, errlen, "%s: %s (not a latlab results directory: it holds the campaigns %s; name one, as %s/%.*s)",
				 path, strerror(-rc), names, dir, (int)strcspn(names, ","), names);
		else
			snprintf(err, errlen, "%s: %s (not a latlab results directory)",
				 path, strerror(-rc));
	}
	if (rc)
		return rc;
	if (has_columns(&cs, CELLS_REQUIRED SUMMARY_COLUMNS, err, errlen)) {
		csv_table_free(&cs);
		return -EINVAL;
	}
	if (cs.nrows > 1)
		snprintf(t->campaign, sizeof(t->campaign), "%s",
			 field(&cs, 1, "campaign"));
	for (int r = 1; r < cs.nrows && rc == 0; r++) {
		const char *id = field(&cs, r, "cell");

		if (t->n && strcmp(t->cell[t->n - 1].id, id) == 0)
			continue;	/* rows of a cell are together */
		struct rows rs = { &cs, r, r + 1 };

		while (rs.end < cs.nrows && strcmp(field(&cs, rs.end, "cell"), id) == 0)
			rs.end++;
		rc = add_cell(t, &cs, r, why, sizeof(why));
		if (rc == 0 && strcmp(t->cell[t->n - 1].status, "pending"))
			rc = measure_cell(&t->cell[t->n - 1], &rs, why, sizeof(why));
		if (rc && rc != -ENOMEM)
			rc = mark_bad(t, &t->cell[t->n - 1], why);
		if (rc)
			snprintf(err, errlen, "%s: out of memory", path);
	}
	if (rc == 0 && (rc = left_out_twice(t)) != 0)
		snprintf(err, errlen, "%s: out of memory", path);
	csv_table_free(&cs);
	if (rc)
		tree_free(t);
	return rc;
}

void tree_free(struct tree *t)
{
	for (int i = 0; i < t->n; i++) {
		free(t->cell[i].bad);
		for (int m = 0; m < METRIC_COUNT; m++)
			free(t->cell[i].metric[m]);
		free(t->cell[i].spikes);
		free(t->cell[i].runmax);
	}
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

int tree_log_damaged(const struct tree *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->cell[i].bad)
			log_error("cell %s left out: %s", t->cell[i].id, t->cell[i].bad);
	return t->nbad;
}

void tcell_key(const struct tcell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%s|%s|%s|%lld|%lld|%lld|%s|%s|%s|%lld", c->load,
		 c->workload, c->threads, c->affinity, (long long)c->interval,
		 (long long)c->priority, (long long)c->size, c->policy,
		 c->dma_latency, c->numa, (long long)c->repeat);
}

/* Was the numa axis set for c (not none, the default, nor empty)? */
static int numa_set(const struct tcell *c)
{
	return c->numa[0] && strcmp(c->numa, "none") != 0;
}

void tcell_row_title(const struct tcell *c, char *buf, size_t len)
{
	/* every axis of the row's key: rows that differ in one differ here */
	snprintf(buf, len, "%s, %s, threads %s, affinity %s, %.0f µs, priority %lld, size %lld, %s, dma_latency %s",
		 c->load, c->workload, c->threads, c->affinity, (double)c->interval / 1000.0,
		 (long long)c->priority, (long long)c->size, c->policy, c->dma_latency);
	/* numa came last: said where it is not the default, so older titles read as then */
	if (numa_set(c))
		snprintf(buf + strlen(buf), len - strlen(buf), ", numa %s", c->numa);
}

int tcell_same_side(const struct tcell *a, const struct tcell *b)
{
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->host, b->host) &&
	       !strcmp(a->release, b->release);
}

/* ROW_COLUMNS of c, the one of `axis` empty (along the kernel, none is). */
static void row_fields(struct csvw *w, const struct tcell *c, int axis)
{
	axis == TAXIS_LOAD ? csvw_str(w, "") : csvw_str(w, c->load);
	axis == TAXIS_WORKLOAD ? csvw_str(w, "") : csvw_str(w, c->workload);
	axis == TAXIS_THREADS ? csvw_str(w, "") : csvw_str(w, c->threads);
	axis == TAXIS_AFFINITY ? csvw_str(w, "") : csvw_str(w, c->affinity);
	axis == TAXIS_INTERVAL ? csvw_str(w, "") : csvw_int(w, c->interval);
	axis == TAXIS_PRIORITY ? csvw_str(w, "") : csvw_int(w, c->priority);
	axis == TAXIS_SIZE ? csvw_str(w, "") : csvw_int(w, c->size);
	axis == TAXIS_POLICY ? csvw_str(w, "") : csvw_str(w, c->policy);
	axis == TAXIS_DMA ? csvw_str(w, "") : csvw_str(w, c->dma_latency);
	axis == TAXIS_NUMA ? csvw_str(w, "") : csvw_str(w, c->numa);
}

void tcell_row_fields(struct csvw *w, const struct tcell *c)
{
	row_fields(w, c, TAXIS_KERNEL);
}

int taxis_parse(const char *name)
{
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (strcmp(taxis_name(a), name) == 0)
			return a;
	return -1;
}

const char *taxis_name(int axis)
{
	static const char *const names[TAXIS_COUNT] = {
		"kernel", "host", "load", "workload", "threads", "affinity", "interval",
		"priority", "size", "policy", "dma_latency", "numa",
	};

	return axis >= 0 && axis < TAXIS_COUNT ? names[axis] : "?";
}

void tcell_axis_value(const struct tcell *c, int axis, char *buf, size_t len)
{
	switch (axis) {
	case TAXIS_KERNEL:
		snprintf(buf, len, "%s@%s:%s", c->kernel, c->host, c->release);
		break;
	case TAXIS_HOST:
		snprintf(buf, len, "%s:%s", c->host, c->release);
		break;
	case TAXIS_LOAD:
		snprintf(buf, len, "%s", c->load);
		break;
	case TAXIS_WORKLOAD:
		snprintf(buf, len, "%s", c->workload);
		break;
	case TAXIS_THREADS:
		snprintf(buf, len, "threads %s", c->threads);
		break;
	case TAXIS_AFFINITY:
		snprintf(buf, len, "affinity %s", c->affinity);
		break;
	case TAXIS_INTERVAL:
		snprintf(buf, len, "%.0fus", (double)c->interval / 1000.0);
		break;
	case TAXIS_PRIORITY:
		snprintf(buf, len, "priority %lld", (long long)c->priority);
		break;
	case TAXIS_SIZE:
		snprintf(buf, len, "size %lld", (long long)c->size);
		break;
	case TAXIS_POLICY:
		snprintf(buf, len, "%s", c->policy);
		break;
	case TAXIS_NUMA:
		snprintf(buf, len, "numa %s", c->numa);
		break;
	default:
		snprintf(buf, len, "dma_latency %s", c->dma_latency);
		break;
	}
}

void tcell_row_key_along(const struct tcell *c, int axis, char *buf, size_t len)
{
	char v[TAXIS_COUNT][TAXIS_VALUE_MAX];

	for (int a = 0; a < TAXIS_COUNT; a++)
		tcell_axis_value(c, a, v[a], sizeof(v[a]));
	/* along the kernel the host goes too (a side is a variant on a host); along the host, the kernel's name stays */
	if (axis == TAXIS_KERNEL || axis == TAXIS_HOST)
		v[TAXIS_KERNEL][0] = v[TAXIS_HOST][0] = '\0';
	if (axis == TAXIS_HOST)
		snprintf(v[TAXIS_KERNEL], sizeof(v[0]), "%s", c->kernel);
	v[axis][0] = '\0';
	buf[0] = '\0';
	for (int a = 0; a < TAXIS_COUNT; a++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s|", v[a]);
}

int tcell_same_side_along(const struct tcell *a, const struct tcell *b, int axis)
{
	char x[TAXIS_VALUE_MAX], y[TAXIS_VALUE_MAX];

	if (axis == TAXIS_KERNEL)
		return tcell_same_side(a, b);
	tcell_axis_value(a, axis, x, sizeof(x));
	tcell_axis_value(b, axis, y, sizeof(y));
	return strcmp(x, y) == 0;
}

void tcell_row_title_along(const struct tcell *c, int axis, char *buf, size_t len)
{
	char v[TAXIS_COUNT][TAXIS_VALUE_MAX];
	const int order[] = {
		TAXIS_LOAD, TAXIS_WORKLOAD, TAXIS_THREADS, TAXIS_AFFINITY, TAXIS_INTERVAL,
		TAXIS_PRIORITY, TAXIS_SIZE, TAXIS_POLICY, TAXIS_DMA, TAXIS_NUMA,
	};

	if (axis == TAXIS_KERNEL) {
		tcell_row_title(c, buf, len);
		return;
	}
	for (int a = 0; a < TAXIS_COUNT; a++)
		tcell_axis_value(c, a, v[a], sizeof(v[a]));
	snprintf(v[TAXIS_INTERVAL], sizeof(v[0]), "%.0f µs", (double)c->interval / 1000.0);
	if (axis == TAXIS_HOST)
		snprintf(buf, len, "%s", c->kernel);
	else
		snprintf(buf, len, "%s", v[TAXIS_KERNEL]);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i] != axis && (order[i] != TAXIS_NUMA || numa_set(c)))
			snprintf(buf + strlen(buf), len - strlen(buf), ", %s", v[order[i]]);
}

/* "1 ms", "200 µs", "1.5 ms", "2 s": an interval for people. */
static void interval_words(int64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000 && ns % 10000000 == 0)
		snprintf(buf, len, "%g s", (double)ns / 1e9);
	else if (ns >= 1000000 && ns % 10000 == 0)
		snprintf(buf, len, "%g ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%g µs", (double)ns / 1e3);
}

/* "1 thread on CPU 1", "2 threads, one CPU each", "a thread per CPU, unpinned" */
static void threads_words(const struct tcell *c, char *buf, size_t len)
{
	char who[48];
	const char *a = c->affinity;

	if (strcmp(c->threads, "all") == 0)
		snprintf(who, sizeof(who), "a thread per CPU");
	else
		snprintf(who, sizeof(who), "%s thread%s", c->threads,
			 strcmp(c->threads, "1") == 0 ? "" : "s");
	if (strcmp(a, "spread") == 0)
		snprintf(buf, len, "%s, one CPU each", who);
	else if (strcmp(a, "all") == 0)
		snprintf(buf, len, "%s, unpinned", who);
	else if (strcmp(a, "isolated") == 0)
		snprintf(buf, len, "%s on the isolated CPUs", who);
	else if (strncmp(a, "node:", 5) == 0)
		snprintf(buf, len, "%s on node %s", who, a + 5);
	else
		snprintf(buf, len, "%s on CPU%s %s", who, a[strspn(a, "0123456789")] ? "s" : "", a);
}

void tcell_row_words_omit(const struct tcell *c, unsigned omit, int terse, char *buf, size_t len)
{
	char part[TAXIS_COUNT][TAXIS_VALUE_MAX];
	int n = 0;
#define SHOWN(a) (!(omit & (1u << (a))))

	if (SHOWN(TAXIS_KERNEL))
		snprintf(part[n++], sizeof(part[0]), "%s", c->kernel);
	if (SHOWN(TAXIS_LOAD))
		snprintf(part[n++], sizeof(part[0]), "%s",
			 strcmp(c->load, "none") == 0 ? "no load" : c->load);
	if (SHOWN(TAXIS_WORKLOAD))
		snprintf(part[n++], sizeof(part[0]), "%s", c->workload);
	if (SHOWN(TAXIS_THREADS) && SHOWN(TAXIS_AFFINITY))
		threads_words(c, part[n++], sizeof(part[0]));
	else if (SHOWN(TAXIS_AFFINITY))
		snprintf(part[n++], sizeof(part[0]), "affinity %s", c->affinity);
	else if (SHOWN(TAXIS_THREADS))
		snprintf(part[n++], sizeof(part[0]), "%s thread%s", c->threads,
			 strcmp(c->threads, "1") == 0 ? "" : "s");
	if (SHOWN(TAXIS_INTERVAL))
		interval_words(c->interval, part[n++], sizeof(part[0]));
	const char *pol = strcmp(c->policy, "fifo") == 0 ? "FIFO" :
			  strcmp(c->policy, "rr") == 0 ? "RR" :
			  strcmp(c->policy, "other") == 0 ? "SCHED_OTHER" : c->policy;
	int rt = strcmp(c->policy, "fifo") == 0 || strcmp(c->policy, "rr") == 0;

	if (SHOWN(TAXIS_POLICY) && SHOWN(TAXIS_PRIORITY) && rt)
		snprintf(part[n++], sizeof(part[0]), "%s %lld", pol, (long long)c->priority);
	else if (SHOWN(TAXIS_POLICY))
		snprintf(part[n++], sizeof(part[0]), "%s", pol);
	else if (SHOWN(TAXIS_PRIORITY))
		snprintf(part[n++], sizeof(part[0]), "priority %lld", (long long)c->priority);
	/* terse: the size only where the workload moves bytes, dma_latency where not the default */
	if (SHOWN(TAXIS_SIZE) && (!terse || (strcmp(c->workload, "timer") != 0 &&
					     strcmp(c->workload, "noise") != 0))) {
		char size[32];

		units_format_size(c->size, size, sizeof(size));
		snprintf(part[n++], sizeof(part[0]), "%s%s", size,
			 size[strspn(size, "0123456789")] ? "" : " B");
	}
	if (SHOWN(TAXIS_DMA) && (!terse || (strcmp(c->dma_latency, "0") != 0 && c->dma_latency[0])))
		snprintf(part[n++], sizeof(part[0]), "cpu_dma_latency %s", c->dma_latency);
	if (SHOWN(TAXIS_NUMA) && (!terse || numa_set(c))) {
		if (strncmp(c->numa, "node:", 5) == 0)
			snprintf(part[n++], sizeof(part[0]), "memory on node %s", c->numa + 5);
		else if (!numa_set(c))
			snprintf(part[n++], sizeof(part[0]), "memory where first touched");
		else
			snprintf(part[n++], sizeof(part[0]), "%s memory", strcmp(c->numa, "interleave") == 0 ?
				 "interleaved" : c->numa);
	}
#undef SHOWN
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " · " : "", part[i]);
}

void tcell_row_words(const struct tcell *c, int axis, char *buf, size_t len)
{
	/* along the host, the kernel variant is part of the row */
	tcell_row_words_omit(c, axis == TAXIS_HOST ? 0 : 1u << axis, 1, buf, len);
}

void tcell_row_fields_along(struct csvw *w, const struct tcell *c, int axis)
{
	char k[TAXIS_VALUE_MAX];

	row_fields(w, c, axis);
	if (axis == TAXIS_KERNEL)
		k[0] = '\0';
	else if (axis == TAXIS_HOST)
		snprintf(k, sizeof(k), "%s", c->kernel);
	else
		tcell_axis_value(c, TAXIS_KERNEL, k, sizeof(k));
	csvw_str(w, k);
}

int tcell_emulated(const struct tcell *c)
{
	char accel[32], clock[32];

	cell_ini_get(c->dir, CELLF_SYSINFO, "vm", "accel", accel, sizeof(accel));
	cell_ini_get(c->dir, CELLF_SYSINFO, "vm", "clock", clock, sizeof(clock));
	if (!accel[0] || strncmp(accel, "kvm", 3) == 0)
		return 0;
	return strcmp(clock, "icount") == 0 ? EMU_ICOUNT : EMU_TCG;
}

int tree_emulated(const struct tree *t)
{
	int kinds = 0;

	for (int i = 0; i < t->n; i++)
		kinds |= tcell_emulated(&t->cell[i]);
	return kinds;
}

int tree_is_campaign(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/cells.csv", dir);

	return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}
