/*
 * A workload is the I/O a measured worker does once per cycle. Each lives
 * in one file that fills a struct workload_ops; registry.c lists them.
 *
 * Life cycle, per measured thread:
 *   setup()     main thread, before the real-time thread starts: open
 *               files, allocate buffers, start peers. May block. On
 *               failure returns -errno with a reason (workload_fail).
 *   run()       the real-time thread, once per period. Must not allocate,
 *               print, take locks shared with non-RT threads, or write
 *               results. Returns bytes moved (>= 0) or -errno; a workload
 *               with metrics of its own stores their values in
 *               ctx->metric_ns[] (common/metric.h).
 *   teardown()  main thread, after the real-time thread was joined.
 */
#ifndef LATLAB_WORKLOAD_H
#define LATLAB_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "metric.h"
#include "options.h"
#include "units.h"

struct workload_ctx {
	const void *opts;	/* the workload's options struct, read-only */
	int64_t size;		/* the cell's `size` axis value, bytes */
	int thread;		/* 0-based measured thread number */
	int cpu;		/* CPU the thread is pinned to, or -1 */
	void *priv;		/* the workload's own state */
	/* the buffer its cycles touch, set by setup, for [matrix] numa's check; NULL: none */
	const void *buf;
	size_t buflen;
	char why[160];		/* setup's reason when it fails */
	/* run() stores the cycle's value of each metric it declares here (ns) */
	int64_t metric_ns[METRIC_COUNT];
	/* setup() may add metrics its options decide (a chain's steps): METRIC_BIT()s */
	unsigned metrics;
};

/* What a cell of a workload runs (workload_ops.kind). */
enum workload_kind { WORKLOAD_THREADS, WORKLOAD_CYCLICTEST, WORKLOAD_WATCH, WORKLOAD_KINDS };

struct workload_ops {
	const char *name;
	const char *help;
	const struct opt *options;	/* NULL-key-terminated, or NULL */
	size_t opts_size;		/* sizeof the options struct */
	/*
	 * optional: the options, checked together when the config is read
	 * (0, or -EINVAL with why in err): what setup would refuse anyway
	 */
	int (*check)(const void *opts, char *err, size_t errlen);
	/*
	 * optional: the options against one interval of the matrix (0, or
	 * -EINVAL with the offending option's key in *key and why in err)
	 */
	int (*check_period)(const void *opts, int64_t period_ns, const char **key,
			    char *err, size_t errlen);
	/*
	 * optional: a key its options table lacks, kept (a plugin's own: 0,
	 * or -errno with why in err), and the kept keys written back for the
	 * config's echo; NULL: such a key is an error
	 */
	int (*extra)(void *opts, const char *key, const char *value, char *err, size_t errlen);
	void (*echo)(FILE *fp, const void *opts);
	/*
	 * optional: what the machine must have (a plugin's shared object),
	 * looked at by plan and run before any cell: 0, or -errno with err
	 * and *key the option it is about
	 */
	int (*preflight)(const void *opts, const char **key, char *err, size_t errlen);
	/*
	 * optional: the file its I/O goes to (path, as configured), so that
	 * where it lands can be checked and said (a qemu guest's disk or its
	 * RAM: campaign/where.c); NULL: it writes no file
	 */
	const char *(*fs_path)(const void *opts);
	/*
	 * optional: the shared object it loads (a plugin's path): a qemu
	 * guest is given it, and the libraries it needs, at the same path
	 */
	const char *(*loads)(const void *opts);
	/*
	 * optional: a program it runs that a qemu guest must be given: a
	 * command line whose first word is the program (a path, or a name
	 * on PATH), and in *key the option that names it; NULL for none. The
	 * guest is given it, and the libraries it needs, at the path PATH
	 * finds it at here (vm/initramfs.c)
	 */
	const char *(*carries)(const void *opts, const char **key);
	/* 1: its traffic goes over IP (a qemu guest's network device, netpeer.h) */
	int net;
	/*
	 * optional: where its traffic goes when the peer is on another
	 * machine ("ADDR:PORT", udp-rtt's `to`), or NULL for the peer
	 * latlab starts itself (netpeer.h)
	 */
	const char *(*net_to)(const void *opts);
	/*
	 * optional: the metrics (METRIC_BITs) whose figures hold a wait for
	 * a device outside the CPU each period, given the kinds that are
	 * devices in the cell (`devices`, WAIT_ bits: the disk its files are
	 * on, the cards its IP traffic crosses): a file-write that syncs, an
	 * O_DIRECT read, a chain's steps. NULL: a net workload waits for
	 * the network (io and response), any other for nothing
	 * (workload_wait_metrics). What a figure can mean follows from it
	 * (harness/results/vouch.h).
	 */
	unsigned (*waits)(const void *opts, unsigned devices);
	/* metrics beyond the core three that run() records (METRIC_BIT()s) */
	unsigned metrics;
	/*
	 * the metric the workload exists for (enum metric): what the console,
	 * the report's colours and figures and compare's verdicts judge.
	 * response for I/O (what the application sees), wakeup for no I/O.
	 */
	int primary;
	/*
	 * What a cell of it runs (harness/measure/cell_kind.h, each kind's
	 * behaviour): latlab's measured threads calling run() each period
	 * (WORKLOAD_THREADS, the default), rt-tests' cyclictest
	 * (cyclictest.c) or another program's threads watched through the
	 * kernel (watch.c); those two have no setup, run or teardown
	 */
	enum workload_kind kind;
	int (*setup)(struct workload_ctx *ctx);		/* optional */
	int64_t (*run)(struct workload_ctx *ctx);	/* required for WORKLOAD_THREADS, absent otherwise */
	void (*teardown)(struct workload_ctx *ctx);	/* optional */
};

/*
 * For setup(): say why in ctx->why and return rc. Return -ENODEV when the
 * workload's device or file does not exist on this machine: the cell is
 * then `skipped`, not failed.
 */
int workload_fail(struct workload_ctx *ctx, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The kinds of device a workload's period can wait for (workload_ops.waits). */
#define WAIT_DISK 1u	/* the block device its files are on */
#define WAIT_NET 2u	/* a network card its IP traffic crosses */

/* METRIC_BITs of io and response: what a workload that waits has waited in. */
#define WAIT_METRICS (METRIC_BIT(METRIC_IO) | METRIC_BIT(METRIC_RESPONSE))

/*
 * The metrics (METRIC_BITs) of a workload of ops with opts whose figures
 * hold a wait for one of `devices` (WAIT_ bits): ops->waits', or for a
 * net workload io and response where the network is a device; 0 for none.
 */
unsigned workload_wait_metrics(const struct workload_ops *ops, const void *opts,
			       unsigned devices);

/* Every registered workload, NULL-terminated. */
extern const struct workload_ops *const workload_registry[];

/* The workload called `name`, or NULL. */
const struct workload_ops *workload_find(const char *name);

/*
 * Check a registry (every descriptor has a name and run(), names are
 * unique). 0, or -EINVAL after logging which descriptor is broken.
 * main() checks workload_registry before anything else.
 */
int workload_registry_check(const struct workload_ops *const *reg);

#endif
