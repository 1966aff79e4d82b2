#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "model.h"

#define STACK_MAX 16
#define IDLE_UNNAMED INT32_MAX	/* idle, the state not in the trace */

_Static_assert(PART_COUNT == SPIKE_PARTS, "spikes.csv has a column per part");

const char *part_name(int part)
{
	return spike_part_name(part);	/* the format's names: results/model.h */
}

/* Events sorted by time; equal times keep the reader's order. */
struct ord {
	const struct tev *e;
	int seq;
	int nmi_entry;		/* a synthesised NMI entry (at ts - delta) */
	int64_t ts;
};

static int ord_cmp(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void __attribute__((format(printf, 2, 3)))
set_incomplete(struct attribution *a, const char *fmt, ...)
{
	va_list ap;

	memset(a->part_ns, 0, sizeof(a->part_ns));
	a->nitems = 0;
	a->culprit = -1;
	a->complete = 0;
	va_start(ap, fmt);
	vsnprintf(a->note, sizeof(a->note), fmt, ap);
	va_end(ap);
}

static void add(struct attribution *a, int part, const char *name, int64_t ns)
{
	int i;

	if (ns <= 0)
		return;
	a->part_ns[part] += ns;
	for (i = 0; i < a->nitems; i++)
		if (a->item[i].part == part && strcmp(a->item[i].name, name) == 0)
			break;
	if (i == a->nitems) {
		if (a->nitems == ATTR_ITEMS) {	/* the last slot gathers the rest */
			i = ATTR_ITEMS - 1;
			a->item[i].part = part;
			snprintf(a->item[i].name, sizeof(a->item[i].name), "others");
		} else {
			a->nitems++;
			a->item[i].part = part;
			snprintf(a->item[i].name, sizeof(a->item[i].name), "%s", name);
			a->item[i].ns = 0;
		}
	}
	a->item[i].ns += ns;
}

/* What the CPU is doing between events. */
struct cpu_state {
	struct frame {
		int part;
		char name[48];
		int kind;
		int brief;	/* a sleeper's wake-up: its next event comes at once */
	} stack[STACK_MAX];
	int depth;
	int known;		/* cur_* set */
	int cur_pid, cur_prio;
	char cur_comm[TEV_COMM];
	int64_t idle;		/* state or IDLE_UNNAMED; -1 running, -2 unknown */
	uint64_t our_timer;	/* its hrtimer, or 0 */
	int64_t last_tick;	/* the last tick's time, 0 none seen */
	int irqs_off;		/* preemptirq: interrupts off in the current task */
	int64_t irqs_on_at;	/* when they came on again (what was held comes then) */
};

/* What the walk needs beside the state: the query and the tick's period. */
struct walk {
	const struct spike_query *q;
	int64_t tick_ns;
};

/* Opens a handler; its entry, NULL past STACK_MAX (deeper than any kernel nests). */
static struct frame *push(struct cpu_state *s, int kind, int part, const char *prefix,
			  const char *name)
{
	struct frame *f;

	if (s->depth == STACK_MAX)
		return NULL;
	f = &s->stack[s->depth];
	f->kind = kind;
	f->part = part;
	f->brief = 0;
	snprintf(f->name, sizeof(f->name), "%s%s", prefix, name);
	s->depth++;
	return f;
}

/* The innermost open handler of this kind ends (and any it left open). */
static void pop(struct cpu_state *s, int kind)
{
	for (int i = s->depth - 1; i >= 0; i--)
		if (s->stack[i].kind == kind) {
			s->depth = i;
			return;
		}
	/* its entry came before the trace: nothing to close */
}

/* "sh:2751 current", "in local_timer vector", "CPU idle": what s was doing. */
static void current_name(const struct cpu_state *s, char *buf, size_t len)
{
	if (s->depth > 0)
		snprintf(buf, len, "in %s", s->stack[s->depth - 1].name);
	else if (!s->known)
		snprintf(buf, len, "nothing known current");
	else if (s->cur_pid == 0)
		snprintf(buf, len, "CPU idle");
	else
		snprintf(buf, len, "%.15s:%d current", s->cur_comm, s->cur_pid);
}

static void label_plain(struct attribution *a, const struct cpu_state *s,
			const struct spike_query *q, int64_t from, int64_t to)
{
	char name[64];

	if (from < q->intended)
		from = q->intended;
	if (to > q->woke)
		to = q->woke;
	if (to <= from)
		return;
	if (s->depth == 0 && s->irqs_off && s->known && s->cur_pid != 0 &&
	    s->cur_pid != q->tid && from < a->switch_in) {
		/* preemptirq events say the task had interrupts off: its time */
		snprintf(name, sizeof(name), "%.15s:%d (interrupts off)", s->cur_comm, s->cur_pid);
		add(a, PART_BLOCKING, name, to - from);
		return;
	}
	if (s->depth > 0) {
		add(a, s->stack[s->depth - 1].part, s->stack[s->depth - 1].name,
		    to - from);
		return;
	}
	if (from < a->expiry) {
		const char *state = s->idle >= 0 && s->idle != IDLE_UNNAMED &&
			q->idle_name ? q->idle_name(q->idle_arg, (int)s->idle) : NULL;

		if (s->idle == IDLE_UNNAMED)
			snprintf(name, sizeof(name), "idle exit");
		else if (state && strcmp(state, "POLL") == 0)	/* spinning: nothing to exit */
			snprintf(name, sizeof(name), "late interrupt while idle polling (state %lld POLL)",
				 (long long)s->idle);
		else if (s->idle >= 0)
			snprintf(name, sizeof(name), "idle exit (state %lld%s%s)",
				 (long long)s->idle, state ? " " : "",
				 state ? state : "");
		else if (s->known && s->cur_pid != 0)
			snprintf(name, sizeof(name), "late interrupt while %.15s:%d ran",
				 s->cur_comm, s->cur_pid);
		else if (s->known)	/* the idle task current, its state not traced (lean, no cpu_idle) */
			snprintf(name, sizeof(name), "late interrupt while idle");
		else
			snprintf(name, sizeof(name), "late interrupt");
		add(a, PART_TIMER, name, to - from);
		return;
	}
	/* switched in: its own time, unless it was switched out again before its clock read */
	if (from >= a->switch_in && (!s->known || s->cur_pid == q->tid)) {
		add(a, PART_RETURN, "the measured thread", to - from);
		return;
	}
	if (!s->known || s->cur_pid == q->tid) {
		add(a, PART_UNEXPLAINED, "no event", to - from);
	} else if (s->cur_pid == 0) {
		add(a, PART_UNEXPLAINED, "CPU idle while the thread was runnable", to - from);
	} else if (s->cur_prio >= 0 && s->cur_prio < 100 && s->cur_prio <= q->prio) {
		/* at the thread's own priority too: FIFO does not preempt an equal */
		snprintf(name, sizeof(name), "%.15s:%d (SCHED_FIFO %d%s)", s->cur_comm,
			 s->cur_pid, 99 - s->cur_prio,
			 s->cur_prio == q->prio ? " equal: FIFO does not preempt" : "");
		add(a, PART_RT, name, to - from);
	} else {
		snprintf(name, sizeof(name), "%.15s:%d", s->cur_comm, s->cur_pid);
		add(a, PART_BLOCKING, name, to - from);
	}
}

/*
 * When the next event was due after `from` (INT64_MAX: none was): the
 * next tick while a task runs, before the expiry the thread's own timer,
 * and inside a sleeper's wake-up callback (hrtimer_wakeup: it wakes its
 * task, sched_waking, and returns) the next event at once; each
 * ATTR_GAP_SLACK_NS late at most (attrib.h).
 */
static int64_t due_by(const struct attribution *a, const struct cpu_state *s,
		      const struct walk *w, int64_t from)
{
	const struct spike_query *q = w->q;
	/* in a handler the CPU is out of idle, whatever it was before */
	int idle = s->depth == 0 && (s->idle >= 0 || (s->known && s->cur_pid == 0));
	int64_t due = INT64_MAX;

	if (q->counted_clock && !idle)	/* it runs: its time is what it executes */
		return INT64_MAX;
	if (!idle && s->known) {	/* a task runs: its tick comes */
		int64_t tick = s->last_tick && s->last_tick + w->tick_ns >= from ?
			s->last_tick + w->tick_ns : from + w->tick_ns;

		due = tick + ATTR_GAP_SLACK_NS;
	}
	if (from < a->expiry) {	/* the thread's timer is due at intended */
		int64_t exit_ns = 0;

		if (idle) {	/* its state's exit; unknown state: the deepest's */
			int st = s->idle >= 0 && s->idle != IDLE_UNNAMED ? (int)s->idle : -1;

			exit_ns = q->idle_exit_ns ? q->idle_exit_ns(q->idle_arg, st) : -1;
			if (exit_ns < 0)
				exit_ns = q->default_idle ? ATTR_DEFAULT_IDLE_EXIT_NS :
							    ATTR_IDLE_EXIT_MAX_NS;
		}
		int64_t at = q->intended > s->irqs_on_at ? q->intended : s->irqs_on_at;

		if (exit_ns >= 0 && at + exit_ns + ATTR_GAP_SLACK_NS < due)
			due = at + exit_ns + ATTR_GAP_SLACK_NS;
	}
	if (s->depth > 0 && s->stack[s->depth - 1].brief && from + ATTR_GAP_SLACK_NS < due)
		due = from + ATTR_GAP_SLACK_NS;
	return due;
}

/*
 * [from, to) with no event between: what was due and did not come is a
 * gap, unexplained whatever task was current (the hypervisor, an SMI,
 * interrupts off where no event shows it); the rest as its state says.
 */
static void label_segment(struct attribution *a, const struct cpu_state *s,
			  const struct walk *w, int64_t from, int64_t to)
{
	int64_t due = s->irqs_off ? INT64_MAX : due_by(a, s, w, from);
	int64_t lo = due > w->q->intended ? due : w->q->intended;

	if (lo < from)
		lo = from;
	int64_t hi = to < w->q->woke ? to : w->q->woke;

	if (due >= to || hi <= lo) {
		label_plain(a, s, w->q, from, to);
		return;
	}
	char name[112], cur[64];

	label_plain(a, s, w->q, from, lo);
	current_name(s, cur, sizeof(cur));
	snprintf(name, sizeof(name), "no event for %lld us (%s)",
		 (long long)((to - from) / 1000), cur);
	add(a, PART_UNEXPLAINED, name, hi - lo);
	a->ngaps++;
	if (to - from > a->gap_ns) {
		a->gap_from = from;
		a->gap_ns = to - from;
	}
}

/* Is e the tick: the periodic hrtimer's callback? */
static int is_tick(const struct tev *e)
{
	return e->kind == TEV_HRT_ENTRY && strncmp(e->name, "tick_", 5) == 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The tick's period: the median spacing of the ticks of this CPU in the
 * trace (at least 100 us: two callbacks of one interrupt are one), else
 * ATTR_TICK_NS. Not the shortest: a tick restarted after idle (nohz)
 * comes at another phase, and one short spacing would make every later
 * tick look late.
 */
static int64_t tick_period(const struct ord *o, int no)
{
	int64_t last = 0, *gap = malloc(((size_t)no + 1) * sizeof(*gap)), period = ATTR_TICK_NS;
	int n = 0;

	if (!gap)
		return period;
	for (int i = 0; i < no; i++) {
		if (o[i].nmi_entry || !is_tick(o[i].e))
			continue;
		if (last && o[i].ts - last >= 100000)
			gap[n++] = o[i].ts - last;
		last = o[i].ts;
	}
	if (n > 0) {
		qsort(gap, (size_t)n, sizeof(*gap), cmp_i64);
		period = gap[n / 2];
	}
	free(gap);
	return period;
}

/*
 * A task's kernel priority and name as of time ts: from the last switch
 * or wake-up event naming it at or before ts, else the first after. The
 * name an event carries is the task's at that moment, where the pid's
 * name in the trace's cmdline cache may be older (a child recorded
 * between fork and exec keeps its parent's), and a pid reused later in
 * the buffer is another task. Priority -1, and comm left as it is, when
 * no such event names the task.
 */
static int task_of(const struct ord *o, int no, int pid, int64_t ts, char *comm,
		   size_t size)
{
	int prio = -1, before = 0;
	const char *name = NULL;

	for (int i = 0; i < no; i++) {
		const struct tev *e = o[i].e;
		const char *n;
		int p;

		if (e->kind == TEV_SWITCH && e->prev_pid == pid) {
			n = e->prev_comm;
			p = e->prev_prio;
		} else if ((e->kind == TEV_SWITCH || e->kind == TEV_WAKING) &&
			   e->next_pid == pid) {
			n = e->next_comm;
			p = e->next_prio;
		} else {
			continue;
		}
		if (o[i].ts <= ts) {	/* the latest at or before ts wins */
			prio = p;
			before = 1;
			if (n[0])
				name = n;
		} else {		/* after it: only what is still missing */
			if (!before && prio < 0)
				prio = p;
			if (!name && n[0])
				name = n;
			if (prio >= 0 && name)
				break;
		}
	}
	if (name)
		snprintf(comm, size, "%s", name);
	return prio;
}

/*
 * Every event names the task current on its CPU (interrupts run on top of
 * it): the running task is known even where no switch to it was traced
 * (some kernels trace no switch out of the idle task). An event of the
 * flight recorder's before its ring's first switch names none (pid -1).
 */
static void current_from(struct cpu_state *s, const struct tev *e,
			 const struct ord *o, int no)
{
	if (e->kind == TEV_SWITCH || e->kind == TEV_LOST || e->pid < 0 ||
	    (s->known && s->cur_pid == e->pid))
		return;
	s->known = 1;
	s->cur_pid = e->pid;
	snprintf(s->cur_comm, sizeof(s->cur_comm), "%s", e->comm[0] ? e->comm : "?");
	s->cur_prio = e->pid == 0 ? 120 :
		task_of(o, no, e->pid, e->ts, s->cur_comm, sizeof(s->cur_comm));
}

/*
 * Some kernels trace no switch out of the idle task: an idle CPU whose next
 * event (outside any handler) is a task's ran that task since the last
 * event — it was switched in as the interrupt that woke it ended.
 */
static void untraced_wake(struct cpu_state *s, const struct ord *next,
			  const struct ord *all, int no)
{
	const struct tev *e = next->e;
	int pid = e->kind == TEV_SWITCH ? e->prev_pid : e->pid;

	if (!s->known || s->cur_pid != 0 || s->depth > 0 || pid == 0 ||
	    next->nmi_entry || e->kind == TEV_LOST)
		return;
	s->cur_pid = pid;
	snprintf(s->cur_comm, sizeof(s->cur_comm), "%s",
		 e->kind == TEV_SWITCH ? e->prev_comm : e->comm[0] ? e->comm : "?");
	s->cur_prio = task_of(all, no, pid, e->ts, s->cur_comm, sizeof(s->cur_comm));
}

static void apply(struct cpu_state *s, const struct ord *o, const struct ord *all,
		  int no)
{
	const struct tev *e = o->e;

	current_from(s, e, all, no);
	if (o->nmi_entry) {
		push(s, TEV_NMI, PART_NMI, "", "nmi");
		return;
	}
	if (is_tick(e))
		s->last_tick = o->ts;
	switch (e->kind) {
	case TEV_IRQS_OFF:
		s->irqs_off = 1;
		break;
	case TEV_IRQS_ON:
		s->irqs_off = 0;
		s->irqs_on_at = o->ts;
		break;
	case TEV_SWITCH:
		s->irqs_off = 0;	/* a switch has them on again on the other side */
		s->known = 1;
		s->cur_pid = e->next_pid;
		s->cur_prio = e->next_prio;
		snprintf(s->cur_comm, sizeof(s->cur_comm), "%s", e->next_comm);
		break;
	case TEV_IRQ_ENTRY:
		push(s, TEV_IRQ_ENTRY, PART_IRQ, "", e->name);
		break;
	case TEV_IRQ_EXIT:
		pop(s, TEV_IRQ_ENTRY);
		break;
	case TEV_VECTOR_ENTRY:
		push(s, TEV_VECTOR_ENTRY, PART_IRQ, "", e->name);
		break;
	case TEV_VECTOR_EXIT:
		pop(s, TEV_VECTOR_ENTRY);
		break;
	case TEV_SOFTIRQ_ENTRY:
		push(s, TEV_SOFTIRQ_ENTRY, PART_SOFTIRQ, "", e->name);
		break;
	case TEV_SOFTIRQ_EXIT:
		pop(s, TEV_SOFTIRQ_ENTRY);
		break;
	case TEV_NMI:
		pop(s, TEV_NMI);
		break;
	case TEV_HRT_ENTRY: {
		/* the thread's own timer callback is the timer's; others are interrupt work */
		int ours = e->ptr == s->our_timer && s->our_timer;
		struct frame *f = ours ? push(s, TEV_HRT_ENTRY, PART_TIMER, "", "timer callback") :
					 push(s, TEV_HRT_ENTRY, PART_IRQ, "hrtimer ", e->name);

		/* the thread's own (clock_nanosleep's) and any other sleeper's */
		if (f)
			f->brief = ours || strcmp(e->name, "hrtimer_wakeup") == 0;
		break;
	}
	case TEV_HRT_EXIT:
		pop(s, TEV_HRT_ENTRY);
		break;
	case TEV_IDLE:
		s->idle = e->value < 0 || e->value == 4294967295LL ? -1 : e->value;
		break;
	default:
		break;
	}
}

static int64_t find_expiry(const struct tev *evs, int n, const struct spike_query *q,
			   uint64_t *timer, const char **how)
{
	int64_t slept = INT64_MIN, armed = INT64_MIN;

	*timer = 0;
	for (int i = 0; i < n; i++) {
		const struct tev *e = &evs[i];

		if (e->ts > q->intended)
			continue;
		if (e->kind == TEV_SWITCH && e->prev_pid == q->tid && e->ts > slept)
			slept = e->ts;
		if (e->kind == TEV_HRT_START && e->pid == q->tid && e->ts > armed) {
			armed = e->ts;
			*timer = e->ptr;
		}
	}
	int64_t from = armed > INT64_MIN ? armed : slept;
	int64_t best = INT64_MAX;

	*how = "hrtimer_expire_entry";
	for (int i = 0; *timer && i < n; i++)
		if (evs[i].kind == TEV_HRT_ENTRY && evs[i].ptr == *timer &&
		    evs[i].ts >= from && evs[i].ts < best)
			best = evs[i].ts;
	if (best != INT64_MAX)
		return best;
	*how = "sched_waking (no expiry of the thread's hrtimer in the trace)";
	if (from == INT64_MIN)
		from = q->intended;
	for (int i = 0; i < n; i++)
		if (evs[i].kind == TEV_WAKING && evs[i].next_pid == q->tid &&
		    evs[i].ts >= from && evs[i].ts < best)
			best = evs[i].ts;
	return best == INT64_MAX ? 0 : best;
}

const char *os_kind_name(int kind)
{
	static const char *const names[OS_KINDS] = { "irq", "softirq", "thread", "nmi" };

	return kind >= 0 && kind < OS_KINDS ? names[kind] : "?";
}

/*
 * The kernel's own account of the wait, from osnoise's events: each is
 * written as its noise ends, `value` ns long. Its start field is in the
 * tracer's local clock, not the instance's, so the interval is taken
 * back from the event's own time.
 */
static void osnoise_account(const struct ord *o, int no, const struct spike_query *q,
			    struct attribution *a)
{
	int64_t from = a->expiry ? a->expiry : q->intended;
	int64_t to = a->switch_in ? a->switch_in : q->woke;
	int64_t top = 0;

	for (int i = 0; i < no; i++) {
		const struct tev *e = o[i].e;

		if (e->kind != TEV_OSNOISE || e->os < 0 || e->os >= OS_KINDS)
			continue;
		a->os_seen = 1;
		int64_t lo = e->ts - e->value > from ? e->ts - e->value : from;
		int64_t hi = e->ts < to ? e->ts : to;

		if (hi <= lo)
			continue;
		a->os_ns[e->os] += hi - lo;
		if (hi - lo > top) {
			top = hi - lo;
			snprintf(a->os_top, sizeof(a->os_top), "%s %.32s (%lld ns)",
				 os_kind_name(e->os), e->name, (long long)top);
		}
	}
}

/*
 * The thread's switch-in after the expiry into a->switch_in (0: none);
 * where no switch was traced (out of idle, on some kernels), its own
 * first event bounds it, and the words that say so are returned.
 */
static const char *find_switch_in(const struct ord *o, int first, int no,
				  const struct spike_query *q, struct attribution *a)
{
	for (int i = first; i < no && !a->switch_in; i++)
		if (o[i].e->kind == TEV_SWITCH && o[i].e->next_pid == q->tid &&
		    o[i].ts >= a->expiry)
			a->switch_in = o[i].ts;
	for (int i = first; i < no && !a->switch_in; i++)
		if (o[i].e->pid == q->tid && o[i].e->kind != TEV_LOST &&
		    !o[i].nmi_entry && o[i].ts >= a->expiry) {
			a->switch_in = o[i].ts;
			return "; switch-in from the thread's first event (no switch traced)";
		}
	return "";
}

/*
 * A switch out of a task other than the one the walk had running (not
 * idle: some kernels trace no switch out of it, untraced_wake): a switch
 * between them was not traced, and the flight recorder, which names each
 * event's task from the switches, has named the stretch before it wrongly.
 */
static int switch_missing(const struct cpu_state *s, const struct tev *e)
{
	return e->kind == TEV_SWITCH && s->known && s->cur_pid > 0 && e->prev_pid != s->cur_pid;
}

/* What the CPU was doing before the window's first event: its first switch's prev, or idle. */
static void state_before(const struct ord *o, int first, int no, struct cpu_state *s)
{
	for (int i = first; i < no; i++)
		if (o[i].e->kind == TEV_SWITCH) {
			s->known = 1;
			s->cur_pid = o[i].e->prev_pid;
			s->cur_prio = o[i].e->prev_prio;
			snprintf(s->cur_comm, sizeof(s->cur_comm), "%s", o[i].e->prev_comm);
			break;
		}
	for (int i = first; i < no; i++)	/* an idle exit first: it was idle */
		if (o[i].e->kind == TEV_IDLE) {
			if (o[i].e->value < 0 || o[i].e->value == 4294967295LL)
				s->idle = IDLE_UNNAMED;
			break;
		}
}

int attrib_explain(struct tev *evs, int n, const struct spike_query *q,
		   struct attribution *a)
{
	memset(a, 0, sizeof(*a));
	a->culprit = -1;
	if (q->woke < q->intended || n < 0)
		return -EINVAL;

	const char *how = "";
	uint64_t timer;
	struct ord *o = calloc((size_t)n * 2 + 1, sizeof(*o));
	int no = 0;

	if (!o)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (evs[i].cpu != q->cpu)
			continue;
		o[no++] = (struct ord){ &evs[i], 2 * i + 1, 0, evs[i].ts };
		if (evs[i].kind == TEV_NMI)	/* its handler began delta earlier */
			o[no++] = (struct ord){ &evs[i], 2 * i, 1,
						evs[i].ts - evs[i].value };
	}
	qsort(o, (size_t)no, sizeof(*o), ord_cmp);

	/* the walk starts after the last loss before the window */
	int first = 0;
	for (int i = 0; i < no; i++) {
		if (o[i].e->kind != TEV_LOST || o[i].nmi_entry)
			continue;
		if (o[i].ts > q->intended && o[i].ts <= q->woke) {
			set_incomplete(a, "events were lost inside the window (at +%lld ns): the buffer overflowed",
				       (long long)(o[i].ts - q->intended));
			goto out;
		}
		if (o[i].ts <= q->intended)
			first = i + 1;
	}
	if (first >= no || o[first].ts > q->intended) {
		set_incomplete(a, "the trace of this CPU begins %lld ns after the intended wake-up: the buffer was too small or wrapped",
			       first < no ? (long long)(o[first].ts - q->intended) : -1LL);
		goto out;
	}

	a->expiry = find_expiry(evs, n, q, &timer, &how);
	if (!a->expiry) {
		set_incomplete(a, "no expiry or wake-up of the thread in the trace");
		goto out;
	}
	if (a->expiry < q->intended)
		a->expiry = q->intended;
	const char *switched = find_switch_in(o, first, no, q, a);

	if (!a->switch_in) {
		set_incomplete(a, "no switch to the thread on CPU %d after its wake-up",
			       q->cpu);
		goto out;
	}
	if (a->switch_in > q->woke)	/* two reads of the same clock, a few ns apart */
		a->switch_in = q->woke;

	struct cpu_state s = { .idle = -2, .our_timer = timer };
	struct walk w = { q, q->tick_ns > 0 ? q->tick_ns : tick_period(o + first, no - first) };

	state_before(o, first, no, &s);
	int64_t last = o[first].ts;

	for (int i = first; i < no && last < q->woke; i++) {
		untraced_wake(&s, &o[i], o, no);
		if (o[i].ts > q->intended && switch_missing(&s, o[i].e)) {
			set_incomplete(a, "a switch on CPU %d is missing from the trace: %s:%d ran by its events, but the switch at %+lld ns is out of %s:%d",
				       q->cpu, s.cur_comm, s.cur_pid, (long long)(o[i].ts - q->intended),
				       o[i].e->prev_comm, o[i].e->prev_pid);
			goto out;
		}
		label_segment(a, &s, &w, last, o[i].ts);
		apply(&s, &o[i], o, no);
		last = o[i].ts;
	}
	label_segment(a, &s, &w, last, q->woke);
	a->complete = 1;
	snprintf(a->note, sizeof(a->note), "expiry from %s%s", how, switched);
	if (a->ngaps) {
		size_t u = strlen(a->note);

		snprintf(a->note + u, sizeof(a->note) - u, "; %d gap%s (the longest %lld us at %+lld us)",
			 a->ngaps, a->ngaps == 1 ? "" : "s", (long long)(a->gap_ns / 1000),
			 (long long)((a->gap_from - q->intended) / 1000));
	}
	for (int i = 0; i < a->nitems; i++)
		if (a->culprit < 0 || a->item[i].ns > a->item[a->culprit].ns)
			a->culprit = i;
out:
	osnoise_account(o, no, q, a);
	free(o);
	return 0;
}
