#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "files.h"
#include "log.h"

int afile_open(struct afile *af, const char *path)
{
	int fd;

	if (strlen(path) >= sizeof(af->path))
		return -ENAMETOOLONG;
	snprintf(af->path, sizeof(af->path), "%s", path);
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%d", path, (int)getpid());
	af->derived = 0;
	/* O_NOFOLLOW: never write through a planted symlink */
	fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		  O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int rc = -errno;

		close(fd);
		unlink(af->tmp);
		return rc;
	}
	return 0;
}

static int fsync_dir(const char *path)
{
	char copy[PATH_MAX];
	int fd, rc = 0;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0 && errno != EINVAL)
		rc = -errno;
	close(fd);
	return rc;
}

int afile_commit(struct afile *af)
{
	int rc = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		rc = -(errno ? errno : EIO);
	if (rc == 0 && !af->derived && fsync(fileno(af->fp)) != 0)
		rc = -errno;
	if (fclose(af->fp) != 0 && rc == 0)
		rc = -errno;
	af->fp = NULL;
	if (rc == 0 && rename(af->tmp, af->path) != 0)
		rc = -errno;
	if (rc != 0) {
		unlink(af->tmp);
		return rc;
	}
	return af->derived ? 0 : fsync_dir(af->path);
}

void afile_abort(struct afile *af)
{
	if (af->fp)
		fclose(af->fp);
	af->fp = NULL;
	unlink(af->tmp);
}

static int write_file(const char *dir, const char *name,
		      void (*fill)(FILE *fp, void *arg), void *arg, int derived)
{
	char path[PATH_MAX];
	struct afile af;
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	rc = afile_open(&af, path);
	if (rc)
		return rc;
	af.derived = derived;
	fill(af.fp, arg);
	return afile_commit(&af);
}

int afile_write(const char *dir, const char *name,
		void (*fill)(FILE *fp, void *arg), void *arg)
{
	return write_file(dir, name, fill, arg, 0);
}

int afile_write_derived(const char *dir, const char *name,
			void (*fill)(FILE *fp, void *arg), void *arg)
{
	return write_file(dir, name, fill, arg, 1);
}

int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int dir_open_beneath(const char *tree, const char *const *names, int n)
{
	int fd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		int next;

		if (!names[i][0] || strchr(names[i], '/') || strcmp(names[i], ".") == 0 ||
		    strcmp(names[i], "..") == 0) {
			close(fd);
			return -EINVAL;
		}
		if (mkdirat(fd, names[i], 0755) != 0 && errno != EEXIST) {
			int rc = -errno;

			close(fd);
			return rc;
		}
		next = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0)
			return errno == ELOOP ? -ENOTDIR : -errno;
		fd = next;
	}
	return fd;
}

void dir_remove_flat_at(int dirfd, const char *name)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlinkat(dirfd, name, 0);	/* a link: itself, never its target */
		return;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* A cell's directory from an earlier, unfinished run: kept beside, as .partial-N. */
void dir_keep_partial(const char *dir)
{
	dir_keep_partial_at(AT_FDCWD, dir, dir);
}

void dir_keep_partial_at(int dirfd, const char *name, const char *shown)
{
	char to[PATH_MAX + 32];
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	for (int n = 1; n < 1000; n++) {
		snprintf(to, sizeof(to), "%s.partial-%d", name, n);
		if (fstatat(dirfd, to, &st, AT_SYMLINK_NOFOLLOW) == 0)
			continue;
		/* renameat moves a link itself, never what it points to */
		if (renameat(dirfd, name, dirfd, to) == 0)
			log_info("kept the earlier, unfinished data of this cell as %s.partial-%d",
				 shown, n);
		return;
	}
}
