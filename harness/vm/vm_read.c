#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "channel.h"
#include "log.h"
#include "model.h"
#include "units.h"
#include "vm.h"

struct chan {
	int fd;
	char buf[1 << 16];
	size_t start, end;
	int eof;
};

/* More bytes, waiting until deadline: 1, 0 (deadline or stop), -1 EOF. */
static int fill(struct chan *c, int64_t deadline, const struct vm_hooks *h,
		int *stopped)
{
	if (c->start > 0) {
		memmove(c->buf, c->buf + c->start, c->end - c->start);
		c->end -= c->start;
		c->start = 0;
	}
	for (;;) {
		int64_t left = deadline - units_now_ns();
		struct pollfd p = { .fd = c->fd, .events = POLLIN };

		if (h->stop && h->stop(h->arg)) {
			*stopped = 1;
			return 0;
		}
		if (left <= 0)
			return 0;
		int r = poll(&p, 1, left > 200 * NS_PER_MS ? 200 : (int)(left / NS_PER_MS) + 1);
		if (r <= 0)
			continue;
		ssize_t n = read(c->fd, c->buf + c->end, sizeof(c->buf) - c->end);
		if (n > 0) {
			c->end += (size_t)n;
			return 1;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			c->eof = 1;
			return -1;
		}
	}
}

/* One line (without its newline) into line: 1, 0 deadline/stop, -1 EOF. */
static int read_line(struct chan *c, char *line, size_t len, int64_t deadline,
		     const struct vm_hooks *h, int *stopped)
{
	for (;;) {
		char *nl = memchr(c->buf + c->start, '\n', c->end - c->start);

		if (nl) {
			size_t n = (size_t)(nl - (c->buf + c->start));

			snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1),
				 c->buf + c->start);
			c->start += n + 1;
			return 1;
		}
		if (c->end - c->start == sizeof(c->buf)) {
			c->start = c->end = 0;	/* an endless line: not ours */
			continue;
		}
		int r = fill(c, deadline, h, stopped);
		if (r <= 0)
			return r;
	}
}

/* size raw bytes to fp (NULL: dropped): 1, 0, -1 as read_line. */
static int read_bytes(struct chan *c, FILE *fp, uint64_t size, int64_t deadline,
		      const struct vm_hooks *h, int *stopped)
{
	while (size > 0) {
		size_t have = c->end - c->start;

		if (have == 0) {
			int r = fill(c, deadline, h, stopped);

			if (r <= 0)
				return r;
			continue;
		}
		size_t n = have < size ? have : (size_t)size;
		if (fp)
			fwrite(c->buf + c->start, 1, n, fp);
		c->start += n;
		size -= n;
	}
	return 1;
}

static int safe_name(const char *name)
{
	return name[0] && name[0] != '.' && !strchr(name, '/') &&
	       strlen(name) < 128;
}

/*
 * The cell being received: its files land in HOST/RELEASE/CELL.incoming
 * first. Every file operation goes through descriptors opened under the
 * tree with O_NOFOLLOW (dir_open_beneath): a link planted in the tree
 * redirects nothing outside it.
 */
struct rx {
	int relfd;			/* TREE/HOST/RELEASE, or -1 */
	int incfd;			/* its CELL.incoming, or -1 */
	char cell[CELL_ID_MAX];		/* CELL */
	char incoming[CELL_ID_MAX + 16];	/* CELL.incoming */
	char dir[PATH_MAX + CELL_ID_MAX + 300];	/* the path, for messages */
	char *brief;
};

static void rx_reset(struct rx *r)
{
	if (r->incfd >= 0)
		close(r->incfd);
	if (r->relfd >= 0)
		close(r->relfd);
	r->incfd = r->relfd = -1;
	free(r->brief);
	r->brief = NULL;
}

/* A blob's bytes into a malloc'ed string. */
static int read_text(struct chan *c, uint64_t size, char **text, int64_t deadline,
		     const struct vm_hooks *h, int *stopped)
{
	size_t len = 0;
	FILE *fp = open_memstream(text, &len);
	int r;

	if (!fp)
		return read_bytes(c, NULL, size, deadline, h, stopped);
	r = read_bytes(c, fp, size, deadline, h, stopped);
	fclose(fp);
	return r;
}

