/*
 * A scratch root for the unit tests of code that reads and writes the
 * kernel's files (/proc, /sys, debugfs) under a root it is given: the
 * root made, its files written with their folders, read back, removed.
 * Include after cmocka.h (a failure to make a file is the test's).
 */
#ifndef LATLAB_TESTS_FAKEFS_H
#define LATLAB_TESTS_FAKEFS_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "files.h"

/* ROOT (LEN bytes) becomes a new folder /tmp/NAME.XXXXXX */
static inline void fakefs_make(char *root, size_t len, const char *name)
{
	snprintf(root, len, "/tmp/%s.XXXXXX", name);
	assert_non_null(mkdtemp(root));
}

/* ROOT/REL holds VALUE and a newline, as the kernel's files do; its folders made */
static inline void fakefs_put(const char *root, const char *rel, const char *value)
{
	char path[PATH_MAX];
	char *slash;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path), 0);
	*slash = '/';
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "%s\n", value);
	assert_int_equal(fclose(fp), 0);
}

/* the first line of ROOT/REL, or "(missing)"; good until the next call */
static inline const char *fakefs_get(const char *root, const char *rel)
{
	static char line[128];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (file_first_line(path, line, sizeof(line)) != 0)
		return "(missing)";
	return line;
}

/* the same under ROOT/sys/devices/system/cpu/ (REL "cpu1/online") */
static inline void fakefs_cpu_put(const char *root, const char *rel, const char *value)
{
	char path[256];

	snprintf(path, sizeof(path), "sys/devices/system/cpu/%s", rel);
	fakefs_put(root, path, value);
}

static inline const char *fakefs_cpu_get(const char *root, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "sys/devices/system/cpu/%s", rel);
	return fakefs_get(root, path);
}

static inline int fakefs_unlink(const char *path, const struct stat *st, int flag,
				struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* PATH and everything under it removed (nothing there is no error): 0 or -1 */
static inline int fakefs_remove(const char *path)
{
	int rc = nftw(path, fakefs_unlink, 16, FTW_DEPTH | FTW_PHYS);

	return rc == 0 || errno == ENOENT ? 0 : -1;
}

#endif
