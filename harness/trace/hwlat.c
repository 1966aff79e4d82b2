#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "hwlat.h"
#include "tracer.h"
#include "units.h"

struct gaps {
	struct tep_event *ev;
	struct hwlat_result *r;
};

static int64_t field_us(struct tep_event *e, struct tep_record *rec, const char *name)
{
	unsigned long long v = 0;

	return tep_get_field_val(NULL, e, name, rec, &v, 0) == 0 ? (int64_t)v : 0;
}

static int one_gap(struct tep_event *e, struct tep_record *rec, int cpu, void *arg)
{
	struct gaps *g = arg;

	(void)cpu;
	if (!g->ev || e->id != g->ev->id)
		return 0;
	/* hwlat records microseconds: the inner and the outer loop's gap */
	int64_t inner = field_us(e, rec, "duration"), outer = field_us(e, rec, "outer_duration");
	int64_t ns = (inner > outer ? inner : outer) * NS_PER_US;

	g->r->count++;
	if (ns > g->r->max_ns)
		g->r->max_ns = ns;
	return 0;
}

/* Sleep `ns`, or until SIGINT/SIGTERM arrives (they are blocked in run). */
static int wait_for(int64_t ns)
{
	sigset_t s;
	struct timespec t = { ns / NS_PER_S, ns % NS_PER_S };

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	for (;;) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		int sig = sigtimedwait(&s, NULL, &t);
		if (sig > 0)
			return 1;
		if (errno == EAGAIN)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &b);	/* EINTR: the rest of it */
		int64_t left = (int64_t)t.tv_sec * NS_PER_S + t.tv_nsec -
			       ((int64_t)(b.tv_sec - a.tv_sec) * NS_PER_S + b.tv_nsec - a.tv_nsec);
		if (left <= 0)
			return 0;
		t.tv_sec = left / NS_PER_S;
		t.tv_nsec = left % NS_PER_S;
	}
}

int hwlat_run(int64_t duration_ns, struct hwlat_result *r, int *interrupted,
	      char *why, size_t len)
{
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char name[32], *thresh;
	const char *dir;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	*interrupted = 0;
	if (tracer_check(why, len) != 0)
		return -ENOENT;
	dir = tracefs_tracing_dir();
	if (!tracefs_tracer_available(dir, "hwlat")) {
		snprintf(why, len, "hwlat: not available on this kernel (no hwlat in %s/available_tracers: CONFIG_HWLAT_TRACER)",
			 dir);
		return -ENODEV;
	}
	tracer_sweep();
	tracer_instance_name(name, sizeof(name));
	inst = tracefs_instance_create(name);
	if (!inst) {
		rc = -errno;
		snprintf(why, len, "hwlat: tracefs instance %s: %s", name, strerror(-rc));
		return rc;
	}
	if (tracefs_tracer_set(inst, TRACEFS_TRACER_HWLAT) != 0) {
		rc = -EPERM;
		snprintf(why, len, "hwlat: this kernel does not run hwlat in an instance (%s): latlab never changes the top-level tracer",
			 name);
		goto out;
	}
	thresh = tracefs_instance_file_read(NULL, "tracing_thresh", NULL);
	r->threshold_ns = (thresh ? atoll(thresh) : 0) * NS_PER_US;
	if (r->threshold_ns == 0)
		r->threshold_ns = 10 * NS_PER_US;	/* hwlat's default when 0 */
	free(thresh);
	tracefs_trace_on(inst);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	*interrupted = wait_for(duration_ns);
	clock_gettime(CLOCK_MONOTONIC, &b);
	tracefs_trace_off(inst);
	r->duration_ns = (int64_t)(b.tv_sec - a.tv_sec) * NS_PER_S + b.tv_nsec - a.tv_nsec;
	tep = tracefs_local_events_system(NULL, (const char *const[]){ "ftrace", NULL });
	if (!tep) {
		rc = -EIO;
		snprintf(why, len, "hwlat: cannot read the event formats");
		goto out;
	}
	struct gaps g = { tep_find_event_by_name(tep, "ftrace", "hwlat"), r };
	tracefs_iterate_raw_events(tep, inst, NULL, 0, one_gap, &g);
	tep_free(tep);
out:
	tracefs_tracer_clear(inst);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return rc;
}
