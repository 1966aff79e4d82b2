/*
 * sysfs-read (seed 000, the BeagleBone ADC): pread() of a sysfs or procfs
 * attribute from offset 0 each cycle, parsed as an integer. Every read is
 * validated — the seed's C program forgot an fseek and measured fast,
 * wrong reads — so an errno, an empty read (ENODATA), a value longer than
 * the buffer (EOVERFLOW) or text that is not an integer (EBADMSG) is an
 * error, never a sample. Example: the BeagleBone Black's ADC channel 0,
 *   path = /sys/bus/iio/devices/iio:device0/in_voltage0_raw
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

struct sysfs_opts {
	char path[OPT_STR_MAX];
};

struct sysfs_state {
	int fd;
	long long last;		/* the value read, so it is not optimised away */
};

static const struct opt sysfs_options[] = {
	{ .key = "path", .type = OPT_STRING,
	  .offset = offsetof(struct sysfs_opts, path),
	  .def = "/sys/kernel/uevent_seqnum",
	  .help = "attribute holding one integer (ADC: /sys/bus/iio/devices/iio:device0/in_voltage0_raw)" },
	{ 0 },
};

static int sysfs_setup(struct workload_ctx *ctx)
{
	const struct sysfs_opts *o = ctx->opts;
	struct sysfs_state *st = calloc(1, sizeof(*st));
	int fd;

	if (!st)
		return -ENOMEM;
	fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;

		free(st);
		return workload_fail(ctx, rc == -ENOENT ? -ENODEV : rc,
				     "%s %s: %s", rc == -ENOENT ? "no" : "cannot open",
				     o->path, strerror(-rc));
	}
	st->fd = fd;
	ctx->priv = st;
	return 0;
}

/* Parse the attribute's text: an integer and trailing blanks only. */
static int parse_value(const char *buf, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (end == buf || errno)
		return -EBADMSG;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -EBADMSG : 0;
}

static int64_t sysfs_run(struct workload_ctx *ctx)
{
	struct sysfs_state *st = ctx->priv;
	char buf[64];
	/* from offset 0 every time: sysfs regenerates the value on a read at 0 */
	ssize_t n = pread(st->fd, buf, sizeof(buf) - 1, 0);
	int rc;

	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENODATA;
	if (n == (ssize_t)sizeof(buf) - 1)
		return -EOVERFLOW;
	buf[n] = '\0';
	rc = parse_value(buf, &st->last);
	return rc ? rc : n;
}

static void sysfs_teardown(struct workload_ctx *ctx)
{
	struct sysfs_state *st = ctx->priv;

	if (st)
		close(st->fd);
	free(st);
	ctx->priv = NULL;
}

const struct workload_ops workload_sysfs_read = {
	.name = "sysfs-read",
	.help = "pread an integer attribute from offset 0 (sysfs/procfs), validated",
	.options = sysfs_options,
	.opts_size = sizeof(struct sysfs_opts),
	.primary = METRIC_RESPONSE,
	.setup = sysfs_setup,
	.run = sysfs_run,
	.teardown = sysfs_teardown,
};
