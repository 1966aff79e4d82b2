/*
 * latlab export: a cell's data in other tools' formats.
 *   csv         samples.bin as t_ns,thread,metric,value_ns rows
 *   cyclictest  the 1 µs histogram file of `cyclictest --histfile`
 *   json        the keys of `cyclictest --json`
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "cellread.h"
#include "config.h"
#include "csvfile.h"
#include "exitcodes.h"
#include "export.h"
#include "files.h"
#include "log.h"
#include "samplesfile.h"
#include "tree.h"
#include "units.h"

#define MAX_THREADS 1024
#define HIST_US_CAP 1000000	/* rows of a cyclictest histogram at most */

/* ---- csv: samples.bin ---- */

static int csv_row(void *arg, const struct sample_rec *r)
{
	struct csvw *w = arg;

	for (int m = 0; m < METRIC_CORE; m++) {	/* samples.bin holds the core three */
		csvw_int(w, r->t_ns);
		csvw_int(w, r->thread);
		csvw_str(w, metric_name(m));
		csvw_int(w, r->value_ns[m]);
		csvw_end(w);
	}
	return ferror(w->fp) ? -EIO : 0;
}

static int export_samples(const char *bin, FILE *fp)
{
	struct csvw w = { .fp = fp };

	csvw_header(&w, "t_ns,thread,metric,value_ns");
	return samples_read(bin, csv_row, &w, NULL);
}

/* ---- a cell's summary and histogram, per thread ---- */

struct thread_data {
	int thread, cpu;
	int64_t samples, min, mean, max;
	uint64_t *bins;		/* per µs, hist_us of them */
	uint64_t total, overflow;
};

struct cell_data {
	int n;
	struct thread_data t[MAX_THREADS];
	int64_t hist_us;
};

static void cell_data_free(struct cell_data *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->t[i].bins);
}

static int read_cell(const char *dir, const char *metric, int64_t hist_us,
		     struct cell_data *d, char *err, size_t errlen)
{
	struct cell_files f;
	const struct csv_table *s = &f.summary, *h = &f.hist;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = cell_files_read(dir, &f, err, errlen);
	if (rc)
		return rc;
	int64_t max_us = 0;
	for (int r = 1; r < s->nrows && d->n < MAX_THREADS; r++) {
		if (strcmp(csv_table_str(s, r, "metric"), metric))
			continue;
		struct thread_data *t = &d->t[d->n++];

		t->thread = (int)csv_table_checked(s, r, "thread");
		t->cpu = (int)csv_table_checked(s, r, "cpu");
		t->samples = csv_table_checked(s, r, "samples");
		t->min = csv_table_checked(s, r, "min_ns");
		t->mean = csv_table_checked(s, r, "mean_ns");
		t->max = csv_table_checked(s, r, "max_ns");
		if (t->max / 1000 > max_us)
			max_us = t->max / 1000;
	}
	rc = d->n == 0 ? -ENODATA : 0;
	if (rc)
		snprintf(err, errlen, "%s: no thread of metric %s", s->path, metric);
	/* like cyclictest -h N: bins 0 .. N-1 µs; by default all of them */
	d->hist_us = hist_us > 0 ? hist_us
		: (max_us + 1 < HIST_US_CAP ? max_us + 1 : HIST_US_CAP);
	for (int i = 0; rc == 0 && i < d->n; i++) {
		d->t[i].bins = calloc((size_t)d->hist_us, sizeof(uint64_t));
		if (!d->t[i].bins) {
			snprintf(err, errlen, "out of memory");
			rc = -ENOMEM;
		}
	}
	for (int r = 1; rc == 0 && r < h->nrows; r++) {
		if (strcmp(csv_table_str(h, r, "metric"), metric))
			continue;
		int64_t thread = csv_table_checked(h, r, "thread");
		int64_t lo = csv_table_checked(h, r, "lo_ns");
		uint64_t count = (uint64_t)csv_table_checked(h, r, "count");

		for (int i = 0; i < d->n; i++) {
			struct thread_data *t = &d->t[i];

			if (t->thread != thread)
				continue;
			/* a bucket counts in the µs of its lower edge, as
			 * cyclictest truncates ns to µs */
			int64_t us = lo < 0 ? 0 : lo / 1000;
			if (us < d->hist_us) {
				t->bins[us] += count;
				t->total += count;
			} else {
				t->overflow += count;
			}
		}
	}
	cell_files_free(&f);
	return rc;
}

