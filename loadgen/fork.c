/* fork: a process creation and exit storm. ops = children reaped. */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load_ops.h"

static int64_t fork_run(struct load_ctx *ctx)
{
	int rc = ctx->ready(ctx);

	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		pid_t pid = fork();

		if (pid < 0) {
			if (errno != EAGAIN)
				rc = -errno;
			continue;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		load_count(ctx, 0, 1);
	}
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_fork = {
	.name = "fork",
	.help = "process creation and exit storm (ops = processes)",
	.run = fork_run,
};
