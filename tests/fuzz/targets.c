#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "cell_parts.h"
#include "channel.h"
#include "config.h"
#include "matrix.h"
#include "prior.h"
#include "samples.h"
#include "targets.h"
#include "tree.h"
#include "vm.h"

/* each target's scratch files, named by the process's pid on first use */
static char config_path[64];
static char tree_dir[64];
static char chan_top[64];

void fuzz_cleanup(void)
{
	const char *const paths[] = { config_path, tree_dir, chan_top };
	char cmd[128];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (!paths[i][0])
			continue;
		snprintf(cmd, sizeof(cmd), "rm -rf %s", paths[i]);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz: could not remove %s\n", paths[i]);
	}
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *fp = fopen(path, "wb");

	if (!fp)
		abort();
	fwrite(data, 1, size, fp);
	fclose(fp);
}

int fuzz_config(const uint8_t *data, size_t size)
{
	const char *path = config_path;
	struct config *cfg = malloc(sizeof(*cfg));
	struct cell *cells;
	char err[1024];

	if (!config_path[0])
		snprintf(config_path, sizeof(config_path), "/tmp/latlab-fuzz-config-%d.ini", (int)getpid());
	write_file(path, data, size);
	if (cfg && config_load(cfg, path, NULL, 0, err, sizeof(err)) == 0) {
		FILE *null = fopen("/dev/null", "w");
		int n = matrix_expand(cfg, &cells);

		if (n > 0)
			free(cells);
		if (null) {
			config_write_ini(null, cfg);
			fclose(null);
		}
		(void)config_hash(cfg);
	} else if (cfg && !err[0]) {
		abort();	/* every refusal says why */
	}
	if (cfg)
		config_free(cfg);
	free(cfg);
	return 0;
}

#define CELL "vm/6.1.0-stock/0000-none-timer-t1-aspread-1"

/*
 * What the tree reader promises of a cell it accepts: its steal is no
 * more than its time, each capture one of its threads and wake-ups, its
 * parts within the latency (docs/formats.md).
 */
static int cell_fits(const struct tcell *c)
{
	if (c->steal_ms < 0 || c->steal_ms > (c->span_ns + 1000000000LL) / 1000000 * c->steal_cpus)
		return 0;
	for (int k = 0; k < c->nspikes; k++) {
		const struct tspike *s = &c->spikes[k];
		int64_t sum = 0;

		if (s->capture < 1 || s->thread < 0 || s->thread >= c->nthreads || s->t_ns < 0 ||
		    s->latency_ns < 0 || !c->wakeup || s->latency_ns > c->wakeup->max)
			return 0;
		for (int p = 0; p < SPIKE_PARTS; p++) {
			if (s->part_ns[p] < 0)
				return 0;
			sum += s->part_ns[p];
		}
		if (sum > s->latency_ns || s->culprit_ns < 0 || s->culprit_ns > s->latency_ns)
			return 0;
	}
	return 1;
}

int fuzz_tree(const uint8_t *data, size_t size)
{
	/* the first byte picks the file the rest replaces (or adds) */
	static const char *const files[] = {
		"cells.csv", CELL "/summary.csv", CELL "/hist.csv", CELL "/load.csv",
		CELL "/series.csv", CELL "/spikes.csv", CELL "/interference.csv",
		CELL "/timeline.csv", CELL "/cell.ini", CELL "/sysinfo.ini",
		CELL "/samples.bin", "state",
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	const char *dir = tree_dir;
	char path[256], err[8192];
	struct tree t;
	struct cell_files f;

	if (!tree_dir[0]) {
		char cmd[256];
		const char *src = getenv("LATLAB_FUZZ_TREE");

		snprintf(tree_dir, sizeof(tree_dir), "/tmp/latlab-fuzz-tree-%d", (int)getpid());
		snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r %s %s", dir,
			 src ? src : "tests/fixtures/compare/stock", dir);
		if (system(cmd) != 0)
			abort();
	}
	if (size == 0)
		return 0;
	const char *name = files[data[0] % NFILES];
	char saved[sizeof(path) + 8];
	int had;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(saved, sizeof(saved), "%s.orig", path);
	had = access(path, F_OK) == 0;	/* spikes, interference, timeline.csv: added */
	if (had && access(saved, F_OK) != 0 && rename(path, saved) != 0)
		abort();
	write_file(path, data + 1, size - 1);
	err[0] = '\0';
	if (tree_read(&t, dir, err, sizeof(err)) == 0) {
		for (int i = 0; i < t.n; i++) {
			if (t.cell[i].bad && t.cell[i].measured)
				abort();	/* a damaged cell is never drawn */
			if (!t.cell[i].bad && !cell_fits(&t.cell[i]))
				abort();	/* a figure the cell cannot hold was taken */
		}
		tree_free(&t);
	} else if (!err[0]) {
		abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, CELL);
	if (cell_files_read(path, &f, err, sizeof(err)) == 0)
		cell_files_free(&f);
	struct tcell one;

	memset(&one, 0, sizeof(one));
	snprintf(one.dir, sizeof(one.dir), "%s", path);
	(void)tcell_emulated(&one);
	snprintf(path, sizeof(path), "%s/%s/samples.bin", dir, CELL);
	(void)samples_read(path, NULL, NULL, NULL);
	struct prior p;

	if (prior_read(dir, &p, err, sizeof(err)) == 0) {
		const char *st, *host, *rel;
		char *rows = prior_rows(&p, "0000-none-timer-t1-aspread-1");

		free(rows);
		(void)prior_status(&p, "0000-none-timer-t1-aspread-1");
		(void)prior_where(&p, "0000-none-timer-t1-aspread-1", &st, &host, &rel);
		(void)prior_reason(&p, "0000-none-timer-t1-aspread-1");
		(void)prior_rows_together(&p, "0000-none-timer-t1-aspread-1");
		prior_free(&p);
	}
	/* the next input starts from the real tree */
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (had)
		rename(saved, path);
	else
		unlink(path);
	return 0;
}

