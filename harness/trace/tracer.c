#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <spawn.h>
#include <sys/wait.h>
#include <tracefs.h>

#include "model.h"
#include "tracer_parts.h"

/*
 * libtracecmd reads each capture's trace-N.dat back. It is loaded when a
 * capture needs it (dlopen), not linked: a dependency mapped into every
 * run counted against an unprivileged user's RLIMIT_MEMLOCK under
 * mlockall (MCL_FUTURE) and made their allocations fail. The static build
 * for guests never loads it (a second libtraceevent beside its own would
 * not share its types): it reads tracefs, as a host without the library.
 */
#if __has_include(<trace-cmd.h>)
#include <dlfcn.h>
#include <sys/auxv.h>
#include <trace-cmd.h>
#define HAVE_TRACECMD 1

typedef int (*tcmd_cb)(struct tracecmd_input *, struct tep_record *, int, void *);
static struct {
	int tried;
	struct tracecmd_input *(*open)(const char *, int);
	void (*close)(struct tracecmd_input *);
	int (*instances)(struct tracecmd_input *);
	const char *(*instance_name)(struct tracecmd_input *, int);
	struct tracecmd_input *(*instance_handle)(struct tracecmd_input *, int);
	struct tep_handle *(*get_tep)(struct tracecmd_input *);
	int (*iterate)(struct tracecmd_input *, cpu_set_t *, int, tcmd_cb, void *);
} tcmd;

