#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "match.h"

/* a term, and a word of the command line, at most this long */
#define OPT_TERM_MAX 256

static const char *const builtins[][2] = {
	{ "running", "any" },
	{ "stock", "!preempt:rt" },
	{ "rt", "preempt:rt" },
};

static const char *const models =
	"|rt|rt+full|rt+lazy|rt+laziest|full|lazy|laziest|voluntary|none|dynamic|";

const char *kernel_builtin_match(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i][0], name) == 0)
			return builtins[i][1];
	return NULL;
}

/* One term, [!]any | preempt:M | release:G | cmdline:G, of len bytes: 0 or -EINVAL. */
static int term_check(const char *term, size_t len)
{
	char t[OPT_TERM_MAX], word[32];
	const char *m;

	if (len == 0 || len >= sizeof(t))
		return -EINVAL;
	snprintf(t, sizeof(t), "%.*s", (int)len, term);
	m = t[0] == '!' ? t + 1 : t;
	if (strcmp(m, "any") == 0)
		return 0;
	if (strncmp(m, "release:", 8) == 0 || strncmp(m, "cmdline:", 8) == 0)
		return m[8] ? 0 : -EINVAL;
	if (strncmp(m, "preempt:", 8) == 0) {
		snprintf(word, sizeof(word), "|%s|", m + 8);
		return strlen(m + 8) > 0 && strstr(models, word) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

int kernel_match_check(const char *match)
{
	int terms = 0;

	for (const char *p = match; *(p += strspn(p, " \t")); terms++) {
		size_t n = strcspn(p, " \t");

		if (term_check(p, n) != 0)
			return -EINVAL;
		p += n;
	}
	return terms ? 0 : -EINVAL;
}

/* 1 when a word of the command line fits glob. */
static int cmdline_has(const char *cmdline, const char *glob)
{
	char word[OPT_TERM_MAX];

	for (const char *p = cmdline; *(p += strspn(p, " \t\n")); ) {
		size_t n = strcspn(p, " \t\n");

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		if (fnmatch(glob, word, 0) == 0)
			return 1;
		p += n;
	}
	return 0;
}

/* One well-formed term against k. */
static int term_matches(const char *term, const struct kernel_info *k)
{
	int neg = term[0] == '!';
	const char *m = term + neg;
	int hit = 0;

	if (strcmp(m, "any") == 0)
		hit = 1;
	else if (strncmp(m, "release:", 8) == 0)
		hit = fnmatch(m + 8, k->release, 0) == 0;
	else if (strncmp(m, "cmdline:", 8) == 0)
		hit = cmdline_has(k->cmdline, m + 8);
	else if (strcmp(m, "preempt:dynamic") == 0)
		hit = k->dynamic;
	else if (strcmp(m, "preempt:rt") == 0)	/* the family: rt, rt+full, rt+lazy ... */
		hit = strcmp(k->model, "rt") == 0 || strncmp(k->model, "rt+", 3) == 0;
	else if (strncmp(m, "preempt:", 8) == 0)
		hit = strcmp(m + 8, k->model) == 0;
	return neg ? !hit : hit;
}

int kernel_matches(const char *match, const struct kernel_info *k)
{
	char term[OPT_TERM_MAX];

	for (const char *p = match; *(p += strspn(p, " \t")); ) {
		size_t n = strcspn(p, " \t");

		snprintf(term, sizeof(term), "%.*s", (int)n, p);
		if (!term_matches(term, k))
			return 0;
		p += n;
	}
	return 1;
}
