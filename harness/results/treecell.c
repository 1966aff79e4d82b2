/*
 * A measured cell's files besides its histograms, each read strictly and
 * checked against what the cell can hold: series.csv, timeline.csv,
 * interference.csv, spikes.csv, load.csv (tree_parts.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellread.h"
#include "hist.h"
#include "metric.h"
#include "model.h"
#include "timeline.h"
#include "tree_parts.h"
#include "units.h"

/*
 * What a cell's time bounds (the steal of a CPU, a capture's moment):
 * its span and this much around it — the counters read before the start
 * (100 ms ahead) and after the threads end, /proc/stat's 10 ms ticks.
 */
#define SPAN_SLACK_NS NS_PER_S


/* hist.csv rows of `metric`, all threads, into h. */
void tr_add_hist(const struct csv_table *t, const char *metric, struct hist *h)
{
	for (int r = 1; r < t->nrows; r++)
		if (strcmp(tr_field(t, r, "metric"), metric) == 0)
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
	rc = tr_has_columns(&t, "t_s,thread,metric,max_ns", err, len);
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		rc = tr_row_ints(&t, r, "t_s,thread,max_ns", err, len);
		if (rc == 0 && (csv_table_checked(&t, r, "t_s") < 0 ||
				csv_table_checked(&t, r, "t_s") > 7 * 24 * 3600)) {
			snprintf(err, len, "%s:%d: t_s = %lld: not a second of a cell", t.path,
				 t.line[r], (long long)csv_table_checked(&t, r, "t_s"));
			rc = -EINVAL;
		}
		if (rc == 0 && csv_table_checked(&t, r, "t_s") > last)
			last = csv_table_checked(&t, r, "t_s");
	}
	/*
	 * a cell that measured has a maximum for its first second at least
	 * (not a watched program's: the kernel kept histograms, no seconds;
	 * nor cyclictest's: its histogram, no seconds)
	 */
	char by[32];

	cell_ini_get(c->dir, CELLF_INI, "cell", "measured_by", by, sizeof(by));
	if (rc == 0 && last < 0 && c->measured && c->wakeup->count && strcmp(by, "cyclictest") != 0) {
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

		if (strcmp(tr_field(&t, r, "metric"), "wakeup") == 0 && v > c->runmax[s])
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
	rc = tr_has_columns(&t, TIMELINE_COLUMNS, err, len);
	if (rc == 0 && !(c->tl = calloc((size_t)t.nrows + 1, sizeof(*c->tl))))
		rc = -ENOMEM;
	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		rc = tr_row_ints(&t, r, "t_s,thread,bin,lo_ns,hi_ns,count", err, len);
		if (rc)
			break;
		int64_t s = csv_table_checked(&t, r, "t_s"), bin = csv_table_checked(&t, r, "bin");

		if (s < 0 || s > 7 * 24 * 3600 || bin < 0 || bin >= 100 ||
		    csv_table_checked(&t, r, "count") < 0 ||
		    metric_parse(tr_field(&t, r, "metric")) < 0) {
			snprintf(err, len, "%s:%d: t_s %lld, metric '%.20s', bin %lld, count %lld: not a window's bin",
				 t.path, t.line[r], (long long)s, tr_field(&t, r, "metric"),
				 (long long)bin, (long long)csv_table_checked(&t, r, "count"));
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
		if (bin < TL_BINS)
			c->tl[c->ntl++] = (struct tl_row){
				.window = c->timeline_windows - 1,
				.metric = metric_parse(tr_field(&t, r, "metric")),
				.bin = (int)bin,
				.count = (uint64_t)csv_table_checked(&t, r, "count"),
			};
	}
	csv_table_free(&t);
	if (rc == 0 && c->timeline_windows == 1)
		c->timeline_window = 0;
	return rc;
}

int tcell_blocks(const struct tcell *c, int metric, uint64_t (**count)[TL_BINS])
{
	int windows = 0;

	*count = NULL;
	for (int i = 0; i < c->ntl; i++)
		if (c->tl[i].metric == metric && c->tl[i].window >= windows)
			windows = c->tl[i].window + 1;
	if (!windows)
		return 0;
	if (!(*count = calloc((size_t)windows, sizeof(**count))))
		return -ENOMEM;
	for (int i = 0; i < c->ntl; i++)
		if (c->tl[i].metric == metric)
			(*count)[c->tl[i].window][c->tl[i].bin] += c->tl[i].count;
	return windows;
}

