// SPDX-License-Identifier: GPL-2.0
/*
 * latlab's BPF watcher (harness/trace/watch_bpf.c loads it): for each
 * watched thread, two latency histograms counted in the kernel, nothing
 * copied out per event —
 *
 *   timer  the expiry of an hrtimer the thread armed (CLOCK_MONOTONIC
 *          based: its softexpires, as cyclictest's wake-up counts it) to
 *          the thread running
 *   sched  its waking to its running
 *
 * as the histogram triggers of trace/watch.c count them: a waking or an
 * expiry the thread has not run since is dropped when it leaves its CPU.
 * The tracepoints' arguments are read directly (tp_btf: typed, CO-RE
 * relocated), not through bpf_probe_read_kernel: each read a few
 * instructions, on every task's events.
 *
 * The histograms are log-linear: below 16 ns one bucket a nanosecond,
 * above 16 buckets each power of two (bucket_of below; watch_bpf.c reads
 * them back).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define MAX_THREADS 64
#define BUCKETS 1024
#define CLOCK_MONOTONIC 1

char LICENSE[] SEC("license") = "GPL";

/*
 * The callbacks of timers that wake a sleeper (hrtimer_wakeup,
 * timerfd_tmrproc, posix_timer_fn), their addresses set from
 * /proc/kallsyms before loading; all 0: every timer counts. Not the tick
 * or any other timer an interrupt arms while a watched thread is current.
 */
const volatile __u64 wakers[3];

/*
 * The watched threads, written by latlab between loading and attaching
 * (the programs are loaded before the cell's load starts, the threads
 * known later): a table of SLOTS, a thread at the first free of
 * (tid + k) % SLOTS for k = 0 .. PROBES - 1, its index beside it (+1: 0
 * is a free slot). Every task's events ask, so no hash and no loop: at
 * most PROBES compares.
 */
#define SLOTS 1024
#define PROBES 4
struct slot {
	__u32 tid, idx1;
};
struct slot slots[SLOTS];

/* an hrtimer a watched thread armed (not a sleeper's: that one names its task) -> its index */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u32);
} armed SEC(".maps");

/* per thread: the expiry not yet run to, and the waking (ns, 0: none) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * MAX_THREADS);
	__type(key, __u32);
	__type(value, __u64);
} pending SEC(".maps");

/* the histograms: [which][thread][bucket], which 0 timer, 1 sched;
 * mapped into latlab's memory, which reads them without a system call */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2 * MAX_THREADS * BUCKETS);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

/* per thread: expiries its switch-in came before (left out), and events seen */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * MAX_THREADS);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

/* below 16: v; above: 16 buckets of each power of two from 16 on */
static __always_inline __u32 bucket_of(__u64 v)
{
	__u32 e;

	if (v < 16)
		return (__u32)v;
	e = log2_u64(v);
	return (e - 3) * 16 + (__u32)((v >> (e - 4)) & 15);
}

static __always_inline void count(__u32 which, __u32 idx, __u64 lat)
{
	__u32 key = (which * MAX_THREADS + idx) * BUCKETS + bucket_of(lat);
	__u64 *c;

	if (key >= 2 * MAX_THREADS * BUCKETS)
		return;
	c = bpf_map_lookup_elem(&hist, &key);
	if (c)
		__sync_fetch_and_add(c, 1);
}

static __always_inline int probe(__u32 tid, __u32 k, int *idx)
{
	struct slot *s = &slots[(tid + k) & (SLOTS - 1)];

	if (s->tid == tid && s->idx1) {
		*idx = (int)s->idx1 - 1;
		return 1;
	}
	return !s->idx1;	/* a free slot ends the search */
}

/* tid's index among the watched, or -1 */
static __always_inline int index_of(__u32 tid)
{
	int idx = -1;

	if (!tid)
		return -1;	/* the idle task: most switches */
	if (probe(tid, 0, &idx) || probe(tid, 1, &idx) || probe(tid, 2, &idx) ||
	    probe(tid, 3, &idx))
		return idx >= 0 && idx < MAX_THREADS ? idx : -1;
	return -1;
}

SEC("tp_btf/hrtimer_start")
int BPF_PROG(ll_watch_start, struct hrtimer *timer)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	int idx = index_of(tid);
	__u64 key = (__u64)timer, fn;
	__u32 slot;

	if (idx < 0)
		return 0;
	fn = (__u64)timer->function;
	if (wakers[0] && fn == wakers[0])
		return 0;	/* a sleeper's: its expiry names its task */
	if ((wakers[0] || wakers[1] || wakers[2]) && fn != wakers[1] && fn != wakers[2])
		return 0;
	slot = (__u32)idx;
	bpf_map_update_elem(&armed, &key, &slot, BPF_ANY);
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(ll_watch_expire, struct hrtimer *timer)
{
	__u64 key = (__u64)timer, fn, *p;
	__u32 *armer, slot;
	__s64 expires;
	int idx;

	fn = (__u64)timer->function;
	if (wakers[0] && fn == wakers[0]) {	/* hrtimer_wakeup: the sleeper's own task */
		struct hrtimer_sleeper *sl = container_of(timer, struct hrtimer_sleeper, timer);

		idx = index_of((__u32)BPF_CORE_READ(sl, task, pid));
	} else {
		armer = bpf_map_lookup_elem(&armed, &key);
		idx = armer ? (int)*armer : -1;
	}
	if (idx < 0 || idx >= MAX_THREADS || timer->base->clockid != CLOCK_MONOTONIC)
		return 0;
	/* the expiry being served (a timer the kernel restarts keeps its entry) */
	expires = timer->_softexpires;
	slot = (__u32)idx;
	p = bpf_map_lookup_elem(&pending, &slot);
	if (p && expires > 0)
		*p = (__u64)expires;
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(ll_watch_waking, struct task_struct *task)
{
	int idx = index_of((__u32)task->pid);
	__u32 slot;
	__u64 *p;

	if (idx < 0)
		return 0;
	slot = (__u32)idx + MAX_THREADS;
	p = bpf_map_lookup_elem(&pending, &slot);
	if (p)
		*p = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(ll_watch_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	int pidx = index_of((__u32)prev->pid);
	int nidx = index_of((__u32)next->pid);
	__u64 now, *p, *c;
	__u32 slot;

	if (pidx >= 0) {	/* it leaves its CPU: what it has not run to is stale */
		slot = (__u32)pidx;
		if ((p = bpf_map_lookup_elem(&pending, &slot)))
			*p = 0;
		slot = (__u32)pidx + MAX_THREADS;
		if ((p = bpf_map_lookup_elem(&pending, &slot)))
			*p = 0;
	}
	if (nidx < 0)
		return 0;
	now = bpf_ktime_get_ns();
	slot = (__u32)nidx;
	p = bpf_map_lookup_elem(&pending, &slot);
	if (p && *p) {
		if (now >= *p) {
			count(0, (__u32)nidx, now - *p);
		} else if ((c = bpf_map_lookup_elem(&counts, &slot))) {
			__sync_fetch_and_add(c, 1);
		}
		*p = 0;
	}
	slot = (__u32)nidx + MAX_THREADS;
	p = bpf_map_lookup_elem(&pending, &slot);
	if (p && *p) {
		if (now >= *p)
			count(1, (__u32)nidx, now - *p);
		*p = 0;
	}
	return 0;
}
