#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_model.h"
#include "log.h"

/* "rt@host:6.6.0-rt" — what tells the sides apart, no blanks (gnuplot words). */
static void make_label(struct cmp *c, int s)
{
	const struct side *sd = &c->side[s];

	snprintf(c->label[s], sizeof(c->label[s]), "%s@%s:%s", sd->kernel,
		 sd->host, sd->release);
	for (char *p = c->label[s]; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/*
 * Sides from different trees with the same variant, host and release
 * (two campaigns on one machine) are told apart by their campaign's name,
 * or by the tree's number when that is the same too.
 */
void cmp_labels(struct cmp *c)
{
	char base[MAX_SIDES][400];
	int dup[MAX_SIDES] = { 0 };

	memcpy(base, c->label, sizeof(base));
	for (int i = 0; i < c->nsides; i++)
		for (int j = 0; j < c->nsides; j++)
			if (i != j && strcmp(base[i], base[j]) == 0)
				dup[i] = 1;
	for (int i = 0; i < c->nsides; i++) {
		const char *camp = c->t[c->side[i].tree].campaign;
		int same_camp = 0;
		size_t u = strlen(c->label[i]);

		if (!dup[i])
			continue;
		for (int j = 0; j < c->nsides; j++)
			same_camp |= j != i && strcmp(base[i], base[j]) == 0 &&
				     strcmp(camp, c->t[c->side[j].tree].campaign) == 0;
		if (camp[0] && !same_camp)
			snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "#%s", camp);
		else
			snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "#%d",
				 c->side[i].tree + 1);
		for (char *p = c->label[i]; *p; p++)
			if (*p == ' ')
				*p = '_';
	}
}

/* The side of tree i that cell belongs to, added when new; -1: too many. */
static int side_of(struct cmp *c, int i, const struct tcell *cell)
{
	for (int s = 0; s < c->nsides; s++) {
		const struct side *sd = &c->side[s];

		if (sd->tree == i && strcmp(sd->kernel, cell->kernel) == 0 &&
		    strcmp(sd->host, cell->host) == 0 &&
		    strcmp(sd->release, cell->release) == 0)
			return s;
	}
	if (c->nsides == MAX_SIDES)
		return -1;
	c->side[c->nsides] = (struct side){ i, cell->kernel, cell->host, cell->release };
	make_label(c, c->nsides);
	return c->nsides++;
}

static int add_run(struct row *r, int s, const struct tcell *cell)
{
	const struct tcell **run = realloc(r->run[s], (size_t)(r->n[s] + 1) * sizeof(*run));

	if (!run)
		return -ENOMEM;
	r->run[s] = run;
	run[r->n[s]++] = cell;
	r->sides += r->n[s] == 1;
	return 0;
}

int cmp_collect(struct cmp *c)
{
	for (int i = 0; i < c->ntrees; i++)
		for (int k = 0; k < c->t[i].n; k++) {
			const struct tcell *cell = &c->t[i].cell[k];
			char key[512];
			int r, s;

			if (!cell->measured)
				continue;
			s = side_of(c, i, cell);
			if (s < 0) {
				log_error("more than %d kernel variants and hosts to compare", MAX_SIDES);
				return -E2BIG;
			}
			tcell_row_key(cell, key, sizeof(key));
			for (r = 0; r < c->nrows; r++)
				if (strcmp(c->rows[r].key, key) == 0)
					break;
			if (r == c->nrows) {
				struct row *rows = realloc(c->rows,
					(size_t)(c->nrows + 1) * sizeof(*rows));

				if (!rows)
					return -ENOMEM;
				c->rows = rows;
				memset(&rows[r], 0, sizeof(rows[r]));
				snprintf(rows[r].key, sizeof(rows[r].key), "%s", key);
				c->nrows++;
			}
			if (add_run(&c->rows[r], s, cell))
				return -ENOMEM;
		}
	return 0;
}

struct side_runs cmp_runs(const struct row *r, int s)
{
	return (struct side_runs){ r->run[s], r->n[s], METRIC_WAKEUP };
}

/* Any run of the row: its axes. */
const struct tcell *cmp_any(const struct cmp *c, const struct row *r)
{
	for (int s = 0; s < c->nsides; s++)
		if (r->n[s])
			return r->run[s][0];
	return NULL;
}

/* The sides of the row that are not the baseline's. */
int cmp_is_baseline(const struct cmp *c, int s)
{
	return c->o->baseline && c->side[s].tree == 0;
}

/*
 * Against the baseline: a side's row regresses when the interval of its
 * ratio to the baseline (max or p99.99) lies wholly above 1 + tolerance.
 */
static int regresses(const struct pair_verdict *v, double tol, int *which)
{
	*which = -1;
	if (v->max.ok && v->max.lo > 1 + tol)
		*which = 0;
	else if (v->p9999.ok && v->p9999.lo > 1 + tol)
		*which = 1;
	return *which >= 0;
}

/* Append a's verdict against b on row r to *list. 0, or -ENOMEM. */
static int add_pair(struct pair **list, int *n, const struct cmp *c, int r, int a, int b)
{
	struct side_runs x = cmp_runs(&c->rows[r], a), y = cmp_runs(&c->rows[r], b);
	struct pair p = { .row = r, .a = a, .b = b, .which = -1 };
	struct pair *more;

	if (!x.n || !y.n)
		return 0;
	int rc = verdict_pair(&x, &y, &p.v);
	if (rc)
		return rc;
	if (side_has_metric(&x, METRIC_NOISE_MAX) && side_has_metric(&y, METRIC_NOISE_MAX)) {
		x.metric = y.metric = METRIC_NOISE_MAX;
		p.has_noise = 1;
		rc = verdict_pair(&x, &y, &p.noise);
		if (rc)
			return rc;
	}
	more = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
	if (!more)
		return -ENOMEM;
	*list = more;
	more[(*n)++] = p;
	return 0;
}

/* Every verdict the outputs show, once; the regressions counted. 0 or -errno. */
int cmp_pairs(struct cmp *c)
{
	int rc = 0;

	for (int r = 0; rc == 0 && r < c->nrows; r++) {
		for (int i = 0; rc == 0 && i < c->nsides; i++)
			for (int j = i + 1; rc == 0 && j < c->nsides; j++)
				rc = add_pair(&c->pairs, &c->npairs, c, r, i, j);
		for (int b = 0; rc == 0 && b < c->nsides; b++)
			for (int s = 0; rc == 0 && cmp_is_baseline(c, b) && s < c->nsides; s++)
				if (!cmp_is_baseline(c, s))
					rc = add_pair(&c->judged, &c->njudged, c, r, s, b);
	}
	for (struct pair *p = c->judged; rc == 0 && p < c->judged + c->njudged; p++)
		c->regressions += regresses(&p->v, c->o->tolerance, &p->which);
	return rc;
}

void cmp_free(struct cmp *c)
{
	plotter_free(&c->plot);
	for (int i = 0; i < c->ntrees; i++)
		tree_free(&c->t[i]);
	for (int r = 0; r < c->nrows; r++)
		for (int s = 0; s < MAX_SIDES; s++)
			free(c->rows[r].run[s]);
	free(c->rows);
	free(c->pairs);
	free(c->judged);
	free(c);
}
