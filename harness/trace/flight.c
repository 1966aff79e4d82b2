/*
 * The flight recorder's user side (flight.h): its programs loaded and
 * attached, its rings mapped, a frozen ring's records made latlab's
 * events (struct tev) and trace-N.txt's lines, the names of what they
 * point at (kernel functions, IRQs) found once and kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "flight.h"
#include "tracer_parts.h"

const char *flight_vector_name(int v)
{
	static const char *const names[FV_KINDS] = {
		[FV_LOCAL_TIMER] = "local_timer", [FV_RESCHEDULE] = "reschedule",
		[FV_CALL_FUNCTION] = "call_function",
		[FV_CALL_FUNCTION_SINGLE] = "call_function_single", [FV_IRQ_WORK] = "irq_work",
	};

	return v >= 0 && v < FV_KINDS ? names[v] : "vector";
}

uint32_t flight_ring_events(int64_t buffer)
{
	uint32_t n = 1024;

	while (n < (1u << 20) && (int64_t)(2 * n) * (int64_t)sizeof(struct flight_rec) <= buffer)
		n *= 2;
	return n;
}

/* The names the capture's own records give its tasks: the last one each pid had. */
struct pid_name {
	int pid;
	char comm[TEV_COMM];
};

struct task_names {
	struct pid_name *p;
	int n, cap;
};

static void name_task(struct task_names *t, int pid, const char *comm)
{
	char clean[TEV_COMM];

	if (pid <= 0)
		return;
	snprintf(clean, sizeof(clean), "%.*s", FLIGHT_COMM - 1, comm);
	tr_clean(clean);
	for (int i = 0; i < t->n; i++)
		if (t->p[i].pid == pid) {
			memcpy(t->p[i].comm, clean, sizeof(clean));
			return;
		}
	struct pid_name *p = array_room(t->p, &t->cap, t->n + 1, 64, sizeof(*p));

	if (!p)
		return;	/* unnamed: "<...>", as tracefs says a task it has no name for */
	t->p = p;
	t->p[t->n].pid = pid;
	memcpy(t->p[t->n++].comm, clean, sizeof(clean));
}

static const char *task_name(const struct task_names *t, int pid)
{
	if (pid == 0)
		return "<idle>";
	for (int i = 0; i < t->n; i++)
		if (t->p[i].pid == pid)
			return t->p[i].comm;
	return "<...>";
}

static const char *fn_name(const struct flight_names *nm, uint64_t addr)
{
	const char *s = nm && nm->fn ? nm->fn(nm->arg, addr) : NULL;

	return s ? s : "callback";
}

/* r into v: its kind and what that kind carries (tracer_events.c's decode, for a record) */
static void decode(const struct flight_rec *r, const struct flight_names *nm, struct tev *v)
{
	const char *irq;

	switch (r->kind) {
	case FL_SWITCH:
		v->kind = TEV_SWITCH;
		v->prev_pid = r->prev_pid;
		v->prev_prio = r->prev_prio;
		v->next_pid = r->next_pid;
		v->next_prio = r->next_prio;
		snprintf(v->prev_comm, sizeof(v->prev_comm), "%.*s", FLIGHT_COMM - 1, r->prev_comm);
		snprintf(v->next_comm, sizeof(v->next_comm), "%.*s", FLIGHT_COMM - 1, r->next_comm);
		tr_clean(v->prev_comm);
		tr_clean(v->next_comm);
		break;
	case FL_WAKING:
		v->kind = TEV_WAKING;
		v->next_pid = r->next_pid;
		v->next_prio = r->next_prio;
		snprintf(v->next_comm, sizeof(v->next_comm), "%.*s", FLIGHT_COMM - 1, r->next_comm);
		tr_clean(v->next_comm);
		break;
	case FL_HRT_START:
	case FL_HRT_ENTRY:
		v->kind = r->kind == FL_HRT_START ? TEV_HRT_START : TEV_HRT_ENTRY;
		v->ptr = r->ptr;
		v->expires = r->kind == FL_HRT_START ? r->value : 0;
		snprintf(v->name, sizeof(v->name), "%s", fn_name(nm, r->fn));
		break;
	case FL_HRT_EXIT:
		v->kind = TEV_HRT_EXIT;
		v->ptr = r->ptr;
		break;
	case FL_IRQ_ENTRY:
		v->kind = TEV_IRQ_ENTRY;
		v->value = r->value;
		irq = nm && nm->irq ? nm->irq(nm->arg, (int)r->value) : NULL;
		snprintf(v->name, sizeof(v->name), "%.23s (irq %lld)", irq ? irq : "irq",
			 (long long)r->value);
		break;
	case FL_IRQ_EXIT:
		v->kind = TEV_IRQ_EXIT;
		break;
	case FL_SOFTIRQ_ENTRY:
	case FL_SOFTIRQ_EXIT:
		v->kind = r->kind == FL_SOFTIRQ_ENTRY ? TEV_SOFTIRQ_ENTRY : TEV_SOFTIRQ_EXIT;
		v->value = r->value;
		snprintf(v->name, sizeof(v->name), "%s", tr_softirq_name(r->value));
		break;
	case FL_NMI:
		v->kind = TEV_NMI;
		v->value = r->value;
		break;
	case FL_IDLE:
		v->kind = TEV_IDLE;
		v->value = r->value;
		break;
	case FL_VECTOR_ENTRY:
	case FL_VECTOR_EXIT:
		v->kind = r->kind == FL_VECTOR_ENTRY ? TEV_VECTOR_ENTRY : TEV_VECTOR_EXIT;
		snprintf(v->name, sizeof(v->name), "%s vector", flight_vector_name((int)r->value));
		break;
	case FL_LOCK_BEGIN:
	case FL_LOCK_END:	/* evidence the CPU ran, and a line to read; no part of their own */
		v->kind = TEV_OTHER;
		v->ptr = r->ptr;
		snprintf(v->name, sizeof(v->name), "lock contention");
		break;
	default:
		v->kind = TEV_OTHER;
	}
}

