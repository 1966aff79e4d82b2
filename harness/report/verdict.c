#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "verdict.h"

const char *verdict_keyword(int kind)
{
	static const char *const names[] = { "lower", "higher", "no-difference", "too-few" };

	return kind >= 0 && kind <= V_TOO_FEW ? names[kind] : "?";
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

/* Per run: its max, p99.99 or p99 (ns) of the side's metric, into v. */
static void values(const struct side_runs *s, int what, double *v)
{
	for (int i = 0; i < s->n; i++) {
		const struct hist *h = s->metric > 0 && s->metric < METRIC_COUNT ?
			s->run[i]->metric[s->metric] : s->run[i]->wakeup;

		if (!h) {	/* not this run's metric: callers check side_has_metric */
			v[i] = 1;
			continue;
		}
		v[i] = what == 0 ? (double)h->max :
		       (double)hist_percentile(h, what == 1 ? 99.99 : 99);
		if (v[i] < 1)
			v[i] = 1;	/* a ratio needs > 0: 1 ns is below any clock */
	}
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
	values(s, 0, v);
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
	values(s, 1, v);
	out->p9999_med = stats_median(v, s->n);
	values(s, 2, v);
	out->p99_med = stats_median(v, s->n);
	free(v);
}

static int kind_of(const struct ratio_ci *r)
{
	if (!r->ok)
		return V_TOO_FEW;
	if (r->hi < 1)
		return V_LOWER;
	if (r->lo > 1)
		return V_HIGHER;
	return V_NO_DIFFERENCE;
}

int verdict_pair(const struct side_runs *a, const struct side_runs *b,
		 struct pair_verdict *v)
{
	double *x = calloc((size_t)a->n + 1, sizeof(*x));
	double *y = calloc((size_t)b->n + 1, sizeof(*y));
	int rc = -ENOMEM;

	memset(v, 0, sizeof(*v));
	v->na = a->n;
	v->nb = b->n;
	/* a maximum of 0 ns: nothing above zero to compare, so no ratio
	 * (against the 1 ns floor it would be a millionfold) */
	for (int s = 0; s < 2; s++) {
		const struct side_runs *r = s ? b : a;

		for (int i = 0; i < r->n; i++) {
			const struct hist *h = r->metric > 0 && r->metric < METRIC_COUNT ?
				r->run[i]->metric[r->metric] : r->run[i]->wakeup;

			v->zero |= h && h->count && h->max <= 0;
		}
	}
	if (x && y && v->zero) {
		rc = 0;
	} else if (x && y) {
		values(a, 0, x);
		values(b, 0, y);
		rc = stats_ratio_ci(x, a->n, y, b->n, VERDICT_CONF, &v->max);
		values(a, 1, x);
		values(b, 1, y);
		if (rc == 0)
			rc = stats_ratio_ci(x, a->n, y, b->n, VERDICT_CONF, &v->p9999);
	}
	v->kind = kind_of(&v->max);
	v->kind_p9999 = kind_of(&v->p9999);
	free(x);
	free(y);
	return rc;
}

static void runs_text(int na, int nb, char *buf, size_t len)
{
	if (na == nb)
		snprintf(buf, len, na == 1 ? "one run each" : "%d runs each", na);
	else
		snprintf(buf, len, "%d and %d runs", na, nb);
}

void verdict_text(const struct pair_verdict *v, const char *a, const char *b,
		  char *buf, size_t len)
{
	const struct ratio_ci *r = &v->max;
	char runs[64];

	runs_text(v->na, v->nb, runs, sizeof(runs));
	if (v->zero) {
		snprintf(buf, len, "%s: no ratio (%s/%s): a run's maximum is 0 ns, nothing above zero to compare",
			 runs, a, b);
		return;
	}
	switch (v->kind) {
	case V_LOWER:
		snprintf(buf, len, "%s lower worst case: %.2fx [%.2fx, %.2fx], %s",
			 a, 1 / r->ratio, 1 / r->hi, 1 / r->lo, runs);
		break;
	case V_HIGHER:
		snprintf(buf, len, "%s lower worst case: %.2fx [%.2fx, %.2fx], %s",
			 b, r->ratio, r->lo, r->hi, runs);
		break;
	case V_NO_DIFFERENCE:
		snprintf(buf, len, "no clear difference (%s/%s %.2fx-%.2fx, %s)",
			 a, b, r->lo, r->hi, runs);
		break;
	default:
		snprintf(buf, len, "%s: too few to call (%s/%s %.2fx; %s)", runs,
			 a, b, r->ratio,
			 v->na < 3 || v->nb < 3 ? "3 runs each at least" :
						  "no exact 95 % interval with so few");
	}
}

void verdict_exceed(const struct side_runs *s, int64_t over_ns, struct exceed *e)
{
	memset(e, 0, sizeof(*e));
	e->over_ns = over_ns;
	for (int i = 0; i < s->n; i++) {
		const struct tcell *c = s->run[i];
		int threads = c->nthreads > 0 ? c->nthreads : 1;

		e->count += hist_count_above(c->wakeup, over_ns);
		/* each thread wakes once an interval: its wake-ups are its time */
		e->hours += (double)c->wakeup->count / threads * (double)c->interval / 3.6e12;
	}
	stats_poisson_ci((long long)e->count, VERDICT_CONF, &e->lo, &e->hi);
	if (e->hours > 0) {
		e->rate = (double)e->count / e->hours;
		e->lo /= e->hours;
		e->hi /= e->hours;
	}
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
			hist_merge(all, sides[s].run[i]->wakeup);
	const double pct[] = { 99, 99.99 };
	for (int k = 0; k < 2 && n < max; k++) {
		int64_t v = nice_up((double)hist_percentile(all, pct[k]));

		if (n == 0 || v != over[n - 1])
			over[n++] = v;
	}
	free(all);
	return n;
}
