/*
 * timer: many SCHED_OTHER threads with short timers: hrtimer and wake-up
 * traffic on every CPU they may use. ops = wake-ups.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "load_ops.h"

struct timer_opts {
	int64_t threads;
	int64_t interval;
};

static const struct opt timer_options[] = {
	{ .key = "threads", .type = OPT_INT,
	  .offset = offsetof(struct timer_opts, threads), .min = 1, .max = 1024,
	  .def = "16", .help = "sleeping threads" },
	{ .key = "interval", .type = OPT_DURATION,
	  .offset = offsetof(struct timer_opts, interval), .min = 1000,
	  .max = 1000000000, .def = "100us", .help = "each thread's sleep" },
	{ 0 },
};

struct timer_thread {
	struct load_ctx *ctx;
	int worker;
	int64_t interval;
};

static void *timer_main(void *p)
{
	struct timer_thread *t = p;
	struct timespec ts = { t->interval / 1000000000, t->interval % 1000000000 };

	while (!atomic_load_explicit(t->ctx->stop, memory_order_relaxed)) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		load_count(t->ctx, t->worker, 1);
	}
	return NULL;
}

static int64_t timer_run(struct load_ctx *ctx)
{
	const struct timer_opts *o = ctx->opts;
	struct timer_thread *th = calloc((size_t)o->threads, sizeof(*th));
	pthread_t *tid = calloc((size_t)o->threads, sizeof(*tid));
	int n = 0, rc = 0;

	if (!th || !tid)
		rc = -ENOMEM;
	/* go first: the threads start ticking as they are created */
	if (rc == 0)
		rc = ctx->ready(ctx);
	for (; rc == 0 && n < o->threads; n++) {
		th[n] = (struct timer_thread){ ctx, n, o->interval };
		rc = -pthread_create(&tid[n], NULL, timer_main, &th[n]);
		if (rc)
			break;
	}
	if (rc)
		atomic_store(ctx->stop, 1);
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	free(th);
	free(tid);
	return rc ? rc : (int64_t)load_total(ctx);
}

static int64_t timer_workers(const void *p)
{
	return ((const struct timer_opts *)p)->threads;
}

const struct load_ops load_timer = {
	.name = "timer",
	.help = "many SCHED_OTHER threads with short timers (ops = wake-ups)",
	.options = timer_options,
	.opts_size = sizeof(struct timer_opts),
	.workers = timer_workers,
	.run = timer_run,
};
