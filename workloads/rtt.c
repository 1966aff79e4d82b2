/*
 * Round trips to a peer that answers: the wake-up through IPC. The
 * measured thread sends, the peer wakes and answers, the measured thread
 * wakes again; `io` is the round-trip time. One transport per workload:
 *   pipe-rtt    `size` bytes through two pipes
 *   udp-rtt     a `size`-byte datagram over 127.0.0.1, or across a qemu
 *               guest's two network cards or veth pair (netpeer.h), or
 *               to a peer on another machine (`to = ADDR:PORT`: no peer
 *               of latlab's; `latload echo` answers there)
 *   mq-rtt      a `size`-byte POSIX message through two queues (pmqtest)
 *   sem-rtt     a POSIX semaphore posted each way, futex wake-ups (ptsematest)
 *   signal-rtt  a real-time signal each way, sigtimedwait (sigwaittest)
 * The peer is a thread or a process; its policy, priority and nice are
 * options — so the cost of waking a SCHED_OTHER peer against a SCHED_FIFO
 * one shows. The wait for the answer is bounded (timeout): a stuck or
 * dead peer gives ETIMEDOUT errors, never a stuck real-time thread.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netpeer.h"
#include "units.h"
#include "workload.h"

#define UDP_MAX 65507
#define PEER_POLL_MS 100	/* a waiting peer looks at `stop` this often */
#define SIG_PING (SIGRTMIN + 1)	/* worker -> peer */
#define SIG_PONG (SIGRTMIN + 2)	/* peer -> worker */

enum { PEER_THREAD, PEER_PROCESS };
enum { POLICY_OTHER, POLICY_FIFO };

struct rtt_opts {
	int peer;
	int policy;
	int64_t priority;
	int64_t nice;
	int64_t timeout;
	char to[OPT_STR_MAX];	/* udp-rtt: ADDR:PORT of a peer elsewhere, or "" */
};

/* What both ends see, also across fork: a shared page. */
struct rtt_shared {
	sem_t ping, pong;		/* sem-rtt */
	_Atomic int worker_tid;		/* signal-rtt: where the answer goes */
	_Atomic int stop;
};

struct rtt_state;

struct transport {
	const char *name;
	int (*open)(struct rtt_state *st);	/* before the peer starts */
	int (*ping)(struct rtt_state *st);	/* worker: send, wait for the answer */
	int (*echo)(struct rtt_state *st);	/* peer: one answer; < 0 ends it */
	void (*unblock)(struct rtt_state *st);	/* let a thread peer see stop */
};

struct rtt_state {
	const struct transport *tp;
	int to_peer, from_peer;		/* worker's ends (fds, mq descriptors) */
	int peer_in, peer_out;		/* peer's ends */
	char *buf, *peer_buf;
	int64_t size;
	pthread_t tid;
	pid_t pid;			/* the peer process, -1 a thread, 0 none */
	int peer_tid;			/* signal-rtt: the peer's thread id */
	pid_t tgid;			/* latlab's */
	struct rtt_shared *sh;
	int timeout_ms;
	int64_t timeout_ns;
	int fifo, priority, nice;	/* what the peer takes */
	int status[2];			/* the peer reports its policy here */
	struct sockaddr_in peer_addr;	/* udp: where the peer listens */
	int remote;			/* udp: the peer is elsewhere (to =): none started */
};

#define RTT_OPTIONS \
	{ .key = "peer", .type = OPT_ENUM, .offset = offsetof(struct rtt_opts, peer), \
	  .def = "thread", .help = "the peer is a", .choices = "thread|process" }, \
	{ .key = "peer_policy", .type = OPT_ENUM, \
	  .offset = offsetof(struct rtt_opts, policy), .def = "other", \
	  .help = "the peer's scheduling policy", .choices = "other|fifo" }, \
	{ .key = "peer_priority", .type = OPT_INT, \
	  .offset = offsetof(struct rtt_opts, priority), .min = 1, .max = 99, \
	  .def = "80", .help = "the peer's SCHED_FIFO priority (peer_policy = fifo)" }, \
	{ .key = "peer_nice", .type = OPT_INT, .offset = offsetof(struct rtt_opts, nice), \
	  .min = -20, .max = 19, .def = "0", .help = "the peer's nice (peer_policy = other)" }, \
	{ .key = "timeout", .type = OPT_DURATION,			\
	  .offset = offsetof(struct rtt_opts, timeout), .min = NS_PER_MS,	\
	  .max = 60 * NS_PER_S, .def = "1s", .help = "longest wait for the answer" }

