/*
 * chain: a period of several steps — `[workload.NAME] type = chain`,
 * `steps = adc, logger` — each another workload (a [workload.X] section
 * or a type's defaults, plugins included), run in order every period.
 * The config links the steps (harness/config: it alone knows the
 * definitions); chain.c runs them.
 */
#ifndef LATLAB_CHAIN_H
#define LATLAB_CHAIN_H

#include "workload.h"

#define CHAIN_MAX METRIC_STEPS	/* steps in one chain: each its io_stepN */

struct chain_opts {
	char steps[OPT_STR_MAX];	/* as written: names, comma-separated */
	int n;				/* linked by the config */
	const struct workload_ops *ops[CHAIN_MAX];
	const void *opts[CHAIN_MAX];
};

extern const struct workload_ops workload_chain;

/* Does a workload of ops with opts send over IP (ops->net; a chain: a step's)? */
int workload_sends_ip(const struct workload_ops *ops, const void *opts);

/* The peer elsewhere its traffic goes to (ops->net_to; a chain: a step's), or NULL. */
const char *workload_net_to(const struct workload_ops *ops, const void *opts);

#endif
