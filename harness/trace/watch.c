#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracer.h"
#include "watch.h"
#include "watch_bpf.h"

/* One thing written to the kernel: a synthetic event or a trigger. */
#define STEPS_MAX 16
struct watch_step {
	const char *sys;	/* the trigger's system; NULL: a synthetic event */
	char event[80];		/* the trigger's event, or the synthetic event */
	char text[2560];	/* the trigger, or the event's definition */
};

enum { SYN_EXP, SYN_TIMER, SYN_SCHED };
static const char *const syn_suffix[] = { "exp", "timer", "sched" };

/* "pid == 5 || pid == 7" for the watched threads, on field `f`. */
static void tid_filter(const struct watch *w, const char *f, char *out, size_t len)
{
	size_t u = 0;

	out[0] = 0;
	for (int i = 0; i < w->n && u < len; i++)
		u += (size_t)snprintf(out + u, len - u, "%s%s == %d", i ? " || " : "", f, w->t[i].tid);
}

/*
 * "(function == 0x... || ...)": the callbacks that wake a sleeping
 * thread at its timer's expiry (a sleep's, a timerfd's, a POSIX timer's)
 * — not the tick or any other timer armed in an interrupt while the
 * thread was current, which common_pid would count too. "" when
 * /proc/kallsyms shows no addresses (not root, kptr_restrict).
 */
/* "(function == 0x... || ...) && ", or "" where none is known */
static void waker_filter(char *out, size_t len)
{
	unsigned long long addr[3];
	size_t u = 0;
	int found = 0;

	out[0] = 0;
	watch_wakers(addr);
	for (int i = 0; i < 3 && u < len; i++)
		if (addr[i])
			u += (size_t)snprintf(out + u, len - u, "%sfunction == 0x%llx",
					      found++ ? " || " : "(", addr[i]);
	if (found && u < len)
		snprintf(out + u, len - u, ") && ");
}

/* the synthetic event of role r: "latlab_12_4026531836_timer" */
static void syn_name(const struct watch *w, int r, char *out, size_t len)
{
	snprintf(out, len, "%s_%s", w->prefix, syn_suffix[r]);
}

static void add_step(struct watch_step *s, const char *sys, const char *event)
{
	s->sys = sys;
	snprintf(s->event, sizeof(s->event), "%s", event);
	s->text[0] = 0;
}

/*
 * The steps in the order they are written (each needs the ones before
 * it: a trigger reads the variables of those it matches, and traces the
 * synthetic events), undone in reverse. 13 of them.
 */
