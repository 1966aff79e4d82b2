#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chain.h"
#include "config_parts.h"
#include "cpulist.h"
#include "load_ops.h"
#include "match.h"
#include "units.h"

/* ---- pass 2: interpret the entries through the tables ---- */
int valid_name(const char *s)
{
	if (!*s || strlen(s) >= CFG_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

/* Index of the def called `name` in an array of defs (each starts with its name). */
static int find_def(const void *arr, int n, size_t elem, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp((const char *)arr + (size_t)i * elem, name) == 0)
			return i;
	return -1;
}

int config_kernel_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->kernel, cfg->nkernels, sizeof(cfg->kernel[0]), name);
}

int config_load_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->load, cfg->nloads, sizeof(cfg->load[0]), name);
}

int config_workload_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->workload, cfg->nworkloads,
			sizeof(cfg->workload[0]), name);
}

const char *config_cell_files(const struct workload_def *wd, const struct load_def *l,
			      int *of_load)
{
	const char *path = wd->ops->fs_path ? wd->ops->fs_path(wd->opts) : NULL;
	int load = !path && l->ops && l->ops->fs_path;

	if (of_load)
		*of_load = load;
	return load ? l->ops->fs_path(l->opts) : path;
}

int config_load_outside(const struct kernel_def *k, const struct load_def *l)
{
	return k->runner == RUNNER_CONTAINER && k->load_in == LOAD_IN_HOST && l->ops;
}

int config_cell_sends_ip(const struct workload_def *wd, const struct load_def *l)
{
	return workload_sends_ip(wd->ops, wd->opts) || (l->ops && l->ops->net);
}

/*
 * The definition called `name` in a [kind.NAME] family, created on first
 * sight. Returns its address (each def struct starts with its name), or
 * NULL with err set.
 */
static void *get_def(void *arr, int *n, size_t elem, const char *name,
		     const struct srcloc *loc, const char *kind, char *err,
		     size_t errlen)
{
	char *p = arr;
	int i = find_def(arr, *n, elem, name);

	if (i >= 0)
		return p + (size_t)i * elem;
	if (!valid_name(name)) {
		cfg_fail(err, errlen, loc,
			 "[%s.%s]: a name is letters, digits, '_', '.', '-' (at most %d)",
			 kind, name, CFG_NAME_MAX - 1);
		return NULL;
	}
	if (*n >= CFG_DEFS_MAX) {
		cfg_fail(err, errlen, loc, "more than %d [%s.*] sections",
			 CFG_DEFS_MAX, kind);
		return NULL;
	}
	p += (size_t)(*n)++ * elem;
	memset(p, 0, elem);
	snprintf(p, CFG_NAME_MAX, "%s", name);
	return p;
}

/* " (did you mean 'X'?)" when X is near; "" otherwise. */
static const char *mean(char *buf, size_t len, const char *near)
{
	if (!near)
		return "";
	snprintf(buf, len, " (did you mean '%s'?)", near);
	return buf;
}

/*
 * A name the matrix (or a chain) gives that no section defines: the
 * nearest section of that kind the matrix does not name, and where it
 * is. A misspelt [workload.loger] is named as the orphan it is, not
 * only the line that missed it.
 */
static const char *orphan(char *buf, size_t len, const char *kind, const char *name,
			  const struct axis *ax, const char *const *names,
			  const struct srcloc *const *locs, int n)
{
	const char *free_names[CFG_DEFS_MAX] = { NULL };
	const struct srcloc *free_locs[CFG_DEFS_MAX];
	int m = 0;

	for (int i = 0; i < n && m < CFG_DEFS_MAX; i++) {
		if (axis_has_item(ax, names[i]))
			continue;
		free_names[m] = names[i];
		free_locs[m++] = locs[i];
	}
	const char *near = opt_nearest(name, free_names, m);

	if (!near)
		return "";
	for (int i = 0; i < m; i++)
		if (free_names[i] == near)
			snprintf(buf, len, "; did you mean [%s.%s] (%s:%d), which the matrix does not name?",
				 kind, near, free_locs[i]->file, free_locs[i]->line);
	return buf;
}

