#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "model.h"
#include "units.h"
#include "verdict.h"

const char *verdict_keyword(int kind)
{
	static const char *const names[] = {
		"lower", "higher", "no-difference", "too-few", "equivalent", "unequal-runs",
		"not-comparable",
	};

	return kind >= 0 && kind <= V_UNJUDGED ? names[kind] : "?";
}

/* Run c's histogram of the side's metric, or NULL when it has none. */
static const struct hist *run_hist(const struct side_runs *s, const struct tcell *c)
{
	return s->metric >= 0 && s->metric < METRIC_COUNT ? c->metric[s->metric] : c->wakeup;
}

const struct hist *verdict_run_hist(const struct side_runs *s, const struct tcell *c)
{
	const struct hist *h = run_hist(s, c);

	return h ? h : c->wakeup;
}

int side_has_metric(const struct side_runs *s, int m)
{
	if (m < 0 || m >= METRIC_COUNT || s->n < 1)
		return 0;
	for (int i = 0; i < s->n; i++)
		if (!s->run[i]->metric[m])
			return 0;
	return 1;
}

#define MAX_PCT 100	/* values_at's percentile for the maximum */

/* Per run: percentile pct (MAX_PCT: the max) of the side's metric, ns, into v. */
static void values_at(const struct side_runs *s, double pct, double *v)
{
	for (int i = 0; i < s->n; i++) {
		const struct hist *h = run_hist(s, s->run[i]);

		if (!h) {	/* not this run's metric: callers check side_has_metric */
			v[i] = 1;
			continue;
		}
		v[i] = pct >= MAX_PCT ? (double)h->max : (double)hist_percentile(h, pct);
		if (v[i] < 1)
			v[i] = 1;	/* a ratio needs > 0: 1 ns is below any clock */
	}
}

/* The fewest samples of a run of s, on its metric. */
static uint64_t fewest_of(const struct side_runs *s)
{
	uint64_t n = UINT64_MAX;

	for (int i = 0; i < s->n; i++)
		if (verdict_run_hist(s, s->run[i])->count < n)
			n = verdict_run_hist(s, s->run[i])->count;
	return n;
}

/* Run i's campaign. */
static int camp_of(const struct side_runs *s, int i)
{
	return s->camp ? s->camp[i] : 0;
}

/*
 * The runs of s in campaign k (every campaign when k < 0) from the first
 * start to the last end, ns. 0 when it has none there, or a run does not
 * say when it ran (a tree from before started_ns).
 */
static int span(const struct side_runs *s, int k, int64_t *from, int64_t *to)
{
	int any = 0;

	*from = INT64_MAX;
	*to = 0;
	for (int i = 0; i < s->n; i++) {
		const struct tcell *c = s->run[i];

		if (k >= 0 && camp_of(s, i) != k)
			continue;
		if (!c->started)
			return 0;
		any = 1;
		if (c->started < *from)
			*from = c->started;
		if (c->started + c->elapsed_ns > *to)
			*to = c->started + c->elapsed_ns;
	}
	return any;
}

/* Did a's and b's runs (in campaign k; all: k < 0) share their time? 1 apart, 0 together, -1 unknown. */
static int apart_in(const struct side_runs *a, const struct side_runs *b, int k, int64_t *gap)
{
	int64_t fa, ta, fb, tb;

	*gap = 0;
	if (!span(a, k, &fa, &ta) || !span(b, k, &fb, &tb))
		return -1;
	if (ta >= fb && tb >= fa)
		return 0;
	*gap = ta < fb ? fb - ta : fa - tb;
	return 1;
}

static int has_camp(const struct side_runs *s, int k)
{
	for (int i = 0; i < s->n; i++)
		if (camp_of(s, i) == k)
			return 1;
	return 0;
}

/* Is run i the first of its campaign in s? */
static int first_of_camp(const struct side_runs *s, int i)
{
	for (int j = 0; j < i; j++)
		if (camp_of(s, j) == camp_of(s, i))
			return 0;
	return 1;
}

/* How many campaigns s's runs come from. */
static int campaigns(const struct side_runs *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += first_of_camp(s, i);
	return n;
}

/* How many boots s's runs ran in: their distinct boot ids; 0 where a run has none. */
static int boots(const struct side_runs *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++) {
		int seen = 0;

		if (!s->run[i]->boot_id[0])
			return 0;
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(s->run[j]->boot_id, s->run[i]->boot_id) == 0;
		n += !seen;
	}
	return n;
}

const char *verdict_design_name(int design)
{
	static const char *const names[] = { "runs", "campaigns", "instruction-clock" };

	return design >= 0 && design <= VD_ICOUNT ? names[design] : "?";
}

/*
 * What the units of a's against b's are. The runs, when every campaign
 * that holds a run of one side holds the other's too and in each the two
 * sides' runs met in time (interleaved rounds): then whatever the machine
 * did in a campaign reached both. Else the campaigns, for runs of one
 * campaign share its moment and a side's runs from other moments say
 * nothing of the difference between moments. Runs on an instruction-
 * counted clock are units wherever they ran: the host's moment does not
 * reach their clock.
 */
static int design_of(const struct side_runs *a, const struct side_runs *b)
{
	int icount = a->n > 0 && b->n > 0;
	int64_t gap;

	for (int s = 0; s < 2; s++) {
		const struct side_runs *r = s ? b : a;

		for (int i = 0; i < r->n; i++)
			icount &= r->run[i]->emulated == EMU_ICOUNT;
	}
	if (icount)
		return VD_ICOUNT;
	for (int s = 0; s < 2; s++) {
		const struct side_runs *r = s ? b : a, *o = s ? a : b;

		for (int i = 0; i < r->n; i++)
			if (!has_camp(o, camp_of(r, i)) || apart_in(a, b, camp_of(r, i), &gap) == 1)
				return VD_CAMPAIGNS;
	}
	return VD_RUNS;
}

