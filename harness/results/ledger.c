#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "cellfiles.h"
#include "cellread.h"
#include "csvfile.h"
#include "junit.h"
#include "files.h"
#include "ledger.h"
#include "version.h"
#include "log.h"
#include "options.h"
#include "units.h"

/* What a cells.csv column before the summary's holds: an axis's value, or one of these. */
enum head_kind {
	HEAD_AXIS, HEAD_CAMPAIGN, HEAD_CELL, HEAD_INDEX, HEAD_REPEAT,
	/* what happened: known once the cell ran (but status, reason, why and missed_pct) */
	HEAD_HOST, HEAD_RELEASE, HEAD_POLICY, HEAD_STATUS, HEAD_REASON, HEAD_WHY, HEAD_PREEMPT,
	HEAD_MISSED, HEAD_NONE
};

struct head_col {
	enum head_kind kind;
	int axis;		/* HEAD_AXIS: its TAXIS_ */
};

#define HEAD_COLS_MAX 64

static struct head_col head_table[HEAD_COLS_MAX];
static int nhead;

/* The columns before the summary's (cells_head_columns), each's kind. */
static void head_make(void)
{
	static const struct { const char *name; enum head_kind kind; } named[] = {
		{ "campaign", HEAD_CAMPAIGN }, { "cell", HEAD_CELL }, { "index", HEAD_INDEX },
		{ "repeat", HEAD_REPEAT }, { "host", HEAD_HOST }, { "kernel_release", HEAD_RELEASE },
		{ "policy", HEAD_POLICY }, { "status", HEAD_STATUS }, { "reason", HEAD_REASON },
		{ "why", HEAD_WHY }, { "preempt", HEAD_PREEMPT }, { "missed_pct", HEAD_MISSED },
	};
	char columns[CELLS_HEAD_MAX], name[64];

	cells_head_columns(columns, sizeof(columns));
	for (const char *p = columns;
	     nhead < HEAD_COLS_MAX && opt_list_next(&p, name, sizeof(name), 0) && name[0]; nhead++) {
		struct head_col *h = &head_table[nhead];

		h->axis = taxis_of_column(name);
		/* the policy's column says the one the thread got */
		h->kind = h->axis >= 0 && h->axis != TAXIS_POLICY ? HEAD_AXIS : HEAD_NONE;
		for (size_t k = 0; h->kind == HEAD_NONE && k < sizeof(named) / sizeof(named[0]); k++)
			if (!strcmp(name, named[k].name))
				h->kind = named[k].kind;
	}
}

/* The table, made once (guests' rows are written from several threads). */
static const struct head_col *head_cols(int *n)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, head_make);
	*n = nhead;
	return head_table;
}

/* What happened to a cell, for its rows' head. */
struct row_said {
	enum cell_status st;
	const char *host, *release, *policy, *reason, *why, *preempt, *missed;
};

/*
 * A cells.csv row's fields before the summary's, column by column
 * (cells_head_columns): each axis's value from the axis table (the
 * policy's the one the thread got), and where and how the cell ran.
 */
static void row_head(struct csvw *w, const struct config *cfg, const struct cell *c,
		     const struct row_said *r)
{
	char text[AXIS_ITEM_MAX];
	int n, pending = r->st == CELL_PENDING;
	const struct head_col *cols = head_cols(&n);

	for (const struct head_col *h = cols; h < cols + n; h++) {
		switch (h->kind) {
		case HEAD_AXIS:
			cell_axis_text(cfg, c, h->axis, 0, text, sizeof(text));
			csvw_str(w, text);
			break;
		case HEAD_CAMPAIGN: csvw_str(w, cfg->campaign.name); break;
		case HEAD_CELL: csvw_str(w, c->id); break;
		case HEAD_INDEX: csvw_int(w, c->index); break;
		case HEAD_REPEAT: csvw_int(w, c->repeat); break;
		case HEAD_STATUS: csvw_str(w, cell_status_name(r->st)); break;
		case HEAD_REASON: csvw_str(w, r->reason); break;
		case HEAD_WHY: csvw_str(w, r->why); break;
		case HEAD_MISSED: csvw_str(w, r->missed); break;
		/* empty for a pending cell, where it is not known yet */
		case HEAD_HOST: csvw_str(w, pending ? "" : r->host); break;
		case HEAD_RELEASE: csvw_str(w, pending ? "" : r->release); break;
		case HEAD_POLICY: csvw_str(w, pending ? "" : r->policy); break;
		case HEAD_PREEMPT: csvw_str(w, pending ? "" : r->preempt); break;
		case HEAD_NONE: csvw_str(w, ""); break;
		}
	}
}

