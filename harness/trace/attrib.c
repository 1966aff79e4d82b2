#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "model.h"

#define STACK_MAX 16
#define IDLE_ANY INT32_MAX	/* idle, the state not in the trace */

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
	struct { int part; char name[48]; int kind; } stack[STACK_MAX];
	int depth;
	int known;		/* cur_* set */
	int cur_pid, cur_prio;
	char cur_comm[TEV_COMM];
	int64_t idle;		/* state or IDLE_ANY; -1 running, -2 unknown */
	uint64_t our_timer;	/* its hrtimer, or 0 */
};

static void push(struct cpu_state *s, int kind, int part, const char *prefix,
		 const char *name)
{
	if (s->depth == STACK_MAX)
		return;		/* deeper nesting than any kernel does */
	s->stack[s->depth].kind = kind;
	s->stack[s->depth].part = part;
	snprintf(s->stack[s->depth].name, sizeof(s->stack[0].name), "%s%s",
		 prefix, name);
	s->depth++;
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

static void label_segment(struct attribution *a, const struct cpu_state *s,
			  const struct spike_query *q, int64_t from, int64_t to)
{
	char name[64];

	if (from < q->intended)
		from = q->intended;
	if (to > q->woke)
		to = q->woke;
	if (to <= from)
		return;
	if (s->depth > 0) {
		add(a, s->stack[s->depth - 1].part, s->stack[s->depth - 1].name,
		    to - from);
		return;
	}
	if (from < a->expiry) {
		const char *state = s->idle >= 0 && s->idle != IDLE_ANY &&
			q->idle_name ? q->idle_name(q->idle_arg, (int)s->idle) : NULL;

		if (s->idle == IDLE_ANY)
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
		else
			snprintf(name, sizeof(name), "late interrupt");
		add(a, PART_TIMER, name, to - from);
		return;
	}
	if (from >= a->switch_in) {
		add(a, PART_RETURN, "the measured thread", to - from);
		return;
	}
	if (!s->known || s->cur_pid == q->tid) {
		add(a, PART_UNEXPLAINED, "no event", to - from);
	} else if (s->cur_pid == 0) {
		add(a, PART_UNEXPLAINED, "CPU idle, thread runnable", to - from);
	} else if (s->cur_prio >= 0 && s->cur_prio < 100 && s->cur_prio < q->prio) {
		snprintf(name, sizeof(name), "%.15s:%d (SCHED_FIFO %d)", s->cur_comm,
			 s->cur_pid, 99 - s->cur_prio);
		add(a, PART_RT, name, to - from);
	} else {
		snprintf(name, sizeof(name), "%.15s:%d", s->cur_comm, s->cur_pid);
		add(a, PART_BLOCKING, name, to - from);
	}
}

/*
 * A task's kernel priority and name from the first switch or wake-up
 * event that names it: the name an event itself carries is the task's at
 * that moment, where the pid's name in the trace's cmdline cache may be
 * older (a child recorded between fork and exec keeps its parent's name).
 * Priority -1, and comm left as it is, when no such event names the task.
 */
static int task_of(const struct ord *o, int no, int pid, char *comm,
		   size_t size)
{
	int prio = -1, named = 0;

	for (int i = 0; i < no && (prio < 0 || !named); i++) {
		const struct tev *e = o[i].e;
		const char *name = NULL;
		int p = -1;

		if (e->kind == TEV_SWITCH && e->prev_pid == pid) {
			name = e->prev_comm;
			p = e->prev_prio;
		} else if ((e->kind == TEV_SWITCH || e->kind == TEV_WAKING) &&
			   e->next_pid == pid) {
			name = e->next_comm;
			p = e->next_prio;
		} else {
			continue;
		}
		if (prio < 0)
			prio = p;
		if (!named && name[0]) {
			snprintf(comm, size, "%s", name);
			named = 1;
		}
	}
	return prio;
}

/*
 * Every event names the task current on its CPU (interrupts run on top of
 * it): the running task is known even where no switch to it was traced
 * (some kernels trace no switch out of the idle task).
 */
static void current_from(struct cpu_state *s, const struct tev *e,
			 const struct ord *o, int no)
{
	if (e->kind == TEV_SWITCH || e->kind == TEV_LOST || (s->known && s->cur_pid == e->pid))
		return;
	s->known = 1;
	s->cur_pid = e->pid;
	snprintf(s->cur_comm, sizeof(s->cur_comm), "%s", e->comm[0] ? e->comm : "?");
	s->cur_prio = e->pid == 0 ? 120 :
		task_of(o, no, e->pid, s->cur_comm, sizeof(s->cur_comm));
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
	s->cur_prio = task_of(all, no, pid, s->cur_comm, sizeof(s->cur_comm));
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
	switch (e->kind) {
	case TEV_SWITCH:
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
	case TEV_HRT_ENTRY:
		/* the thread's own timer callback is the timer's; others are interrupt work */
		if (e->ptr == s->our_timer && s->our_timer)
			push(s, TEV_HRT_ENTRY, PART_TIMER, "", "timer callback");
		else
			push(s, TEV_HRT_ENTRY, PART_IRQ, "hrtimer ", e->name);
		break;
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
	for (int i = first; i < no && !a->switch_in; i++)
		if (o[i].e->kind == TEV_SWITCH && o[i].e->next_pid == q->tid &&
		    o[i].ts >= a->expiry)
			a->switch_in = o[i].ts;
	/* no switch traced (out of idle, on some kernels): its own first event bounds it */
	const char *switched = "";
	for (int i = first; i < no && !a->switch_in; i++)
		if (o[i].e->pid == q->tid && o[i].e->kind != TEV_LOST &&
		    !o[i].nmi_entry && o[i].ts >= a->expiry) {
			a->switch_in = o[i].ts;
			switched = "; switch-in from the thread's first event (no switch traced)";
		}
	if (!a->switch_in) {
		set_incomplete(a, "no switch to the thread on CPU %d after its wake-up",
			       q->cpu);
		goto out;
	}
	if (a->switch_in > q->woke)	/* two reads of the same clock, a few ns apart */
		a->switch_in = q->woke;

	struct cpu_state s = { .idle = -2, .our_timer = timer };

	/* before its first switch, the CPU ran that switch's prev */
	for (int i = first; i < no; i++)
		if (o[i].e->kind == TEV_SWITCH) {
			s.known = 1;
			s.cur_pid = o[i].e->prev_pid;
			s.cur_prio = o[i].e->prev_prio;
			snprintf(s.cur_comm, sizeof(s.cur_comm), "%s", o[i].e->prev_comm);
			break;
		}
	for (int i = first; i < no; i++)	/* an idle exit first: it was idle */
		if (o[i].e->kind == TEV_IDLE) {
			if (o[i].e->value < 0 || o[i].e->value == 4294967295LL)
				s.idle = IDLE_ANY;
			break;
		}
	int64_t last = o[first].ts;

	for (int i = first; i < no && last < q->woke; i++) {
		untraced_wake(&s, &o[i], o, no);
		label_segment(a, &s, q, last, o[i].ts);
		apply(&s, &o[i], o, no);
		last = o[i].ts;
	}
	label_segment(a, &s, q, last, q->woke);
	a->complete = 1;
	snprintf(a->note, sizeof(a->note), "expiry from %s%s", how, switched);
	for (int i = 0; i < a->nitems; i++)
		if (a->culprit < 0 || a->item[i].ns > a->item[a->culprit].ns)
			a->culprit = i;
out:
	free(o);
	return 0;
}
