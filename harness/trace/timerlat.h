/*
 * The kernel's own instrument beside latlab's ([trace] timerlat = on):
 * the timerlat tracer (CONFIG_TIMERLAT_TRACER, Documentation/trace/
 * timerlat-tracer.rst) in latlab's own tracefs instance, on the measured
 * threads' CPUs, at the cell's interval. Its per-CPU kernel thread
 * (timerlat/N) wakes on an hrtimer as latlab's thread does; per wake-up
 * the kernel records the IRQ latency (the timer's expiry to its handler)
 * and the thread latency (the expiry to the thread running): rtla
 * timerlat's IRQ/thread split. Each becomes a metric of the thread
 * pinned to that CPU (timerlat_irq, timerlat_thread), in the same
 * histograms and files as latlab's own wake-up.
 *
 * The tracer's settings (osnoise/cpus, osnoise/timerlat_period_us) are
 * the kernel's, shared by every instance: latlab sets them only when no
 * osnoise or timerlat tracer runs anywhere, and puts back what was there.
 */
#ifndef LATLAB_TIMERLAT_H
#define LATLAB_TIMERLAT_H

/* "0,2,4,...,1022": CPU_SETSIZE CPUs of up to 4 digits and a comma each */
#define TIMERLAT_CPULIST_MAX 8192

#include <stdint.h>

#include "hist.h"

/* The period timerlat takes (osnoise/timerlat_period_us): 100 µs to 1 s. */
#define TIMERLAT_PERIOD_MIN_NS 100000LL
#define TIMERLAT_PERIOD_MAX_NS 1000000000LL

/* The samples of one CPU. */
struct timerlat_cpu {
	int cpu;
	struct hist irq, thread;	/* ns */
	int kpid;		/* its timerlat thread, from its samples; 0 unknown */
	char sched[32];		/* that thread's policy while it ran: "SCHED_FIFO 95"; "" unknown */
};

struct timerlat {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	int event_id;		/* ftrace:timerlat; -1 unknown */
	int n;
	struct timerlat_cpu *cpu;	/* n, owned */
	uint64_t lost;		/* events the ring buffer dropped */
	uint64_t foreign;	/* samples of a CPU not asked for */
	/* the kernel's, put back: a CPU list of CPU_SETSIZE CPUs, each alone, fits */
	char saved_cpus[TIMERLAT_CPULIST_MAX], saved_period[32];
	int saved;
};

/*
 * Start timerlat on cpus[0..n) (distinct) at period_ns. 0; -ENODEV: this
 * kernel has no timerlat tracer; -EBUSY: an osnoise or timerlat tracer
 * runs already (its settings are not latlab's to change); -ERANGE: the
 * period is out of timerlat's range; another -errno. why says it.
 */
int timerlat_open(struct timerlat *t, const int *cpus, int n, int64_t period_ns,
		  char *why, size_t len);

/*
 * One sample: context 0 is the IRQ's, 1 the thread's (others: ignored).
 * Returns cpu's samples, NULL for a CPU not asked for (counted in foreign).
 */
struct timerlat_cpu *timerlat_add(struct timerlat *t, int cpu, int context, int64_t latency_ns,
				  int pid);

/* Read what the kernel recorded so far (the main thread, while measuring). */
void timerlat_drain(struct timerlat *t);

/* Stop the tracer, read the rest, put the kernel's settings back, remove the instance. */
void timerlat_close(struct timerlat *t);

/* The samples of cpu, or NULL. */
const struct timerlat_cpu *timerlat_of(const struct timerlat *t, int cpu);

/* close (if open) and free the samples. */
void timerlat_free(struct timerlat *t);

#endif
