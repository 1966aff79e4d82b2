/*
 * dev-read: `size` bytes from a character device each cycle (a sensor, a
 * DMA engine's FIFO, /dev/urandom). An errno or an empty read is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload.h"

struct dev_opts {
	char path[OPT_STR_MAX];
};

struct dev_state {
	int fd;
	char *buf;
};

static const struct opt dev_options[] = {
	{ .key = "path", .type = OPT_STRING,
	  .offset = offsetof(struct dev_opts, path), .def = "/dev/urandom",
	  .help = "character device to read `size` bytes from" },
	{ 0 },
};

static int dev_setup(struct workload_ctx *ctx)
{
	const struct dev_opts *o = ctx->opts;
	struct dev_state *st = calloc(1, sizeof(*st));
	struct stat sb;

	if (!st)
		return -ENOMEM;
	st->fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0) {
		int rc = -errno;

		free(st);
		return workload_fail(ctx, rc == -ENOENT ? -ENODEV : rc,
				     "%s %s: %s", rc == -ENOENT ? "no" : "cannot open",
				     o->path, strerror(-rc));
	}
	if (fstat(st->fd, &sb) || !S_ISCHR(sb.st_mode)) {
		close(st->fd);
		free(st);
		return workload_fail(ctx, -EINVAL, "%s is not a character device",
				     o->path);
	}
	st->buf = malloc((size_t)ctx->size);
	if (!st->buf) {
		close(st->fd);
		free(st);
		return -ENOMEM;
	}
	memset(st->buf, 0, (size_t)ctx->size);	/* touched: no fault in run() */
	ctx->priv = st;
	return 0;
}

static int64_t dev_run(struct workload_ctx *ctx)
{
	struct dev_state *st = ctx->priv;
	ssize_t n = read(st->fd, st->buf, (size_t)ctx->size);

	if (n < 0)
		return -errno;
	return n == 0 ? -ENODATA : n;
}

static void dev_teardown(struct workload_ctx *ctx)
{
	struct dev_state *st = ctx->priv;

	if (st) {
		close(st->fd);
		free(st->buf);
	}
	free(st);
	ctx->priv = NULL;
}

const struct workload_ops workload_dev_read = {
	.name = "dev-read",
	.help = "read `size` bytes from a character device (default /dev/urandom)",
	.options = dev_options,
	.opts_size = sizeof(struct dev_opts),
	.primary = METRIC_RESPONSE,
	.setup = dev_setup,
	.run = dev_run,
	.teardown = dev_teardown,
};
