/*
 * mem-touch: each cycle reads and writes one word in every cache line of a
 * buffer of `size` bytes, in order — the memory a control loop's state or
 * a data logger's ring takes each period. Its time is where the buffer
 * lives: on the thread's own NUMA node or a remote one ([matrix] numa),
 * in cache or not (`size` against the caches). The buffer is mapped and
 * faulted in setup (under the cell's memory placement) and never again.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "workload.h"

struct mem_touch_opts {
	int64_t stride;
};

static const struct opt mem_touch_options[] = {
	{ .key = "stride", .type = OPT_SIZE,
	  .offset = offsetof(struct mem_touch_opts, stride),
	  .min = 8, .max = 1LL << 20, .def = "64",
	  .help = "bytes between the words touched (64: one per cache line)" },
	{ 0 },
};

static int mem_touch_setup(struct workload_ctx *ctx)
{
	size_t len = (size_t)ctx->size;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return workload_fail(ctx, -errno, "mem-touch: cannot map %zu bytes", len);
	ctx->priv = p;
	ctx->buf = p;
	ctx->buflen = len;
	return 0;
}

static int64_t mem_touch_run(struct workload_ctx *ctx)
{
	const struct mem_touch_opts *o = ctx->opts;
	volatile uint64_t *p = ctx->priv;
	size_t words = (size_t)ctx->size / sizeof(*p), step = (size_t)o->stride / sizeof(*p);
	uint64_t sum = 0;

	for (size_t i = 0; i < words; i += step ? step : 1) {
		sum += p[i];
		p[i] = sum;
	}
	return ctx->size;
}

static void mem_touch_teardown(struct workload_ctx *ctx)
{
	if (ctx->priv)
		munmap(ctx->priv, (size_t)ctx->size);
	ctx->priv = NULL;
	ctx->buf = NULL;
}

const struct workload_ops workload_mem_touch = {
	.name = "mem-touch",
	.help = "reads and writes a word in every cache line (stride) of a size-byte buffer each cycle: memory latency by where the buffer lives ([matrix] numa)",
	.options = mem_touch_options,
	.opts_size = sizeof(struct mem_touch_opts),
	.primary = METRIC_RESPONSE,
	.setup = mem_touch_setup,
	.run = mem_touch_run,
	.teardown = mem_touch_teardown,
};
