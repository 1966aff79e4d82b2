/*
 * A command line written in a config, split into an argv without a
 * shell: words are separated by blanks; "double quotes" keep blanks in a
 * word; a backslash takes the next character as it is (\" \\ \ ).
 * Nothing else is special: no variables, globs, pipes or redirections.
 */
#ifndef LATLAB_ARGV_H
#define LATLAB_ARGV_H

#include <stddef.h>

/*
 * Split `cmd`. On success returns 0 and a NULL-terminated *argv whose
 * words live in the same allocation (free(*argv) frees all); *argc is
 * the word count. -EINVAL for an unclosed quote, a trailing backslash or
 * no word at all; -ENOMEM.
 */
int argv_split(const char *cmd, char ***argv, int *argc);

/*
 * Can `cmd` start here: it splits, and its program is executable (a
 * path) or on PATH. 0, or -errno with "command = CMD: PROG: why" in err.
 */
int argv_runnable(const char *cmd, char *err, size_t len);

/* The program of `cmd` (its first word) into word. 0, or argv_split's -errno. */
int argv_first(const char *cmd, char *word, size_t len);

/*
 * Run argv (on PATH, no shell) with no signal blocked, and wait for it;
 * quiet: its output to /dev/null. Its exit status (127: it could not be
 * started), ARGV_SIGNALLED + N when signal N ended it, or -errno from
 * fork or wait.
 */
int argv_run(char *const argv[], int quiet);
#define ARGV_SIGNALLED 256

#endif
