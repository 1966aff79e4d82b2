/*
 * echo: the far end of a round trip measured on another machine —
 * udp-rtt with `to = ADDR:PORT` there (docs/own-code.md, "A peer on
 * another machine"). Every datagram that arrives on `port` is sent back
 * to where it came from, at once, from a thread that sleeps in the
 * receive; with `priority` > 0 that thread is SCHED_FIFO, so that the
 * answer is not late for this machine's own load. Several instances
 * share the port (SO_REUSEPORT). ops = datagrams answered.
 *
 *   latload echo --port 7777                   until SIGTERM
 *   latload echo --port 7777 --priority 80     the answer at FIFO 80
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "load_ops.h"

#define ECHO_MAX 65507		/* the largest UDP datagram */
#define ECHO_POLL_US 100000	/* a waiting receive looks at stop this often */

struct echo_opts {
	int64_t port;
	char bind[OPT_STR_MAX];
	int64_t priority;
};

static const struct opt echo_options[] = {
	{ .key = "port", .type = OPT_INT, .offset = offsetof(struct echo_opts, port),
	  .min = 1, .max = 65535, .def = "7777", .help = "the UDP port it answers on" },
	{ .key = "bind", .type = OPT_STRING, .offset = offsetof(struct echo_opts, bind),
	  .def = "0.0.0.0", .help = "the IPv4 address it listens on (0.0.0.0: all)" },
	{ .key = "priority", .type = OPT_INT, .offset = offsetof(struct echo_opts, priority),
	  .min = 0, .max = 99, .def = "0",
	  .help = "SCHED_FIFO priority of the answering thread (0: SCHED_OTHER); it sleeps in each receive" },
	{ 0 },
};

static int echo_check(const void *opts, char *err, size_t errlen)
{
	const struct echo_opts *o = opts;
	struct in_addr a;

	if (inet_pton(AF_INET, o->bind, &a) == 1)
		return 0;
	snprintf(err, errlen, "echo: bind = '%s' is not an IPv4 address", o->bind);
	return -EINVAL;
}

/* The socket on bind:port, its receive bounded: fd or -errno. */
static int echo_socket(const struct echo_opts *o)
{
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons((uint16_t)o->port) };
	struct timeval tv = { 0, ECHO_POLL_US };
	int one = 1, fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -errno;
	inet_pton(AF_INET, o->bind, &me.sin_addr);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

static int64_t echo_run(struct load_ctx *ctx)
{
	const struct echo_opts *o = ctx->opts;
	static char buf[ECHO_MAX];
	int fd = echo_socket(o), rc;

	if (fd < 0) {
		fprintf(stderr, "latload: echo: %s:%lld: %s\n", o->bind, (long long)o->port,
			strerror(-fd));
		return fd;
	}
	if (o->priority > 0) {
		struct sched_param sp = { .sched_priority = (int)o->priority };

		if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
			rc = -errno;
			fprintf(stderr, "latload: echo: SCHED_FIFO %lld: %s (real-time rights: root, CAP_SYS_NICE or ulimit -r)\n",
				(long long)o->priority, strerror(errno));
			close(fd);
			return rc;
		}
	}
	rc = ctx->ready(ctx);
	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		struct sockaddr_in from;
		socklen_t flen = sizeof(from);
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;	/* the bound: look at stop */
			rc = -errno;
			break;
		}
		if (sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, flen) == n)
			load_count(ctx, 0, 1);
	}
	close(fd);
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_echo = {
	.name = "echo",
	.help = "a UDP echo responder on port (the far end of udp-rtt's to = ADDR:PORT on another machine; ops = datagrams answered)",
	.options = echo_options,
	.opts_size = sizeof(struct echo_opts),
	.check = echo_check,
	.run = echo_run,
};
