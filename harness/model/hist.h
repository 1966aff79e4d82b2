/*
 * Log-linear latency histogram in nanoseconds (HDR/fio style).
 *
 * Values below HIST_LINEAR_MAX (512 ns) have a bucket each. Above, every
 * power of two [2^e, 2^(e+1)) is split into 256 equal buckets, so a bucket
 * is at most 1/256 (0.39 %) of its lower edge wide. Values of HIST_RANGE_NS
 * (2^42 ns, 73 minutes) and more are counted in `overflow`; negative values
 * (a clock that went backwards) in `underflow`. Exact min, max, sum and sum
 * of squares are kept beside the buckets.
 *
 * A struct hist is fixed-size (no allocation): hist_add() is O(1) and safe
 * in a real-time loop. Not thread-safe: one writer, read after it stops.
 */
#ifndef LATLAB_HIST_H
#define LATLAB_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 8				/* 256 buckets an octave */
#define HIST_LINEAR_MAX (1 << (HIST_SUB_BITS + 1))	/* 512 ns */
#define HIST_TOP_BIT 42
#define HIST_RANGE_NS (1LL << HIST_TOP_BIT)
#define HIST_BUCKETS (HIST_LINEAR_MAX + \
	(HIST_TOP_BIT - HIST_SUB_BITS - 1) * (1 << HIST_SUB_BITS))

struct hist {
	uint64_t count;		/* samples added, overflow included */
	uint64_t overflow;	/* samples >= HIST_RANGE_NS */
	uint64_t underflow;	/* samples < 0 (kept out of the buckets) */
	int64_t min, max;	/* exact, over all samples; valid if count */
	uint64_t sum;		/* of in-range samples, ns */
	double sumsq;		/* of in-range samples, ns^2 */
	uint64_t bucket[HIST_BUCKETS];
};

/* Empty histogram. */
void hist_init(struct hist *h);

/* Count one sample of `ns` nanoseconds. O(1), no allocation, no syscall. */
static inline void hist_add(struct hist *h, int64_t ns);

/* Bucket index of a value in [0, HIST_RANGE_NS). */
static inline int hist_index(int64_t ns);

/* The half-open range [lo, hi) of bucket `i`, in ns. */
void hist_bucket_range(int i, int64_t *lo, int64_t *hi);

/*
 * Add `count` samples that lie in [lo, hi), as a hist.csv row says: the
 * bucket of lo, or the overflow (lo >= HIST_RANGE_NS) or underflow (lo <
 * 0) count. min and max become lo and hi - 1 at most: callers that know
 * the exact values (summary.csv) set them after.
 */
void hist_add_bucket(struct hist *h, int64_t lo, int64_t hi, uint64_t count);

/*
 * Samples above `ns`: the buckets whose lower edge is above it, and the
 * overflow. A bucket that straddles `ns` (at most 0.39 % of it wide) is
 * left out; 0 when the exact max is not above it.
 */
uint64_t hist_count_above(const struct hist *h, int64_t ns);

/* Add every count of `src` to `dst` (threads or cells into one). */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * Value at percentile p (0 < p <= 100): the upper edge of the bucket that
 * holds the ceil(p/100 * n)-th smallest sample, clamped to [min, max], so
 * it never understates by more than the bucket width (<= 0.39 %). When
 * that sample is in the overflow the exact max is returned. 0 if empty.
 */
int64_t hist_percentile(const struct hist *h, double p);

/*
 * The samples percentile p needs behind it: at least one above it, so
 * 1 / (1 - p/100) of them (p99: 100, p99.99: 10 000). Below that the
 * percentile is the maximum under another name.
 */
uint64_t hist_support(double p);

/* Has h enough samples for percentile p? */
int hist_has_support(const struct hist *h, double p);

/* Mean and standard deviation of the in-range samples, ns (0 if empty). */
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);

/* ---- inline, for the real-time loop ---- */

static inline int hist_index(int64_t ns)
{
	if (ns < HIST_LINEAR_MAX)
		return (int)ns;
	int e = 63 - __builtin_clzll((unsigned long long)ns);
	int shift = e - HIST_SUB_BITS;

	return HIST_LINEAR_MAX + (e - HIST_SUB_BITS - 1) * (1 << HIST_SUB_BITS)
	       + (int)((ns >> shift) - (1 << HIST_SUB_BITS));
}

static inline void hist_add(struct hist *h, int64_t ns)
{
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (h->count == 0 || ns > h->max)
		h->max = ns;
	h->count++;
	if (ns < 0) {
		h->underflow++;
		return;
	}
	if (ns >= HIST_RANGE_NS) {
		h->overflow++;
		return;
	}
	h->bucket[hist_index(ns)]++;
	h->sum += (uint64_t)ns;
	h->sumsq += (double)ns * (double)ns;
}

#endif
