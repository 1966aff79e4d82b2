#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "units.h"

/* An axis item made safe and short for an id: '-' -> '_', ',' '+' -> '.' */
static void id_part(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++) {
		char ch = *src;

		if (ch == '-')
			ch = '_';
		else if (ch == ',' || ch == '+')
			ch = '.';
		else if (ch == ':')	/* node:1: anode1, no colon in a directory's name */
			continue;
		else if (ch == ' ')
			continue;
		dst[i++] = ch;
	}
	dst[i] = '\0';
}

static void make_id(const struct config *cfg, struct cell *c,
		    const int *idx)
{
	const struct matrix_opts *m = &cfg->matrix;
	char kernel[64] = "", opt[3][64] = { "", "", "" }, aff[64];
	char pol[16] = "", dma[24] = "", numa[24] = "";
	char ival[32];

	if (m->kernel.n > 1)
		snprintf(kernel, sizeof(kernel), "%s-", m->kernel.s[idx[0]]);
	id_part(aff, sizeof(aff), m->affinity.s[idx[4]]);
	if (m->interval.n > 1) {
		units_format_duration(c->interval, ival, sizeof(ival));
		snprintf(opt[0], sizeof(opt[0]), "-i%s", ival);
	}
	if (m->priority.n > 1)
		snprintf(opt[1], sizeof(opt[1]), "-p%d", c->priority);
	if (m->size.n > 1) {
		units_format_size(c->size, ival, sizeof(ival));
		snprintf(opt[2], sizeof(opt[2]), "-s%s", ival);
	}
	if (m->policy.n > 1)
		snprintf(pol, sizeof(pol), "-P%s", policy_name(c->policy));
	if (m->dma_latency.n > 1) {
		char d[16];

		id_part(d, sizeof(d), m->dma_latency.s[idx[9]]);
		snprintf(dma, sizeof(dma), "-d%s", d);
	}
	if (m->numa.n > 1) {
		char d[16];

		id_part(d, sizeof(d), m->numa.s[idx[10]]);
		snprintf(numa, sizeof(numa), "-m%s", d);
	}
	/*
	 * Very long axis names may cut the id short (it stays a string): the
	 * index it starts with keeps it unique, so a cut id is no error, and
	 * the warning some compilers give for it (gcc 12 for arm) is not one.
	 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
	snprintf(c->id, sizeof(c->id), "%04d-%s%s-%s-t%s-a%s%s%s%s%.15s%.23s%.23s-%d",
		 c->index, kernel, m->load.s[idx[1]], m->workload.s[idx[2]],
		 m->threads.s[idx[3]], aff, opt[0], opt[1], opt[2], pol, dma, numa,
		 c->repeat);
#pragma GCC diagnostic pop
}

int matrix_expand(const struct config *cfg, struct cell **cells)
{
	const struct matrix_opts *m = &cfg->matrix;
	const struct axis *axes[MATRIX_AXES];
	enum { NAXES = MATRIX_AXES };
	int idx[NAXES + 1] = { 0 };
	int64_t total = cfg->campaign.repeat;
	struct cell *out;

	matrix_axes(cfg, axes);
	for (int a = 0; a < NAXES; a++)
		total *= axes[a]->n;
	if (total > MATRIX_MAX_CELLS)
		return -E2BIG;
	out = calloc((size_t)total, sizeof(*out));
	if (!out)
		return -ENOMEM;

	for (int n = 0; n < total; n++) {
		struct cell *c = &out[n];
		int64_t rest = n;

		/* mixed-radix digits of n, repeat fastest */
		c->repeat = (int)(rest % cfg->campaign.repeat) + 1;
		rest /= cfg->campaign.repeat;
		for (int a = NAXES - 1; a >= 0; a--) {
			idx[a] = (int)(rest % axes[a]->n);
			rest /= axes[a]->n;
		}
		c->index = n;
		c->kernel = config_kernel_index(cfg, m->kernel.s[idx[0]]);
		c->load = config_load_index(cfg, m->load.s[idx[1]]);
		c->workload = config_workload_index(cfg, m->workload.s[idx[2]]);
		c->threads = (int)m->threads.v[idx[3]];
		c->affinity = idx[4];
		c->interval = m->interval.v[idx[5]];
		c->priority = (int)m->priority.v[idx[6]];
		c->size = m->size.v[idx[7]];
		c->policy = (int)m->policy.v[idx[8]];
		c->dma_latency = m->dma_latency.v[idx[9]];
		c->numa = idx[10];
		make_id(cfg, c, idx);
	}
	*cells = out;
	return (int)total;
}

uint64_t matrix_order_seed(const struct config *cfg)
{
	/* the config's hash: [campaign] order and seed are echoed only when
	 * set, so it is the same on every resume of the same config */
	return cfg->campaign.seed ? (uint64_t)cfg->campaign.seed : config_hash(cfg) | 1;
}

/* splitmix64: a small, good generator, the same on every machine */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void matrix_run_order(const struct config *cfg, const struct cell *cells, int n, int *order)
{
	int k = 0;

	if (cfg->campaign.order == ORDER_BLOCKED) {
		for (int i = 0; i < n; i++)
			order[i] = i;
		return;
	}
	/* the matrix has kernel outermost: each variant's cells are a block */
	for (int first = 0, next; first < n; first = next) {
		for (next = first; next < n && cells[next].kernel == cells[first].kernel;)
			next++;
		for (int r = 1; r <= cfg->campaign.repeat; r++) {
			int from = k;

			for (int i = first; i < next; i++)
				if (cells[i].repeat == r)
					order[k++] = i;
			if (cfg->campaign.order != ORDER_SHUFFLED)
				continue;
			/* Fisher-Yates, seeded per variant and round: what a
			 * round holds does not depend on what ran before it */
			uint64_t st = matrix_order_seed(cfg) ^
				      ((uint64_t)cells[first].kernel << 40) ^ (uint64_t)r << 20;

			for (int i = k - 1; i > from; i--) {
				int j = from + (int)(next_random(&st) % (uint64_t)(i - from + 1));
				int t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
		}
	}
}