/* s's values v (one per run) as one per campaign, the median of its runs', into u. Returns how many. */
static int per_campaign(const struct side_runs *s, const double *v, double *u, double *tmp)
{
	int n = 0;

	for (int i = 0; i < s->n; i++) {
		int k = camp_of(s, i), m = 0;

		if (!first_of_camp(s, i))
			continue;
		for (int j = i; j < s->n; j++)
			if (camp_of(s, j) == k)
				tmp[m++] = v[j];
		u[n++] = stats_median(tmp, m);
	}
	return n;
}

void verdict_summary(const struct side_runs *s, struct side_summary *out)
{
	double *v = calloc((size_t)s->n + 1, sizeof(*v));

	memset(out, 0, sizeof(*out));
	out->n = s->n;
	if (!v || s->n < 1) {
		free(v);
		return;
	}
	values_at(s, MAX_PCT, v);
	out->max_med = stats_median(v, s->n);
	out->max_lo = out->max_hi = v[0];
	for (int i = 0; i < s->n; i++) {
		if (v[i] < out->max_lo)
			out->max_lo = v[i];
		if (v[i] > out->max_hi)
			out->max_hi = v[i];
	}
	/* the run at the lower median: its histogram stands for the side */
	double best = INFINITY;
	for (int i = 0; i < s->n; i++)
		if (v[i] <= out->max_med && out->max_med - v[i] < best) {
			best = out->max_med - v[i];
			out->typical = i;
		}
	values_at(s, 99.99, v);
	out->p9999_med = stats_median(v, s->n);
	values_at(s, 99, v);
	out->p99_med = stats_median(v, s->n);
	free(v);
	out->fewest = fewest_of(s);
	out->p9999_ok = out->fewest >= hist_support(99.99);
	out->p99_ok = out->fewest >= hist_support(99);
}

/* The first reason of `why` (its lowest VR_BIT), 0 for none. */
static unsigned lowest_reason(unsigned why)
{
	return why & (~why + 1);
}

unsigned verdict_side_why(const struct side_runs *s, const struct tcell **first)
{
	unsigned why = s->n ? 0 : VR_BIT(VR_STATUS);

	*first = s->n ? NULL : s->nleft ? s->left[0] : NULL;
	for (int i = 0; i < s->n; i++) {
		unsigned w = s->metric >= 0 && s->metric < METRIC_COUNT ? s->run[i]->vouch[s->metric] : 0;

		if (w && (!*first || (lowest_reason(w) & ~why)))
			*first = s->run[i];	/* the run with the lowest reason */
		why |= w;
	}
	return why;
}

/* The first of a side's runs: its facts stand for the side's kind. */
static const struct vouch_facts *kind_of_side(const struct side_runs *s)
{
	return s->n ? &s->run[0]->vf : NULL;
}

/* Are a's and b's figures of one kind: traced alike, on one clock? PV_ bits where not. */
static unsigned pair_kinds(const struct side_runs *a, const struct side_runs *b)
{
	const struct vouch_facts *x = kind_of_side(a), *y = kind_of_side(b);
	unsigned why = 0;

	if (!x || !y)
		return 0;
	for (int s = 0; s < 2; s++) {
		const struct side_runs *r = s ? b : a;

		for (int i = 0; i < r->n; i++) {
			why |= r->run[i]->vf.traced != x->traced ? PV_TRACE : 0;
			why |= r->run[i]->vf.emulated != x->emulated ? PV_CLOCK : 0;
		}
	}
	return why;
}

/* Does r lie wholly past the margin (a difference shown to matter)? */
int verdict_past_margin(const struct ratio_ci *r, double margin)
{
	return r->ok && margin > 0 && (r->lo > 1 + margin || r->hi < 1 / (1 + margin));
}

static int side_of(double x, double point)
{
	return (x > point) - (x < point);
}

void verdict_ratio_str(double x, double margin, char *buf, size_t len)
{
	for (int digits = 2; digits <= 6; digits++) {
		snprintf(buf, len, "%.*f", digits, x);
		double shown = strtod(buf, NULL);

		if (!isfinite(x) || (side_of(shown, 1) == side_of(x, 1) &&
				     (margin <= 0 || (side_of(shown, 1 + margin) == side_of(x, 1 + margin) &&
						      side_of(shown, 1 / (1 + margin)) ==
							      side_of(x, 1 / (1 + margin))))))
			return;
	}
}

void verdict_interval_str(const struct ratio_ci *r, int invert, double margin, char *buf,
			  size_t len)
{
	char q[32], lo[32], hi[32];

	verdict_ratio_str(invert ? 1 / r->ratio : r->ratio, margin, q, sizeof(q));
	verdict_ratio_str(invert ? 1 / r->hi : r->lo, margin, lo, sizeof(lo));
	verdict_ratio_str(invert ? 1 / r->lo : r->hi, margin, hi, sizeof(hi));
	snprintf(buf, len, "%sx [%sx, %sx]", q, lo, hi);
}

int verdict_runs_enough(int n, int m)
{
	return n >= 3 && m >= 3 && 2 * stats_mw_cdf(n, m, 0) <= 1 - VERDICT_CONF_EACH;
}