/* libtracecmd's functions, loaded once; 0 when this process cannot have them. */
static int tcmd_load(void)
{
	void *h;

	if (tcmd.tried)
		return tcmd.iterate != NULL;
	tcmd.tried = 1;
	if (getauxval(AT_BASE) == 0)	/* no dynamic loader: the static build */
		return 0;
	h = dlopen("libtracecmd.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return 0;
	*(void **)&tcmd.open = dlsym(h, "tracecmd_open");
	*(void **)&tcmd.close = dlsym(h, "tracecmd_close");
	*(void **)&tcmd.instances = dlsym(h, "tracecmd_buffer_instances");
	*(void **)&tcmd.instance_name = dlsym(h, "tracecmd_buffer_instance_name");
	*(void **)&tcmd.instance_handle = dlsym(h, "tracecmd_buffer_instance_handle");
	*(void **)&tcmd.get_tep = dlsym(h, "tracecmd_get_tep");
	*(void **)&tcmd.iterate = dlsym(h, "tracecmd_iterate_events");
	if (!tcmd.open || !tcmd.close || !tcmd.instances || !tcmd.instance_name ||
	    !tcmd.instance_handle || !tcmd.get_tep || !tcmd.iterate) {
		tcmd.iterate = NULL;
		return 0;
	}
	return 1;
}
#endif

#if defined(__SANITIZE_ADDRESS__)
/*
 * The sanitizer build's leak check: libtraceevent 1.7's format parser
 * loses two strdup's (4 bytes) in tep_parse_event when libtracecmd reads
 * a trace-N.dat's formats, a pointer latlab never holds and cannot free.
 * A leak anywhere else, ours or the libraries', still fails the run.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}
#endif

#include "config.h"
#include "flight.h"
#include "options.h"
#include "tracer.h"
#include "tracetxt.h"
#include "units.h"

#define NAME_PREFIX "latlab-"
#define WINDOW_BEFORE_NS (2 * NS_PER_MS)	/* trace-N.txt: before the intended wake */
#define WINDOW_AFTER_NS (200 * NS_PER_US)	/* and after the thread's clock read */

/* The default events; `some`: only some kernels or arches have it. */
static const struct default_event {
	struct trace_event e;
	int some;
} default_events[] = {
	{ { "sched", "sched_switch" }, 0 }, { { "sched", "sched_waking" }, 0 },
	{ { "timer", "hrtimer_start" }, 0 }, { { "timer", "hrtimer_expire_entry" }, 0 },
	{ { "timer", "hrtimer_expire_exit" }, 0 },
	{ { "irq", "irq_handler_entry" }, 0 }, { { "irq", "irq_handler_exit" }, 0 },
	{ { "irq", "softirq_entry" }, 0 }, { { "irq", "softirq_exit" }, 0 },
	{ { "workqueue", "workqueue_execute_start" }, 0 },
	{ { "nmi", "nmi_handler" }, 1 }, { { "power", "cpu_idle" }, 1 },
	{ { "irq_vectors", "local_timer_entry" }, 1 }, { { "irq_vectors", "local_timer_exit" }, 1 },
	{ { "irq_vectors", "reschedule_entry" }, 1 }, { { "irq_vectors", "reschedule_exit" }, 1 },
	{ { "irq_vectors", "call_function_entry" }, 1 },
	{ { "irq_vectors", "call_function_exit" }, 1 },
	{ { "irq_vectors", "call_function_single_entry" }, 1 },
	{ { "irq_vectors", "call_function_single_exit" }, 1 },
	{ { "irq_vectors", "irq_work_entry" }, 1 }, { { "irq_vectors", "irq_work_exit" }, 1 },
};

#define NDEFAULT (sizeof(default_events) / sizeof(default_events[0]))

/* The systems whose formats the parser needs. */
#define SYSTEMS_MAX 24


void spike_trap_check(struct spike_trap *t, int thread, int tid,
		      int64_t intended, int64_t woke)
{
	char line[128];
	int n;

	if (woke - intended <= atomic_load_explicit(&t->threshold_ns, memory_order_relaxed) ||
	    !atomic_load_explicit(&t->armed, memory_order_acquire) ||
	    intended < atomic_load_explicit(&t->from, memory_order_relaxed) ||
	    !atomic_exchange_explicit(&t->armed, 0, memory_order_acq_rel))
		return;
	if (t->freeze) {	/* the flight recorder: its rings stand still */
		__atomic_store_n(t->freeze, 1, __ATOMIC_RELEASE);
		goto fired;
	}
	n = snprintf(line, sizeof(line),
		     "latlab spike: thread %d tid %d latency %lld ns intended %lld woke %lld\n",
		     thread, tid, (long long)(woke - intended),
		     (long long)intended, (long long)woke);
	/* the marker, then tracing off: what the buffer holds stops here */
	if (write(t->marker_fd, line, (size_t)n) < 0) {
		/* the capture still stands without its marker */
	}
	if (write(t->on_fd, "0", 1) < 0) {
		/* the main thread stops it when it reads */
	}
fired:
	t->thread = thread;
	t->tid = tid;
	t->cpu = sched_getcpu();
	t->intended = intended;
	t->woke = woke;
	atomic_store_explicit(&t->fired, 1, memory_order_release);
}

/*
 * LATLAB_TRACEFS=DIR: trace there instead of the mounted tracefs (the
 * tests point it at a directory with no tracefs to see latlab refuse).
 */
static void tracefs_override(void)
{
	const char *dir = getenv("LATLAB_TRACEFS");

	if (dir && *dir)
		tracefs_set_tracing_dir((char *)dir);
}

int tracer_check(char *why, size_t len)
{
	tracefs_override();
	const char *dir = tracefs_tracing_dir();
	char inst[PATH_MAX], probe[PATH_MAX + 16];

	if (!dir) {
		snprintf(why, len, "no tracefs: it is not mounted and cannot be (mount -t tracefs nodev /sys/kernel/tracing)");
		return -ENOENT;
	}
	snprintf(inst, sizeof(inst), "%s/instances", dir);
	snprintf(probe, sizeof(probe), "%s/trace_marker", dir);
	if (access(inst, W_OK) != 0 || access(probe, F_OK) != 0) {
		int rc = -errno;

		snprintf(why, len, "no usable tracefs at %s: %s: %s%s", dir,
			 access(inst, W_OK) != 0 ? "instances" : "trace_marker",
			 strerror(-rc), rc == -EACCES ? " (tracing needs root)" : "");
		return rc;
	}
	return 0;
}

int tracer_check_method(int method, char *why, size_t len)
{
	if (method == TRACE_BY_TRACEFS)
		return tracer_check(why, len);
	int rc = flight_check(why, len);

	if (rc == 0 || method == TRACE_BY_BPF)
		return rc;
	return tracer_check(why, len);	/* auto: tracefs, then */
}

/* The inode of this process's PID namespace (0 where it cannot be read). */
static unsigned long pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

void tracer_instance_name(char *buf, size_t len)
{
	snprintf(buf, len, NAME_PREFIX "%d-%lu", (int)getpid(), pid_namespace());
}

void tracer_instance_role(char *buf, size_t len, const char *role)
{
	snprintf(buf, len, NAME_PREFIX "%d-%lu-%s", (int)getpid(), pid_namespace(), role);
}

/* Is s one lower-case word ("timerlat"): an instance's role? */
static int is_role(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < 'a' || *s > 'z')
			return 0;
	return 1;
}