static const struct opt rtt_options[] = { RTT_OPTIONS, { 0 } };

static const struct opt udp_options[] = {
	RTT_OPTIONS,
	{ .key = "to", .type = OPT_STRING, .offset = offsetof(struct rtt_opts, to), .def = "",
	  .help = "ADDR:PORT of a peer on another machine that sends each datagram back (latload echo there; the peer options then do not apply); empty: latlab's own peer" },
	{ 0 },
};

/* "ADDR:PORT" (an IPv4 address, a port 1-65535) into *sa: 0 or -EINVAL. */
static int parse_to(const char *to, struct sockaddr_in *sa)
{
	char addr[64], *end;
	const char *colon = strrchr(to, ':');
	long port;

	memset(sa, 0, sizeof(*sa));
	if (!colon || (size_t)(colon - to) >= sizeof(addr))
		return -EINVAL;
	snprintf(addr, sizeof(addr), "%.*s", (int)(colon - to), to);
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 1 || port > 65535 ||
	    inet_pton(AF_INET, addr, &sa->sin_addr) != 1)
		return -EINVAL;
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

static int udp_check(const void *opts, char *err, size_t errlen)
{
	const struct rtt_opts *o = opts;
	struct sockaddr_in sa;

	if (!o->to[0] || parse_to(o->to, &sa) == 0)
		return 0;
	snprintf(err, errlen, "udp-rtt: to = '%s': expected ADDR:PORT (an IPv4 address and a port 1-65535, where latload echo answers)",
		 o->to);
	return -EINVAL;
}

static const char *udp_net_to(const void *opts)
{
	const struct rtt_opts *o = opts;

	return o->to[0] ? o->to : NULL;
}

/* An absolute time `ns` from now on `clock`. */
static struct timespec deadline(clockid_t clock, int64_t ns)
{
	struct timespec t;

	clock_gettime(clock, &t);
	ns += t.tv_nsec;
	t.tv_sec += ns / NS_PER_S;
	t.tv_nsec = ns % NS_PER_S;
	return t;
}

static int stopping(const struct rtt_state *st)
{
	return atomic_load_explicit(&st->sh->stop, memory_order_relaxed);
}

/* ---- pipe-rtt ---------------------------------------------------------- */

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

static int pipe_open(struct rtt_state *st)
{
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

static int pipe_ping(struct rtt_state *st)
{
	size_t len = (size_t)st->size;
	int rc = xfer(st->to_peer, st->buf, len, 1, st->timeout_ms);

	return rc ? rc : xfer(st->from_peer, st->buf, len, 0, st->timeout_ms);
}

static int pipe_echo(struct rtt_state *st)
{
	size_t len = (size_t)st->size;

	if (xfer(st->peer_in, st->peer_buf, len, 0, -1) ||
	    xfer(st->peer_out, st->peer_buf, len, 1, -1))
		return -1;	/* end-of-file: the worker is gone */
	return 0;
}

static void pipe_unblock(struct rtt_state *st)
{
	if (st->to_peer >= 0) {	/* the peer sees end-of-file */
		close(st->to_peer);
		st->to_peer = -1;
	}
}

/* ---- udp-rtt ----------------------------------------------------------- */

/*
 * The peer's socket where it listens (net_peer: 127.0.0.1, or behind a
 * guest's second network card), the worker's here.
 */
static int udp_open(struct rtt_state *st)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	socklen_t len = sizeof(me);
	struct timeval tv = { 0, PEER_POLL_MS * 1000 };
	struct net_peer np;
	int rc;

	if (st->remote) {	/* a peer elsewhere: only the worker's socket */
		st->to_peer = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (st->to_peer < 0)
			return -errno;
		st->from_peer = st->to_peer;
		return connect(st->to_peer, (struct sockaddr *)&st->peer_addr,
			       sizeof(st->peer_addr)) ? -errno : 0;
	}
	rc = net_peer_get(&np);
	if (rc)
		return rc;
	me.sin_addr = np.addr;
	st->peer_in = net_peer_socket(&np, SOCK_DGRAM | SOCK_CLOEXEC);
	if (st->peer_in < 0)
		return st->peer_in;
	st->to_peer = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (st->to_peer < 0)
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

static int udp_ping(struct rtt_state *st)
{
	size_t len = (size_t)st->size;

	if (send(st->to_peer, st->buf, len, 0) != (ssize_t)len)
		return -errno;
	struct pollfd p = { st->from_peer, POLLIN, 0 };
	int rc = poll(&p, 1, st->timeout_ms);
	if (rc <= 0)
		return rc == 0 ? -ETIMEDOUT : -errno;
	ssize_t n = recv(st->from_peer, st->buf, len, 0);
	if (n < 0)
		return -errno;
	return n == (ssize_t)len ? 0 : -EMSGSIZE;
}

static int udp_echo(struct rtt_state *st)
{
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	ssize_t n = recvfrom(st->peer_in, st->peer_buf, UDP_MAX, 0,
			     (struct sockaddr *)&from, &flen);

	if (n < 0)	/* the receive timeout: look at stop */
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	sendto(st->peer_in, st->peer_buf, (size_t)n, 0, (struct sockaddr *)&from, flen);
	return 0;
}

/* ---- mq-rtt ------------------------------------------------------------ */

static int mq_make(struct rtt_state *st, int which, long msgsize)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = msgsize };
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/latlab-%d-%p-%d", (int)getpid(), (void *)st, which);
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
	if (q == (mqd_t)-1)
		return -errno;
	mq_unlink(name);	/* nothing named is left behind; the descriptors live on */
	return (int)q;
}

