// SPDX-License-Identifier: GPL-2.0
/*
 * latlab's flight recorder (harness/trace/flight.c loads it): on each
 * measured CPU, the last RING scheduling, timer, interrupt, softirq, NMI,
 * idle and (where the kernel has them) lock contention events in a ring
 * of its own, kept in a BPF map that latlab
 * maps into its memory. Nothing leaves the kernel per event, and nothing
 * at all for an on-time wake-up: when a measured wake-up is later than
 * the capture threshold, the thread that measured it stores 1 in
 * `frozen` (one store to mapped memory, no system call), every program
 * returns at once from then on, and latlab reads the rings where they
 * stand, explains the wake-up (trace/attrib.c) and lets them run again.
 *
 * The tracepoints' arguments are read directly (tp_btf: typed, CO-RE
 * relocated). A slot is taken with one atomic add on the CPU's head, so
 * an interrupt's event nested inside another program's never shares its
 * slot.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "flight.h"

char LICENSE[] SEC("license") = "GPL";

/* events per ring, less one: a power of two's mask, set before loading */
const volatile __u32 ring_mask = 4095;

/*
 * 1: the rings stand still (a capture is being read). Written by the
 * measured thread that saw the late wake-up, and by latlab to re-arm.
 */
int frozen;

/* a measured CPU's ring, + 1 (0: not measured: its events are not kept) */
__u16 ring1[FLIGHT_MAX_CPUS];

/* each ring's head, read and reset by latlab in its mapping of .bss */
struct flight_head heads[FLIGHT_MAX_CPUS];

/* the rings, one after another, mapped into latlab's memory */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* the measured CPUs x the ring: set before loading */
	__type(key, __u32);
	__type(value, struct flight_rec);
} ring SEC(".maps");

/* The next slot of this CPU's ring, its time filled; NULL: not kept. */
static __always_inline struct flight_rec *take(__u32 kind)
{
	__u32 cpu = bpf_get_smp_processor_id(), r, idx;
	struct flight_rec *e;
	__u64 n;

	if (frozen || cpu >= FLIGHT_MAX_CPUS)
		return NULL;
	r = ring1[cpu];
	if (!r)
		return NULL;
	r -= 1;
	if (r >= FLIGHT_MAX_CPUS)	/* for the verifier: heads[r] in bounds */
		return NULL;
	n = __sync_fetch_and_add(&heads[r].n, 1);
	idx = r * (ring_mask + 1) + ((__u32)n & ring_mask);
	e = bpf_map_lookup_elem(&ring, &idx);
	if (!e)
		return NULL;
	e->ts = bpf_ktime_get_ns();
	e->kind = kind;
	return e;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(ll_fl_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct flight_rec *e = take(FL_SWITCH);

	if (!e)
		return 0;
	e->prev_pid = prev->pid;
	e->prev_prio = prev->prio;
	e->next_pid = next->pid;
	e->next_prio = next->prio;
	__builtin_memcpy(e->prev_comm, prev->comm, FLIGHT_COMM);
	__builtin_memcpy(e->next_comm, next->comm, FLIGHT_COMM);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(ll_fl_waking, struct task_struct *p)
{
	struct flight_rec *e = take(FL_WAKING);

	if (!e)
		return 0;
	e->next_pid = p->pid;
	e->next_prio = p->prio;
	__builtin_memcpy(e->next_comm, p->comm, FLIGHT_COMM);
	return 0;
}

SEC("tp_btf/hrtimer_start")
int BPF_PROG(ll_fl_hrt_start, struct hrtimer *timer)
{
	struct flight_rec *e = take(FL_HRT_START);

	if (!e)
		return 0;
	e->ptr = (__u64)timer;
	e->fn = (__u64)timer->function;
	e->value = timer->node.expires;
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(ll_fl_hrt_entry, struct hrtimer *timer)
{
	struct flight_rec *e = take(FL_HRT_ENTRY);

	if (!e)
		return 0;
	e->ptr = (__u64)timer;
	e->fn = (__u64)timer->function;
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(ll_fl_hrt_exit, struct hrtimer *timer)
{
	struct flight_rec *e = take(FL_HRT_EXIT);

	if (e)
		e->ptr = (__u64)timer;
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(ll_fl_irq_entry, int irq)
{
	struct flight_rec *e = take(FL_IRQ_ENTRY);

	if (e)
		e->value = irq;
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(ll_fl_irq_exit, int irq)
{
	struct flight_rec *e = take(FL_IRQ_EXIT);

	if (e)
		e->value = irq;
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(ll_fl_soft_entry, unsigned int vec)
{
	struct flight_rec *e = take(FL_SOFTIRQ_ENTRY);

	if (e)
		e->value = vec;
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(ll_fl_soft_exit, unsigned int vec)
{
	struct flight_rec *e = take(FL_SOFTIRQ_EXIT);

	if (e)
		e->value = vec;
	return 0;
}

SEC("tp_btf/nmi_handler")
int BPF_PROG(ll_fl_nmi, void *handler, s64 delta_ns)
{
	struct flight_rec *e = take(FL_NMI);

	if (e) {
		e->fn = (__u64)handler;
		e->value = delta_ns;
	}
	return 0;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(ll_fl_idle, unsigned int state)
{
	struct flight_rec *e = take(FL_IDLE);

	if (e)
		e->value = state == (unsigned int)-1 ? -1 : (__s64)state;
	return 0;
}

/* where the kernel has them (6.2 on): a contended lock, shown in trace-N.txt */
SEC("tp_btf/contention_begin")
int BPF_PROG(ll_fl_lock_begin, void *lock, unsigned int flags)
{
	struct flight_rec *e = take(FL_LOCK_BEGIN);

	if (e) {
		e->ptr = (__u64)lock;
		e->value = flags;
	}
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(ll_fl_lock_end, void *lock, int ret)
{
	struct flight_rec *e = take(FL_LOCK_END);

	if (e) {
		e->ptr = (__u64)lock;
		e->value = ret;
	}
	return 0;
}

/* x86's system vectors: one program per tracepoint, the vector's id as its value */
#define VECTOR(tp, id)								\
SEC("tp_btf/" #tp "_entry")							\
int BPF_PROG(ll_fl_##tp##_entry, int vector)					\
{										\
	struct flight_rec *e = take(FL_VECTOR_ENTRY);				\
										\
	if (e) {								\
		e->value = id;							\
		e->ptr = (__u64)vector;						\
	}									\
	return 0;								\
}										\
SEC("tp_btf/" #tp "_exit")							\
int BPF_PROG(ll_fl_##tp##_exit, int vector)					\
{										\
	struct flight_rec *e = take(FL_VECTOR_EXIT);				\
										\
	if (e) {								\
		e->value = id;							\
		e->ptr = (__u64)vector;						\
	}									\
	return 0;								\
}

VECTOR(local_timer, FV_LOCAL_TIMER)
VECTOR(reschedule, FV_RESCHEDULE)
VECTOR(call_function, FV_CALL_FUNCTION)
VECTOR(call_function_single, FV_CALL_FUNCTION_SINGLE)
VECTOR(irq_work, FV_IRQ_WORK)
