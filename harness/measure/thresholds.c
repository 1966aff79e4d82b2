#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "hist.h"
#include "thresholds.h"

struct limit {
	const char *name;
	double pct;		/* 0: the max */
	int64_t value;
};

/* A limit's value a missed period stands for: later than any. */
#define MISSED_VALUE INT64_MAX

/*
 * Do a thread's missed periods count on metric m? latlab's own figures of
 * each period (the wake-up, the I/O, the response, a step): a period that
 * never ran is later than any limit. Not the corrected wake-up (it holds
 * them already) nor the kernel's own figures (timerlat, the watch) or a
 * workload's own (noise), which are not of latlab's periods.
 */
static int counts_missed(int m)
{
	return m == METRIC_WAKEUP || m == METRIC_IO || m == METRIC_RESPONSE ||
	       (m >= METRIC_IO_STEP1 && m <= METRIC_IO_STEP4);
}

/*
 * Percentile pct (0: the max) of h with `missed` periods above every
 * sample: MISSED_VALUE where it falls on a missed period.
 */
static int64_t value_at(const struct hist *h, double pct, uint64_t missed)
{
	if (!missed)
		return pct > 0 ? hist_percentile(h, pct) : h->max;
	if (pct <= 0)
		return MISSED_VALUE;
	double rank = ceil(pct / 100.0 * ((double)h->count + (double)missed));

	if (rank > (double)h->count || h->count == 0)
		return MISSED_VALUE;
	return hist_percentile(h, 100.0 * rank / (double)h->count);
}

/* Append "; TEXT" (or TEXT first) to res->reason, cut with "…" when full. */
static void broken(struct cell_result *res, int *n, const char *text)
{
	size_t u = strlen(res->reason);

	if (u + strlen(text) + 3 >= sizeof(res->reason)) {
		if (u + 5 < sizeof(res->reason) && !strstr(res->reason, "…"))
			snprintf(res->reason + u, sizeof(res->reason) - u, "; …");
	} else {
		snprintf(res->reason + u, sizeof(res->reason) - u, "%s%s", *n ? "; " : "", text);
	}
	(*n)++;
}

/*
 * Every limit of `t` a thread breaks on `metric`, each appended to the
 * reason; how many. A missed period counts against a limit below the
 * cell's period (it never ran by then); past it, how late it would have
 * been is not known.
 */
static int check_limits(const struct threshold_opts *t, int metric, const struct cell *c,
			const struct vouch_facts *f, struct cell_result *res, int count)
{
	const struct limit limits[] = {
		{ "p50", 50, t->p50 }, { "p90", 90, t->p90 },
		{ "p99", 99, t->p99 }, { "p99.9", 99.9, t->p99_9 },
		{ "p99.99", 99.99, t->p99_99 }, { "max", 0, t->max },
	};
	int n = count;
	char text[256];

	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];
		/*
		 * a watched program's thread (type = watch) has no wake-up of
		 * latlab's: the wake-up's limits judge the kernel's figure
		 * (metric_wakeup_of)
		 */
		int m = metric == METRIC_WAKEUP ? metric_wakeup_of(w->metrics) : metric;
		const char *name = metric_name(m);
		const struct hist *h = &w->hist[m];
		uint64_t missed = counts_missed(m) && vouch_misses_count(f) ? w->overruns : 0;

		for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++) {
			if (limits[l].value == OPT_UNSET)
				continue;
			int64_t v = value_at(h, limits[l].pct,
					     limits[l].value < c->interval ? missed : 0);

			if (v <= limits[l].value)
				continue;
			if (v == MISSED_VALUE)
				snprintf(text, sizeof(text),
					 "thread %d %s %s = a missed period (%llu of %llu never ran: later than any limit below the period) > %lld ns",
					 i, name, limits[l].name, (unsigned long long)missed,
					 (unsigned long long)(w->cycles + missed),
					 (long long)limits[l].value);
			else
				snprintf(text, sizeof(text), "thread %d %s %s = %lld ns > %lld ns", i, name,
					 limits[l].name, (long long)v, (long long)limits[l].value);
			broken(res, &n, text);
		}
		if (t->overruns != OPT_UNSET && (int64_t)w->overruns > t->overruns) {
			snprintf(text, sizeof(text), "thread %d overruns = %llu > %lld", i,
				 (unsigned long long)w->overruns, (long long)t->overruns);
			broken(res, &n, text);
		}
		if (t->errors != OPT_UNSET && (int64_t)w->errors > t->errors) {
			snprintf(text, sizeof(text), "thread %d errors = %llu > %lld", i,
				 (unsigned long long)w->errors, (long long)t->errors);
			broken(res, &n, text);
		}
	}
	return n;
}

