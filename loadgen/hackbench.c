/*
 * hackbench: groups of `fds` senders and `fds` receivers. Every sender
 * writes `loops` messages of `datasize` bytes to every receiver of its
 * group, over socketpairs (default) or pipes, as processes (default) or
 * threads — rt-tests' hackbench, with its options and defaults. With
 * --duration, or under the harness, senders loop until stopped.
 * ops = messages received.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "children.h"
#include "load_ops.h"

enum { HB_PROCESS, HB_THREAD };
enum { HB_SOCKET, HB_PIPE };

struct hb_opts {
	int64_t groups, fds, loops, datasize;
	int mode, ipc;
};

#define HB_OFF(f) offsetof(struct hb_opts, f)

static const struct opt hb_options[] = {
	{ .key = "groups", .type = OPT_INT, .offset = HB_OFF(groups), .min = 1,
	  .max = 1000, .def = "10", .help = "groups of senders and receivers",
	  .short_opt = 'g' },
	{ .key = "fds", .type = OPT_INT, .offset = HB_OFF(fds), .min = 1,
	  .max = 1000, .def = "20", .help = "senders (and receivers) per group",
	  .short_opt = 'f' },
	{ .key = "loops", .type = OPT_INT, .offset = HB_OFF(loops), .min = 1,
	  .max = INT64_MAX, .def = "100",
	  .help = "messages each sender sends each receiver (without --duration)",
	  .short_opt = 'l' },
	{ .key = "datasize", .type = OPT_SIZE, .offset = HB_OFF(datasize),
	  .min = 1, .max = 1 << 20, .def = "100", .help = "bytes per message",
	  .short_opt = 's' },
	{ .key = "mode", .type = OPT_ENUM, .offset = HB_OFF(mode),
	  .def = "process", .help = "workers are", .choices = "process|thread" },
	{ .key = "ipc", .type = OPT_ENUM, .offset = HB_OFF(ipc),
	  .def = "socket", .help = "channel", .choices = "socket|pipe" },
	{ 0 },
};

static const struct cli_flag hb_flags[] = {
	{ 'p', "pipe", "ipc", "pipe", "use pipes instead of socketpairs" },
	{ 'T', "threads", "mode", "thread", "workers are threads" },
	{ 'P', "process", "mode", "process", "workers are processes" },
	{ 0 },
};

static int hb_check(const void *p, char *err, size_t len)
{
	const struct hb_opts *o = p;

	if (o->groups * o->fds * 2 > LOAD_MAX_SLOTS) {
		snprintf(err, len, "groups x fds x 2 = %lld workers: at most %d",
			 (long long)(o->groups * o->fds * 2), LOAD_MAX_SLOTS);
		return -EINVAL;
	}
	return 0;
}

/* Every group's senders and receivers. */
static int64_t hb_workers(const void *p)
{
	const struct hb_opts *o = p;

	return o->groups * o->fds * 2;
}

/* One group's channels: receiver i reads rfd[i]; senders write wfd[i]. */
struct hb_group {
	const struct hb_opts *o;
	int *rfd, *wfd;
	int index;
	int threads;
	_Atomic int senders_left;	/* thread mode: the last one closes wfd */
};

/* What a worker needs: its group and which end it is. */
struct hb_worker {
	struct hb_group *g;
	int id;			/* 0..fds-1 */
};

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void close_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

static void sender(struct load_ctx *ctx, int worker, void *arg)
{
	struct hb_worker *w = arg;
	const struct hb_opts *o = w->g->o;
	char *buf = calloc(1, (size_t)o->datasize);

	(void)worker;
	if (!buf)
		return;
	for (int64_t l = 0; ctx->finite ? l < o->loops : !atomic_load(ctx->stop); l++)
		for (int r = 0; r < o->fds; r++)
			if (write_all(w->g->wfd[r], buf, (size_t)o->datasize))
				goto out;
out:
	free(buf);
	/*
	 * Thread mode: the last sender of the group closes the write ends,
	 * so the receivers read end-of-file and finish. (Processes exit and
	 * their copies close with them.)
	 */
	if (w->g->threads && atomic_fetch_sub(&w->g->senders_left, 1) == 1)
		close_fds(w->g->wfd, (int)o->fds);
}

