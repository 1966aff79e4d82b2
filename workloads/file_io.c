/*
 * file-read and file-write: `size` bytes per cycle at offsets that walk a
 * preallocated region of a file, buffered or O_DIRECT, and for writes
 * followed by fdatasync, fsync, or nothing (or opened O_DSYNC).
 *
 * The file is created with O_CREAT|O_EXCL|O_NOFOLLOW — never through a
 * symlink, never over a file latlab did not create — and unlinked at once:
 * the open descriptor keeps it alive while measuring, and nothing is left
 * behind, even when latlab is killed. Thread N>0 uses PATH.N. The region
 * is allocated (and for reads, written) in setup(), so a full disk shows
 * there, as a clear error, not as a stream of failed cycles.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

#define DIRECT_ALIGN 4096

enum { SYNC_NONE, SYNC_FDATASYNC, SYNC_FSYNC, SYNC_DSYNC };

struct file_opts {
	char path[OPT_STR_MAX];
	int64_t region;
	int direct;		/* 0 off, 1 on */
	int sync;
};

struct file_state {
	int fd;
	char *buf;
	int64_t off, region;
};

#define FILE_OPTIONS						\
	{ .key = "path", .type = OPT_STRING,				\
	  .offset = offsetof(struct file_opts, path),			\
	  .def = "/var/tmp/latlab-io.dat",				\
	  .help = "file to create (must not exist; removed at once)" }, \
	{ .key = "region", .type = OPT_SIZE,				\
	  .offset = offsetof(struct file_opts, region), .min = 4096,	\
	  .max = 1LL << 40, .def = "64MiB",				\
	  .help = "bytes the offsets walk through" },			\
	{ .key = "direct", .type = OPT_ENUM,				\
	  .offset = offsetof(struct file_opts, direct), .def = "off",	\
	  .help = "O_DIRECT (size a multiple of 4 KiB)", .choices = "off|on" }

static const struct opt read_options[] = {
	FILE_OPTIONS,
	{ 0 },
};

static const struct opt write_options[] = {
	FILE_OPTIONS,
	{ .key = "sync", .type = OPT_ENUM, .offset = offsetof(struct file_opts, sync),
	  .def = "none", .help = "after each write",
	  .choices = "none|fdatasync|fsync|dsync" },
	{ 0 },
};

/* Fill the region (reads need data to read; writes need the blocks). */
static int prepare_region(struct workload_ctx *ctx, struct file_state *st,
			  int fill)
{
	const size_t chunk = 1 << 20;
	char *data;
	int rc = 0;

	if (!fill) {
		rc = posix_fallocate(st->fd, 0, st->region);
		if (rc == 0)
			return 0;
		if (rc != EOPNOTSUPP && rc != EINVAL)
			return -rc;
	}
	/* O_DIRECT writes want aligned memory too */
	if (posix_memalign((void **)&data, DIRECT_ALIGN, chunk))
		return -ENOMEM;
	memset(data, 0xa5, chunk);
	for (int64_t off = 0; off < st->region && rc == 0; off += (int64_t)chunk) {
		size_t len = st->region - off < (int64_t)chunk
				     ? (size_t)(st->region - off) : chunk;
		ssize_t n = pwrite(st->fd, data, len, off);

		if (n < 0)
			rc = -errno;
		else if ((size_t)n != len)
			rc = -ENOSPC;
	}
	if (rc == 0 && fsync(st->fd))
		rc = -errno;
	free(data);
	(void)ctx;
	return rc;
}

