#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "rows.h"

/* The trees whose sides are one: a tree's own, or its side_group's. */
static int group_id(const struct tree *t, int i)
{
	return t[i].side_group ? t[i].side_group : -(i + 1);
}

/* The side of tree `tree` that c belongs to, added when new; -1: no memory. */
static int side_of(struct rows *m, const struct tree *t, int tree, const struct tcell *c)
{
	struct rows_side *more;

	for (int s = 0; s < m->nsides; s++)
		if (group_id(t, m->side[s].tree) == group_id(t, tree) &&
		    tcell_same_side_along(m->side[s].first, c, m->axis))
			return s;
	more = realloc(m->side, (size_t)(m->nsides + 1) * sizeof(*more));
	if (!more)
		return -1;
	m->side = more;
	more[m->nsides] = (struct rows_side){ .tree = tree, .first = c };
	return m->nsides++;
}

/* The row of key, added when new (c its first run); -1: no memory. */
static int row_of(struct rows *m, const char *key, const struct tcell *c)
{
	struct rows_row *more;

	for (int r = 0; r < m->nrows; r++)
		if (strcmp(m->row[r].key, key) == 0)
			return r;
	more = realloc(m->row, (size_t)(m->nrows + 1) * sizeof(*more));
	if (!more)
		return -1;
	m->row = more;
	memset(&more[m->nrows], 0, sizeof(more[0]));
	snprintf(more[m->nrows].key, sizeof(more[0].key), "%s", key);
	more[m->nrows].any = c;
	more[m->nrows].first = -1;
	return m->nrows++;
}

/* Row r's group on side s, added when new (last in the row's list); -1: no memory. */
static int group_of(struct rows *m, int r, int s)
{
	struct rows_group *more;
	int last = -1;

	for (int g = m->row[r].first; g >= 0; g = m->group[g].next) {
		if (m->group[g].side == s)
			return g;
		last = g;
	}
	more = realloc(m->group, (size_t)(m->ngroups + 1) * sizeof(*more));
	if (!more)
		return -1;
	m->group = more;
	more[m->ngroups] = (struct rows_group){ .row = r, .side = s, .next = -1 };
	if (last < 0)
		m->row[r].first = m->ngroups;
	else
		more[last].next = m->ngroups;
	return m->ngroups++;
}

static int add_run(struct rows_group *g, const struct tcell *c, int tree)
{
	const struct tcell **run = realloc(g->run, (size_t)(g->n + 1) * sizeof(*run));
	int *camp;

	if (!run)
		return -ENOMEM;
	g->run = run;
	camp = realloc(g->camp, (size_t)(g->n + 1) * sizeof(*camp));
	if (!camp)
		return -ENOMEM;
	g->camp = camp;
	camp[g->n] = tree;
	run[g->n++] = c;
	return 0;
}

/* Runs of row r left out on side s, added when new; -1: no memory. */
static int left_add(struct rows *m, int r, int s, const struct tcell *c)
{
	struct rows_left *l = NULL;
	const struct tcell **run;

	for (int i = 0; i < m->nleft && !l; i++)
		if (m->left[i].row == r && m->left[i].side == s)
			l = &m->left[i];
	if (!l) {
		struct rows_left *more = realloc(m->left, (size_t)(m->nleft + 1) * sizeof(*more));

		if (!more)
			return -1;
		m->left = more;
		l = &more[m->nleft++];
		*l = (struct rows_left){ .row = r, .side = s };
	}
	run = realloc(l->run, (size_t)(l->n + 1) * sizeof(*run));
	if (!run)
		return -1;
	l->run = run;
	run[l->n++] = c;
	return 0;
}

static const struct rows_left *left_of(const struct rows *m, int r, int s)
{
	for (int i = 0; i < m->nleft; i++)
		if (m->left[i].row == r && m->left[i].side == s)
			return &m->left[i];
	return NULL;
}

/* Why row r's runs' figures of metric cannot be judged (VR_BITs, vouch.h); 0: they can. */
static unsigned row_why(const struct rows *m, int r, int metric)
{
	unsigned why = 0;

	for (int g = m->row[r].first; g >= 0; g = m->group[g].next)
		for (int i = 0; i < m->group[g].n; i++)
			why |= m->group[g].run[i]->vouch[metric];
	return why;
}

/* Have all of row r's runs a histogram of metric? */
static int row_has(const struct rows *m, int r, int metric)
{
	for (int g = m->row[r].first; g >= 0; g = m->group[g].next)
		for (int i = 0; i < m->group[g].n; i++)
			if (!m->group[g].run[i]->metric[metric])
				return 0;
	return 1;
}

