/* Small file and program lookups both programs use. */
#ifndef LATLAB_FILES_H
#define LATLAB_FILES_H

#include <stddef.h>
#include <stdio.h>

/*
 * The first line of a file, without its newline ("" for an empty file).
 * 0 or -errno (buf is then "").
 */
int file_first_line(const char *path, char *buf, size_t len);

/* The directory the running program lives in (/proc/self/exe). 0 or -errno. */
int self_dir(char *buf, size_t len);

/*
 * DIR/NAME for the first DIR of $PATH (or /usr/local/bin:/usr/bin when
 * PATH is unset) where NAME is executable. 0 or -ENOENT.
 */
int path_lookup(const char *name, char *buf, size_t len);

/* Append the bytes of the file src to out. 0 or -errno (-EIO: a short write). */
int file_append(FILE *out, const char *src);

#endif