/* missed_pct as cells.csv has it: two decimals, "" for a thread with no period. */
static void missed_field(char *buf, size_t len, uint64_t samples, uint64_t overruns)
{
	if (samples + overruns == 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.2f", missed_pct(samples, overruns));
}

/* How many columns summary.csv has. */
static int summary_ncols(void)
{
	int n = 0;

	for (const char *col = SUMMARY_COLUMNS; col; col = strchr(col + 1, ','))
		n++;
	return n;
}

/* The summary's fields left empty: a cell that measured nothing. */
static void empty_summary(struct csvw *w)
{
	for (int k = summary_ncols(); k > 0; k--)
		csvw_str(w, "");
}

char *ledger_rows(const struct config *cfg, const struct cell *c,
		  enum cell_status st, const struct cell_result *res,
		  const char *host, const char *release, int policy)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct csvw w = { .fp = fp };
	/* a row per thread x metric it records when it measured; else one, stats empty */
	int measured = res && res->nthreads && st != CELL_ERROR &&
		       st != CELL_SKIPPED;
	int nrows = measured ? res->nthreads * METRIC_COUNT : 1;
	char why[160] = "";

	if (!fp)
		return NULL;
	if (res)
		cell_why(res, why, sizeof(why));
	for (int r = 0; r < nrows; r++) {
		const struct worker *wk = measured ? &res->workers[r / METRIC_COUNT] : NULL;
		char missed[24] = "";

		if (wk && !worker_has_metric(wk, r % METRIC_COUNT))
			continue;
		if (wk)
			missed_field(missed, sizeof(missed), wk->cycles, wk->overruns);
		struct row_said said = {
			st, host, release, policy == SCHED_OTHER ? "other" : policy_name(c->policy),
			res ? res->reason : "", why, res ? res->preempt : "", missed,
		};

		row_head(&w, cfg, c, &said);
		if (wk)
			cell_summary_fields(&w, wk, r % METRIC_COUNT);
		else
			empty_summary(&w);
		csvw_end(&w);
	}
	fclose(fp);
	return text;
}

char *ledger_rows_from_dir(const struct config *cfg, const struct cell *c,
			   const char *dir, const char *host, const char *release,
			   enum cell_status *said)
{
	char path[PATH_MAX + 32], status[32], policy[16], reason[512],
		why[256], preempt[64], err[PATH_MAX + 256];
	struct csv_table t;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int st;

	cell_ini_get(dir, CELLF_INI, "cell", "status", status, sizeof(status));
	cell_ini_get(dir, CELLF_INI, "cell", "policy", policy, sizeof(policy));
	cell_ini_get(dir, CELLF_INI, "cell", "reason", reason, sizeof(reason));
	cell_ini_get(dir, CELLF_INI, "cell", "why", why, sizeof(why));
	/* the kernel it ran on: sysinfo.ini's "voluntary (dynamic)" is voluntary */
	cell_ini_get(dir, CELLF_SYSINFO, "kernel", "preempt", preempt, sizeof(preempt));
	preempt[strcspn(preempt, " ")] = '\0';
	st = cell_status_parse(status);
	cell_file_path(path, sizeof(path), dir, CELLF_SUMMARY);
	if (st < 0 || st == CELL_PENDING || st == CELL_RUNNING || st == CELL_PARTIAL)
		return NULL;
	/* a cell that measured nothing has no summary.csv: one row, empty */
	memset(&t, 0, sizeof(t));
	if (csv_table_read(path, &t, err, sizeof(err)) != 0 &&
	    (access(path, F_OK) == 0 || st == CELL_OK || st == CELL_FAIL))
		return NULL;
	fp = open_memstream(&text, &len);
	if (fp) {
		struct csvw w = { .fp = fp };
		int ncols = summary_ncols();

		for (int r = 1; r < t.nrows || (r == 1 && t.nrows <= 1); r++) {
			char missed[24] = "";

			if (r < t.nrows)
				missed_field(missed, sizeof(missed),
					   strtoull(csv_table_str(&t, r, "samples"), NULL, 10),
					   strtoull(csv_table_str(&t, r, "overruns"), NULL, 10));
			struct row_said rs = {
				(enum cell_status)st, host, release, policy, reason, why, preempt, missed,
			};

			row_head(&w, cfg, c, &rs);
			if (r < t.nrows && t.ncols[r] == ncols)
				for (int k = 0; k < ncols; k++)
					csvw_str(&w, t.cell[r][k]);
			else
				empty_summary(&w);
			csvw_end(&w);
		}
		fclose(fp);
	}
	csv_table_free(&t);
	if (text && said)
		*said = (enum cell_status)st;
	return text;
}

