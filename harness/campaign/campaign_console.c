#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign_run.h"
#include "files.h"
#include "hist.h"
#include "log.h"
#include "worker.h"

/*
 * On a terminal one line redrawn in place about twice a second; without
 * one, a plain line every minute of a long cell.
 */
void cp_tick(void *arg, int64_t elapsed, const int64_t max[METRIC_CORE])
{
	struct ticker *t = arg;
	int64_t dur = t->cp->cfg->campaign.duration;
	int64_t every = t->tty ? 500 * NS_PER_MS : 60 * NS_PER_S;
	char el[32], total[32], eta[32];

	if (elapsed < 0 || elapsed - t->last_ns < every)
		return;
	t->last_ns = elapsed;
	units_format_elapsed(elapsed, el, sizeof(el));
	units_format_elapsed(dur, total, sizeof(total));
	int64_t left = dur - elapsed + (int64_t)(t->n - t->i) *
		       (dur + CELL_OVERHEAD_NS);
	units_format_elapsed(left > 0 ? left : 0, eta, sizeof(eta));
	fprintf(stderr, "%s[%d/%d] %s  %s of %s, campaign ETA %s  max wakeup %.1f io %.1f response %.1f us%s",
		t->tty ? "\r" : "latlab: ", t->i, t->n, t->c->id, el, total,
		eta, max[0] / 1e3, max[1] / 1e3, max[2] / 1e3,
		t->tty ? "\033[K" : "\n");
	fflush(stderr);
}

/* "response max 8612.0 us": a metric's worst over the threads, in words. */
static void worst_of(const struct cell_result *res, int m, char *buf, size_t len)
{
	int64_t worst = -1;

	for (int i = 0; i < res->nthreads; i++)
		if (worker_has_metric(&res->workers[i], m) &&
		    res->workers[i].hist[m].max > worst)
			worst = res->workers[i].hist[m].max;
	if (worst < 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s max %.1f us", m == METRIC_NOISE_MAX ? "noise" :
			 metric_name(m), worst / 1e3);
}

/*
 * The cell's line: its workload's own metric first (response for I/O),
 * then the wake-up cyclictest would show, the share of periods missed
 * and the I/O errors.
 */
void cp_progress(const struct cell *c, const struct cell_result *res, int primary,
		 int done_n, int run_n)
{
	uint64_t errors = 0;
	int first = 0;
	double missed = 0;
	char errs[96] = "", own[64] = "", wake[64] = "", miss[48] = "";

	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];

		if (w->errors && !errors)
			first = w->first_errno;
		errors += w->errors;
		if (missed_pct(w->cycles, w->overruns) > missed)
			missed = missed_pct(w->cycles, w->overruns);
	}
	worst_of(res, primary, own, sizeof(own));
	if (!own[0])	/* a workload that did not record its own: the wake-up */
		primary = METRIC_WAKEUP;
	if (primary != METRIC_WAKEUP)
		worst_of(res, METRIC_WAKEUP, wake, sizeof(wake));
	else
		worst_of(res, METRIC_WAKEUP, own, sizeof(own));
	if (missed > 0)		/* the worst thread's share of its periods */
		snprintf(miss, sizeof(miss), ", missed %.1f %% of periods", missed);
	if (errors)
		snprintf(errs, sizeof(errs), ", %llu I/O errors (%s)",
			 (unsigned long long)errors, strerror(first));
	if (res->status == CELL_OK || res->status == CELL_FAIL ||
	    res->status == CELL_INTERRUPTED)
		log_info("[%d/%d] %s: %s, %s%s%s%s%s%s%s", done_n, run_n, c->id,
			 cell_status_name(res->status), own[0] ? own : "wakeup max 0.0 us",
			 wake[0] ? ", " : "", wake, miss, errs,
			 res->reason[0] ? ": " : "", res->reason);
	else if (res->status == CELL_ERROR)	/* -q hides progress, not errors */
		log_error("[%d/%d] %s: %s: %s", done_n, run_n, c->id,
			  cell_status_name(res->status), res->reason);
	else
		log_info("[%d/%d] %s: %s: %s", done_n, run_n, c->id,
			 cell_status_name(res->status), res->reason);
}

/* The wake-up a cell's table shows (metric_wakeup_of): of what its threads counted. */
static int brief_metric(const struct cell_result *res)
{
	unsigned counted = 0;

	for (int i = 0; i < res->nthreads; i++)
		for (int m = 0; m < METRIC_COUNT; m++)
			if (res->workers[i].hist[m].count)
				counted |= METRIC_BIT(m);
	return metric_wakeup_of(counted);
}

