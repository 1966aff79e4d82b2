#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "cellread.h"
#include "files.h"

void cell_ini_get(const char *dir, enum cell_file f, const char *section,
		  const char *key, char *out, size_t len)
{
	char path[PATH_MAX];

	if (len)
		out[0] = '\0';
	if (cell_file_path(path, sizeof(path), dir, f) == 0)
		file_ini_value(path, section, key, out, len);
}

FILE *cell_file_open(const char *dir, enum cell_file f, long long max,
		     char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (cell_file_path(path, sizeof(path), dir, f) != 0) {
		snprintf(err, errlen, "%s/%s: the path is too long", dir, cell_file_name(f));
		errno = ENAMETOOLONG;
		return NULL;
	}
	return file_fopen_regular(path, max, err, errlen);
}