/* trace-N.txt's line for v (from r): tracefs's own format for these events, near enough to read alike */
static char *text_of(const struct flight_rec *r, const struct tev *v)
{
	char info[160], *out = NULL;
	const char *ev = "?";

	info[0] = 0;
	switch (r->kind) {
	case FL_SWITCH:
		ev = "sched_switch";
		snprintf(info, sizeof(info), "prev_comm=%s prev_pid=%d prev_prio=%d ==> next_comm=%s next_pid=%d next_prio=%d",
			 v->prev_comm, v->prev_pid, v->prev_prio, v->next_comm, v->next_pid, v->next_prio);
		break;
	case FL_WAKING:
		ev = "sched_waking";
		snprintf(info, sizeof(info), "comm=%s pid=%d prio=%d", v->next_comm, v->next_pid,
			 v->next_prio);
		break;
	case FL_HRT_START:
		ev = "hrtimer_start";
		snprintf(info, sizeof(info), "hrtimer=0x%" PRIx64 " function=%s expires=%lld",
			 v->ptr, v->name, (long long)v->expires);
		break;
	case FL_HRT_ENTRY:
		ev = "hrtimer_expire_entry";
		snprintf(info, sizeof(info), "hrtimer=0x%" PRIx64 " function=%s", v->ptr, v->name);
		break;
	case FL_HRT_EXIT:
		ev = "hrtimer_expire_exit";
		snprintf(info, sizeof(info), "hrtimer=0x%" PRIx64, v->ptr);
		break;
	case FL_IRQ_ENTRY:
		ev = "irq_handler_entry";
		snprintf(info, sizeof(info), "%s", v->name);
		break;
	case FL_IRQ_EXIT:
		ev = "irq_handler_exit";
		snprintf(info, sizeof(info), "irq=%lld", (long long)r->value);
		break;
	case FL_SOFTIRQ_ENTRY:
	case FL_SOFTIRQ_EXIT:
		ev = r->kind == FL_SOFTIRQ_ENTRY ? "softirq_entry" : "softirq_exit";
		snprintf(info, sizeof(info), "vec=%lld [action=%s]", (long long)r->value, v->name);
		break;
	case FL_NMI:
		ev = "nmi_handler";
		snprintf(info, sizeof(info), "delta_ns=%lld", (long long)r->value);
		break;
	case FL_IDLE:
		ev = "cpu_idle";
		snprintf(info, sizeof(info), "state=%lld", (long long)r->value);
		break;
	case FL_LOCK_BEGIN:
		ev = "contention_begin";
		snprintf(info, sizeof(info), "0x%llx (flags=0x%llx)", (unsigned long long)r->ptr,
			 (unsigned long long)r->value);
		break;
	case FL_LOCK_END:
		ev = "contention_end";
		snprintf(info, sizeof(info), "0x%llx (ret=%lld)", (unsigned long long)r->ptr,
			 (long long)r->value);
		break;
	case FL_VECTOR_ENTRY:
	case FL_VECTOR_EXIT:
		if (asprintf(&out, "%16s-%-7d %s_%s: vector=%llu", v->comm, v->pid,
			     flight_vector_name((int)r->value),
			     r->kind == FL_VECTOR_ENTRY ? "entry" : "exit",
			     (unsigned long long)r->ptr) < 0)
			return NULL;
		return out;
	}
	if (asprintf(&out, "%16s-%-7d %s: %s", v->comm, v->pid, ev, info) < 0)
		return NULL;
	return out;
}

