/*
 * How long a campaign takes, from what this machine has measured. A cell
 * here takes its duration and CELL_OVERHEAD_NS; a guest's cost is not
 * its duration: a boot takes seconds of emulation, and a cell on the
 * instruction clock takes what emulating its instructions takes (an idle
 * second goes by in a tenth of one, hackbench's in several). So every
 * boot leaves what it took in latlab's cache (vm_cache_dir()/boots.txt),
 * per image (its content's key), clock and CPUs, and per cell its load
 * type's cost per second of guest time; the estimate takes the median of
 * the latest of them, VM_BOOT_NS and the duration where none were seen,
 * and lays the boots out as the campaign runs them: instruction-clock
 * guests side by side on `jobs` lanes, everything else one at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "files.h"
#include "campaign_run.h"
#include "estimate.h"
#include "vm.h"
#include "where.h"

/* the latest this many of a kind are what counts */
#define EST_LATEST 32
/* boots.txt is cut back to its latest EST_KEEP lines past twice that */
#define EST_KEEP 2000
#define EST_MAX_BYTES (1 << 22)

static void est_path(char *buf, size_t len)
{
	char dir[PATH_MAX];

	buf[0] = '\0';
	if (vm_cache_dir(dir, sizeof(dir)) == 0)
		snprintf(buf, len, "%s/boots.txt", dir);
}

/* What a variant's guest is, as boots.txt names it: "KEY MODE CPUS". */
static void est_variant_key(const struct kernel_def *k, uint64_t image_key, char *buf,
			    size_t len)
{
	const char *mode = k->runner == RUNNER_CONTAINER ? "container"
			   : k->clock == CLOCK_ICOUNT ? "icount"
			   : k->accel == ACCEL_KVM ? "kvm" : k->accel == ACCEL_TCG ? "tcg" : "auto";

	snprintf(buf, len, "%016llx %s %lld", (unsigned long long)image_key, mode,
		 (long long)k->cpus);
}

/* boots.txt whole (bounded): 0 or -errno. */
static int read_text(const char *path, char **text, size_t *len)
{
	char err[PATH_MAX + 64];
	FILE *fp = file_fopen_regular(path, EST_MAX_BYTES, err, sizeof(err));

	*text = NULL;
	*len = 0;
	if (!fp)
		return -errno;
	FILE *out = open_memstream(text, len);
	int c, rc = 0;

	if (!out)
		rc = -ENOMEM;
	while (out && (c = getc(fp)) != EOF)
		putc(c, out);
	if (out && fclose(out) != 0)
		rc = -ENOMEM;
	fclose(fp);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* One line appended (a short write of its own: O_APPEND keeps lines whole). */
static void est_append(const char *line)
{
	char path[PATH_MAX + 16], dir[PATH_MAX];
	struct stat st;

	est_path(path, sizeof(path));
	if (!path[0] || vm_cache_dir(dir, sizeof(dir)) != 0 || mkdir_p(dir) != 0)
		return;		/* no cache: nothing learnt, nothing broken */
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, strlen(line)) < 0) {
		/* a full disk: the estimate goes on with what it has */
	}
	int big = fstat(fd, &st) == 0 && st.st_size > 2 * EST_KEEP * 96;
	close(fd);
	if (!big)
		return;
	/* the latest EST_KEEP lines kept, atomically */
	char *text = NULL;
	size_t n = 0;
	struct afile af;

	if (read_text(path, &text, &n) != 0)
		return;
	size_t at = n;
	for (int lines = 0; at > 0 && lines <= EST_KEEP; at--)
		lines += text[at - 1] == '\n';
	while (at < n && text[at] != '\n')
		at++;
	if (at < n && afile_open(&af, path) == 0) {
		fwrite(text + at + 1, 1, n - at - 1, af.fp);
		afile_commit(&af);
	}
	free(text);
}

void est_record_boot(const struct kernel_def *k, uint64_t image_key, int64_t up_ns,
		     int64_t down_ns)
{
	char key[96], line[256];

	if (!image_key || up_ns <= 0)
		return;
	est_variant_key(k, image_key, key, sizeof(key));
	snprintf(line, sizeof(line), "boot %s %lld %lld\n", key, (long long)up_ns,
		 (long long)(down_ns > 0 ? down_ns : 0));
	est_append(line);
}

void est_record_cell(const struct kernel_def *k, uint64_t image_key, const char *load_type,
		     int64_t duration_ns, int64_t wall_ns)
{
	char key[96], line[256];

	if (!image_key || duration_ns <= 0 || wall_ns <= 0 || strpbrk(load_type, " \t\n"))
		return;
	est_variant_key(k, image_key, key, sizeof(key));
	snprintf(line, sizeof(line), "cell %s %s %lld %lld\n", key, load_type[0] ? load_type : "none",
		 (long long)duration_ns, (long long)wall_ns);
	est_append(line);
}

/* What earlier boots took here: boots.txt, read whole (none: empty). */
struct est_costs {
	char *text;
	size_t len;
};