static int file_setup(struct workload_ctx *ctx, int writing)
{
	const struct file_opts *o = ctx->opts;
	struct file_state *st = calloc(1, sizeof(*st));
	char path[OPT_STR_MAX + 16];
	int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int rc;

	if (!st)
		return -ENOMEM;
	if (ctx->thread == 0)
		snprintf(path, sizeof(path), "%s", o->path);
	else
		snprintf(path, sizeof(path), "%s.%d", o->path, ctx->thread);
	if (o->direct && ctx->size % DIRECT_ALIGN) {
		free(st);
		return workload_fail(ctx, -EINVAL,
				     "direct = on needs a size that is a multiple of %d (size = %lld)",
				     DIRECT_ALIGN, (long long)ctx->size);
	}
	if (writing && o->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	st->fd = open(path, flags, 0600);
	if (st->fd < 0) {
		rc = -errno;
		free(st);
		if (rc == -EEXIST)
			return workload_fail(ctx, rc,
					     "%s exists: latlab only writes files it creates (remove it, or choose another path)",
					     path);
		return workload_fail(ctx, rc, "cannot create %s: %s", path,
				     strerror(-rc));
	}
	unlink(path);	/* ours alone now; gone whatever happens next */
	if (o->direct) {
		int fl = fcntl(st->fd, F_GETFL);

		if (fcntl(st->fd, F_SETFL, fl | O_DIRECT)) {
			rc = -errno;
			close(st->fd);
			free(st);
			return workload_fail(ctx, rc,
					     "O_DIRECT is not supported for %s: %s",
					     path, strerror(-rc));
		}
	}
	/* whole blocks of `size`, at least one */
	st->region = o->region < ctx->size ? ctx->size
					   : o->region / ctx->size * ctx->size;
	rc = prepare_region(ctx, st, !writing);
	if (rc == 0 && posix_memalign((void **)&st->buf, DIRECT_ALIGN,
				      (size_t)ctx->size))
		rc = -ENOMEM;
	if (rc) {
		close(st->fd);
		free(st->buf);
		free(st);
		return workload_fail(ctx, rc,
				     "preparing the %lld-byte region of %s: %s",
				     (long long)o->region, path, strerror(-rc));
	}
	memset(st->buf, 0x5a, (size_t)ctx->size);
	ctx->priv = st;
	return 0;
}

static int read_setup(struct workload_ctx *ctx)
{
	return file_setup(ctx, 0);
}

static int write_setup(struct workload_ctx *ctx)
{
	return file_setup(ctx, 1);
}

static int64_t next_offset(struct file_state *st, int64_t size)
{
	int64_t off = st->off;

	st->off = off + size >= st->region ? 0 : off + size;
	return off;
}

static int64_t read_run(struct workload_ctx *ctx)
{
	struct file_state *st = ctx->priv;
	ssize_t n = pread(st->fd, st->buf, (size_t)ctx->size,
			  next_offset(st, ctx->size));

	if (n < 0)
		return -errno;
	return n == ctx->size ? n : -ENODATA;	/* a short read is an error */
}

static int64_t write_run(struct workload_ctx *ctx)
{
	const struct file_opts *o = ctx->opts;
	struct file_state *st = ctx->priv;
	ssize_t n = pwrite(st->fd, st->buf, (size_t)ctx->size,
			   next_offset(st, ctx->size));

	if (n < 0)
		return -errno;
	if (n != ctx->size)
		return -ENOSPC;
	if (o->sync == SYNC_FDATASYNC && fdatasync(st->fd))
		return -errno;
	if (o->sync == SYNC_FSYNC && fsync(st->fd))
		return -errno;
	return n;
}

static void file_teardown(struct workload_ctx *ctx)
{
	struct file_state *st = ctx->priv;

	if (st) {
		close(st->fd);
		free(st->buf);
	}
	free(st);
	ctx->priv = NULL;
}

static const char *file_fs_path(const void *opts)
{
	return ((const struct file_opts *)opts)->path;
}

/* A read waits for the disk only past the page cache (setup filled it): O_DIRECT. */
static unsigned read_waits(const void *opts, unsigned devices)
{
	const struct file_opts *o = opts;

	return (devices & WAIT_DISK) && o->direct ? WAIT_METRICS : 0;
}

/* A write waits for the disk where it syncs or goes around the page cache. */
static unsigned write_waits(const void *opts, unsigned devices)
{
	const struct file_opts *o = opts;

	return (devices & WAIT_DISK) && (o->direct || o->sync != SYNC_NONE) ? WAIT_METRICS : 0;
}

const struct workload_ops workload_file_read = {
	.name = "file-read",
	.help = "pread `size` bytes walking a preallocated file region (buffered or O_DIRECT)",
	.options = read_options,
	.opts_size = sizeof(struct file_opts),
	.fs_path = file_fs_path,
	.waits = read_waits,
	.primary = METRIC_RESPONSE,
	.setup = read_setup,
	.run = read_run,
	.teardown = file_teardown,
};

const struct workload_ops workload_file_write = {
	.name = "file-write",
	.help = "pwrite `size` bytes walking a preallocated file region, then sync as asked",
	.options = write_options,
	.opts_size = sizeof(struct file_opts),
	.fs_path = file_fs_path,
	.waits = write_waits,
	.primary = METRIC_RESPONSE,
	.setup = write_setup,
	.run = write_run,
	.teardown = file_teardown,
};