/*
 * interference.csv's rows: a CPU, counts not below 0, one steal row a CPU
 * and its steal no more than the cell's time (and the reads around it).
 */
static int interference_rows_fit(const struct tcell *c, const struct csv_table *t, char *err,
				 size_t len)
{
	int64_t steal_max = (c->span_ns + SPAN_SLACK_NS) / NS_PER_MS;
	char bound[96];
	int rc = 0;

	snprintf(bound, sizeof(bound), "more than the %.3f s the cell took", c->span_ns / 1e9);
	for (int r = 1; rc == 0 && r < t->nrows; r++) {
		int steal = !strcmp(tr_field(t, r, "kind"), "steal"), counted = tr_field(t, r, "count")[0];

		rc = tr_row_ints(t, r, "cpu", err, len);
		if (rc == 0)
			rc = tr_row_within(t, r, "cpu", 0, CPU_SETSIZE - 1, "not a CPU", err, len);
		if (rc == 0 && counted)
			rc = tr_row_ints(t, r, "count", err, len);
		if (rc == 0 && counted)
			rc = tr_row_within(t, r, "count", 0, steal ? steal_max : INT64_MAX,
					   steal ? bound : "a count below 0", err, len);
		for (int q = 1; rc == 0 && steal && q < r; q++)
			if (!strcmp(tr_field(t, q, "kind"), "steal") &&
			    csv_table_checked(t, q, "cpu") == csv_table_checked(t, r, "cpu")) {
				snprintf(err, len, "%.400s:%d: a second steal row for CPU %lld (line %d has one)",
					 t->path, t->line[r], (long long)csv_table_checked(t, r, "cpu"),
					 t->line[q]);
				rc = -EINVAL;
			}
	}
	return rc;
}

