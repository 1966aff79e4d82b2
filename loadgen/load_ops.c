/*
 * What every load uses (load_ops.h): its operations counted, a child of
 * it set up to die with its parent, its workers. The registry
 * (registry.c) lists the loads; they call these, never it.
 */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "load_ops.h"

uint64_t load_total(const struct load_ctx *ctx)
{
	uint64_t sum = 0;

	for (int i = 0; i < ctx->nslots; i++)
		sum += __atomic_load_n(&ctx->slot[(size_t)i * LOAD_SLOT_STRIDE],
				       __ATOMIC_RELAXED);
	return sum;
}

void load_child_init(pid_t parent)
{
	sigset_t all;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* the parent died before prctl */
		_exit(1);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

int64_t load_workers(const struct load_ops *ops, const void *opts)
{
	return ops && ops->workers ? ops->workers(opts) : 1;
}
