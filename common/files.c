#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "log.h"

int file_first_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "re");

	buf[0] = '\0';
	if (!fp)
		return -errno;
	if (!fgets(buf, (int)len, fp)) {
		int err = ferror(fp) ? errno : 0;	/* a read that failed is not an empty file */

		buf[0] = '\0';
		fclose(fp);
		return -err;
	}
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void file_last_line(const char *path, const char *prefer, char *out, size_t len)
{
	char line[512];
	FILE *fp = fopen(path, "re");
	int preferred = 0;

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp)) {
		int is = prefer && strncmp(line, prefer, strlen(prefer)) == 0;

		if (line[strspn(line, " \t\n")] && line[0] != '#' && (is || !preferred))
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
		preferred |= is;
	}
	if (fp)
		fclose(fp);
}

int file_write_string(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t n = strlen(value);

	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, value, n);
	int rc = w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;

	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
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

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return access(buf, X_OK) == 0 ? 0 : -errno;
	}
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
	char buf[65536], err[PATH_MAX + 64];
	size_t n;
	/* a regular file only: a FIFO or /dev/zero named as one never held a run */
	int fd = file_open_regular(src, LLONG_MAX, err, sizeof(err));
	FILE *in = fd >= 0 ? fdopen(fd, "rb") : NULL;

	if (fd < 0)
		return fd;
	if (!in) {
		close(fd);
		return -errno;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			break;
	int rc = ferror(in) || ferror(out) ? -EIO : 0;
	fclose(in);
	return rc;
}

int file_open_regular(const char *path, long long max, char *err, size_t len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return fail_at(err, len, -errno, path, 0, "%s", strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > max) {
		int rc = S_ISDIR(st.st_mode) ? -EISDIR : !S_ISREG(st.st_mode) ? -EINVAL
			 : -EFBIG;

		close(fd);
		if (rc == -EFBIG)
			return fail_at(err, len, rc, path, 0,
				       "%lld bytes: larger than latlab reads (%lld)",
				       (long long)st.st_size, max);
		return fail_at(err, len, rc, path, 0, "%s",
			       rc == -EISDIR ? "a directory, not a file"
					     : "not a regular file");
	}
	/* reads of a regular file do not wait: blocking mode again */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *file_fopen_regular(const char *path, long long max, char *err, size_t len)
{
	int fd = file_open_regular(path, max, err, len);
	FILE *fp;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		int e = errno;

		close(fd);
		errno = e;
		fail_at(err, len, -e, path, 0, "%s", strerror(e));
	}
	return fp;
}

/* Each line of [section] of an INI file latlab wrote, to fn until it returns nonzero. */
static void ini_each(const char *path, const char *section, int (*fn)(const char *line, void *arg),
		     void *arg)
{
	char line[4096], cur[64] = "", err[PATH_MAX + 128];
	FILE *fp = file_fopen_regular(path, 1 << 20, err, sizeof(err));

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '[')
			snprintf(cur, sizeof(cur), "%.*s", (int)strcspn(line + 1, "]"), line + 1);
		else if (strcmp(cur, section) == 0 && fn(line, arg))
			break;
	}
	fclose(fp);
}

struct ini_out {
	const char *key;
	char *out;
	size_t len, n;
};

static int ini_key(const char *line, void *arg)
{
	struct ini_out *o = arg;
	size_t klen = strlen(o->key);

	if (strncmp(line, o->key, klen) != 0 || strncmp(line + klen, " = ", 3) != 0)
		return 0;
	snprintf(o->out, o->len, "%s", line + klen + 3);
	return 1;
}

static int ini_join(const char *line, void *arg)
{
	struct ini_out *o = arg;
	int w;

	if (!strstr(line, " = "))
		return 0;
	w = snprintf(o->out + o->n, o->len - o->n, "%s%s", o->n ? ", " : "", line);
	o->n = w < 0 ? o->n : o->n + (size_t)w < o->len ? o->n + (size_t)w : o->len - 1;
	return o->n + 1 >= o->len;	/* full */
}

void file_ini_value(const char *path, const char *section, const char *key,
		    char *out, size_t len)
{
	struct ini_out o = { .key = key, .out = out, .len = len };

	out[0] = '\0';
	ini_each(path, section, ini_key, &o);
}

void file_ini_section(const char *path, const char *section, char *out, size_t len)
{
	struct ini_out o = { .out = out, .len = len };

	out[0] = '\0';
	ini_each(path, section, ini_join, &o);
}

/* A mountinfo field's octal escapes (\040 for a space) undone in place. */
static void mount_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Is dir (a mount point) path itself or a leading directory of it? */
static size_t mount_covers(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(dir, path, n) == 0 && (path[n] == '/' || path[n] == '\0') ? n : 0;
}

int file_mount_of(const char *path, char *source, size_t slen, char *fstype, size_t flen)
{
	char line[4096], err[128];
	size_t best = 0;
	FILE *fp;

	if (path[0] != '/')
		return -EINVAL;
	fp = file_fopen_regular("/proc/self/mountinfo", 1 << 22, err, sizeof(err));
	if (!fp)
		return -errno;
	/* ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS...] - TYPE SOURCE SUPER */
	while (fgets(line, sizeof(line), fp)) {
		char *save = NULL, *f[5], *dash = strstr(line, " - "), *type, *src;
		int i = 0;
		size_t n;

		if (!dash)
			continue;
		*dash = '\0';
		for (char *t = strtok_r(line, " ", &save); t && i < 5; t = strtok_r(NULL, " ", &save))
			f[i++] = t;
		type = strtok_r(dash + 3, " \n", &save);
		src = strtok_r(NULL, " \n", &save);
		if (i < 5 || !type || !src)
			continue;
		mount_unescape(f[4]);
		n = mount_covers(f[4], path);
		if (n == 0 || n < best)
			continue;
		best = n;	/* a later mount on the same point hides the earlier */
		mount_unescape(src);
		snprintf(source, slen, "%s", src);
		snprintf(fstype, flen, "%s", type);
	}
	fclose(fp);
	return best ? 0 : -ENOENT;
}

int file_dev_modelled(const char *source)
{
	return strncmp(source, "/dev/nullb", 10) == 0 &&
	       isdigit((unsigned char)source[10]);
}
