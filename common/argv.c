#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "files.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int argv_split(const char *cmd, char ***argv_out, int *argc_out)
{
	size_t len = strlen(cmd);
	/* at most len/2+1 words; the words themselves fit in len+1 bytes each way */
	size_t max_words = len / 2 + 2;
	char **argv = malloc(max_words * sizeof(char *) + 2 * len + 2);
	char *out;
	int argc = 0;

	if (!argv)
		return -ENOMEM;
	out = (char *)(argv + max_words);
	for (const char *p = cmd; *p;) {
		int quoted = 0, in_word = 0;

		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		argv[argc++] = out;
		for (; *p && (quoted || !is_blank(*p)); p++) {
			in_word = 1;
			if (*p == '\\') {
				if (!p[1]) {
					free(argv);
					return -EINVAL;
				}
				*out++ = *++p;
			} else if (*p == '"') {
				quoted = !quoted;
			} else {
				*out++ = *p;
			}
		}
		if (quoted) {
			free(argv);
			return -EINVAL;
		}
		(void)in_word;
		*out++ = '\0';
	}
	if (argc == 0) {
		free(argv);
		return -EINVAL;
	}
	argv[argc] = NULL;
	*argv_out = argv;
	*argc_out = argc;
	return 0;
}

int argv_first(const char *cmd, char *word, size_t len)
{
	char **argv;
	int argc, rc = argv_split(cmd, &argv, &argc);

	if (rc)
		return rc;
	snprintf(word, len, "%s", argv[0]);
	free(argv);
	return 0;
}

int argv_runnable(const char *cmd, char *err, size_t len)
{
	char **argv, path[PATH_MAX];
	int argc, rc = argv_split(cmd, &argv, &argc);

	if (rc) {
		snprintf(err, len, "command = %s: %s", cmd,
			 rc == -EINVAL ? "an unclosed quote, a trailing backslash, or no word" : strerror(-rc));
		return rc;
	}
	rc = path_lookup(argv[0], path, sizeof(path));
	if (rc)
		snprintf(err, len, "command = %s: %s: %s", cmd, argv[0],
			 strchr(argv[0], '/') ? strerror(-rc) : "not found on PATH");
	free(argv);
	return rc;
}
