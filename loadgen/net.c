/*
 * net: a flood, UDP datagrams or a TCP stream, from a sender (this
 * thread) to a receiver thread: on 127.0.0.1, or in a qemu guest with a
 * network device across its two cards (netpeer.h).
 * ops = messages received (TCP: bytes received / size).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "load_ops.h"
#include "netpeer.h"

enum { NET_UDP, NET_TCP };

struct net_opts {
	int proto;
	int64_t size;
};

static const struct opt net_options[] = {
	{ .key = "proto", .type = OPT_ENUM, .offset = offsetof(struct net_opts, proto),
	  .def = "udp", .help = "transport", .choices = "udp|tcp" },
	{ .key = "size", .type = OPT_SIZE, .offset = offsetof(struct net_opts, size),
	  .min = 1, .max = 65000, .def = "1KiB", .help = "bytes per message" },
	{ 0 },
};

struct net_rx {
	struct load_ctx *ctx;
	int fd;
	int64_t size;
	int tcp;
};

static void *receiver(void *p)
{
	struct net_rx *rx = p;
	char buf[65536];
	uint64_t bytes = 0;

	while (!atomic_load_explicit(rx->ctx->stop, memory_order_relaxed)) {
		ssize_t n = recv(rx->fd, buf, sizeof(buf), 0);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;	/* the receive timeout: look at stop */
		if (n <= 0)
			break;
		if (rx->tcp) {
			bytes += (uint64_t)n;
			load_count(rx->ctx, 0, bytes / (uint64_t)rx->size);
			bytes %= (uint64_t)rx->size;
		} else {
			load_count(rx->ctx, 0, 1);
		}
	}
	return NULL;
}

/*
 * A receiving socket with a free port where the peer listens (net_peer:
 * 127.0.0.1, or behind a guest's second network card); its address in *sa.
 */
static int listen_peer(int type, struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	struct timeval tv = { 0, 100000 };
	struct net_peer np;
	int fd = net_peer_get(&np);

	if (fd)
		return fd;
	fd = net_peer_socket(&np, type | SOCK_CLOEXEC);
	if (fd < 0)
		return fd;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr = np.addr;
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) ||
	    getsockname(fd, (struct sockaddr *)sa, &len) ||
	    (type == SOCK_STREAM && listen(fd, 1)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

static int64_t net_run(struct load_ctx *ctx)
{
	const struct net_opts *o = ctx->opts;
	int type = o->proto == NET_TCP ? SOCK_STREAM : SOCK_DGRAM;
	struct net_rx rx = { .ctx = ctx, .size = o->size, .tcp = o->proto == NET_TCP };
	struct sockaddr_in sa;
	struct timeval tv = { 0, 100000 };
	pthread_t tid;
	char *buf = calloc(1, (size_t)o->size);
	int lfd, tx = -1, rc = 0;

	if (!buf)
		return -ENOMEM;
	lfd = listen_peer(type, &sa);
	if (lfd < 0) {
		free(buf);
		return lfd;
	}
	tx = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (tx < 0 || connect(tx, (struct sockaddr *)&sa, sizeof(sa)))
		rc = -errno;
	rx.fd = lfd;
	if (rc == 0 && type == SOCK_STREAM) {
		rx.fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (rx.fd < 0 ||
		    setsockopt(rx.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
			rc = -errno;
	}
	/* a send timeout too: a full buffer must not hide the stop */
	if (rc == 0 && setsockopt(tx, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		rc = -errno;
	if (rc == 0)
		rc = -pthread_create(&tid, NULL, receiver, &rx);
	if (rc == 0) {
		rc = ctx->ready(ctx);
		while (rc == 0 &&
		       !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
			if (send(tx, buf, (size_t)o->size, 0) < 0 &&
			    errno != EAGAIN && errno != EINTR &&
			    errno != ENOBUFS && errno != ECONNREFUSED)
				rc = -errno;
		}
		atomic_store(ctx->stop, 1);
		pthread_join(tid, NULL);
	}
	if (tx >= 0)
		close(tx);
	if (rx.fd >= 0 && rx.fd != lfd)
		close(rx.fd);
	close(lfd);
	free(buf);
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_net = {
	.name = "net",
	.help = "UDP or TCP flood on 127.0.0.1, or across a qemu guest's two network cards (ops = messages received)",
	.net = 1,
	.options = net_options,
	.opts_size = sizeof(struct net_opts),
	.run = net_run,
};
