/*
 * The flight recorder's record, as bpf/flight.bpf.c writes it into each
 * CPU's ring and harness/trace/flight.c reads it back: one definition
 * for both sides (the BPF side has the __u64 family from vmlinux.h, the
 * C side from <linux/types.h>).
 */
#ifndef LATLAB_FLIGHT_H
#define LATLAB_FLIGHT_H

/* What happened: the events of the tracefs path (trace/tracer.c) that attribution reads. */
enum flight_kind {
	FL_NONE,
	FL_SWITCH,		/* prev -> next: pids, priorities, names */
	FL_WAKING,		/* next: the task woken */
	FL_HRT_START,		/* ptr, fn, value: its expiry */
	FL_HRT_ENTRY,		/* ptr, fn */
	FL_HRT_EXIT,		/* ptr */
	FL_IRQ_ENTRY,		/* value: the IRQ number */
	FL_IRQ_EXIT,
	FL_VECTOR_ENTRY,	/* value: enum flight_vector; ptr: the vector's number */
	FL_VECTOR_EXIT,
	FL_SOFTIRQ_ENTRY,	/* value: its vector (NET_RX 3, ...) */
	FL_SOFTIRQ_EXIT,
	FL_NMI,			/* value: the handler's length, ns (the event ends it) */
	FL_IDLE,		/* value: the state, -1 the exit */
	FL_LOCK_BEGIN,		/* a lock contended (lock:contention_begin, 6.2+): ptr the lock, value its flags */
	FL_LOCK_END,		/* and acquired or given up: ptr the lock, value the result */
	FL_KINDS
};

/* x86's system vectors (irq_vectors:*), by name in trace-N.txt and the parts */
enum flight_vector {
	FV_LOCAL_TIMER, FV_RESCHEDULE, FV_CALL_FUNCTION, FV_CALL_FUNCTION_SINGLE,
	FV_IRQ_WORK, FV_KINDS
};

#define FLIGHT_COMM 16

struct flight_rec {
	__u64 ts;		/* CLOCK_MONOTONIC ns (bpf_ktime_get_ns) */
	__u64 ptr;		/* the hrtimer */
	__u64 fn;		/* its callback's address */
	__s64 value;		/* by kind, above */
	__u32 kind;		/* enum flight_kind */
	__s32 prev_pid, next_pid;
	__s32 prev_prio, next_prio;	/* the kernel's scale (99 - FIFO priority, 120 ...) */
	char prev_comm[FLIGHT_COMM], next_comm[FLIGHT_COMM];
};

/*
 * A ring's head: how many events it has taken (a cache line each, so two
 * CPUs' adds never share one). The task current at each event is not
 * recorded: on a CPU it changes only at a switch, so flight_decode finds
 * it from the ring's own switches (a helper call an event saved).
 */
struct flight_head {
	__u64 n;
	__u64 pad[7];
};

/* The most CPUs the recorder keeps a ring for (its CPU mask's size). */
#define FLIGHT_MAX_CPUS 1024

#endif