/* One read of the channel: where it is, and what it has taken so far. */
struct reader {
	struct chan *c;
	const struct vm_read_opts *o;
	const struct vm_hooks *h;
	struct vm_outcome *out;
	struct rx r;
	int64_t deadline;
	int stopped;		/* hooks said stop */
	int io;			/* last read: 1 more, 0 deadline/stop, -1 EOF */
	int end;		/* set: stop reading, with this vm_end */
	int taken;		/* the handler read its blob's bytes */
};

/* The guest is quiet between its messages at most this long, plus timeout. */
#define SLACK_NS (10 * NS_PER_S)

static void give_time(struct reader *d, int64_t ns)
{
	d->deadline = units_now_ns() + ns + SLACK_NS;
}

/* The host could not keep what the guest sent: the read ends. */
static void host_failed(struct reader *d, int err, const char *what)
{
	struct vm_outcome *out = d->out;

	out->host_errno = err;
	snprintf(out->why, sizeof(out->why), "cannot keep %.100s of cell %.150s in %.200s: %s",
		 what, out->running, d->r.dir, strerror(err));
	d->end = VM_END_HOST;
}

/* A guest says hello once: the host and release it names place its cells. */
static void on_hello(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	char host[128], release[128];

	(void)size;
	if (out->hello)
		return;
	/* the host and release name the guest's directories: single names */
	if (sscanf(args, "%127s %127s", host, release) == 2 &&
	    safe_name(host) && safe_name(release)) {
		snprintf(out->host, sizeof(out->host), "%s", host);
		snprintf(out->release, sizeof(out->release), "%s", release);
		out->hello = 1;
		out->hello_at = units_now_ns();
	}
	give_time(d, d->o->quiet_ns);
}

static void on_sysinfo(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	if (size > chan_verbs[CHAN_SYSINFO].max)
		return;		/* over its bound: skipped */
	free(d->out->sysinfo);
	d->out->sysinfo = NULL;
	d->io = read_text(d->c, size, &d->out->sysinfo, d->deadline, d->h, &d->stopped);
	d->taken = 1;
}

static void on_log(struct reader *d, char *args, uint64_t size)
{
	/* the guest's "latlab: ..." becomes "latlab: guest rt: ..." */
	char *text = strncmp(args, "latlab: ", 8) == 0 ? args + 8 : args;

	(void)size;
	chan_clean(text);
	if (d->h->log)
		d->h->log(d->h->arg, text);
	else
		fprintf(stderr, "latlab: guest %s: %s\n", d->o->variant, text);
}

static void on_start(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	struct rx *r = &d->r;
	const char *names[2] = { out->host, out->release };
	int rc;

	(void)size;
	if (!out->hello)
		return;
	args[strcspn(args, " ")] = '\0';
	out->running[0] = '\0';
	rx_reset(r);
	/* only a cell the guest was given: asked before any file operation */
	rc = safe_name(args) && strlen(args) < sizeof(out->running)
	     ? d->h->started(d->h->arg, args) : -1;
	if (rc < 0)
		return;
	if (rc > 0) {
		d->stopped = 1;
		d->end = VM_END_STOPPED;
		return;
	}
	snprintf(out->running, sizeof(out->running), "%s", args);
	snprintf(r->cell, sizeof(r->cell), "%s", args);
	snprintf(r->incoming, sizeof(r->incoming), "%s.incoming", args);
	cell_path(r->dir, sizeof(r->dir), d->o->tree, out->host, out->release,
		  out->running);
	give_time(d, d->o->cell_ns);
	r->relfd = dir_open_beneath(d->o->tree, names, 2);
	if (r->relfd < 0) {
		host_failed(d, -r->relfd, "its directory");
		return;
	}
	dir_remove_flat_at(r->relfd, r->incoming);	/* an earlier boot's */
}

/* CELL.incoming, made fresh by this read: nothing in it but what it wrote. */
static int incoming_dir(struct rx *r)
{
	if (r->incfd >= 0)
		return 0;
	if (mkdirat(r->relfd, r->incoming, 0755) != 0)
		return -errno;
	r->incfd = openat(r->relfd, r->incoming,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return r->incfd < 0 ? -errno : 0;
}

static void on_file(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	char *sp = strrchr(args, ' ');
	FILE *fp = NULL;
	int fd = -1, rc;

	if (!out->running[0] || !sp || d->r.relfd < 0)
		return;
	*sp = '\0';		/* args: the name; its size was parsed */
	if (!safe_name(args))
		return;		/* not a file of a cell directory: bytes dropped */
	rc = incoming_dir(&d->r);
	if (rc == 0) {
		fd = openat(d->r.incfd, args, O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC, 0644);
		rc = fd < 0 ? -errno : 0;
	}
	if (rc == 0 && !(fp = fdopen(fd, "wb"))) {
		rc = -errno;
		close(fd);
	}
	if (rc != 0) {
		host_failed(d, -rc, args);
		return;
	}
	d->io = read_bytes(d->c, fp, size, d->deadline, d->h, &d->stopped);
	d->taken = 1;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0)
		host_failed(d, errno, args);
	fclose(fp);
	give_time(d, d->o->quiet_ns);
}

