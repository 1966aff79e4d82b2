#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_model.h"
#include "log.h"

/*
 * What tells the sides apart, no blanks (gnuplot words): along the kernel
 * "rt@host:6.6.0-rt", along another axis its value ("hackbench",
 * "1000us", "threads_2").
 */
static void make_label(struct cmp *c, int s)
{
	tcell_axis_value(c->m.side[s].first, c->m.axis, c->label[s], sizeof(c->label[s]));
	for (char *p = c->label[s]; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/*
 * Sides from different trees with the same variant, host and release
 * (two campaigns on one machine) are told apart by their campaign's name,
 * or by the tree's number when that is the same too (the numbers of its
 * trees for a side of several campaigns: "#1+2+3").
 */
/*
 * Along the kernel, sides are named as briefly as tells them apart: the
 * variant's name ("rt") where no two sides share it, else with its host
 * ("rt@board2"), else whole ("rt@board2:6.6.0-rt"); the page lists each
 * side's release, model and host.
 */
static void shorten_labels(struct cmp *c)
{
	for (int cut = '@'; cut; cut = cut == '@' ? ':' : 0) {
		char name[MAX_SIDES][SIDE_LABEL_MAX];
		int clash = 0;

		for (int i = 0; i < c->m.nsides; i++) {
			snprintf(name[i], sizeof(name[i]), "%s", c->label[i]);
			char *at = strchr(name[i], '@');

			if (cut == ':' && at)
				at = strchr(at, ':');
			if (at)
				*at = '\0';
		}
		for (int i = 0; i < c->m.nsides && !clash; i++)
			for (int j = i + 1; j < c->m.nsides && !clash; j++)
				clash = strcmp(name[i], name[j]) == 0;
		if (clash)
			continue;
		memcpy(c->label, name, sizeof(name[0]) * (size_t)c->m.nsides);
		return;
	}
}

void cmp_labels(struct cmp *c)
{
	char base[MAX_SIDES][SIDE_LABEL_MAX];
	int dup[MAX_SIDES] = { 0 };

	if (c->m.axis == TAXIS_KERNEL)
		shorten_labels(c);
	memcpy(base, c->label, sizeof(base));
	for (int i = 0; i < c->m.nsides; i++)
		for (int j = 0; j < c->m.nsides; j++)
			if (i != j && strcmp(base[i], base[j]) == 0)
				dup[i] = 1;
	for (int i = 0; i < c->m.nsides; i++) {
		const char *camp = c->t[c->m.side[i].tree].campaign;
		int same_camp = 0;
		size_t u = strlen(c->label[i]);

		if (!dup[i])
			continue;
		for (int j = 0; j < c->m.nsides; j++)
			same_camp |= j != i && strcmp(base[i], base[j]) == 0 &&
				     strcmp(camp, c->t[c->m.side[j].tree].campaign) == 0;
		if (camp[0] && !same_camp) {
			snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "#%s", camp);
		} else {	/* its trees' numbers: "#2", a side of campaigns "#1+3+5" */
			int group = c->t[c->m.side[i].tree].side_group;
			char sep = '#';

			for (int k = 0; k < c->ntrees; k++) {
				if (k != c->m.side[i].tree && (!group || c->t[k].side_group != group))
					continue;
				u = strlen(c->label[i]);
				snprintf(c->label[i] + u, sizeof(c->label[i]) - u, "%c%d", sep, k + 1);
				sep = '+';
			}
		}
		for (char *p = c->label[i]; *p; p++)
			if (*p == ' ')
				*p = '_';
	}
	for (int i = 0; i < c->m.nsides; i++)
		c->side_name[i] = c->label[i];
}

int cmp_collect(struct cmp *c)
{
	if (rows_build(&c->m, c->t, c->ntrees, c->o->metric, c->o->axis))
		return -ENOMEM;
	if (c->m.nomit)
		log_warn("%d measured cells have no %s: left out", c->m.nomit,
			 metric_name(c->o->metric));
	if (c->m.nsides > MAX_SIDES) {
		log_error("more than %d sides to compare (values of %s in each tree)", MAX_SIDES,
			  taxis_name(c->m.axis));
		return -E2BIG;
	}
	c->over = calloc((size_t)c->m.nrows + 1, sizeof(*c->over));
	if (!c->over)
		return -ENOMEM;
	for (int s = 0; s < c->m.nsides; s++)
		make_label(c, s);
	return 0;
}

struct side_runs cmp_runs(const struct cmp *c, int r, int s)
{
	return rows_runs(&c->m, r, s);
}

const struct tcell *cmp_any(const struct cmp *c, int r)
{
	for (int s = 0; s < c->m.nsides; s++) {
		const struct rows_group *g = rows_group(&c->m, r, s);

		if (g)
			return g->run[0];
	}
	return NULL;
}

int cmp_is_baseline(const struct cmp *c, int s)
{
	return c->o->baseline && c->m.side[s].tree == 0;
}

const char *cmp_gate_name(int which)
{
	return which == GATE_TAIL ? "tail" : which == GATE_P9999 ? "p99.99" : "max";
}

const struct ratio_ci *cmp_gate(const struct pair_verdict *v, int which, int *within)
{
	static const struct ratio_ci none;

	*within = 0;
	if (v->kind == V_UNEQUAL && which != GATE_P9999)	/* runs of different lengths */
		return &none;
	if (which == GATE_TAIL)	/* only where an interval between campaigns (or of runs together) stands */
		return v->design == VD_CAMPAIGNS && !v->max.ok ? &none : &v->tail;
	const struct ratio_ci *by = which ? &v->p9999 : &v->max;
	const struct ratio_ci *runs = which ? &v->p9999_runs : &v->max_runs;

	*within = !by->ok && v->design == VD_CAMPAIGNS && runs->ok;
	return *within ? runs : by;
}

/*
 * Against the baseline: a side's row regresses when the interval of its
 * ratio to the baseline (max, p99.99, or the tail) lies wholly above
 * 1 + tolerance. A baseline ran at another time by nature: with one
 * campaign a side there is no interval between campaigns, and the runs'
 * interval of the max and p99.99 is judged instead, the tolerance
 * standing for what changed in between; the tail is not (its runs'
 * interval across time called 14-58 % of A/A pairs here).
 */
static int regresses(const struct pair_verdict *v, double tol, int *which)
{
	int within;

	*which = -1;
	if (v->kind == V_UNJUDGED)	/* no gate on figures the run cannot vouch for */
		return 0;
	for (int k = GATE_MAX; k <= GATE_TAIL && *which < 0; k++) {
		const struct ratio_ci *r = cmp_gate(v, k, &within);

		if (r->ok && r->lo > 1 + tol)
			*which = k;
	}
	return *which >= 0;
}

/* Append a's verdict against b on row r to *list. 0, or -ENOMEM. */
static int add_pair(struct pair **list, int *n, const struct cmp *c, int r, int a, int b)
{
	struct side_runs x = cmp_runs(c, r, a), y = cmp_runs(c, r, b);
	struct pair p = { .row = r, .a = a, .b = b, .which = -1 };
	struct pair *more;

	if ((!x.n && !x.nleft) || (!y.n && !y.nleft))
		return 0;	/* a side without the row */
	int rc = verdict_pair(&x, &y, c->o->margin, &p.v);
	if (rc)
		return rc;
	for (int m = 0; m < METRIC_COUNT; m++) {	/* every metric, for compare.csv */
		x.metric = y.metric = m;
		if (!side_has_metric(&x, m) || !side_has_metric(&y, m))
			continue;
		p.has |= METRIC_BIT(m);
		rc = verdict_pair(&x, &y, c->o->margin, &p.by[m]);
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

int cmp_thresholds(struct cmp *c)
{
	const struct compare_opts *o = c->o;
	int shared = 0;

	for (int r = 0; r < c->m.nrows; r++) {
		struct row_over *row = &c->over[r];
		struct side_runs sides[MAX_SIDES];

		shared += c->m.row[r].sides >= 2;
		for (int s = 0; s < c->m.nsides; s++)
			sides[s] = cmp_runs(c, r, s);
		if (o->nover) {
			memcpy(row->over, o->over, (size_t)o->nover * sizeof(row->over[0]));
			row->nover = o->nover;
		} else {
			row->nover = verdict_default_over(sides, c->m.nsides, row->over,
							  COMPARE_OVER_MAX);
		}
	}
	return shared;
}

/* Every verdict the outputs show, once; the regressions counted. 0 or -errno. */
int cmp_pairs(struct cmp *c)
{
	int rc = 0;

	for (int r = 0; rc == 0 && r < c->m.nrows; r++) {
		for (int i = 0; rc == 0 && i < c->m.nsides; i++)
			for (int j = i + 1; rc == 0 && j < c->m.nsides; j++)
				rc = add_pair(&c->pairs, &c->npairs, c, r, i, j);
		for (int b = 0; rc == 0 && b < c->m.nsides; b++)
			for (int s = 0; rc == 0 && cmp_is_baseline(c, b) && s < c->m.nsides; s++)
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
	beyond_free(&c->beyond);
	rows_free(&c->m);
	free(c->over);
	free(c->pairs);
	free(c->judged);
	free(c);
}