/* The guest was given c1 and c2 only. */
static int fz_started(void *arg, const char *id)
{
	(void)arg;
	return strcmp(id, "c1") && strcmp(id, "c2") ? -1 : 0;
}

static int fz_finished(void *arg, const struct vm_cell *c)
{
	(void)arg;
	if (strcmp(c->id, "c1") && strcmp(c->id, "c2"))
		abort();	/* a cell it was not given */
	return 0;
}

/* Every entry below dir is a directory or a regular file: no link, no FIFO. */
static void only_plain(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[1024];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) != 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)))
			abort();
		/* TREE/HOST/RELEASE/CELL/FILE and no deeper */
		if (S_ISDIR(st.st_mode) && depth >= 3)
			abort();
		if (S_ISREG(st.st_mode) && depth != 3)
			abort();
		if (S_ISDIR(st.st_mode))
			only_plain(path, depth + 1);
	}
	closedir(d);
}

/* the guest's log lines: read, not printed (thousands of inputs) */
static void fz_log(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* A name of a release's characters: what a hello may leave in a path or a CSV field. */
static int plain_name(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-~", *p))
			return 0;
	return name[0] != '\0';
}

int fuzz_channel(const uint8_t *data, size_t size)
{
	const char *top = chan_top;
	char tree[96], stream[96], cmd[320];
	struct vm_read_opts o = { .variant = "fuzz", .boot_ns = 1000000000LL, .cell_ns = 1000000000LL,
				  .quiet_ns = 1000000000LL };
	struct vm_hooks h = { NULL, fz_started, fz_finished, NULL, fz_log };
	struct vm_outcome out;
	int fd;

	if (!chan_top[0])
		snprintf(chan_top, sizeof(chan_top), "/tmp/latlab-fuzz-chan-%d", (int)getpid());
	snprintf(tree, sizeof(tree), "%s/tree", top);
	snprintf(stream, sizeof(stream), "%s/stream", top);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s", top, tree);
	if (system(cmd) != 0)
		abort();
	write_file(stream, data, size);
	fd = open(stream, O_RDONLY);
	if (fd < 0)
		abort();
	o.tree = tree;
	/* half the inputs with a given host (the campaign's way), half without */
	o.host = size % 2 ? "fuzzhost-vm" : NULL;
	vm_read(fd, &o, &h, &out);
	close(fd);
	if (out.sysinfo && strlen(out.sysinfo) > chan_verbs[CHAN_SYSINFO].max)
		abort();
	free(out.sysinfo);
	/* the hello names directories and CSV fields: the given host, plain names */
	if (out.hello && (!plain_name(out.host) || !plain_name(out.release) ||
			  (o.host && strcmp(out.host, o.host) != 0)))
		abort();
	only_plain(tree, 0);
	/* nothing filed under a host but the one the hello left */
	DIR *d = opendir(tree);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && (!out.hello || strcmp(e->d_name, out.host) != 0))
			abort();
	if (d)
		closedir(d);
	return 0;
}

/*
 * The bytes as cyclictest's histogram file: the first byte picks 1 to 4
 * threads, the rest is the file. What it takes is bounded: no more than
 * `most` wake-ups a thread, every one counted once, none below 0 or past
 * an hour.
 */
int fuzz_ct_hist(const uint8_t *data, size_t size)
{
	enum { MOST = 100000, TOP = 4000 };
	long long over[4], max[4];
	char why[256];
	struct hist *h;
	FILE *fp;
	int n;

	if (size < 2)
		return 0;
	n = 1 + data[0] % 4;
	fp = fmemopen((void *)(data + 1), size - 1, "r");
	h = calloc(4, sizeof(*h));
	if (!fp || !h)
		abort();
	if (cyclictest_read_hist(fp, n, TOP, MOST, h, over, max, why, sizeof(why)) == 0) {
		for (int t = 0; t < n; t++) {
			if (h[t].count > MOST || over[t] < 0 || (uint64_t)over[t] > h[t].count ||
			    h[t].underflow)
				abort();
			if (h[t].count && (h[t].min < 0 || h[t].min > h[t].max ||
					   h[t].max > CT_LATENCY_MAX))
				abort();
			if (over[t] > 0 && h[t].max != max[t])
				abort();	/* the first beyond the top is at cyclictest's max */
		}
	} else if (!why[0]) {
		abort();	/* refused without a word */
	}
	fclose(fp);
	free(h);
	return 0;
}

int fuzz_image(const uint8_t *data, size_t size)
{
	size_t off, len;
	const char *packer;
	char rel[128];

	/* each reads the bytes only: any shape, any alignment */
	if (vm_bzimage_payload(data, size, &off, &len, &packer) == 0 &&
	    (off > size || len > size - off))
		abort();
	(void)vm_elf_pvh(data, size);
	if (vm_image_release_of(data, size, rel, sizeof(rel)) == 0 && strlen(rel) >= sizeof(rel))
		abort();
	return 0;
}
