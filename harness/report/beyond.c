#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "beyond.h"
#include "csvfile.h"
#include "files.h"
#include "html.h"
#include "ledger.h"
#include "metric.h"
#include "units.h"

/*
 * The deadline a tree's campaign set: its campaign.ini's [thresholds]
 * max on the wake-up (the default metric). 0 when it set none or names
 * another metric; *ns the deadline.
 */
static int tree_deadline(const char *tree_dir, int64_t *ns)
{
	char path[PATH_MAX], v[64], metric[64];

	*ns = 0;
	if (ledger_config_path(path, sizeof(path), tree_dir) != 0)
		return 0;
	file_ini_value(path, "thresholds", "metric", metric, sizeof(metric));
	if (metric[0] && strcmp(metric, "wakeup") != 0)
		return 0;
	file_ini_value(path, "thresholds", "max", v, sizeof(v));
	return v[0] && units_parse_duration(v, ns) == 0 && *ns > 0;
}

/*
 * beyond.why's own reason beside vouch.h's: the figure can be judged, but
 * the periods it missed after waits for an emulated device on the
 * instruction clock cannot be counted (vouch_misses_count)
 */
#define MISSES_UNVOUCHED (1u << 31)

/* A group's period: its runs' (the interval is an axis: one per row). */
static int64_t group_interval(const struct rows_group *gr)
{
	return gr->n ? gr->run[0]->interval : 0;
}

int beyond_start(struct beyond *b, const struct rows *m, const char *const *label,
		 int64_t deadline_ns, double target, const char *tree_dir)
{
	b->m = m;
	b->label = label;
	b->deadline_ns = deadline_ns;
	b->target = target;
	b->fit = NULL;
	if (!b->deadline_ns && tree_dir)
		tree_deadline(tree_dir, &b->deadline_ns);
	if (b->deadline_ns <= 0)
		return 0;
	b->fit = calloc((size_t)m->ngroups + 1, sizeof(*b->fit));
	b->why = calloc((size_t)m->ngroups + 1, sizeof(*b->why));
	b->why_run = calloc((size_t)m->ngroups + 1, sizeof(*b->why_run));
	if (!b->fit || !b->why || !b->why_run)
		return -ENOMEM;
	for (int g = 0; g < m->ngroups; g++) {
		const struct rows_group *gr = &m->group[g];
		struct side_runs s = rows_runs(m, gr->row, gr->side);
		const struct hist **h = calloc((size_t)s.n + 1, sizeof(*h));
		uint64_t *missed = calloc((size_t)s.n + 1, sizeof(*missed));
		struct tailfit_blocks *blocks = calloc((size_t)s.n + 1, sizeof(*blocks));
		int rc = h && missed && blocks ? 0 : -ENOMEM;
		/*
		 * a missed period is a deadline missed (the corrected wake-up
		 * holds them already) — where the run can vouch for it
		 */
		unsigned unvouched = 0;

		for (int i = 0; rc == 0 && i < s.n; i++) {
			uint64_t (*count)[TL_BINS];

			h[i] = verdict_run_hist(&s, s.run[i]);
			missed[i] = s.metric == METRIC_WAKEUP_CORRECTED ? 0 : s.run[i]->overruns;
			if (missed[i] && !vouch_misses_count(&s.run[i]->vf))
				unvouched = MISSES_UNVOUCHED;
			rc = tcell_blocks(s.run[i], s.metric, &count);
			blocks[i] = (struct tailfit_blocks){ rc > 0 ? rc : 0, count };
			rc = rc < 0 ? rc : 0;
		}
		struct tailfit_in in = { .run = h, .missed = missed, .blocks = blocks, .n = s.n,
					 .deadline_ns = b->deadline_ns,
					 .late = b->deadline_ns < group_interval(gr), .target = b->target,
					 .threads = s.n ? s.run[0]->nthreads : 1 };

		if (rc == 0)
			rc = tailfit_runs(&in, &b->fit[g]);

		/*
		 * missed periods are counted above; a figure of another pace is
		 * not, nor are periods missed after an emulated device's wait
		 */
		const struct tcell *first;

		b->why[g] = verdict_side_why(&s, &first) & ~VR_BIT(VR_MISSED);
		b->why_run[g] = first;
		if (!b->why[g])
			b->why[g] = unvouched;

		for (int i = 0; blocks && i < s.n; i++)
			free((void *)blocks[i].count);
		free(blocks);
		free(h);
		free(missed);
		if (rc == -ENOMEM)
			return rc;
	}
	return 0;
}