static void fill_cells_csv(FILE *fp, void *arg)
{
	const struct ledger *lg = arg;
	char head[CELLS_HEAD_MAX];

	cells_head_columns(head, sizeof(head));
	fprintf(fp, "%s%s\n", head, SUMMARY_COLUMNS);
	for (int i = 0; i < lg->ncells; i++)
		if (lg->rows[i])
			fputs(lg->rows[i], fp);
}

static void fill_state(FILE *fp, void *arg)
{
	const struct ledger *lg = arg;

	fprintf(fp, "# latlab campaign state: one line per cell (a later line of a cell wins)\n");
	fprintf(fp, "config_hash = %016llx\n",
		(unsigned long long)config_hash(lg->cfg));
	fprintf(fp, "cells = %d\n", lg->ncells);
	if (lg->reboot_to[0])
		fprintf(fp, "reboot_to = %s\n", lg->reboot_to);
	for (int v = 0; v < lg->cfg->nkernels; v++)
		if (lg->boot_tries[v])
			fprintf(fp, "boot_tries.%s = %d\n", lg->cfg->kernel[v].name,
				lg->boot_tries[v]);
	if (lg->boot_id[0])
		fprintf(fp, "boot_id = %s\n", lg->boot_id);
	for (int i = 0; i < lg->ncells; i++)
		if (lg->went_down && lg->went_down[i])
			fprintf(fp, "went_down.%s = %d\n", lg->cells[i].id, lg->went_down[i]);
	for (int i = 0; i < lg->ncells; i++)
		fprintf(fp, "%s = %s\n", lg->cells[i].id,
			cell_status_name(lg->status[i]));
}

struct junit_cells {
	const struct ledger *lg;
	char name[OPT_STR_MAX + 8];	/* latlab.CAMPAIGN */
};

/* Cell i as a testcase: failed, in error, skipped or not run yet. */
static void junit_cell(int i, struct junit_case *c, void *arg)
{
	const struct junit_cells *jc = arg;
	const struct ledger *lg = jc->lg;
	enum cell_status st = lg->status[i];
	const char *why = lg->reason[i] ? lg->reason[i] : "";
	int ran = st == CELL_OK || st == CELL_FAIL || st == CELL_INTERRUPTED;

	c->classname = jc->name;
	c->name = lg->cells[i].id;
	c->time_s = ran ? (double)lg->cfg->campaign.duration / NS_PER_S : 0.0;
	c->type = cell_status_name(st);
	if (st == CELL_FAIL || st == CELL_ERROR || st == CELL_INTERRUPTED) {
		c->result = st == CELL_FAIL ? JUNIT_FAILURE : JUNIT_ERROR;
		c->message = why[0] ? why : cell_status_name(st);
	} else if (st != CELL_OK) {
		c->result = JUNIT_SKIPPED;
		c->message = st == CELL_SKIPPED ? why : "not run on this kernel yet";
	} else {
		c->out = why;	/* an ok cell's thresholds not judged */
	}
}

/* junit.xml: one testcase per cell, for Jenkins and GitLab. */
static void fill_junit(FILE *fp, void *arg)
{
	struct junit_cells jc = { .lg = arg };

	snprintf(jc.name, sizeof(jc.name), "latlab.%s", jc.lg->cfg->campaign.name);
	junit_write(fp, &(struct junit_suite){ jc.name, 1 }, jc.lg->ncells, junit_cell, &jc);
}

int ledger_write(struct ledger *lg, const char *dir)
{
	/* the cast: afile_write's fill takes void *; the fills only read */
	void *arg = (void *)lg;
	static const struct {
		const char *name;
		void (*fill)(FILE *, void *);
	} files[] = {
		{ "cells.csv", fill_cells_csv }, { "state", fill_state },
		{ "junit.xml", fill_junit },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int rc = afile_write(dir, files[i].name, files[i].fill, arg);

		if (rc) {	/* the file that failed, by name (ENOSPC) */
			log_error("writing %s/%s: %s", dir, files[i].name, strerror(-rc));
			return rc;
		}
	}
	lg->appended = 0;
	lg->written_ns = units_now_ns();
	return 0;
}