/* The fewest runs beside n's that give an interval. */
static int runs_beside(int n)
{
	int m = 3;

	while (!verdict_runs_enough(n, m) && m < 1000)
		m++;
	return m;
}

void verdict_runs_needed(int na, int nb, char *buf, size_t len)
{
	int small = na < nb ? na : nb, big = na < nb ? nb : na;

	small = small < 3 ? 3 : small;
	big = big < 3 ? 3 : big;
	/* the smaller side kept, the other grown; then the smaller grown by one */
	int a2 = runs_beside(small), b1 = small + 1, b2 = runs_beside(b1);

	a2 = a2 > big ? a2 : big;
	b2 = b2 > big ? b2 : big;

	if (b1 + b2 > small + a2 || (b1 == a2 && b2 == small) || (b1 == small && b2 == a2))
		snprintf(buf, len, "%d and %d runs give one", small, a2);
	else
		snprintf(buf, len, "%d and %d runs give one, or %d and %d", small, a2, b1, b2);
}

static int kind_of(const struct ratio_ci *r, double margin)
{
	if (!r->ok)
		return V_TOO_FEW;
	if (margin > 0 && r->lo >= 1 / (1 + margin) && r->hi <= 1 + margin)
		return V_EQUIVALENT;
	if (r->hi < 1)
		return V_LOWER;
	if (r->lo > 1)
		return V_HIGHER;
	return V_NO_DIFFERENCE;
}

/* What a run says of how it was measured: which latlab, its load's settings. */
typedef const char *(*run_fact)(const struct tcell *c);

static const char *fact_latlab(const struct tcell *c)
{
	return c->measured_by;
}

static const char *fact_load(const struct tcell *c)
{
	return c->load_settings;
}

/* Does a run of side s say `value`? */
static int side_has(const struct side_runs *s, run_fact fact, const char *value)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(fact(s->run[i]), value) == 0)
			return 1;
	return 0;
}

/*
 * Where a run of one side says a fact that no run of the other side says:
 * it and one of the other side's, in fa and fb (len each). A run that
 * does not say leaves them "".
 */
static void sides_differ(const struct side_runs *a, const struct side_runs *b, run_fact fact,
			 char *fa, char *fb, size_t len)
{
	const struct side_runs *both[] = { a, b };

	fa[0] = fb[0] = '\0';
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < both[s]->n; i++)
			if (!fact(both[s]->run[i])[0])
				return;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < both[s]->n; i++) {
			const char *value = fact(both[s]->run[i]);

			if (side_has(both[!s], fact, value))
				continue;
			snprintf(s ? fb : fa, len, "%s", value);
			snprintf(s ? fa : fb, len, "%s", fact(both[!s]->run[0]));
			return;
		}
}

/*
 * Two runs of s that say different facts: their values into fx and fy
 * (len each). 1, or 0 when its runs agree or a run does not say.
 */
static int side_mixed(const struct side_runs *s, run_fact fact, char *fx, char *fy, size_t len)
{
	for (int i = 0; i < s->n; i++)
		if (!fact(s->run[i])[0])
			return 0;
	for (int i = 1; i < s->n; i++)
		if (strcmp(fact(s->run[i]), fact(s->run[0])) != 0) {
			snprintf(fx, len, "%s", fact(s->run[0]));
			snprintf(fy, len, "%s", fact(s->run[i]));
			return 1;
		}
	return 0;
}

/*
 * The latlab that measured each side where they differ (a difference
 * between them may be latlab's, not the kernels'), and the settings of a
 * load both sides ran under one name where they differ (a side of
 * another load, an axis of loads, is not asked).
 */
static void provenance(const struct side_runs *a, const struct side_runs *b,
		       struct pair_verdict *v)
{
	sides_differ(a, b, fact_latlab, v->by_a, v->by_b, sizeof(v->by_a));
	v->mix_sides = 0;
	for (int s = 0; s < 2; s++) {
		v->mix_x[s][0] = v->mix_y[s][0] = '\0';
		/* each side's runs of both latlabs, or of one: within a side */
		if (!v->by_a[0] && side_mixed(s ? b : a, fact_latlab, v->mix_x[s], v->mix_y[s],
					      sizeof(v->mix_x[s])))
			v->mix_sides |= 1 << s;
	}
	v->load_a[0] = v->load_b[0] = '\0';
	v->load_mix_x[0] = v->load_mix_y[0] = '\0';
	v->load_mix_sides = 0;
	if (!a->n || !b->n)
		return;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < (s ? b : a)->n; i++)
			if (strcmp((s ? b : a)->run[i]->load, a->run[0]->load) != 0)
				return;
	sides_differ(a, b, fact_load, v->load_a, v->load_b, sizeof(v->load_a));
	if (v->load_a[0])
		return;
	/* each side's runs under both settings, or one side's: within a side */
	for (int s = 1; s >= 0; s--) {
		char x[sizeof(v->load_mix_x)], y[sizeof(v->load_mix_y)];

		if (!side_mixed(s ? b : a, fact_load, x, y, sizeof(x)))
			continue;
		v->load_mix_sides |= 1 << s;
		snprintf(v->load_mix_x, sizeof(v->load_mix_x), "%s", x);
		snprintf(v->load_mix_y, sizeof(v->load_mix_y), "%s", y);
	}
}

/* Hours run c measured: its periods, kept and missed, of one thread. */
static double run_hours(const struct tcell *c)
{
	int threads = c->nthreads > 0 ? c->nthreads : 1;

	return ((double)c->wakeup->count + (double)c->overruns) / threads *
	       (double)c->interval / 3.6e12;
}

