#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "thresholds.h"

struct limit {
	const char *name;
	double pct;		/* 0: the max */
	int64_t value;
};

/* The first limit of `t` a thread breaks on `metric`; 1 if one did. */
static int check_limits(const struct threshold_opts *t, int metric,
			struct cell_result *res)
{
	const struct limit limits[] = {
		{ "p50", 50, t->p50 }, { "p90", 90, t->p90 },
		{ "p99", 99, t->p99 }, { "p99.9", 99.9, t->p99_9 },
		{ "p99.99", 99.99, t->p99_99 }, { "max", 0, t->max },
	};
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

		for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++) {
			if (limits[l].value == OPT_UNSET)
				continue;
			int64_t v = limits[l].pct > 0
				? hist_percentile(h, limits[l].pct) : h->max;
			if (v > limits[l].value) {
				snprintf(res->reason, sizeof(res->reason),
					 "thread %d %s %s = %lld ns > %lld ns",
					 i, name, limits[l].name, (long long)v,
					 (long long)limits[l].value);
				return 1;
			}
		}
		if (t->overruns != OPT_UNSET && (int64_t)w->overruns > t->overruns) {
			snprintf(res->reason, sizeof(res->reason),
				 "thread %d overruns = %llu > %lld", i,
				 (unsigned long long)w->overruns, (long long)t->overruns);
			return 1;
		}
		if (t->errors != OPT_UNSET && (int64_t)w->errors > t->errors) {
			snprintf(res->reason, sizeof(res->reason),
				 "thread %d errors = %llu > %lld", i,
				 (unsigned long long)w->errors, (long long)t->errors);
			return 1;
		}
	}
	return 0;
}

void cell_check_thresholds(const struct config *cfg, struct cell_result *res, int emulated)
{
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
		res->status = CELL_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "thread %d measured nothing: 0 samples, %llu errors%s%s", i,
			 (unsigned long long)w->errors, w->first_errno ? " (the first: " : "",
			 w->first_errno ? strerror(w->first_errno) : "");
		if (w->first_errno)
			strncat(res->reason, ")", sizeof(res->reason) - strlen(res->reason) - 1);
		return;
	}
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

		if (periods && w->overruns >= MISSED_MIN &&
		    w->overruns * 1000000 > (uint64_t)cfg->thresholds.missed_ppm * periods) {
			res->status = CELL_FAIL;
			snprintf(res->reason, sizeof(res->reason),
				 "thread %d missed %.1f %% of its periods (%llu of %llu) > missed = %.16s",
				 i, missed_pct(w->cycles, w->overruns),
				 (unsigned long long)w->overruns, (unsigned long long)periods,
				 cfg->thresholds.missed);
			return;
		}
	}
	if (cfg->has_thresholds &&
	    check_limits(&cfg->thresholds, cfg->thresholds.metric, res)) {
		res->status = CELL_FAIL;
		return;
	}
	for (int m = 0; m < METRIC_COUNT; m++)
		if (cfg->has_metric_thresholds[m] &&
		    check_limits(&cfg->metric_thresholds[m], m, res)) {
			res->status = CELL_FAIL;
			return;
		}
}
