/*
 * Why a wake-up was late: the latency of one measured wake-up (from the
 * period's intended wake time to the thread's own clock read) split into
 * parts from the kernel's events on that CPU. Pure: it sees only the
 * events it is given (tracer.c reads them), so the unit tests feed it
 * synthetic sequences with known answers.
 *
 * Every nanosecond of [intended, woke] gets exactly one label, the
 * innermost thing the CPU was doing then:
 *   nmi        inside an NMI handler
 *   irq        inside a hard interrupt handler (per IRQ or vector name)
 *   softirq    inside a softirq (per softirq name)
 *   timer      before the thread's hrtimer expired (the timer interrupt was
 *              late: an idle exit — the state is named —, or the interrupt's
 *              own path, shorter than a gap)
 *   rt-thread  after the expiry, a real-time task of the thread's priority
 *              or higher ran (at equal priority FIFO does not preempt)
 *   blocking   after the expiry, another task held the CPU (on a stock
 *              kernel: non-preemptible kernel work); and a task's stretch
 *              with interrupts off where preemptirq events show it
 *   unexplained a gap: no event on the CPU past the time one was due (the
 *              next tick, the thread's own timer), whatever task was
 *              current; and after the expiry the CPU idle with no event
 *              saying why the thread did not run (hypervisor, SMI,
 *              hardware)
 *   return     the measured thread itself, from its switch-in to its clock
 *              read (but for a gap there)
 * so the parts add up to the latency exactly (nested interrupts counted
 * once). A capture whose window the events do not cover (the buffer
 * overflowed or began too late) is incomplete: no parts, never a guess.
 */
#ifndef LATLAB_ATTRIB_H
#define LATLAB_ATTRIB_H

#include <stdint.h>

enum tev_kind {
	TEV_OTHER,
	TEV_SWITCH,		/* prev_* -> next_* */
	TEV_WAKING,		/* next_pid, next_comm: the task woken */
	TEV_HRT_START,		/* ptr, expires; pid: who armed it */
	TEV_HRT_ENTRY,		/* ptr */
	TEV_HRT_EXIT,		/* ptr */
	TEV_IRQ_ENTRY,		/* name; value: IRQ number */
	TEV_IRQ_EXIT,
	TEV_VECTOR_ENTRY,	/* an x86 vector (local_timer, ...): name */
	TEV_VECTOR_EXIT,
	TEV_SOFTIRQ_ENTRY,	/* value: vec; name */
	TEV_SOFTIRQ_EXIT,
	TEV_NMI,		/* value: delta_ns (the event ends the handler) */
	TEV_IDLE,		/* value: state, or -1 for the exit */
	TEV_MARKER,
	TEV_LOST,		/* events were lost before this point */
	TEV_IRQS_OFF,		/* preemptirq:irq_disable (where traced) */
	TEV_IRQS_ON,		/* preemptirq:irq_enable */
	TEV_OSNOISE,		/* osnoise:*_noise: os (enum os_kind), value: its
				 * duration ns (the event ends it); name: its source */
};

/*
 * The kernel's own account of what ran on a CPU, where its timerlat (or
 * osnoise) tracer runs: osnoise's irq_noise, softirq_noise, thread_noise
 * and nmi_noise events.
 */
enum os_kind { OS_IRQ, OS_SOFTIRQ, OS_THREAD, OS_NMI, OS_KINDS };

/* "irq", "softirq", "thread", "nmi" */
const char *os_kind_name(int kind);

#define TEV_COMM 16

/* One event, in the form attribution needs. */
struct tev {
	int64_t ts;		/* CLOCK_MONOTONIC ns */
	int cpu;
	int kind;		/* enum tev_kind */
	int pid;		/* the task current when it happened (common_pid) */
	char comm[TEV_COMM];	/* its name, if known */
	int prev_pid, prev_prio, next_pid, next_prio;	/* kernel priorities */
	char prev_comm[TEV_COMM], next_comm[TEV_COMM];
	uint64_t ptr;		/* hrtimer */
	int64_t expires;
	int64_t value;
	int os;			/* TEV_OSNOISE: enum os_kind */
	char name[32];
};

enum part {
	PART_TIMER, PART_IRQ, PART_SOFTIRQ, PART_NMI, PART_RT, PART_BLOCKING,
	PART_UNEXPLAINED, PART_RETURN, PART_COUNT
};

/* "timer", "irq", ..., "return": a part's name in spikes.csv's culprit_kind. */
const char *part_name(int part);

