/*
 * The config's parts, private to config/: the option tables
 * (config_options.c), reading the INI file and --set (config_read.c),
 * resolving the sections into definitions (config_resolve.c), the checks
 * across fields (config_check.c), and the whole: load, echo, hash
 * (config.c). matrix.c only expands and names cells.
 */
#ifndef LATLAB_CONFIG_PARTS_H
#define LATLAB_CONFIG_PARTS_H

#include <stdarg.h>
#include <stddef.h>

#include "config.h"
#include "log.h"

struct config_entry {
	char section[64];
	char key[64];
	char *value;
	struct srcloc loc;
	struct srcloc section_loc;	/* the [section] header's line */
};

/* The file an entry of --set is said to come from. */
extern const char set_file[];

int cfg_fail(char *err, size_t len, const struct srcloc *loc,
		    const char *fmt, ...) PRINTF_LIKE(4, 5);

/*
 * The errors of one config, a line each in the caller's err: the first
 * CONFIG_ERRORS_MAX, then how many more. One mistake does not hide the
 * next: every entry is tried, and every check that does not need another
 * to have passed.
 */
struct cfg_errs {
	char *buf;
	size_t len;
	int n;			/* errors seen */
};

/* Note one error (a "FILE:LINE: why" line); returns -EINVAL. */
int cfg_errs_add(struct cfg_errs *e, const char *msg);

/* The "and N more" line, when there were more than CONFIG_ERRORS_MAX. */
void cfg_errs_end(struct cfg_errs *e);

/* config_read.c: the entries of cfg->path, then of --set, with their lines. 0 or -errno with err. */
int read_file(struct config *cfg, char *err, size_t errlen);
int read_sets(struct config *cfg, const char *const *sets, int nsets,
		     char *err, size_t errlen);

/* config_resolve.c */
/* ---- pass 2: interpret the entries through the tables ---- */
int valid_name(const char *s);

int apply_entry(struct config *cfg, const struct config_entry *e,
		       char *err, size_t errlen);

/* Axis names that are built in get a definition of their own. */
int add_builtin_defs(struct config *cfg, char *err, size_t errlen);

/* A workload's and a load's own options, checked and resolved. 0 or -EINVAL with err. */
/* Each chain's steps linked to their definitions (chain.h). 0, or -EINVAL with err. */
int resolve_chains(struct config *cfg, char *err, size_t errlen);
int resolve_workload(struct config *cfg, struct workload_def *w,
			    char *err, size_t errlen);
int resolve_load(struct config *cfg, struct load_def *l, char *err,
			size_t errlen);
/* The affinity and numa axes' items typed (cfg->place, cfg->numa_node). 0, or -EINVAL. */
int resolve_places(struct config *cfg);

/* config_check.c: every check across fields, after the entries are applied, each error noted. */
int validate(struct config *cfg, struct cfg_errs *errs);

#endif