static void footer_line(FILE *fp, const char *name, const struct cell_data *d,
			int64_t (*get)(const struct thread_data *))
{
	fprintf(fp, "# %s:", name);
	for (int i = 0; i < d->n; i++)
		fprintf(fp, " %05lld", (long long)get(&d->t[i]));
	fputc('\n', fp);
}

static int64_t get_min(const struct thread_data *t) { return t->min / 1000; }
static int64_t get_avg(const struct thread_data *t) { return t->mean / 1000; }
static int64_t get_max(const struct thread_data *t) { return t->max / 1000; }
static int64_t get_ovf(const struct thread_data *t) { return (int64_t)t->overflow; }

static void write_cyclictest(FILE *fp, const struct cell_data *d)
{
	fputs("# Histogram\n", fp);
	for (int64_t us = 0; us < d->hist_us; us++) {
		fprintf(fp, "%06lld", (long long)us);
		for (int i = 0; i < d->n; i++)
			fprintf(fp, "%c%06llu", i ? '\t' : ' ',
				(unsigned long long)d->t[i].bins[us]);
		fputc('\n', fp);
	}
	fputs("# Total:", fp);
	for (int i = 0; i < d->n; i++)
		fprintf(fp, " %09llu", (unsigned long long)d->t[i].total);
	fputc('\n', fp);
	footer_line(fp, "Min Latencies", d, get_min);
	footer_line(fp, "Avg Latencies", d, get_avg);
	footer_line(fp, "Max Latencies", d, get_max);
	footer_line(fp, "Histogram Overflows", d, get_ovf);
	fputs("# Histogram Overflow at cycle number:\n", fp);
	/* latlab keeps no cycle numbers: only how many, as cyclictest does
	 * past its list ("# N others") */
	for (int i = 0; i < d->n; i++) {
		fprintf(fp, "# Thread %d:", d->t[i].thread);
		if (d->t[i].overflow)
			fprintf(fp, " # %05llu others",
				(unsigned long long)d->t[i].overflow);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/* "2026-11-30T00:06:14Z" + seconds -> "Mon, 30 Nov 2026 00:06:14 +0000" */
static void rfc2822(const char *iso, int64_t plus_ns, char *out, size_t len)
{
	struct tm tm = { 0 };

	out[0] = '\0';
	if (!strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	time_t t = timegm(&tm) + (time_t)(plus_ns / NS_PER_S);
	gmtime_r(&t, &tm);
	strftime(out, len, "%a, %d %b %Y %H:%M:%S +0000", &tm);
}

/*
 * The JSON's sysinfo is the cell's sysinfo.ini: one that is missing, not
 * a file, or without the kernel's release and the host's name is not
 * written as an empty sysinfo (-EINVAL, said).
 */
static int json_sysinfo_check(const char *dir)
{
	char path[PATH_MAX], err[PATH_MAX + 128], release[256], host[256];
	FILE *fp = cell_file_open(dir, CELLF_SYSINFO, CELL_INI_MAX, err, sizeof(err));

	if (!fp) {
		log_error("%s", err);
		return -errno;
	}
	fclose(fp);
	cell_file_path(path, sizeof(path), dir, CELLF_SYSINFO);
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "release", release, sizeof(release));
	cell_ini_get(dir, CELLF_SYSINFO, "host", "hostname", host, sizeof(host));
	if (!release[0] || !host[0]) {
		log_error("%s: no %s: damaged, or not latlab's", path,
			  !release[0] ? "[kernel] release" : "[host] hostname");
		return -EINVAL;
	}
	return 0;
}

static int write_json(FILE *fp, const char *dir, const struct cell_data *d)
{
	char v[1024], start[64], end[64], elapsed[32];
	json_t *root = json_object(), *si = json_object(), *threads = json_object();

	cell_ini_get(dir, CELLF_INI, "cell", "started", v, sizeof(v));
	cell_ini_get(dir, CELLF_INI, "cell", "elapsed_ns", elapsed, sizeof(elapsed));
	rfc2822(v, 0, start, sizeof(start));
	rfc2822(v, strtoll(elapsed, NULL, 10), end, sizeof(end));
	json_object_set_new(root, "file_version", json_integer(1));
	cell_ini_get(dir, CELLF_SYSINFO, "latlab", "command", v, sizeof(v));
	/* the colons inside these two keys are cyclictest's own */
	json_object_set_new(root, "cmdline:", json_string(v));
	cell_ini_get(dir, CELLF_SYSINFO, "latlab", "version", v, sizeof(v));
	char ver[1100];
	snprintf(ver, sizeof(ver), "latlab %s", v);
	json_object_set_new(root, "rt_test_version:", json_string(ver));
	json_object_set_new(root, "start_time", json_string(start));
	json_object_set_new(root, "end_time", json_string(end));
	json_object_set_new(root, "return_code", json_integer(0));
	json_object_set_new(si, "sysname", json_string("Linux"));
	cell_ini_get(dir, CELLF_SYSINFO, "host", "hostname", v, sizeof(v));
	json_object_set_new(si, "nodename", json_string(v));
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "release", v, sizeof(v));
	json_object_set_new(si, "release", json_string(v));
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "version", v, sizeof(v));
	json_object_set_new(si, "version", json_string(v));
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "machine", v, sizeof(v));
	json_object_set_new(si, "machine", json_string(v));
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "realtime", v, sizeof(v));
	json_object_set_new(si, "realtime", json_integer(strcmp(v, "1") == 0));
	json_object_set_new(root, "sysinfo", si);
	json_object_set_new(root, "num_threads", json_integer(d->n));
	json_object_set_new(root, "resolution_in_ns", json_integer(0));
	for (int i = 0; i < d->n; i++) {
		const struct thread_data *t = &d->t[i];
		json_t *th = json_object(), *hist = json_object();
		char key[32];

		for (int64_t us = 0; us < d->hist_us; us++)
			if (t->bins[us]) {
				snprintf(key, sizeof(key), "%lld", (long long)us);
				json_object_set_new(hist, key, json_integer((json_int_t)t->bins[us]));
			}
		json_object_set_new(th, "histogram", hist);
		json_object_set_new(th, "cycles", json_integer(t->samples));
		json_object_set_new(th, "min", json_integer(t->min / 1000));
		json_object_set_new(th, "max", json_integer(t->max / 1000));
		json_object_set_new(th, "avg", json_real((double)(t->mean / 10) / 100.0));
		json_object_set_new(th, "cpu", json_integer(t->cpu));
		json_object_set_new(th, "node", json_integer(0));
		snprintf(key, sizeof(key), "%d", t->thread);
		json_object_set_new(threads, key, th);
	}
	json_object_set_new(root, "thread", threads);
	int rc = json_dumpf(root, fp, JSON_INDENT(4) | JSON_PRESERVE_ORDER |
			    JSON_REAL_PRECISION(10));
	fputc('\n', fp);
	json_decref(root);
	return rc ? -EIO : 0;
}

