#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define MW_EXACT_MAX 10000	/* n * m up to which U's law is counted exactly */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *v, int n)
{
	double *s = malloc((size_t)n * sizeof(*s));
	double m;

	if (!s || n < 1) {
		free(s);
		return NAN;
	}
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* P(B(n, 1/2) = i) */
static double binom_half(int n, int i)
{
	return exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
}

double stats_median_ci(const double *v, int n, double conf, double *lo, double *hi)
{
	double *s = n > 0 ? malloc((size_t)n * sizeof(*s)) : NULL;
	double below = 0, cover = 0;
	int k = 1;

	*lo = *hi = NAN;
	if (!s)
		return NAN;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	/* below: P(B < k); [x(k), x(n+1-k)] covers the median with 1 - 2 below */
	below = binom_half(n, 0);
	cover = 1 - 2 * below;
	while (k + 1 <= (n + 1) / 2) {
		double next = below + binom_half(n, k);

		if (1 - 2 * next < conf)
			break;
		below = next;
		cover = 1 - 2 * below;
		k++;
	}
	if (cover < 0)
		cover = 0;
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return cover;
}

/*
 * The number of orderings of n a's and m b's with u pairs (a before b),
 * for every u, as a fraction of all of them: f(i, j, u) = f(i - 1, j,
 * u - j) + f(i, j - 1, u), a layer of i at a time. Only additions, so
 * no precision is lost to cancellation. NULL on no memory.
 */
static double *mw_law(int n, int m)
{
	int umax = n * m;
	size_t w = (size_t)umax + 1;
	double *prev = calloc((size_t)(m + 1) * w, sizeof(double));
	double *cur = calloc((size_t)(m + 1) * w, sizeof(double));
	double *law = malloc(w * sizeof(double));

	if (!prev || !cur || !law) {
		free(prev);
		free(cur);
		free(law);
		return NULL;
	}
	for (int j = 0; j <= m; j++)
		prev[(size_t)j * w] = 1;	/* i = 0: one ordering, u = 0 */
	for (int i = 1; i <= n; i++) {
		memset(cur, 0, (size_t)(m + 1) * w * sizeof(double));
		cur[0] = 1;			/* j = 0 */
		for (int j = 1; j <= m; j++)
			for (int u = 0; u <= i * j; u++) {
				double v = cur[(size_t)(j - 1) * w + u];

				if (u >= j)
					v += prev[(size_t)j * w + u - j];
				cur[(size_t)j * w + u] = v;
			}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	double total = 0;
	for (int u = 0; u <= umax; u++)
		total += prev[(size_t)m * w + u];
	for (int u = 0; u <= umax; u++)
		law[u] = prev[(size_t)m * w + u] / total;
	free(prev);
	free(cur);
	return law;
}

double stats_mw_cdf(int n, int m, long u)
{
	if (u < 0)
		return 0;
	if ((long)n * m <= MW_EXACT_MAX) {
		double *law = mw_law(n, m), p = 0;

		if (!law)
			return NAN;
		for (long k = 0; k <= u && k <= (long)n * m; k++)
			p += law[k];
		free(law);
		return p > 1 ? 1 : p;
	}
	/* normal, with continuity correction */
	double mean = (double)n * m / 2;
	double sd = sqrt((double)n * m * (n + m + 1) / 12.0);

	return 0.5 * erfc(-((double)u + 0.5 - mean) / (sd * sqrt(2.0)));
}

/* Is every one of v[0..n) above 0 (a ratio's logarithm needs it)? */
static int all_positive(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 0;
	return 1;
}

int stats_ratio_ci(const double *a, int n, const double *b, int m,
		   double conf, struct ratio_ci *out)
{
	memset(out, 0, sizeof(*out));
	if (!all_positive(a, n) || !all_positive(b, m) || n < 1 || m < 1)
		return -EINVAL;
	out->ratio = stats_median(a, n) / stats_median(b, m);
	out->lo = out->hi = out->ratio;
	if (n < 3 || m < 3)
		return 0;

	size_t nm = (size_t)n * (size_t)m;
	double *d = malloc(nm * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			d[(size_t)i * m + j] = log(a[i]) - log(b[j]);
	qsort(d, nm, sizeof(*d), cmp_double);

	/*
	 * The largest c with P(U <= c - 1) <= alpha / 2: the interval is the
	 * c-th smallest and the c-th largest of the n * m differences.
	 */
	double half = (1 - conf) / 2, tail = 0;
	long c = 0;
	if ((long)nm <= MW_EXACT_MAX) {
		double *law = mw_law(n, m);

		if (!law) {
			free(d);
			return -ENOMEM;
		}
		while (c < (long)nm / 2 && tail + law[c] <= half * (1 + 1e-12))
			tail += law[c++];
		free(law);
	} else {
		long lo = 0, hi = (long)nm / 2;

		while (lo < hi) {	/* the largest c with cdf(c - 1) <= half */
			long mid = (lo + hi + 1) / 2;

			if (stats_mw_cdf(n, m, mid - 1) <= half)
				lo = mid;
			else
				hi = mid - 1;
		}
		c = lo;
		tail = c > 0 ? stats_mw_cdf(n, m, c - 1) : 0;
	}
	if (c >= 1) {
		out->ok = 1;
		out->lo = exp(d[c - 1]);
		out->hi = exp(d[nm - (size_t)c]);
		out->conf = 1 - 2 * tail;
	}
	free(d);
	return 0;
}

/* The regularized lower incomplete gamma P(s, x), s > 0, x >= 0. */
static double gamma_p(double s, double x)
{
	if (x <= 0)
		return 0;
	double lead = s * log(x) - x - lgamma(s);

	if (x < s + 1) {	/* the series */
		double term = 1 / s, sum = term;

		for (int k = 1; k < 100000 && term > sum * 1e-16; k++) {
			term *= x / (s + k);
			sum += term;
		}
		return exp(lead) * sum;
	}
	/* the continued fraction for Q, Lentz's method */
	double tiny = 1e-300, bq = x + 1 - s, cq = 1 / tiny, dq = 1 / bq, h = dq;

	for (int k = 1; k < 100000; k++) {
		double an = -k * (k - s), del;

		bq += 2;
		dq = an * dq + bq;
		if (fabs(dq) < tiny)
			dq = tiny;
		cq = bq + an / cq;
		if (fabs(cq) < tiny)
			cq = tiny;
		dq = 1 / dq;
		del = dq * cq;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return 1 - exp(lead) * h;
}

double stats_chi2_sf(double x, double df)
{
	if (!(df > 0))
		return NAN;
	return x <= 0 ? 1 : 1 - gamma_p(df / 2, x / 2);
}

double stats_dispersion(const double *count, const double *exposure, int n, double *p)
{
	double total = 0, all = 0, chi = 0;
	int df = -1;

	for (int i = 0; i < n; i++) {
		total += count[i];
		all += exposure[i];
	}
	if (p)
		*p = 1;
	if (!(total > 0 && all > 0))
		return 1;
	for (int i = 0; i < n; i++) {
		double e = total * exposure[i] / all;

		if (!(e > 0))
			continue;
		chi += (count[i] - e) * (count[i] - e) / e;
		df++;
	}
	if (df < 1)
		return 1;
	if (p)
		*p = stats_chi2_sf(chi, df);
	return chi / df > 1 ? chi / df : 1;
}

/* The lambda in [lo, hi] where f (monotone) crosses target, by bisection. */
static double solve(double (*f)(double, long long), long long k, double target,
		    double lo, double hi, int rising)
{
	for (int i = 0; i < 300; i++) {
		double mid = (lo + hi) / 2;

		if ((f(mid, k) < target) == rising)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static double p_at_least(double lambda, long long k)	/* P(X >= k) */
{
	return gamma_p((double)k, lambda);
}

double stats_poisson_at_least(double lambda, long long k)
{
	return k <= 0 ? 1 : !(lambda > 0) ? 0 : p_at_least(lambda, k);
}

static double p_at_most(double lambda, long long k)	/* P(X <= k) */
{
	return 1 - gamma_p((double)k + 1, lambda);
}

void stats_poisson_ci(long long k, double conf, double *lo, double *hi)
{
	double half = (1 - conf) / 2;
	double top = (double)k + 20 * sqrt((double)k + 1) + 20;

	*lo = k == 0 ? 0 : solve(p_at_least, k, half, 0, top, 1);
	*hi = solve(p_at_most, k, half, 0, top, 0);
}

void stats_rate_ci(double count, double exposure, double dispersion, double conf,
		   double *lo, double *hi)
{
	double eff = count / dispersion;
	long long k = llround(eff);
	double fix = k > 0 ? eff / (double)k : 1;	/* the rounding, undone */

	stats_poisson_ci(k, conf, lo, hi);
	if (exposure > 0) {
		*lo = *lo * fix / (exposure / dispersion);
		*hi = *hi * fix / (exposure / dispersion);
	}
}

/* The regularized incomplete beta I_x(a, b) by its continued fraction (Lentz). */
static double beta_i(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x > (a + 1) / (a + b + 2))	/* the fraction converges fast below this */
		return 1 - beta_i(b, a, 1 - x);
	double lead = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x);
	double tiny = 1e-300, c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m < 10000; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));

			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			h *= d * c;
			if (odd && fabs(d * c - 1) < 1e-15)
				return exp(lead) * h / a;
		}
	}
	return exp(lead) * h / a;
}