/* CPU cpu's rows in words, after what c->interference has; its steal counted. */
static void interference_cpu(struct tcell *c, const struct csv_table *t, int cpu)
{
	int top[3] = { -1, -1, -1 }, smi = -1, steal = -1, any = 0;
	size_t u;

	for (int r = 1; r < t->nrows; r++) {
		const char *kind = tr_field(t, r, "kind");

		if (csv_table_checked(t, r, "cpu") != cpu)
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
		int64_t v = csv_table_checked(t, r, "count");
		for (int k = 0; k < 3; k++)
			if (top[k] < 0 || v > csv_table_checked(t, top[k], "count")) {
				memmove(&top[k + 1], &top[k], (size_t)(2 - k) * sizeof(top[0]));
				top[k] = r;
				break;
			}
	}
	if (!any)
		return;
	u = strlen(c->interference);
	snprintf(c->interference + u, sizeof(c->interference) - u, "%sCPU %d:", u ? "; " : "", cpu);
	for (int k = 0; k < 3 && top[k] >= 0; k++) {
		u = strlen(c->interference);
		snprintf(c->interference + u, sizeof(c->interference) - u, "%s %lld %s",
			 k ? "," : "", (long long)csv_table_checked(t, top[k], "count"),
			 tr_field(t, top[k], "source"));
	}
	u = strlen(c->interference);
	c->intf_cpus++;
	if (steal >= 0) {	/* a row of 0 says nothing was stolen: counted, not worded */
		int64_t ms = csv_table_checked(t, steal, "count");

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
	if (smi >= 0 && tr_field(t, smi, "count")[0])
		snprintf(c->interference + u, sizeof(c->interference) - u, ", %lld SMI",
			 (long long)csv_table_checked(t, smi, "count"));
	else if (smi >= 0)
		snprintf(c->interference + u, sizeof(c->interference) - u, ", SMI unavailable");
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
	cpu_set_t cpus;	/* the CPUs the file names: one pass over its rows each */
	int rc;

	rc = optional_csv(c->dir, cell_file_name(CELLF_INTERFERENCE), &t, err, len);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = tr_has_columns(&t, INTERFERENCE_COLUMNS, err, len);
	if (rc == 0)
		rc = interference_rows_fit(c, &t, err, len);
	CPU_ZERO(&cpus);
	for (int r = 1; rc == 0 && r < t.nrows; r++)
		CPU_SET((int)csv_table_checked(&t, r, "cpu"), &cpus);
	for (int cpu = 0; rc == 0 && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &cpus))
			interference_cpu(c, &t, cpu);
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
	rc = tr_row_within(t, r, "capture", 1, INT32_MAX, "captures are numbered from 1", err, len);
	for (int q = 1; rc == 0 && q < r; q++)
		if (csv_table_checked(t, q, "capture") == csv_table_checked(t, r, "capture")) {
			snprintf(err, len, "%.400s:%d: capture %lld again (line %d)", t->path,
				 t->line[r], (long long)csv_table_checked(t, r, "capture"), t->line[q]);
			return -EINVAL;
		}
	if (rc == 0)
		rc = tr_row_within(t, r, "thread", 0, c->nthreads - 1, "not one of the cell's threads",
				err, len);
	if (rc == 0)
		rc = tr_row_within(t, r, "cpu", 0, CPU_SETSIZE - 1, "not a CPU", err, len);
	if (rc == 0)
		rc = tr_row_within(t, r, "t_ns", 0, c->span_ns + SPAN_SLACK_NS, bound, err, len);
	if (rc == 0) {
		snprintf(bound, sizeof(bound), "above the cell's wake-up maximum, %lld ns",
			 (long long)max);
		rc = tr_row_within(t, r, "latency_ns", 0, max, bound, err, len);
	}
	if (rc == 0)
		rc = tr_row_within(t, r, "complete", 0, 1, "complete is 0 or 1", err, len);
	const char *cols = "steal_ns,os_irq_ns,os_softirq_ns,os_thread_ns,os_nmi_ns";
	char col[32];

	while (rc == 0 && tr_next_name(&cols, col, sizeof(col))) {
		if (csv_table_col(t, col) < 0 || !tr_field(t, r, col)[0])
			continue;	/* older trees, or none measured */
		rc = tr_row_ints(t, r, col, err, len);
		if (rc == 0)
			rc = tr_row_within(t, r, col, 0, INT64_MAX, "below 0", err, len);
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
	rc = tr_has_columns(&t, SPIKES_COLUMNS, err, len);
	c->spikes = t.nrows > 1 ? calloc((size_t)t.nrows - 1, sizeof(*c->spikes)) : NULL;
	if (rc == 0 && t.nrows > 1 && !c->spikes)
		rc = -ENOMEM;
	int64_t max = c->wakeup ? c->wakeup->max : 0;

	for (int r = 1; rc == 0 && r < t.nrows; r++) {
		struct tspike *s = &c->spikes[r - 1];

		rc = tr_row_ints(&t, r, "capture,thread,cpu,t_ns,latency_ns,complete", err, len);
		if (rc == 0)
			rc = spike_row_fits(c, &t, r, max, err, len);
		if (rc)
			break;
		s->capture = csv_table_checked(&t, r, "capture");
		s->thread = csv_table_checked(&t, r, "thread");
		s->t_ns = csv_table_checked(&t, r, "t_ns");
		s->latency_ns = csv_table_checked(&t, r, "latency_ns");
		s->complete = csv_table_checked(&t, r, "complete") == 1;
		tr_copy(s->kind, sizeof(s->kind), tr_field(&t, r, "culprit_kind"));
		tr_copy(s->culprit, sizeof(s->culprit), tr_field(&t, r, "culprit"));
		if (!s->complete)
			continue;	/* its parts are empty: not guessed */
		int64_t sum = 0;

		for (int p = 0; rc == 0 && p < SPIKE_PARTS; p++) {
			const char *col = spike_part_column(p);

			rc = tr_row_ints(&t, r, col, err, len);
			if (rc == 0)
				rc = tr_row_within(&t, r, col, 0, s->latency_ns, "a part of the latency "
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
			rc = tr_row_ints(&t, r, "culprit_ns", err, len);
		if (rc == 0)
			rc = tr_row_within(&t, r, "culprit_ns", 0, s->latency_ns,
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

int tr_read_cell_files(struct tcell *c, char *err, size_t len)
{
	int rc = read_spikes(c, err, len);

	if (rc == 0)
		rc = read_series(c, err, len);
	if (rc == 0)
		rc = read_interference(c, err, len);
	if (rc == 0)
		rc = read_timeline(c, err, len);
	return rc ? rc : load_rate(c->dir, &c->load_ops_per_s, err, len);
}
