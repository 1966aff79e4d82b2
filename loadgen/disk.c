/*
 * disk: a write + sync stream into a directory. Blocks of `block` bytes
 * are written until `file_size`, synced, and the file starts over. The
 * file has no name (O_TMPFILE, or unlinked at once where the filesystem
 * lacks it), so nothing is left behind, even after SIGKILL.
 * ops = blocks written.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_ops.h"
#include "log.h"

enum { DISK_FSYNC, DISK_FDATASYNC, DISK_NONE };

struct disk_opts {
	char dir[OPT_STR_MAX];
	int64_t block, file_size;
	int sync;
};

static const struct opt disk_options[] = {
	{ .key = "dir", .type = OPT_STRING, .offset = offsetof(struct disk_opts, dir),
	  .def = "/var/tmp", .help = "directory to write in" },
	{ .key = "block", .type = OPT_SIZE, .offset = offsetof(struct disk_opts, block),
	  .min = 512, .max = 1LL << 26, .def = "64KiB", .help = "bytes per write" },
	{ .key = "file_size", .type = OPT_SIZE,
	  .offset = offsetof(struct disk_opts, file_size), .min = 4096,
	  .max = 1LL << 36, .def = "16MiB", .help = "sync and start over at this size" },
	{ .key = "sync", .type = OPT_ENUM, .offset = offsetof(struct disk_opts, sync),
	  .def = "fsync", .help = "after each file", .choices = "fsync|fdatasync|none" },
	{ 0 },
};

static int disk_check(const void *p, char *err, size_t len)
{
	const struct disk_opts *o = p;

	if (o->file_size < o->block) {
		snprintf(err, len, "file_size must be at least one block");
		return -EINVAL;
	}
	return 0;
}

static int open_anon(const char *dir)
{
	char path[OPT_STR_MAX + 32];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd >= 0 ? fd : -errno;
	snprintf(path, sizeof(path), "%s/latload-disk.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* The directory is there and may be written. */
static int disk_preflight(const void *p, const char **key, char *err, size_t len)
{
	const struct disk_opts *o = p;
	struct stat st;
	int rc = stat(o->dir, &st) != 0 ? -errno : !S_ISDIR(st.st_mode) ? -ENOTDIR
		 : access(o->dir, W_OK) != 0 ? -errno : 0;

	*key = "dir";
	if (rc)
		snprintf(err, len, "dir = %s: %s", o->dir, strerror(-rc));
	return rc;
}

static const char *disk_fs_path(const void *opts)
{
	return ((const struct disk_opts *)opts)->dir;
}

static int64_t disk_run(struct load_ctx *ctx)
{
	const struct disk_opts *o = ctx->opts;
	char *buf = malloc((size_t)o->block);
	int fd = open_anon(o->dir), rc;
	int64_t off = 0;

	if (fd < 0)
		log_error("disk: dir = %s: %s", o->dir, strerror(-fd));
	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? LOAD_SAID : -ENOMEM;
	}
	memset(buf, 0x5a, (size_t)o->block);
	rc = ctx->ready(ctx);
	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		ssize_t n = pwrite(fd, buf, (size_t)o->block, off);

		if (n < 0) {
			rc = errno == EINTR ? 0 : -errno;
			continue;
		}
		off += n;
		load_count(ctx, 0, 1);
		if (off + o->block > o->file_size) {
			if (o->sync == DISK_FSYNC ? fsync(fd)
			    : o->sync == DISK_FDATASYNC ? fdatasync(fd) : 0)
				rc = -errno;
			off = 0;
		}
	}
	close(fd);
	free(buf);
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_disk = {
	.name = "disk",
	.help = "write + fsync streams to a directory (ops = blocks written)",
	.options = disk_options,
	.opts_size = sizeof(struct disk_opts),
	.check = disk_check,
	.preflight = disk_preflight,
	.fs_path = disk_fs_path,
	.run = disk_run,
};
