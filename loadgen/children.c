#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "children.h"

int crew_init(struct crew *c, struct load_ctx *ctx, int threads, int cap)
{
	memset(c, 0, sizeof(*c));
	c->go[0] = c->go[1] = -1;
	c->threads = threads;
	c->ctx = ctx;
	c->cap = cap;
	c->pid = calloc((size_t)cap, sizeof(*c->pid));
	c->tid = calloc((size_t)cap, sizeof(*c->tid));
	if (!c->pid || !c->tid) {
		crew_free(c);
		return -ENOMEM;
	}
	if (pipe2(c->go, O_CLOEXEC) != 0) {
		int rc = -errno;

		crew_free(c);
		return rc;
	}
	return 0;
}

void crew_wait_go(const struct crew *c)
{
	char buf[8];
	ssize_t n;

	while ((n = read(c->go[0], buf, sizeof(buf))) != 0)
		if (n < 0 && errno != EINTR)
			return;
}

struct thread_start {
	struct crew *crew;
	crew_fn fn;
	void *arg;
	int worker;
};

static void *thread_main(void *p)
{
	struct thread_start ts = *(struct thread_start *)p;

	free(p);
	crew_wait_go(ts.crew);
	ts.fn(ts.crew->ctx, ts.worker, ts.arg);
	return NULL;
}

int crew_spawn(struct crew *c, crew_fn fn, void *arg, int worker,
	       void (*close_in_child)(void *arg))
{
	if (c->n >= c->cap)
		return -ENOSPC;
	if (c->threads) {
		struct thread_start *ts = malloc(sizeof(*ts));
		int rc;

		if (!ts)
			return -ENOMEM;
		*ts = (struct thread_start){ c, fn, arg, worker };
		rc = pthread_create(&c->tid[c->n], NULL, thread_main, ts);
		if (rc) {
			free(ts);
			return -rc;
		}
		c->n++;
		return 0;
	}
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		load_child_init(parent);
		close(c->go[1]);
		if (c->ctx->ready_fd >= 0)
			close(c->ctx->ready_fd);
		if (c->ctx->go_fd >= 0)
			close(c->ctx->go_fd);
		if (close_in_child)
			close_in_child(arg);
		crew_wait_go(c);
		fn(c->ctx, worker, arg);
		_exit(0);
	}
	c->pid[c->n++] = pid;
	return 0;
}

int crew_go(struct crew *c)
{
	int rc = c->ctx->ready(c->ctx);

	close(c->go[1]);	/* every worker's read() returns 0: go */
	c->go[1] = -1;
	return rc;
}

/* Wait up to 50 ms for a child to change state (SIGCHLD is blocked). */
static void wait_sigchld(void)
{
	struct timespec t = { 0, 50 * 1000 * 1000 };
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigtimedwait(&s, NULL, &t);
}

static int wait_processes(struct crew *c)
{
	int alive = c->n, rc = 0, stopping = 0, killed = 0;

	while (alive > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);

		if (pid > 0) {
			alive--;
			/*
			 * SIGTERM is the stop reaching the whole process group
			 * (the harness signals the group); anything else before
			 * the stop is a worker that failed.
			 */
			if (WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM)
				stopping = 1;
			else if (!stopping &&
				 !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
				rc = -ECHILD;
			continue;
		}
		if (pid < 0 && errno == ECHILD)
			break;
		if (!killed && (stopping || atomic_load(c->ctx->stop))) {
			stopping = killed = 1;
			for (int i = 0; i < c->n; i++)
				kill(c->pid[i], SIGTERM);
		}
		wait_sigchld();
	}
	return rc;
}

int crew_wait(struct crew *c)
{
	if (!c->threads)
		return wait_processes(c);
	for (int i = 0; i < c->n; i++)
		pthread_join(c->tid[i], NULL);
	return 0;
}

void crew_free(struct crew *c)
{
	if (c->go[0] >= 0)
		close(c->go[0]);
	if (c->go[1] >= 0)
		close(c->go[1]);
	free(c->pid);
	free(c->tid);
	memset(c, 0, sizeof(*c));
	c->go[0] = c->go[1] = -1;
}
