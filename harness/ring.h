/*
 * Single-producer single-consumer ring of fixed-size records, lock-free.
 * The producer (a real-time thread) never blocks: when the ring is full
 * the record is dropped and counted. The head is published with a release
 * store after the record is written; the consumer reads it with an
 * acquire load before reading the record (and the mirror for the tail),
 * so a record is never seen half-written.
 */
#ifndef LATLAB_RING_H
#define LATLAB_RING_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define RING_SLOTS 256			/* power of two */

/* One second of one thread: the maxima of its three metrics. */
struct series_rec {
	int32_t t_s;		/* second since the measurement started */
	int32_t thread;
	int64_t max_ns[3];	/* wakeup, io, response */
	uint32_t samples;
};

struct ring {
	_Alignas(64) _Atomic uint32_t head;	/* written by the producer */
	_Alignas(64) _Atomic uint32_t tail;	/* written by the consumer */
	_Alignas(64) uint64_t dropped;		/* producer only */
	struct series_rec slot[RING_SLOTS];
};

static inline void ring_init(struct ring *r)
{
	memset(r, 0, sizeof(*r));
}

/* Producer: 0, or -1 when full (the record is counted in `dropped`). */
static inline int ring_push(struct ring *r, const struct series_rec *rec)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail == RING_SLOTS) {
		r->dropped++;
		return -1;
	}
	r->slot[head & (RING_SLOTS - 1)] = *rec;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return 0;
}

/* Consumer: 1 with *rec filled, or 0 when empty. */
static inline int ring_pop(struct ring *r, struct series_rec *rec)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	if (head == tail)
		return 0;
	*rec = r->slot[tail & (RING_SLOTS - 1)];
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return 1;
}

#endif
