/*
 * What tracer.c and tracer_events.c share, private to trace/: the
 * instance, a capture's events as they are collected, and the decoding.
 */
#ifndef LATLAB_TRACER_PARTS_H
#define LATLAB_TRACER_PARTS_H

#include <sched.h>
#include <stdint.h>

#include <event-parse.h>
#include <tracefs.h>

#include "attrib.h"
#include "tracer.h"

struct tracer {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	cpu_set_t cpus;
	char name[32];
	/* event ids -> kinds, found once */
	int id_switch, id_waking, id_hstart, id_hentry, id_hexit, id_irq,
	    id_irqx, id_soft, id_softx, id_nmi, id_idle, id_print;
	/* the events enabled (trace-cmd extract disables them) */
	struct trace_event *enabled;
	int nenabled;
	/* the flight recorder in place of the instance (inst, tep NULL) */
	struct flight *fl;
	int counted_clock;	/* tracer_clock_counted: spike_query's */
};

/* The events read from the buffers, and each one's text. */
struct collect {
	struct tracer *t;
	struct tep_handle *tep;	/* the formats the records are parsed with */
	struct tev *ev;
	int n, cap;
	char **text;		/* per event, for the capture's CPU; or NULL */
	int text_cpu;
	int oom;
};

/* cpuidle's names of a CPU's idle states ("POLL", "C1", ...) */
struct idle_names {
	int cpu;
	char name[8][32];
};

/* The osnoise events whose noise the kernel accounts ([trace] timerlat = on), by enum os_kind. */
extern const char *const tr_osnoise_events[OS_KINDS];

/* Room in c for `more` events (and their texts): 0, or -ENOMEM with c->oom set. */
int tr_collect_room(struct collect *c, int more);

/* A softirq's name by its vector ("NET_RX"), "softirq" past the known ones. */
const char *tr_softirq_name(int64_t vec);

/* A name from the trace made one printable line (control bytes '?'). */
void tr_clean(char *s);

/* One record into c's events (and its text on c's CPU): tracefs's and libtracecmd's iterator. */
int tr_collect_one(struct tep_event *e, struct tep_record *r, int cpu, void *arg);

/* An idle state's name and exit latency on in->cpu (struct idle_names *arg), from sysfs. */
const char *tr_idle_name(void *arg, int state);
int64_t tr_idle_exit_ns(void *arg, int state);

/* Has cpu no cpuidle driver: does it idle in the architecture's default? */
int tr_default_idle(int cpu);

#endif
