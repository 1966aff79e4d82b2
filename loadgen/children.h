/*
 * Workers of a load as child processes or threads, started together
 * through a go pipe (each worker reads it until end-of-file, so closing
 * the write end starts all of them at once), and stopped together.
 */
#ifndef LATLAB_CHILDREN_H
#define LATLAB_CHILDREN_H

#include <pthread.h>
#include <sys/types.h>

#include "load_ops.h"

struct crew {
	int threads;		/* 1: pthreads, 0: processes */
	int n, cap;
	pid_t *pid;
	pthread_t *tid;
	int go[2];		/* go pipe */
	struct load_ctx *ctx;
};

typedef void (*crew_fn)(struct load_ctx *ctx, int worker, void *arg);

/* An empty crew with its go pipe. 0 or -errno. */
int crew_init(struct crew *c, struct load_ctx *ctx, int threads, int cap);

/*
 * Start worker number `worker` running fn(ctx, worker, arg) after go. A
 * child process calls `close_in_child(arg)` first (to drop descriptors it
 * must not hold) and exits when fn returns. 0 or -errno.
 */
int crew_spawn(struct crew *c, crew_fn fn, void *arg, int worker,
	       void (*close_in_child)(void *arg));

/* Report ready to the harness, wait for its go, release the workers. */
int crew_go(struct crew *c);

/*
 * Wait for every worker: until they all ended by themselves, or until
 * *ctx->stop, then SIGTERM the processes (threads watch the flag and
 * end by themselves). Returns 0, or -ECHILD when a worker process died
 * of something else before the stop.
 */
int crew_wait(struct crew *c);

void crew_free(struct crew *c);

/* In a worker: block until go (the read end hits end-of-file). */
void crew_wait_go(const struct crew *c);

#endif
