/*
 * memory: streaming copies between two buffers (bandwidth; ops = bytes
 * copied / 1 MiB), or page-fault storms: map, touch every page, unmap
 * (ops = pages faulted). node = N binds its memory to NUMA node N
 * (set_mempolicy before anything is allocated): "the load hammers the
 * remote node's memory controller" is one line.
 */
#include <errno.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load_ops.h"

enum { MEM_COPY, MEM_FAULT };

struct mem_opts {
	int mode;
	int64_t size;
	int64_t node;
};

static const struct opt mem_options[] = {
	{ .key = "mode", .type = OPT_ENUM, .offset = offsetof(struct mem_opts, mode),
	  .def = "copy", .help = "copy: bandwidth; fault: mmap/touch/munmap",
	  .choices = "copy|fault" },
	{ .key = "size", .type = OPT_SIZE, .offset = offsetof(struct mem_opts, size),
	  .min = 4096, .max = 1LL << 34, .def = "64MiB",
	  .help = "buffer (copy: each of two) or mapping size" },
	{ .key = "node", .type = OPT_INT, .offset = offsetof(struct mem_opts, node),
	  .min = -1, .max = 1023, .def = "-1", .flags = OPT_ECHO_SET,
	  .help = "NUMA node its buffers are bound to (-1: the kernel's default, first touch)" },
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

/* node = N: the machine (this one, or the guest it runs in) has it, with memory. */
static int mem_preflight(const void *p, const char **key, char *err, size_t len)
{
	const struct mem_opts *o = p;
	char path[96];

	if (o->node < 0)
		return 0;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%lld", (long long)o->node);
	if (access(path, F_OK) == 0 || (o->node == 0 && access("/sys/devices/system/node", F_OK) != 0))
		return 0;
	*key = "node";
	snprintf(err, len, "node = %lld: this machine has no such NUMA node", (long long)o->node);
	return -ENODEV;
}

static int64_t mem_run(struct load_ctx *ctx)
{
	const struct mem_opts *o = ctx->opts;

	if (o->node >= 0) {
		unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };
		const unsigned long bits = 8 * sizeof(mask[0]);

		mask[o->node / bits] |= 1UL << (o->node % bits);
		if (set_mempolicy(MPOL_BIND, mask, 1024) != 0)
			return -errno;	/* no such node: the load fails, said by latlab */
	}
	return o->mode == MEM_COPY ? copy_loop(ctx, (size_t)o->size)
				   : fault_loop(ctx, (size_t)o->size);
}

const struct load_ops load_memory = {
	.name = "memory",
	.help = "streaming copies (ops = MiB copied) or page-fault storms (ops = pages)",
	.options = mem_options,
	.opts_size = sizeof(struct mem_opts),
	.preflight = mem_preflight,
	.run = mem_run,
};