int flight_decode(const struct flight_rec *ring, uint32_t mask, uint64_t head, int cpu,
		  const struct flight_names *names, struct collect *c)
{
	uint64_t keep = mask > 8 ? mask - 7 : 1, from;
	struct task_names tn = { NULL, 0, 0 };
	int rc = 0;
	int cur = -1;	/* the task current: before the ring's first switch, that switch's prev */

	if (keep > head)
		keep = head;
	from = head - keep;
	/* the names first: an event's task may be named only by a later switch */
	for (uint64_t i = from; i < head; i++) {
		const struct flight_rec *r = &ring[i & mask];

		if (r->kind == FL_SWITCH) {
			if (cur < 0)
				cur = r->prev_pid;
			name_task(&tn, r->prev_pid, r->prev_comm);
			name_task(&tn, r->next_pid, r->next_comm);
		} else if (r->kind == FL_WAKING) {
			name_task(&tn, r->next_pid, r->next_comm);
		}
	}
	for (uint64_t i = from; i < head; i++) {
		const struct flight_rec *r = &ring[i & mask];
		struct tev *v;

		if (r->kind == FL_NONE || r->kind >= FL_KINDS)
			continue;	/* a slot never written */
		if (tr_collect_room(c, 1) != 0) {
			rc = -ENOMEM;
			break;
		}
		v = &c->ev[c->n];
		memset(v, 0, sizeof(*v));
		v->ts = (int64_t)r->ts;
		v->cpu = cpu;
		v->pid = cur;
		snprintf(v->comm, sizeof(v->comm), "%s", task_name(&tn, cur));
		decode(r, names, v);
		if (r->kind == FL_SWITCH)
			cur = r->next_pid;
		c->text[c->n] = cpu == c->text_cpu ? text_of(r, v) : NULL;
		c->n++;
	}
	free(tn.p);
	return rc;
}

#ifdef HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/mman.h>

#include "flight.skel.h"
#include "watch_bpf.h"

/* a kernel function's name, found in /proc/kallsyms once */
struct kname {
	uint64_t addr;
	char name[48];
};

/* an IRQ's handlers, from /sys/kernel/irq/N/actions once */
struct iname {
	int irq;
	char name[24];
};

struct flight {
	struct flight_bpf *skel;
	int lean;
	const struct flight_rec *rings;	/* the ring map, mapped read-only */
	size_t map_len;
	uint32_t mask;
	int nrings;
	int cpu_of[CPU_SETSIZE];	/* ring -> CPU */
	struct kname *fn;
	int nfn, capfn;
	struct iname *irq;
	int nirq, capirq;
};

int flight_built(void)
{
	return 1;
}

int flight_check(char *why, size_t len)
{
	return watch_bpf_can("recording", why, len);
}

static const char *cached_fn(void *arg, uint64_t addr)
{
	struct flight *f = arg;

	for (int i = 0; i < f->nfn; i++)
		if (f->fn[i].addr == addr)
			return f->fn[i].name[0] ? f->fn[i].name : NULL;
	return NULL;
}

static const char *cached_irq(void *arg, int irq)
{
	struct flight *f = arg;
	char path[64], line[128];
	FILE *fp;

	for (int i = 0; i < f->nirq; i++)
		if (f->irq[i].irq == irq)
			return f->irq[i].name[0] ? f->irq[i].name : NULL;
	struct iname *p = array_room(f->irq, &f->capirq, f->nirq + 1, 16, sizeof(*p));

	if (!p)
		return NULL;
	f->irq = p;
	struct iname *in = &f->irq[f->nirq++];

	in->irq = irq;
	in->name[0] = 0;
	snprintf(path, sizeof(path), "/sys/kernel/irq/%d/actions", irq);
	fp = fopen(path, "r");
	if (fp) {
		if (fgets(line, sizeof(line), fp)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(in->name, sizeof(in->name), "%.23s", line);
			tr_clean(in->name);
		}
		fclose(fp);
	}
	return in->name[0] ? in->name : NULL;
}

/* name_callbacks' walk: the callbacks from `from` on, until each has its name */
struct unnamed {
	struct kname *fn;
	int from, n, left;
};