/*
 * latlab-PID-NS (or latlab-PID-NS-ROLE, a second instance of one latlab:
 * timerlat's) of this PID namespace whose PID is not a running latlab.
 * A PID means nothing in another namespace (a container's latlab, one
 * under unshare): its instances are left to it. latlab-PID (no NS, an
 * older latlab's) is judged as this namespace's.
 */
int tracer_stale(const char *name)
{
	char path[64], comm[32] = "";
	char *end;
	long pid;
	FILE *fp;

	if (strncmp(name, NAME_PREFIX, strlen(NAME_PREFIX)) != 0)
		return 0;
	pid = strtol(name + strlen(NAME_PREFIX), &end, 10);
	if (*end == '-') {
		char *nsend;
		unsigned long ns = strtoul(end + 1, &nsend, 10);

		if (*nsend == '-' && is_role(nsend + 1))
			nsend += strlen(nsend);
		if (*nsend || end[1] == '\0' || ns != pid_namespace())
			return 0;
		end = nsend;
	}
	if (*end || pid <= 0 || pid == getpid())
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	fp = fopen(path, "r");
	if (!fp)
		return 1;
	if (!fgets(comm, sizeof(comm), fp))
		comm[0] = 0;
	fclose(fp);
	return strncmp(comm, "latlab", 6) != 0;	/* the pid was reused */
}

static int sweep_one(const char *name, void *arg)
{
	int *removed = arg;

	if (tracer_stale(name)) {
		struct tracefs_instance *i = tracefs_instance_alloc(NULL, name);
		if (i) {
			tracefs_trace_off(i);
			tracefs_tracer_clear(i);	/* a tracer (timerlat) holds it */
			*removed += tracefs_instance_destroy(i) == 0;
			tracefs_instance_free(i);
		}
	}
	return 0;
}

int tracer_sweep(void)
{
	int removed = 0;

	tracefs_override();
	if (tracefs_tracing_dir())
		tracefs_instances_walk(sweep_one, &removed);
	return removed;
}

/* "system:event" added to the list of what this kernel lacks */
static void add_missing(char *missing, size_t mlen, const struct trace_event *e)
{
	size_t used = strlen(missing);

	snprintf(missing + used, mlen - used, "%s%s:%s", used ? ", " : "", e->sys, e->ev);
}

void tracer_probe(char *dir, size_t dlen, char *missing, size_t mlen)
{
	const char *d;

	tracefs_override();
	d = tracefs_tracing_dir();
	snprintf(dir, dlen, "%s", d ? d : "");
	missing[0] = 0;
	for (size_t i = 0; d && i < NDEFAULT; i++)
		if (!tracefs_event_file_exists(NULL, default_events[i].e.sys, default_events[i].e.ev,
					      "enable"))
			add_missing(missing, mlen, &default_events[i].e);
}

static int enable(struct tracer *t, const struct trace_event *e, char *missing, size_t mlen,
		  char *sys_list[], int *nsys)
{
	if (!tracefs_event_file_exists(t->inst, e->sys, e->ev, "enable") ||
	    tracefs_event_enable(t->inst, e->sys, e->ev) != 0) {
		add_missing(missing, mlen, e);
		return 0;
	}
	struct trace_event *more = realloc(t->enabled, (size_t)(t->nenabled + 1) * sizeof(*more));

	if (more) {
		t->enabled = more;
		more[t->nenabled++] = *e;
	}
	for (int i = 0; i < *nsys; i++)
		if (strcmp(sys_list[i], e->sys) == 0)
			return 0;
	if (*nsys < SYSTEMS_MAX - 2)
		sys_list[(*nsys)++] = strdup(e->sys);
	return 0;
}

static int event_id(struct tep_handle *tep, const char *sys, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, name);

	return e ? e->id : -1;
}

