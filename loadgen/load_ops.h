/*
 * A load type keeps the machine busy while latlab measures. Each lives in
 * one file of loadgen/ that fills a struct load_ops; registry.c lists
 * them. latload runs one instance of one type; the harness starts as many
 * latload processes as a [load.NAME] section asks for.
 *
 * run() sets up (forks, sockets, buffers), calls ctx->ready() once it is
 * able to start at full speed — that reports "ready" and blocks until
 * "go" — then works until *ctx->stop is set, and returns the number of
 * operations done (>= 0) or -errno.
 */
#ifndef LATLAB_LOAD_OPS_H
#define LATLAB_LOAD_OPS_H

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cliopt.h"
#include "options.h"

struct load_ctx {
	const void *opts;	/* the type's options struct */
	_Atomic int *stop;	/* set on SIGTERM/SIGINT or at the duration */
	int finite;		/* hackbench -l without --duration: stop by itself */
	/*
	 * Per-worker counters in memory shared with forked children: worker
	 * i adds to slot[i * LOAD_SLOT_STRIDE] only.
	 */
	uint64_t *slot;
	int nslots;
	int (*ready)(struct load_ctx *ctx);	/* report ready, wait for go */
	int ready_fd, go_fd;	/* -1 when latload runs alone */
	int64_t go_ns;		/* CLOCK_MONOTONIC when go came */
};

#define LOAD_SLOT_STRIDE 8	/* 64 bytes: one cache line per worker */
#define LOAD_MAX_SLOTS 4096
/* the counters' memory (latload --counters-fd: the harness's, read when no result came) */
#define LOAD_COUNTERS_BYTES ((size_t)LOAD_MAX_SLOTS * LOAD_SLOT_STRIDE * sizeof(uint64_t))

static inline void load_count(struct load_ctx *ctx, int worker, uint64_t n)
{
	ctx->slot[(size_t)worker * LOAD_SLOT_STRIDE] += n;
}

/* Sum of every worker's counter (read after the workers stopped). */
uint64_t load_total(const struct load_ctx *ctx);

struct load_ops {
	const char *name;
	const char *help;
	const struct opt *options;	/* NULL-key-terminated, or NULL */
	size_t opts_size;
	/* hackbench-style flags that set an option (-p is ipc = pipe): ended by letter 0 */
	const struct cli_flag *flags;
	/* cross-option checks after parsing; 0 or -EINVAL with err set */
	int (*check)(const void *opts, char *err, size_t errlen);
	/*
	 * What the machine must have for the load to run (its program on
	 * PATH, its directory): looked at by latlab plan and run before any
	 * cell, and by latload before it is ready. 0, or -errno with err
	 * and *key the option it is about. NULL: nothing to look at.
	 */
	int (*preflight)(const void *opts, const char **key, char *err, size_t errlen);
	/*
	 * optional: the directory its files go to, as configured (a qemu
	 * guest's disk or its RAM: campaign/where.c); NULL: it writes none
	 */
	const char *(*fs_path)(const void *opts);
	/* 1: its traffic goes over IP (a qemu guest's network device, netpeer.h) */
	int net;
	/* the processes or threads one instance starts; NULL: one */
	int64_t (*workers)(const void *opts);
	int64_t (*run)(struct load_ctx *ctx);
};

/* What run() returns for an error it has said itself (latload adds nothing). */
#define LOAD_SAID (-ECANCELED)

/* The most workers (processes or threads) one load may start in all. */
#define LOAD_MAX_WORKERS 65536

/* The workers one instance of a load of type ops with opts starts. */
int64_t load_workers(const struct load_ops *ops, const void *opts);

/* Every load type, NULL-terminated. */
extern const struct load_ops *const load_registry[];

/* The type called `name`, or NULL. */
const struct load_ops *load_find(const char *name);

/* Every descriptor has a name and run(), names unique. 0 or -EINVAL. */
int load_registry_check(const struct load_ops *const *reg);

/*
 * First thing in a child process a load forked: die with the parent
 * (SIGKILL; `parent` is the forking process's pid, taken before fork),
 * unblock and default the signals latload blocks.
 */
void load_child_init(pid_t parent);

#endif
