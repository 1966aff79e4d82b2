#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "match.h"

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

int kernel_match_check(const char *match)
{
	const char *m = match[0] == '!' ? match + 1 : match;
	char word[32];

	if (strcmp(m, "any") == 0)
		return 0;
	if (strncmp(m, "release:", 8) == 0)
		return m[8] ? 0 : -EINVAL;
	if (strncmp(m, "preempt:", 8) == 0) {
		snprintf(word, sizeof(word), "|%s|", m + 8);
		return strlen(m + 8) > 0 && strstr(models, word) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

int kernel_matches(const char *match, const struct kernel_info *k)
{
	int neg = match[0] == '!';
	const char *m = match + neg;
	int hit = 0;

	if (strcmp(m, "any") == 0)
		hit = 1;
	else if (strncmp(m, "release:", 8) == 0)
		hit = fnmatch(m + 8, k->release, 0) == 0;
	else if (strcmp(m, "preempt:dynamic") == 0)
		hit = k->dynamic;
	else if (strcmp(m, "preempt:rt") == 0)	/* the family: rt, rt+full, rt+lazy ... */
		hit = strcmp(k->model, "rt") == 0 || strncmp(k->model, "rt+", 3) == 0;
	else if (strncmp(m, "preempt:", 8) == 0)
		hit = strcmp(m + 8, k->model) == 0;
	return neg ? !hit : hit;
}