void beyond_free(struct beyond *b)
{
	free(b->fit);
	free(b->why);
	free(b->why_run);
	b->fit = NULL;
	b->why = NULL;
	b->why_run = NULL;
}

/* A probability with two significant digits: "2.1e-06", "0.36", "0"; below 1e-30 says so */
static void prob(double p, char *buf, size_t len)
{
	if (p == 0 || !isfinite(p))
		snprintf(buf, len, "%s", isnan(p) ? "—" : "0");
	else if (p < 1e-30)
		snprintf(buf, len, "below 1e-30");
	else
		snprintf(buf, len, "%.2g", p);
}

/* The interval's upper end: "1" is "not bounded below certainty". */
static void upper(double p, double scale, char *buf, size_t len)
{
	if (p >= 1)
		snprintf(buf, len, "unbounded");
	else
		prob(p * scale, buf, len);
}

static double per_hour(int64_t interval_ns)
{
	return interval_ns > 0 ? 3.6e12 / (double)interval_ns : NAN;
}

/* A whole count with thousands apart: "23,900", "48". */
static void count_words(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* Why nothing is estimated beyond the runs, in plain words. */
static const char *why_not(int s)
{
	switch (s) {
	case TF_ONE_RUN: return "one run cannot show whether late periods come in bunches";
	case TF_FEW: return "too few periods came near it to estimate the tail";
	case TF_REJECTED: return "the runs' tail fits no smooth law";
	case TF_CLUSTERED: return "late periods came in bunches within runs";
	case TF_DRIFT: return "the runs differ from each other, in their body as in their tail";
	case TF_MISSED: return "periods were missed, and a deadline at or past the period says nothing of how late they were";
	default: return "no estimate";
	}
}

/* The statistics behind the words (the page's, and beyond.csv's). */
static void statistics(const struct tailfit *t, char *how, size_t hlen)
{
	char seen[48], obs[48];

	count_words(t->periods, seen, sizeof(seen));
	count_words((double)t->observed, obs, sizeof(obs));
	switch (t->status) {
	case TF_FIT: {
		char u[32], k[48];

		snprintf(u, sizeof(u), "%.1f µs", US(t->u_ns));
		count_words((double)t->k, k, sizeof(k));
		snprintf(how, hlen,
			 "extrapolated beyond the runs, not measured (%s of %s periods above the deadline; a generalized Pareto tail above %s: %s samples, shape %.2f, fit p %.2f, runs' dispersion %.1f; it allows the runs' largest values, p %.2g, and cannot see a regime rarer than they reached: one of under 1 in %s periods would not show)",
			 obs, seen, u, k, t->xi, t->gof_p, t->dispersion, t->extreme_p, seen);
		if (tailfit_bursts(t)) {
			size_t at = strlen(how);

			snprintf(how + at, hlen - at,
				 "; bursts within runs: the runs' windows' counts above %.1f µs have dispersion %.1f (p %.2g, %d windows), which widens the interval",
				 US(t->burst_ns), t->burst, t->burst_p, t->burst_windows);
		}
		if (isfinite(t->lo_light)) {
			size_t at = strlen(how);

			snprintf(how + at, hlen - at,
				 "; its lower end from an exponential tail fitted at the same threshold: this far out a lighter tail than the fit's (shape 0) cannot be told apart");
		}
		break;
	}
	case TF_OBSERVED:
		snprintf(how, hlen, "counted: %s of %s periods above the deadline, in %d run%s", obs,
			 seen, t->runs, t->runs == 1 ? "" : "s");
		break;
	case TF_MISSED: {
		char miss[48];

		count_words((double)t->missed, miss, sizeof(miss));
		if (isfinite(t->p))
			snprintf(how, hlen, "counted, not extrapolated: %s of %s periods above the deadline, %s of them missed (they never ran: later than any deadline below the period), in %d run%s",
				 obs, seen, miss, t->runs, t->runs == 1 ? "" : "s");
		else
			snprintf(how, hlen, "not estimated: %s periods were missed, and how late past the period each would have been is not known; %s of the %s that ran above the deadline",
				 miss, obs, seen);
		break;
	}
	case TF_CLUSTERED:
		snprintf(how, hlen,
			 "%s (the runs' counts above %.1f µs: dispersion %.1f, p %.2g); %s of %s periods above the deadline",
			 tailfit_status_text(t->status), US(t->u_ns), t->dispersion, t->cluster_p, obs,
			 seen);
		break;
	case TF_DRIFT:
		snprintf(how, hlen,
			 "%s (the runs' counts above %.1f µs: dispersion %.1f, p %.2g; above their median: dispersion %.1f); %s of %s periods above the deadline",
			 tailfit_status_text(t->status), US(t->u_ns), t->dispersion, t->cluster_p,
			 t->body_dispersion, obs, seen);
		break;
	case TF_REGIME: {
		char want[32];

		snprintf(want, sizeof(want), "%.2g", t->extreme_expected);
		snprintf(how, hlen,
			 "counted, not extrapolated (the runs' largest values are far above what the tail's fit allows: a second regime in the tail): %llu sample%s at or above %.1f µs where a generalized Pareto fit of the tail above %.1f µs expects %s (p %.2g); %s of %s periods above the deadline, in %d run%s",
			 (unsigned long long)t->extreme_seen, t->extreme_seen == 1 ? "" : "s", US(t->extreme_ns), US(t->u_ns), want,
			 t->extreme_p, obs, seen, t->runs, t->runs == 1 ? "" : "s");
		break;
	}
	case TF_REJECTED:
		snprintf(how, hlen, "%s (fit p %.2g at %.1f µs, the highest tried); %s of %s periods above the deadline",
			 tailfit_status_text(t->status), t->gof_p, US(t->u_ns), obs, seen);
		break;
	default:
		snprintf(how, hlen, "%s; %s of %s periods above the deadline", tailfit_status_text(t->status),
			 obs, seen);
	}
}

/*
 * The run that settles the target either way (tailfit_retarget's plan):
 * how long, and the counts that show it met or missed. Appended to buf.
 */
static int plan(const struct tailfit *t, const char *tgt, double ph, const char *threads,
		char *buf, size_t len)
{
	char hours[32], most[64], missed[64];
	int bursty = tailfit_bursts(t);

	snprintf(hours, sizeof(hours), "%.3g h", t->plan_periods / ph / t->threads);
	snprintf(most, sizeof(most), "%d %s", t->plan_most,
		 bursty ? (t->plan_most == 1 ? "burst" : "bursts") : "later");
	snprintf(missed, sizeof(missed), "%d %s", t->plan_missed, bursty ? "bursts" : "later");
	int n = snprintf(buf, len, "; a run that settles it: %s (%.2g periods%s): at most %s show fewer than %s in 10^9 periods, %s or more show it missed (were the truth a tenth of the target, it shows the target %.0f %% of the time or more)",
			 hours, t->plan_periods, threads, most, tgt, missed, 100 * TAILFIT_PLAN_SUCCESS);

	/* bursts of a few periods hide in a run's few windows: the plan would count them as single periods */
	if (!bursty && t->run_windows > 0 && t->run_windows < TAILFIT_BURST_WINDOWS && n > 0 &&
	    (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      "; the runs' %d timeline windows each could not show bursts of a few late periods, which would make it fail more often: windows of a tenth of a run would (docs/report.md)",
			      t->run_windows);
	return n;
}

/*
 * What a longer run would do for the target (fewer than target a
 * period), from the estimate where there is one (estimated: its interval
 * lo..hi): where the interval lies wholly above the target, the target is
 * missed and no run changes that; wholly below, it is shown. Where it
 * holds the target (or there is no estimate): with none later, how long
 * a run with none later would show it by observation alone
 * (need_periods) and what it would see at the estimate's upper end; with
 * some later, how long a run would settle it at the estimate's upper end
 * — enough periods that a rate of hi would be seen above the target (its
 * count's 95 % lower bound, by the normal approximation, above target
 * times the periods: N > z^2 hi / (hi - target)^2); then, in every such
 * case, the plan: a run that settles it either way. Appended to buf.
 */
static int advice(const struct tailfit *t, const char *tgt, double ph, char *buf, size_t len)
{
	char hi[32], hours[32], threads[48] = "";
	const double z = 1.96;
	int n = 0, estimated = tailfit_estimated(t);

	if (t->threads > 1)
		snprintf(threads, sizeof(threads), " of its %d threads", t->threads);
	if (tailfit_advice(t) == TA_MISSED)
		return snprintf(buf, len, "; fewer than %s in 10^9 periods is missed: the interval lies wholly above it, and a longer run would only narrow it", tgt);
	if (tailfit_advice(t) == TA_SHOWN)
		return snprintf(buf, len, "; fewer than %s in 10^9 periods: shown, the interval lies wholly below it", tgt);
	prob(t->hi * 1e9, hi, sizeof(hi));
	if (!t->observed) {
		snprintf(hours, sizeof(hours), "%.3g h", t->need_periods / ph / t->threads);
		n = snprintf(buf, len, "; to show fewer than %s in 10^9 periods by observation alone, run %s (%.2g periods%s, none later)",
			     tgt, hours, t->need_periods, threads);
		if (estimated && isfinite(t->hi) && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, "; were the truth the estimate's upper end (%s in 10^9), that run would see about %.2g later",
				      hi, t->hi * t->need_periods);
	} else if (estimated && isfinite(t->hi) && t->hi > t->target) {
		/* a count of bursts varies by their size more than one of single periods */
		double need = z * z * t->hi * (tailfit_bursts(t) ? t->burst : 1) /
			      ((t->hi - t->target) * (t->hi - t->target));

		snprintf(hours, sizeof(hours), "%.3g h", need / ph / t->threads);
		n = snprintf(buf, len, "; the interval holds fewer than %s in 10^9 periods: were the truth its upper end (%s in 10^9), a run of %s (%.2g periods%s) would show the target missed",
			     tgt, hi, hours, need, threads);
	}
	if (n >= 0 && (size_t)n < len)
		n += plan(t, tgt, ph, threads, buf + n, len - (size_t)n);
	return n;
}

void beyond_text(const struct tailfit *t, const char *metric, const char *side,
		 int64_t interval_ns, int detail, char *buf, size_t len)
{
	char d[32], a[32], lo[32], hi[32], ha[32], hlo[32], hhi[32], seen[48], obs[48], tgt[32],
		how[1400];
	double ph = per_hour(interval_ns);
	int n, estimated = tailfit_estimated(t);

	snprintf(d, sizeof(d), "%.4g µs", US(t->deadline_ns));
	count_words(t->periods, seen, sizeof(seen));
	count_words((double)t->observed, obs, sizeof(obs));
	prob(t->target * 1e9, tgt, sizeof(tgt));
	n = snprintf(buf, len, "%s on %s: ", metric, side);
	if (t->observed && t->missed && isfinite(t->p)) {
		char miss[48];

		count_words((double)t->missed, miss, sizeof(miss));
		n += snprintf(buf + n, len - (size_t)n, "%s of %s periods (%.2g %%) were later than %s, %s of them missed (they never ran: a missed period is later than any deadline below its period)",
			      obs, seen, 100.0 * (double)t->observed / t->periods, d, miss);
	} else if (t->missed && !isfinite(t->p)) {
		char miss[48];

		count_words((double)t->missed, miss, sizeof(miss));
		n += snprintf(buf + n, len - (size_t)n, "%s of %s periods that ran were later than %s, and %s periods were missed: later than the period, how much later not known",
			      obs, seen, d, miss);
	} else if (t->observed)
		n += snprintf(buf + n, len - (size_t)n, "%s of %s periods (%.2g %%) were later than %s",
			      obs, seen, 100.0 * (double)t->observed / t->periods, d);
	else
		n += snprintf(buf + n, len - (size_t)n, "none of %s periods was later than %s", seen, d);
	if (n < 0 || (size_t)n >= len)
		return;
	if (estimated) {
		prob(t->p * 1e9, a, sizeof(a));
		prob(t->lo * 1e9, lo, sizeof(lo));
		upper(t->hi, 1e9, hi, sizeof(hi));
		prob(t->p * ph, ha, sizeof(ha));
		prob(t->lo * ph, hlo, sizeof(hlo));
		upper(t->hi, ph, hhi, sizeof(hhi));
		char fitted[160];

		snprintf(fitted, sizeof(fitted),
			 "estimated beyond the runs from the shape of their tail, not measured (blind to a delay rarer than 1 in %s periods)",
			 seen);
		n += snprintf(buf + n, len - (size_t)n, "; %s: %s per 10^9 periods [%s, %s], %s per hour [%s, %s] (95 %% interval)",
			      t->status == TF_FIT ? fitted :
			      t->status == TF_REGIME ? "counted, not estimated (the runs' largest values are far above what the rest of the tail allows: a second kind of delay, which only counting can size)" :
			      t->status == TF_MISSED ? "counted, not estimated (periods were missed: the law of the periods that ran says nothing of those that did not)" :
			      "counted",
			      a, lo, hi, ha, hlo, hhi);
	} else {
		n += snprintf(buf + n, len - (size_t)n, "; no estimate beyond the runs: %s", why_not(t->status));
	}
	if (estimated && tailfit_bursts(t) && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; late periods come in bursts within runs (about %.0f at a time): the interval is widened for them, and a run to show none must be as much longer",
			      t->burst);
	if (n < 0 || (size_t)n >= len)
		return;
	if (isfinite(ph))
		n += advice(t, tgt, ph, buf + n, len - (size_t)n);
	if (n < 0 || (size_t)n >= len || !detail)
		return;
	statistics(t, how, sizeof(how));
	snprintf(buf + n, len - (size_t)n, ". Statistics: %s", how);
}

/* Group g's row title and its answer in words, as stdout and the page say them. */
static void group_words(const struct beyond *b, int g, int detail, char *title, size_t tlen,
			char *text, size_t xlen)
{
	const struct rows_group *gr = &b->m->group[g];

	rows_row_title(b->m, gr->row, title, tlen);
	if (b->why[g]) {	/* a count of figures the run cannot vouch for: none */
		char why[600];

		vouch_words(b->why[g], b->why_run[g] ? &b->why_run[g]->vf : &(struct vouch_facts){ 0 },
			    b->m->row[gr->row].metric, why, sizeof(why));
		if (b->why[g] == MISSES_UNVOUCHED) {
			char miss[48];

			count_words((double)b->fit[g].missed, miss, sizeof(miss));
			snprintf(why, sizeof(why), "%s periods were missed after waits for an emulated device on the instruction clock, whose lengths are the clock's, not the device's: how many periods a device would have made it miss is not known",
				 miss);
		}
		snprintf(text, xlen, "%s on %s: no count against the deadline: %s",
			 rows_metric_words(b->m->row[gr->row].metric), b->label[gr->side], why);
		return;
	}
	beyond_text(&b->fit[g], rows_metric_words(b->m->row[gr->row].metric), b->label[gr->side],
		    group_interval(gr), detail, text, xlen);
}

void beyond_print(const struct beyond *b, FILE *fp)
{
	for (int g = 0; b->fit && g < b->m->ngroups; g++) {
		char title[1024], text[4096];

		group_words(b, g, 0, title, sizeof(title), text, sizeof(text));
		fprintf(fp, "%s: %s\n", title, text);
	}
}

static void num(struct csvw *w, double v)
{
	char buf[32];

	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, sizeof(buf), "%.6g", v);
	csvw_str(w, buf);
}

void beyond_fill_csv(FILE *fp, void *arg)
{
	const struct beyond *b = arg;
	struct csvw w = { .fp = fp };

	csvw_header(&w, "row,side,metric,interval_ns,deadline_ns,status,runs,periods,observed,"
			"threshold_ns,exceedances,shape,scale_ns,gof_p,dispersion,cluster_p,"
			"p,p_lo,p_hi,per_hour,per_hour_lo,per_hour_hi,target,need_periods,need_hours,"
			"extreme_ns,extreme_seen,extreme_expected,extreme_p,body_dispersion,p_lo_light,missed,"
			"burst,burst_p,burst_ns,burst_windows,widen,plan_periods,plan_hours,plan_most,plan_missed");
	for (int g = 0; b->fit && g < b->m->ngroups; g++) {
		const struct rows_group *gr = &b->m->group[g];
		const struct tailfit *t = &b->fit[g];
		int64_t interval = group_interval(gr);
		double ph = per_hour(interval);
		char title[1024];

		rows_row_title(b->m, gr->row, title, sizeof(title));
		csvw_str(&w, title);
		csvw_str(&w, b->label[gr->side]);
		csvw_str(&w, metric_name(b->m->row[gr->row].metric));
		csvw_int(&w, interval);
		csvw_int(&w, t->deadline_ns);
		csvw_str(&w, b->why[g] ? "not-comparable" : tailfit_keyword(t->status));
		csvw_int(&w, t->runs);
		num(&w, t->periods);
		csvw_int(&w, (int64_t)t->observed);
		csvw_int(&w, t->u_ns);
		csvw_int(&w, (int64_t)t->k);
		num(&w, t->xi);
		num(&w, t->sigma_ns);
		num(&w, t->gof_p);
		num(&w, t->dispersion);
		num(&w, t->cluster_p);
		num(&w, t->p);
		num(&w, t->lo);
		num(&w, t->hi);
		num(&w, t->p * ph);
		num(&w, t->lo * ph);
		num(&w, t->hi * ph);
		num(&w, t->target);
		num(&w, t->need_periods);
		num(&w, t->need_periods / ph / t->threads);
		csvw_int(&w, t->extreme_ns);
		csvw_int(&w, (int64_t)t->extreme_seen);
		num(&w, t->extreme_expected);
		num(&w, t->extreme_p);
		num(&w, t->body_dispersion);
		num(&w, t->lo_light);
		csvw_int(&w, (int64_t)t->missed);
		num(&w, t->burst);
		num(&w, t->burst_p);
		csvw_int(&w, t->burst_ns);
		csvw_int(&w, t->burst_windows);
		num(&w, t->widen);
		num(&w, t->plan_periods);
		num(&w, t->plan_periods / ph / t->threads);
		csvw_int(&w, t->plan_most);
		csvw_int(&w, t->plan_missed);
		csvw_end(&w);
	}
}

void beyond_html(const struct beyond *b, FILE *fp)
{
	char d[32];

	if (!b->fit)
		return;
	snprintf(d, sizeof(d), "%.4g µs", US(b->deadline_ns));
	fprintf(fp, "<h2 id=\"beyond\">Beyond the runs: a period above %s</h2>\n", d);
	fputs("<p>Per row and side, the probability that one period's latency exceeds the deadline, "
	      "and how long a run must be to bound it by observation alone. An estimate marked "
	      "<i>extrapolated</i> comes from a generalized Pareto fit of the runs' tail, with its "
	      "95 % interval; it is not a measurement. Where the fit's checks fail, nothing is "
	      "extrapolated (docs/report.md, \"Beyond the run\"). Every number: beyond.csv.</p>\n<ul>\n",
	      fp);
	for (int g = 0; g < b->m->ngroups; g++) {
		char title[1024], text[4096];

		group_words(b, g, 1, title, sizeof(title), text, sizeof(text));
		fputs("<li><b>", fp);
		html_text(fp, title);
		fputs("</b>: ", fp);
		html_text(fp, text);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

int beyond_parse_deadline(const char *arg, int64_t *ns, char *err, size_t len)
{
	if (units_parse_duration(arg, ns) != 0 || *ns <= 0) {
		snprintf(err, len, "--deadline: '%s' is not a duration above 0 (100us, 1ms)", arg);
		return -EINVAL;
	}
	return 0;
}

int beyond_parse_target(const char *arg, double *p, char *err, size_t len)
{
	char *end;

	*p = strtod(arg, &end);
	if (end == arg || *end || !(*p > 0 && *p < 1)) {
		snprintf(err, len, "--target: '%s' is not a probability per period in (0, 1) (1e-9)", arg);
		return -EINVAL;
	}
	return 0;
}
