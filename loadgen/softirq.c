/*
 * softirq: a known softirq storm. Loopback TCP connections, in batches,
 * whose keepalive timers expire together: every `every` one batch's
 * timers run in one TIMER softirq, each sending a probe its peer
 * answers, and both segments cross loopback in NET_RX softirqs. The
 * work is the kernel's, in interrupt context on the CPU whose tick
 * expires the timers (the load's CPUs, where they are armed, unless
 * the kernel moves an idle CPU's timers to a busy one:
 * kernel.timer_migration); the process itself sleeps. A measured thread
 * woken inside the storm waits for it on a kernel that runs softirqs at
 * interrupt exit (not PREEMPT_RT, where they run in threads), and a
 * spike capture must call that softirq. Storms come at the tick: with
 * a period that divides the tick's, a storm shorter than the period
 * meets the wake-ups every time or never (docs/guide.md).
 *
 * Keepalive times are whole seconds (1 s is the kernel's least), so a
 * connection's probe comes once a second; `every` below a second is had
 * with 1 s / every batches, each aligned at its own slot by one byte
 * sent on each of its connections (the peer's ACK resets the idle time
 * the timer counts from), the last batch just before the load says it
 * is ready: the first storm comes about `every` after that, then one
 * every `every` (a batch a second). The timer wheel rounds each expiry
 * up to its level's granularity (32-64 ms at 1 s), so storms are
 * `every` apart on average, not exactly. ops = segments the connections
 * sent (TCP_INFO's tcpi_segs_out), the probes and the aligning bytes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>	/* tcp_info with tcpi_segs_out (glibc's lacks it) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "load_ops.h"
#include "log.h"
#include "units.h"

struct softirq_opts {
	int64_t connections;
	int64_t every;
};

static const struct opt softirq_options[] = {
	{ .key = "connections", .type = OPT_INT,
	  .offset = offsetof(struct softirq_opts, connections), .min = 1, .max = 16384,
	  .def = "256", .help = "loopback TCP connections in all, split evenly among the batches (two descriptors each)" },
	{ .key = "every", .type = OPT_DURATION,
	  .offset = offsetof(struct softirq_opts, every), .min = 10 * NS_PER_MS,
	  .max = NS_PER_S, .def = "100ms",
	  .help = "how often a storm comes: 1 s / every batches of connections, each probing once a second" },
	{ 0 },
};

static int softirq_check(const void *p, char *err, size_t len)
{
	const struct softirq_opts *o = p;
	int64_t batches = NS_PER_S / o->every;

	if (NS_PER_S % o->every) {
		snprintf(err, len, "every = %lld ns does not divide 1 s: keepalive probes come once a second, in 1 s / every batches",
			 (long long)o->every);
		return -EINVAL;
	}
	if (o->connections < batches) {
		snprintf(err, len, "connections = %lld is fewer than the %lld batches every = %lld ns makes: one connection a batch at least",
			 (long long)o->connections, (long long)batches, (long long)o->every);
		return -EINVAL;
	}
	return 0;
}

struct conn {
	int client, server;
	uint32_t segs0;	/* the client's tcpi_segs_out once connected */
};

static uint32_t segs_out(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 ? ti.tcpi_segs_out : 0;
}

/*
 * Room for n connections' descriptors: the soft limit raised toward the
 * hard one. 0, LOAD_SAID (a hard limit too low, said) or -errno.
 */
static int room_for(int64_t n)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)(2 * n + 64);

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max < need) {
		log_error("softirq: connections = %lld need %llu file descriptors, and this process may have %llu (RLIMIT_NOFILE's hard limit)",
			  (long long)n, (unsigned long long)need, (unsigned long long)rl.rlim_max);
		return LOAD_SAID;
	}
	rl.rlim_cur = need;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

/* One connection to the listener at sa: the client's end and the accepted one. */
static int connect_one(int lfd, const struct sockaddr_in *sa, struct conn *c)
{
	static const int one = 1, second = 1;

	c->client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->client < 0)
		return -errno;
	if (connect(c->client, (const struct sockaddr *)sa, sizeof(*sa)))
		return -errno;
	c->server = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (c->server < 0)
		return -errno;
	/* probes once a second after a second idle; the peer answers them */
	if (setsockopt(c->client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(c->client, IPPROTO_TCP, TCP_KEEPIDLE, &second, sizeof(second)) ||
	    setsockopt(c->client, IPPROTO_TCP, TCP_KEEPINTVL, &second, sizeof(second)))
		return -errno;
	c->segs0 = segs_out(c->client);
	return 0;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { t / NS_PER_S, t % NS_PER_S };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* c idle from now on, its keepalive on: its probes a second apart from now. */
static int probe_from_now(const struct conn *c)
{
	static const int one = 1;

	if (send(c->client, "k", 1, 0) != 1 ||
	    setsockopt(c->client, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)))
		return -errno;
	return 0;
}

static int64_t softirq_run(struct load_ctx *ctx)
{
	const struct softirq_opts *o = ctx->opts;
	int64_t batches = NS_PER_S / o->every, made = 0;
	struct conn *c = calloc((size_t)o->connections, sizeof(*c));
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	int lfd = -1, rc = c ? room_for(o->connections) : -ENOMEM;

	if (rc == 0) {
		lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		memset(&sa, 0, sizeof(sa));
		sa.sin_family = AF_INET;
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    getsockname(lfd, (struct sockaddr *)&sa, &salen) || listen(lfd, 64))
			rc = -errno;
	}
	for (; rc == 0 && made < o->connections; made++) {
		c[made].client = c[made].server = -1;
		rc = connect_one(lfd, &sa, &c[made]);
	}
	/*
	 * batch b (connections i = b mod batches) aligned at start + b x
	 * every, before ready: its first storm a second later, so storms
	 * come from about (1 s - every x (batches - 1)) after go
	 */
	int64_t start = units_now_ns();

	for (int64_t b = 0; rc == 0 && b < batches &&
	     !atomic_load_explicit(ctx->stop, memory_order_relaxed); b++) {
		sleep_until(start + b * o->every);
		for (int64_t i = b; rc == 0 && i < o->connections; i += batches)
			rc = probe_from_now(&c[i]);
	}
	if (rc == 0)
		rc = ctx->ready(ctx);
	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed))
		sleep_until(units_now_ns() + 50 * NS_PER_MS);	/* the kernel does the work */
	for (int64_t i = 0; i < made; i++) {
		if (c[i].client >= 0) {
			load_count(ctx, 0, segs_out(c[i].client) - c[i].segs0);
			close(c[i].client);
		}
		if (c[i].server >= 0)
			close(c[i].server);
	}
	if (lfd >= 0)
		close(lfd);
	free(c);
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_softirq = {
	.name = "softirq",
	.help = "a softirq storm every `every`: loopback TCP keepalive probes that expire together (TIMER and NET_RX softirqs; ops = segments sent)",
	.options = softirq_options,
	.opts_size = sizeof(struct softirq_opts),
	.check = softirq_check,
	.run = softirq_run,
};