/* The median of s's runs' periods, kept and missed, of one thread. */
static double periods_of(const struct side_runs *s, double *tmp)
{
	for (int i = 0; i < s->n; i++)
		tmp[i] = run_hours(s->run[i]) * 3.6e12 /
			 (double)(s->run[i]->interval > 0 ? s->run[i]->interval : 1);
	return s->n ? stats_median(tmp, s->n) : 0;
}

/*
 * The share of the measured CPU time the hypervisor took in the runs of
 * n sides: their steal (interference.csv) over the CPU time they
 * measured (their periods, kept and missed, on each CPU the file names).
 * -1 when no run has a steal row: a kernel that does not say, or a tree
 * from before the rows of 0, where runs nothing was stolen from cannot
 * be told from runs not asked; in such a tree a run without a row beside
 * runs with one had nothing stolen.
 */
static double steal_share(const struct side_runs *const *sides, int n)
{
	double stolen = 0, measured = 0;
	int said = 0;

	for (int k = 0; k < n; k++)
		for (int i = 0; i < sides[k]->n; i++) {
			const struct tcell *c = sides[k]->run[i];

			said |= c->steal_cpus > 0;
			if (c->intf_cpus <= 0 || !c->wakeup)
				continue;
			stolen += (double)c->steal_ms / 3.6e6;	/* hours */
			measured += run_hours(c) * c->intf_cpus;
		}
	return said && measured > 0 ? stolen / measured : -1;
}

/* Buffers for judge: a's and b's values per run, per campaign, and scratch. */
struct judging {
	double *x, *y, *ux, *uy, *tmp;
};

static void judging_free(struct judging *j)
{
	free(j->x);
	free(j->y);
	free(j->ux);
	free(j->uy);
	free(j->tmp);
}

/*
 * a / b at percentile pct (MAX_PCT: the maxima): with the runs as units
 * into *runs, and by the design into *out (the same for RUNS and ICOUNT).
 * The runs' medians at it into *med_a, *med_b. 0 or -errno.
 */
static int judge(const struct side_runs *a, const struct side_runs *b, int design, double pct,
		 struct judging *j, struct ratio_ci *runs, struct ratio_ci *out,
		 double *med_a, double *med_b)
{
	values_at(a, pct, j->x);
	values_at(b, pct, j->y);
	if (med_a && med_b) {
		*med_a = stats_median(j->x, a->n);
		*med_b = stats_median(j->y, b->n);
	}
	int rc = stats_ratio_ci(j->x, a->n, j->y, b->n, VERDICT_CONF_EACH, runs);

	if (rc || design != VD_CAMPAIGNS) {
		*out = *runs;
		return rc;
	}
	int na = per_campaign(a, j->x, j->ux, j->tmp), nb = per_campaign(b, j->y, j->uy, j->tmp);

	return stats_ratio_t_ci(j->ux, na, j->uy, nb, VERDICT_CONF_EACH, out);
}

/*
 * What a pair's verdict says beside its call: the campaigns, the design,
 * the margin (the instruction clock's by default), whether the sides ran
 * apart, their boots, the devices their runs waited for, the latlabs and
 * load settings that measured them, the hypervisor's steal, and whether
 * a run's maximum is 0 ns (no ratio).
 */
static void pair_facts(const struct side_runs *a, const struct side_runs *b, double margin,
		       struct pair_verdict *v)
{
	v->ca = campaigns(a);
	v->cb = campaigns(b);
	v->design = design_of(a, b);
	v->margin_default = margin < 0 && v->design == VD_ICOUNT;
	v->margin = v->margin_default ? VERDICT_ICOUNT_MARGIN : margin > 0 ? margin : 0;
	v->apart = apart_in(a, b, -1, &v->apart_ns);
	v->boots_a = boots(a);
	v->boots_b = boots(b);
	const struct side_runs *both[] = { a, b };

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < both[s]->n; i++)
			v->devices |= both[s]->run[i]->devices;
	provenance(a, b, v);

	v->steal_a = steal_share(&a, 1);
	v->steal_b = steal_share(&b, 1);
	v->steal = steal_share(both, 2);
	/* a maximum of 0 ns: nothing above zero to compare, so no ratio
	 * (against the 1 ns floor it would be a millionfold) */
	for (int s = 0; s < 2; s++) {
		const struct side_runs *r = s ? b : a;

		for (int i = 0; i < r->n; i++) {
			const struct hist *h = run_hist(r, r->run[i]);

			v->zero |= h && h->count && h->max <= 0;
		}
	}
}

/*
 * The pair judged (j's buffers allocated): the maximum, p99.99 (not
 * judged from fewer than 10 000 samples a run) and the tail. 0, or
 * -errno.
 */
static int judge_pair(const struct side_runs *a, const struct side_runs *b,
		      struct pair_verdict *v, struct judging *j)
{
	int rc = 0;
	uint64_t fa = fewest_of(a), fb = fewest_of(b), few = fa < fb ? fa : fb;

	if (v->zero)
		return 0;
	rc = judge(a, b, v->design, MAX_PCT, j, &v->max_runs, &v->max, NULL, NULL);
	if (rc == 0)
		rc = judge(a, b, v->design, 99.99, j, &v->p9999_runs, &v->p9999, NULL, NULL);
	/* a p99.99 of fewer than 10 000 samples is a maximum: not judged */
	v->p9999_short = few < hist_support(99.99);
	if (v->p9999_short)
		v->p9999.ok = v->p9999_runs.ok = 0;
	if (rc == 0 && few >= TAIL_MIN_SAMPLES) {
		struct ratio_ci runs;

		v->tail_pct = 100.0 * (1.0 - (double)TAIL_SAMPLES / (double)few);
		rc = judge(a, b, v->design, v->tail_pct, j, &runs, &v->tail,
			   &v->tail_med_a, &v->tail_med_b);
	}
	return rc;
}