static int name_of(void *arg, unsigned long long a, char type, const char *name)
{
	struct unnamed *u = arg;

	(void)type;
	for (int k = u->from; k < u->n; k++)
		if (u->fn[k].addr == a && !u->fn[k].name[0]) {
			snprintf(u->fn[k].name, sizeof(u->fn[k].name), "%.47s", name);
			u->left--;
		}
	return u->left == 0;
}

/* The callbacks in the rings not yet named: named from one pass over /proc/kallsyms. */
static void name_callbacks(struct flight *f, const uint64_t *head)
{
	int before = f->nfn;

	for (int r = 0; r < f->nrings; r++)
		for (uint64_t i = head[r] > f->mask ? head[r] - f->mask : 0; i < head[r]; i++) {
			const struct flight_rec *e = &f->rings[(size_t)r * (f->mask + 1) + (i & f->mask)];
			int known = 0;

			if (e->kind != FL_HRT_START && e->kind != FL_HRT_ENTRY)
				continue;
			for (int k = 0; k < f->nfn && !known; k++)
				known = f->fn[k].addr == e->fn;
			if (known)
				continue;
			struct kname *p = array_room(f->fn, &f->capfn, f->nfn + 1, 32, sizeof(*p));

			if (!p)
				return;
			f->fn = p;
			f->fn[f->nfn].addr = e->fn;
			f->fn[f->nfn++].name[0] = 0;
		}
	if (f->nfn == before)
		return;
	struct unnamed u = { f->fn, before, f->nfn, f->nfn - before };

	watch_bpf_kallsyms(name_of, &u);
}

/* the tracefs system of a tracepoint the recorder attaches to, for `missing` */
static const char *system_of(const char *tp)
{
	if (!strncmp(tp, "sched_", 6))
		return "sched";
	if (!strncmp(tp, "hrtimer_", 8))
		return "timer";
	if (!strncmp(tp, "irq_handler_", 12) || !strncmp(tp, "softirq_", 8))
		return "irq";
	if (!strcmp(tp, "nmi_handler"))
		return "nmi";
	if (!strcmp(tp, "cpu_idle"))
		return "power";
	if (!strncmp(tp, "contention_", 11))
		return "lock";
	return "irq_vectors";
}

/*
 * Programs whose tracepoint this kernel lacks: not loaded, listed in
 * missing — but for the lock events (6.2 on), which the tracefs path does
 * not trace either: a 6.1 cell is not said to miss them.
 */
static int leave_out_missing(struct flight_bpf *skel, char *missing, size_t mlen)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *p;

	if (!vmlinux)
		return -errno ? -errno : -ENODEV;
	bpf_object__for_each_program(p, skel->obj) {
		const char *sec = bpf_program__section_name(p), *tp;
		char type[96];

		if (strncmp(sec, "tp_btf/", 7) != 0)
			continue;
		tp = sec + 7;
		snprintf(type, sizeof(type), "btf_trace_%s", tp);
		if (btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) >= 0)
			continue;
		bpf_program__set_autoload(p, false);
		if (!strcmp(system_of(tp), "lock"))
			continue;
		size_t used = strlen(missing);

		snprintf(missing + used, mlen - used, "%s%s:%s", used ? ", " : "", system_of(tp), tp);
	}
	btf__free(vmlinux);
	return 0;
}

static int refuse(struct flight *f, int rc, const char *what, char *err, size_t errlen)
{
	char tail[400];

	watch_bpf_log_tail(watch_bpf_log(), tail, sizeof(tail), 3);
	snprintf(err, errlen, "BPF: the flight recorder: %s: %s%s%s", what, strerror(-rc),
		 tail[0] ? ": " : "", tail);
	flight_close(f);
	return rc;
}

/*
 * recorder = lean: the three events of the seven an idle wake-up passes
 * that the rest make up for — local_timer's vector (its callbacks are
 * hrtimer_expire_entry/exit) and cpu_idle (the switch to the idle task
 * says idle; the state goes unnamed)
 */
static void leave_out_lean(struct flight_bpf *skel)
{
	bpf_program__set_autoload(skel->progs.ll_fl_local_timer_entry, false);
	bpf_program__set_autoload(skel->progs.ll_fl_local_timer_exit, false);
	bpf_program__set_autoload(skel->progs.ll_fl_idle, false);
}

