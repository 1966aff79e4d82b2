#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"

int file_first_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "re");

	buf[0] = '\0';
	if (!fp)
		return -errno;
	if (!fgets(buf, (int)len, fp))
		buf[0] = '\0';
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return 0;
}

int path_lookup(const char *name, char *buf, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[4096];

	snprintf(dirs, sizeof(dirs), "%s", env ? env : "/usr/local/bin:/usr/bin");
	for (char *save, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", d, name);
		if (access(buf, X_OK) == 0)
			return 0;
	}
	buf[0] = '\0';
	return -ENOENT;
}

int file_append(FILE *out, const char *src)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(src, "rbe");

	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			break;
	int rc = ferror(in) || ferror(out) ? -EIO : 0;
	fclose(in);
	return rc;
}
