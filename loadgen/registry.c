#include <errno.h>
#include <string.h>

#include "load_ops.h"
#include "log.h"

extern const struct load_ops load_hackbench;
extern const struct load_ops load_cpu;
extern const struct load_ops load_memory;
extern const struct load_ops load_disk;
extern const struct load_ops load_fork;
extern const struct load_ops load_net;
extern const struct load_ops load_timer;
extern const struct load_ops load_external;
extern const struct load_ops load_rt_hog;
extern const struct load_ops load_softirq;
extern const struct load_ops load_echo;

const struct load_ops *const load_registry[] = {
	&load_hackbench,
	&load_cpu,
	&load_memory,
	&load_disk,
	&load_fork,
	&load_net,
	&load_timer,
	&load_external,
	&load_rt_hog,
	&load_softirq,
	&load_echo,
	NULL,
};

const struct load_ops *load_find(const char *name)
{
	for (int i = 0; load_registry[i]; i++)
		if (strcmp(load_registry[i]->name, name) == 0)
			return load_registry[i];
	return NULL;
}

int load_registry_check(const struct load_ops *const *reg)
{
	for (int i = 0; reg[i]; i++) {
		if (!reg[i]->name || !reg[i]->run) {
			log_error("load descriptor %d (%s) has no %s", i,
				  reg[i]->name ? reg[i]->name : "?",
				  reg[i]->name ? "run()" : "name");
			return -EINVAL;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(reg[j]->name, reg[i]->name) == 0) {
				log_error("two loads are called %s", reg[i]->name);
				return -EINVAL;
			}
	}
	return 0;
}
