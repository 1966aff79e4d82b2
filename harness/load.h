/*
 * The load hook of the cell runner. A load keeps the machine busy while
 * the workers measure; the generators themselves (latload) come with
 * their own issue. Today the only type is `none`.
 */
#ifndef LATLAB_LOAD_H
#define LATLAB_LOAD_H

#include <stdio.h>

struct load_type {
	const char *name;
	const char *help;
};

/* Every load type the harness can start, NULL-name-terminated. */
extern const struct load_type load_types[];

/* The type called `name`, or NULL. */
const struct load_type *load_type_find(const char *name);

struct load_def;

/* Running loads of one cell. */
struct loadset {
	int count;
};

/*
 * Start the cell's load and return once it runs. 0 or -errno with a
 * reason in err.
 */
int loadset_start(struct loadset *ls, const struct load_def *def,
		  char *err, size_t errlen);

/* Stop every process of the load and reap it. */
void loadset_stop(struct loadset *ls);

/* load.csv: type,cpus,ops,ops_per_s,restarts — one row per instance. */
int loadset_write_csv(const struct loadset *ls, FILE *fp);

#endif