static int make_steps(const struct watch *w, struct watch_step *s)
{
	char f_cp[WATCH_MAX_THREADS * 26], f_pid[WATCH_MAX_THREADS * 19],
	     f_next[WATCH_MAX_THREADS * 24], f_prev[WATCH_MAX_THREADS * 24],
	     exp[80], tim[80], sch[80], fn[160];
	int n = 0;

	tid_filter(w, "common_pid", f_cp, sizeof(f_cp));
	tid_filter(w, "pid", f_pid, sizeof(f_pid));
	tid_filter(w, "next_pid", f_next, sizeof(f_next));
	tid_filter(w, "prev_pid", f_prev, sizeof(f_prev));
	waker_filter(fn, sizeof(fn));
	syn_name(w, SYN_EXP, exp, sizeof(exp));
	syn_name(w, SYN_TIMER, tim, sizeof(tim));
	syn_name(w, SYN_SCHED, sch, sizeof(sch));
	add_step(&s[n++], NULL, exp);
	snprintf(s[n - 1].text, sizeof(s[0].text), "%s int pid; s64 expires", exp);
	add_step(&s[n++], NULL, tim);
	snprintf(s[n - 1].text, sizeof(s[0].text), "%s pid_t pid; u64 lat", tim);
	add_step(&s[n++], NULL, sch);
	snprintf(s[n - 1].text, sizeof(s[0].text), "%s pid_t pid; u64 lat", sch);
	/* the two histograms read at the end */
	add_step(&s[n++], "synthetic", tim);
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=pid,lat.buckets=%d:sort=pid,lat:size=16384", WATCH_BUCKET_NS);
	add_step(&s[n++], "synthetic", sch);
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=pid,lat.buckets=%d:sort=pid,lat:size=16384", WATCH_BUCKET_NS);
	/* a timer a watched thread arms: its requested expiry, and whose */
	add_step(&s[n++], "timer", "hrtimer_start");
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=hrtimer:ll_tp=common_pid:ll_te=softexpires if %s(%s)", fn, f_cp);
	/* a watched thread woken: when */
	add_step(&s[n++], "sched", "sched_waking");
	snprintf(s[n - 1].text, sizeof(s[0].text), "hist:keys=pid:ll_ws=common_timestamp:clock=mono if %s", f_pid);
	/* an expired timer's expiry, kept by the thread that armed it */
	add_step(&s[n++], "synthetic", exp);
	snprintf(s[n - 1].text, sizeof(s[0].text), "hist:keys=pid:ll_te2=expires");
	add_step(&s[n++], "timer", "hrtimer_expire_entry");
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=hrtimer:onmatch(timer.hrtimer_start).trace(%s,$ll_tp,$ll_te)", exp);
	/* the thread runs: the expiry's and the waking's latencies */
	add_step(&s[n++], "sched", "sched_switch");
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=next_pid:ll_tl=common_timestamp-$ll_te2:onmatch(synthetic.%s).trace(%s,next_pid,$ll_tl):clock=mono if %s",
		 exp, tim, f_next);
	add_step(&s[n++], "sched", "sched_switch");
	snprintf(s[n - 1].text, sizeof(s[0].text),
		 "hist:keys=next_pid:ll_wl=common_timestamp-$ll_ws:onmatch(sched.sched_waking).trace(%s,next_pid,$ll_wl):clock=mono if %s",
		 sch, f_next);
	/*
	 * the thread leaves its CPU: what it has not used is stale (an
	 * expiry or a waking while it was running would else be read at
	 * its next switch-in, after a preemption: a latency it never had)
	 */
	add_step(&s[n++], "sched", "sched_switch");
	snprintf(s[n - 1].text, sizeof(s[0].text), "hist:keys=prev_pid:ll_xt=$ll_te2 if %s", f_prev);
	add_step(&s[n++], "sched", "sched_switch");
	snprintf(s[n - 1].text, sizeof(s[0].text), "hist:keys=prev_pid:ll_xs=$ll_ws if %s", f_prev);
	return n;
}

static int step_write(struct watch *w, const struct watch_step *s)
{
	if (!s->sys)
		return tracefs_instance_file_append(NULL, "synthetic_events", s->text) < 0 ? -1 : 0;
	return tracefs_event_file_append(w->inst, s->sys, s->event, "trigger", s->text) < 0 ? -1 : 0;
}

static int step_undo(struct watch *w, const struct watch_step *s)
{
	char bang[sizeof(s->text) + 2];

	snprintf(bang, sizeof(bang), "!%s", s->sys ? s->text : s->event);
	if (!s->sys)
		return tracefs_instance_file_append(NULL, "synthetic_events", bang) < 0 ? -1 : 0;
	return tracefs_event_file_append(w->inst, s->sys, s->event, "trigger", bang) < 0 ? -1 : 0;
}

const char *watch_method_name(int method)
{
	return method == WATCH_BPF ? "bpf" : method == WATCH_HIST ? "hist" : "auto";
}

int watch_method_of_trace(int trace_watch)
{
	return trace_watch == 2 ? WATCH_BPF : trace_watch == 3 ? WATCH_HIST : WATCH_AUTO;
}

/* the triggers: histogram triggers and synthetic events in a writable tracefs */
static int hist_check(char *why, size_t len)
{
	int rc = tracer_check(why, len);

	if (rc)
		return rc;
	if (!tracefs_file_exists(NULL, "synthetic_events") ||
	    !tracefs_file_exists(NULL, "events/sched/sched_switch/hist")) {
		snprintf(why, len, "this kernel has no histogram triggers and synthetic events (CONFIG_HIST_TRIGGERS, CONFIG_SYNTH_EVENTS): %s/events/sched/sched_switch/hist is missing",
			 tracefs_tracing_dir());
		return -ENODEV;
	}
	if (!tracefs_dir_exists(NULL, "events/timer/hrtimer_start")) {
		snprintf(why, len, "this kernel has no timer events (hrtimer_start)");
		return -ENODEV;
	}
	return 0;
}