/* The wake-up to explain. */
struct spike_query {
	int tid;		/* the measured thread's kernel tid */
	int prio;		/* its kernel priority (99 - SCHED_FIFO priority) */
	int cpu;		/* the CPU it ran on when it woke */
	int64_t intended, woke;	/* CLOCK_MONOTONIC ns */
	/* the name of idle state N ("C1"), or NULL; the hook may be NULL */
	const char *(*idle_name)(void *arg, int state);
	/* state N's exit latency in ns (N -1: the deepest state's), or -1 unknown; the hook may be NULL */
	int64_t (*idle_exit_ns)(void *arg, int state);
	void *idle_arg;
	/*
	 * 1: the CPU has no cpuidle driver (no cpuidle/ in its sysfs): it
	 * idles in the architecture's default, HLT or WFI, whose exit is
	 * ATTR_DEFAULT_IDLE_EXIT_NS at most where the hook knows no state
	 */
	int default_idle;
	/* the tick's period, ns; 0: from the trace's ticks, else ATTR_TICK_NS */
	int64_t tick_ns;
	/*
	 * 1: the CPU's clock counts its own instructions (a qemu guest's
	 * clock = icount): while it runs, time passes only as it executes,
	 * so a stretch without events is its own work — a long handler, a
	 * section with interrupts off —, never a stall it cannot see. A
	 * halted CPU keeps the idle rules (latlab's guests run sleep=off:
	 * its clock jumps to its next timer, so none is expected there)
	 */
	int counted_clock;
};

/*
 * A gap is a stretch with no event on the CPU past the time one was due:
 * the next tick (the last tick + the period; none while the CPU idles,
 * its tick may be stopped) or, before the expiry, the thread's own timer
 * (intended + the idle state's exit latency while idle: the deepest
 * state's when the trace does not say which; without a cpuidle driver
 * the default idle's, ATTR_DEFAULT_IDLE_EXIT_NS; ATTR_IDLE_EXIT_MAX_NS
 * when cpuidle has states and does not say their latency).
 * ATTR_GAP_SLACK_NS late is still on time. On a clock that counts the
 * CPU's instructions (spike_query.counted_clock) nothing is due while it
 * runs: a gap only while it idles.
 *
 * The default idle (x86 HLT, arm64 WFI: C1 or shallower) exits in 1-2 us
 * on hardware (intel_idle's and acpi_idle's C1 say 1-2 us); 10 us is
 * five times that. In a virtual machine without cpuidle, the guest's HLT
 * hands the CPU to the host: a wake-up the host delivers late is then a
 * gap, unexplained, not an idle exit (before, with the 2 ms bound, this
 * VM's 1-2 ms stalls of an idle CPU were filed as "timer: idle exit").
 */
#define ATTR_TICK_NS 4000000	/* HZ = 250, Debian's */
#define ATTR_GAP_SLACK_NS 50000
#define ATTR_IDLE_EXIT_MAX_NS 2000000	/* longer than any C-state exit */
#define ATTR_DEFAULT_IDLE_EXIT_NS 10000	/* HLT, WFI: no cpuidle driver */

#define ATTR_ITEMS 32

struct attr_item {
	int part;
	char name[64];		/* irq name, comm:pid, timer's detail */
	int64_t ns;
};

struct attribution {
	int complete;		/* 0: the events do not cover the window */
	char note[160];		/* why incomplete, or what was inferred */
	int64_t part_ns[PART_COUNT];
	struct attr_item item[ATTR_ITEMS];	/* the parts by contributor */
	int nitems;		/* the rest beyond ATTR_ITEMS go to "others" */
	int culprit;		/* index in item, the largest; -1 if none */
	int64_t expiry;		/* the timer's expiry (ts), or 0 if unknown */
	int64_t switch_in;	/* the switch to the thread (ts), or 0 */
	int64_t gap_from, gap_ns;	/* the longest gap: its start (ts) and length; 0 none */
	int ngaps;
	/*
	 * The kernel's account beside latlab's (osnoise events on the CPU,
	 * where timerlat ran): each kind's noise inside the thread's wait —
	 * the expiry (else the intended wake) to its switch-in (else the
	 * wake-up) — and the largest one's source. os_seen 0: no such event
	 * in the trace, the rest empty.
	 */
	int os_seen;
	int64_t os_ns[OS_KINDS];
	char os_top[64];	/* "thread latload:12 (9000 ns)" */
};

/*
 * Explain q from evs (n events of any CPU, in any order; sorted here).
 * Fills *a. Returns 0, or -EINVAL when the query is nonsense (woke before
 * intended).
 */
int attrib_explain(struct tev *evs, int n, const struct spike_query *q,
		   struct attribution *a);

#endif