void cp_brief(struct chan_brief *b, const struct cell_result *res)
{
	struct hist *w = malloc(sizeof(*w)), *r = malloc(sizeof(*r));

	memset(b, 0, sizeof(*b));
	if (!w || !r || res->nthreads == 0 || res->status == CELL_SKIPPED ||
	    res->status == CELL_ERROR)
		goto out;	/* measured nothing: no zeros that look like figures */
	hist_init(w);
	hist_init(r);
	int wm = brief_metric(res);

	for (int i = 0; i < res->nthreads; i++) {
		hist_merge(w, &res->workers[i].hist[wm]);
		hist_merge(r, &res->workers[i].hist[METRIC_RESPONSE]);
		b->overruns += res->workers[i].overruns;
		b->errors += res->workers[i].errors;
	}
	b->measured = 1;
	b->samples = w->count;
	b->wakeup[0] = w->count ? w->min : 0;
	b->wakeup[1] = hist_percentile(w, 50);
	b->wakeup[2] = hist_percentile(w, 99);
	b->wakeup[3] = hist_percentile(w, 99.99);
	b->wakeup[4] = w->count ? w->max : 0;
	b->response_p99 = hist_percentile(r, 99);
	b->response_max = r->count ? r->max : 0;
	cell_why(res, b->why, sizeof(b->why));
out:
	free(w);
	free(r);
}

/* One LAVA test case; value (µs) may be NULL: a case without a measurement. */
static void lava_case(const char *name, const char *result, const char *value)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (value)
			execlp("lava-test-case", "lava-test-case", name, "--result",
			       result, "--measurement", value, "--units", "us",
			       (char *)NULL);
		else
			execlp("lava-test-case", "lava-test-case", name, "--result",
			       result, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * Board farms: when LAVA's lava-test-case is on PATH, every cell's max of
 * each metric becomes a LAVA test case, pass or fail with the cell. A
 * cell that measured nothing (skipped, an error, no sample) is one case
 * of its own, skip or fail, with no measurement: never a pass of 0 µs.
 * Its standard output is latlab's: the <LAVA_SIGNAL_TESTCASE ...> line
 * it prints there is what LAVA reads off the board's console.
 */
void cp_lava(const struct cell *c, const struct cell_result *res)
{
	uint64_t samples = 0;

	for (int i = 0; i < res->nthreads; i++)
		samples += res->workers[i].hist[brief_metric(res)].count;
	if (samples == 0) {
		lava_case(c->id, res->status == CELL_SKIPPED ? "skip" : "fail", NULL);
		return;
	}
	for (int m = 0; m < METRIC_COUNT; m++) {
		int64_t max = 0;

		if (!worker_has_metric(&res->workers[0], m))
			continue;
		char name[CELL_ID_MAX + 32], value[32];

		for (int i = 0; i < res->nthreads; i++)
			if (res->workers[i].hist[m].max > max)
				max = res->workers[i].hist[m].max;
		snprintf(name, sizeof(name), "%s-%s-max", c->id, metric_name(m));
		snprintf(value, sizeof(value), "%.1f", max / 1e3);
		lava_case(name, res->status == CELL_OK ? "pass" : "fail", value);
	}
}

int cp_lava_present(void)
{
	char file[PATH_MAX + 32];

	return path_lookup("lava-test-case", file, sizeof(file)) == 0;
}

/* The cyclictest-style table at the end of a run, in microseconds. */
void cp_print_table(const struct campaign *cp, FILE *out)
{
	int w = 4;

	for (int i = 0; i < cp->ncells; i++)
		if ((int)strlen(cp->cells[i].id) > w)
			w = (int)strlen(cp->cells[i].id);
	int why = 0;

	for (int i = 0; i < cp->ncells; i++)
		why |= cp->brief[i].why[0] != 0;
	fprintf(out, "\n%-*s %-11s %8s %5s %5s | %-36s | %s\n", w, "", "", "",
		"", "", "           wakeup latency (us)", "response (us)");
	fprintf(out, "%-*s %-11s %8s %5s %5s | %6s %6s %6s %7s %7s | %6s %7s%s\n",
		w, "cell", "status", "samples", "ovrun", "err", "min", "p50",
		"p99", "p99.99", "max", "p99", "max", why ? " | why (worst capture)" : "");
	for (int i = 0; i < cp->ncells; i++) {
		const struct chan_brief *b = &cp->brief[i];

		fprintf(out, "%-*s %-11s", w, cp->cells[i].id,
			cell_status_name(cp->lg.status[i]));
		if (!b->measured) {
			const char *reason = cp->lg.reason[i] ? cp->lg.reason[i] : "";

			if (cp->kept[i])
				fputs(" (from an earlier run: see cells.csv)", out);
			else if (reason[0])
				fprintf(out, " (%s)", reason);
			fputc('\n', out);
			continue;
		}
		char resp[32];

		/* a cell with no response of its own (cyclictest's, a watched program's): none, not 0 */
		if (b->response_max)
			snprintf(resp, sizeof(resp), "%6.1f %7.1f", b->response_p99 / 1e3,
				 b->response_max / 1e3);
		else
			snprintf(resp, sizeof(resp), "%6s %7s", "-", "-");
		fprintf(out, " %8llu %5llu %5llu | %6.1f %6.1f %6.1f %7.1f %7.1f | %s%s%s\n",
			(unsigned long long)b->samples,
			(unsigned long long)b->overruns,
			(unsigned long long)b->errors, b->wakeup[0] / 1e3,
			b->wakeup[1] / 1e3, b->wakeup[2] / 1e3,
			b->wakeup[3] / 1e3, b->wakeup[4] / 1e3, resp,
			why ? " | " : "", b->why);
	}
}

