#include <math.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_bucket_range(int i, int64_t *lo, int64_t *hi)
{
	if (i < HIST_LINEAR_MAX) {
		*lo = i;
		*hi = i + 1;
		return;
	}
	int k = i - HIST_LINEAR_MAX;
	int e = k / (1 << HIST_SUB_BITS) + HIST_SUB_BITS + 1;
	int sub = k % (1 << HIST_SUB_BITS);
	int shift = e - HIST_SUB_BITS;

	*lo = (int64_t)((1 << HIST_SUB_BITS) + sub) << shift;
	*hi = *lo + (1LL << shift);
}

void hist_add_bucket(struct hist *h, int64_t lo, int64_t hi, uint64_t count)
{
	if (count == 0)
		return;
	if (h->count == 0 || lo < h->min)
		h->min = lo;
	if (h->count == 0 || hi - 1 > h->max)
		h->max = hi - 1;
	h->count += count;
	if (lo < 0) {
		h->underflow += count;
		return;
	}
	if (lo >= HIST_RANGE_NS) {
		h->overflow += count;
		return;
	}
	h->bucket[hist_index(lo)] += count;
	/* the bucket's middle stands for its samples: mean within 0.2 % */
	double mid = ((double)lo + (double)(hi - 1)) / 2;
	h->sum += (uint64_t)(mid * (double)count);
	h->sumsq += mid * mid * (double)count;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->underflow += src->underflow;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	for (int i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

int64_t hist_percentile(const struct hist *h, double p)
{
	if (h->count == 0)
		return 0;
	/* rank of the wanted sample, 1-based, counting underflow first */
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	uint64_t seen = h->underflow;

	if (rank < 1)
		rank = 1;
	if (rank <= seen)
		return h->min;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			int64_t lo, hi;

			hist_bucket_range(i, &lo, &hi);
			int64_t v = hi - 1;
			if (v > h->max)
				v = h->max;
			if (v < h->min)
				v = h->min;
			return v;
		}
	}
	return h->max;	/* in the overflow */
}

static uint64_t in_range(const struct hist *h)
{
	return h->count - h->overflow - h->underflow;
}

double hist_mean(const struct hist *h)
{
	uint64_t n = in_range(h);

	return n ? (double)h->sum / (double)n : 0.0;
}

double hist_stddev(const struct hist *h)
{
	uint64_t n = in_range(h);

	if (n < 2)
		return 0.0;
	double mean = hist_mean(h);
	double var = (h->sumsq - (double)n * mean * mean) / (double)(n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t hist_count_above(const struct hist *h, int64_t ns)
{
	uint64_t n = h->overflow;

	if (h->count == 0 || h->max <= ns)
		return 0;
	for (int i = HIST_BUCKETS - 1; i >= 0; i--) {
		int64_t lo, hi;

		hist_bucket_range(i, &lo, &hi);
		if (lo <= ns)
			break;
		n += h->bucket[i];
	}
	return n;
}

uint64_t hist_support(double p)
{
	/* 1 / (1 - p/100), rounded up, with p99.99 exactly 10 000 */
	return p >= 100 ? UINT64_MAX : (uint64_t)ceil(100.0 / (100.0 - p) - 1e-9);
}

int hist_has_support(const struct hist *h, double p)
{
	return h->count >= hist_support(p);
}
