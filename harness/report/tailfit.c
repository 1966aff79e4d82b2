#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tailfit.h"
#include "timeline.h"

#define MAX_GROUPS 128		/* the likelihood's groups of exceedances, at most */
#define GOF_GROUPS 10		/* the goodness-of-fit test's, at most (each >= 10 samples) */
#define XI_MIN (-0.5)		/* below, the maximum likelihood is irregular */
#define XI_MAX 2.0
#define CHI2_1_CONF 3.841458820694124	/* chi-square, 1 df, 95 % */

/* Exceedances of u grouped: [a, b) above u in ns, b = INFINITY for the last. */
struct groups {
	double a[MAX_GROUPS], b[MAX_GROUPS], c[MAX_GROUPS];
	int n;
};

double tailfit_gpd_sf(double y, double sigma, double xi)
{
	if (y <= 0)
		return 1;
	if (isinf(y))
		return 0;
	if (fabs(xi) < 1e-9)
		return exp(-y / sigma);
	double z = 1 + xi * y / sigma;

	return z <= 0 ? 0 : exp(-log(z) / xi);
}

/* log P(a <= Y < b) summed over the groups, each times its count; -INFINITY where impossible. */
static double gpd_loglik(const struct groups *g, double sigma, double xi)
{
	double ll = 0;

	if (!(sigma > 0) || xi < XI_MIN || xi > XI_MAX)
		return -INFINITY;
	for (int i = 0; i < g->n; i++) {
		double pr = tailfit_gpd_sf(g->a[i], sigma, xi) - tailfit_gpd_sf(g->b[i], sigma, xi);

		if (!(pr > 0))
			return -INFINITY;
		ll += g->c[i] * log(pr);
	}
	return ll;
}

/* Nelder-Mead's simplex in two dimensions, maximising f from x (changed to the best). */
typedef double (*objective)(const double *x, const void *arg);

