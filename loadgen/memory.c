/*
 * memory: streaming copies between two buffers (bandwidth; ops = bytes
 * copied / 1 MiB), or page-fault storms: map, touch every page, unmap
 * (ops = pages faulted).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load_ops.h"

enum { MEM_COPY, MEM_FAULT };

struct mem_opts {
	int mode;
	int64_t size;
};

static const struct opt mem_options[] = {
	{ .key = "mode", .type = OPT_ENUM, .offset = offsetof(struct mem_opts, mode),
	  .def = "copy", .help = "copy: bandwidth; fault: mmap/touch/munmap",
	  .choices = "copy|fault" },
	{ .key = "size", .type = OPT_SIZE, .offset = offsetof(struct mem_opts, size),
	  .min = 4096, .max = 1LL << 34, .def = "64MiB",
	  .help = "buffer (copy: each of two) or mapping size" },
	{ 0 },
};

static int64_t copy_loop(struct load_ctx *ctx, size_t size)
{
	char *a = malloc(size), *b = malloc(size);
	int rc = 0;

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memset(a, 1, size);
	memset(b, 2, size);
	rc = ctx->ready(ctx);
	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		memcpy(b, a, size);
		memcpy(a, b, size);
		load_count(ctx, 0, 2 * size >> 20);
	}
	free(a);
	free(b);
	return rc ? rc : (int64_t)load_total(ctx);
}

static int64_t fault_loop(struct load_ctx *ctx, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	int rc = ctx->ready(ctx);

	while (rc == 0 && !atomic_load_explicit(ctx->stop, memory_order_relaxed)) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -errno;
		for (size_t off = 0; off < size; off += (size_t)page)
			p[off] = 1;
		munmap(p, size);
		load_count(ctx, 0, size / (size_t)page);
	}
	return rc ? rc : (int64_t)load_total(ctx);
}

static int64_t mem_run(struct load_ctx *ctx)
{
	const struct mem_opts *o = ctx->opts;

	return o->mode == MEM_COPY ? copy_loop(ctx, (size_t)o->size)
				   : fault_loop(ctx, (size_t)o->size);
}

const struct load_ops load_memory = {
	.name = "memory",
	.help = "streaming copies (ops = MiB copied) or page-fault storms (ops = pages)",
	.options = mem_options,
	.opts_size = sizeof(struct mem_opts),
	.run = mem_run,
};
