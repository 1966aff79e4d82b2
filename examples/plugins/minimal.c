/*
 * minimal: the smallest useful plugin — a step that does nothing but
 * count its periods, and fails every Nth one with EIO when asked, to see
 * how latlab counts a step's errors (docs/guide.md, "Measuring your own
 * code"). Build one like it with
 *
 *   cc -I/usr/include -fPIC -shared -o minimal.so minimal.c
 *
 * (latlab's tree: -Iinclude), and name it in a config:
 *
 *   [workload.mine]
 *   type = plugin
 *   path = ./minimal.so
 *   fail_every = 100
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latlab/plugin.h"

struct count {
	unsigned long long periods, fail_every;
};

static int minimal_check(const struct latlab_option *opt, int n, const char **bad, char *why,
			 size_t len)
{
	for (int i = 0; i < n; i++) {
		char *end;

		*bad = opt[i].key;
		if (strcmp(opt[i].key, "fail_every") != 0)
			return snprintf(why, len, "unknown option (minimal takes fail_every =)"), -EINVAL;
		strtoull(opt[i].value, &end, 10);
		if (end == opt[i].value || *end)
			return snprintf(why, len, "'%s' is not a number", opt[i].value), -EINVAL;
	}
	return 0;
}

static int minimal_setup(struct latlab_step *s, const struct latlab_option *opt, int n)
{
	struct count *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		if (strcmp(opt[i].key, "fail_every") == 0)
			c->fail_every = strtoull(opt[i].value, NULL, 10);
	s->state = c;
	return 0;
}

static long long minimal_step(struct latlab_step *s)
{
	struct count *c = s->state;

	c->periods++;
	if (c->fail_every && c->periods % c->fail_every == 0)
		return -EIO;	/* counted by latlab as an error of this period */
	return 0;		/* no bytes moved */
}

static void minimal_teardown(struct latlab_step *s)
{
	free(s->state);
}

const struct latlab_plugin latlab_plugin = {
	.abi = LATLAB_PLUGIN_ABI,
	.name = "minimal",
	.check = minimal_check,
	.setup = minimal_setup,
	.step = minimal_step,
	.teardown = minimal_teardown,
};
