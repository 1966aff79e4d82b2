/*
 * i2c: one transaction on an i2c-dev bus per period — a register address
 * written, two bytes read back in one I2C_RDWR (a repeated start), as a
 * temperature or ADC chip is read. Where no such bus exists the cell is
 * skipped with the reason, not failed.
 *
 *   [workload.temp]
 *   type = plugin
 *   path = build/plugins/i2c.so
 *   bus = /dev/i2c-1
 *   address = 0x48
 *   register = 0
 *
 * Options: bus (default /dev/i2c-1), address (7-bit, 0x03-0x77, default
 * 0x48), register (0-255, default 0).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "latlab/plugin.h"

struct bus {
	int fd;
	unsigned short address;
	unsigned char reg, data[2];
};

/* A number within [lo, hi]: 0, or -EINVAL. */
static int number(const char *text, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(text, &end, 0);
	return end == text || *end || errno || *v < lo || *v > hi ? -EINVAL : 0;
}

static int parse(const struct latlab_option *opt, int n, struct bus *b, const char **bus,
		 const char **bad, char *why, size_t len)
{
	long v;

	*bus = "/dev/i2c-1";
	b->address = 0x48;
	b->reg = 0;
	for (int i = 0; i < n; i++) {
		const char *k = opt[i].key;

		*bad = k;
		if (strcmp(k, "bus") == 0)
			*bus = opt[i].value;
		else if (strcmp(k, "address") == 0 && number(opt[i].value, 0x03, 0x77, &v) == 0)
			b->address = (unsigned short)v;
		else if (strcmp(k, "register") == 0 && number(opt[i].value, 0, 255, &v) == 0)
			b->reg = (unsigned char)v;
		else
			return snprintf(why, len, strcmp(k, "address") == 0 ? "'%s' is not a 7-bit address (0x03-0x77)" :
				       strcmp(k, "register") == 0 ? "'%s' is not a register (0-255)" :
				       "unknown option '%s' (i2c takes bus, address, register)",
				       strcmp(k, "address") == 0 || strcmp(k, "register") == 0 ? opt[i].value : k),
			       -EINVAL;
	}
	*bad = NULL;
	return 0;
}

static int i2c_check(const struct latlab_option *opt, int n, const char **bad, char *why,
		     size_t len)
{
	struct bus b;
	const char *bus;

	return parse(opt, n, &b, &bus, bad, why, len);
}

static int i2c_setup(struct latlab_step *s, const struct latlab_option *opt, int n)
{
	struct bus *b = calloc(1, sizeof(*b));
	const char *bus, *bad;
	int rc;

	if (!b)
		return -ENOMEM;
	rc = parse(opt, n, b, &bus, &bad, s->why, sizeof(s->why));
	if (rc)
		goto fail;
	b->fd = open(bus, O_RDWR | O_CLOEXEC);
	if (b->fd < 0) {
		rc = errno == ENOENT ? -ENODEV : -errno;
		snprintf(s->why, sizeof(s->why), "%s: %s%s", bus, strerror(errno),
			 errno == ENOENT ? " (no such i2c bus here: modprobe i2c-dev, or another bus =)" : "");
		goto fail;
	}
	s->state = b;
	return 0;
fail:
	free(b);
	return rc;
}

static long long i2c_step(struct latlab_step *s)
{
	struct bus *b = s->state;
	struct i2c_msg msg[2] = {
		{ .addr = b->address, .flags = 0, .len = 1, .buf = &b->reg },
		{ .addr = b->address, .flags = I2C_M_RD, .len = 2, .buf = b->data },
	};
	struct i2c_rdwr_ioctl_data xfer = { .msgs = msg, .nmsgs = 2 };

	return ioctl(b->fd, I2C_RDWR, &xfer) < 0 ? -errno : 3;
}

static void i2c_teardown(struct latlab_step *s)
{
	struct bus *b = s->state;

	close(b->fd);
	free(b);
}

const struct latlab_plugin latlab_plugin = {
	.abi = LATLAB_PLUGIN_ABI,
	.name = "i2c",
	.check = i2c_check,
	.setup = i2c_setup,
	.step = i2c_step,
	.teardown = i2c_teardown,
};
