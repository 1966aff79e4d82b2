#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_model.h"
#include "csvfile.h"
#include "html.h"
#include "junit.h"
#include "log.h"
#include "model.h"
#include "why.h"

/* A ratio and its interval; the interval empty when there is none (too few). */
static void ratio_fields(struct csvw *w, const struct ratio_ci *r)
{
	csvw_num(w, r->ratio, 4);
	if (r->ok) {
		csvw_num(w, r->lo, 4);
		csvw_num(w, r->hi, 4);
	} else {
		csvw_str(w, "");
		csvw_str(w, "");
	}
}

/* A side's wake-ups above a threshold: count, hours, rate and its interval. */
static void exceed_fields(struct csvw *w, const struct exceed *e)
{
	csvw_int(w, (int64_t)e->count);
	csvw_num(w, e->hours, 6);
	csvw_num(w, e->rate, 3);
	csvw_num(w, e->lo, 3);
	csvw_num(w, e->hi, 3);
	csvw_num(w, e->dispersion, 3);
}

/* The tail's percentile, medians, ratio and verdict (empty without one), and when the sides ran. */
static void tail_fields(struct csvw *w, const struct pair_verdict *v)
{
	if (v->tail_pct > 0) {
		csvw_num(w, v->tail_pct, 4);
		csvw_num(w, v->tail_med_a, 0);
		csvw_num(w, v->tail_med_b, 0);
		ratio_fields(w, &v->tail);
	} else {
		for (int k = 0; k < 6; k++)
			csvw_str(w, "");
	}
	csvw_str(w, verdict_keyword(v->kind_tail));
	csvw_str(w, v->apart == 1 ? "apart" : v->apart == 0 ? "together" : "");
	csvw_str(w, verdict_design_name(v->design));
	csvw_int(w, v->ca);
	csvw_int(w, v->cb);
	char margin[32];	/* "10", "2.5", "0": the percentage as given */

	snprintf(margin, sizeof(margin), "%.4g", 100 * v->margin);
	csvw_str(w, margin);
	for (int s = 0; s < 2; s++) {	/* the hypervisor's share, %; empty where no run says */
		double share = s ? v->steal_b : v->steal_a;

		if (share >= 0)
			csvw_num(w, 100 * share, 3);
		else
			csvw_str(w, "");
	}
}

/* Metric m's medians (its sides' summaries), ratio and verdict; empty where the row has none. */
static void metric_fields(struct csvw *w, const struct pair *p, int m,
			  const struct side_runs *a, const struct side_runs *b)
{
	struct side_runs x = *a, y = *b;
	struct side_summary sa, sb;

	if (!(p->has & METRIC_BIT(m))) {
		for (int k = 0; k < 6; k++)
			csvw_str(w, "");
		return;
	}
	x.metric = y.metric = m;
	verdict_summary(&x, &sa);
	verdict_summary(&y, &sb);
	csvw_num(w, sa.max_med, 0);
	csvw_num(w, sb.max_med, 0);
	ratio_fields(w, &p->by[m].max);
	csvw_str(w, verdict_keyword(p->by[m].kind));
}

/*
 * Why a pair has no verdict, as compare.csv's not_comparable says it: a
 * side's reasons (vouch.h's keywords, "status" where a side has no run
 * left), "trace" or "clock" where the sides' figures are of other kinds;
 * "" for a judged pair.
 */
static void not_comparable(const struct pair_verdict *v, char *buf, size_t len)
{
	size_t u;

	vouch_keywords(v->why_a | v->why_b, buf, len);
	u = strlen(buf);
	if ((v->why_pair & PV_TRACE) && u < len)
		u += (size_t)snprintf(buf + u, len - u, "%strace", u ? "+" : "");
	if ((v->why_pair & PV_CLOCK) && u < len)
		snprintf(buf + u, len - u, "%sclock", u ? "+" : "");
}

/*
 * compare.csv: a line per row x pair of sides x threshold, judged on the
 * row's metric, then every metric's verdict (docs/formats.md).
 */
