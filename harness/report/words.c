#include <stdio.h>
#include <string.h>

#include "units.h"
#include "words.h"

/* c's value on axis a as cells.csv has it: a number's digits, else its text. */
static const char *value(const struct tcell *c, int a, char *buf, size_t len)
{
	if (!taxis_numeric(a))
		return c->ax[a];
	snprintf(buf, len, "%lld", (long long)c->num[a]);
	return buf;
}

/*
 * An axis's value through one of its templates ("threads %s"): a
 * duration in whole µs ("1000 µs", "1000us").
 */
static void through(const struct tcell *c, int a, const char *fmt, char *buf, size_t len)
{
	char v[TCELL_AXIS_MAX];
	const char *text = v;

	if (axis_defs[a].kind == AXK_DURATION)
		snprintf(v, sizeof(v), "%.0f", (double)c->num[a] / 1000.0);
	else
		text = value(c, a, v, sizeof(v));
	/* the table's templates have one %s: its value goes there */
	const char *at = strstr(fmt, "%s");

	if (at)
		snprintf(buf, len, "%.*s%s%s", (int)(at - fmt), fmt, text, at + 2);
	else
		snprintf(buf, len, "%s", fmt);
}

/* Does a row say the axis (not where it has the value its table row hides)? */
static int said(const struct tcell *c, int a)
{
	const char *hidden = axis_defs[a].hidden;

	if (a == TAXIS_SIZE && !tcell_moves_bytes(c))
		return 0;	/* a workload that moved no byte did not use it */

	return !hidden || (c->ax[a][0] && strcmp(c->ax[a], hidden) != 0);
}

void tcell_row_title(const struct tcell *c, char *buf, size_t len)
{
	size_t u = 0;

	/* every row axis, said: rows that differ in one differ here */
	buf[0] = '\0';
	for (int a = 0; a < TAXIS_COUNT && u < len; a++) {
		char part[TAXIS_VALUE_MAX];

		if (!taxis_in_row(a) || !said(c, a))
			continue;
		through(c, a, axis_defs[a].title, part, sizeof(part));
		u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? ", " : "", part);
	}
}

int tcell_same_side(const struct tcell *a, const struct tcell *b)
{
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->host, b->host) &&
	       !strcmp(a->release, b->release);
}

/* The row axes' columns, the one of `axis` empty (along the kernel, none is). */
static void row_fields(struct csvw *w, const struct tcell *c, int axis)
{
	for (int a = 0; a < TAXIS_COUNT; a++) {
		if (!taxis_in_row(a))
			continue;
		if (a == axis)
			csvw_str(w, "");
		else if (taxis_numeric(a))
			csvw_int(w, c->num[a]);
		else
			csvw_str(w, c->ax[a]);
	}
}

void tcell_row_fields(struct csvw *w, const struct tcell *c)
{
	row_fields(w, c, TAXIS_KERNEL);
}

void tcell_row_header(struct csvw *w, const char *rest)
{
	char columns[TAXIS_NAMES_MAX + 8192];

	taxis_row_columns(columns, sizeof(columns));
	snprintf(columns + strlen(columns), sizeof(columns) - strlen(columns), ",%s", rest);
	csvw_header(w, columns);
}

void tcell_axis_value(const struct tcell *c, int axis, char *buf, size_t len)
{
	if (axis == TAXIS_KERNEL)
		snprintf(buf, len, "%s@%s:%s", c->kernel, c->host, c->release);
	else if (axis == TAXIS_HOST)
		snprintf(buf, len, "%s:%s", c->host, c->release);
	else if (axis >= 0 && axis < TAXIS_COUNT)
		through(c, axis, axis_defs[axis].label, buf, len);
	else
		buf[0] = '\0';
}

