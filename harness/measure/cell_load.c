/*
 * A cell's load beside what it measures (cell.c's threads, or a watched
 * program's: cell_watch.c): started off the pinned threads' CPUs where
 * it asks, the nodes whose memory controller it shares with a measured
 * thread said, whether it proved it ran; and what both cells' waits
 * watch for — a signal, the load failing — each said once in log.txt.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cell_parts.h"
#include "cpulist.h"
#include "numa_place.h"

/* The loads' lines go to log.txt. */
static void log_line(void *arg, const char *line)
{
	cell_log(arg, "%s", line);
}

/*
 * On a machine of two nodes with memory or more: a measured thread and
 * the load on the same node share its memory controller; said in the log
 * and in cell.ini (numa_shared). One node: every load does, nothing said.
 */
static void shared_nodes(struct cell_result *res)
{
	cpu_set_t nodes, cpus, load;
	char list[64];

	if (numa_memory_nodes(NULL, &nodes) != 0 || CPU_COUNT(&nodes) < 2)
		return;
	CPU_ZERO(&load);
	for (int i = 0; i < res->loads.n; i++)
		CPU_OR(&load, &load, &res->loads.proc[i].mask);
	for (int n = 0; n < CPU_SETSIZE; n++) {
		int thread = -1;

		if (!CPU_ISSET(n, &nodes) || cpulist_node(NULL, n, &cpus) != 0)
			continue;
		for (int i = 0; i < res->nthreads && thread < 0; i++)
			if (res->workers[i].cpu >= 0 && CPU_ISSET(res->workers[i].cpu, &cpus))
				thread = i;
		cpu_set_t both;

		CPU_AND(&both, &cpus, &load);
		if (thread < 0 || CPU_COUNT(&both) == 0)
			continue;
		cpulist_format(&both, list, sizeof(list));
		size_t u = strlen(res->numa_shared);

		snprintf(res->numa_shared + u, sizeof(res->numa_shared) - u, "%snode %d (thread %d on CPU %d, the load on CPUs %s)",
			 u ? "; " : "", n, thread, res->workers[thread].cpu, list);
	}
	if (res->numa_shared[0])
		cell_log(res, "warning: the measured threads and the load share a node's memory controller: %s",
			 res->numa_shared);
}

/* The cell's load, kept off the pinned threads' CPUs where it asks. 0 or -1. */
int cell_start_load(const struct config *cfg, const struct cell *c,
		      struct cell_result *res)
{
	cpu_set_t measured;
	char err[192];

	if (config_load_outside(&cfg->kernel[c->kernel], &cfg->load[c->load])) {
		/* a container's cell: the host's latlab runs it and judges it */
		cell_log(res, "load %s runs on the host, outside this container (load_in = host): not started here",
			 cfg->load[c->load].name);
		return 0;
	}
	cell_pinned_cpus(res, &measured);
	if (loadset_start(&res->loads, &cfg->load[c->load], &measured,
			  log_line, res, err, sizeof(err)) == 0) {
		shared_nodes(res);
		return 0;
	}
	cell_end_with(res, CELL_ERROR, "load %s: %s",
		      cfg->load[c->load].name, err);
	return -1;
}

/*
 * The load proved it ran, or the cell is an error: it failed while
 * measuring, or an instance did no work over the whole cell (an idle
 * machine's numbers are not the loaded ones the row claims).
 */
void cell_judge_load(const struct config *cfg, const struct cell *c,
		     struct cell_result *res)
{
	char why[320];

	if (config_load_outside(&cfg->kernel[c->kernel], &cfg->load[c->load]))
		return;
	if (loadset_judge(&res->loads, why, sizeof(why)))
		cell_end_with(res, CELL_ERROR, "load %s: %s", cfg->load[c->load].name, why);
}


int cell_wait_signal(struct cell_result *res, int64_t ns, int *sig)
{
	struct timespec poll = { ns / 1000000000, ns % 1000000000 };
	sigset_t sigs;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	int got = sigtimedwait(&sigs, NULL, &poll);

	if (got <= 0)
		return 0;
	if (!*sig) {
		*sig = got;
		cell_log(res, "signal %d (%s): stopping the cell", got, strsignal(got));
	}
	return got;
}

int cell_load_failed(struct cell_result *res, int *said)
{
	loadset_poll(&res->loads);
	if (!res->loads.failed[0])
		return 0;
	/* measuring on would publish idle numbers as loaded ones */
	if (!*said) {
		*said = 1;
		cell_log(res, "error: load %s: %s: stopping the cell",
			 res->loads.def->name, res->loads.failed);
	}
	return 1;
}
