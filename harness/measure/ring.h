/*
 * Single-producer single-consumer ring of fixed-size records, lock-free.
 * The producer (a real-time thread) never blocks: when the ring is full
 * the record is dropped and counted. The head is published with a release
 * store after the record is written; the consumer reads it with an
 * acquire load before reading the record (and the mirror for the tail),
 * so a record is never seen half-written. The storage is the caller's.
 */
#ifndef LATLAB_RING_H
#define LATLAB_RING_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "metric.h"
#include "timeline.h"

struct ring {
	_Alignas(64) _Atomic uint32_t head;	/* written by the producer */
	_Alignas(64) _Atomic uint32_t tail;	/* written by the consumer */
	_Alignas(64) uint64_t dropped;		/* producer only */
	uint32_t mask;				/* slots - 1 */
	uint32_t esize;				/* bytes per record */
	unsigned char *slot;
};

/* One second of one thread: the maxima of its metrics, and their timeline bins. */
struct series_rec {
	int32_t t_s;		/* second since the measurement started */
	int32_t thread;
	int64_t max_ns[METRIC_COUNT];	/* enum metric order */
	uint32_t samples;
	uint32_t bins[METRIC_COUNT][TL_BINS];	/* samples per timeline bin */
};

/* An empty ring over `storage` of `slots` (a power of two) records. */
static inline void ring_init(struct ring *r, void *storage, uint32_t slots,
			     uint32_t esize)
{
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	r->dropped = 0;
	r->mask = slots - 1;
	r->esize = esize;
	r->slot = storage;
}

/* Producer: 0, or -1 when full (the record is counted in `dropped`). */
static inline int ring_push(struct ring *r, const void *rec)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail > r->mask) {
		r->dropped++;
		return -1;
	}
	memcpy(r->slot + (size_t)(head & r->mask) * r->esize, rec, r->esize);
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return 0;
}

/* Consumer: 1 with *rec filled, or 0 when empty. */
static inline int ring_pop(struct ring *r, void *rec)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	if (head == tail)
		return 0;
	memcpy(rec, r->slot + (size_t)(tail & r->mask) * r->esize, r->esize);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return 1;
}

#endif