int ledger_mark(struct ledger *lg, const char *dir, int i)
{
	char path[PATH_MAX];
	int fd, rc = 0;

	if (!lg->written_ns)
		return ledger_write(lg, dir);	/* no state to append to yet */
	snprintf(path, sizeof(path), "%s/state", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		rc = -errno;
	else if (dprintf(fd, "%s = %s\n", lg->cells[i].id,
			 cell_status_name(lg->status[i])) < 0 || fdatasync(fd) != 0)
		rc = -errno;
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc) {
		log_error("writing %s: %s", path, strerror(-rc));
		return rc;
	}
	lg->appended++;
	return 0;
}

void ledger_settle(struct ledger *lg, int i, enum cell_status status, const char *reason,
		   char *rows)
{
	lg->status[i] = status;
	free(lg->reason[i]);
	lg->reason[i] = reason ? strdup(reason) : NULL;
	free(lg->rows[i]);
	lg->rows[i] = rows;
}

int ledger_progress(struct ledger *lg, const char *dir, int i)
{
	int rc = ledger_mark(lg, dir, i);

	/*
	 * A whole write costs as much as the campaign is big: wait for
	 * LEDGER_EVERY_NS and for 1/32 of the cells' lines, so that its cost
	 * per cell stays the same however many cells there are; but never
	 * longer than LEDGER_STALE_NS, since cells done after the last whole
	 * write run again after a crash (their rows are not in cells.csv).
	 */
	int64_t since = units_now_ns() - lg->written_ns;

	if (rc == 0 && ((since >= LEDGER_EVERY_NS && lg->appended >= lg->ncells / 32) ||
			since >= LEDGER_STALE_NS || lg->appended > 2 * lg->ncells))
		rc = ledger_write(lg, dir);
	return rc;
}

int ledger_init(struct ledger *lg, const struct config *cfg,
		const struct cell *cells, int ncells)
{
	memset(lg, 0, sizeof(*lg));
	lg->cfg = cfg;
	lg->cells = cells;
	lg->ncells = ncells;
	lg->rows = calloc((size_t)ncells + 1, sizeof(*lg->rows));
	lg->reason = calloc((size_t)ncells + 1, sizeof(*lg->reason));
	lg->status = calloc((size_t)ncells + 1, sizeof(*lg->status));
	lg->went_down = calloc((size_t)ncells + 1, sizeof(*lg->went_down));
	ledger_boot_id(lg->boot_id, sizeof(lg->boot_id));
	if (lg->rows && lg->reason && lg->status && lg->went_down)
		return 0;
	ledger_free(lg);
	return -ENOMEM;
}

void ledger_free(struct ledger *lg)
{
	for (int i = 0; lg->rows && i < lg->ncells; i++)
		free(lg->rows[i]);
	for (int i = 0; lg->reason && i < lg->ncells; i++)
		free(lg->reason[i]);
	free(lg->rows);
	free(lg->reason);
	free(lg->status);
	free(lg->went_down);
	lg->rows = lg->reason = NULL;
	lg->status = NULL;
	lg->went_down = NULL;
}

void ledger_boot_id(char *buf, size_t len)
{
	const char *fake = getenv("LATLAB_FAKE_BOOT_ID");	/* the tests' own */

	buf[0] = '\0';
	if (fake && *fake)
		snprintf(buf, len, "%s", fake);
	else
		file_first_line("/proc/sys/kernel/random/boot_id", buf, len);
	buf[strcspn(buf, " \t\n")] = '\0';
}

static void fill_config(FILE *fp, void *arg)
{
	fprintf(fp, "; resolved by latlab %s: every default filled in\n", version_text());
	config_write_ini(fp, arg);
}

int ledger_write_config(const char *dir, const struct config *cfg)
{
	/* the cast: afile_write's fill takes void *; fill_config only reads */
	return afile_write(dir, "campaign.ini", fill_config, (void *)cfg);
}

int ledger_config_path(char *buf, size_t len, const char *dir)
{
	int n = snprintf(buf, len, "%s/campaign.ini", dir);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