void tcell_row_key_along(const struct tcell *c, int axis, char *buf, size_t len)
{
	char v[TAXIS_COUNT][TAXIS_VALUE_MAX];

	for (int a = 0; a < TAXIS_COUNT; a++)
		tcell_axis_value(c, a, v[a], sizeof(v[a]));
	/* along the kernel the host goes too (a side is a variant on a host); along the host, the kernel's name stays */
	if (axis == TAXIS_KERNEL || axis == TAXIS_HOST)
		v[TAXIS_KERNEL][0] = v[TAXIS_HOST][0] = '\0';
	if (axis == TAXIS_HOST)
		snprintf(v[TAXIS_KERNEL], sizeof(v[0]), "%s", c->kernel);
	v[axis][0] = '\0';
	buf[0] = '\0';
	for (int a = 0; a < TAXIS_COUNT; a++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s|", v[a]);
}

int tcell_same_side_along(const struct tcell *a, const struct tcell *b, int axis)
{
	char x[TAXIS_VALUE_MAX], y[TAXIS_VALUE_MAX];

	if (axis == TAXIS_KERNEL)
		return tcell_same_side(a, b);
	tcell_axis_value(a, axis, x, sizeof(x));
	tcell_axis_value(b, axis, y, sizeof(y));
	return strcmp(x, y) == 0;
}

void tcell_row_title_along(const struct tcell *c, int axis, char *buf, size_t len)
{
	if (axis == TAXIS_KERNEL) {
		tcell_row_title(c, buf, len);
		return;
	}
	/* the kernel variant is in the row: alone along the host, else with its host */
	if (axis == TAXIS_HOST)
		snprintf(buf, len, "%s", c->kernel);
	else
		tcell_axis_value(c, TAXIS_KERNEL, buf, len);
	for (int a = 0; a < TAXIS_COUNT; a++) {
		char part[TAXIS_VALUE_MAX];

		if (!taxis_in_row(a) || a == axis || !said(c, a))
			continue;
		through(c, a, axis_defs[a].title, part, sizeof(part));
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s", part);
	}
}

void tcell_row_fields_along(struct csvw *w, const struct tcell *c, int axis)
{
	char k[TAXIS_VALUE_MAX];

	row_fields(w, c, axis);
	if (axis == TAXIS_KERNEL)
		k[0] = '\0';
	else if (axis == TAXIS_HOST)
		snprintf(k, sizeof(k), "%s", c->kernel);
	else
		tcell_axis_value(c, TAXIS_KERNEL, k, sizeof(k));
	csvw_str(w, k);
}

/* ---- a row in a reader's words ---- */

#define SHOWN(a) (!(omit & (1u << (a))))

/* What an axis's words need to know: the cell, what is left out, and how briefly. */
struct say {
	const struct tcell *c;
	unsigned omit;
	int terse;
};

/* "1 ms", "200 µs", "1.5 ms", "2 s": an interval for people. */
static void interval_words(const struct say *s, char *buf, size_t len)
{
	int64_t ns = s->c->interval;

	if (ns >= 1000000000 && ns % 10000000 == 0)
		snprintf(buf, len, "%g s", (double)ns / 1e9);
	else if (ns >= 1000000 && ns % 10000 == 0)
		snprintf(buf, len, "%g ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%g µs", (double)ns / 1e3);
}

/* "1 thread on CPU 1", "2 threads, one CPU each", "a thread per CPU, unpinned" */
static void threads_affinity(const struct tcell *c, char *buf, size_t len)
{
	char who[TCELL_AXIS_MAX + 16];
	const char *a = c->affinity;

	if (strcmp(c->threads, "all") == 0)
		snprintf(who, sizeof(who), "a thread per CPU");
	else
		snprintf(who, sizeof(who), "%s thread%s", c->threads,
			 strcmp(c->threads, "1") == 0 ? "" : "s");
	if (strcmp(a, "spread") == 0)
		snprintf(buf, len, "%s, one CPU each", who);
	else if (strcmp(a, "all") == 0)
		snprintf(buf, len, "%s, unpinned", who);
	else if (strcmp(a, "isolated") == 0)
		snprintf(buf, len, "%s on the isolated CPUs", who);
	else if (strncmp(a, "node:", 5) == 0)
		snprintf(buf, len, "%s on node %s", who, a + 5);
	else
		snprintf(buf, len, "%s on CPU%s %s", who, a[strspn(a, "0123456789")] ? "s" : "", a);
}

static void kernel_words(const struct say *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s->c->kernel);
}

static void load_words(const struct say *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strcmp(s->c->load, "none") == 0 ? "no load" : s->c->load);
}

static void workload_words(const struct say *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s->c->workload);
}

/* threads and affinity said together where both are */
static void threads_words(const struct say *s, char *buf, size_t len)
{
	unsigned omit = s->omit;

	if (SHOWN(TAXIS_AFFINITY))
		threads_affinity(s->c, buf, len);
	else
		snprintf(buf, len, "%s thread%s", s->c->threads,
			 strcmp(s->c->threads, "1") == 0 ? "" : "s");
}

static void affinity_words(const struct say *s, char *buf, size_t len)
{
	unsigned omit = s->omit;

	if (SHOWN(TAXIS_THREADS))
		buf[0] = '\0';	/* said with the threads */
	else
		snprintf(buf, len, "affinity %s", s->c->affinity);
}

/* Is the cell's policy a real-time one with a priority (fifo, rr)? */
static int rt_policy(const struct tcell *c)
{
	return strcmp(c->policy, "fifo") == 0 || strcmp(c->policy, "rr") == 0;
}

