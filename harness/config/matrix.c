#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "matrix.h"
#include "units.h"

/* The item of ax whose value is v (the config refuses an item twice). */
static int item_of(const struct axis *ax, int64_t v)
{
	for (int i = 0; i < ax->n; i++)
		if (ax->v[i] == v)
			return i;
	return 0;
}

void cell_axis_text(const struct config *cfg, const struct cell *c, int a, int id, char *buf,
		    size_t len)
{
	const struct axis *ax = &cfg->matrix.ax[a];
	int64_t v = c->ax[a];

	switch (axis_defs[a].kind) {
	case AXK_NAME:
		snprintf(buf, len, "%s", a == TAXIS_KERNEL ? cfg->kernel[v].name :
			 a == TAXIS_LOAD ? cfg->load[v].name : cfg->workload[v].name);
		break;
	case AXK_COUNT:
		if (v == AXIS_ALL)
			snprintf(buf, len, "all");
		else
			snprintf(buf, len, "%lld", (long long)v);
		break;
	case AXK_DURATION:
		if (id)
			units_format_duration(v, buf, len);
		else
			snprintf(buf, len, "%lld", (long long)v);
		break;
	case AXK_SIZE:
		if (id)
			units_format_size(v, buf, len);
		else
			snprintf(buf, len, "%lld", (long long)v);
		break;
	case AXK_POLICY:
		snprintf(buf, len, "%s", policy_name((int)v));
		break;
	case AXK_MICROS:
		if (id)
			axis_id_text(ax->s[item_of(ax, v)], buf, len);	/* as written: "100us" */
		else if (v < 0)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%lld", (long long)v);
		break;
	case AXK_ITEM:	/* an item of the axis; none where the matrix has it not */
		if (id)
			axis_id_text(ax->n ? ax->s[v] : "none", buf, len);
		else
			snprintf(buf, len, "%s", ax->n ? ax->s[v] : "none");
		break;
	default:
		snprintf(buf, len, "%lld", (long long)v);
	}
}

/*
 * The id: NNNN, each axis's part (those not always there only where the
 * matrix varies them: ids of older configs stay), the repeat.
 */
static void make_id(const struct config *cfg, struct cell *c)
{
	char parts[CELL_ID_MAX * 2] = "";
	size_t u = 0;

	for (int a = 0; a < TAXIS_COUNT && u < sizeof(parts); a++) {
		const struct axis_def *d = &axis_defs[a];
		char text[AXIS_ITEM_MAX];

		if (!d->id || !taxis_in_matrix(a) || (!d->id_always && cfg->matrix.ax[a].n <= 1))
			continue;
		cell_axis_text(cfg, c, a, 1, text, sizeof(text));
		int n = snprintf(parts + u, sizeof(parts) - u, "-%s%s", d->id, text);

		if (d->id_max && n > d->id_max)
			n = d->id_max;	/* very long items cut short: the index keeps the id unique */
		u += (size_t)n < sizeof(parts) - u ? (size_t)n : sizeof(parts) - u - 1;
		parts[u] = '\0';
	}
	/*
	 * Very long axis names may cut the id short (it stays a string): the
	 * index it starts with keeps it unique, so a cut id is no error, and
	 * the warning some compilers give for it (gcc 12 for arm) is not one.
	 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
	snprintf(c->id, sizeof(c->id), "%04d%s-%d", c->index, parts, c->repeat);
#pragma GCC diagnostic pop
}

/*
 * The number a cell's id starts with: its place in the matrix, repeat
 * fastest. A tree extended with more repeats (repeat_first, the repeat
 * it was first run with) keeps its first runs' numbers; the runs beyond
 * them are numbered after, run by run, so that no extension renumbers
 * another's.
 */
static int cell_index(const struct config *cfg, int64_t n, int64_t total)
{
	int64_t r = cfg->campaign.repeat, first = cfg->campaign.repeat_first;
	int64_t cell = n / r, run = n % r, cells = total / r;

	if (!first || run < first)
		return (int)(first ? cell * first + run : n);
	return (int)(cells * run + cell);
}

int matrix_expand(const struct config *cfg, struct cell **cells)
{
	const struct matrix_opts *m = &cfg->matrix;
	int idx[TAXIS_COUNT] = { 0 };
	int64_t total = cfg->campaign.repeat;
	struct cell *out;

	for (int a = 0; a < TAXIS_COUNT; a++)
		if (taxis_in_matrix(a))
			total *= m->ax[a].n;
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
		for (int a = TAXIS_COUNT - 1; a >= 0; a--) {
			if (!taxis_in_matrix(a))
				continue;
			idx[a] = (int)(rest % m->ax[a].n);
			rest /= m->ax[a].n;
		}
		c->index = cell_index(cfg, n, total);
		/* a name's index into its definitions, an item's into the axis, a number itself */
		for (int a = 0; a < TAXIS_COUNT; a++) {
			const struct axis *ax = &m->ax[a];

			if (!taxis_in_matrix(a))
				continue;
			switch (axis_defs[a].kind) {
			case AXK_NAME:
				c->ax[a] = a == TAXIS_KERNEL ? config_kernel_index(cfg, ax->s[idx[a]]) :
					   a == TAXIS_LOAD ? config_load_index(cfg, ax->s[idx[a]]) :
					   config_workload_index(cfg, ax->s[idx[a]]);
				break;
			case AXK_ITEM:
				c->ax[a] = idx[a];
				break;
			default:
				c->ax[a] = ax->v[idx[a]];
			}
		}
		make_id(cfg, c);
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

int64_t cell_axis_value(const struct config *cfg, const struct cell *c, int a)
{
	const struct axis *x = &cfg->matrix.ax[a];
	const struct opt *o;

	if (axis_defs[a].kind != AXK_ITEM)
		return c->ax[a];
	if (x->n)
		return x->v[c->ax[a]];
	/* [matrix] without the axis: its option's default word */
	o = opt_find(matrix_options, axis_defs[a].name);
	for (const struct opt_word *w = axis_defs[a].values; o && o->def && w && w->word; w++)
		if (strcmp(w->word, o->def) == 0)
			return w->value;
	return 0;
}
