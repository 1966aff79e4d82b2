#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "workload.h"

extern const struct workload_ops workload_timer;
extern const struct workload_ops workload_null;
extern const struct workload_ops workload_sysfs_read;
extern const struct workload_ops workload_file_read;
extern const struct workload_ops workload_file_write;
extern const struct workload_ops workload_pipe_rtt;
extern const struct workload_ops workload_udp_rtt;
extern const struct workload_ops workload_mq_rtt;
extern const struct workload_ops workload_sem_rtt;
extern const struct workload_ops workload_signal_rtt;
extern const struct workload_ops workload_dev_read;
extern const struct workload_ops workload_i2c_read;
extern const struct workload_ops workload_pi_mutex;
extern const struct workload_ops workload_noise;
extern const struct workload_ops workload_mem_touch;
extern const struct workload_ops workload_compute;
extern const struct workload_ops workload_plugin;
extern const struct workload_ops workload_watch;
extern const struct workload_ops workload_chain;
extern const struct workload_ops workload_cyclictest;

const struct workload_ops *const workload_registry[] = {
	&workload_timer,
	&workload_null,
	&workload_sysfs_read,
	&workload_file_read,
	&workload_file_write,
	&workload_pipe_rtt,
	&workload_udp_rtt,
	&workload_mq_rtt,
	&workload_sem_rtt,
	&workload_signal_rtt,
	&workload_dev_read,
	&workload_i2c_read,
	&workload_pi_mutex,
	&workload_noise,
	&workload_mem_touch,
	&workload_compute,
	&workload_plugin,
	&workload_chain,
	&workload_watch,
	&workload_cyclictest,
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
		const char *broken = !w->name ? "has no name" :
				     w->kind < 0 || w->kind >= WORKLOAD_KINDS ? "has a kind latlab does not know" :
				     w->kind == WORKLOAD_THREADS && !w->run ? "has no run()" :
				     w->kind != WORKLOAD_THREADS && w->run ? "has a run() its kind of cell never calls" :
				     NULL;

		if (broken) {
			log_error("workload descriptor %d (%s) %s", i, w->name ? w->name : "?", broken);
			return -EINVAL;
		}
		if (w->metrics & (METRICS_CORE | ~(METRIC_BIT(METRIC_COUNT) - 1))) {
			log_error("workload %s declares metrics %#x: only those beyond the core three",
				  w->name, w->metrics);
			return -EINVAL;
		}
		if (w->primary < 0 || w->primary >= METRIC_COUNT ||
		    (w->primary >= METRIC_CORE && !(w->metrics & METRIC_BIT(w->primary)))) {
			log_error("workload %s's primary metric %d is not one it records",
				  w->name, w->primary);
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
