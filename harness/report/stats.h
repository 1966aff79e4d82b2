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
 * - Exceedance counts: the exact (Garwood) Poisson interval of a count.
 */
#ifndef LATLAB_STATS_H
#define LATLAB_STATS_H

/* The median of n values (n >= 1; v is not changed). */
double stats_median(const double *v, int n);

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

/* The exact two-sided Poisson interval of a count k, confidence conf. */
void stats_poisson_ci(long long k, double conf, double *lo, double *hi);

#endif