/* orphan() over the sections of a kind: "kernel", "load" or "workload" */
static const char *orphan_of(char *buf, size_t len, const struct config *cfg,
			     const char *kind, const char *name)
{
	const char *names[CFG_DEFS_MAX];
	const struct srcloc *locs[CFG_DEFS_MAX];
	const struct axis *ax;
	int n;

	if (strcmp(kind, "kernel") == 0) {
		for (n = 0; n < cfg->nkernels; n++) {
			names[n] = cfg->kernel[n].name;
			locs[n] = &cfg->kernel[n].loc;
		}
		ax = &cfg->matrix.kernel;
	} else if (strcmp(kind, "load") == 0) {
		for (n = 0; n < cfg->nloads; n++) {
			names[n] = cfg->load[n].name;
			locs[n] = &cfg->load[n].loc;
		}
		ax = &cfg->matrix.load;
	} else {
		for (n = 0; n < cfg->nworkloads; n++) {
			names[n] = cfg->workload[n].name;
			locs[n] = &cfg->workload[n].loc;
		}
		ax = &cfg->matrix.workload;
	}
	return orphan(buf, len, kind, name, ax, names, locs, n);
}

/* The registry's names, for a "did you mean" of a type. */
static const char *nearest_workload(const char *type)
{
	const char *names[64];
	int n = 0;

	for (int i = 0; workload_registry[i] && n < 64; i++)
		names[n++] = workload_registry[i]->name;
	return opt_nearest(type, names, n);
}

static const char *nearest_load(const char *type)
{
	const char *names[64] = { "none" };
	int n = 1;

	for (int i = 0; load_registry[i] && n < 64; i++)
		names[n++] = load_registry[i]->name;
	return opt_nearest(type, names, n);
}

static int set_option(const struct opt *table, void *base,
		      const struct config_entry *e, char *err, size_t errlen)
{
	const struct opt *o = opt_find(table, e->key);
	char why[256], dym[96];

	if (!o)
		return cfg_fail(err, errlen, &e->loc,
				"unknown key '%s' in [%s]%s (see latlab list)",
				e->key, e->section,
				mean(dym, sizeof(dym), opt_suggest(e->key, table, NULL)));
	if (opt_parse(o, base, e->value, why, sizeof(why)) != 0)
		return cfg_fail(err, errlen, &e->loc, "%s", why);
	return 0;
}

/* [thresholds] and [thresholds.METRIC]'s entries. */
static int apply_thresholds(struct config *cfg, const struct config_entry *e, char *err,
			    size_t errlen)
{
	const char *s = e->section;

	if (strcmp(s, "thresholds") == 0) {
		cfg->has_thresholds = 1;
		if (strcmp(e->key, "baseline") == 0)
			cfg->baseline_loc = e->loc;
		if (opt_find(baseline_options, e->key))
			return set_option(baseline_options, &cfg->thresholds, e, err, errlen);
		if (opt_find(missed_options, e->key))
			return set_option(missed_options, &cfg->thresholds, e, err, errlen);
		return set_option(threshold_options, &cfg->thresholds, e, err,
				  errlen);
	}
	int m = opt_choice_index(METRIC_NAMES, s + 11);

	if (m < 0)
		return cfg_fail(err, errlen, &e->section_loc,
				"unknown section [%s]: thresholds per metric are [thresholds.M] for M one of %s",
				s, METRIC_NAMES);
	if (strncmp(e->key, "baseline", 8) == 0)
		return cfg_fail(err, errlen, &e->loc,
				"%s belongs in [thresholds], not in [%s]: a baseline judges the whole campaign",
				e->key, s);
	cfg->has_metric_thresholds[m] = 1;
	/* the table without its first row, metric: the section names it */
	return set_option(threshold_options + 1, &cfg->metric_thresholds[m], e, err, errlen);
}