static double maximise(objective f, const void *arg, double *x, const double *step)
{
	double p[3][2], v[3];

	for (int i = 0; i < 3; i++) {
		p[i][0] = x[0] + (i == 1 ? step[0] : 0);
		p[i][1] = x[1] + (i == 2 ? step[1] : 0);
		v[i] = f(p[i], arg);
	}
	for (int it = 0; it < 500; it++) {
		/* order: p[0] best, p[2] worst */
		for (int i = 0; i < 2; i++)
			for (int j = 0; j + 1 < 3 - i; j++)
				if (v[j] < v[j + 1] || (isnan(v[j]) && !isnan(v[j + 1]))) {
					double t = v[j], t0 = p[j][0], t1 = p[j][1];

					v[j] = v[j + 1], p[j][0] = p[j + 1][0], p[j][1] = p[j + 1][1];
					v[j + 1] = t, p[j + 1][0] = t0, p[j + 1][1] = t1;
				}
		if (isfinite(v[0]) && fabs(v[0] - v[2]) < 1e-10 * (1 + fabs(v[0])) &&
		    fabs(p[0][0] - p[2][0]) + fabs(p[0][1] - p[2][1]) < 1e-9)
			break;
		double m[2] = { (p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2 };
		double r[2] = { 2 * m[0] - p[2][0], 2 * m[1] - p[2][1] }, vr = f(r, arg);

		if (vr > v[0]) {
			double e[2] = { 3 * m[0] - 2 * p[2][0], 3 * m[1] - 2 * p[2][1] }, ve = f(e, arg);

			if (ve > vr)
				p[2][0] = e[0], p[2][1] = e[1], v[2] = ve;
			else
				p[2][0] = r[0], p[2][1] = r[1], v[2] = vr;
		} else if (vr > v[1]) {
			p[2][0] = r[0], p[2][1] = r[1], v[2] = vr;
		} else {
			double c[2] = { (m[0] + p[2][0]) / 2, (m[1] + p[2][1]) / 2 }, vc = f(c, arg);

			if (vc > v[2]) {
				p[2][0] = c[0], p[2][1] = c[1], v[2] = vc;
			} else {	/* shrink toward the best */
				for (int i = 1; i < 3; i++) {
					p[i][0] = (p[i][0] + p[0][0]) / 2;
					p[i][1] = (p[i][1] + p[0][1]) / 2;
					v[i] = f(p[i], arg);
				}
			}
		}
	}
	int best = 0;

	for (int i = 1; i < 3; i++)
		if (v[i] > v[best])
			best = i;
	x[0] = p[best][0];
	x[1] = p[best][1];
	return v[best];
}

static double fit_objective(const double *x, const void *arg)
{
	return gpd_loglik(arg, exp(x[0]), x[1]);
}

/* The groups' exponential fit (shape 0): sigma found, x[1] unused */
static double light_objective(const double *x, const void *arg)
{
	return gpd_loglik(arg, exp(x[0]), 0);
}

/* The maximum likelihood fit of the groups: sigma, xi and the log-likelihood. */
static double fit_gpd(const struct groups *g, double *sigma, double *xi)
{
	/* the start: moments of the groups' middles (the last: its lower edge) */
	double n = 0, s = 0, s2 = 0;

	for (int i = 0; i < g->n; i++) {
		double y = isinf(g->b[i]) ? g->a[i] : (g->a[i] + g->b[i]) / 2;

		n += g->c[i], s += g->c[i] * y, s2 += g->c[i] * y * y;
	}
	double m = s / n, var = s2 / n - m * m;
	double x0 = var > 0 ? 0.5 * (1 - m * m / var) : 0;

	x0 = x0 < XI_MIN + 0.05 ? XI_MIN + 0.05 : x0 > 0.9 ? 0.9 : x0;
	double sig0 = m > 0 ? m * (1 - x0) : 1;
	double best = -INFINITY;
	/* from the moments' start and from an exponential's: the better of the two */
	const double starts[2][2] = { { log(sig0), x0 }, { log(m > 0 ? m : 1), 0 } };

	for (int i = 0; i < 2; i++) {
		double x[2] = { starts[i][0], starts[i][1] };
		const double step[2] = { 0.3, 0.1 };
		double v = maximise(fit_objective, g, x, step);

		if (v > best || i == 0) {
			best = v;
			*sigma = exp(x[0]);
			*xi = x[1];
		}
	}
	return best;
}

/* The buckets at or above u, grouped: each group >= `least` samples, contiguous, the last open. */
static void group_above(const struct hist *h, int first, int64_t u, uint64_t least, struct groups *g)
{
	uint64_t acc = 0;
	int64_t lo, hi;

	g->n = 0;
	for (int i = first; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		hist_bucket_range(i, &lo, &hi);
		if (acc == 0) {
			if (g->n == MAX_GROUPS)
				break;
			g->a[g->n] = (double)(lo - u);
		}
		acc += h->bucket[i];
		if (acc >= least && g->n < MAX_GROUPS - 1) {
			g->c[g->n++] = (double)acc;
			acc = 0;
		}
	}
	if (acc)
		g->c[g->n++] = (double)acc;
	if (h->overflow && g->n)
		g->c[g->n - 1] += (double)h->overflow;
	for (int i = 0; i + 1 < g->n; i++)
		g->b[i] = g->a[i + 1];
	if (g->n) {
		g->a[0] = 0;
		g->b[g->n - 1] = INFINITY;
	}
}

/*
 * Pearson's chi-square goodness of fit of the GPD to the exceedances, in
 * groups of equal counts; divided by disp (>= 1), the dispersion of
 * exceedances that come in bursts, as their counts vary that much more.
 */
static double gof_p(const struct hist *h, int first, int64_t u, uint64_t k, double sigma, double xi,
		    double disp)
{
	struct groups g;
	int want = (int)(k / 10 < GOF_GROUPS ? k / 10 : GOF_GROUPS);

	group_above(h, first, u, (k + (uint64_t)want - 1) / (uint64_t)want, &g);
	if (g.n < 4)
		return 0;	/* a few values, not a tail: no test, so no fit */
	double chi = 0;

	for (int i = 0; i < g.n; i++) {
		double e = (double)k * (tailfit_gpd_sf(g.a[i], sigma, xi) -
					tailfit_gpd_sf(g.b[i], sigma, xi));

		if (!(e > 0))
			return 0;
		chi += (g.c[i] - e) * (g.c[i] - e) / e;
	}
	return stats_chi2_sf(chi / disp, g.n - 3);
}

/* The profile of P(X > D): the likelihood with P(X > u) and the fit tied to theta. */
struct profile {
	const struct groups *g;
	double k, n;		/* samples above u, samples */
	double d;		/* D - u, ns */
	double theta;
	int light;		/* the shape held at 0: an exponential tail */
};

static double profile_objective(const double *x, const void *arg)
{
	const struct profile *pr = arg;
	double pu = pr->theta + (1 - pr->theta) / (1 + exp(-x[0]));
	double q = pr->theta / pu, xi = pr->light ? 0 : x[1], sigma;

	if (!(q > 0 && q < 1) || !(pu < 1))
		return -INFINITY;
	/* sigma such that the fit's P(Y > d) is q */
	sigma = fabs(xi) < 1e-9 ? pr->d / -log(q) : xi * pr->d / expm1(-xi * log(q));
	return pr->k * log(pu) + (pr->n - pr->k) * log1p(-pu) + gpd_loglik(pr->g, sigma, xi);
}

static double profile_at(struct profile *pr, double theta, double pu0, double xi0)
{
	pr->theta = theta;
	double f = (pu0 - theta) / (1 - theta);
	double x[2] = { f > 0 && f < 1 ? log(f / (1 - f)) : -5, xi0 };
	const double step[2] = { 0.5, 0.1 };

	return maximise(profile_objective, pr, x, step);
}

/* The deviance at log(theta), divided by the dispersion. */
static double deviance(struct profile *pr, double log_theta, double top, double disp, double pu0,
		       double xi0)
{
	return 2 * (top - profile_at(pr, exp(log_theta), pu0, xi0)) / disp;
}

/*
 * The end of the interval on one side of p (up: > 0): where the
 * deviance, divided by the dispersion, crosses chi-square's 95 %; in
 * log(theta), by decades then by halves.
 */
static double profile_end(struct profile *pr, double p, double top, double disp, int up,
			  double pu0, double xi0)
{
	double in = log(p), out = in;
	int found = 0;

	for (int i = 0; i < 320 && !found; i++) {
		out = in + (up ? 1 : -1) * M_LN10;
		if (up && out >= log(1 - 1e-12))
			return 1;	/* not bounded below certainty */
		if (deviance(pr, out, top, disp, pu0, xi0) > CHI2_1_CONF)
			found = 1;
		else
			in = out;
	}
	if (!found)
		return up ? 1 : 0;
	for (int i = 0; i < 30; i++) {
		double mid = (in + out) / 2;

		if (deviance(pr, mid, top, disp, pu0, xi0) > CHI2_1_CONF)
			out = mid;
		else
			in = mid;
	}
	return exp((in + out) / 2);
}

/* Pearson's dispersion of the runs' counts above ns (their samples the exposure); *p its chance. */
static double dispersion_above(const struct hist *const *run, int n, int64_t ns, double *p)
{
	double *count = calloc((size_t)n + 1, sizeof(*count)), *periods = calloc((size_t)n + 1,
										    sizeof(*periods));
	double d = 1;

	*p = 1;
	if (count && periods) {
		for (int i = 0; i < n; i++) {
			count[i] = (double)hist_count_above(run[i], ns - 1);
			periods[i] = (double)run[i]->count;
		}
		d = stats_dispersion(count, periods, n, p);
	}
	free(count);
	free(periods);
	return d;
}

/*
 * Do the samples at or above `level` come in bursts within runs? Each
 * run's windows' counts at or above the timeline edge at or below level,
 * against the run's own rate times each window's samples: Pearson's
 * chi-square over the degrees of freedom (each run's windows less one),
 * the windows merged, f at a time, until they hold TAILFIT_BURST_MIN
 * above on average. Into t's burst, burst_p (NAN: untested: no windows,
 * none above, or one merged window a run), burst_ns, burst_windows and
 * run_windows.
 */
static void within_runs(const struct tailfit_blocks *b, int n, int64_t level, struct tailfit *t)
{
	int bin = timeline_bin(level), windows = 0;	/* its lower edge at or below level */
	double above = 0, chi = 0, df = 0;

	t->burst = 1;
	t->burst_p = NAN;
	t->burst_ns = bin ? timeline_lo(bin) : 0;
	t->burst_windows = 0;
	t->run_windows = 0;
	for (int i = 0; b && i < n; i++) {
		windows += b[i].n;
		if (i == 0 || b[i].n < t->run_windows)
			t->run_windows = b[i].n;
		for (int w = 0; w < b[i].n; w++)
			for (int k = bin; k < TL_BINS; k++)
				above += (double)b[i].count[w][k];
	}
	if (!(above > 0))
		return;
	int f = (int)ceil(TAILFIT_BURST_MIN * windows / above);

	f = f < 1 ? 1 : f;
	for (int i = 0; i < n; i++) {
		double run_above = 0, run_all = 0;
		int merged = (b[i].n + f - 1) / f;

		for (int w = 0; w < b[i].n; w++)
			for (int k = 0; k < TL_BINS; k++) {
				run_all += (double)b[i].count[w][k];
				run_above += k >= bin ? (double)b[i].count[w][k] : 0;
			}
		if (merged < 2 || !(run_above > 0))
			continue;
		for (int m = 0; m < merged; m++) {
			double c = 0, all = 0;

			for (int w = m * f; w < (m + 1) * f && w < b[i].n; w++)
				for (int k = 0; k < TL_BINS; k++) {
					all += (double)b[i].count[w][k];
					c += k >= bin ? (double)b[i].count[w][k] : 0;
				}
			double e = run_above * all / run_all;

			if (e > 0)
				chi += (c - e) * (c - e) / e;
		}
		df += merged - 1;
		t->burst_windows += merged;
	}
	if (df < 1)
		return;
	t->burst = chi / df > 1 ? chi / df : 1;
	t->burst_p = stats_chi2_sf(chi, df);
}

int tailfit_bursts(const struct tailfit *t)
{
	return t->burst_p < TAILFIT_CLUSTER_P;
}

/*
 * The runs' dispersion at ns beside the bursts within them: both into t,
 * the interval's divisor (widen) the larger. The runs' own is judged
 * beyond the windows' (its chi-square divided by theirs, which is 1
 * without bursts or windows); the chance that remains is returned.
 */
static double dispersions(const struct hist *const *run, const struct tailfit_blocks *blocks, int n,
			  int64_t ns, struct tailfit *t)
{
	t->dispersion = dispersion_above(run, n, ns, &t->cluster_p);
	within_runs(blocks, n, ns, t);
	t->widen = t->dispersion > t->burst ? t->dispersion : t->burst;
	if (t->burst <= 1 || n < 2)
		return t->cluster_p;
	return stats_chi2_sf(t->dispersion * (n - 1) / t->burst, n - 1);
}

/* The count above D, per period, with its Poisson interval widened by the runs' dispersion or bursts. */
static void observed_rate(const struct hist *const *run, const struct tailfit_blocks *blocks, int n,
			  struct tailfit *t)
{
	dispersions(run, blocks, n, t->deadline_ns + 1, t);
	t->p = (double)t->observed / t->periods;
	stats_rate_ci((double)t->observed, t->periods, t->widen, TAILFIT_CONF, &t->lo, &t->hi);
}

/*
 * Does the fit allow the runs' own largest values? At each of the highest
 * levels reached (a bucket's lower edge, so its samples are at or above
 * it), the chance under the fit of as many samples there or higher (of
 * as many bursts, where the runs' windows show bursts); the least, times
 * the levels looked at, into t->extreme_p with its level.
 */
static void check_extremes(const struct hist *all, struct tailfit *t)
{
	uint64_t seen = 0;
	double worst = 1, size = tailfit_bursts(t) ? t->burst : 1;
	int levels = 0;

	for (int i = HIST_BUCKETS; i >= 0 && levels < TAILFIT_EXTREME_LEVELS; i--) {
		int64_t lo = HIST_RANGE_NS, hi;
		uint64_t c = i == HIST_BUCKETS ? all->overflow : all->bucket[i];

		if (!c)
			continue;
		if (i < HIST_BUCKETS)
			hist_bucket_range(i, &lo, &hi);
		if (lo <= t->u_ns)
			break;
		seen += c;
		levels++;
		double e = (double)t->k * tailfit_gpd_sf((double)(lo - t->u_ns), t->sigma_ns, t->xi);
		/* in bursts, their count is the Poisson one: of e / size, and at least seen / size */
		double p = stats_poisson_at_least(e / size, (long long)ceil((double)seen / size));

		if (p < worst || levels == 1) {
			worst = p;
			t->extreme_ns = lo;
			t->extreme_seen = seen;
			t->extreme_expected = e;
		}
	}
	t->extreme_p = worst * levels < 1 ? worst * levels : 1;
}

/*
 * The threshold: the lowest of the candidates (the top tenth at most)
 * whose fit passes the goodness-of-fit test, tried from the lowest up.
 * out's status TF_FIT with u, k, the fit and its p; TF_REJECTED with the
 * last one tried; TF_FEW when there was none to try. g: the last groups.
 * The test allows for the dispersion of the runs' windows above u (the
 * bursts', 1 when there are none), as the interval does.
 */
static void choose_threshold(const struct hist *all, const struct tailfit_blocks *blocks, int n,
			     struct groups *g, struct tailfit *out)
{
	static const uint64_t ks[] = { 2000, 1000, 500, 250, 100, TAILFIT_MIN_EXCEED };
	int tried = 0;

	out->status = TF_FEW;
	for (size_t c = 0; c < sizeof(ks) / sizeof(ks[0]); c++) {
		if (ks[c] * 10 > all->count)
			continue;	/* the top tenth at most */
		uint64_t acc = 0;
		int first = HIST_BUCKETS - 1;

		for (; first >= 0; first--) {
			acc += all->bucket[first];
			if (acc + all->overflow >= ks[c])
				break;
		}
		if (first < 0)
			continue;
		int64_t u, hi;

		hist_bucket_range(first, &u, &hi);
		if (tried && u == out->u_ns)
			continue;
		tried = 1;
		out->u_ns = u;
		out->k = acc + all->overflow;
		group_above(all, first, u, (out->k + MAX_GROUPS - 1) / MAX_GROUPS, g);
		fit_gpd(g, &out->sigma_ns, &out->xi);
		within_runs(blocks, n, u, out);
		out->gof_p = gof_p(all, first, u, out->k, out->sigma_ns, out->xi, out->burst);
		out->status = TF_REJECTED;
		if (out->gof_p >= TAILFIT_GOF_P) {
			out->status = TF_FIT;
			return;
		}
	}
}

/*
 * A shape above 0 at the thresholds a campaign allows is also what a
 * tail of the Gumbel domain shows there (a Weibull's of shape below 1:
 * its fitted shape falls to 0 only far out), and its extrapolation then
 * lies wholly above the truth. The lower end is taken down to the same
 * threshold's exponential fit's: the interval spans both readings of
 * the tail, the upper end (what to plan with) unchanged.
 */
static void light_end(const struct groups *g, struct tailfit *out, double pu)
{
	double x[2] = { log(out->sigma_ns > 0 ? out->sigma_ns : 1), 0 };
	const double step[2] = { 0.3, 0.1 };
	double ll = maximise(light_objective, g, x, step), sigma = exp(x[0]);
	struct profile pr = { .g = g, .k = (double)out->k, .n = out->periods,
			      .d = (double)(out->deadline_ns - out->u_ns), .light = 1 };

	if (!isfinite(ll))
		return;
	double top = pr.k * log(pu) + (pr.n - pr.k) * log1p(-pu) + ll;
	double p = pu * exp(-pr.d / sigma);

	out->lo_light = p > 1e-300 ? profile_end(&pr, p, top, out->widen, 0, pu, 0) : 0;
	if (out->lo_light < out->lo)
		out->lo = out->lo_light;
}

static int fit(const struct hist *const *run, const struct tailfit_blocks *blocks, int n,
	       int64_t deadline_ns, double target, struct tailfit *out);

static int runs(const struct tailfit_in *in, struct tailfit *out);

int tailfit_runs(const struct tailfit_in *in, struct tailfit *out)
{
	int rc = runs(in, out);

	out->threads = in->threads > 1 ? in->threads : 1;
	return rc;
}

static int runs(const struct tailfit_in *in, struct tailfit *out)
{
	uint64_t all = 0;
	int n = in->n;

	for (int i = 0; in->missed && i < n; i++)
		all += in->missed[i];
	if (!all || !in->late) {
		int rc = fit(in->run, in->blocks, n, in->deadline_ns, in->target, out);

		if (all && rc == 0 && out->status != TF_NO_DATA) {	/* how late past the period: not known */
			out->missed = all;
			out->status = TF_MISSED;
			out->p = out->lo = out->hi = NAN;
			out->xi = out->sigma_ns = out->gof_p = NAN;
		}
		return rc;
	}
	/* each run with its missed periods above any deadline: its overflow */
	struct hist *copy = calloc((size_t)n, sizeof(*copy));
	const struct hist **with = calloc((size_t)n, sizeof(*with));
	int rc = copy && with ? 0 : -ENOMEM;

	for (int i = 0; rc == 0 && i < n; i++) {
		copy[i] = *in->run[i];
		copy[i].overflow += in->missed[i];
		copy[i].count += in->missed[i];
		if (in->missed[i] && copy[i].max < HIST_RANGE_NS)
			copy[i].max = HIST_RANGE_NS;
		with[i] = &copy[i];
	}
	if (rc == 0)
		rc = fit(with, in->blocks, n, in->deadline_ns, in->target, out);
	if (rc == 0 && out->status != TF_NO_DATA) {
		out->missed = all;
		out->status = TF_MISSED;
		out->p = out->lo = out->hi = NAN;
		out->xi = out->sigma_ns = out->gof_p = NAN;
		/* the windows do not hold the missed periods: their bursts untested */
		observed_rate(with, NULL, n, out);
	}
	free(copy);
	free(with);
	return rc;
}

int tailfit(const struct hist *const *run, int n, int64_t deadline_ns, double target,
	    struct tailfit *out)
{
	return fit(run, NULL, n, deadline_ns, target, out);
}

static int fit(const struct hist *const *run, const struct tailfit_blocks *blocks, int n,
	       int64_t deadline_ns, double target, struct tailfit *out)
{
	struct hist *all;
	struct groups *g;

	memset(out, 0, sizeof(*out));
	out->p = out->lo = out->hi = out->xi = out->sigma_ns = out->gof_p = NAN;
	out->dispersion = out->body_dispersion = out->burst = out->widen = 1;
	out->cluster_p = out->extreme_expected = out->lo_light = out->burst_p = NAN;
	out->extreme_p = 1;
	out->deadline_ns = deadline_ns;
	out->runs = n;
	out->threads = 1;
	out->target = target > 0 ? target : TAILFIT_TARGET;
	if (deadline_ns <= 0 || !(out->target < 1) || target < 0)
		return -EINVAL;
	all = malloc(sizeof(*all));
	g = malloc(sizeof(*g));
	if (!all || !g) {
		free(all);
		free(g);
		return -ENOMEM;
	}
	hist_init(all);
	for (int i = 0; i < n; i++)
		hist_merge(all, run[i]);
	out->periods = (double)all->count;
	out->observed = hist_count_above(all, deadline_ns);
	out->status = TF_NO_DATA;
	if (all->count == 0)
		goto done;
	if (out->observed >= TAILFIT_MIN_EXCEED) {
		out->status = TF_OBSERVED;
		observed_rate(run, blocks, n, out);
		goto done;
	}
	choose_threshold(all, blocks, n, g, out);
	if (out->status != TF_FIT)
		goto done;
	check_extremes(all, out);
	if (out->extreme_p < TAILFIT_EXTREME_P) {	/* the count, never the body's law */
		out->status = TF_REGIME;
		observed_rate(run, blocks, n, out);
		goto done;
	}
	if (n < 2) {
		out->status = TF_ONE_RUN;
		goto done;
	}
	if (dispersions(run, blocks, n, out->u_ns, out) < TAILFIT_CLUSTER_P) {
		double body_p;

		out->body_dispersion = dispersion_above(run, n, hist_percentile(all, 50) + 1, &body_p);
		out->status = body_p < TAILFIT_CLUSTER_P ? TF_DRIFT : TF_CLUSTERED;
		goto done;
	}
	if (deadline_ns < out->u_ns) {	/* within the data, if few */
		out->status = TF_OBSERVED;
		observed_rate(run, blocks, n, out);
		goto done;
	}
	/* the estimate and its profile-likelihood interval */
	double pu = (double)out->k / out->periods;
	struct profile pr = { .g = g, .k = (double)out->k, .n = out->periods,
			      .d = (double)(deadline_ns - out->u_ns) };
	double top = pr.k * log(pu) + (pr.n - pr.k) * log1p(-pu) +
		     gpd_loglik(g, out->sigma_ns, out->xi);

	out->p = pu * tailfit_gpd_sf(pr.d, out->sigma_ns, out->xi);
	double from = out->p > 1e-300 ? out->p : 1e-300;

	out->lo = out->p > 1e-300 ?
		  profile_end(&pr, from, top, out->widen, 0, pu, out->xi) : 0;
	out->hi = profile_end(&pr, from, top, out->widen, 1, pu, out->xi);
	if (out->xi > 0)
		light_end(g, out, pu);
done:
	tailfit_retarget(out, out->target);
	free(all);
	free(g);
	return 0;
}

int tailfit_estimated(const struct tailfit *t)
{
	return t->status == TF_FIT || t->status == TF_OBSERVED || t->status == TF_REGIME ||
	       (t->status == TF_MISSED && isfinite(t->p));
}

int tailfit_advice(const struct tailfit *t)
{
	if (tailfit_estimated(t) && t->lo > t->target)
		return TA_MISSED;
	if (tailfit_estimated(t) && t->hi < t->target)
		return TA_SHOWN;
	return TA_RUN;
}

void tailfit_retarget(struct tailfit *t, double target)
{
	/* late periods in bursts: a run counts bursts, not periods */
	double size = tailfit_bursts(t) ? t->burst : 1, lo, hi, c;

	t->target = target;
	/* with none above D in m periods, P < target at TAILFIT_CONF when m >= -ln(1 - conf) / target */
	t->need_periods = -log(1 - TAILFIT_CONF) / target * size;
	/* the plan: the fewest allowed whose run shows a tenth of the target often enough */
	for (t->plan_most = 0;; t->plan_most++) {
		stats_poisson_ci(t->plan_most, 2 * TAILFIT_CONF - 1, &lo, &hi);
		c = hi;		/* the one-sided bound: a run of c / target allows plan_most */
		if (stats_poisson_at_least(c / TAILFIT_PLAN_MARGIN, t->plan_most + 1) <=
		    1 - TAILFIT_PLAN_SUCCESS)
			break;
	}
	t->plan_periods = c / target * size;
	for (t->plan_missed = t->plan_most + 1;; t->plan_missed++) {
		stats_poisson_ci(t->plan_missed, 2 * TAILFIT_CONF - 1, &lo, &hi);
		if (lo > c)
			break;
	}
}

const char *tailfit_status_text(int status)
{
	switch (status) {
	case TF_FIT: return "extrapolated";
	case TF_OBSERVED: return "counted: the deadline lies within the runs";
	case TF_NO_DATA: return "no samples";
	case TF_ONE_RUN: return "not extrapolated: one run cannot show whether its exceedances cluster";
	case TF_FEW: return "not extrapolated: too few samples above any threshold for a fit";
	case TF_REJECTED: return "not extrapolated: the tail fit was rejected at every threshold";
	case TF_CLUSTERED: return "not extrapolated: the exceedances cluster in runs";
	case TF_REGIME: return "not extrapolated: the runs' largest values are far above what the tail's fit allows (a second regime in the tail)";
	case TF_DRIFT: return "not extrapolated: the runs drift between laws (they differ in their body as in their tail)";
	case TF_MISSED: return "not extrapolated: periods were missed (one that never ran is later than any deadline below its period)";
	}
	return "?";
}

const char *tailfit_keyword(int status)
{
	static const char *const words[] = { "fit", "observed", "no-data", "one-run", "few",
					      "rejected", "clustered", "regime", "drift", "missed" };

	return status >= 0 && status < (int)(sizeof(words) / sizeof(words[0])) ? words[status] : "?";
}