static void cpumask_hex(const cpu_set_t *cpus, char *out, size_t len)
{
	int top = CPU_SETSIZE - 1;
	size_t o = 0;

	while (top > 0 && !CPU_ISSET(top, cpus))
		top--;
	/* hex digits from the highest group of four CPUs down, comma every 32 */
	for (int nib = top / 4; nib >= 0 && o + 2 < len; nib--) {
		int v = 0;

		for (int b = 0; b < 4; b++)
			if (CPU_ISSET(nib * 4 + b, cpus))
				v |= 1 << b;
		out[o++] = "0123456789abcdef"[v];
		if (nib % 8 == 0 && nib > 0)
			out[o++] = ',';
	}
	out[o] = 0;
}

/* The ids of the events the decoder tells apart, found once in the formats. */
static void find_ids(struct tracer *t)
{
	t->id_switch = event_id(t->tep, "sched", "sched_switch");
	t->id_waking = event_id(t->tep, "sched", "sched_waking");
	t->id_hstart = event_id(t->tep, "timer", "hrtimer_start");
	t->id_hentry = event_id(t->tep, "timer", "hrtimer_expire_entry");
	t->id_hexit = event_id(t->tep, "timer", "hrtimer_expire_exit");
	t->id_irq = event_id(t->tep, "irq", "irq_handler_entry");
	t->id_irqx = event_id(t->tep, "irq", "irq_handler_exit");
	t->id_soft = event_id(t->tep, "irq", "softirq_entry");
	t->id_softx = event_id(t->tep, "irq", "softirq_exit");
	t->id_nmi = event_id(t->tep, "nmi", "nmi_handler");
	t->id_idle = event_id(t->tep, "power", "cpu_idle");
	t->id_print = event_id(t->tep, "ftrace", "print");
}

/* Does o take its captures by the flight recorder here? */
static int by_flight(const struct trace_opts *o)
{
	char why[256];

	if (o->method == TRACE_BY_BPF)
		return 1;
	return o->method == TRACE_BY_AUTO && !o->nevents && !o->timerlat &&
	       flight_check(why, sizeof(why)) == 0;
}

int tracer_open(struct tracer **out, const struct trace_opts *o,
		const cpu_set_t *cpus, struct spike_trap *trap,
		char *missing, size_t mlen, char *err, size_t errlen)
{
	struct tracer *t = calloc(1, sizeof(*t));
	char *systems[SYSTEMS_MAX] = { 0 };
	int nsys = 0, rc = 0;
	char buf[1024];

	*out = NULL;
	missing[0] = 0;
	trap->marker_fd = trap->on_fd = -1;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->cpus = *cpus;
	trap->freeze = NULL;
	if (by_flight(o)) {
		rc = flight_open(&t->fl, cpus, o->buffer, o->recorder == TRACE_REC_LEAN, missing, mlen,
				 err, errlen);
		if (rc) {
			free(t);
			return rc;
		}
		snprintf(t->name, sizeof(t->name), "bpf-flight-recorder");
		trap->freeze = flight_freeze(t->fl);
		tracer_rearm(t, trap);
		*out = t;
		return 0;
	}
	tracer_instance_name(t->name, sizeof(t->name));
	tracer_sweep();
	if (tracefs_instance_exists(t->name)) {	/* our own, from a cell that failed */
		struct tracefs_instance *old = tracefs_instance_alloc(NULL, t->name);

		if (old) {
			tracefs_instance_destroy(old);
			tracefs_instance_free(old);
		}
	}
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "tracefs instance %s: %s", t->name, strerror(-rc));
		free(t);
		return rc;
	}
	tracefs_trace_off(t->inst);
	cpumask_hex(cpus, buf, sizeof(buf));
	if (tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0) {
		rc = -EIO;
		snprintf(err, errlen, "%s: trace_clock = mono refused", t->name);
		goto fail;
	}
	if (tracefs_instance_file_write(t->inst, "tracing_cpumask", buf) < 0) {
		rc = -EIO;
		snprintf(err, errlen, "%s: tracing_cpumask = %s refused", t->name, buf);
		goto fail;
	}
	snprintf(buf, sizeof(buf), "%lld", (long long)(o->buffer >> 10));
	if (tracefs_instance_file_write(t->inst, "buffer_size_kb", buf) < 0) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: buffer_size_kb = %s refused", t->name, buf);
		goto fail;
	}
	for (size_t i = 0; i < NDEFAULT; i++)
		enable(t, &default_events[i].e, missing, mlen, systems, &nsys);
	for (int i = 0; i < o->nevents; i++)
		enable(t, &o->event[i], missing, mlen, systems, &nsys);
	for (int k = 0; o->timerlat && k < OS_KINDS; k++)
		if (tracefs_event_file_exists(t->inst, "osnoise", tr_osnoise_events[k], "enable")) {
			struct trace_event e = { "osnoise", "" };

			snprintf(e.ev, sizeof(e.ev), "%s", tr_osnoise_events[k]);
			enable(t, &e, missing, mlen, systems, &nsys);
		}
	systems[nsys++] = strdup("ftrace");	/* the marker */
	systems[nsys] = NULL;
	t->tep = tracefs_local_events_system(NULL, (const char *const *)systems);
	for (int i = 0; i < nsys; i++)
		free(systems[i]);
	if (!t->tep) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot read the event formats", t->name);
		goto fail;
	}
	find_ids(t);
	trap->marker_fd = tracefs_instance_file_open(t->inst, "trace_marker", O_WRONLY);
	trap->on_fd = tracefs_instance_file_open(t->inst, "tracing_on", O_WRONLY);
	if (trap->marker_fd < 0 || trap->on_fd < 0) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot open trace_marker or tracing_on", t->name);
		goto fail;
	}
	rc = tracer_rearm(t, trap);
	if (rc) {
		snprintf(err, errlen, "%s: tracing_on: %s", t->name, strerror(-rc));
		goto fail;
	}
	*out = t;
	return 0;