static void on_brief(struct reader *d, char *args, uint64_t size)
{
	(void)size;
	if (!d->out->running[0])
		return;
	free(d->r.brief);
	d->r.brief = strdup(args);
	give_time(d, d->o->quiet_ns);
}

/* The cell that started is done: its files move in place; the hook takes it. */
static void on_cell(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	struct rx *r = &d->r;
	char id[CELL_ID_MAX], status[32];
	struct vm_cell cell;
	int used = 0;

	(void)size;
	if (sscanf(args, "%159s %31s %n", id, status, &used) < 2 ||
	    !out->running[0] || strcmp(id, out->running) != 0)
		return;	/* not the cell that started: ignored */
	cell.dir = NULL;
	if (r->incfd >= 0) {
		dir_keep_partial_at(r->relfd, r->cell, r->dir);
		if (renameat(r->relfd, r->incoming, r->relfd, r->cell) == 0)
			cell.dir = r->dir;
		else
			log_error("%s: %s", r->dir, strerror(errno));
	}
	cell.id = id;
	cell.status = cell_status_parse(status);
	if (cell.status < 0)
		cell.status = CELL_ERROR;
	cell.reason = chan_clean(args + used);
	cell.host = out->host;
	cell.release = out->release;
	cell.brief = r->brief ? r->brief : "";
	out->running[0] = '\0';
	out->finished++;
	if (d->h->finished(d->h->arg, &cell)) {
		d->stopped = 1;
		d->end = VM_END_STOPPED;
	}
	rx_reset(r);
	give_time(d, d->o->quiet_ns);
}

static void on_done(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	(void)size;
	d->out->done = 1;
	d->out->done_at = units_now_ns();
	d->end = VM_END_DONE;
}

/* What the host does with each verb of channel.h. */
static void (*const handlers[CHAN_NVERBS])(struct reader *, char *, uint64_t) = {
	[CHAN_HELLO] = on_hello,
	[CHAN_SYSINFO] = on_sysinfo,
	[CHAN_LOG] = on_log,
	[CHAN_START] = on_start,
	[CHAN_FILE] = on_file,
	[CHAN_BRIEF] = on_brief,
	[CHAN_CELL] = on_cell,
	[CHAN_DONE] = on_done,
};

enum vm_end vm_read(int fd, const struct vm_read_opts *o,
		    const struct vm_hooks *h, struct vm_outcome *out)
{
	struct reader d = { .o = o, .h = h, .out = out, .end = -1,
			    .r = { .relfd = -1, .incfd = -1 } };
	char line[4096];

	memset(out, 0, sizeof(*out));
	d.c = calloc(1, sizeof(*d.c));
	if (!d.c) {
		out->host_errno = ENOMEM;
		snprintf(out->why, sizeof(out->why), "out of memory");
		return VM_END_HOST;
	}
	d.c->fd = fd;
	d.deadline = units_now_ns() + o->boot_ns;
	while (d.end < 0) {
		char *args;
		uint64_t size;

		d.io = read_line(d.c, line, sizeof(line), d.deadline, h, &d.stopped);
		if (d.io <= 0)
			break;
		int verb = chan_parse(line, &args, &size);
		if (verb < 0)
			continue;	/* not the channel's, or garbled */
		d.taken = 0;
		handlers[verb](&d, args, size);
		/* a blob nobody took is skipped, so the stream stays in step */
		if (chan_verbs[verb].blob && !d.taken && d.end < 0)
			d.io = read_bytes(d.c, NULL, size, d.deadline, h, &d.stopped);
		if (d.io <= 0)
			break;
	}
	if (d.end < 0)
		d.end = d.stopped ? VM_END_STOPPED : d.io < 0 ? VM_END_EOF : VM_END_QUIET;
	if (d.end == VM_END_STOPPED)
		out->interrupted = 1;
	if (d.r.relfd >= 0 && out->running[0])
		dir_remove_flat_at(d.r.relfd, d.r.incoming);
	rx_reset(&d.r);
	free(d.c);
	return (enum vm_end)d.end;
}
