#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_parts.h"
#include "hash.h"
#include "load_ops.h"
#include "units.h"

/*
 * The earlier entry of the file that sets entry i's key in its section,
 * or NULL. --set may override anything: its entries are never twice.
 */
static const struct config_entry *first_set(const struct config *cfg, int i)
{
	const struct config_entry *e = &cfg->entries[i];

	if (e->loc.file == set_file)
		return NULL;
	for (int j = 0; j < i; j++) {
		const struct config_entry *f = &cfg->entries[j];

		if (f->loc.file == e->loc.file && !strcmp(f->section, e->section) &&
		    !strcmp(f->key, e->key))
			return f;
	}
	return NULL;
}

void config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	opt_defaults(campaign_options, &cfg->campaign);
	opt_defaults(matrix_options, &cfg->matrix);
	opt_defaults(threshold_options, &cfg->thresholds);
	opt_defaults(baseline_options, &cfg->thresholds);
	opt_defaults(missed_options, &cfg->thresholds);
	opt_defaults(trace_options, &cfg->trace);
	for (int m = 0; m < METRIC_COUNT; m++)
		opt_defaults(threshold_options + 1, &cfg->metric_thresholds[m]);
}

int config_finish(struct config *cfg, char *err, size_t errlen)
{
	struct cfg_errs errs = { err, errlen, 0 };

	err[0] = '\0';
	validate(cfg, &errs);
	cfg_errs_end(&errs);
	return errs.n ? -EINVAL : 0;
}

int config_load(struct config *cfg, const char *path,
		const char *const *sets, int nsets, char *err, size_t errlen)
{
	int rc = 0;

	config_init(cfg);
	if (path) {
		if (strlen(path) >= sizeof(cfg->path))
			return cfg_fail(err, errlen, NULL, "path too long");
		snprintf(cfg->path, sizeof(cfg->path), "%s", path);
		rc = read_file(cfg, err, errlen);
	}
	if (rc == 0)
		rc = read_sets(cfg, sets, nsets, err, errlen);
	if (rc)
		return rc;	/* the file itself cannot be read: nothing more to say */

	struct cfg_errs errs = { err, errlen, 0 };
	char one[1024];

	err[0] = '\0';
	for (int i = 0; i < cfg->nentries; i++) {
		const struct config_entry *e = &cfg->entries[i], *twice = first_set(cfg, i);

		if (twice) {
			cfg_fail(one, sizeof(one), &e->loc,
				 "%s is set twice in [%s]: here and at line %d (one would win in silence; --set %s.%s=VALUE overrides a value)",
				 e->key, e->section, twice->loc.line, e->section, e->key);
			cfg_errs_add(&errs, one);
		} else if (apply_entry(cfg, e, one, sizeof(one))) {
			cfg_errs_add(&errs, one);
		}
	}
	validate(cfg, &errs);	/* with the entries that could be applied */
	cfg_errs_end(&errs);
	return errs.n ? -EINVAL : 0;
}

void config_free(struct config *cfg)
{
	for (int i = 0; i < cfg->nworkloads; i++)
		free(cfg->workload[i].opts);
	for (int i = 0; i < cfg->nloads; i++)
		free(cfg->load[i].opts);
	for (int i = 0; i < cfg->nentries; i++)
		free(cfg->entries[i].value);
	free(cfg->entries);
	cfg->entries = NULL;
	cfg->nentries = cfg->nworkloads = cfg->nloads = 0;
}

void config_write_ini(FILE *fp, const struct config *cfg)
{
	fprintf(fp, "[campaign]\n");
	opt_write_ini(fp, campaign_options, &cfg->campaign);
	fprintf(fp, "\n[matrix]\n");
	opt_write_ini(fp, matrix_options, &cfg->matrix);
	if (cfg->has_thresholds) {
		fprintf(fp, "\n[thresholds]\n");
		opt_write_ini(fp, threshold_options, &cfg->thresholds);
		if (cfg->thresholds.baseline[0])	/* older configs keep their hash */
			opt_write_ini(fp, baseline_options, &cfg->thresholds);
		opt_write_ini(fp, missed_options, &cfg->thresholds);
	}
	for (int m = 0; m < METRIC_COUNT; m++) {
		if (!cfg->has_metric_thresholds[m])
			continue;
		fprintf(fp, "\n[thresholds.%s]\n", metric_name(m));
		opt_write_ini(fp, threshold_options + 1, &cfg->metric_thresholds[m]);
	}
	if (cfg->has_trace) {
		fprintf(fp, "\n[trace]\n");
		opt_write_ini(fp, trace_options, &cfg->trace);
	}
	for (int i = 0; i < cfg->nkernels; i++) {
		fprintf(fp, "\n[kernel.%s]\n", cfg->kernel[i].name);
		opt_write_ini(fp, kernel_options, &cfg->kernel[i]);
	}
	for (int i = 0; i < cfg->nloads; i++)
		config_write_load(fp, &cfg->load[i]);
	for (int i = 0; i < cfg->nworkloads; i++)
		config_write_workload(fp, &cfg->workload[i]);
}

void config_write_load(FILE *fp, const struct load_def *l)
{
	fprintf(fp, "\n[load.%s]\n", l->name);
	opt_write_ini(fp, load_options, l);
	if (l->ops)
		opt_write_ini(fp, l->ops->options, l->opts);
}

void config_write_workload(FILE *fp, const struct workload_def *w)
{
	fprintf(fp, "\n[workload.%s]\ntype = %s\n", w->name, w->type);
	opt_write_ini(fp, w->ops->options, w->opts);
	if (w->ops->echo)	/* a plugin's own keys */
		w->ops->echo(fp, w->opts);
}

uint64_t config_hash(const struct config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	/*
	 * The basis it was first written with, a digit short of FNV's
	 * (HASH_FNV1A64_BASIS): kept, since every tree's state records the
	 * hash and a resume or status compares against it
	 */
	uint64_t h = 1469598103934665603ULL;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return 0;
	config_write_ini(fp, cfg);
	fclose(fp);
	h = hash_fnv1a64(h, text, len);
	free(text);
	return h;
}

