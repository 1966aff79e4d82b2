/*
 * pipe-rtt and udp-rtt: a round trip of `size` bytes to a peer that echoes
 * them, over two pipes or two UDP sockets on 127.0.0.1. The peer is a
 * thread or a process; its policy, priority and nice are options — so the
 * cost of waking a SCHED_OTHER peer against a SCHED_FIFO one shows.
 * `io` is the round-trip time. The wait for the echo is bounded (timeout):
 * a stuck peer gives ETIMEDOUT errors, never a stuck real-time thread.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "units.h"
#include "workload.h"

#define UDP_MAX 65507

enum { PEER_THREAD, PEER_PROCESS };
enum { POLICY_OTHER, POLICY_FIFO };

struct rtt_opts {
	int peer;
	int policy;
	int64_t priority;
	int64_t nice;
	int64_t timeout;
};

struct rtt_state {
	int udp;
	int to_peer, from_peer;		/* worker's ends */
	int peer_in, peer_out;		/* peer's ends */
	char *buf, *peer_buf;
	int64_t size;
	pthread_t tid;
	pid_t pid;
	_Atomic int stop;
	int timeout_ms;
	int fifo, priority, nice;	/* what the peer takes */
	int status[2];			/* the peer reports its policy here */
	struct sockaddr_in peer_addr;	/* udp: where the peer listens */
};

static const struct opt rtt_options[] = {
	{ .key = "peer", .type = OPT_ENUM, .offset = offsetof(struct rtt_opts, peer),
	  .def = "thread", .help = "the echo peer is a", .choices = "thread|process" },
	{ .key = "peer_policy", .type = OPT_ENUM,
	  .offset = offsetof(struct rtt_opts, policy), .def = "other",
	  .help = "the peer's scheduling policy", .choices = "other|fifo" },
	{ .key = "peer_priority", .type = OPT_INT,
	  .offset = offsetof(struct rtt_opts, priority), .min = 1, .max = 99,
	  .def = "80", .help = "the peer's SCHED_FIFO priority (peer_policy = fifo)" },
	{ .key = "peer_nice", .type = OPT_INT, .offset = offsetof(struct rtt_opts, nice),
	  .min = -20, .max = 19, .def = "0", .help = "the peer's nice (peer_policy = other)" },
	{ .key = "timeout", .type = OPT_DURATION,
	  .offset = offsetof(struct rtt_opts, timeout), .min = NS_PER_MS,
	  .max = 60 * NS_PER_S, .def = "1s", .help = "longest wait for the echo" },
	{ 0 },
};

