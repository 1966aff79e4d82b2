#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "cpulist.h"
#include "timerlat.h"
#include "tracer.h"
#include "units.h"

#define CPUS_FILE "osnoise/cpus"
#define PERIOD_FILE "osnoise/timerlat_period_us"

enum { CTX_IRQ, CTX_THREAD };	/* the event's context field */

static struct timerlat_cpu *slot_of(const struct timerlat *t, int cpu)
{
	for (int i = 0; i < t->n; i++)
		if (t->cpu[i].cpu == cpu)
			return &t->cpu[i];
	return NULL;
}

const struct timerlat_cpu *timerlat_of(const struct timerlat *t, int cpu)
{
	return slot_of(t, cpu);
}

struct timerlat_cpu *timerlat_add(struct timerlat *t, int cpu, int context, int64_t latency_ns,
				  int pid)
{
	struct timerlat_cpu *c = slot_of(t, cpu);

	if (!c) {
		t->foreign++;
		return NULL;
	}
	if (context == CTX_IRQ) {
		hist_add(&c->irq, latency_ns);
	} else if (context == CTX_THREAD) {
		hist_add(&c->thread, latency_ns);
		if (!c->kpid)
			c->kpid = pid;
	}
	return c;
}

/* pid's policy and priority, "SCHED_FIFO 95", or "" when it is gone. */
static void sched_words(int pid, char *buf, size_t len)
{
	struct sched_param sp;
	int pol = sched_getscheduler(pid);

	buf[0] = 0;
	if (pol >= 0 && sched_getparam(pid, &sp) == 0)
		snprintf(buf, len, "%s %d",
			 pol == SCHED_FIFO ? "SCHED_FIFO" : pol == SCHED_RR ? "SCHED_RR" :
			 pol == SCHED_DEADLINE ? "SCHED_DEADLINE" : "SCHED_OTHER",
			 sp.sched_priority);
}

static int one_sample(struct tep_event *e, struct tep_record *rec, int cpu, void *arg)
{
	struct timerlat *t = arg;
	unsigned long long ctx = 0, lat = 0, pid = 0;

	t->lost += rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
	if (e->id != t->event_id)
		return 0;
	if (tep_get_field_val(NULL, e, "context", rec, &ctx, 0) != 0 ||
	    tep_get_field_val(NULL, e, "timer_latency", rec, &lat, 0) != 0)
		return 0;
	tep_get_common_field_val(NULL, e, "common_pid", rec, &pid, 0);
	struct timerlat_cpu *c = timerlat_add(t, cpu, (int)ctx, (int64_t)lat, (int)pid);

	if (c && c->kpid > 0 && !c->sched[0])	/* while it lives: the tracer's end ends it */
		sched_words(c->kpid, c->sched, sizeof(c->sched));
	return 0;
}

void timerlat_drain(struct timerlat *t)
{
	if (t->inst && t->tep && t->event_id >= 0)
		tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, one_sample, t);
}

/* Is an osnoise-family tracer current in instance `name` (NULL: the top level)? */
static int runs_osnoise(const char *name)
{
	struct tracefs_instance *i = name ? tracefs_instance_alloc(NULL, name) : NULL;
	char *cur = tracefs_instance_file_read(i, "current_tracer", NULL);
	int busy = cur && (strncmp(cur, "timerlat", 8) == 0 || strncmp(cur, "osnoise", 7) == 0);

	free(cur);
	tracefs_instance_free(i);
	return busy;
}

struct busy {
	char who[128];
};

static int busy_one(const char *name, void *arg)
{
	struct busy *b = arg;

	if (!b->who[0] && runs_osnoise(name))
		snprintf(b->who, sizeof(b->who), "instance %s", name);
	return 0;
}

/*
 * Read the kernel's value of file (top level) into buf, trailing newline
 * off: -E2BIG when it does not fit (what is put back must be what was).
 */
static int save(const char *file, char *buf, size_t len)
{
	char *v = tracefs_instance_file_read(NULL, file, NULL);
	int rc = 0;

	if (!v)
		return -EIO;
	v[strcspn(v, "\n")] = 0;
	if ((size_t)snprintf(buf, len, "%s", v) >= len)
		rc = -E2BIG;
	free(v);
	return rc;
}

static void restore(struct timerlat *t)
{
	if (!t->saved)
		return;
	tracefs_instance_file_write(NULL, CPUS_FILE, t->saved_cpus[0] ? t->saved_cpus : "");
	tracefs_instance_file_write(NULL, PERIOD_FILE, t->saved_period);
	t->saved = 0;
}

static int fail(struct timerlat *t, int rc)
{
	timerlat_close(t);
	return rc;
}

