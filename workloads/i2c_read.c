/*
 * i2c-read (seed 003): an SMBus "read byte data" of `register` from the
 * device at `address` on /dev/i2c-`bus`, as the seed's test program does —
 * through the kernel's i2c-dev interface, one ioctl per cycle. Where the
 * bus does not exist the cell is skipped ("no /dev/i2c-N"), not failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "workload.h"

struct i2c_opts {
	int64_t bus, address, reg;
	int force;
};

struct i2c_state {
	int fd;
	int reg;
	int last;
};

static const struct opt i2c_options[] = {
	{ .key = "bus", .type = OPT_INT, .offset = offsetof(struct i2c_opts, bus),
	  .min = 0, .max = 255, .def = "1", .help = "the N of /dev/i2c-N" },
	{ .key = "address", .type = OPT_INT,
	  .offset = offsetof(struct i2c_opts, address), .min = 0x03, .max = 0x77,
	  .def = "0x50", .help = "7-bit device address (0x4b, ...)" },
	{ .key = "register", .type = OPT_INT, .offset = offsetof(struct i2c_opts, reg),
	  .min = 0, .max = 255, .def = "0", .help = "register to read a byte from" },
	{ .key = "force", .type = OPT_ENUM, .offset = offsetof(struct i2c_opts, force),
	  .def = "off", .help = "I2C_SLAVE_FORCE: also when a driver owns the address",
	  .choices = "off|on" },
	{ 0 },
};

static int i2c_setup(struct workload_ctx *ctx)
{
	const struct i2c_opts *o = ctx->opts;
	struct i2c_state *st = calloc(1, sizeof(*st));
	char path[32];
	int rc;

	if (!st)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/dev/i2c-%d", (int)o->bus);
	st->fd = open(path, O_RDWR | O_CLOEXEC);
	if (st->fd < 0) {
		rc = -errno;
		free(st);
		if (rc == -ENOENT)
			return workload_fail(ctx, -ENODEV, "no %s", path);
		return workload_fail(ctx, rc, "cannot open %s: %s", path,
				     strerror(-rc));
	}
	if (ioctl(st->fd, o->force ? I2C_SLAVE_FORCE : I2C_SLAVE,
		  (unsigned long)o->address) < 0) {
		rc = -errno;
		close(st->fd);
		free(st);
		return workload_fail(ctx, rc, "%s: address 0x%02x: %s%s", path,
				     (int)o->address, strerror(-rc),
				     rc == -EBUSY ? " (a driver owns it; force = on)" : "");
	}
	st->reg = (int)o->reg;
	ctx->priv = st;
	return 0;
}

static int64_t i2c_run(struct workload_ctx *ctx)
{
	struct i2c_state *st = ctx->priv;
	union i2c_smbus_data data;
	struct i2c_smbus_ioctl_data args = {
		.read_write = I2C_SMBUS_READ,
		.command = (unsigned char)st->reg,
		.size = I2C_SMBUS_BYTE_DATA,
		.data = &data,
	};

	if (ioctl(st->fd, I2C_SMBUS, &args) < 0)
		return -errno;
	st->last = data.byte;
	return 1;
}

static void i2c_teardown(struct workload_ctx *ctx)
{
	struct i2c_state *st = ctx->priv;

	if (st)
		close(st->fd);
	free(st);
	ctx->priv = NULL;
}

const struct workload_ops workload_i2c_read = {
	.name = "i2c-read",
	.help = "SMBus byte read of `register` from `address` on /dev/i2c-N",
	.options = i2c_options,
	.opts_size = sizeof(struct i2c_opts),
	.primary = METRIC_RESPONSE,
	.setup = i2c_setup,
	.run = i2c_run,
	.teardown = i2c_teardown,
};