int flight_open(struct flight **out, const cpu_set_t *cpus, int64_t buffer, int lean,
		char *missing, size_t mlen, char *err, size_t errlen)
{
	struct flight *f = calloc(1, sizeof(*f));
	int rc;

	*out = NULL;
	missing[0] = 0;
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE && cpu < FLIGHT_MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, cpus))
			f->cpu_of[f->nrings++] = cpu;
	if (!f->nrings) {
		free(f);
		snprintf(err, errlen, "BPF: the flight recorder: no CPU to record");
		return -EINVAL;
	}
	f->mask = flight_ring_events(buffer) - 1;
	watch_bpf_log_begin();
	f->skel = flight_bpf__open();
	if (!f->skel)
		return refuse(f, -errno, "its object", err, errlen);
	f->skel->rodata->ring_mask = f->mask;
	bpf_map__set_max_entries(f->skel->maps.ring, (uint32_t)f->nrings * (f->mask + 1));
	if ((rc = leave_out_missing(f->skel, missing, mlen)) != 0)
		return refuse(f, rc, "the kernel's BTF", err, errlen);
	f->lean = lean;
	if (lean)
		leave_out_lean(f->skel);
	if ((rc = flight_bpf__load(f->skel)) != 0)
		return refuse(f, rc, "the kernel refused its programs", err, errlen);
	f->map_len = (size_t)f->nrings * (f->mask + 1) * sizeof(struct flight_rec);
	f->map_len = (f->map_len + (size_t)getpagesize() - 1) & ~((size_t)getpagesize() - 1);
	void *map = mmap(NULL, f->map_len, PROT_READ, MAP_SHARED, bpf_map__fd(f->skel->maps.ring), 0);

	if (map == MAP_FAILED) {
		f->map_len = 0;
		return refuse(f, -errno, "mapping its rings", err, errlen);
	}
	f->rings = map;
	for (int r = 0; r < f->nrings; r++)
		f->skel->bss->ring1[f->cpu_of[r]] = (__u16)(r + 1);
	if ((rc = flight_bpf__attach(f->skel)) != 0)
		return refuse(f, rc, "attaching", err, errlen);
	*out = f;
	return 0;
}

int *flight_freeze(struct flight *f)
{
	return &f->skel->bss->frozen;
}

int flight_lean(const struct flight *f)
{
	return f->lean;
}

int flight_collect(struct flight *f, struct collect *c)
{
	uint64_t head[CPU_SETSIZE];
	struct flight_names nm = { cached_fn, cached_irq, f };
	int rc = 0;

	/*
	 * a program that passed the frozen check just before the store may
	 * still be filling its slot: 1 ms is a thousand times its length
	 */
	usleep(1000);
	for (int r = 0; r < f->nrings; r++)
		head[r] = __atomic_load_n(&f->skel->bss->heads[r].n, __ATOMIC_ACQUIRE);
	name_callbacks(f, head);
	for (int r = 0; r < f->nrings && !rc; r++)
		rc = flight_decode(f->rings + (size_t)r * (f->mask + 1), f->mask, head[r],
				   f->cpu_of[r], &nm, c);
	return rc;
}

void flight_rearm(struct flight *f)
{
	for (int r = 0; r < f->nrings; r++)
		__atomic_store_n(&f->skel->bss->heads[r].n, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&f->skel->bss->frozen, 0, __ATOMIC_RELEASE);
}

void flight_close(struct flight *f)
{
	if (!f)
		return;
	if (f->rings)
		munmap((void *)f->rings, f->map_len);
	flight_bpf__destroy(f->skel);
	free(f->fn);
	free(f->irq);
	free(f);
}

#else	/* latlab built without BPF */

struct flight {
	int unused;
};

int flight_built(void)
{
	return 0;
}

int flight_check(char *why, size_t len)
{
	snprintf(why, len, "this latlab was built without BPF (make deps: clang, bpftool, libbpf-dev; a native build on a kernel with BTF)");
	return -ENODEV;
}

int flight_open(struct flight **out, const cpu_set_t *cpus, int64_t buffer, int lean,
		char *missing, size_t mlen, char *err, size_t errlen)
{
	(void)cpus, (void)buffer, (void)lean;
	*out = NULL;
	if (mlen)
		missing[0] = 0;
	return flight_check(err, errlen);
}

int *flight_freeze(struct flight *f)
{
	(void)f;
	return NULL;
}

int flight_lean(const struct flight *f)
{
	(void)f;
	return 0;
}

int flight_collect(struct flight *f, struct collect *c)
{
	(void)f, (void)c;
	return -ENOSYS;
}

void flight_rearm(struct flight *f)
{
	(void)f;
}

void flight_close(struct flight *f)
{
	free(f);
}

#endif