int verdict_pair(const struct side_runs *a, const struct side_runs *b, double margin,
		 struct pair_verdict *v)
{
	size_t most = (size_t)(a->n > b->n ? a->n : b->n) + 1;
	struct judging j = {
		calloc(most, sizeof(double)), calloc(most, sizeof(double)),
		calloc(most, sizeof(double)), calloc(most, sizeof(double)),
		calloc(most, sizeof(double)),
	};
	int rc = -ENOMEM;

	memset(v, 0, sizeof(*v));
	v->na = a->n;
	v->nb = b->n;
	v->metric = a->metric;
	v->left_a = a->left;
	v->nleft_a = a->nleft;
	v->left_b = b->left;
	v->nleft_b = b->nleft;
	const struct tcell *fa_run, *fb_run;

	v->why_a = verdict_side_why(a, &fa_run);
	v->why_b = verdict_side_why(b, &fb_run);
	v->why_pair = pair_kinds(a, b);
	v->traced_a = a->n ? a->run[0]->vf.traced : 0;
	v->traced_b = b->n ? b->run[0]->vf.traced : 0;
	/* the run whose words say why: the side with the first reason */
	v->why_run = fa_run && (!fb_run || lowest_reason(v->why_a) <= lowest_reason(v->why_b)) ?
		     fa_run : fb_run;
	if (!a->n || !b->n) {	/* a side with no run to judge */
		v->kind = v->kind_p9999 = v->kind_tail = V_UNJUDGED;
		judging_free(&j);
		return 0;
	}
	pair_facts(a, b, margin, v);
	if (j.x && j.y && j.ux && j.uy && j.tmp)
		rc = judge_pair(a, b, v, &j);
	v->kind = kind_of(&v->max, v->margin);
	if (j.tmp) {
		v->periods_a = periods_of(a, j.tmp);
		v->periods_b = periods_of(b, j.tmp);
	}
	double longer = v->periods_a > v->periods_b ? v->periods_a : v->periods_b,
	       shorter = v->periods_a > v->periods_b ? v->periods_b : v->periods_a;

	/* runs of different lengths: their maxima are not alike, whatever the kernel */
	if (!v->zero && shorter > 0 && longer > VERDICT_UNEQUAL * shorter)
		v->kind = V_UNEQUAL;
	v->kind_p9999 = kind_of(&v->p9999, v->margin);
	v->kind_tail = v->tail_pct > 0 ? kind_of(&v->tail, v->margin) : V_TOO_FEW;
	/*
	 * Nor is their tail called: a percentile of a short run sits lower
	 * than the same percentile of a long one (the k-th of n samples
	 * estimates the k/(n+1) quantile): 1 s against 60 s runs of one law
	 * had their tails called in 8 of 100 rows (bench/verdict_synth.sh),
	 * where a call should be wrong in 2.5 %. It is shown, not called.
	 */
	if (v->kind == V_UNEQUAL && v->kind_tail != V_TOO_FEW)
		v->kind_tail = V_UNEQUAL;
	/* a figure that cannot be judged, or two of other kinds: no verdict at all */
	if (v->why_a || v->why_b || v->why_pair)
		v->kind = v->kind_p9999 = v->kind_tail = V_UNJUDGED;
	judging_free(&j);
	return rc;
}

static void count_text(int na, int nb, const char *what, char *buf, size_t len)
{
	if (na == nb && na == 1)
		snprintf(buf, len, "one %s each", what);
	else if (na == nb)
		snprintf(buf, len, "%d %ss each", na, what);
	else
		snprintf(buf, len, "%d and %d %ss", na, nb, what);
}

/* "5 runs each", or between campaigns "3 campaigns each (15 runs each)" */
static void runs_text(const struct pair_verdict *v, char *buf, size_t len)
{
	char runs[64], camps[64];

	count_text(v->na, v->nb, "run", runs, sizeof(runs));
	if (v->design != VD_CAMPAIGNS) {
		snprintf(buf, len, "%s", runs);
		return;
	}
	count_text(v->ca, v->cb, "campaign", camps, sizeof(camps));
	snprintf(buf, len, "%s (%s)", camps, runs);
}

/*
 * The runs a side left out by their status, in words: "stock: 3
 * errored, left out (the first: load disk: instance 0 did no work ...)";
 * "" for none.
 */
static void left_words(const char *side, const struct tcell *const *left, int n, char *buf,
		       size_t len)
{
	static const int order[] = { CELL_ERROR, CELL_INTERRUPTED, CELL_SKIPPED, CELL_PARTIAL,
				     CELL_RUNNING, CELL_PENDING };
	static const char *const said[] = { "errored", "interrupted", "skipped", "partial",
					    "still running", "pending" };
	size_t u;

	buf[0] = '\0';
	if (!n)
		return;
	u = (size_t)snprintf(buf, len, "%s: ", side);
	for (size_t k = 0, any = 0; k < sizeof(order) / sizeof(order[0]) && u < len; k++) {
		int count = 0;

		for (int i = 0; i < n; i++)
			count += cell_status_parse(left[i]->status) == order[k];
		if (count)
			u += (size_t)snprintf(buf + u, len - u, "%s%d %s", any++ ? ", " : "", count,
					      said[k]);
	}
	if (u < len)
		snprintf(buf + u, len - u, ", left out%s%.160s%s", left[0]->reason[0] ? " (" : "",
			 left[0]->reason, left[0]->reason[0] ? ")" : "");
}

