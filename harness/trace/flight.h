/*
 * The flight recorder (bpf/flight.bpf.c, built into latlab as a skeleton
 * where the build machine had clang, bpftool, libbpf and BTF): spike
 * captures without tracefs. Each measured CPU keeps its last events in a
 * ring in a BPF map mapped into latlab's memory; the measured thread that
 * saw a late wake-up freezes the rings with one store (spike_trap's
 * `freeze`), and tracer.c reads them here into the same events
 * (struct tev) and trace-N.txt as tracefs's buffers. Links and maps are
 * owned by latlab's descriptors: a killed latlab leaves nothing attached.
 */
#ifndef LATLAB_FLIGHT_RECORDER_H
#define LATLAB_FLIGHT_RECORDER_H

#include <linux/types.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "../../bpf/flight.h"
#include "attrib.h"

struct flight;
struct collect;

/* Was latlab built with it? 1 or 0. */
int flight_built(void);

/*
 * Can it record here: built with it, the kernel's BTF, CAP_BPF and
 * CAP_PERFMON (or CAP_SYS_ADMIN). 0, or -ENODEV / -EPERM with why.
 */
int flight_check(char *why, size_t len);

/* Events a ring of `buffer` bytes holds: a power of two, 1,024 at least. */
uint32_t flight_ring_events(int64_t buffer);

/*
 * Load and attach the recorder for `cpus`, a ring of flight_ring_events
 * (buffer) a CPU, running (not frozen); `lean`: without x86's
 * local_timer vector and cpu_idle ([trace] recorder = lean). Tracepoints
 * this kernel lacks are listed in `missing` as tracefs names
 * ("irq_vectors:local_timer_entry"): recorded without them. 0, or
 * -errno with err.
 */
int flight_open(struct flight **out, const cpu_set_t *cpus, int64_t buffer, int lean,
		char *missing, size_t mlen, char *err, size_t errlen);

/* 1: opened lean. */
int flight_lean(const struct flight *f);

/* The word a measured thread stores 1 to: the rings stand still. */
int *flight_freeze(struct flight *f);

/*
 * The frozen rings' events into c (struct tev, and text for c->text_cpu):
 * each measured CPU's, oldest first. 0 or -ENOMEM (what was read kept).
 */
int flight_collect(struct flight *f, struct collect *c);

/* The rings emptied and running again. */
void flight_rearm(struct flight *f);

/* Detached and freed. f may be NULL. */
void flight_close(struct flight *f);

/* How a capture names what the records point at: callbacks and IRQs. */
struct flight_names {
	/* a kernel function's name ("hrtimer_wakeup"), or NULL */
	const char *(*fn)(void *arg, uint64_t addr);
	/* an IRQ's handlers' name ("virtio0-input.0"), or NULL */
	const char *(*irq)(void *arg, int irq);
	void *arg;
};

/*
 * One CPU's ring (`mask` + 1 records, `head` taken so far) into c's
 * events, oldest first: at most `mask` - 7 of the newest (the slots a
 * program that passed the frozen check just before the store may still
 * fill are left out). Each event's task is the one current on the CPU:
 * before the ring's first switch that switch's prev, after each switch
 * its next; -1 in a ring with no switch. Pure: the unit tests feed it
 * records.
 * 0 or -ENOMEM.
 */
int flight_decode(const struct flight_rec *ring, uint32_t mask, uint64_t head, int cpu,
		  const struct flight_names *names, struct collect *c);

/* "local_timer", ... (x86's irq_vectors), or "vector" */
const char *flight_vector_name(int v);

#endif