static void est_costs_read(struct est_costs *ec)
{
	char path[PATH_MAX + 16];

	memset(ec, 0, sizeof(*ec));
	est_path(path, sizeof(path));
	if (path[0])
		read_text(path, &ec->text, &ec->len);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Whether a line's "IMAGE MODE CPUS" is key's: the same image, or with
 * any_image any image booted the same way.
 */
static int est_key_is(const char *line_key, const char *key, int any_image)
{
	if (!any_image)
		return strcmp(line_key, key) == 0;
	const char *a = strchr(line_key, ' '), *b = strchr(key, ' ');

	return a && b && strcmp(a, b) == 0;
}

/*
 * Is a cell line's load type `type` what `load` asks: that type, or with
 * LOAD_ANY_LOADED any type but none (a guest's cost under one load is
 * like its cost under another: qemu emulating the load's work), with
 * LOAD_ANY_IDLE none.
 */
#define LOAD_ANY_LOADED "+loaded"
#define LOAD_ANY_IDLE "+idle"
static int load_is(const char *type, const char *load)
{
	if (strcmp(load, LOAD_ANY_LOADED) == 0)
		return strcmp(type, "none") != 0;
	if (strcmp(load, LOAD_ANY_IDLE) == 0)
		return strcmp(type, "none") == 0;
	return strcmp(type, load) == 0;
}

/*
 * The median of the latest EST_LATEST values of lines "WHAT KEY ..."
 * (load: the cell lines of that load type; NULL: a boot's up + down),
 * as a boot's ns or a cell's wall per second of its duration (ppm);
 * how many in *n. any_image: of every image booted as key's is.
 */
static int64_t est_median(const struct est_costs *ec, const char *key, const char *load,
			  int any_image, int *n)
{
	int64_t v[EST_LATEST];
	int count = 0;
	char line[512];

	*n = 0;
	for (size_t at = 0; ec->text && at < ec->len;) {
		size_t end = at;

		while (end < ec->len && ec->text[end] != '\n')
			end++;
		snprintf(line, sizeof(line), "%.*s", (int)(end - at < 511 ? end - at : 511),
			 ec->text + at);
		at = end + 1;
		char what[8], k[32], mode[16], type[64];
		long long cpus, a, b;
		char want[96];

		if (load && sscanf(line, "%7s %31s %15s %lld %63s %lld %lld", what, k, mode, &cpus,
				   type, &a, &b) == 7 && strcmp(what, "cell") == 0 &&
		    load_is(type, load) && a > 0 && b > 0) {
			snprintf(want, sizeof(want), "%s %s %lld", k, mode, cpus);
			if (est_key_is(want, key, any_image))
				v[count++ % EST_LATEST] = (int64_t)((long double)b * 1000000 / a);
		} else if (!load && sscanf(line, "%7s %31s %15s %lld %lld %lld", what, k, mode,
					   &cpus, &a, &b) == 6 && strcmp(what, "boot") == 0) {
			snprintf(want, sizeof(want), "%s %s %lld", k, mode, cpus);
			if (est_key_is(want, key, any_image))
				v[count++ % EST_LATEST] = a + b;
		}
	}
	if (count == 0)
		return 0;
	*n = count < EST_LATEST ? count : EST_LATEST;
	qsort(v, (size_t)*n, sizeof(v[0]), cmp_i64);
	return *n % 2 ? v[*n / 2] : (v[*n / 2 - 1] + v[*n / 2]) / 2;
}

/*
 * What a guest of `key` costs: its image's measurements, else those of
 * other images booted the same way (a second of hackbench costs what
 * emulating it costs, whichever kernel), else nothing (*how: EST_*).
 */
static int64_t est_cost(const struct est_costs *ec, const char *key, const char *load,
			int *how)
{
	int n;
	int64_t v = est_median(ec, key, load, 0, &n);

	*how = EST_MEASURED;
	if (n == 0) {
		v = est_median(ec, key, load, 1, &n);
		*how = n ? EST_LIKE : EST_GUESSED;
	}
	/*
	 * a load never measured here: as the other loads measured under
	 * guests booted the same way (idle cells as idle ones): an icount
	 * guest's idle second took 0.25 s here, a loaded one 7-9 s, where
	 * "its duration" was off by as much (the tutorial: 2 min 04 s said,
	 * 3 min 24 s taken)
	 */
	if (n == 0 && load) {
		v = est_median(ec, key, strcmp(load, "none") ? LOAD_ANY_LOADED : LOAD_ANY_IDLE, 1,
			       &n);
		*how = n ? EST_OTHER_LOAD : EST_GUESSED;
	}
	return v;
}

/*
 * With nothing measured here, a guest cell on the instruction clock: the
 * clock skips an idle guest's waits, and qemu emulates a loaded one's
 * every instruction. This VM, 2026-12-06 (Debian 6.1 stock and rt, one
 * vCPU): an idle cell took 0.25x its duration (n 16), one under net or
 * hackbench 7-9x (n 26); on the host's clock a cell takes its duration.
 */
#define EST_ICOUNT_IDLE_PPM 300000
#define EST_ICOUNT_LOADED_PPM 8000000

/* A guest cell of variant `key` under load type `load`: what it takes. */
static long double guest_cell_ns(const struct est_costs *ec, const char *key, const char *load,
				 int64_t duration, int icount, int *how)
{
	int64_t ppm = est_cost(ec, key, load, how);

	if (*how == EST_GUESSED && icount)
		return (long double)duration * (strcmp(load, "none") ? EST_ICOUNT_LOADED_PPM :
						EST_ICOUNT_IDLE_PPM) / 1000000 + CELL_OVERHEAD_NS;
	if (*how == EST_GUESSED)
		return (long double)duration + CELL_OVERHEAD_NS;
	return (long double)duration * ppm / 1000000;
}

/* Lanes: the guests side by side, each lane's end; a barrier ends them all. */
static long double lanes_max(const long double *lane, int jobs)
{
	long double m = 0;

	for (int j = 0; j < jobs; j++)
		if (lane[j] > m)
			m = lane[j];
	return m;
}

static void lanes_barrier(long double *lane, int jobs, long double add)
{
	long double t = lanes_max(lane, jobs) + add;

	for (int j = 0; j < jobs; j++)
		lane[j] = t;
}

static void lanes_take(long double *lane, int jobs, long double add)
{
	int best = 0;

	for (int j = 1; j < jobs; j++)
		if (lane[j] < lane[best])
			best = j;
	lane[best] += add;
}

static const char *load_type(const struct config *cfg, const struct cell *c)
{
	const struct load_def *l = &cfg->load[c->load];

	return l->ops ? l->type : "none";
}

int64_t est_campaign(const struct est_input *in, struct est_said *said)
{
	const struct config *cfg = in->cfg;
	int jobs = in->jobs < 1 ? 1 : in->jobs > 64 ? 64 : in->jobs;
	int rounds = cp_rounds_of(cfg);
	long double lane[64] = { 0 }, total;
	char (*key)[96] = calloc((size_t)cfg->nkernels, sizeof(*key));
	struct est_costs costs;

	memset(said, 0, sizeof(*said));
	est_costs_read(&costs);
	for (int v = 0; key && v < cfg->nkernels; v++)
		if (cfg->kernel[v].runner != RUNNER_HOST)
			est_variant_key(&cfg->kernel[v], in->image_key ? in->image_key[v] : 0,
					key[v], sizeof(key[v]));
	for (int r = 1; r <= rounds; r++) {
		int round = rounds > 1 ? r : 0;	/* as run_cells counts them */

		for (int v = 0; v < cfg->nkernels; v++) {
			const struct kernel_def *k = &cfg->kernel[v];
			enum where w = where_variant(cfg, v, in->kernel);
			int icount = k->clock == CLOCK_ICOUNT;

			if (w == WHERE_OTHER)
				continue;
			if (w == WHERE_HERE) {
				for (int i = 0; i < in->n; i++)
					if (in->cells[i].kernel == v && in->left[i] &&
					    (!round || in->cells[i].repeat == round))
						lanes_barrier(lane, jobs, (long double)cfg->campaign.duration +
								      CELL_OVERHEAD_NS);
				continue;
			}
			/* a boot a round, or an instruction-clock guest's boots
			 * of several rounds each, all at the first */
			for (int b = 0; b < cp_boots_at(cfg, v, round, jobs); b++) {
				struct cp_rounds br = cp_boot_at(cfg, v, round, jobs, b);
				long double cost = 0;
				int cells = 0, unbooted = 0, m;

				for (int i = 0; i < in->n; i++) {
					const struct cell *c = &in->cells[i];

					if (c->kernel != v || !in->left[i] ||
					    (br.first && (c->repeat < br.first || c->repeat > br.last)))
						continue;
					cells++;
					unbooted += in->left[i] == EST_TO_RUN;
					m = EST_GUESSED;
					cost += key ? guest_cell_ns(&costs, key[v], load_type(cfg, c),
								    cfg->campaign.duration, icount, &m)
						    : (long double)cfg->campaign.duration + CELL_OVERHEAD_NS;
					said->cells_guessed += m == EST_GUESSED;
					said->cells_like += m == EST_LIKE;
					said->cells_other_load += m == EST_OTHER_LOAD;
				}
				if (cells == 0)
					continue;
				int how = EST_GUESSED;
				int64_t boot = key ? est_cost(&costs, key[v], NULL, &how) : 0;

				/* a boot already under way has only its cells left; a
				 * container whose load runs on the host, one a cell */
				int starts = k->runner == RUNNER_CONTAINER && k->load_in == LOAD_IN_HOST
						     ? unbooted : unbooted > 0;

				said->boots += starts;
				said->boots_measured += how == EST_MEASURED ? starts : 0;
				said->boots_like += how == EST_LIKE ? starts : 0;
				cost += (long double)starts * (how == EST_GUESSED ? VM_BOOT_NS : boot);
				if (icount && jobs > 1)
					lanes_take(lane, jobs, cost);
				else
					lanes_barrier(lane, jobs, cost);
			}
		}
	}
	free(key);
	free(costs.text);
	total = lanes_max(lane, jobs);
	said->jobs = jobs;
	return total >= (long double)INT64_MAX ? INT64_MAX : (int64_t)total;
}
