/*
 * pi-mutex (seed 003, priority inversion): the measured SCHED_FIFO thread
 * takes a mutex that `contenders` SCHED_OTHER threads (nice -5 and 0 by
 * default) take too. Each contender holds it while doing real I/O (reads
 * of /dev/urandom for `hold`) and, by default, retakes it at once — the
 * seed's busylooping PRIO -5 and PRIO 0 processes — on the CPUs other than
 * the measured thread's.
 *
 * protocol = none: a plain mutex. When a holder unlocks, the kernel wakes
 * the waiting FIFO thread, but a contender that is running on another CPU
 * takes the lock again before the waiter gets to run: the FIFO thread can
 * lose the lock to SCHED_OTHER threads again and again.
 * protocol = inherit: PTHREAD_PRIO_INHERIT (a PI futex, an rt_mutex in
 * the kernel). The lock is handed to the highest-priority waiter, and the
 * holder runs at that priority until it unlocks: the wait is bounded by
 * one hold.
 * `io` is the lock wait plus the measured thread's own I/O in the lock
 * (`size` bytes of /dev/urandom). docs/performance.md shows both.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "units.h"
#include "workload.h"

#define MAX_CONTENDERS 16

enum { PROTO_INHERIT, PROTO_NONE };
enum { WHERE_OTHER, WHERE_SAME, WHERE_ANY };

struct pi_opts {
	int64_t contenders;
	char nices[OPT_STR_MAX];
	int protocol;
	int64_t hold, gap;
	int where;
};

struct pi_state;

struct contender {
	struct pi_state *st;
	pthread_t tid;
	int nice;
	int rc;			/* setting its nice: 0 or errno */
};

struct pi_state {
	pthread_mutex_t lock;
	int fd;			/* /dev/urandom */
	char *buf;
	_Atomic int stop;
	int64_t hold, gap;
	int n;
	_Atomic int ready;	/* contenders that have set their nice */
	struct contender c[MAX_CONTENDERS];
};

static const struct opt pi_options[] = {
	{ .key = "contenders", .type = OPT_INT,
	  .offset = offsetof(struct pi_opts, contenders), .min = 1,
	  .max = MAX_CONTENDERS, .def = "2",
	  .help = "SCHED_OTHER threads that share the lock" },
	{ .key = "nices", .type = OPT_STRING, .offset = offsetof(struct pi_opts, nices),
	  .def = "-5 0", .help = "nice of each contender, in turn (blank-separated)" },
	{ .key = "protocol", .type = OPT_ENUM,
	  .offset = offsetof(struct pi_opts, protocol), .def = "inherit",
	  .help = "PTHREAD_PRIO_INHERIT, or a plain mutex", .choices = "inherit|none" },
	{ .key = "hold", .type = OPT_DURATION, .offset = offsetof(struct pi_opts, hold),
	  .min = NS_PER_US, .max = NS_PER_S, .def = "200us",
	  .help = "I/O a contender does holding the lock" },
	{ .key = "gap", .type = OPT_DURATION, .offset = offsetof(struct pi_opts, gap),
	  .min = 0, .max = NS_PER_S, .def = "0ns",
	  .help = "CPU work a contender does between holds (0: busyloop on the lock)" },
	{ .key = "contender_cpus", .type = OPT_ENUM,
	  .offset = offsetof(struct pi_opts, where), .def = "other",
	  .help = "where contenders run: the CPUs other than the measured one's, the same, or any",
	  .choices = "other|same|any" },
	{ 0 },
};

static void *contender_main(void *arg)
{
	struct contender *c = arg;
	struct pi_state *st = c->st;
	char chunk[64];

	/* on Linux the nice of PRIO_PROCESS 0 is the calling thread's own */
	c->rc = setpriority(PRIO_PROCESS, 0, c->nice) ? errno : 0;
	atomic_fetch_add(&st->ready, 1);
	while (!atomic_load_explicit(&st->stop, memory_order_relaxed)) {
		pthread_mutex_lock(&st->lock);
		int64_t end = mono_ns() + st->hold;
		while (mono_ns() < end)
			if (read(st->fd, chunk, sizeof(chunk)) < 0)
				break;
		pthread_mutex_unlock(&st->lock);
		end = mono_ns() + st->gap;
		while (mono_ns() < end)
			;	/* SCHED_OTHER: the scheduler shares the CPU */
	}
	return NULL;
}

static int parse_nices(const char *text, int *nice, int n)
{
	char buf[OPT_STR_MAX], *save, *tok;
	int k = 0, v[MAX_CONTENDERS];

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ,\t", &save); tok && k < MAX_CONTENDERS;
	     tok = strtok_r(NULL, " ,\t", &save)) {
		int64_t x;

		if (units_parse_int(tok, &x) || x < -20 || x > 19)
			return -EINVAL;
		v[k++] = (int)x;
	}
	if (k == 0)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		nice[i] = v[i % k];
	return 0;
}

