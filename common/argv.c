#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

int argv_run(char *const argv[], int quiet)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
		}
		execvp(argv[0], argv);
		if (!quiet)
			fprintf(stderr, "latlab: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? ARGV_SIGNALLED + WTERMSIG(st) : -EINTR;
}
