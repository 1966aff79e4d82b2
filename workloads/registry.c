#include <errno.h>
#include <string.h>

#include "log.h"
#include "workload.h"

extern const struct workload_ops workload_timer;
extern const struct workload_ops workload_null;

const struct workload_ops *const workload_registry[] = {
	&workload_timer,
	&workload_null,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; workload_registry[i]; i++)
		if (strcmp(workload_registry[i]->name, name) == 0)
			return workload_registry[i];
	return NULL;
}

int workload_registry_check(const struct workload_ops *const *reg)
{
	for (int i = 0; reg[i]; i++) {
		const struct workload_ops *w = reg[i];

		if (!w->name || !w->run) {
			log_error("workload descriptor %d (%s) has no %s", i,
				  w->name ? w->name : "?",
				  w->name ? "run()" : "name");
			return -EINVAL;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(reg[j]->name, w->name) == 0) {
				log_error("two workloads are called %s", w->name);
				return -EINVAL;
			}
	}
	return 0;
}