/* Each row's group per side, its sides, trees and metric, and each group's summary. */
void rows_side_key(const struct rows *m, int s, char *buf, size_t len)
{
	const struct tcell *c = m->side[s].first;

	if (m->axis == TAXIS_KERNEL)
		snprintf(buf, len, "%s", c->kernel);
	else if (m->axis == TAXIS_HOST)
		snprintf(buf, len, "%s", c->host);
	else
		tcell_axis_value(c, m->axis, buf, len);
}

/* Each side's colour, by what it is (plot_colors). 0 or -ENOMEM. */
static int side_colors(struct rows *m)
{
	char (*key)[TAXIS_VALUE_MAX] = calloc((size_t)m->nsides + 1, sizeof(*key));
	const char **names = calloc((size_t)m->nsides + 1, sizeof(*names));
	int *color = calloc((size_t)m->nsides + 1, sizeof(*color));
	int rc = key && names && color ? 0 : -ENOMEM;

	for (int s = 0; rc == 0 && s < m->nsides; s++) {
		rows_side_key(m, s, key[s], sizeof(key[s]));
		names[s] = key[s];
	}
	if (rc == 0)
		plot_colors(names, m->nsides, color);
	for (int s = 0; rc == 0 && s < m->nsides; s++)
		m->side[s].color = color[s];
	free(key);
	free(names);
	free(color);
	return rc;
}

static int finish(struct rows *m, int metric)
{
	for (int r = 0; r < m->nrows; r++) {
		struct rows_row *row = &m->row[r];
		int tree = -1;

		row->metric = metric == ROWS_OWN_METRIC ? row->any->primary : metric;
		if (!row_has(m, r, row->metric))	/* runs that disagree: the common one */
			row->metric = METRIC_WAKEUP;
		row->asked = row->metric;
		row->asked_why = row_why(m, r, row->metric);
		/* its own metric cannot be judged here: the first that can, said in the line */
		for (int k = 0; metric == ROWS_OWN_METRIC && row->asked_why && k < METRIC_COUNT; k++)
			if (row_has(m, r, k) && !row_why(m, r, k)) {
				row->metric = k;
				break;
			}

		row->group = malloc(((size_t)m->nsides + 1) * sizeof(*row->group));
		if (!row->group)
			return -ENOMEM;
		for (int s = 0; s < m->nsides; s++)
			row->group[s] = -1;
		for (int g = row->first; g >= 0; g = m->group[g].next)
			row->group[m->group[g].side] = g;
		/* the sides are in tree order: a tree's sides are together */
		for (int s = 0; s < m->nsides; s++) {
			if (row->group[s] < 0)
				continue;
			row->sides++;
			row->trees += m->side[s].tree != tree;
			tree = m->side[s].tree;
		}
	}
	for (int g = 0; g < m->ngroups; g++) {
		struct rows_group *gr = &m->group[g];
		struct side_runs sr = rows_runs(m, gr->row, gr->side);

		verdict_summary(&sr, &gr->sum);
	}
	return side_colors(m);
}

int rows_build(struct rows *m, const struct tree *t, int ntrees, int metric, int axis)
{
	memset(m, 0, sizeof(*m));
	m->axis = axis;
	for (int i = 0; i < ntrees; i++)
		for (int k = 0; k < t[i].n; k++) {
			const struct tcell *c = &t[i].cell[k];
			char key[1024];
			int s, r, g;

			if (!c->measured)
				continue;
			if (metric != ROWS_OWN_METRIC && !c->metric[metric]) {
				m->nomit++;	/* nothing to judge it on */
				continue;
			}
			tcell_row_key_along(c, axis, key, sizeof(key));
			if ((s = side_of(m, t, i, c)) < 0 || (r = row_of(m, key, c)) < 0)
				return -ENOMEM;
			/* an errored, interrupted or partial cell: said, never judged */
			if (!vouch_status_judged(c->vf.status)) {
				if (left_add(m, r, s, c))
					return -ENOMEM;
				continue;
			}
			if ((g = group_of(m, r, s)) < 0 || add_run(&m->group[g], c, i))
				return -ENOMEM;
		}
	return finish(m, metric);
}

void rows_free(struct rows *m)
{
	for (int r = 0; r < m->nrows; r++)
		free(m->row[r].group);
	for (int g = 0; g < m->ngroups; g++) {
		free(m->group[g].run);
		free(m->group[g].camp);
	}
	for (int i = 0; i < m->nleft; i++)
		free(m->left[i].run);
	free(m->left);
	free(m->row);
	free(m->group);
	free(m->side);
	memset(m, 0, sizeof(*m));
}