fail:
	tracer_close(t, trap);
	return rc;
}

/* The events of a capture's text: the thread's CPU, in the window. */
struct trace_events {
	const struct collect *c;
	int64_t from, to, intended;	/* the window, and +0 */
	int i;
};

static const char *next_event(void *arg, int64_t *ns)
{
	struct trace_events *te = arg;

	for (; te->i < te->c->n; te->i++) {
		const struct tev *e = &te->c->ev[te->i];

		if (!te->c->text[te->i] || e->ts < te->from || e->ts > te->to)
			continue;
		*ns = e->ts - te->intended;
		return te->c->text[te->i++];
	}
	return NULL;
}

/* trace-N.txt for a capture (model/tracetxt.c writes it). */
static int write_trace(const char *dir, const struct collect *c,
		       const struct spike_trap *trap, const struct capture *cap,
		       const char *instance)
{
	const struct attribution *a = &cap->a;
	struct tracetxt_part part[ATTR_ITEMS];
	struct trace_events te = {
		.c = c, .from = trap->intended - WINDOW_BEFORE_NS,
		.to = trap->woke + WINDOW_AFTER_NS, .intended = trap->intended,
	};

	/* through the marker, however long the thread took to write it */
	for (int i = 0; i < c->n; i++)
		if (c->ev[i].kind == TEV_MARKER && c->ev[i].ts >= trap->woke &&
		    c->ev[i].ts > te.to) {
			te.to = c->ev[i].ts;
			break;
		}
	for (int i = 0; i < a->nitems; i++)
		part[i] = (struct tracetxt_part){ part_name(a->item[i].part), a->item[i].ns,
						  a->item[i].name, i == a->culprit };
	char kernel[160];

	snprintf(kernel, sizeof(kernel), "irq %lld ns, softirq %lld, thread %lld, nmi %lld; the largest: %s",
		 (long long)a->os_ns[OS_IRQ], (long long)a->os_ns[OS_SOFTIRQ],
		 (long long)a->os_ns[OS_THREAD], (long long)a->os_ns[OS_NMI],
		 a->os_top[0] ? a->os_top : "none");
	struct tracetxt t = {
		.capture = cap->n, .thread = trap->thread, .tid = trap->tid, .cpu = trap->cpu,
		.latency_ns = cap->latency_ns, .intended_ns = trap->intended,
		.woke_ns = trap->woke - trap->intended, .instance = instance,
		.complete = a->complete, .note = a->note,
		.expiry_ns = a->expiry - trap->intended,
		.switch_in_ns = a->switch_in - trap->intended,
		.part = part, .nparts = a->nitems, .next = next_event, .arg = &te,
		.kernel = a->os_seen ? kernel : NULL,
	};
	return tracetxt_write(dir, &t);
}

