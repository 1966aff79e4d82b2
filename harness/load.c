#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "load.h"
#include "results.h"

const struct load_type load_types[] = {
	{ "none", "no load: the machine as it is" },
	{ NULL, NULL },
};

const struct load_type *load_type_find(const char *name)
{
	for (const struct load_type *t = load_types; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

int loadset_start(struct loadset *ls, const struct load_def *def, char *err,
		  size_t errlen)
{
	memset(ls, 0, sizeof(*ls));
	if (strcmp(def->type, "none") == 0)
		return 0;
	snprintf(err, errlen, "load type '%s' cannot be started", def->type);
	return -ENOTSUP;
}

void loadset_stop(struct loadset *ls)
{
	ls->count = 0;
}

int loadset_write_csv(const struct loadset *ls, FILE *fp)
{
	struct csvw w = { .fp = fp };

	(void)ls;
	csvw_header(&w, "type,cpus,ops,ops_per_s,restarts");
	return ferror(fp) ? -EIO : 0;
}