void cmp_fill_csv(FILE *fp, void *arg)
{
	const struct cmp *c = arg;
	struct csvw w = { .fp = fp };

	char columns[sizeof(COMPARE_COLUMNS) + METRIC_COUNT * 200];
	size_t at = snprintf(columns, sizeof(columns), "%s", COMPARE_COLUMNS);

	for (int m = 0; m < METRIC_COUNT; m++)	/* as metric_fields writes them */
		at += snprintf(columns + at, sizeof(columns) - at, "," METRIC_VERDICT_COLUMNS,
			       metric_name(m));
	tcell_row_header(&w, columns);
	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		const struct row_over *row = &c->over[p->row];
		const struct tcell *t = cmp_any(c, p->row);
		struct side_runs a = cmp_runs(c, p->row, p->a), b = cmp_runs(c, p->row, p->b);
		const struct rows_group *ga = rows_group(&c->m, p->row, p->a),
			*gb = rows_group(&c->m, p->row, p->b);
		struct side_summary sa = ga ? ga->sum : (struct side_summary){ 0 },
			sb = gb ? gb->sum : (struct side_summary){ 0 };
		char why[128];

		not_comparable(&p->v, why, sizeof(why));

		for (int k = 0; k < row->nover; k++) {
			struct exceed ea, eb;

			verdict_exceed(&a, row->over[k], &ea);
			verdict_exceed(&b, row->over[k], &eb);
			tcell_row_fields_along(&w, t, c->m.axis);
			csvw_str(&w, taxis_name(c->m.axis));
			csvw_str(&w, c->label[p->a]);
			csvw_str(&w, c->label[p->b]);
			csvw_str(&w, metric_name(a.metric));
			csvw_int(&w, a.n);
			csvw_int(&w, b.n);
			csvw_num(&w, sa.max_med, 0);
			csvw_num(&w, sb.max_med, 0);
			ratio_fields(&w, &p->v.max);
			if (p->v.p9999_short) {	/* a p99.99 of too few samples: none */
				for (int f = 0; f < 5; f++)
					csvw_str(&w, "");
			} else {
				csvw_num(&w, sa.p9999_med, 0);
				csvw_num(&w, sb.p9999_med, 0);
				ratio_fields(&w, &p->v.p9999);
			}
			csvw_str(&w, verdict_keyword(p->v.kind));
			csvw_str(&w, verdict_keyword(p->v.kind_p9999));
			tail_fields(&w, &p->v);
			csvw_int(&w, row->over[k]);
			exceed_fields(&w, &ea);
			exceed_fields(&w, &eb);
			csvw_int(&w, p->v.boots_a);
			csvw_int(&w, p->v.boots_b);
			csvw_int(&w, p->v.nleft_a);
			csvw_int(&w, p->v.nleft_b);
			csvw_str(&w, why);
			for (int m = 0; m < METRIC_COUNT; m++)
				metric_fields(&w, p, m, &a, &b);
			csvw_end(&w);
		}
	}
}

/* "SIDE against the baseline BASE: max ratio 1.52x [1.31x, 1.80x]": a regression in words. */
static void regression_text(const struct cmp *c, const struct pair *p, char *buf, size_t len)
{
	int within;
	const struct ratio_ci *r = cmp_gate(&p->v, p->which, &within);

	char ci[128];

	verdict_interval_str(r, 0, c->o->tolerance, ci, sizeof(ci));
	snprintf(buf, len, "%s against the baseline %s: %s ratio %s, above 1 + %.0f %%%s",
		 c->label[p->a], c->label[p->b], cmp_gate_name(p->which), ci, 100 * c->o->tolerance,
		 within ? " (within campaigns: one a side)" : "");
}

struct junit_rows {
	const struct cmp *c;
	char title[1024], text[1200];
};

/* Judged pair i as a testcase: the row of a side, failed on regression. */
static void junit_row(int i, struct junit_case *jc, void *arg)
{
	struct junit_rows *jr = arg;
	const struct cmp *c = jr->c;
	const struct pair *p = &c->judged[i];

	rows_row_title(&c->m, p->row, jr->title, sizeof(jr->title));
	jc->classname = c->label[p->a];
	jc->name = jr->title;
	if (p->which >= 0) {
		regression_text(c, p, jr->text, sizeof(jr->text));
		jc->result = JUNIT_FAILURE;
		jc->message = jr->text;
	} else if (p->v.kind == V_UNJUDGED) {	/* not passed: not judged, and why */
		verdict_unjudged_text(&p->v, c->label[p->a], c->label[p->b], jr->text,
				      sizeof(jr->text));
		jc->result = JUNIT_SKIPPED;
		jc->message = jr->text;
	}
}

/* junit.xml with --baseline: a testcase per row x side, failed on regression. */
void cmp_fill_junit(FILE *fp, void *arg)
{
	struct junit_rows jr = { .c = arg };

	junit_write(fp, &(struct junit_suite){ "latlab compare --baseline", 0 },
		    jr.c->njudged, junit_row, &jr);
}

/* Each verdict on stdout, a line per row and pair. */
void cmp_print_verdicts(const struct cmp *c)
{
	for (const struct pair *p = c->pairs; p < c->pairs + c->npairs; p++) {
		char title[1024], text[1200], metric[256];

		rows_row_title(&c->m, p->row, title, sizeof(title));
		rows_metric_said(&c->m, p->row, metric, sizeof(metric));
		verdict_line(&p->v, c->label[p->a], c->label[p->b], c->m.row[p->row].sides, text,
			     sizeof(text));
		printf("%s: %s: %s\n", title, metric, text);
		struct side_runs a = cmp_runs(c, p->row, p->a), b = cmp_runs(c, p->row, p->b);
		char why[WHY_PAIR_MAX];

		why_pair_line(&a, c->label[p->a], &b, c->label[p->b], why, sizeof(why));
		if (why[0])
			printf("  %s\n", why);
	}
}

/* The rows worse than the baseline, named on stderr. */
void cmp_print_regressions(const struct cmp *c)
{
	for (const struct pair *p = c->judged; p < c->judged + c->njudged; p++) {
		char title[1024];
		int within;

		if (p->which < 0)
			continue;
		const struct ratio_ci *r = cmp_gate(&p->v, p->which, &within);

		char ci[128];

		rows_row_title(&c->m, p->row, title, sizeof(title));
		verdict_interval_str(r, 0, c->o->tolerance, ci, sizeof(ci));
		log_error("regression: %s on %s: %s %s the baseline's (%s), beyond %.0f %%%s",
			  title, c->label[p->a], cmp_gate_name(p->which), ci, c->label[p->b],
			  100 * c->o->tolerance,
			  within ? " (within campaigns: one a side)" : "");
	}
}
