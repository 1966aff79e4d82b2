/*
 * Where a round trip's or a network load's peer listens: on 127.0.0.1
 * (loopback: softirqs, no device), or — in a qemu guest whose variant has
 * net = device — behind the guest's second virtio-net card, in a network
 * namespace of its own, so that every packet leaves one card and arrives
 * on the other, each with its interrupt, or — net = veth — behind the
 * twin of a veth pair in such a namespace (softirqs, no device)
 * (docs/campaigns.md, "The guest's network"). The guest's /init says
 * which in LATLAB_GUEST_NET ("NETNS-FILE ADDRESS", and " veth" for the
 * pair); latlab and latload read it, nothing else sets it.
 */
#ifndef LATLAB_NETPEER_H
#define LATLAB_NETPEER_H

#include <limits.h>
#include <netinet/in.h>

#define NETPEER_ENV "LATLAB_GUEST_NET"

struct net_peer {
	int device;		/* 1: the peer is behind the guest's card */
	int veth;		/* 1: the peer is behind a veth pair's twin */
	char ns[PATH_MAX];	/* its network namespace (a bind-mounted nsfs file) */
	struct in_addr addr;	/* where it listens: its card's, or 127.0.0.1 */
};

/* The peer's place: 0 (p filled), or -EINVAL when NETPEER_ENV is malformed. */
int net_peer_get(struct net_peer *p);

/*
 * A socket of type (SOCK_DGRAM, SOCK_STREAM; flags allowed) in the peer's
 * namespace — a socket keeps the namespace it was made in, so the calling
 * thread returns to its own at once — or here for loopback. fd, or -errno.
 */
int net_peer_socket(const struct net_peer *p, int type);

/* "device 10.0.2.2", "veth 10.0.2.2" or "loopback", for what a cell says. */
const char *net_peer_name(const struct net_peer *p, char *buf, size_t len);

#endif
