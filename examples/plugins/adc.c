/*
 * adc: the BeagleBone's ADC read through sysfs, the right way — the file
 * kept open, pread() from offset 0 each period (sysfs makes the value
 * anew on a read at 0), the text parsed as an integer and refused when it
 * is not one. The seed's Python opened the file each time and took
 * 1.2 ms; its C forgot to seek back and measured fast, wrong reads.
 *
 *   [workload.adc]
 *   type = plugin
 *   path = build/plugins/adc.so
 *   file = /sys/bus/iio/devices/iio:device0/in_voltage0_raw
 *
 * Options: file (default /sys/kernel/uevent_seqnum, an integer every
 * Linux has). A file that does not exist skips the cell (-ENODEV).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latlab/plugin.h"

struct adc {
	int fd;
	long long value;	/* the last one read: kept, so the read is not optimised away */
};

static const char *option(const struct latlab_option *opt, int n, const char *key,
			  const char *def)
{
	for (int i = 0; i < n; i++)
		if (strcmp(opt[i].key, key) == 0)
			return opt[i].value;
	return def;
}

static int adc_check(const struct latlab_option *opt, int n, const char **bad, char *why,
		     size_t len)
{
	for (int i = 0; i < n; i++)
		if (strcmp(opt[i].key, "file") != 0) {
			*bad = opt[i].key;
			snprintf(why, len, "unknown option (adc takes file =)");
			return -EINVAL;
		}
	return 0;
}

static int adc_setup(struct latlab_step *s, const struct latlab_option *opt, int n)
{
	const char *file = option(opt, n, "file", "/sys/kernel/uevent_seqnum");
	struct adc *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->fd = open(file, O_RDONLY | O_CLOEXEC);
	if (a->fd < 0) {
		int rc = errno == ENOENT ? -ENODEV : -errno;

		snprintf(s->why, sizeof(s->why), "%s: %s", file, strerror(errno));
		free(a);
		return rc;
	}
	s->state = a;
	return 0;
}

static long long adc_step(struct latlab_step *s)
{
	struct adc *a = s->state;
	char buf[32], *end;
	ssize_t got = pread(a->fd, buf, sizeof(buf) - 1, 0);

	if (got < 0)
		return -errno;
	if (got == 0)
		return -ENODATA;
	buf[got] = '\0';
	errno = 0;
	a->value = strtoll(buf, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (end == buf || *end || errno)
		return -EBADMSG;
	return got;
}

static void adc_teardown(struct latlab_step *s)
{
	struct adc *a = s->state;

	close(a->fd);
	free(a);
}

const struct latlab_plugin latlab_plugin = {
	.abi = LATLAB_PLUGIN_ABI,
	.name = "adc",
	.check = adc_check,
	.setup = adc_setup,
	.step = adc_step,
	.teardown = adc_teardown,
};
