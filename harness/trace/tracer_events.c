/*
 * A capture's records made latlab's events (struct tev, attrib.h): the
 * sched, irq, timer, power and osnoise records of each CPU decoded, each
 * one's text for trace-N.txt kept, and the idle states' names and exit
 * latencies (tracer_parts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "tracer_parts.h"

/*
 * With [trace] timerlat = on: the kernel's own account of the noise on
 * the CPUs (written while its timerlat tracer runs, in latlab's other
 * instance); enabled where they exist, never counted as missing (a kernel
 * without them has no timerlat either, and the cell says so).
 */
const char *const tr_osnoise_events[OS_KINDS] = {
	[OS_IRQ] = "irq_noise", [OS_SOFTIRQ] = "softirq_noise",
	[OS_THREAD] = "thread_noise", [OS_NMI] = "nmi_noise",
};

/* A task name from the trace, made one printable line (it goes into INI values). */
void tr_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int64_t field(struct tep_event *e, struct tep_record *r, const char *name)
{
	unsigned long long v = 0;

	if (tep_get_field_val(NULL, e, name, r, &v, 0) != 0)
		return 0;
	return (int64_t)v;
}

static void field_str(struct tep_event *e, struct tep_record *r, const char *name,
		      char *out, size_t len)
{
	int n = 0;
	const char *p = tep_get_field_raw(NULL, e, name, r, &n, 0);

	if (!p || n <= 0) {
		snprintf(out, len, "?");
		return;
	}
	snprintf(out, len, "%.*s", n, p);
	tr_clean(out);
}

const char *tr_softirq_name(int64_t vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec >= 0 && vec < 10 ? names[vec] : "softirq";
}

/* An osnoise event into *v: its kind, length and source; others left as they are. */
static void osnoise_event(struct tep_event *e, struct tep_record *r, struct tev *v)
{
	char comm[TEV_COMM];
	int k = 0;

	while (k < OS_KINDS && strcmp(e->name, tr_osnoise_events[k]) != 0)
		k++;
	if (k == OS_KINDS)
		return;
	v->kind = TEV_OSNOISE;
	v->os = k;
	v->value = field(e, r, "duration");
	switch (k) {
	case OS_THREAD:
		field_str(e, r, "comm", comm, sizeof(comm));
		snprintf(v->name, sizeof(v->name), "%s:%lld", comm, (long long)field(e, r, "pid"));
		break;
	case OS_IRQ:
		field_str(e, r, "desc", v->name, sizeof(v->name));
		break;
	case OS_SOFTIRQ:
		snprintf(v->name, sizeof(v->name), "%s", tr_softirq_name(field(e, r, "vector")));
		break;
	default:
		snprintf(v->name, sizeof(v->name), "nmi");
	}
}

/* Record r of event e into v: its kind and what that kind carries. */
static void decode(const struct tracer *t, struct tep_handle *tep, struct tep_event *e,
		   struct tep_record *r, struct tev *v)
{
	if (e->id == t->id_switch) {
		v->kind = TEV_SWITCH;
		v->prev_pid = (int)field(e, r, "prev_pid");
		v->prev_prio = (int)field(e, r, "prev_prio");
		v->next_pid = (int)field(e, r, "next_pid");
		v->next_prio = (int)field(e, r, "next_prio");
		field_str(e, r, "prev_comm", v->prev_comm, sizeof(v->prev_comm));
		field_str(e, r, "next_comm", v->next_comm, sizeof(v->next_comm));
	} else if (e->id == t->id_waking) {
		v->kind = TEV_WAKING;
		v->next_pid = (int)field(e, r, "pid");
		v->next_prio = (int)field(e, r, "prio");
		field_str(e, r, "comm", v->next_comm, sizeof(v->next_comm));
	} else if (e->id == t->id_hstart || e->id == t->id_hentry || e->id == t->id_hexit) {
		v->kind = e->id == t->id_hstart ? TEV_HRT_START :
			  e->id == t->id_hentry ? TEV_HRT_ENTRY : TEV_HRT_EXIT;
		v->ptr = (uint64_t)field(e, r, "hrtimer");
		if (v->kind == TEV_HRT_START)
			v->expires = field(e, r, "expires");
		if (v->kind != TEV_HRT_EXIT) {
			const char *fn = tep_find_function(tep,
				(unsigned long long)field(e, r, "function"));

			snprintf(v->name, sizeof(v->name), "%s", fn ? fn : "callback");
		}
	} else if (e->id == t->id_irq) {
		v->kind = TEV_IRQ_ENTRY;
		v->value = field(e, r, "irq");
		char nm[24];
		field_str(e, r, "name", nm, sizeof(nm));
		snprintf(v->name, sizeof(v->name), "%.23s (irq %lld)", nm, (long long)v->value);
	} else if (e->id == t->id_irqx) {
		v->kind = TEV_IRQ_EXIT;
	} else if (e->id == t->id_soft || e->id == t->id_softx) {
		v->kind = e->id == t->id_soft ? TEV_SOFTIRQ_ENTRY : TEV_SOFTIRQ_EXIT;
		v->value = field(e, r, "vec");
		snprintf(v->name, sizeof(v->name), "%s", tr_softirq_name(v->value));
	} else if (e->id == t->id_nmi) {
		v->kind = TEV_NMI;
		v->value = field(e, r, "delta_ns");
	} else if (e->id == t->id_idle) {
		v->kind = TEV_IDLE;
		v->value = (int64_t)(uint32_t)field(e, r, "state");
		if (v->value == 4294967295LL)
			v->value = -1;
	} else if (e->id == t->id_print) {
		v->kind = TEV_MARKER;
	} else if (strcmp(e->system, "preemptirq") == 0) {
		/* where [trace] events asks for them: interrupts off in a task */
		if (strcmp(e->name, "irq_disable") == 0)
			v->kind = TEV_IRQS_OFF;
		else if (strcmp(e->name, "irq_enable") == 0)
			v->kind = TEV_IRQS_ON;
	} else if (strcmp(e->system, "osnoise") == 0) {
		osnoise_event(e, r, v);
	} else if (strcmp(e->system, "irq_vectors") == 0) {
		size_t l = strlen(e->name);
		int entry = l > 6 && strcmp(e->name + l - 6, "_entry") == 0;
		int exit_ = l > 5 && strcmp(e->name + l - 5, "_exit") == 0;

		if (entry || exit_) {
			v->kind = entry ? TEV_VECTOR_ENTRY : TEV_VECTOR_EXIT;
			snprintf(v->name, sizeof(v->name), "%.*s vector",
				 (int)(l - (entry ? 6 : 5)), e->name);
		}
	}
}