static int mq_open_pair(struct rtt_state *st)
{
	int a = mq_make(st, 0, (long)st->size), b;

	if (a < 0)
		return a;
	b = mq_make(st, 1, (long)st->size);
	if (b < 0) {
		mq_close((mqd_t)a);
		return b;
	}
	st->to_peer = st->peer_in = a;
	st->peer_out = st->from_peer = b;
	return 0;
}

static int mq_ping(struct rtt_state *st)
{
	struct timespec t = deadline(CLOCK_REALTIME, st->timeout_ns);

	if (mq_timedsend((mqd_t)st->to_peer, st->buf, (size_t)st->size, 0, &t))
		return -errno;
	ssize_t n = mq_timedreceive((mqd_t)st->from_peer, st->buf, (size_t)st->size, NULL, &t);
	if (n < 0)
		return -errno;
	return n == st->size ? 0 : -EMSGSIZE;
}

static int mq_echo(struct rtt_state *st)
{
	struct timespec t = deadline(CLOCK_REALTIME, PEER_POLL_MS * NS_PER_MS);
	ssize_t n = mq_timedreceive((mqd_t)st->peer_in, st->peer_buf, (size_t)st->size, NULL, &t);

	if (n < 0)
		return errno == ETIMEDOUT || errno == EINTR ? 0 : -1;
	t = deadline(CLOCK_REALTIME, PEER_POLL_MS * NS_PER_MS);
	mq_timedsend((mqd_t)st->peer_out, st->peer_buf, (size_t)n, 0, &t);
	return 0;
}

/* ---- sem-rtt ----------------------------------------------------------- */

static int sem_open_pair(struct rtt_state *st)
{
	if (sem_init(&st->sh->ping, 1, 0) || sem_init(&st->sh->pong, 1, 0))
		return -errno;
	return 0;
}

static int sem_ping(struct rtt_state *st)
{
	struct timespec t = deadline(CLOCK_MONOTONIC, st->timeout_ns);

	if (sem_post(&st->sh->ping))
		return -errno;
	while (sem_clockwait(&st->sh->pong, CLOCK_MONOTONIC, &t))
		if (errno != EINTR)
			return -errno;
	return 0;
}

static int sem_echo(struct rtt_state *st)
{
	struct timespec t = deadline(CLOCK_MONOTONIC, PEER_POLL_MS * NS_PER_MS);

	if (sem_clockwait(&st->sh->ping, CLOCK_MONOTONIC, &t))
		return errno == ETIMEDOUT || errno == EINTR ? 0 : -1;
	sem_post(&st->sh->pong);
	return 0;
}

/* ---- signal-rtt -------------------------------------------------------- */

/*
 * Both signals are blocked in the whole process before any measured
 * thread or peer exists (threads and a forked peer inherit the mask), so
 * each is only ever taken by sigtimedwait. Each goes to one thread (tgkill).
 */