const struct rows_group *rows_group(const struct rows *m, int r, int s)
{
	int g = m->row[r].group ? m->row[r].group[s] : -1;

	return g >= 0 ? &m->group[g] : NULL;
}

struct side_runs rows_runs(const struct rows *m, int r, int s)
{
	const struct rows_group *g = rows_group(m, r, s);
	const struct rows_left *l = left_of(m, r, s);
	struct side_runs sr = { .metric = m->row[r].metric };

	if (g) {
		sr.run = g->run;
		sr.n = g->n;
		sr.camp = g->camp;
	}
	if (l) {
		sr.left = l->run;
		sr.nleft = l->n;
	}
	return sr;
}

void rows_metric_said(const struct rows *m, int r, char *buf, size_t len)
{
	const struct rows_row *row = &m->row[r];
	char keys[64];

	if (row->metric == row->asked) {
		snprintf(buf, len, "%s", rows_metric_words(row->metric));
		return;
	}
	vouch_keywords(row->asked_why, keys, sizeof(keys));
	snprintf(buf, len, "%s (%s cannot be judged here: %s)", rows_metric_words(row->metric),
		 rows_metric_words(row->asked), keys);
}

unsigned rows_common_axes(const struct rows *m)
{
	unsigned common = 1u << m->axis | 1u << TAXIS_HOST;

	for (int a = 0; a < TAXIS_COUNT; a++) {
		char first[TAXIS_VALUE_MAX], v[TAXIS_VALUE_MAX];
		int same = 1;

		if (a == m->axis || a == TAXIS_HOST)
			continue;
		for (int i = 0; i < m->nrows && same; i++) {
			tcell_axis_value(m->row[i].any, a, i ? v : first, sizeof(v));
			same = i == 0 || strcmp(v, first) == 0;
		}
		if (same)
			common |= 1u << a;
	}
	return common;
}

void rows_row_title(const struct rows *m, int r, char *buf, size_t len)
{
	tcell_row_title_along(m->row[r].any, m->axis, buf, len);
}

const char *rows_pct_text(const struct side_summary *s, int p99, char *buf, size_t len)
{
	if (!(p99 ? s->p99_ok : s->p9999_ok))
		snprintf(buf, len, "—");
	else
		snprintf(buf, len, "%.1f", US(p99 ? s->p99_med : s->p9999_med));
	return buf;
}

const char *rows_metric_words(int metric)
{
	switch (metric) {
	case METRIC_WAKEUP:
		return "wake-up";
	case METRIC_NOISE_MAX:
		return "noise max";
	case METRIC_NOISE_TOTAL:
		return "noise total";
	case METRIC_WAKEUP_CORRECTED:
		return "wake-up with missed periods";
	case METRIC_TIMERLAT_IRQ:
		return "timerlat IRQ";
	case METRIC_TIMERLAT_THREAD:
		return "timerlat thread";
	case METRIC_WATCH_TIMER:
		return "timer to running (the kernel's)";
	case METRIC_WATCH_SCHED:
		return "waking to running (the kernel's)";
	default:
		return metric_name(metric);
	}
}

int rows_unmeasured_text(const struct tree *t, char *buf, size_t len)
{
	static const int order[] = { CELL_SKIPPED, CELL_ERROR, CELL_INTERRUPTED, CELL_FAIL, CELL_OK,
				     CELL_PARTIAL, CELL_RUNNING, CELL_PENDING };
	const struct tcell *first = NULL;
	int count[CELL_STATUS_COUNT] = { 0 }, n = 0;
	size_t u;

	buf[0] = '\0';
	for (int i = 0; i < t->n; i++) {
		const struct tcell *c = &t->cell[i];
		int st = cell_status_parse(c->status);

		if (c->measured || c->bad || st < 0)
			continue;
		count[st]++;
		n++;
		if (!first || (!first->reason[0] && c->reason[0]))
			first = c;
	}
	if (!n)
		return 0;
	u = (size_t)snprintf(buf, len, "%d of %d cells measured nothing:", n, t->n);
	for (size_t k = 0, any = 0; k < sizeof(order) / sizeof(order[0]) && u < len; k++)
		if (count[order[k]])
			u += (size_t)snprintf(buf + u, len - u, "%s %d %s", any++ ? "," : "",
					      count[order[k]], cell_status_name(order[k]));
	if (u < len && first->reason[0])
		snprintf(buf + u, len - u, " (the first, %s: %s)", first->id, first->reason);
	return n;
}