/* A [kernel.NAME], [load.NAME] or [workload.NAME] entry, its definition made at the first. */
static int apply_def(struct config *cfg, const struct config_entry *e, char *err, size_t errlen)
{
	const char *s = e->section;
	void *def;

	if (strncmp(s, "kernel.", 7) == 0) {
		def = get_def(cfg->kernel, &cfg->nkernels,
			      sizeof(cfg->kernel[0]), s + 7, &e->loc, "kernel",
			      err, errlen);
		if (!def)
			return -EINVAL;
		struct kernel_def *k = def;
		if (!k->loc.file) {
			opt_defaults(kernel_options, k);
			k->loc = e->section_loc;
		}
		return set_option(kernel_options, k, e, err, errlen);
	}
	if (strncmp(s, "load.", 5) == 0) {
		def = get_def(cfg->load, &cfg->nloads, sizeof(cfg->load[0]),
			      s + 5, &e->loc, "load", err, errlen);
		if (!def)
			return -EINVAL;
		struct load_def *l = def;
		if (!l->loc.file) {
			opt_defaults(load_options, l);
			l->loc = e->section_loc;
		}
		if (opt_find(load_options, e->key))
			return set_option(load_options, l, e, err, errlen);
		return 0;	/* type options: checked once the type is known */
	}
	def = get_def(cfg->workload, &cfg->nworkloads,
		      sizeof(cfg->workload[0]), s + 9, &e->loc,
		      "workload", err, errlen);
	if (!def)
		return -EINVAL;
	struct workload_def *w = def;
	if (!w->loc.file)
		w->loc = e->section_loc;
	if (strcmp(e->key, "type") == 0) {
		if (strlen(e->value) >= sizeof(w->type))
			return cfg_fail(err, errlen, &e->loc,
					"type too long");
		snprintf(w->type, sizeof(w->type), "%s", e->value);
	}
	return 0;	/* options: checked once the type is known */
}

/* A section none of the others: what it may have meant. */
static int unknown_section(const struct config_entry *e, char *err, size_t errlen)
{
	static const char *const sections[] = {
		"campaign", "matrix", "thresholds", "trace", "kernel", "load", "workload",
	};
	const char *s = e->section;
	char head[64], dym[96];

	/* [lod.hb]: the part before the dot is what was mistyped */
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(s, "."), s);
	const char *near = opt_nearest(head, sections, (int)(sizeof(sections) / sizeof(sections[0])));
	dym[0] = '\0';
	if (near)
		snprintf(dym, sizeof(dym), " (did you mean [%s%.40s]?)", near,
			 strchr(s, '.') ? strchr(s, '.') : "");
	return cfg_fail(err, errlen, &e->section_loc,
			"unknown section [%s]%s: expected campaign, matrix, thresholds, thresholds.METRIC, trace, kernel.NAME, load.NAME or workload.NAME",
			s, dym);
}

int apply_entry(struct config *cfg, const struct config_entry *e,
		       char *err, size_t errlen)
{
	const char *s = e->section;

	/* values are echoed into campaign.ini and cell.ini: one line each */
	for (const char *c = e->value; *c; c++)
		if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
			return cfg_fail(err, errlen, &e->loc,
					"%s: a control character (0x%02x) in the value",
					e->key, (unsigned char)*c);
	if (strcmp(s, "campaign") == 0)
		return set_option(campaign_options, &cfg->campaign, e, err,
				  errlen);
	if (strcmp(s, "matrix") == 0) {
		struct matrix_opts *m = &cfg->matrix;
		int rc = set_option(matrix_options, m, e, err, errlen);
		const struct opt *o = opt_find(matrix_options, e->key);

		if (rc == 0) {
			struct axis *ax = (struct axis *)((char *)m +
							  o->offset);
			ax->loc = e->loc;
		}
		return rc;
	}
	if (strcmp(s, "thresholds") == 0 || strncmp(s, "thresholds.", 11) == 0)
		return apply_thresholds(cfg, e, err, errlen);
	if (strcmp(s, "trace") == 0) {
		cfg->has_trace = 1;
		if (!cfg->trace_loc.file || strcmp(e->key, "mode") == 0)
			cfg->trace_loc = strcmp(e->key, "mode") == 0 ? e->loc : e->section_loc;
		return set_option(trace_options, &cfg->trace, e, err, errlen);
	}
	if (strncmp(s, "kernel.", 7) == 0 || strncmp(s, "load.", 5) == 0 ||
	    strncmp(s, "workload.", 9) == 0)
		return apply_def(cfg, e, err, errlen);
	return unknown_section(e, err, errlen);
}

struct srcloc config_key_loc(const struct config *cfg, const char *section,
			     const char *key, struct srcloc fallback)
{
	for (int i = cfg->nentries - 1; i >= 0; i--)
		if (strcmp(cfg->entries[i].section, section) == 0 &&
		    strcmp(cfg->entries[i].key, key) == 0)
			return cfg->entries[i].loc;
	return fallback;
}