int tr_collect_room(struct collect *c, int more)
{
	if (c->n + more <= c->cap)
		return 0;
	int cap = c->cap ? 2 * c->cap : 4096;
	struct tev *ev = realloc(c->ev, (size_t)cap * sizeof(*ev));
	char **text = realloc(c->text, (size_t)cap * sizeof(*text));

	if (ev)
		c->ev = ev;
	if (text)
		c->text = text;
	if (!ev || !text) {
		c->oom = 1;
		return -ENOMEM;
	}
	c->cap = cap;
	return 0;
}

int tr_collect_one(struct tep_event *e, struct tep_record *r, int cpu, void *arg)
{
	struct collect *c = arg;
	const struct tracer *t = c->t;
	struct tev *v;

	if (tr_collect_room(c, 2) != 0)
		return 1;	/* stop: what was read is kept */
	if (r->missed_events) {
		v = &c->ev[c->n];
		memset(v, 0, sizeof(*v));
		v->ts = (int64_t)r->ts;
		v->cpu = cpu;
		v->kind = TEV_LOST;
		c->text[c->n++] = NULL;
	}
	v = &c->ev[c->n];
	memset(v, 0, sizeof(*v));
	v->ts = (int64_t)r->ts;
	v->cpu = cpu;
	v->pid = tep_data_pid(c->tep, r);
	snprintf(v->comm, sizeof(v->comm), "%s", v->pid == 0 ? "<idle>" :
		 tep_data_comm_from_pid(c->tep, v->pid));
	tr_clean(v->comm);
	decode(t, c->tep, e, r, v);
	c->text[c->n] = NULL;
	if (cpu == c->text_cpu) {
		struct trace_seq s;

		trace_seq_init(&s);
		tep_print_event(c->tep, &s, r, "%16s-%-7d %s: %s", TEP_PRINT_COMM,
				TEP_PRINT_PID, TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		c->text[c->n] = strdup(s.buffer);
		trace_seq_destroy(&s);
	}
	c->n++;
	return 0;
}


const char *tr_idle_name(void *arg, int state)
{
	struct idle_names *in = arg;
	char path[128];
	FILE *fp;

	if (state < 0 || state >= 8)
		return NULL;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
		 in->cpu, state);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	if (!fgets(in->name[state], sizeof(in->name[state]), fp))
		in->name[state][0] = 0;
	fclose(fp);
	in->name[state][strcspn(in->name[state], "\n")] = 0;
	return in->name[state][0] ? in->name[state] : NULL;
}

/* cpuidle's exit latency of a CPU's idle state, ns; -1 unknown */
int64_t tr_idle_exit_ns(void *arg, int state)
{
	struct idle_names *in = arg;
	char path[128];
	long long us = -1;
	FILE *fp;

	if (state < 0) {	/* the deepest: the longest exit of them all */
		int64_t most = -1;

		for (int k = 0; k < 8; k++) {
			int64_t ns = tr_idle_exit_ns(arg, k);

			if (ns > most)
				most = ns;
		}
		return most;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
		 in->cpu, state);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (fscanf(fp, "%lld", &us) != 1)
		us = -1;
	fclose(fp);
	return us >= 0 ? us * 1000 : -1;
}

/* Has cpu no cpuidle driver (no cpuidle/ in its sysfs): does it idle in the architecture's default? */
int tr_default_idle(int cpu)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle", cpu);
	return access(path, F_OK) != 0 && errno == ENOENT;
}