/* Move `len` bytes, waiting at most timeout_ms for each step. */
static int xfer(int fd, char *buf, size_t len, int writing, int timeout_ms)
{
	while (len > 0) {
		struct pollfd p = { fd, writing ? POLLOUT : POLLIN, 0 };
		int r = poll(&p, 1, timeout_ms);

		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0)
			return errno == EINTR ? 0 : -errno;
		ssize_t n = writing ? write(fd, buf, len) : read(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;	/* the peer closed its end */
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The echo loop; in a forked child only async-signal-safe calls are used. */
static void echo_loop(struct rtt_state *st)
{
	while (!atomic_load_explicit(&st->stop, memory_order_relaxed)) {
		if (st->udp) {
			struct sockaddr_in from;
			socklen_t flen = sizeof(from);
			ssize_t n = recvfrom(st->peer_in, st->peer_buf, UDP_MAX, 0,
					     (struct sockaddr *)&from, &flen);

			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;	/* receive timeout: look at stop */
			if (n < 0)
				return;
			sendto(st->peer_in, st->peer_buf, (size_t)n, 0,
			       (struct sockaddr *)&from, flen);
		} else {
			if (xfer(st->peer_in, st->peer_buf, (size_t)st->size, 0, -1) ||
			    xfer(st->peer_out, st->peer_buf, (size_t)st->size, 1, -1))
				return;	/* end-of-file: the worker is gone */
		}
	}
}

/*
 * The peer's first act: take its policy (FIFO priority, or nice for a
 * SCHED_OTHER peer; on Linux both apply to the calling thread only) and
 * report the result, 0 or an errno, on the status pipe.
 */
static void become_peer(struct rtt_state *st)
{
	struct sched_param sp = { .sched_priority = st->priority };
	int rc = 0;

	if (st->fifo)
		rc = sched_setscheduler(0, SCHED_FIFO, &sp) ? errno : 0;
	else if (st->nice != 0)
		rc = setpriority(PRIO_PROCESS, 0, st->nice) ? errno : 0;
	if (write(st->status[1], &rc, sizeof(rc)) != sizeof(rc))
		rc = EIO;
	if (rc == 0)
		echo_loop(st);
}

static void *peer_thread(void *arg)
{
	become_peer(arg);
	return NULL;
}

static int open_channel(struct rtt_state *st)
{
	if (!st->udp) {
		int a[2], b[2];

		if (pipe2(a, O_CLOEXEC))
			return -errno;
		if (pipe2(b, O_CLOEXEC)) {
			int rc = -errno;

			close(a[0]);
			close(a[1]);
			return rc;
		}
		st->to_peer = a[1];
		st->peer_in = a[0];
		st->peer_out = b[1];
		st->from_peer = b[0];
		/* the worker's writes must not block forever either */
		fcntl(st->to_peer, F_SETFL, O_NONBLOCK);
		fcntl(st->from_peer, F_SETFL, O_NONBLOCK);
		return 0;
	}
	struct sockaddr_in me = { .sin_family = AF_INET };
	socklen_t len = sizeof(me);
	struct timeval tv = { 0, 100000 };

	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	st->peer_in = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	st->to_peer = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (st->peer_in < 0 || st->to_peer < 0)
		return -errno;
	if (bind(st->peer_in, (struct sockaddr *)&me, sizeof(me)) ||
	    getsockname(st->peer_in, (struct sockaddr *)&st->peer_addr, &len) ||
	    setsockopt(st->peer_in, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(st->to_peer, (struct sockaddr *)&st->peer_addr, len))
		return -errno;
	st->from_peer = st->to_peer;
	st->peer_out = st->peer_in;
	return 0;
}

static int start_peer(struct workload_ctx *ctx, struct rtt_state *st)
{
	const struct rtt_opts *o = ctx->opts;
	int rc, peer_rc;

	st->fifo = o->policy == POLICY_FIFO;
	st->priority = (int)o->priority;
	st->nice = (int)o->nice;
	if (pipe2(st->status, O_CLOEXEC))
		return -errno;
	if (o->peer == PEER_PROCESS) {
		pid_t parent = getpid();
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			/* async-signal-safe calls only from here on */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			become_peer(st);
			_exit(0);
		}
		st->pid = pid;
	} else {
		rc = pthread_create(&st->tid, NULL, peer_thread, st);
		if (rc)
			return -rc;
		st->pid = -1;	/* a thread */
	}
	/* wait for the peer's report (bounded) */
	struct pollfd p = { st->status[0], POLLIN, 0 };
	if (poll(&p, 1, 5000) != 1 ||
	    read(st->status[0], &peer_rc, sizeof(peer_rc)) != sizeof(peer_rc))
		return -ETIMEDOUT;
	return -peer_rc;
}

static void stop_peer(struct rtt_state *st)
{
	atomic_store(&st->stop, 1);
	if (st->pid > 0) {
		kill(st->pid, SIGKILL);
		waitpid(st->pid, NULL, 0);
	} else if (st->pid < 0) {
		/* the pipe peer sees end-of-file; the UDP peer its timeout */
		if (!st->udp && st->to_peer >= 0) {
			close(st->to_peer);
			st->to_peer = -1;
		}
		pthread_join(st->tid, NULL);
	}
	st->pid = 0;
}

static void close_all(struct rtt_state *st)
{
	int fds[] = { st->to_peer, st->from_peer, st->peer_in, st->peer_out };

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < i; j++)
			if (fds[j] == fds[i])
				fds[i] = -1;	/* UDP uses one socket both ways */
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (st->status[0] >= 0) {
		close(st->status[0]);
		close(st->status[1]);
	}
	free(st->buf);
	free(st->peer_buf);
	free(st);
}

static int rtt_setup(struct workload_ctx *ctx, int udp)
{
	const struct rtt_opts *o = ctx->opts;
	struct rtt_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	st->udp = udp;
	st->size = ctx->size;
	st->timeout_ms = (int)(o->timeout / NS_PER_MS);
	st->to_peer = st->from_peer = st->peer_in = st->peer_out = -1;
	st->status[0] = st->status[1] = -1;
	if (udp && ctx->size > UDP_MAX) {
		free(st);
		return workload_fail(ctx, -EMSGSIZE,
				     "udp-rtt: size %lld is more than a UDP datagram holds (%d)",
				     (long long)ctx->size, UDP_MAX);
	}
	st->buf = calloc(1, (size_t)ctx->size);
	st->peer_buf = calloc(1, udp ? UDP_MAX : (size_t)ctx->size);
	rc = st->buf && st->peer_buf ? open_channel(st) : -ENOMEM;
	if (rc == 0)
		rc = start_peer(ctx, st);
	if (rc) {
		stop_peer(st);
		close_all(st);
		return workload_fail(ctx, rc, "%s peer: %s%s", udp ? "udp-rtt" : "pipe-rtt",
				     strerror(-rc),
				     rc == -EPERM ? " (peer_policy = fifo needs real-time rights)" : "");
	}
	ctx->priv = st;
	return 0;
}

static int pipe_setup(struct workload_ctx *ctx)
{
	return rtt_setup(ctx, 0);
}

static int udp_setup(struct workload_ctx *ctx)
{
	return rtt_setup(ctx, 1);
}

static int64_t rtt_run(struct workload_ctx *ctx)
{
	struct rtt_state *st = ctx->priv;
	size_t len = (size_t)st->size;
	int rc;

	if (!st->udp) {
		rc = xfer(st->to_peer, st->buf, len, 1, st->timeout_ms);
		if (rc == 0)
			rc = xfer(st->from_peer, st->buf, len, 0, st->timeout_ms);
		return rc ? rc : (int64_t)(2 * len);
	}
	if (send(st->to_peer, st->buf, len, 0) != (ssize_t)len)
		return -errno;
	struct pollfd p = { st->from_peer, POLLIN, 0 };
	rc = poll(&p, 1, st->timeout_ms);
	if (rc <= 0)
		return rc == 0 ? -ETIMEDOUT : -errno;
	ssize_t n = recv(st->from_peer, st->buf, len, 0);
	if (n < 0)
		return -errno;
	return n == (ssize_t)len ? (int64_t)(2 * len) : -EMSGSIZE;
}

static void rtt_teardown(struct workload_ctx *ctx)
{
	struct rtt_state *st = ctx->priv;

	if (!st)
		return;
	stop_peer(st);
	close_all(st);
	ctx->priv = NULL;
}

const struct workload_ops workload_pipe_rtt = {
	.name = "pipe-rtt",
	.help = "round trip of `size` bytes through two pipes to an echo peer (thread or process)",
	.options = rtt_options,
	.opts_size = sizeof(struct rtt_opts),
	.setup = pipe_setup,
	.run = rtt_run,
	.teardown = rtt_teardown,
};

const struct workload_ops workload_udp_rtt = {
	.name = "udp-rtt",
	.help = "round trip of a `size`-byte UDP datagram to an echo peer on 127.0.0.1",
	.options = rtt_options,
	.opts_size = sizeof(struct rtt_opts),
	.setup = udp_setup,
	.run = rtt_run,
	.teardown = rtt_teardown,
};