/* the policy with its priority where both are said and it has one: "FIFO 90" */
static void policy_words(const struct say *s, char *buf, size_t len)
{
	const struct tcell *c = s->c;
	unsigned omit = s->omit;
	const char *pol = strcmp(c->policy, "fifo") == 0 ? "FIFO" :
			  strcmp(c->policy, "rr") == 0 ? "RR" :
			  strcmp(c->policy, "other") == 0 ? "SCHED_OTHER" : c->policy;

	if (SHOWN(TAXIS_PRIORITY) && rt_policy(c))
		snprintf(buf, len, "%s %lld", pol, (long long)c->priority);
	else
		snprintf(buf, len, "%s", pol);
}

static void priority_words(const struct say *s, char *buf, size_t len)
{
	unsigned omit = s->omit;

	if (SHOWN(TAXIS_POLICY))
		buf[0] = '\0';	/* with the policy, or none applies */
	else
		snprintf(buf, len, "priority %lld", (long long)s->c->priority);
}

int tcell_moves_bytes(const struct tcell *c)
{
	if (strcmp(c->workload, "timer") == 0 || strcmp(c->workload, "noise") == 0)
		return 0;
	return c->bytes > 0 || !c->measured;	/* measured and moved none: the size was not used */
}

/* tersely only where the workload moves bytes */
static void size_words(const struct say *s, char *buf, size_t len)
{
	char size[32];

	buf[0] = '\0';
	if (s->terse && !tcell_moves_bytes(s->c))
		return;
	units_format_size(s->c->size, size, sizeof(size));
	snprintf(buf, len, "%s%s", size, size[strspn(size, "0123456789")] ? "" : " B");
}

/* tersely only where it is not the default 0 */
static void dma_words(const struct say *s, char *buf, size_t len)
{
	const char *d = s->c->dma_latency;

	buf[0] = '\0';
	if (!s->terse || (strcmp(d, "0") != 0 && d[0]))
		snprintf(buf, len, "cpu_dma_latency %s", d);
}

static void numa_words(const struct say *s, char *buf, size_t len)
{
	const char *n = s->c->numa;
	int set = said(s->c, TAXIS_NUMA);

	buf[0] = '\0';
	if (s->terse && !set)
		return;
	if (strncmp(n, "node:", 5) == 0)
		snprintf(buf, len, "memory on node %s", n + 5);
	else if (!set)
		snprintf(buf, len, "memory where first touched");
	else
		snprintf(buf, len, "%s memory", strcmp(n, "interleave") == 0 ? "interleaved" : n);
}

/* an axis with no words of its own: its label, tersely only where the table does not hide it */
static void plain_words(const struct say *s, int a, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!s->terse || said(s->c, a))
		through(s->c, a, axis_defs[a].label, buf, len);
}

/* Each axis's words (NULL: plain_words), in the axis table's index. */
static void (*const words_of[TAXIS_COUNT])(const struct say *, char *, size_t) = {
	[TAXIS_KERNEL] = kernel_words, [TAXIS_LOAD] = load_words,
	[TAXIS_WORKLOAD] = workload_words, [TAXIS_THREADS] = threads_words,
	[TAXIS_AFFINITY] = affinity_words, [TAXIS_INTERVAL] = interval_words,
	[TAXIS_PRIORITY] = priority_words, [TAXIS_SIZE] = size_words,
	[TAXIS_POLICY] = policy_words, [TAXIS_DMA] = dma_words, [TAXIS_NUMA] = numa_words,
};

void tcell_row_words_omit(const struct tcell *c, unsigned omit, int terse, char *buf, size_t len)
{
	struct say s = { c, omit, terse };
	size_t u = 0;

	buf[0] = '\0';
	/* in the order a reader says them (the table's `words`), not the matrix's */
	for (int place = 0; place < TAXIS_COUNT; place++)
		for (int a = 0; a < TAXIS_COUNT && u < len; a++) {
			char part[TAXIS_VALUE_MAX];

			if (axis_defs[a].words_at != place || !SHOWN(a))
				continue;
			if (words_of[a])
				words_of[a](&s, part, sizeof(part));
			else
				plain_words(&s, a, part, sizeof(part));
			if (part[0])
				u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? " · " : "", part);
		}
}
#undef SHOWN

void tcell_row_words(const struct tcell *c, int axis, char *buf, size_t len)
{
	/* along the host, the kernel variant is part of the row */
	tcell_row_words_omit(c, axis == TAXIS_HOST ? 0 : 1u << axis, 1, buf, len);
}
