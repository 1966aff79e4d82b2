#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netpeer.h"

int net_peer_get(struct net_peer *p)
{
	const char *env = getenv(NETPEER_ENV);
	char addr[64];

	memset(p, 0, sizeof(*p));
	p->addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!env || !*env)
		return 0;
	const char *sp = strchr(env, ' ');

	if (!sp || (size_t)(sp - env) >= sizeof(p->ns) || env[0] != '/' ||
	    strlen(sp + 1) >= sizeof(addr))
		return -EINVAL;
	snprintf(p->ns, sizeof(p->ns), "%.*s", (int)(sp - env), env);
	snprintf(addr, sizeof(addr), "%s", sp + 1);
	/* a third word: the pair, not a card */
	char *kind = strchr(addr, ' ');

	if (kind) {
		*kind++ = '\0';
		if (strcmp(kind, "veth") != 0)
			return -EINVAL;
	}
	if (inet_pton(AF_INET, addr, &p->addr) != 1)
		return -EINVAL;
	p->device = !kind;
	p->veth = !!kind;
	return 0;
}

int net_peer_socket(const struct net_peer *p, int type)
{
	int own, peer, fd, rc;

	if (!p->device && !p->veth) {
		fd = socket(AF_INET, type, 0);
		return fd < 0 ? -errno : fd;
	}
	own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	peer = open(p->ns, O_RDONLY | O_CLOEXEC);
	if (own < 0 || peer < 0) {
		rc = -errno;
		goto out;
	}
	if (setns(peer, CLONE_NEWNET) != 0) {
		rc = -errno;
		goto out;
	}
	fd = socket(AF_INET, type, 0);
	rc = fd < 0 ? -errno : fd;
	if (setns(own, CLONE_NEWNET) != 0) {
		/* a thread left in the peer's namespace would send there */
		if (fd >= 0)
			close(fd);
		rc = -errno;
	}
out:
	if (own >= 0)
		close(own);
	if (peer >= 0)
		close(peer);
	return rc;
}

const char *net_peer_name(const struct net_peer *p, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN];

	if (!p->device && !p->veth)
		return snprintf(buf, len, "loopback"), buf;
	inet_ntop(AF_INET, &p->addr, a, sizeof(a));
	snprintf(buf, len, "%s %s", p->veth ? "veth" : "device", a);
	return buf;
}
