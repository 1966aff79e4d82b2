/*
 * plugin: the user's own step, from a shared object with latlab's plugin
 * ABI (include/latlab/plugin.h). `path` names the object; every other key
 * of the section is the plugin's, passed through as written. Loaded when
 * plan or run look at the machine (preflight: a missing file or symbol, a
 * wrong ABI, an option the plugin refuses — exit 2 at the key's line),
 * and once per measured thread for its set-up. The object runs inside
 * latlab, with its privileges.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latlab/plugin.h"
#include "workload.h"

#define PLUGIN_OPTIONS_MAX 32
#define PLUGIN_KEY_MAX 64
#define PLUGIN_VALUE_MAX 512

struct plugin_opts {
	char path[OPT_STR_MAX];
	int n;
	char key[PLUGIN_OPTIONS_MAX][PLUGIN_KEY_MAX];
	char value[PLUGIN_OPTIONS_MAX][PLUGIN_VALUE_MAX];
};

struct plugin_state {
	void *handle;
	const struct latlab_plugin *p;
	struct latlab_step step;
};

static const struct opt plugin_options[] = {
	{ .key = "path", .type = OPT_STRING, .offset = offsetof(struct plugin_opts, path),
	  .def = "", .help = "the plugin, a shared object with latlab's plugin ABI (include/latlab/plugin.h); every other key of the section is the plugin's own" },
	{ 0 },
};

static int plugin_extra(void *opts, const char *key, const char *value, char *err, size_t len)
{
	struct plugin_opts *o = opts;

	if (o->n == PLUGIN_OPTIONS_MAX)
		return snprintf(err, len, "more than %d options for the plugin", PLUGIN_OPTIONS_MAX),
		       -E2BIG;
	if (strlen(key) >= PLUGIN_KEY_MAX || strlen(value) >= PLUGIN_VALUE_MAX)
		return snprintf(err, len, "'%s': a plugin's key is at most %d characters, its value %d",
				key, PLUGIN_KEY_MAX - 1, PLUGIN_VALUE_MAX - 1), -E2BIG;
	snprintf(o->key[o->n], PLUGIN_KEY_MAX, "%s", key);
	snprintf(o->value[o->n], PLUGIN_VALUE_MAX, "%s", value);
	o->n++;
	return 0;
}

static void plugin_echo(FILE *fp, const void *opts)
{
	const struct plugin_opts *o = opts;

	for (int i = 0; i < o->n; i++)
		fprintf(fp, "%s = %s\n", o->key[i], o->value[i]);
}

static int plugin_check(const void *opts, char *err, size_t len)
{
	const struct plugin_opts *o = opts;

	if (!o->path[0])
		return snprintf(err, len, "type = plugin needs path = the plugin's shared object"),
		       -EINVAL;
	return 0;
}

/* The options as the ABI passes them. */
static void as_options(const struct plugin_opts *o, struct latlab_option *opt)
{
	for (int i = 0; i < o->n; i++) {
		opt[i].key = o->key[i];
		opt[i].value = o->value[i];
	}
}

/*
 * The object loaded and its ABI checked: the plugin, or NULL with why in
 * err (the handle, when loaded, in *handle for dlclose).
 */
static const struct latlab_plugin *load(const struct plugin_opts *o, void **handle,
					char *err, size_t len)
{
	const struct latlab_plugin *p;

	*handle = dlopen(o->path, RTLD_NOW | RTLD_LOCAL);
	if (!*handle) {
		snprintf(err, len, "path = %s: %s", o->path, dlerror());
		return NULL;
	}
	p = dlsym(*handle, "latlab_plugin");
	if (!p)
		snprintf(err, len, "path = %s: no latlab_plugin symbol: not a latlab plugin", o->path);
	else if (p->abi != LATLAB_PLUGIN_ABI)
		snprintf(err, len, "path = %s: built for plugin ABI %u, latlab has %d (rebuild it against this latlab's include/latlab/plugin.h)",
			 o->path, p->abi, LATLAB_PLUGIN_ABI);
	else if (!p->step)
		snprintf(err, len, "path = %s: its latlab_plugin has no step()", o->path);
	else
		return p;
	dlclose(*handle);
	*handle = NULL;
	return NULL;
}