static int sig_open(struct rtt_state *st)
{
	sigset_t s;

	(void)st;
	sigemptyset(&s);
	sigaddset(&s, SIG_PING);
	sigaddset(&s, SIG_PONG);
	return -pthread_sigmask(SIG_BLOCK, &s, NULL);
}

static int sig_ping(struct rtt_state *st)
{
	struct timespec t = { st->timeout_ns / NS_PER_S, st->timeout_ns % NS_PER_S };
	sigset_t s;
	int me = atomic_load_explicit(&st->sh->worker_tid, memory_order_relaxed);

	if (!me) {	/* the first cycle: where the answers must come */
		me = (int)syscall(SYS_gettid);
		atomic_store_explicit(&st->sh->worker_tid, me, memory_order_release);
	}
	if (syscall(SYS_tgkill, st->pid > 0 ? st->pid : st->tgid, st->peer_tid, SIG_PING))
		return -errno;
	sigemptyset(&s);
	sigaddset(&s, SIG_PONG);
	while (sigtimedwait(&s, NULL, &t) < 0)
		if (errno != EINTR)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
	return 0;
}

static int sig_echo(struct rtt_state *st)
{
	struct timespec t = { 0, PEER_POLL_MS * NS_PER_MS };
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIG_PING);
	if (sigtimedwait(&s, NULL, &t) < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	syscall(SYS_tgkill, st->tgid,
		atomic_load_explicit(&st->sh->worker_tid, memory_order_acquire), SIG_PONG);
	return 0;
}

/* ---- the peer, common to every transport ------------------------------ */

/*
 * The peer's first act: take its policy (FIFO priority, or nice for a
 * SCHED_OTHER peer; on Linux both apply to the calling thread only) and
 * report the result, 0 or an errno, on the status pipe. In a forked
 * child only async-signal-safe calls are used (sem_*, mq_*, tgkill are).
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
	while (rc == 0 && !stopping(st))
		if (st->tp->echo(st) < 0)
			break;
}

static void *peer_thread(void *arg)
{
	struct rtt_state *st = arg;

	st->peer_tid = (int)syscall(SYS_gettid);
	become_peer(st);
	return NULL;
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
		st->peer_tid = pid;	/* a single-threaded process */
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
	atomic_store(&st->sh->stop, 1);
	if (st->pid > 0) {
		kill(st->pid, SIGKILL);
		waitpid(st->pid, NULL, 0);
	} else if (st->pid < 0) {
		if (st->tp->unblock)
			st->tp->unblock(st);
		pthread_join(st->tid, NULL);	/* it looks at stop every 100 ms */
	}
	st->pid = 0;
}

static void close_all(struct rtt_state *st)
{
	int fds[] = { st->to_peer, st->from_peer, st->peer_in, st->peer_out };

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < i; j++)
			if (fds[j] == fds[i])
				fds[i] = -1;	/* one socket or queue both ways */
	for (int i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);	/* an mqd_t is a descriptor on Linux */
	if (st->status[0] >= 0) {
		close(st->status[0]);
		close(st->status[1]);
	}
	if (st->sh != MAP_FAILED && st->sh)
		munmap(st->sh, sizeof(*st->sh));
	free(st->buf);
	free(st->peer_buf);
	free(st);
}

