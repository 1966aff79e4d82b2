/*
 * The statistics behind compare's verdicts (docs/report.md, "How sure is
 * a verdict"). Pure functions of their arguments; deterministic.
 *
 * - A ratio of two sides' per-repeat maxima: the point estimate is the
 *   ratio of the medians; its interval is the exact distribution-free
 *   (Moses / Hodges-Lehmann) confidence interval of the shift between the
 *   two samples' logarithms, turned back into a ratio. It assumes the
 *   runs are independent and that the two sides' log-maxima differ by a
 *   shift (one side's runs are the other's times a factor).
 * - The same ratio between campaigns (a few per side, each one value):
 *   the pooled t interval of their logarithms.
 * - Exceedance counts: the exact (Garwood) Poisson interval of a count.
 */
#ifndef LATLAB_STATS_H
#define LATLAB_STATS_H

/* The median of n values (n >= 1; v is not changed). */
double stats_median(const double *v, int n);

/*
 * The distribution-free interval of the median of n values: the order
 * statistics x(k) and x(n+1-k) for the largest k whose exact coverage,
 * 1 - 2 P(B(n, 1/2) < k), is at least conf; with too few values for
 * conf (fewer than 6 at 95 %) the range, at its own coverage 1 - 2^(1-n).
 * Returns that coverage (0 for one value: lo = hi = it; NAN for none).
 */
double stats_median_ci(const double *v, int n, double conf, double *lo, double *hi);

struct ratio_ci {
	int ok;			/* 0: too few runs for the asked confidence */
	double ratio;		/* median(a) / median(b) */
	double lo, hi;		/* the interval of the ratio */
	double conf;		/* its exact confidence (>= the asked one) */
};

/*
 * The ratio of a's to b's values (all > 0) with a two-sided interval of
 * confidence at least `conf` (0.95). ok = 0 when n or m < 3 or when no
 * exact interval reaches conf (3 and 3, 3 and 4 runs). 0, or -EINVAL
 * for a value <= 0, -ENOMEM.
 */
int stats_ratio_ci(const double *a, int n, const double *b, int m,
		   double conf, struct ratio_ci *out);

/*
 * P(U <= u) for the Mann-Whitney U of samples of n and m with no ties:
 * exact for n * m <= 10000, the normal approximation above.
 */
double stats_mw_cdf(int n, int m, long u);

/* Student's t with df degrees of freedom: P(T <= t), and its p-quantile. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/*
 * The ratio of a's to b's geometric means (all values > 0) with the
 * pooled two-sample t interval of the difference of their logarithms:
 * for a few values of each side that are themselves summaries (one per
 * campaign), where a rank interval has no 95 % with so few. ok = 0
 * below STATS_T_MIN_DF degrees of freedom (n + m - 2). It assumes the
 * logs are normal with one variance on both sides. 0, or -EINVAL for a
 * value <= 0.
 */
#define STATS_T_MIN_DF 2
int stats_ratio_t_ci(const double *a, int n, const double *b, int m,
		     double conf, struct ratio_ci *out);

/* P(X > x) for a chi-square X of df degrees of freedom (NAN for df <= 0). */
double stats_chi2_sf(double x, double df);

/*
 * Pearson's dispersion of n counts about their pooled rate: chi-square of
 * count[i] against the total times exposure[i] / the exposures' sum (the
 * runs with an exposure: periods, hours), over its degrees of freedom
 * (those runs less one). Returns it when above 1, else 1 (so too with no
 * count or fewer than two such runs); *p, when not NULL, the chance of a
 * chi-square that large were the counts independent (1 when none).
 */
double stats_dispersion(const double *count, const double *exposure, int n, double *p);

/*
 * The interval of the rate count / exposure at conf: the exact Poisson
 * one of the count, widened by a dispersion above 1 (quasi-Poisson: the
 * interval of count / dispersion on exposure / dispersion). With no
 * exposure, the interval of count / dispersion itself.
 */
void stats_rate_ci(double count, double exposure, double dispersion, double conf,
		   double *lo, double *hi);

/* P(X >= k) for a Poisson X of mean lambda (1 for k <= 0, 0 for lambda <= 0 < k). */
double stats_poisson_at_least(double lambda, long long k);

/* The exact two-sided Poisson interval of a count k, confidence conf. */
void stats_poisson_ci(long long k, double conf, double *lo, double *hi);

#endif