/*
 * Limits on a figure the run cannot vouch for (vouch.h: an emulator's
 * pace, a device's wait on the instruction clock) are not judged: said in
 * res->unjudged. Missed periods are no reason: they are counted as late.
 */
static int judged_on(const struct vouch_facts *f, int metric, struct cell_result *res)
{
	unsigned why = vouch_metric(f, metric) & ~(VR_BIT(VR_STATUS) | VR_BIT(VR_MISSED));
	char keys[64];
	size_t u = strlen(res->unjudged);

	if (!why)
		return 1;
	vouch_keywords(why, keys, sizeof(keys));
	if (u < sizeof(res->unjudged))
		snprintf(res->unjudged + u, sizeof(res->unjudged) - u, "%s%s (%s)", u ? ", " : "",
			 metric_name(metric), keys);
	return 0;
}

void cell_check_thresholds(const struct config *cfg, const struct cell *c,
			   struct cell_result *res, int emulated)
{
	struct vouch_facts f;
	int n = 0;

	if (res->status != CELL_OK)
		return;
	/* ok claims a measurement: a thread with no sample made none */
	for (int i = 0; i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];
		int some = 0;

		/* latlab's thread: its wake-ups; a watched one: its wake-ups the kernel saw */
		for (int m = 0; m < METRIC_COUNT; m++)
			some |= worker_has_metric(w, m) && w->hist[m].count > 0;
		if (some)
			continue;
		cell_end_with(res, CELL_ERROR, "thread %d measured nothing: 0 samples, %llu errors%s%s", i,
			      (unsigned long long)w->errors, w->first_errno ? " (the first: " : "",
			      w->first_errno ? strerror(w->first_errno) : "");
		if (w->first_errno)
			strncat(res->reason, ")", sizeof(res->reason) - strlen(res->reason) - 1);
		return;
	}
	cell_vouch_facts(cfg, c, res, emulated, &f);
	res->reason[0] = '\0';
	/*
	 * Periods missed: a share of a thread's, the same for every metric.
	 * Judged from MISSED_MIN of them: one stall of a few periods in a short
	 * cell (a VM's steal) is said in every file, not called a failure.
	 */
	int judge_missed = cfg->thresholds.missed_ppm >= 0 &&
			   (cfg->thresholds.missed_given || !emulated);

	for (int i = 0; judge_missed && i < res->nthreads; i++) {
		const struct worker *w = &res->workers[i];
		uint64_t periods = w->cycles + w->overruns;
		char text[256];

		if (periods && w->overruns >= MISSED_MIN &&
		    w->overruns * 1000000 > (uint64_t)cfg->thresholds.missed_ppm * periods) {
			snprintf(text, sizeof(text),
				 "thread %d missed %.1f %% of its periods (%llu of %llu) > missed = %.16s",
				 i, missed_pct(w->cycles, w->overruns),
				 (unsigned long long)w->overruns, (unsigned long long)periods,
				 cfg->thresholds.missed);
			broken(res, &n, text);
		}
	}
	if (cfg->has_thresholds && judged_on(&f, cfg->thresholds.metric, res))
		n = check_limits(&cfg->thresholds, cfg->thresholds.metric, c, &f, res, n);
	for (int m = 0; m < METRIC_COUNT; m++)
		if (cfg->has_metric_thresholds[m] && judged_on(&f, m, res))
			n = check_limits(&cfg->metric_thresholds[m], m, c, &f, res, n);
	if (n)
		res->status = CELL_FAIL;
	if (res->unjudged[0]) {	/* said with the verdict, in cells.csv and junit.xml too */
		char text[400];

		snprintf(text, sizeof(text), "not judged: %s, a figure the run cannot vouch for",
			 res->unjudged);
		broken(res, &n, text);
	}
}
