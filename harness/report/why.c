#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tree.h"
#include "why.h"

/* "comm:1234 (SCHED_FIFO 95)" -> "comm (SCHED_FIFO 95)": a task's pid (the last ":DIGITS" before the end or " (") left out */
static void without_pid(const char *name, char *out, size_t len)
{
	const char *cut = NULL;

	for (const char *p = name; *p; p++) {
		const char *d = p + 1;

		if (*p != ':' || *d < '0' || *d > '9')
			continue;
		while (*d >= '0' && *d <= '9')
			d++;
		if (*d == '\0' || (d[0] == ' ' && d[1] == '('))
			cut = p;
	}
	if (!cut) {
		snprintf(out, len, "%s", name);
		return;
	}
	const char *rest = cut + 1;

	while (*rest >= '0' && *rest <= '9')
		rest++;
	snprintf(out, len, "%.*s%s", (int)(cut - name), name, rest);
}

static void culprit_of(const struct tspike *sp, char *out, size_t len)
{
	char name[sizeof(sp->culprit)];

	if (!sp->complete) {
		snprintf(out, len, "incomplete");
		return;
	}
	if (strcmp(sp->kind, "unexplained") == 0 || !sp->culprit[0]) {
		snprintf(out, len, "%s", sp->kind);
		return;
	}
	without_pid(sp->culprit, name, sizeof(name));
	snprintf(out, len, "%s: %s", sp->kind, name);
}

/* the k worst so far, latency descending: one more taken in */
static void keep_worst(const struct tspike **worst, int *n, int k, const struct tspike *sp)
{
	int i;

	if (*n == k) {
		if (worst[k - 1]->latency_ns >= sp->latency_ns)
			return;	/* not among them: equals keep the first seen */
		i = k - 1;
	} else {
		i = (*n)++;
	}
	while (i > 0 && worst[i - 1]->latency_ns < sp->latency_ns) {
		worst[i] = worst[i - 1];
		i--;
	}
	worst[i] = sp;
}

void why_side(const struct side_runs *s, int k, struct why_side *out)
{
	const struct tspike *worst[WHY_WORST] = { NULL };
	int n = 0;

	memset(out, 0, sizeof(*out));
	if (k > WHY_WORST)
		k = WHY_WORST;
	for (int r = 0; r < s->n; r++)
		for (int q = 0; q < s->run[r]->nspikes; q++) {
			out->captures++;
			if (k > 0)
				keep_worst(worst, &n, k, &s->run[r]->spikes[q]);
		}
	out->worst = n;
	/* in order of the worst capture: a culprit's first is its place among equals */
	for (int i = 0; i < n; i++) {
		char what[sizeof(out->c[0].what)];
		int j = 0;

		culprit_of(worst[i], what, sizeof(what));
		while (j < out->nc && strcmp(out->c[j].what, what) != 0)
			j++;
		if (j == out->nc) {
			snprintf(out->c[j].what, sizeof(out->c[j].what), "%s", what);
			out->nc++;
		}
		out->c[j].n++;
	}
	/* most captures first; stable, so ties keep the worse capture's culprit first */
	for (int i = 1; i < out->nc; i++)
		for (int j = i; j > 0 && out->c[j].n > out->c[j - 1].n; j--) {
			struct why_count t = out->c[j];

			out->c[j] = out->c[j - 1];
			out->c[j - 1] = t;
		}
}

void why_side_line(const char *label, const struct side_runs *s, const struct why_side *w,
		   char *buf, size_t len)
{
	int traced = 0;
	size_t used;

	for (int r = 0; r < s->n; r++)
		traced |= s->run[r]->traced;
	buf[0] = '\0';
	if (!traced)
		return;
	if (!w->captures) {
		snprintf(buf, len, "%s: no capture", label);
		return;
	}
	if (w->worst < w->captures)
		snprintf(buf, len, "%s: of its %d worst captures (of %d), ", label, w->worst,
			 w->captures);
	else
		snprintf(buf, len, "%s: of its %d capture%s, ", label, w->captures,
			 w->captures == 1 ? "" : "s");
	for (int i = 0; i < w->nc; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%d %s", i ? ", " : "", w->c[i].n, w->c[i].what);
	}
}

void why_pair_line(const struct side_runs *a, const char *la, const struct side_runs *b,
		   const char *lb, char *buf, size_t len)
{
	struct why_side wa, wb;
	char sa[WHY_SIDE_MAX], sb[WHY_SIDE_MAX];

	why_side(a, WHY_WORST, &wa);
	why_side(b, WHY_WORST, &wb);
	why_side_line(la, a, &wa, sa, sizeof(sa));
	why_side_line(lb, b, &wb, sb, sizeof(sb));
	buf[0] = '\0';
	if (sa[0] || sb[0])
		snprintf(buf, len, "why: %s%s%s", sa, sa[0] && sb[0] ? "; " : "", sb);
}

void why_pair_html(FILE *fp, const struct side_runs *a, const char *la,
		   const struct side_runs *b, const char *lb)
{
	char why[WHY_PAIR_MAX];

	why_pair_line(a, la, b, lb, why, sizeof(why));
	if (!why[0])
		return;
	fputs("<br><small class=\"why\">", fp);
	html_text(fp, why);
	fputs("</small>", fp);
}