/* Append both sides' left-out runs to buf. */
static void append_left(const struct pair_verdict *v, const char *a, const char *b, char *buf,
			size_t len)
{
	char words[400];

	for (int s = 0; s < 2; s++) {
		size_t n = strlen(buf);

		left_words(s ? b : a, s ? v->left_b : v->left_a, s ? v->nleft_b : v->nleft_a, words,
			   sizeof(words));
		if (words[0] && n < len)
			snprintf(buf + n, len - n, "; %s", words);
	}
}

void verdict_unjudged_text(const struct pair_verdict *v, const char *a, const char *b,
			   char *buf, size_t len)
{
	char why[600], runs[160], metric[64];
	const char *name = metric_name(v->metric);

	snprintf(metric, sizeof(metric), "%s", v->metric == METRIC_WAKEUP ? "wake-up" : name);
	runs_text(v, runs, sizeof(runs));
	if ((!v->na || !v->nb) && (v->why_a | v->why_b) == VR_BIT(VR_STATUS)) {
		snprintf(buf, len, "no verdict: %s has no run to judge (%s)",
			 !v->na && !v->nb ? "neither side" : !v->na ? a : b, runs);
	} else if (v->why_a || v->why_b) {
		unsigned w = v->why_a | v->why_b;
		char keys[64];

		vouch_words(w, v->why_run ? &v->why_run->vf : &(struct vouch_facts){ 0 }, v->metric,
			    why, sizeof(why));
		vouch_keywords(w & ~VR_BIT(VR_STATUS), keys, sizeof(keys));
		snprintf(buf, len, "no verdict: %s's %s cannot be judged (%s; %s): %s",
			 v->why_a && v->why_b ? "either side" : v->why_a ? a : b, metric, keys,
			 runs, why);
	} else if (v->why_pair & PV_CLOCK) {
		snprintf(buf, len, "no verdict: %s and %s were measured on different clocks (instruction time, the host's time, an emulator's pace): their figures are not of one kind (%s)",
			 a, b, runs);
	} else {
		char ta[96], tb[96];

		vouch_trace_words(v->traced_a, ta, sizeof(ta));
		vouch_trace_words(v->traced_b, tb, sizeof(tb));
		snprintf(buf, len, "no verdict: %s and %s were traced differently (%s: %s; %s: %s): the tracing's cost is in their figures unequally; run both alike (%s)",
			 a, b, a, ta, b, tb, runs);
	}
	append_left(v, a, b, buf, len);
}

/* The call on the maxima (runs: "5 runs each" and the like), into buf. */
static void call_text(const struct pair_verdict *v, const char *a, const char *b, char *runs,
		      size_t rlen, char *buf, size_t len)
{
	const struct ratio_ci *r = &v->max;
	int between = v->design == VD_CAMPAIGNS;
	char ci[128], lo[32], hi[32], q[32], need[96];

	verdict_ratio_str(r->lo, v->margin, lo, sizeof(lo));
	verdict_ratio_str(r->hi, v->margin, hi, sizeof(hi));
	verdict_ratio_str(r->ratio, v->margin, q, sizeof(q));
	switch (v->kind) {
	case V_LOWER:
	case V_HIGHER:
		verdict_interval_str(r, v->kind == V_LOWER, v->margin, ci, sizeof(ci));
		snprintf(buf, len, "%s lower worst case: %s, %s%s", v->kind == V_LOWER ? a : b, ci,
			 runs, between ? ", between campaigns" : "");
		break;
	case V_NO_DIFFERENCE:
		snprintf(buf, len, "no clear difference (%s/%s %sx-%sx, %s%s)",
			 a, b, lo, hi, runs, between ? ", between campaigns" : "");
		break;
	case V_EQUIVALENT:
		snprintf(buf, len, "no practical difference: within %.3g %%%s (%s/%s %sx-%sx, %s%s)",
			 100 * v->margin, v->margin_default ? ", the instruction clock's margin" : "",
			 a, b, lo, hi, runs, between ? ", between campaigns" : "");
		break;
	case V_UNEQUAL:
		snprintf(buf, len, "runs of different lengths, maxima not compared (%s %.0f periods a run, %s %.0f: the longer a run, the higher its maximum by chance alone; %s/%s %sx, %s)",
			 a, v->periods_a, b, v->periods_b, a, b, q, runs);
		break;
	default:
		if (between && v->na >= 3 && v->nb >= 3)	/* runs are the first thing short */
			snprintf(buf, len, "%s, %s: too few campaigns to call%s (%s/%s %sx; %d campaigns in all at least, or the sides interleaved in one campaign)",
				 v->apart == 1 ? "ran apart" : "in different campaigns", runs,
				 v->apart == 1 ? " across time" : "", a, b, q, STATS_T_MIN_DF + 2);
		else {
			count_text(v->na, v->nb, "run", runs, rlen);
			verdict_runs_needed(v->na, v->nb, need, sizeof(need));
			if (v->na < 3 || v->nb < 3)
				snprintf(buf, len, "%s: too few to call (%s/%s %sx; 3 runs each at least: %s)",
					 runs, a, b, q, need);
			else
				snprintf(buf, len, "%s: too few to call (%s/%s %sx; no exact 97.5 %% interval from %d and %d runs: %s)",
					 runs, a, b, q, v->na, v->nb, need);
		}
	}
}