/* The kernel's last word about a trigger it refused ("[ 3.59] " cut), or strerror. */
static void refused(struct watch *w, const struct watch_step *s, int err, char *why, size_t len)
{
	char *last = w->inst ? tracefs_error_last(w->inst) : NULL;
	char *top = tracefs_error_last(NULL);
	const char *msg = last && *last ? last : top && *top ? top : strerror(err);
	size_t m;

	if (msg[0] == '[' && strchr(msg, ']'))
		msg = strchr(msg, ']') + 1;
	msg += strspn(msg, " ");
	m = strcspn(msg, "\n");
	if (s->sys)
		snprintf(why, len, "the kernel refused the trigger on %s/%s '%.150s': %.*s",
			 s->sys, s->event, s->text, (int)m, msg);
	else
		snprintf(why, len, "the kernel refused the synthetic event '%.150s': %.*s",
			 s->text, (int)m, msg);
	free(last);
	free(top);
}

int watch_check(int method, int *chosen, char *why, size_t len)
{
	char bw[256];
	int rc;

	if (method != WATCH_HIST) {
		rc = watch_bpf_check(bw, sizeof(bw));
		if (rc == 0 || method == WATCH_BPF) {
			if (rc)
				snprintf(why, len, "method = bpf: %s", bw);
			else if (chosen)
				*chosen = WATCH_BPF;
			return rc;
		}
	}
	rc = hist_check(why, len);
	if (rc == 0 && chosen)
		*chosen = WATCH_HIST;
	if (rc && method == WATCH_AUTO) {	/* neither: say both */
		size_t u = strlen(why);

		snprintf(why + u, len - u, "; and no BPF: %s", bw);
	}
	return rc;
}

int watch_prepare(struct watch *w, int method, char *why, size_t len)
{
	int chosen = WATCH_HIST, rc = watch_check(method, &chosen, why, len);

	memset(w, 0, sizeof(*w));
	if (rc)
		return rc;
	w->method = chosen;
	w->prepared = 1;
	if (chosen == WATCH_BPF)
		return watch_bpf_load(w, why, len);
	watch_sweep();
	tracer_sweep();
	tracer_instance_role(w->name, sizeof(w->name), "watch");
	tracer_instance_name(w->prefix, sizeof(w->prefix));
	for (char *p = w->prefix; *p; p++)
		if (*p == '-')
			*p = '_';
	/* every event's directory in it: the costly part of the triggers' setup */
	w->inst = tracefs_instance_create(w->name);
	if (!w->inst) {
		rc = -errno;
		snprintf(why, len, "tracefs instance %s: %s", w->name, strerror(errno));
		return rc;
	}
	/*
	 * mono before any trigger, the clock every trigger names: a
	 * trigger's clock= sets its instance's clock when it is registered,
	 * which then does not change under the triggers written before it
	 */
	if (tracefs_instance_file_write(w->inst, "trace_clock", "mono") < 0) {
		rc = -errno;
		snprintf(why, len, "%s/trace_clock = mono: %s", w->name, strerror(errno));
		watch_close(w, NULL, 0);
		return rc;
	}
	/* nothing is recorded: the triggers need no more of a ring than this */
	tracefs_instance_file_write(w->inst, "buffer_size_kb", "64");
	return 0;
}