static int pi_check(const void *p, char *err, size_t len)
{
	const struct pi_opts *o = p;
	int nice[MAX_CONTENDERS];

	if (parse_nices(o->nices, nice, (int)o->contenders) == 0)
		return 0;
	snprintf(err, len, "nices = '%s': numbers from -20 to 19", o->nices);
	return -EINVAL;
}

static void stop_contenders(struct pi_state *st, int started)
{
	atomic_store(&st->stop, 1);
	for (int i = 0; i < started; i++)
		pthread_join(st->c[i].tid, NULL);
}

static void free_state(struct pi_state *st)
{
	if (st->fd >= 0)
		close(st->fd);
	pthread_mutex_destroy(&st->lock);
	free(st->buf);
	free(st);
}

static int pi_setup(struct workload_ctx *ctx)
{
	const struct pi_opts *o = ctx->opts;
	struct pi_state *st = calloc(1, sizeof(*st));
	pthread_mutexattr_t ma;
	pthread_attr_t ta;
	int nice[MAX_CONTENDERS], started = 0, rc;

	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->n = (int)o->contenders;
	st->hold = o->hold;
	st->gap = o->gap;
	if (parse_nices(o->nices, nice, st->n)) {
		free(st);
		return workload_fail(ctx, -EINVAL,
				     "nices = '%s': numbers from -20 to 19", o->nices);
	}
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, o->protocol == PROTO_INHERIT
					   ? PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE);
	rc = -pthread_mutex_init(&st->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	st->fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	st->buf = calloc(1, (size_t)ctx->size);
	if (rc == 0 && (st->fd < 0 || !st->buf))
		rc = st->fd < 0 ? -errno : -ENOMEM;
	if (rc) {
		free_state(st);
		return workload_fail(ctx, rc, "pi-mutex: %s", strerror(-rc));
	}
	pthread_attr_init(&ta);
	if (o->where == WHERE_SAME && ctx->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(ctx->cpu, &one);
		pthread_attr_setaffinity_np(&ta, sizeof(one), &one);
	} else if (o->where == WHERE_OTHER && ctx->cpu >= 0) {
		cpu_set_t others;

		sched_getaffinity(0, sizeof(others), &others);
		CPU_CLR(ctx->cpu, &others);
		if (CPU_COUNT(&others) > 0)
			pthread_attr_setaffinity_np(&ta, sizeof(others), &others);
	}
	for (; started < st->n; started++) {
		st->c[started] = (struct contender){ st, 0, nice[started], 0 };
		rc = -pthread_create(&st->c[started].tid, &ta, contender_main,
				     &st->c[started]);
		if (rc)
			break;
	}
	pthread_attr_destroy(&ta);
	/* each contender reports its nice first (setup may wait; bounded) */
	for (int waited = 0; rc == 0 && atomic_load(&st->ready) < st->n &&
			     waited < 5000; waited++) {
		struct timespec ms = { 0, NS_PER_MS };

		nanosleep(&ms, NULL);
	}
	for (int i = 0; rc == 0 && i < st->n; i++)
		if (st->c[i].rc) {
			rc = -st->c[i].rc;
			workload_fail(ctx, rc,
				      "pi-mutex: nice %d refused: %s (negative nice needs CAP_SYS_NICE)",
				      st->c[i].nice, strerror(-rc));
		}
	if (rc == 0 && atomic_load(&st->ready) < st->n)
		rc = workload_fail(ctx, -ETIMEDOUT, "pi-mutex: contenders did not start");
	if (rc) {
		stop_contenders(st, started);
		if (!ctx->why[0])
			workload_fail(ctx, rc, "pi-mutex: contender: %s",
				      strerror(-rc));
		free_state(st);
		return rc;
	}
	ctx->priv = st;
	return 0;
}

static int64_t pi_run(struct workload_ctx *ctx)
{
	struct pi_state *st = ctx->priv;
	ssize_t n;
	int rc = pthread_mutex_lock(&st->lock);

	if (rc)
		return -rc;	/* pthread_* return the error */
	n = read(st->fd, st->buf, (size_t)ctx->size);
	rc = n < 0 ? -errno : 0;
	pthread_mutex_unlock(&st->lock);
	return rc ? rc : n;
}

static void pi_teardown(struct workload_ctx *ctx)
{
	struct pi_state *st = ctx->priv;

	if (!st)
		return;
	stop_contenders(st, st->n);
	free_state(st);
	ctx->priv = NULL;
}

const struct workload_ops workload_pi_mutex = {
	.name = "pi-mutex",
	.help = "lock shared with SCHED_OTHER contenders doing I/O in it (priority inversion)",
	.options = pi_options,
	.opts_size = sizeof(struct pi_opts),
	.check = pi_check,
	.primary = METRIC_RESPONSE,
	.setup = pi_setup,
	.run = pi_run,
	.teardown = pi_teardown,
};