double stats_t_cdf(double t, double df)
{
	double tail = 0.5 * beta_i(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int stats_ratio_t_ci(const double *a, int n, const double *b, int m,
		     double conf, struct ratio_ci *out)
{
	double ma = 0, mb = 0, ss = 0;
	int df = n + m - 2;

	memset(out, 0, sizeof(*out));
	if (!all_positive(a, n) || !all_positive(b, m))
		return -EINVAL;
	if (n < 1 || m < 1)
		return 0;
	for (int i = 0; i < n; i++)
		ma += log(a[i]) / n;
	for (int j = 0; j < m; j++)
		mb += log(b[j]) / m;
	out->ratio = exp(ma - mb);
	if (df < STATS_T_MIN_DF)
		return 0;
	for (int i = 0; i < n; i++)
		ss += (log(a[i]) - ma) * (log(a[i]) - ma);
	for (int j = 0; j < m; j++)
		ss += (log(b[j]) - mb) * (log(b[j]) - mb);
	double half = stats_t_quantile(1 - (1 - conf) / 2, df) * sqrt(ss / df * (1.0 / n + 1.0 / m));

	out->ok = 1;
	out->lo = exp(ma - mb - half);
	out->hi = exp(ma - mb + half);
	out->conf = conf;
	return 0;
}