int watch_open(struct watch *w, int method, const int *tids, int n, char *why, size_t len)
{
	int rc = w->prepared ? 0 : watch_prepare(w, method, why, len);

	if (rc) {
		watch_free(w);
		return rc;
	}
	if (n < 1 || n > WATCH_MAX_THREADS) {
		snprintf(why, len, "%d threads to watch: 1 to %d", n, WATCH_MAX_THREADS);
		watch_free(w);
		return -EINVAL;
	}
	w->t = calloc((size_t)n, sizeof(*w->t));
	w->step = calloc(STEPS_MAX, sizeof(*w->step));
	if (!w->t || !w->step) {
		watch_free(w);
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	w->n = n;
	for (int i = 0; i < n; i++) {
		w->t[i].tid = tids[i];
		hist_init(&w->t[i].timer);
		hist_init(&w->t[i].sched);
	}
	if (w->method == WATCH_BPF) {
		rc = watch_bpf_attach(w, why, len);
		if (rc)
			watch_free(w);
		return rc;
	}
	tracefs_error_clear(w->inst);
	/* made once: close undoes exactly what was written */
	int nsteps = make_steps(w, w->step);

	for (; w->steps < nsteps; w->steps++)
		if (step_write(w, &w->step[w->steps]) != 0) {
			rc = -errno ? -errno : -EINVAL;
			refused(w, &w->step[w->steps], -rc, why, len);
			watch_close(w, NULL, 0);
			watch_free(w);
			return rc;
		}
	return 0;
}

static struct watch_thread *thread_of(struct watch *w, int tid)
{
	for (int i = 0; i < w->n; i++)
		if (w->t[i].tid == tid)
			return &w->t[i];
	return NULL;
}

const struct watch_thread *watch_of(const struct watch *w, int tid)
{
	return thread_of((struct watch *)w, tid);
}

/* the unsigned number after "name:" in line (spaces and "~ " skipped), or -1 */
static int field_after(const char *line, const char *name, unsigned long long *v, const char **end)
{
	const char *p = strstr(line, name);
	char *e;

	if (!p)
		return -1;
	p += strlen(name);
	while (*p == ' ' || *p == '~')
		p++;
	errno = 0;
	*v = strtoull(p, &e, 10);
	if (e == p || errno)
		return -1;
	if (end)
		*end = e;
	return 0;
}

int watch_parse_hist(struct watch *w, const char *text, int which, uint64_t *dropped)
{
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		char buf[256];
		size_t m = nl ? (size_t)(nl - line) : strlen(line);
		unsigned long long pid, lo, hi, hits, d;
		const char *e;

		if (m >= sizeof(buf))
			m = sizeof(buf) - 1;
		memcpy(buf, line, m);
		buf[m] = 0;
		line = nl ? nl + 1 : NULL;
		if (buf[0] == '{') {
			if (field_after(buf, "pid:", &pid, NULL) || field_after(buf, "hitcount:", &hits, NULL) ||
			    field_after(buf, "lat:", &lo, &e) || *e != '-' ||
			    field_after(e, "-", &hi, NULL) || hi < lo)
				return -EINVAL;
			struct watch_thread *t = thread_of(w, (int)pid);

			if (!t)
				continue;
			if (lo >= (unsigned long long)WATCH_UNPAIRED_NS) {
				t->unpaired += hits;	/* below zero, as the kernel's u64 */
				continue;
			}
			struct hist *h = which ? &t->sched : &t->timer;
			/* the bucket's middle, in latlab's bucket that holds it */
			int64_t mid = (int64_t)(lo + (hi - lo + 1) / 2);

			hist_add_bucket(h, mid, mid + 1, hits);
		} else if (strstr(buf, "Dropped:") && field_after(buf, "Dropped:", &d, NULL) == 0) {
			*dropped += d;
		}
	}
	return 0;
}

int watch_read(struct watch *w, char *why, size_t len)
{
	int rc = 0;

	if (w->bpf)
		return watch_bpf_read(w, why, len);
	if (!w->inst || w->steps <= SYN_SCHED + 2)	/* the histograms are not there */
		return 0;
	w->dropped = 0;
	for (int i = 0; i < w->n; i++) {
		hist_init(&w->t[i].timer);
		hist_init(&w->t[i].sched);
		w->t[i].unpaired = 0;
	}
	for (int which = 0; which < 2; which++) {
		char name[80];

		syn_name(w, which ? SYN_SCHED : SYN_TIMER, name, sizeof(name));
		char *text = tracefs_event_file_read(w->inst, "synthetic", name, "hist", NULL);

		if (!text || watch_parse_hist(w, text, which, &w->dropped) != 0) {
			rc = text ? -EINVAL : -errno;
			if (why)
				snprintf(why, len, "%s: the kernel's histogram of %s not read: %s",
					 w->name, name, text ? "not in the kernel's format" : strerror(-rc));
		}
		free(text);
	}
	return rc;
}

