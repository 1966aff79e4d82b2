#include <errno.h>
#include <unistd.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpio.h"

#define PAD4(n) ((4 - ((n) & 3)) & 3)

void cpio_start(struct cpio *a, FILE *fp)
{
	memset(a, 0, sizeof(*a));
	a->fp = fp;
	a->ino = 1;
}

static int header(struct cpio *a, const char *name, mode_t mode,
		  unsigned nlink, size_t size)
{
	static const char zeros[4];
	size_t namesize = strlen(name) + 1;

	if (a->err)
		return a->err;
	if (size > 0xffffffffu)
		return a->err = -EFBIG;
	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	fprintf(a->fp, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		a->ino++, (unsigned)mode, 0u, 0u, nlink, 0u, size, 0u, 0u, 0u,
		0u, namesize, 0u);
	fwrite(name, 1, namesize, a->fp);
	fwrite(zeros, 1, PAD4(110 + namesize), a->fp);
	if (ferror(a->fp))
		a->err = errno ? -errno : -EIO;	/* ENOSPC is worth telling */
	return a->err;
}

static const char *strip(const char *name)
{
	while (*name == '/')
		name++;
	return name;
}

static int have(const struct cpio *a, const char *name)
{
	for (int i = 0; i < a->nnames; i++)
		if (strcmp(a->names[i], name) == 0)
			return 1;
	return 0;
}

/* Remember name; 0 or -ENOMEM. */
static int note(struct cpio *a, const char *name)
{
	char **names = realloc(a->names, (size_t)(a->nnames + 1) * sizeof(*names));

	if (!names)
		return a->err = -ENOMEM;
	a->names = names;
	if (!(names[a->nnames] = strdup(name)))
		return a->err = -ENOMEM;
	a->nnames++;
	return 0;
}

/* Every missing parent of name, top down. */
static int parents(struct cpio *a, const char *name)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s", name) >= (int)sizeof(path))
		return a->err = -ENAMETOOLONG;
	for (char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		int rc = cpio_dir(a, path);

		*p = '/';
		if (rc)
			return rc;
	}
	return 0;
}

int cpio_dir(struct cpio *a, const char *name)
{
	name = strip(name);
	if (a->err || !*name || have(a, name))
		return a->err;
	if (parents(a, name) || note(a, name))
		return a->err;
	return header(a, name, S_IFDIR | 0755, 2, 0);
}

int cpio_data(struct cpio *a, const char *name, mode_t mode, const void *data,
	      size_t len)
{
	static const char zeros[4];

	name = strip(name);
	if (a->err || have(a, name))
		return a->err;
	if (parents(a, name) || note(a, name) ||
	    header(a, name, S_IFREG | (mode & 07777), 1, len))
		return a->err;
	fwrite(data, 1, len, a->fp);
	fwrite(zeros, 1, PAD4(len), a->fp);
	if (ferror(a->fp))
		a->err = errno ? -errno : -EIO;	/* ENOSPC is worth telling */
	return a->err;
}

int cpio_file_checked(struct cpio *a, const char *name, const char *src, int nofollow,
		      size_t max)
{
	struct stat st;
	char *data;
	FILE *in;
	int rc, fd;

	if (a->err)
		return a->err;
	/* O_NONBLOCK: a FIFO in its place is refused below, never waited on */
	fd = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return errno == ELOOP && nofollow ? -ELOOP : -errno;	/* the caller names it */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	in = fdopen(fd, "rb");
	if (!in) {
		close(fd);
		return -errno;
	}
	data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!data || fread(data, 1, (size_t)st.st_size, in) != (size_t)st.st_size) {
		free(data);
		fclose(in);
		return data ? -EIO : -ENOMEM;
	}
	fclose(in);
	rc = cpio_data(a, name, st.st_mode, data, (size_t)st.st_size);
	free(data);
	return rc;
}

int cpio_file(struct cpio *a, const char *name, const char *src)
{
	return cpio_file_checked(a, name, src, 0, CPIO_FILE_MAX);
}

int cpio_finish(struct cpio *a)
{
	header(a, "TRAILER!!!", 0, 1, 0);
	for (int i = 0; i < a->nnames; i++)
		free(a->names[i]);
	free(a->names);
	a->names = NULL;
	a->nnames = 0;
	if (!a->err && fflush(a->fp) != 0)
		a->err = -errno;
	return a->err;
}
