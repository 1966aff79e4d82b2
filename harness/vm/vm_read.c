#include <ctype.h>
#include <dirent.h>
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
	struct patience *wait;	/* how long a deadline waits for a starved guest; NULL: not */
	/*
	 * The time latlab did not listen (its reader not run beside a busy
	 * host, a hook on a slow disk) is not the guest's silence: deaf ns
	 * of it since deadline deaf_for was given; heard_at, when the reader
	 * last listened (0: not yet)
	 */
	int64_t heard_at, deaf, deaf_for;
};

/* A gap between two looks at the channel longer than this (its poll waits 200 ms at most) is latlab's. */
#define DEAF_NS NS_PER_S

/*
 * A deadline of the host's clock judges a guest only where the guest had
 * the host's time: a guest qemu could not run (a busy host; the test
 * suite's guests at SCHED_IDLE beside a CPU hog) is slow, not hung. Past
 * its deadline a quiet guest is waited on while its qemu has had less
 * than half the window on a CPU, up to PATIENCE_WALL times the window.
 */
#define PATIENCE_WALL 10
/*
 * On the instruction clock a guest's second costs qemu up to this many
 * seconds of a CPU (this VM: 0.25 idle, 7-9 under a load in the guest:
 * docs/campaigns.md), so its deadline is one of the guest's time: owed
 * while qemu ran less than this times half the window
 */
#define PATIENCE_ICOUNT_CPU 8
struct patience {
	pid_t qemu;		/* 0: none (a recorded stream) */
	int icount;		/* the guest's clock counts instructions */
	int64_t given_at;	/* when the deadline was given (units_now_ns) */
	int64_t cpu_at;		/* qemu's CPU time then, ns */
	int64_t delay_at;	/* and its threads' wait to run then, ns (-1: unknown) */
	int64_t window;		/* the deadline's length */
	int64_t quiet_cpu;	/* at a hang: qemu's CPU time over the quiet, ns */
};

/* A process's CPU time (user and system, every thread), ns; -1 unknown. */
static int64_t cpu_ns(pid_t pid)
{
	char path[64], buf[1024];
	int fd;
	ssize_t n;
	unsigned long long ut, st;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');	/* past the command's name */

	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &st) != 2)
		return -1;
	return (int64_t)(ut + st) * (NS_PER_S / sysconf(_SC_CLK_TCK));
}

/*
 * How long qemu's threads waited to run, runnable on a run queue (their
 * schedstat's run_delay, summed), ns; -1 unknown.
 */