static void receiver(struct load_ctx *ctx, int worker, void *arg)
{
	struct hb_worker *w = arg;
	const struct hb_opts *o = w->g->o;
	uint64_t want = (uint64_t)(o->fds * o->loops * o->datasize);
	uint64_t got = 0;
	char buf[65536];
	/* one message per read(), as rt-tests' receivers do: the same syscalls */
	size_t chunk = o->datasize < (int64_t)sizeof(buf) ? (size_t)o->datasize
							   : sizeof(buf);

	while (!ctx->finite || got < want) {
		ssize_t n = read(w->g->rfd[w->id], buf, chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* the senders are gone */
		got += (uint64_t)n;
		load_count(ctx, worker, (uint64_t)n);
	}
}

/* A receiver process keeps only its own read end. */
static void close_for_receiver(void *arg)
{
	struct hb_worker *w = arg;

	for (int i = 0; i < w->g->o->fds; i++) {
		close(w->g->wfd[i]);
		if (i != w->id)
			close(w->g->rfd[i]);
	}
}

/* A sender process keeps the write ends only. */
static void close_for_sender(void *arg)
{
	struct hb_worker *w = arg;

	for (int i = 0; i < w->g->o->fds; i++)
		close(w->g->rfd[i]);
}

static int open_channels(struct hb_group *g)
{
	for (int i = 0; i < g->o->fds; i++) {
		int fd[2];

		if (g->o->ipc == HB_PIPE ? pipe2(fd, O_CLOEXEC)
		    : socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd))
			return -errno;
		g->rfd[i] = fd[0];
		g->wfd[i] = fd[1];
	}
	return 0;
}

static int64_t hb_run(struct load_ctx *ctx)
{
	const struct hb_opts *o = ctx->opts;
	int nworkers = (int)(o->groups * o->fds * 2);
	int threads = o->mode == HB_THREAD;
	struct hb_group *groups = calloc((size_t)o->groups, sizeof(*groups));
	struct hb_worker *workers = calloc((size_t)nworkers, sizeof(*workers));
	struct crew crew;
	int rc = crew_init(&crew, ctx, threads, nworkers);

	if (!groups || !workers) {
		rc = -ENOMEM;
		goto out;
	}
	for (int g = 0; rc == 0 && g < o->groups; g++) {
		struct hb_group *grp = &groups[g];

		grp->o = o;
		grp->index = g;
		grp->threads = threads;
		atomic_init(&grp->senders_left, (int)o->fds);
		grp->rfd = malloc(sizeof(int) * (size_t)o->fds);
		grp->wfd = malloc(sizeof(int) * (size_t)o->fds);
		if (!grp->rfd || !grp->wfd) {
			rc = -ENOMEM;
			break;
		}
		for (int i = 0; i < o->fds; i++)
			grp->rfd[i] = grp->wfd[i] = -1;
		rc = open_channels(grp);
		for (int i = 0; rc == 0 && i < 2 * o->fds; i++) {
			int id = (int)(g * o->fds * 2) + i;
			struct hb_worker *w = &workers[id];
			int recv = i < o->fds;

			w->g = grp;
			w->id = recv ? i : i - (int)o->fds;
			rc = crew_spawn(&crew, recv ? receiver : sender, w, id,
					recv ? close_for_receiver : close_for_sender);
		}
		/* processes hold their own copies; keep the parent's fd count low */
		if (!threads) {
			close_fds(grp->rfd, (int)o->fds);
			close_fds(grp->wfd, (int)o->fds);
		}
	}
	if (rc == 0)
		rc = crew_go(&crew);
	else
		atomic_store(ctx->stop, 1);	/* the started ones end */
	if (crew.n) {
		int wrc = crew_wait(&crew);

		if (rc == 0)
			rc = wrc;
	}
out:
	for (int g = 0; groups && g < o->groups; g++) {
		if (groups[g].rfd)
			close_fds(groups[g].rfd, (int)o->fds);
		if (groups[g].wfd)
			close_fds(groups[g].wfd, (int)o->fds);
		free(groups[g].rfd);
		free(groups[g].wfd);
	}
	free(groups);
	free(workers);
	crew_free(&crew);
	return rc ? rc : (int64_t)(load_total(ctx) / (uint64_t)o->datasize);
}

const struct load_ops load_hackbench = {
	.name = "hackbench",
	.help = "groups of senders and receivers over socketpairs or pipes (rt-tests hackbench)",
	.options = hb_options,
	.opts_size = sizeof(struct hb_opts),
	.flags = hb_flags,
	.check = hb_check,
	.workers = hb_workers,
	.run = hb_run,
};