/* What the margin and the tail add to the call, appended to buf. */
static void append_margin_tail(const struct pair_verdict *v, const char *a, const char *b,
			       char *buf, size_t len)
{
	const struct ratio_ci *r = &v->max;
	char ci[128], lo[32], hi[32];
	size_t n = strlen(buf);
	const struct ratio_ci *t = &v->tail;

	/*
	 * One rule for every statistic's call: a call whose interval reaches
	 * inside the margin is a difference, not one shown to matter
	 */
	if ((v->kind == V_LOWER || v->kind == V_HIGHER) && v->margin > 0 &&
	    !verdict_past_margin(r, v->margin))
		snprintf(buf + n, len - n, "; not shown to exceed the %.3g %% margin%s", 100 * v->margin,
			 v->margin_default ? " (the instruction clock's: --margin 0 for none)" : "");
	n = strlen(buf);

	/* the tail, when it says something the maximum does not */
	if (v->kind_tail != v->kind && (v->kind_tail == V_LOWER || v->kind_tail == V_HIGHER)) {
		verdict_interval_str(t, v->kind_tail == V_LOWER, v->margin, ci, sizeof(ci));
		snprintf(buf + n, len - n, "; its tail (p%.4g, %d samples above it in a run): %s lower, %s",
			 v->tail_pct, TAIL_SAMPLES, v->kind_tail == V_LOWER ? a : b, ci);
		n = strlen(buf);
		if (v->margin > 0 && !verdict_past_margin(t, v->margin))
			snprintf(buf + n, len - n, ", not shown to exceed the %.3g %% margin",
				 100 * v->margin);
	} else if (v->kind == V_UNEQUAL && v->tail_pct > 0 && t->ok) {
		/* the maxima said nothing: the tail, a percentile of both, says what it can */
		verdict_ratio_str(t->lo, v->margin, lo, sizeof(lo));
		verdict_ratio_str(t->hi, v->margin, hi, sizeof(hi));
		snprintf(buf + n, len - n, "; its tail (p%.4g, %d samples above it in the shortest run) not called either, a short run's percentile sitting lower by chance alone (%s/%s %sx-%sx)",
			 v->tail_pct, TAIL_SAMPLES, a, b, lo, hi);
	} else if (v->kind == V_UNEQUAL) {
		snprintf(buf + n, len - n, "; its tail: too few samples or runs to judge");
	}
	n = strlen(buf);
}

/*
 * What the figures may hold besides the kernels, appended to buf: a
 * hypervisor's stalls, the host's moment, shared boots, two latlabs, a
 * load's settings, runs left out.
 */
static void append_provenance(const struct pair_verdict *v, const char *a, const char *b,
			      char *buf, size_t len)
{
	size_t n = strlen(buf);

	/* no difference seen where a VM's stalls may be as large as what is compared: say so */
	if (v->kind == V_NO_DIFFERENCE && v->kind_tail != V_LOWER && v->kind_tail != V_HIGHER &&
	    v->steal >= VERDICT_STEAL_NOTE)
		snprintf(buf + n, len - n, "; the hypervisor took %.2g %% of the measured CPUs' time during these runs, and its stalls can hide a difference",
			 100 * v->steal);
	n = strlen(buf);
	/*
	 * the host's moment reaches an instruction-counted clock through
	 * the emulated devices alone: qemu's I/O thread on the host paces
	 * what they deliver (docs/campaigns.md, "What reaches the
	 * instruction clock")
	 */
	if (v->apart == 1 && v->design == VD_ICOUNT && !v->devices)
		snprintf(buf + n, len - n, "; apart in time, on an instruction-counted clock the host's moment does not reach");
	else if (v->apart == 1 && v->design == VD_ICOUNT)
		snprintf(buf + n, len - n, "; apart in time, on an instruction-counted clock the host's moment reaches through %s alone: qemu's I/O thread on the host paces what %s delivers",
			 v->devices == TCELL_DEV_DISK ? "the guest's disk" :
			 v->devices == TCELL_DEV_CARDS ? "the guest's cards" : "the guest's disk and cards",
			 v->devices == (TCELL_DEV_DISK | TCELL_DEV_CARDS) ? "each" : "it");
	n = strlen(buf);
	/* a guest's runs that shared a boot are taken as independent: say so where they did */
	if (v->design == VD_ICOUNT && v->boots_a && v->boots_b &&
	    (v->boots_a < v->na || v->boots_b < v->nb))
		snprintf(buf + n, len - n, "; the runs as units, though %s's %d ran in %d boot%s and %s's %d in %d: a load that carries history in a boot makes them less than independent (boots = round: a boot a run)",
			 a, v->na, v->boots_a, v->boots_a == 1 ? "" : "s", b, v->nb, v->boots_b);
	n = strlen(buf);
	/* figures of two latlabs: what differs may be latlab's own */
	if (v->by_a[0])
		snprintf(buf + n, len - n, "; measured by different latlabs (%s: %s; %s: %s): a difference may be latlab's, not the kernels'",
			 a, v->by_a, b, v->by_b);
	n = strlen(buf);
	/* one side's runs of two latlabs, pooled: a shift between them is in its spread */
	/* both sides mixed: one pair said once, two pairs (in either order) each */
	if (v->mix_sides == 3 &&
	    !(strcmp(v->mix_x[0], v->mix_x[1]) == 0 && strcmp(v->mix_y[0], v->mix_y[1]) == 0) &&
	    !(strcmp(v->mix_x[0], v->mix_y[1]) == 0 && strcmp(v->mix_y[0], v->mix_x[1]) == 0))
		snprintf(buf + n, len - n, "; each side's runs came from different latlabs (%s: %s and %s; %s: %s and %s), each pooled as one side",
			 a, v->mix_x[0], v->mix_y[0], b, v->mix_x[1], v->mix_y[1]);
	else if (v->mix_sides) {
		int s = v->mix_sides == 2;

		snprintf(buf + n, len - n, "; %s%s runs came from different latlabs (%s; %s), pooled as one side",
			 v->mix_sides == 3 ? "each side's" : s ? b : a,
			 v->mix_sides == 3 ? "" : "'s", v->mix_x[s], v->mix_y[s]);
	}
	n = strlen(buf);
	/* one load, two settings: what differs may be the load */
	if (v->load_a[0])
		snprintf(buf + n, len - n, "; under the same load with other settings (%s: %s; %s: %s): a difference may be the load's, not the kernels'",
			 a, v->load_a, b, v->load_b);
	n = strlen(buf);
	/* one side's runs under two settings of its load, pooled: a shift between them is in its spread */
	if (v->load_mix_sides)
		snprintf(buf + n, len - n, "; %s%s runs ran the load with other settings (%s; %s), pooled as one side",
			 v->load_mix_sides == 3 ? "each side's" : v->load_mix_sides == 2 ? b : a,
			 v->load_mix_sides == 3 ? "" : "'s", v->load_mix_x, v->load_mix_y);
	append_left(v, a, b, buf, len);
}