int watch_close(struct watch *w, char *why, size_t len)
{
	const struct watch_step *s = w->step;
	int rc;

	if (w->bpf)
		return watch_bpf_close(w, why, len);
	if (!w->inst)
		return 0;
	/* the histograms first, while their triggers are there */
	rc = watch_read(w, why, len);
	while (w->steps > 0) {
		w->steps--;
		if (step_undo(w, &s[w->steps]) != 0 && !rc) {
			char said[400];

			rc = -EBUSY;
			refused(w, &s[w->steps], errno, said, sizeof(said));
			if (why)
				snprintf(why, len, "%s: could not remove it: %s", w->name, said);
		}
	}
	tracefs_instance_destroy(w->inst);
	tracefs_instance_free(w->inst);
	w->inst = NULL;
	return rc;
}

void watch_free(struct watch *w)
{
	if (w->inst || w->bpf)
		watch_close(w, NULL, 0);
	free(w->t);
	free(w->step);
	w->t = NULL;
	w->step = NULL;
	w->n = 0;
	w->prepared = 0;
}

/*
 * Every trigger of a stale watch instance (its owner was killed), in
 * passes: a trigger whose variables another reads goes only after it.
 */
static void watch_clear(struct tracefs_instance *inst)
{
	static const char *const systems[] = { "synthetic", "sched", "timer" };

	for (int pass = 0; pass < 4; pass++)
		for (size_t s = 0; s < sizeof(systems) / sizeof(systems[0]); s++) {
			char **events = tracefs_system_events(NULL, systems[s]);

			for (int e = 0; events && events[e]; e++) {
				char *text = tracefs_event_file_read(inst, systems[s], events[e], "trigger", NULL);

				for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
					char bang[2600], *cut;

					if (line[0] == '#')
						continue;
					cut = strstr(line, " [active]");
					if (!cut)
						cut = strstr(line, " [paused]");
					if (cut)
						*cut = 0;
					snprintf(bang, sizeof(bang), "!%s", line);
					tracefs_event_file_append(inst, systems[s], events[e], "trigger", bang);
				}
				free(text);
			}
			tracefs_list_free(events);
		}
}

/* A stale watch instance: its triggers, then itself. */
static int sweep_one(const char *name, void *arg)
{
	size_t n = strlen(name);

	(void)arg;
	if (n > 6 && strcmp(name + n - 6, "-watch") == 0 && tracer_stale(name)) {
		struct tracefs_instance *i = tracefs_instance_alloc(NULL, name);

		if (i) {
			watch_clear(i);
			tracefs_instance_destroy(i);
			tracefs_instance_free(i);
		}
	}
	return 0;
}

/*
 * The watch instances of latlabs that are gone, and their synthetic
 * events: "latlab_PID_NS_..." whose PID is not a running latlab of this
 * namespace (tracer.c's rule, through the instance name it would have
 * had).
 */
void watch_sweep(void)
{
	char *text;

	if (!tracefs_tracing_dir())
		return;
	tracefs_instances_walk(sweep_one, NULL);
	text = tracefs_instance_file_read(NULL, "synthetic_events", NULL);
	if (!text)
		return;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[96], inst[96], bang[100];
		int pid;
		unsigned long ns;

		if (sscanf(line, "%95s", name) != 1 || sscanf(name, "latlab_%d_%lu_", &pid, &ns) != 2)
			continue;
		snprintf(inst, sizeof(inst), "latlab-%d-%lu", pid, ns);
		if (!tracer_stale(inst))
			continue;
		snprintf(bang, sizeof(bang), "!%s", name);
		tracefs_instance_file_append(NULL, "synthetic_events", bang);
	}
	free(text);
}