static int rtt_setup(struct workload_ctx *ctx, const struct transport *tp)
{
	const struct rtt_opts *o = ctx->opts;
	struct rtt_state *st = calloc(1, sizeof(*st));
	int udp = tp->open == udp_open, rc;

	if (!st)
		return -ENOMEM;
	st->tp = tp;
	st->size = ctx->size;
	st->tgid = getpid();
	st->timeout_ns = o->timeout;
	st->timeout_ms = (int)(o->timeout / NS_PER_MS);
	st->to_peer = st->from_peer = st->peer_in = st->peer_out = -1;
	st->status[0] = st->status[1] = -1;
	if (udp && ctx->size > UDP_MAX) {
		free(st);
		return workload_fail(ctx, -EMSGSIZE,
				     "udp-rtt: size %lld is more than a UDP datagram holds (%d)",
				     (long long)ctx->size, UDP_MAX);
	}
	st->remote = udp && o->to[0] && parse_to(o->to, &st->peer_addr) == 0;
	st->sh = mmap(NULL, sizeof(*st->sh), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	st->buf = calloc(1, (size_t)ctx->size);
	st->peer_buf = calloc(1, udp ? UDP_MAX : (size_t)ctx->size);
	rc = st->sh != MAP_FAILED && st->buf && st->peer_buf ? tp->open(st) : -ENOMEM;
	if (rc == -EINVAL && tp->open == mq_open_pair) {
		close_all(st);
		return workload_fail(ctx, -EINVAL,
				     "mq-rtt: a message of %lld bytes is refused (at most /proc/sys/fs/mqueue/msgsize_max bytes)",
				     (long long)ctx->size);
	}
	if (rc == 0 && !st->remote)
		rc = start_peer(ctx, st);
	if (rc) {
		if (st->sh != MAP_FAILED)
			stop_peer(st);
		close_all(st);
		return workload_fail(ctx, rc, "%s peer: %s%s", tp->name, strerror(-rc),
				     rc == -EPERM ? " (peer_policy = fifo needs real-time rights)" : "");
	}
	ctx->priv = st;
	return 0;
}

static int64_t rtt_run(struct workload_ctx *ctx)
{
	struct rtt_state *st = ctx->priv;
	int rc = st->tp->ping(st);

	if (rc)
		return rc;
	/* bytes moved: both ways for the transports that carry `size` */
	return st->tp->open == sem_open_pair || st->tp->open == sig_open ? 0 : 2 * st->size;
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

static const struct transport tp_pipe = { "pipe-rtt", pipe_open, pipe_ping, pipe_echo, pipe_unblock };
static const struct transport tp_udp = { "udp-rtt", udp_open, udp_ping, udp_echo, NULL };
static const struct transport tp_mq = { "mq-rtt", mq_open_pair, mq_ping, mq_echo, NULL };
static const struct transport tp_sem = { "sem-rtt", sem_open_pair, sem_ping, sem_echo, NULL };
static const struct transport tp_sig = { "signal-rtt", sig_open, sig_ping, sig_echo, NULL };

static int pipe_setup(struct workload_ctx *ctx) { return rtt_setup(ctx, &tp_pipe); }
static int udp_setup(struct workload_ctx *ctx) { return rtt_setup(ctx, &tp_udp); }
static int mq_setup(struct workload_ctx *ctx) { return rtt_setup(ctx, &tp_mq); }
static int sem_setup(struct workload_ctx *ctx) { return rtt_setup(ctx, &tp_sem); }
static int sig_setup(struct workload_ctx *ctx) { return rtt_setup(ctx, &tp_sig); }

#define RTT_WORKLOAD(var, wname, whelp, wsetup, wnet) \
	const struct workload_ops var = { \
		.name = wname, .help = whelp, .options = rtt_options, \
		.opts_size = sizeof(struct rtt_opts), .primary = METRIC_RESPONSE, \
		.net = wnet, .setup = wsetup, \
		.run = rtt_run, .teardown = rtt_teardown, \
	}

const struct workload_ops workload_udp_rtt = {
	.name = "udp-rtt",
	.help = "round trip of a `size`-byte UDP datagram to an echo peer on 127.0.0.1, behind a qemu guest's second network card or veth pair, or on another machine (to = ADDR:PORT, latload echo there)",
	.options = udp_options,
	.opts_size = sizeof(struct rtt_opts),
	.check = udp_check,
	.primary = METRIC_RESPONSE,
	.net = 1,
	.net_to = udp_net_to,
	.setup = udp_setup,
	.run = rtt_run,
	.teardown = rtt_teardown,
};

RTT_WORKLOAD(workload_pipe_rtt, "pipe-rtt",
	     "round trip of `size` bytes through two pipes to an echo peer (thread or process)",
	     pipe_setup, 0);
RTT_WORKLOAD(workload_mq_rtt, "mq-rtt",
	     "round trip of a `size`-byte POSIX message through two queues (as pmqtest)",
	     mq_setup, 0);
RTT_WORKLOAD(workload_sem_rtt, "sem-rtt",
	     "a POSIX semaphore posted to a peer and back: futex wake-ups (as ptsematest)",
	     sem_setup, 0);
RTT_WORKLOAD(workload_signal_rtt, "signal-rtt",
	     "a real-time signal to a peer and back, waited for with sigtimedwait (as sigwaittest)",
	     sig_setup, 0);