int timerlat_open(struct timerlat *t, const int *cpus, int n, int64_t period_ns,
		  char *why, size_t len)
{
	char name[64], list[TIMERLAT_CPULIST_MAX] = "", period[32];
	cpu_set_t set;
	struct busy b = { "" };

	memset(t, 0, sizeof(*t));
	t->event_id = -1;
	if (n < 1) {
		snprintf(why, len, "timerlat: no CPU to run on");
		return -EINVAL;
	}
	if (!(t->cpu = calloc((size_t)n, sizeof(*t->cpu))))
		return -ENOMEM;
	t->n = n;
	CPU_ZERO(&set);
	for (int i = 0; i < n; i++) {
		t->cpu[i].cpu = cpus[i];
		hist_init(&t->cpu[i].irq);
		hist_init(&t->cpu[i].thread);
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &set);
	}
	cpulist_format(&set, list, sizeof(list));	/* "0-63": any machine's fits */
	if (period_ns < TIMERLAT_PERIOD_MIN_NS || period_ns > TIMERLAT_PERIOD_MAX_NS) {
		snprintf(why, len, "timerlat: its period is 100 us to 1 s (osnoise/timerlat_period_us), the cell's interval %lld ns",
			 (long long)period_ns);
		return -ERANGE;
	}
	if (tracer_check(why, len) != 0)
		return -ENOENT;
	const char *dir = tracefs_tracing_dir();

	if (!tracefs_tracer_available(dir, "timerlat")) {
		snprintf(why, len, "timerlat: not available on this kernel (no timerlat in %s/available_tracers: CONFIG_TIMERLAT_TRACER)",
			 dir);
		return -ENODEV;
	}
	tracer_sweep();
	if (runs_osnoise(NULL))
		snprintf(b.who, sizeof(b.who), "the top level");
	else
		tracefs_instances_walk(busy_one, &b);
	if (b.who[0]) {
		snprintf(why, len, "timerlat: an osnoise or timerlat tracer runs already (%s): its settings are not latlab's to change",
			 b.who);
		return -EBUSY;
	}
	int rc = save(CPUS_FILE, t->saved_cpus, sizeof(t->saved_cpus));

	if (rc == 0)
		rc = save(PERIOD_FILE, t->saved_period, sizeof(t->saved_period));
	if (rc) {
		snprintf(why, len, "timerlat: cannot read %s/%s and %s%s", dir, CPUS_FILE, PERIOD_FILE,
			 rc == -E2BIG ? " whole (longer than latlab can put back)" : "");
		return rc;
	}
	t->saved = 1;
	snprintf(period, sizeof(period), "%lld", (long long)(period_ns / NS_PER_US));
	if (tracefs_instance_file_write(NULL, CPUS_FILE, list) < 0 ||
	    tracefs_instance_file_write(NULL, PERIOD_FILE, period) < 0) {
		snprintf(why, len, "timerlat: cannot set %s = %s, %s = %s: %s", CPUS_FILE, list,
			 PERIOD_FILE, period, strerror(errno));
		return fail(t, -EIO);
	}
	tracer_instance_role(name, sizeof(name), "timerlat");
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		rc = -errno;
		snprintf(why, len, "timerlat: tracefs instance %s: %s", name, strerror(-rc));
		return fail(t, rc);
	}
	t->tep = tracefs_local_events_system(NULL, (const char *const[]){ "ftrace", NULL });
	struct tep_event *ev = t->tep ? tep_find_event_by_name(t->tep, "ftrace", "timerlat") : NULL;

	if (!ev) {
		snprintf(why, len, "timerlat: no ftrace/timerlat event format in %s/events", dir);
		return fail(t, -ENODEV);
	}
	t->event_id = ev->id;
	if (tracefs_tracer_set(t->inst, TRACEFS_TRACER_CUSTOM, "timerlat") != 0) {
		snprintf(why, len, "timerlat: this kernel does not run timerlat in an instance (%s): latlab never changes the top-level tracer",
			 name);
		return fail(t, -EPERM);
	}
	tracefs_trace_on(t->inst);
	return 0;
}

void timerlat_close(struct timerlat *t)
{
	if (t->inst) {
		tracefs_trace_off(t->inst);
		timerlat_drain(t);
		tracefs_tracer_clear(t->inst);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
		t->inst = NULL;
	}
	restore(t);
	if (t->tep)
		tep_free(t->tep);
	t->tep = NULL;
}

void timerlat_free(struct timerlat *t)
{
	timerlat_close(t);
	free(t->cpu);
	memset(t, 0, sizeof(*t));
	t->event_id = -1;
}
