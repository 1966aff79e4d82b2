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
#include "tree_parts.h"
#include "units.h"
#include "workload.h"

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
		if (!strcmp(tr_field(rs->t, r, "metric"), metric))
			return 1;
	return 0;
}

/* The exact min and max over threads, from the cell's rows of a metric. */
static void exact_bounds(struct hist *h, const struct rows *rs, const char *metric)
{
	const struct csv_table *t = rs->t;
	int first = 1;

	for (int r = rs->first; r < rs->end; r++) {
		if (strcmp(tr_field(t, r, "metric"), metric))
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
	for (int r = r0; r < cs->nrows && !strcmp(tr_field(cs, r, "cell"), c->id); r++) {
		if (tr_row_ints(cs, r, "index", err, len))
			return -EINVAL;
		for (int a = 0; a < TAXIS_COUNT; a++)
			if (taxis_numeric(a) && tr_row_ints(cs, r, axis_defs[a].column, err, len))
				return -EINVAL;
		if (tr_row_ints(cs, r, "repeat", err, len))
			return -EINVAL;
		if (tr_field(cs, r, "samples")[0] == '\0')
			continue;	/* not measured: its statistics are empty */
		if (tr_row_ints(cs, r, MEASURED_INTS, err, len) ||
		    csv_table_num(cs, r, "bytes_per_s", &v, err, len) ||
		    metric_parse(tr_field(cs, r, "metric")) < 0) {
			if (metric_parse(tr_field(cs, r, "metric")) < 0)
				snprintf(err, len, "%s:%d: metric '%.20s' is not one of %s",
					 cs->path, cs->line[r], tr_field(cs, r, "metric"),
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
	tr_copy(c->id, sizeof(c->id), tr_field(cs, r, "cell"));
	tr_copy(c->host, sizeof(c->host), tr_field(cs, r, "host"));
	tr_copy(c->release, sizeof(c->release), tr_field(cs, r, "kernel_release"));
	tr_copy(c->status, sizeof(c->status), tr_field(cs, r, "status"));
	tr_copy(c->reason, sizeof(c->reason), tr_field(cs, r, "reason"));
	tr_copy(c->why, sizeof(c->why), tr_field(cs, r, "why"));
	tr_copy(c->preempt, sizeof(c->preempt),
	     strcmp(tr_field(cs, r, "preempt"), "unknown") == 0 ? "" : tr_field(cs, r, "preempt"));
	/* each axis's column; a tree from before an axis has its `missing` value */
	for (int a = 0; a < TAXIS_COUNT; a++) {
		const struct axis_def *d = &axis_defs[a];

		if (d->column)
			tr_copy(c->ax[a], sizeof(c->ax[a]), tr_field(cs, r, d->column)[0] || !d->missing ?
			     tr_field(cs, r, d->column) : d->missing);
	}
	if (check_rows(c, cs, r, err, len))
		return -EINVAL;
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (taxis_numeric(a)) {	/* checked: whole numbers */
			c->num[a] = csv_table_checked(cs, r, axis_defs[a].column);
			snprintf(c->ax[a], sizeof(c->ax[a]), "%lld", (long long)c->num[a]);
		}
	c->index = csv_table_checked(cs, r, "index");
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
 * started (UTC, whole seconds), and elapsed_ns; and in which boot.
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
	cell_ini_get(c->dir, CELLF_SYSINFO, "kernel", "boot_id", c->boot_id, sizeof(c->boot_id));
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
 * The metrics whose figures hold a wait for a device: cell.ini's
 * waits_device (none where it has [figures] and no waits_device), or in
 * a tree from before them, io and response where its files_note or
 * net_note says the clock counted instructions while the guest waited
 * for a device (a write that did not sync said so too: the old tree's
 * answer errs toward no verdict).
 */
static unsigned cell_waits(const struct tcell *c)
{
	char v[256], note[512];
	unsigned m = 0;

	cell_ini_get(c->dir, CELLF_INI, "cell", "waits_device", v, sizeof(v));
	if (v[0] && vouch_metrics_parse(v, &m) == 0)
		return m;
	/* a cell that has [figures] said all it waits for: none */
	cell_ini_get(c->dir, CELLF_INI, "figures", metric_name(METRIC_WAKEUP), v, sizeof(v));
	if (v[0])
		return 0;
	for (int k = 0; k < 2; k++) {
		cell_ini_get(c->dir, CELLF_INI, "cell", k ? "net_note" : "files_note", note,
			     sizeof(note));
		if (strstr(note, "clock counts instructions") || strstr(note, "the clock jumps"))
			m |= METRIC_BIT(METRIC_IO) | METRIC_BIT(METRIC_RESPONSE);
	}
	return m;
}

/*
 * The emulated devices a guest cell's I/O went through (TCELL_DEV_
 * bits): its files on the guest's disk, its IP traffic across the
 * guest's cards. What they deliver is paced by qemu on the host.
 */
static unsigned cell_devices(const struct tcell *c)
{
	char v[256];
	unsigned d = 0;

	if (!c->emulated)
		return 0;
	cell_ini_get(c->dir, CELLF_INI, "cell", "files_on", v, sizeof(v));
	/* a modelled disk (null_blk) is the guest's own timer: nothing of qemu's */
	d |= strncmp(v, "/dev/", 5) == 0 && !file_dev_modelled(v) ? TCELL_DEV_DISK : 0;
	cell_ini_get(c->dir, CELLF_INI, "cell", "net_note", v, sizeof(v));
	d |= strncmp(v, "from eth0", 9) == 0 ? TCELL_DEV_CARDS : 0;
	return d;
}

/* The latlab that measured it, as its sysinfo.ini says: "VERSION (git COMMIT)". */
static void cell_measured_by(struct tcell *c)
{
	char version[40], commit[48];

	cell_ini_get(c->dir, CELLF_SYSINFO, "latlab", "version", version, sizeof(version));
	cell_ini_get(c->dir, CELLF_SYSINFO, "latlab", "commit", commit, sizeof(commit));
	c->measured_by[0] = '\0';
	if (version[0] && commit[0] && strcmp(commit, "none") != 0)
		snprintf(c->measured_by, sizeof(c->measured_by), "%s (git %s)", version, commit);
	else if (version[0])
		snprintf(c->measured_by, sizeof(c->measured_by), "%s", version);
}

/* Its load's settings as its cell.ini has them (since 2026-12-06): "" where it has none. */
static void cell_load_settings(struct tcell *c)
{
	char path[PATH_MAX], section[TCELL_AXIS_MAX + 8];

	c->load_settings[0] = '\0';
	snprintf(section, sizeof(section), "load.%s", c->load);
	if (cell_file_path(path, sizeof(path), c->dir, CELLF_INI) == 0)
		file_ini_section(path, section, c->load_settings, sizeof(c->load_settings));
}

/* What perturbed its figures (vouch.h's VT_ bits), from cell.ini. */
static unsigned cell_traced(const struct tcell *c)
{
	char v[64], method[16], by[32];
	unsigned t = 0;

	cell_ini_get(c->dir, CELLF_INI, "cell", "trace", v, sizeof(v));
	t |= strcmp(v, "spikes") == 0 ? VT_SPIKES : 0;
	cell_ini_get(c->dir, CELLF_INI, "cell", "timerlat", v, sizeof(v));
	t |= strcmp(v, "on") == 0 ? VT_TIMERLAT : 0;
	cell_ini_get(c->dir, CELLF_INI, "cell", "watch", v, sizeof(v));
	cell_ini_get(c->dir, CELLF_INI, "cell", "watch_method", method, sizeof(method));
	cell_ini_get(c->dir, CELLF_INI, "cell", "measured_by", by, sizeof(by));
	/* a watched program's own figures are the watch's: nothing beside them to perturb */
	if (strcmp(v, "on") == 0 && !by[0] && c->primary != METRIC_WATCH_TIMER &&
	    c->primary != METRIC_WATCH_SCHED)
		t |= strcmp(method, "bpf") == 0 ? VT_WATCH_BPF : VT_WATCH_HIST;
	return t;
}

/* The cell's facts and, per metric it has, what its figure can mean (vouch.h). */
static void cell_vouch(struct tcell *c)
{
	const struct hist *w = c->metric[METRIC_WAKEUP];
	double periods = (double)(w ? w->count : 0) + (double)c->overruns;

	c->vf.status = cell_status_parse(c->status);
	c->vf.emulated = c->emulated;
	c->vf.waits = cell_waits(c);
	c->devices = cell_devices(c);
	cell_measured_by(c);
	cell_load_settings(c);
	c->vf.missed_pct = c->missed_pct;
	c->vf.wake_missed_pct = w ? vouch_wake_missed_pct((double)hist_count_above(w, c->interval),
							  periods) : 0;
	c->vf.traced = cell_traced(c);
	for (int m = 0; m < METRIC_COUNT; m++)
		c->vouch[m] = c->metric[m] ? vouch_metric(&c->vf, m) : 0;
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
		const char *names = SUMMARY_COLUMNS, *thread = tr_field(cs, r, "thread"),
			   *metric = tr_field(cs, r, "metric");
		char name[32];
		int k = 1;

		while (k < s->nrows && (strcmp(tr_field(s, k, "thread"), thread) ||
					strcmp(tr_field(s, k, "metric"), metric)))
			k++;
		if (k == s->nrows) {
			snprintf(err, len, "%.400s:%d: thread %.20s's %.20s is not in %.400s", cs->path,
				 cs->line[r], thread, metric, s->path);
			return -EINVAL;
		}
		while (tr_next_name(&names, name, sizeof(name)))
			if (strcmp(tr_field(cs, r, name), tr_field(s, k, name))) {
				snprintf(err, len, "%.400s:%d: %s = '%.30s', but %.400s:%d says '%.30s'",
					 cs->path, cs->line[r], name, tr_field(cs, r, name),
					 s->path, s->line[k], tr_field(s, k, name));
				return -EINVAL;
			}
	}
	return 0;
}

/*
 * The cell's histograms from hist.csv (f): the core three always, a
 * workload's own metrics where cells.csv has rows of them, each bounded
 * by its rows' exact minimum and maximum. 0, or -ENOMEM.
 */
static int cell_hists(struct tcell *c, const struct rows *rs, const struct cell_files *f)
{
	for (int m = 0; m < METRIC_COUNT; m++) {
		int rows = cell_lists_metric(rs, metric_name(m));

		if (m >= METRIC_CORE && !rows)
			continue;
		if (rows)
			c->listed |= METRIC_BIT(m);
		c->metric[m] = malloc(sizeof(*c->metric[m]));
		if (!c->metric[m])
			return -ENOMEM;
		hist_init(c->metric[m]);
		tr_add_hist(&f->hist, metric_name(m), c->metric[m]);
		exact_bounds(c->metric[m], rs, metric_name(m));
	}
	return 0;
}

/*
 * The cell's rows of cells.csv: per thread (its anchor metric's row,
 * wakeup or a watched program's watch_sched) its periods, overruns,
 * missed share, errors and bytes, the samples listed into *listed; io's
 * p99 and mean. 0 when a row has no samples (the cell not measured).
 */
static int thread_rows(struct tcell *c, const struct rows *rs, const char *anchor,
		       uint64_t *listed)
{
	const struct csv_table *cs = rs->t;
	double io_sum = 0, io_n = 0;

	for (int r = rs->first; r < rs->end; r++) {
		const char *metric = tr_field(cs, r, "metric");

		if (tr_field(cs, r, "samples")[0] == '\0')
			return 0;	/* not measured */
		if (!strcmp(metric, "io")) {
			if (csv_table_checked(cs, r, "p99_ns") > c->io_p99)
				c->io_p99 = csv_table_checked(cs, r, "p99_ns");
			io_sum += (double)csv_table_checked(cs, r, "mean_ns") *
				  (double)csv_table_checked(cs, r, "samples");
			io_n += (double)csv_table_checked(cs, r, "samples");
		}
		if (strcmp(metric, anchor))
			continue;
		c->nthreads++;
		*listed += (uint64_t)csv_table_checked(cs, r, "samples");
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
		c->bytes_per_s += strtod(tr_field(cs, r, "bytes_per_s"), NULL);
	}
	c->io_mean = io_n > 0 ? io_sum / io_n : 0;
	return 1;
}

static int measure_cell(struct tcell *c, const struct rows *rs, char *err,
			size_t len)
{
	struct cell_files f;
	uint64_t listed = 0;
	int rc;

	/*
	 * per thread: overruns, errors, bytes (the wakeup row of each, or
	 * for a watched program's threads, which latlab did not wake, the
	 * kernel's watch_sched row: type = watch, which every watched
	 * thread has, where not every one has a watch_timer — a row to
	 * carry the thread's counts, not metric_wakeup_of's figure); io's
	 * p99 and mean
	 */
	const char *anchor = cell_lists_metric(rs, "wakeup") || !cell_lists_metric(rs, "watch_sched") ?
			     "wakeup" : "watch_sched";

	if (!thread_rows(c, rs, anchor, &listed))
		return 0;	/* not measured */
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
	rc = cell_hists(c, rs, &f);
	cell_files_free(&f);
	if (rc)
		return rc;
	c->wakeup = c->metric[METRIC_WAKEUP];
	c->response = c->metric[METRIC_RESPONSE];
	const struct hist *a = c->metric[metric_parse(anchor)];

	if (a->count != listed) {
		snprintf(err, len, "%s/hist.csv: %llu wake-ups (%s), cells.csv says %llu",
			 c->dir, (unsigned long long)a->count, anchor,
			 (unsigned long long)listed);
		return -EINVAL;
	}
	c->measured = a->count > 0;
	c->primary = cell_primary(c);
	cell_started(c);
	if (c->elapsed_ns > c->span_ns)
		c->span_ns = c->elapsed_ns;
	c->emulated = tcell_emulated(c);
	rc = tr_read_cell_files(c, err, len);
	if (rc == 0)
		cell_vouch(c);
	return rc;
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
	free(c->tl);
	c->wakeup = c->response = NULL;
	c->spikes = NULL;
	c->runmax = NULL;
	c->tl = NULL;
	c->ntl = 0;
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
	if (tr_has_columns(&cs, CELLS_REQUIRED SUMMARY_COLUMNS, err, errlen)) {
		csv_table_free(&cs);
		return -EINVAL;
	}
	if (cs.nrows > 1)
		snprintf(t->campaign, sizeof(t->campaign), "%s",
			 tr_field(&cs, 1, "campaign"));
	for (int r = 1; r < cs.nrows && rc == 0; r++) {
		const char *id = tr_field(&cs, r, "cell");

		if (t->n && strcmp(t->cell[t->n - 1].id, id) == 0)
			continue;	/* rows of a cell are together */
		struct rows rs = { &cs, r, r + 1 };

		while (rs.end < cs.nrows && strcmp(tr_field(&cs, rs.end, "cell"), id) == 0)
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
		free(t->cell[i].tl);
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