static int plugin_preflight(const void *opts, const char **key, char *err, size_t len)
{
	const struct plugin_opts *o = opts;
	struct latlab_option opt[PLUGIN_OPTIONS_MAX];
	void *handle;
	const struct latlab_plugin *p = load(o, &handle, err, len);
	int rc = 0;

	*key = "path";
	if (!p)
		return -EINVAL;
	as_options(o, opt);
	if (p->check) {
		const char *bad = NULL;
		char why[256] = "";

		rc = p->check(opt, o->n, &bad, why, sizeof(why));
		why[sizeof(why) - 1] = '\0';	/* the plugin's: maybe unterminated */
		if (rc) {
			/* the key as the config holds it, for its line; else the section's */
			*key = "type";
			for (int i = 0; bad && i < o->n; i++)
				if (strcmp(o->key[i], bad) == 0)
					*key = o->key[i];
			if (!why[0] && rc > 0)
				snprintf(why, sizeof(why), "check() returned %d, not a negative errno", rc);
			else if (!why[0])
				snprintf(why, sizeof(why), "%s", strerror(-rc));
			snprintf(err, len, "plugin %s: %s%s%s", p->name ? p->name : o->path,
				 bad ? bad : "", bad ? ": " : "", why);
		}
	}
	dlclose(handle);
	return rc ? -EINVAL : 0;
}

static int plugin_setup(struct workload_ctx *ctx)
{
	const struct plugin_opts *o = ctx->opts;
	struct latlab_option opt[PLUGIN_OPTIONS_MAX];
	struct plugin_state *st = calloc(1, sizeof(*st));
	char err[sizeof(ctx->why)];
	int rc;

	if (!st)
		return -ENOMEM;
	st->p = load(o, &st->handle, err, sizeof(err));
	if (!st->p) {
		free(st);
		return workload_fail(ctx, -EINVAL, "%s", err);
	}
	st->step.thread = ctx->thread;
	st->step.cpu = ctx->cpu;
	st->step.size = ctx->size;
	as_options(o, opt);
	rc = st->p->setup ? st->p->setup(&st->step, opt, o->n) : 0;
	st->step.why[sizeof(st->step.why) - 1] = '\0';	/* the plugin's: maybe unterminated */
	if (rc) {
		int code = rc < 0 ? rc : -EINVAL;

		workload_fail(ctx, code, "plugin %s: %s", st->p->name ? st->p->name : o->path,
			      st->step.why[0] ? st->step.why : strerror(-code));
		dlclose(st->handle);
		free(st);
		return code;
	}
	ctx->priv = st;
	return 0;
}

/*
 * The most bytes one step may say it moved: 1 TiB in one period is no
 * figure any device gives; a sum of such would wrap the cell's int64
 * totals (a step returning LLONG_MAX made bytes -1000 and the rate
 * INT64_MIN, the cell ok)
 */
#define STEP_MAX_BYTES (1LL << 40)

static int64_t plugin_run(struct workload_ctx *ctx)
{
	struct plugin_state *st = ctx->priv;
	long long r = st->p->step(&st->step);

	/* an impossible count, or a negative that is no errno: an error, not a figure */
	if (r > STEP_MAX_BYTES)
		return -ERANGE;
	if (r < -4095)
		return -EINVAL;
	return r;
}

static void plugin_teardown(struct workload_ctx *ctx)
{
	struct plugin_state *st = ctx->priv;

	if (!st)
		return;
	if (st->p->teardown)
		st->p->teardown(&st->step);
	dlclose(st->handle);
	free(st);
	ctx->priv = NULL;
}

static const char *plugin_loads(const void *opts)
{
	return ((const struct plugin_opts *)opts)->path;
}

const struct workload_ops workload_plugin = {
	.name = "plugin",
	.help = "your own step from a shared object (include/latlab/plugin.h): path = the object, other keys its own; io is the step",
	.options = plugin_options,
	.opts_size = sizeof(struct plugin_opts),
	.check = plugin_check,
	.extra = plugin_extra,
	.echo = plugin_echo,
	.preflight = plugin_preflight,
	.loads = plugin_loads,
	.primary = METRIC_RESPONSE,
	.setup = plugin_setup,
	.run = plugin_run,
	.teardown = plugin_teardown,
};
