#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "log.h"
#include "model.h"
#include "results.h"
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

static void remove_flat_dir(const char *dir)
{
	char path[PATH_MAX + 300];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* The cell being received: its files land in DIR.incoming first. */
struct rx {
	char dir[PATH_MAX + CELL_ID_MAX + 300];
	char incoming[PATH_MAX + CELL_ID_MAX + 320];
	char *rows, *brief;
};

static void rx_reset(struct rx *r)
{
	free(r->rows);
	free(r->brief);
	r->rows = r->brief = NULL;
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

static void on_hello(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;

	(void)size;
	/* the host and release name the guest's directories: single names */
	if (sscanf(args, "%127s %127s", out->host, out->release) == 2 &&
	    safe_name(out->host) && safe_name(out->release))
		out->hello = 1;
	else
		snprintf(out->host, sizeof(out->host), "guest");
	give_time(d, d->o->quiet_ns);
}

static void on_sysinfo(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	free(d->out->sysinfo);
	d->out->sysinfo = NULL;
	d->io = read_text(d->c, size, &d->out->sysinfo, d->deadline, d->h, &d->stopped);
	d->taken = 1;
}

static void on_log(struct reader *d, char *args, uint64_t size)
{
	/* the guest's "latlab: ..." becomes "latlab: guest rt: ..." */
	const char *text = strncmp(args, "latlab: ", 8) == 0 ? args + 8 : args;

	(void)size;
	fprintf(stderr, "latlab: guest %s: %s\n", d->o->variant, text);
}

static void on_start(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	struct rx *r = &d->r;
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
	cell_path(r->dir, sizeof(r->dir), d->o->tree, out->host, out->release,
		  out->running);
	snprintf(r->incoming, sizeof(r->incoming), "%s.incoming", r->dir);
	remove_flat_dir(r->incoming);
	give_time(d, d->o->cell_ns);
}

static void on_file(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	char *sp = strrchr(args, ' '), path[sizeof(d->r.incoming) + 300];
	FILE *fp = NULL;

	if (!out->running[0] || !sp)
		return;
	*sp = '\0';		/* args: the name; its size was parsed */
	if (!safe_name(args))
		return;		/* not a file of a cell directory: bytes dropped */
	snprintf(path, sizeof(path), "%s/%s", d->r.incoming, args);
	if (mkdir_p(d->r.incoming) == 0)
		fp = fopen(path, "wbe");
	if (!fp) {
		out->host_errno = errno;
		snprintf(out->why, sizeof(out->why), "cannot keep %s of cell %s: %s",
			 args, out->running, strerror(errno));
		d->end = VM_END_HOST;
		return;
	}
	d->io = read_bytes(d->c, fp, size, d->deadline, d->h, &d->stopped);
	d->taken = 1;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
		out->host_errno = errno;
		snprintf(out->why, sizeof(out->why), "%.400s: %s", path, strerror(errno));
		d->end = VM_END_HOST;
	}
	fclose(fp);
	give_time(d, d->o->quiet_ns);
}

static void on_row(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	if (!d->out->running[0])
		return;
	free(d->r.rows);
	d->r.rows = NULL;
	d->io = read_text(d->c, size, &d->r.rows, d->deadline, d->h, &d->stopped);
	d->taken = 1;
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
	if (access(r->incoming, F_OK) == 0) {
		dir_keep_partial(r->dir);
		if (rename(r->incoming, r->dir) != 0)
			log_error("%s: %s", r->dir, strerror(errno));
	}
	cell.id = id;
	cell.status = cell_status_parse(status);
	if (cell.status < 0)
		cell.status = CELL_ERROR;
	cell.reason = args + used;
	cell.rows = r->rows ? r->rows : "";
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
	d->end = VM_END_DONE;
}

/* What the host does with each verb of channel.h. */
static void (*const handlers[CHAN_NVERBS])(struct reader *, char *, uint64_t) = {
	[CHAN_HELLO] = on_hello,
	[CHAN_SYSINFO] = on_sysinfo,
	[CHAN_LOG] = on_log,
	[CHAN_START] = on_start,
	[CHAN_FILE] = on_file,
	[CHAN_ROW] = on_row,
	[CHAN_BRIEF] = on_brief,
	[CHAN_CELL] = on_cell,
	[CHAN_DONE] = on_done,
};

enum vm_end vm_read(int fd, const struct vm_read_opts *o,
		    const struct vm_hooks *h, struct vm_outcome *out)
{
	struct reader d = { .o = o, .h = h, .out = out, .end = -1 };
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
	if (d.r.incoming[0] && out->running[0])
		remove_flat_dir(d.r.incoming);
	rx_reset(&d.r);
	free(d.c);
	return (enum vm_end)d.end;
}