int config_echo_loc(const struct config *cfg, const char *echo, int line, struct srcloc *loc)
{
	char section[CFG_NAME_MAX * 2 + 16] = "", key[64];
	const char *p = echo;

	for (int n = 1; p && *p && n <= line; n++) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (p[0] == '[' && len > 2 && p[len - 1] == ']' && len - 2 < sizeof(section))
			snprintf(section, sizeof(section), "%.*s", (int)(len - 2), p + 1);
		else if (n == line) {
			size_t k = strcspn(p, " =\n");

			if (k == 0 || k >= sizeof(key) || k > len)
				return -ENOENT;
			snprintf(key, sizeof(key), "%.*s", (int)k, p);
			*loc = config_key_loc(cfg, section, key, (struct srcloc){ 0 });
			return loc->file ? 0 : -ENOENT;
		}
		p = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

void config_echo_map(const struct config *cfg, const char *echo, const char *path,
		     const char *text, char *out, size_t len)
{
	size_t n = strlen(path), u = 0;

	out[0] = '\0';
	while (*text && u + 1 < len) {
		const char *at = strstr(text, path);
		char *end;
		long line = at && at[n] == ':' ? strtol(at + n + 1, &end, 10) : 0;
		struct srcloc loc;

		if (!at) {
			snprintf(out + u, len - u, "%s", text);
			return;
		}
		if (line <= 0 || line > INT_MAX ||
		    config_echo_loc(cfg, echo, (int)line, &loc) != 0) {	/* as it is */
			u += (size_t)snprintf(out + u, len - u, "%.*s", (int)(at - text + n), text);
			text = at + n;
			continue;
		}
		u += (size_t)snprintf(out + u, len - u, "%.*s%s:%d (the guest's copy: line %ld)",
				      (int)(at - text), text, loc.file, loc.line, line);
		text = end;
	}
}

struct workload_def *config_add_workload(struct config *cfg, const char *name, const char *type,
					 char *err, size_t errlen)
{
	struct srcloc none = { 0 };
	struct workload_def *w = get_def(cfg->workload, &cfg->nworkloads, sizeof(cfg->workload[0]),
					 name, &none, "workload", err, errlen);

	if (!w)
		return NULL;
	snprintf(w->type, sizeof(w->type), "%s", type);
	w->ops = workload_find(type);
	if (!w->ops) {
		snprintf(err, errlen, "no workload type '%s'", type);
		return NULL;
	}
	w->opts = calloc(1, w->ops->opts_size ? w->ops->opts_size : 1);
	if (!w->opts) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	opt_defaults(w->ops->options, w->opts);
	return w;
}

/* a read config's [workload.NAME]: its type found, its options from the entries */
static int resolve_options(struct config *cfg, struct workload_def *w, const char *section,
			   struct srcloc tloc, char *err, size_t errlen)
{
	if (!w->type[0])	/* an empty type = is named on its own line */
		return cfg_fail(err, errlen, &tloc,
				tloc.line != w->loc.line ? "[%s] type is empty" : "[%s] has no 'type ='",
				section);
	w->ops = workload_find(w->type);
	if (!w->ops)
	{
		char dym[96];

		return cfg_fail(err, errlen, &tloc,
				"unknown workload type '%s'%s (latlab list shows them)",
				w->type, mean(dym, sizeof(dym), nearest_workload(w->type)));
	}
	w->opts = calloc(1, w->ops->opts_size ? w->ops->opts_size : 1);
	if (!w->opts)
		return cfg_fail(err, errlen, NULL, "out of memory");
	opt_defaults(w->ops->options, w->opts);
	for (int i = 0; i < cfg->nentries; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (strcmp(e->section, section) != 0 ||
		    strcmp(e->key, "type") == 0)
			continue;
		if (!opt_find(w->ops->options, e->key) && w->ops->extra) {
			char why[256];

			if (w->ops->extra(w->opts, e->key, e->value, why, sizeof(why)))
				return cfg_fail(err, errlen, &e->loc, "[workload.%s] %s", w->name, why);
			continue;
		}
		if (!opt_find(w->ops->options, e->key)) {
			char dym[96];

			return cfg_fail(err, errlen, &e->loc,
					"unknown key '%s' for workload type '%s'%s (see latlab list)",
					e->key, w->type,
					mean(dym, sizeof(dym), opt_suggest(e->key, w->ops->options, NULL)));
		}
		if (set_option(w->ops->options, w->opts, e, err, errlen))
			return -EINVAL;
	}
	return 0;
}

/* a workload's options against each other and against the matrix's intervals */
static int check_workload(struct config *cfg, struct workload_def *w, const char *section,
			  char *err, size_t errlen)
{
	char why[256];

	if (w->ops->check && w->ops->check(w->opts, why, sizeof(why)))
		return cfg_fail(err, errlen, &w->loc, "[workload.%s]: %s", w->name, why);
	/* against every interval of the matrix, at the offending key's line */
	for (int i = 0; w->ops->check_period && i < cfg->matrix.interval.n; i++) {
		const char *key = "type";

		if (w->ops->check_period(w->opts, cfg->matrix.interval.v[i], &key,
					 why, sizeof(why))) {
			struct srcloc kloc = config_key_loc(cfg, section, key, w->loc);

			return cfg_fail(err, errlen, &kloc, "[workload.%s] %s with interval = %s",
					w->name, why, cfg->matrix.interval.s[i]);
		}
	}
	return 0;
}

int resolve_workload(struct config *cfg, struct workload_def *w,
			    char *err, size_t errlen)
{
	char section[CFG_NAME_MAX + 16];
	struct srcloc tloc;

	snprintf(section, sizeof(section), "workload.%s", w->name);
	tloc = config_key_loc(cfg, section, "type", w->loc);
	if (!w->opts && resolve_options(cfg, w, section, tloc, err, errlen))
		return -EINVAL;
	return check_workload(cfg, w, section, err, errlen);
}

/*
 * Each chain's steps linked to their definitions (chain.h): a
 * [workload.NAME] section, or a type's defaults (made here, as the
 * matrix's are); not the chain itself, another chain or a watch; at most
 * CHAIN_MAX. Errors at the steps line.
 */
int resolve_chains(struct config *cfg, char *err, size_t errlen)
{
	int n = cfg->nworkloads;

	for (int i = 0; i < n; i++) {
		struct workload_def *w = &cfg->workload[i];
		char section[CFG_NAME_MAX + 16], name[CFG_NAME_MAX + 8], dym[PATH_MAX + 128];
		struct chain_opts *o;
		struct srcloc sl;

		if (w->ops != &workload_chain)
			continue;
		o = w->opts;
		snprintf(section, sizeof(section), "workload.%s", w->name);
		sl = config_key_loc(cfg, section, "steps", w->loc);
		o->n = 0;
		for (const char *p = o->steps; *p;) {
			size_t len;
			int j;

			p += strspn(p, " \t,");
			len = strcspn(p, ",");
			while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
				len--;
			if (!len)
				break;
			if (len >= sizeof(name))
				return cfg_fail(err, errlen, &sl, "[%s] steps: a name of more than %d characters",
						section, CFG_NAME_MAX);
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			p += len;
			p += strspn(p, " \t");
			if (o->n == CHAIN_MAX)
				return cfg_fail(err, errlen, &sl, "[%s] steps: more than %d", section,
						CHAIN_MAX);
			if (strcmp(name, w->name) == 0)
				return cfg_fail(err, errlen, &sl, "[%s] steps: '%s' is this chain itself",
						section, name);
			j = config_workload_index(cfg, name);
			if (j < 0) {
				struct workload_def *d;

				if (!workload_find(name))
					return cfg_fail(err, errlen, &sl,
							"[%s] steps: '%s' is neither a workload type nor a [workload.%s] section (latlab list shows the types)%s",
							section, name, name,
							orphan_of(dym, sizeof(dym), cfg, "workload", name));
				d = get_def(cfg->workload, &cfg->nworkloads, sizeof(cfg->workload[0]),
					    name, &sl, "workload", err, errlen);
				if (!d)
					return -EINVAL;
				snprintf(d->type, sizeof(d->type), "%s", name);
				d->loc = sl;
				if (resolve_workload(cfg, d, err, errlen))
					return -EINVAL;
				j = (int)(d - cfg->workload);
			}
			const struct workload_def *sd = &cfg->workload[j];

			if (!sd->ops)
				return -EINVAL;	/* its own error was said */
			if (sd->ops == &workload_chain)
				return cfg_fail(err, errlen, &sl, "[%s] steps: '%s' is a chain: chains do not nest",
						section, name);
			/* a kind of cell of its own (cyclictest, a watched program): no step a period runs */
			if (!sd->ops->run)
				return cfg_fail(err, errlen, &sl,
						"[%s] steps: '%s' (type = %s) is a cell of its own, not a step a period runs",
						section, name, sd->ops->name);
			o->ops[o->n] = sd->ops;
			o->opts[o->n] = sd->opts;
			o->n++;
		}
		if (o->n == 0)
			return cfg_fail(err, errlen, &sl, "[%s] steps: no workload named", section);
	}
	return 0;
}

/* The CPU list's syntax, typed: whether its CPUs are online is preflight's. */
static int check_load_cpus(struct load_def *l, struct srcloc loc,
			   char *err, size_t errlen)
{
	struct placement *p = &l->place;

	memset(p, 0, sizeof(*p));
	if (strcmp(l->cpus, "all") == 0) {
		p->kind = AFF_ALL;
	} else if (strcmp(l->cpus, "housekeeping") == 0) {
		p->kind = AFF_HOUSEKEEPING;
	} else if (strncmp(l->cpus, "node:", 5) == 0) {
		p->kind = AFF_NODE;
		p->node = cpulist_node_number(l->cpus);
		if (p->node < 0)
			return cfg_fail(err, errlen, &loc,
					"cpus = '%s': expected node:N with N a NUMA node number (0-%d)",
					l->cpus, NODE_MAX);
	} else {
		p->kind = AFF_LIST;
		if (cpulist_parse(l->cpus, &p->cpus) || CPU_COUNT(&p->cpus) == 0)
			return cfg_fail(err, errlen, &loc,
					"cpus = '%s': expected all, housekeeping, node:N or a CPU list",
					l->cpus);
	}
	return 0;
}

int resolve_places(struct config *cfg)
{
	const struct axis *aff = &cfg->matrix.affinity, *numa = &cfg->matrix.numa;

	/* each item was checked when the axis was read (OPT_AXIS_AFFINITY, _NUMA) */
	for (int i = 0; i < aff->n; i++) {
		struct placement *p = &cfg->place[i];

		memset(p, 0, sizeof(*p));
		p->kind = (int)aff->v[i];
		if (p->kind == AFF_NODE)
			p->node = cpulist_node_number(aff->s[i]);
		if (p->kind == AFF_LIST && cpulist_parse(aff->s[i], &p->cpus) != 0)
			return -EINVAL;
	}
	for (int i = 0; i < numa->n; i++)
		cfg->numa_node[i] = numa->v[i] == NUMA_NODE ? cpulist_node_number(numa->s[i]) : -1;
	return 0;
}

int resolve_load(struct config *cfg, struct load_def *l, char *err,
			size_t errlen)
{
	char section[CFG_NAME_MAX + 16], why[256];
	struct srcloc tloc;
	int64_t n = 1;

	snprintf(section, sizeof(section), "load.%s", l->name);
	tloc = config_key_loc(cfg, section, "type", l->loc);
	if (!l->type[0])
		return cfg_fail(err, errlen, &tloc,
				tloc.line != l->loc.line ? "[%s] type is empty" : "[%s] has no 'type ='",
				section);
	if (strcmp(l->type, "none") != 0) {
		l->ops = load_find(l->type);
		if (!l->ops) {
			char dym[96];

			return cfg_fail(err, errlen, &tloc,
					"unknown load type '%s'%s (latlab list shows them)",
					l->type, mean(dym, sizeof(dym), nearest_load(l->type)));
		}
	}
	l->cpus_loc = config_key_loc(cfg, section, "cpus", l->loc);
	if (check_load_cpus(l, l->cpus_loc, err, errlen))
		return -EINVAL;
	struct srcloc iloc = config_key_loc(cfg, section, "instances", l->loc);
	if (strcmp(l->instances, "per-cpu") != 0 &&
	    (units_parse_int(l->instances, &n) || n < 1 || n > 1024))
		return cfg_fail(err, errlen, &iloc,
				"instances = '%s': expected a number (1 to 1024) or per-cpu",
				l->instances);
	l->ninstances = strcmp(l->instances, "per-cpu") == 0 ? 0 : n;
	const struct opt *table = l->ops ? l->ops->options : NULL;
	size_t size = l->ops && l->ops->opts_size ? l->ops->opts_size : 1;

	l->opts = calloc(1, size);
	if (!l->opts)
		return cfg_fail(err, errlen, NULL, "out of memory");
	opt_defaults(table, l->opts);
	for (int i = 0; i < cfg->nentries; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (strcmp(e->section, section) != 0 ||
		    opt_find(load_options, e->key))
			continue;
		if (!opt_find(table, e->key)) {
			char dym[96];

			return cfg_fail(err, errlen, &e->loc,
					"unknown key '%s' for load type '%s'%s (see latlab list)",
					e->key, l->type,
					mean(dym, sizeof(dym), opt_suggest(e->key, table, load_options)));
		}
		if (set_option(table, l->opts, e, err, errlen))
			return -EINVAL;
	}
	if (l->ops && l->ops->check && l->ops->check(l->opts, why, sizeof(why)))
		return cfg_fail(err, errlen, &l->loc, "[%s]: %s", section, why);
	/* per-cpu: the CPUs are the machine's; where_fits counts them */
	int64_t workers = load_workers(l->ops, l->opts);
	if (l->ninstances && n * workers > LOAD_MAX_WORKERS)
		return cfg_fail(err, errlen, &iloc,
				"[%s] instances = %lld x %lld workers each = %lld: at most %d in all",
				section, (long long)n, (long long)workers,
				(long long)(n * workers), LOAD_MAX_WORKERS);
	return 0;
}

/* Axis names that are built in get a definition of their own. */
int add_builtin_defs(struct config *cfg, char *err, size_t errlen)
{
	const struct matrix_opts *m = &cfg->matrix;
	char dym[PATH_MAX + 128];

	for (int i = 0; i < m->kernel.n; i++) {
		const char *name = m->kernel.s[i];
		const char *match = kernel_builtin_match(name);
		struct kernel_def *k;

		if (config_kernel_index(cfg, name) >= 0)
			continue;
		if (!match)
			return cfg_fail(err, errlen, &m->kernel.loc,
					"kernel variant '%s' has no [kernel.%s] section (built in: running, stock, rt)%s",
					name, name, orphan_of(dym, sizeof(dym), cfg, "kernel", name));
		k = get_def(cfg->kernel, &cfg->nkernels,
			    sizeof(cfg->kernel[0]), name, &m->kernel.loc,
			    "kernel", err, errlen);
		if (!k)
			return -EINVAL;
		opt_defaults(kernel_options, k);
		snprintf(k->match, sizeof(k->match), "%s", match);
		k->loc = m->kernel.loc;
	}
	for (int i = 0; i < m->load.n; i++) {
		const char *name = m->load.s[i];
		struct load_def *l;

		if (config_load_index(cfg, name) >= 0)
			continue;
		if (strcmp(name, "none") != 0)
			return cfg_fail(err, errlen, &m->load.loc,
					"load '%s' has no [load.%s] section (built in: none)%s",
					name, name, orphan_of(dym, sizeof(dym), cfg, "load", name));
		l = get_def(cfg->load, &cfg->nloads, sizeof(cfg->load[0]),
			    name, &m->load.loc, "load", err, errlen);
		if (!l)
			return -EINVAL;
		opt_defaults(load_options, l);
		snprintf(l->type, sizeof(l->type), "none");
		l->loc = m->load.loc;
	}
	for (int i = 0; i < m->workload.n; i++) {
		const char *name = m->workload.s[i];
		struct workload_def *w;

		if (config_workload_index(cfg, name) >= 0)
			continue;
		if (!workload_find(name))
			return cfg_fail(err, errlen, &m->workload.loc,
					"workload '%s' is neither a workload type nor a [workload.%s] section (latlab list shows the types)%s",
					name, name, orphan_of(dym, sizeof(dym), cfg, "workload", name));
		w = get_def(cfg->workload, &cfg->nworkloads,
			    sizeof(cfg->workload[0]), name, &m->workload.loc,
			    "workload", err, errlen);
		if (!w)
			return -EINVAL;
		snprintf(w->type, sizeof(w->type), "%s", name);
		w->loc = m->workload.loc;
	}
	return 0;
}