/*
 * samples.bin of path (a cell's directory, or the file) into bin, checked
 * whole: EXIT_PASS with *rc samples_read's, or the exit status said why.
 */
static int samples_whole(const char *path, int dir, char *bin, size_t len, int *rc)
{
	uint64_t records = 0;
	char ini[PATH_MAX + 16], said[32];

	if (dir)
		cell_file_path(bin, len, path, CELLF_SAMPLES);
	else
		snprintf(bin, len, "%s", path);
	*rc = samples_read(bin, NULL, NULL, &records);
	if (*rc == -ENOENT || *rc == -EINVAL) {
		log_error(*rc == -ENOENT ? "%s: no samples.bin (run with [campaign] samples = on)"
			  : "%s: not a latlab samples file", bin);
		return EXIT_USAGE;
	}
	if (*rc == -EBADMSG) {
		log_error("%s: cut short: it ends inside a record (the file is not whole)", bin);
		return EXIT_RUNTIME;
	}
	/* a cell's own count says whether whole records are all of them */
	cell_file_path(ini, sizeof(ini), path, CELLF_INI);
	said[0] = '\0';
	if (*rc == 0 && dir)
		cell_ini_get(path, CELLF_INI, "cell", "samples_written", said, sizeof(said));
	if (said[0] && strtoull(said, NULL, 10) != records) {
		log_error("%s: %llu records, but %s says samples_written = %s: the file is not whole",
			  bin, (unsigned long long)records, ini, said);
		return EXIT_RUNTIME;
	}
	return EXIT_PASS;
}

