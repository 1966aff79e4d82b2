/*
 * Latency over time inside a cell: each thread's samples of each metric
 * counted in TL_BINS log-spaced bins per window of [campaign] timeline
 * (10 s by default), written as timeline.csv and drawn as a heatmap (time
 * x latency, colour = count): the view that shows a disturbance every
 * 60 s, which per-second maxima alone hide.
 *
 * Bin 0 holds everything below 1 µs (a negative value too); bin k (1 to
 * TL_BINS - 2) [1 µs * 2^((k-1)/2), 1 µs * 2^(k/2)): half powers of two;
 * the last bin everything from 32.768 ms up.
 */
#ifndef LATLAB_TIMELINE_H
#define LATLAB_TIMELINE_H

#include <stdint.h>

#define TL_BINS 32

/* The lower edge of bin k in ns (bin 0: INT64_MIN). */
static inline int64_t timeline_lo(int k)
{
	static const int64_t edge[TL_BINS] = {
		INT64_MIN, 1000, 1414, 2000, 2828, 4000, 5657, 8000, 11314, 16000,
		22627, 32000, 45255, 64000, 90510, 128000, 181019, 256000, 362039,
		512000, 724077, 1024000, 1448155, 2048000, 2896309, 4096000,
		5792619, 8192000, 11585238, 16384000, 23170475, 32768000,
	};

	return k <= 0 ? INT64_MIN : k >= TL_BINS ? INT64_MAX : edge[k];
}

/* The bin of a value in ns: a binary search of the edges, for the real-time loop. */
static inline int timeline_bin(int64_t ns)
{
	int lo = 0, hi = TL_BINS - 1;	/* edge(lo) <= ns; the answer is in [lo, hi] */

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (ns >= timeline_lo(mid))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

#endif