#ifdef HAVE_TRACECMD
/* trace-cmd, or LATLAB_TRACE_CMD's program (the tests point it elsewhere) */
static const char *trace_cmd(void)
{
	const char *p = getenv("LATLAB_TRACE_CMD");

	return p && *p ? p : "trace-cmd";
}

/*
 * The instance's buffers into path with `trace-cmd extract -B NAME`:
 * read once, so emptied. posix_spawn, not fork: a fork of this locked,
 * multi-threaded process would give the real-time threads copy-on-write
 * faults until the child execs. 0, or -errno (-ENOENT: no trace-cmd).
 */
static int extract_dat(const struct tracer *t, const char *path)
{
	extern char **environ;
	char *argv[] = { (char *)trace_cmd(), "extract", "-B", (char *)t->name, "-o",
			 (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -rc;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -ENOENT : -EIO;
}

/* The events enabled again: trace-cmd extract turns an instance's off when it is done. */
static void reenable(const struct tracer *t)
{
	for (int i = 0; i < t->nenabled; i++)
		tracefs_event_enable(t->inst, t->enabled[i].sys, t->enabled[i].ev);
}

static int dat_one(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct collect *c = arg;
	struct tep_event *e = tep_find_event_by_record(c->tep, r);

	(void)h;
	return e ? tr_collect_one(e, r, cpu, c) : 0;
}
#endif

/*
 * The capture's events from its trace.dat (libtracecmd: the instance's
 * buffer in it). 0, or -errno: no libtracecmd linked (-ENOSYS), a file
 * it cannot open (-EIO).
 */
static int read_dat(const char *path, const char *instance, cpu_set_t *cpus,
		    struct collect *c)
{
#ifdef HAVE_TRACECMD
	struct tracecmd_input *top, *h = NULL;

	if (!tcmd_load())
		return -ENOSYS;
	top = tcmd.open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!top)
		return -EIO;
	for (int i = 0; !h && i < tcmd.instances(top); i++)
		if (strcmp(tcmd.instance_name(top, i), instance) == 0)
			h = tcmd.instance_handle(top, i);
	if (!h) {
		tcmd.close(top);
		return -EIO;
	}
	c->tep = tcmd.get_tep(h);
	tcmd.iterate(h, cpus, sizeof(*cpus), dat_one, c);
	tcmd.close(h);
	tcmd.close(top);
	return 0;
#else
	(void)path, (void)instance, (void)cpus, (void)c;
	return -ENOSYS;
#endif
}

/*
 * The instance's buffers into c: trace-N.dat for trace-cmd report and
 * KernelShark, read back with libtracecmd; where either is missing, the
 * buffers straight from tracefs (and no .dat). 1 when the .dat was written.
 */
static int collect_tracefs(struct tracer *t, int n, const char *dir, struct collect *c)
{
	cpu_set_t cpus = t->cpus;
	char dat[PATH_MAX], name[48];
	int dat_rc = -ENOSYS;

	tracefs_trace_off(t->inst);
	cell_trace_name(name, sizeof(name), n, "dat");
	snprintf(dat, sizeof(dat), "%s/%s", dir, name);
#ifdef HAVE_TRACECMD
	if (tcmd_load()) {
		dat_rc = extract_dat(t, dat);
		if (dat_rc != -ENOENT)
			reenable(t);
	}
#endif
	if (dat_rc == 0 && (dat_rc = read_dat(dat, t->name, &cpus, c)) != 0)
		unlink(dat);	/* written but unreadable: the buffers are gone with it */
	if (dat_rc != 0 && c->n == 0) {
		c->tep = t->tep;
		tracefs_load_cmdlines(NULL, t->tep);
		tracefs_iterate_raw_events(t->tep, t->inst, &cpus, sizeof(cpus), tr_collect_one, c);
	}
	return dat_rc == 0;
}

/*
 * The flight recorder has no marker: the thread's clock read said as one,
 * latlab's own line (the store that froze the rings came right after it)
 */
static void mark_spike(struct collect *c, const struct spike_trap *trap)
{
	struct tev *v;

	if (tr_collect_room(c, 1) != 0)
		return;
	v = &c->ev[c->n];
	memset(v, 0, sizeof(*v));
	v->ts = trap->woke;
	v->cpu = trap->cpu;
	v->pid = trap->tid;
	v->kind = TEV_MARKER;
	snprintf(v->comm, sizeof(v->comm), "latlab");
	if (asprintf(&c->text[c->n], "%16s-%-7d latlab spike: thread %d tid %d latency %lld ns (its clock read; its store froze the rings)",
		     "latlab", trap->tid, trap->thread, trap->tid,
		     (long long)(trap->woke - trap->intended)) < 0)
		c->text[c->n] = NULL;
	c->n++;
}

int tracer_capture(struct tracer *t, const struct spike_trap *trap, int kprio,
		   int64_t start, int n, const char *dir, struct capture *out)
{
	struct collect c = { .t = t, .tep = t->tep, .text_cpu = trap->cpu };
	struct idle_names in = { .cpu = trap->cpu };
	int rc;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->thread = trap->thread;
	out->cpu = trap->cpu;
	out->tid = trap->tid;
	out->t_ns = trap->intended - start;
	out->latency_ns = trap->woke - trap->intended;
	if (t->fl) {
		flight_collect(t->fl, &c);	/* out of memory: c.oom says so below */
		mark_spike(&c, trap);
	} else
		out->dat = collect_tracefs(t, n, dir, &c);

	struct spike_query q = {
		.tid = trap->tid, .prio = kprio, .cpu = trap->cpu,
		.intended = trap->intended, .woke = trap->woke,
		.idle_name = tr_idle_name, .idle_exit_ns = tr_idle_exit_ns, .idle_arg = &in,
		.default_idle = tr_default_idle(trap->cpu),
		.counted_clock = t->counted_clock,
	};
	attrib_explain(c.ev, c.n, &q, &out->a);
	if (c.oom && out->a.complete)
		snprintf(out->a.note + strlen(out->a.note),
			 sizeof(out->a.note) - strlen(out->a.note),
			 " (out of memory: only part of the buffer read)");
	rc = write_trace(dir, &c, trap, out, t->name);
	out->saved_ns = units_now_ns() - trap->woke;
	for (int i = 0; i < c.n; i++)
		free(c.text[i]);
	free(c.text);
	free(c.ev);
	return rc;
}

void tracer_clock_counted(struct tracer *t)
{
	t->counted_clock = 1;
}

int tracer_rearm(struct tracer *t, struct spike_trap *trap)
{
	if (t->fl) {
		atomic_store_explicit(&trap->fired, 0, memory_order_relaxed);
		flight_rearm(t->fl);
	} else {
		/* opening "trace" for writing with O_TRUNC empties every CPU's buffer */
		if (tracefs_instance_file_clear(t->inst, "trace") < 0)
			return -EIO;
		atomic_store_explicit(&trap->fired, 0, memory_order_relaxed);
		if (tracefs_trace_on(t->inst) != 0)
			return -EIO;
	}
	/*
	 * A spike that began before now is not in the buffer: taken, it could
	 * only be incomplete ("the trace of this CPU begins ... after the
	 * intended wake-up", seen when a re-arm fell inside an rt-hog's burst)
	 */
	atomic_store_explicit(&trap->from, units_now_ns() + WINDOW_BEFORE_NS,
			      memory_order_relaxed);
	atomic_store_explicit(&trap->armed, 1, memory_order_release);
	return 0;
}

void tracer_close(struct tracer *t, struct spike_trap *trap)
{
	if (trap) {
		atomic_store(&trap->armed, 0);
		if (trap->marker_fd >= 0)
			close(trap->marker_fd);
		if (trap->on_fd >= 0)
			close(trap->on_fd);
		trap->marker_fd = trap->on_fd = -1;
		trap->freeze = NULL;
	}
	if (!t)
		return;
	flight_close(t->fl);
	if (t->inst) {
		tracefs_trace_off(t->inst);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->tep)
		tep_free(t->tep);
	free(t->enabled);
	free(t);
}

const char *tracer_name(const struct tracer *t)
{
	return t->name;
}

const char *tracer_method(const struct tracer *t)
{
	return !t->fl ? "tracefs" : flight_lean(t->fl) ? "bpf-lean" : "bpf";
}