void verdict_text(const struct pair_verdict *v, const char *a, const char *b,
		  char *buf, size_t len)
{
	char runs[160];

	if (v->kind == V_UNJUDGED) {
		verdict_unjudged_text(v, a, b, buf, len);
		return;
	}
	runs_text(v, runs, sizeof(runs));
	if (v->zero) {
		snprintf(buf, len, "%s: no ratio (%s/%s): a run's maximum is 0 ns, nothing above zero to compare",
			 runs, a, b);
		return;
	}
	call_text(v, a, b, runs, sizeof(runs), buf, len);
	append_margin_tail(v, a, b, buf, len);
	append_provenance(v, a, b, buf, len);
}

void verdict_line(const struct pair_verdict *v, const char *a, const char *b, int sides,
		  char *buf, size_t len)
{
	int n = sides > 2 ? snprintf(buf, len, "%s against %s: ", a, b) : 0;

	if (n < 0 || (size_t)n >= len)
		n = 0;
	verdict_text(v, a, b, buf + n, len - (size_t)n);
}

void verdict_exceed(const struct side_runs *s, int64_t over_ns, struct exceed *e)
{
	double *cnt = calloc((size_t)s->n + 1, sizeof(*cnt));
	double *hrs = calloc((size_t)s->n + 1, sizeof(*hrs));

	memset(e, 0, sizeof(*e));
	e->over_ns = over_ns;
	e->dispersion = 1;
	e->runs = s->n;
	for (int i = 0; i < s->n; i++) {
		const struct tcell *c = s->run[i];
		/*
		 * a missed period never ran: above any threshold below its period
		 * (the corrected wake-up holds them already)
		 */
		uint64_t k = hist_count_above(verdict_run_hist(s, c), over_ns) +
			     (s->metric != METRIC_WAKEUP_CORRECTED && over_ns < c->interval &&
			      vouch_misses_count(&c->vf) ? c->overruns : 0);
		double h = run_hours(c);

		e->count += k;
		e->hours += h;
		if (cnt && hrs) {
			cnt[i] = (double)k;
			hrs[i] = h;
		}
	}
	/*
	 * Samples above a threshold come in bursts (a stall makes several
	 * late at once) and runs differ: the runs' own spread, as Pearson's
	 * dispersion of their counts about the pooled rate, widens the
	 * Poisson interval when it is above 1 (quasi-Poisson).
	 */
	if (cnt && hrs)
		e->dispersion = stats_dispersion(cnt, hrs, s->n, NULL);
	free(cnt);
	free(hrs);
	stats_rate_ci((double)e->count, e->hours, e->dispersion, VERDICT_CONF, &e->lo, &e->hi);
	if (e->hours > 0)
		e->rate = (double)e->count / e->hours;
}

/* The smallest of 1, 2, 5 x 10^k ns at or above v. */
static int64_t nice_up(double v)
{
	double p = pow(10, floor(log10(v > 1 ? v : 1)));

	for (;;) {
		static const double steps[] = { 1, 2, 5 };

		for (int i = 0; i < 3; i++)
			if (steps[i] * p >= v)
				return (int64_t)llround(steps[i] * p);
		p *= 10;
	}
}

int verdict_default_over(const struct side_runs *sides, int nsides,
			 int64_t *over, int max)
{
	struct hist *all = malloc(sizeof(*all));
	int n = 0;

	if (!all)
		return 0;
	hist_init(all);
	for (int s = 0; s < nsides; s++)
		for (int i = 0; i < sides[s].n; i++)
			hist_merge(all, verdict_run_hist(&sides[s], sides[s].run[i]));
	const double pct[] = { 99, 99.99 };
	for (int k = 0; k < 2 && n < max; k++) {
		int64_t v = nice_up((double)hist_percentile(all, pct[k]));

		if (n == 0 || v != over[n - 1])
			over[n++] = v;
	}
	free(all);
	return n;
}
