/*
 * cpu: keeps one CPU busy in user space: integer arithmetic, floating
 * point, or walks over a buffer larger than the caches (cache). One
 * operation is one fixed chunk of work.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "load_ops.h"

enum { CPU_INT, CPU_FLOAT, CPU_CACHE };

struct cpu_opts {
	int method;
	int64_t cache_size;
};

static const struct opt cpu_options[] = {
	{ .key = "method", .type = OPT_ENUM, .offset = offsetof(struct cpu_opts, method),
	  .def = "int", .help = "what to compute", .choices = "int|float|cache" },
	{ .key = "cache_size", .type = OPT_SIZE,
	  .offset = offsetof(struct cpu_opts, cache_size), .min = 4096,
	  .max = 1LL << 32, .def = "32MiB",
	  .help = "buffer walked by method = cache (larger than the LLC)" },
	{ 0 },
};

/* volatile sinks keep the compiler from removing the work */
static volatile uint64_t int_sink;
static volatile double float_sink;

static void chunk_int(void)
{
	uint64_t x = int_sink | 1;

	for (int i = 0; i < 100000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	int_sink = x;
}

static void chunk_float(void)
{
	double x = float_sink + 1.0;

	for (int i = 1; i < 20000; i++)
		x = sqrt(x * 1.000001 + i) + sin(x);
	float_sink = x;
}

static void chunk_cache(uint64_t *buf, size_t words)
{
	/* one word per cache line, strided, so every access misses */
	for (size_t i = 0; i < words; i += 8)
		buf[(i * 4099) % words] += i;
}

static int64_t cpu_run(struct load_ctx *ctx)
{
	const struct cpu_opts *o = ctx->opts;
	size_t words = (size_t)o->cache_size / sizeof(uint64_t);
	uint64_t *buf = NULL;
	int rc;

	if (o->method == CPU_CACHE) {
		buf = calloc(words, sizeof(*buf));
		if (!buf)
			return -ENOMEM;
	}
	rc = ctx->ready(ctx);
	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		if (o->method == CPU_INT)
			chunk_int();
		else if (o->method == CPU_FLOAT)
			chunk_float();
		else
			chunk_cache(buf, words);
		load_count(ctx, 0, 1);
	}
	free(buf);
	return rc ? rc : (int64_t)load_total(ctx);
}

const struct load_ops load_cpu = {
	.name = "cpu",
	.help = "integer, floating-point or cache-thrashing loops on one CPU",
	.options = cpu_options,
	.opts_size = sizeof(struct cpu_opts),
	.run = cpu_run,
};