static int64_t delay_ns(pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int64_t sum = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		char f[96], buf[128];
		unsigned long long run, wait;
		int fd;
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof(f), "%s/%.20s/schedstat", path, e->d_name);
		if ((fd = open(f, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		if (sscanf(buf, "%llu %llu", &run, &wait) == 2)
			sum += (int64_t)wait;
	}
	closedir(d);
	return sum;
}

/*
 * Past the deadline: is the guest still owed time? Where its qemu wanted
 * to run over the quiet (running or waiting to run at least a tenth of
 * it: not a guest that sits idle and says nothing), but ran less than
 * its budget (half the window; on the instruction clock PATIENCE_ICOUNT_CPU
 * times that), up to PATIENCE_WALL times the window.
 */
static int owed(struct patience *w, int64_t now)
{
	int64_t cpu, delay, wall;

	if (!w || w->qemu <= 0 || (cpu = cpu_ns(w->qemu)) < 0)
		return 0;
	wall = now - w->given_at;
	w->quiet_cpu = cpu - w->cpu_at;
	delay = delay_ns(w->qemu);
	return vm_owed(wall, w->window, w->quiet_cpu,
		       delay >= 0 && w->delay_at >= 0 ? delay - w->delay_at : 0, w->icount);
}

int vm_owed(int64_t wall, int64_t window, int64_t cpu, int64_t delay, int icount)
{
	return wall < window * PATIENCE_WALL && (cpu + delay) * 10 >= wall &&
	       cpu < window / 2 * (icount ? PATIENCE_ICOUNT_CPU : 1);
}

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
		int64_t now = units_now_ns();
		struct pollfd p = { .fd = c->fd, .events = POLLIN };

		if (c->deaf_for != deadline) {	/* a new deadline: its own deafness */
			c->deaf_for = deadline;
			c->deaf = 0;
		}
		if (c->heard_at && now - c->heard_at > DEAF_NS)
			c->deaf += now - c->heard_at;
		c->heard_at = now;
		int64_t left = deadline + c->deaf - now;

		if (h->stop && h->stop(h->arg)) {
			*stopped = 1;
			return 0;
		}
		if (left <= 0 && !owed(c->wait, now - c->deaf))
			return 0;
		if (left <= 0)
			left = 200 * NS_PER_MS;	/* a starved guest: waited on, and asked again */
		int r = poll(&p, 1, left > 200 * NS_PER_MS ? 200 : (int)(left / NS_PER_MS) + 1);
		if (r <= 0)
			continue;
		ssize_t n = read(c->fd, c->buf + c->end, sizeof(c->buf) - c->end);
		if (n > 0) {
			c->end += (size_t)n;
			c->heard_at = units_now_ns();
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

/* A kernel release's (and a host name's) characters only: letters, digits, . _ + - ~ */
static int name_chars(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (!isalnum(*p) && !strchr("._+-~", *p))
			return 0;
	return name[0] != '\0';
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
	int64_t cell_start, cell_cpu_at, cell_delay_at;	/* when the running cell started, qemu's CPU time and wait then */
	int64_t cell_until;	/* the running cell's bound: its start + duration + timeout + slack */
	int64_t cell_bytes;	/* what it sent of its files */
	int cell_files;		/* how many file messages */
	char over[256];		/* the running cell sent more than a cell can: why, or "" */
};

/* The guest is quiet between its messages at most this long, plus timeout. */
#define SLACK_NS (10 * NS_PER_S)
/* a cell's files earn time to arrive: 100 kB a second (the channel does 450 under TCG) */
#define CELL_NS_PER_BYTE 10000

static void give_time(struct reader *d, int64_t ns)
{
	int64_t now = units_now_ns();

	d->deadline = now + ns + (d->o->slack_ns ? d->o->slack_ns : SLACK_NS);
	/*
	 * within a cell, its messages buy no time past the cell's own bound,
	 * but for the bytes it sent (a chatty guest held a 1 s cell forever):
	 * duration + timeout from its start, and a second per 100 kB
	 */
	int capped = d->out->running[0] &&
		     d->deadline > d->cell_until + d->cell_bytes * CELL_NS_PER_BYTE;

	if (capped)
		d->deadline = d->cell_until + d->cell_bytes * CELL_NS_PER_BYTE;
	if (d->c->wait) {	/* a capped wait is the cell's: counted from its start */
		d->c->wait->given_at = capped ? d->cell_start : now;
		d->c->wait->cpu_at = capped ? d->cell_cpu_at : cpu_ns(d->c->wait->qemu);
		d->c->wait->delay_at = capped ? d->cell_delay_at : delay_ns(d->c->wait->qemu);
		d->c->wait->window = d->deadline - d->c->wait->given_at;
	}
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
	/*
	 * The host and release name the guest's directories: single names of
	 * a release's characters (no escape codes in a directory or a CSV
	 * field), the host the one it was given (a guest that named one of
	 * the tree's own files, vm, made the host give the campaign up as if
	 * its disk had failed). What it said otherwise is said, and stands in
	 * as the given host and "unknown-release".
	 */
	if (sscanf(args, "%127s %127s", host, release) == 2 &&
	    safe_name(host) && safe_name(release)) {
		int host_ok = d->o->host ? strcmp(host, d->o->host) == 0 : name_chars(host);
		int rel_ok = name_chars(release);

		snprintf(out->host, sizeof(out->host), "%s",
			 host_ok ? host : d->o->host ? d->o->host : "unknown-host");
		snprintf(out->release, sizeof(out->release), "%s", rel_ok ? release : "unknown-release");
		if (!host_ok || !rel_ok)
			snprintf(out->hello_note, sizeof(out->hello_note),
				 "its hello named %s%s%s: its cells are filed under %s/%s",
				 host_ok ? "" : d->o->host ? "another host" : "a host of characters no host has",
				 !host_ok && !rel_ok ? " and " : "",
				 rel_ok ? "" : "a release of characters no release has", out->host,
				 out->release);
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
	d->cell_start = units_now_ns();
	d->cell_cpu_at = d->c->wait ? cpu_ns(d->c->wait->qemu) : 0;
	d->cell_delay_at = d->c->wait ? delay_ns(d->c->wait->qemu) : -1;
	d->cell_until = d->cell_start + d->o->cell_ns + (d->o->slack_ns ? d->o->slack_ns : SLACK_NS);
	d->cell_bytes = 0;
	d->cell_files = 0;
	d->over[0] = '\0';
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
	/*
	 * a cell's files are bounded in number and in sum (what its length
	 * can produce): past either, the rest is dropped, earns no time, and
	 * the cell is an error (a guest sent 16 GiB files without end)
	 */
	if (!d->over[0] && ++d->cell_files > VM_CELL_FILES_MAX)
		snprintf(d->over, sizeof(d->over), "the guest sent more than the %d files a cell may have",
			 VM_CELL_FILES_MAX);
	if (!d->over[0] && d->o->cell_bytes_max &&
	    size > (uint64_t)(d->o->cell_bytes_max - d->cell_bytes)) {
		char most[32];

		units_format_size(d->o->cell_bytes_max, most, sizeof(most));
		snprintf(d->over, sizeof(d->over),
			 "the guest sent more than the %s a cell of this length may have in its files", most);
	}
	if (d->over[0])
		return;		/* its bytes skipped by the reader */
	d->cell_bytes += size < (uint64_t)INT64_MAX / CELL_NS_PER_BYTE / 2 ? (int64_t)size : 0;
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
	if (d->over[0]) {	/* what it sent is not a cell's */
		cell.status = CELL_ERROR;
		cell.reason = d->over;
	}
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
	struct patience wait = { .qemu = o->qemu, .icount = o->icount };

	d.c->wait = o->qemu > 0 ? &wait : NULL;
	d.deadline = units_now_ns() + o->boot_ns;
	if (d.c->wait) {
		wait.given_at = units_now_ns();
		wait.cpu_at = cpu_ns(o->qemu);
		wait.delay_at = delay_ns(o->qemu);
		wait.window = o->boot_ns;
	}
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
	if (d.end == VM_END_QUIET && d.c->wait) {	/* what the quiet was: its length, qemu's share */
		out->quiet_wall_ns = units_now_ns() - wait.given_at;
		out->quiet_cpu_ns = wait.quiet_cpu;
	}
	if (d.end == VM_END_STOPPED)
		out->interrupted = 1;
	if (d.r.relfd >= 0 && out->running[0])
		dir_remove_flat_at(d.r.relfd, d.r.incoming);
	rx_reset(&d.r);
	free(d.c);
	return (enum vm_end)d.end;
}