/* The format, the metric and the path export is given, checked: 0, or EXIT_USAGE said. */
static int export_usage(const char *format, const char *metric, const char *path,
			struct stat *st)
{
	int samples = strcmp(format, "csv") == 0;

	if (!samples && strcmp(format, "cyclictest") && strcmp(format, "json")) {
		log_error("unknown export format '%s' (csv, cyclictest, json)", format);
		return EXIT_USAGE;
	}
	if (opt_choice_index(METRIC_NAMES, metric) < 0) {
		log_error("unknown metric '%s' (wakeup, io, response)", metric);
		return EXIT_USAGE;
	}
	if (stat(path, st) != 0) {
		log_error("%s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (S_ISDIR(st->st_mode) && tree_is_campaign(path)) {
		log_error("%s is a campaign's tree, not a cell: export one cell's directory (%s/HOST/RELEASE/CELL)",
			  path, path);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The export of path (samples.bin at bin, or its cell's data d) to out,
 * or standard output: the file made whole or not at all. EXIT_PASS (a
 * reader that closed the pipe too), or EXIT_RUNTIME said.
 */
static int export_to(const char *format, const char *path, const char *out, const char *bin,
		     const struct cell_data *d)
{
	struct afile af;
	FILE *fp = stdout;
	int rc, samples = strcmp(format, "csv") == 0, status = EXIT_RUNTIME;

	if (out) {
		rc = afile_open(&af, out);
		if (rc) {
			log_error("%s: %s", out, strerror(-rc));
			return status;
		}
		fp = af.fp;
	}
	if (samples)
		rc = export_samples(bin, fp);
	else if (strcmp(format, "cyclictest") == 0)
		write_cyclictest(fp, d), rc = ferror(fp) ? -EIO : 0;
	else
		rc = write_json(fp, path, d);
	if (rc == -EIO && ferror(fp)) {
		/* the output failed; a reader that closed the pipe is not an error */
		int err = errno;

		if (out)
			afile_abort(&af);
		if (!out && err == EPIPE)
			status = EXIT_PASS;
		else
			log_error("writing %s: %s", out ? out : "the output", strerror(err));
		return status;
	}
	if (rc == 0 && out)
		rc = afile_commit(&af);
	else if (out)
		afile_abort(&af);
	if (rc) {
		log_error("%s: %s", out ? out : path, strerror(-rc));
		return status;
	}
	if (!out && fflush(stdout) != 0) {
		log_error("standard output: writing the export of %s: %s", path, strerror(errno));
		return status;
	}
	return EXIT_PASS;
}

int export_run(const char *format, const char *path, const char *out,
	       const char *metric, int64_t hist_us)
{
	char bin[PATH_MAX + 16];
	struct stat st;
	struct cell_data *d = NULL;
	int rc, samples = strcmp(format, "csv") == 0, status = EXIT_RUNTIME;

	if ((status = export_usage(format, metric, path, &st)) != 0)
		return status;
	status = EXIT_RUNTIME;
	/* validate the input before anything is written */
	if (samples) {
		status = samples_whole(path, S_ISDIR(st.st_mode), bin, sizeof(bin), &rc);
		if (status != EXIT_PASS)
			return status;
		status = EXIT_RUNTIME;
	} else {
		d = calloc(1, sizeof(*d));
		if (!d)
			return EXIT_RUNTIME;
		char err[PATH_MAX + 1024];

		rc = S_ISDIR(st.st_mode) ? read_cell(path, metric, hist_us, d, err, sizeof(err))
					 : -ENOTDIR;
		if (rc == -ENOTDIR || rc == -ENOENT) {
			log_error("%s: %s (a cell directory with summary.csv and hist.csv is needed)",
				  path, strerror(-rc));
			status = EXIT_USAGE;
			goto out;
		}
		if (rc) {
			/* its files are there but cannot be trusted */
			log_error("%s", err);
			goto out;
		}
		if (strcmp(format, "json") == 0 && (rc = json_sysinfo_check(path)) != 0)
			goto out;	/* said */
	}
	if (rc) {
		log_error("%s: %s", path, strerror(-rc));
		goto out;
	}
	status = export_to(format, path, out, bin, d);
out:
	if (d)
		cell_data_free(d);
	free(d);
	return status;
}
