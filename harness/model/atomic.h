/*
 * Writing files atomically: a temporary name, fflush, fsync, rename, and
 * fsync of the directory, so a crash never leaves a half file that looks
 * whole; directories made, kept aside, or opened beneath a tree by
 * descriptor (no link followed).
 */
#ifndef LATLAB_ATOMIC_H
#define LATLAB_ATOMIC_H

#include <limits.h>
#include <stdio.h>

struct afile {
	char path[PATH_MAX];
	char tmp[PATH_MAX + 32];
	FILE *fp;
	int derived;	/* set after afile_open: rename without the fsyncs (see afile_write_derived) */
};

/* Open PATH.tmp.PID for writing. 0 or -errno. */
int afile_open(struct afile *af, const char *path);

/*
 * Flush, fsync, close and rename over the final name. 0 or -errno (ENOSPC
 * shows here); on error the temporary file is removed and the old file,
 * if any, is untouched.
 */
int afile_commit(struct afile *af);

/* Give up: close and remove the temporary file. */
void afile_abort(struct afile *af);

/*
 * DIR/NAME written atomically by fill(fp, arg). 0 or -errno (-ENOSPC:
 * disk full); on error the old file, if any, is untouched.
 */
int afile_write(const char *dir, const char *name,
		void (*fill)(FILE *fp, void *arg), void *arg);

/*
 * The same for a file that can be made again from others (a report's
 * pages): still never half-written under its name, but not fsynced — a
 * thousand cell pages, two fsyncs each, cost seconds.
 */
int afile_write_derived(const char *dir, const char *name,
			void (*fill)(FILE *fp, void *arg), void *arg);

/* mkdir -p, mode 0755. 0 or -errno. */
int mkdir_p(const char *path);

/*
 * A cell's directory from an earlier, unfinished run (dir exists): renamed
 * to DIR.partial-N, the first N free, and said so. Results are never
 * overwritten.
 */
void dir_keep_partial(const char *dir);
/* The same for NAME in the directory dirfd (shown: its path, for the log). */
void dir_keep_partial_at(int dirfd, const char *name, const char *shown);

/*
 * TREE/NAMES[0]/.../NAMES[n-1] as an open directory, each component below
 * tree made when missing and opened with O_NOFOLLOW: a symbolic link
 * planted in the tree leads nowhere (-ENOTDIR). Each name must be a
 * single component (-EINVAL). A descriptor (close it), or -errno.
 */
int dir_open_beneath(const char *tree, const char *const *names, int n);

/*
 * NAME in dirfd removed: a file or a link itself (never its target), or a
 * directory with the files in it (one level; opened O_NOFOLLOW).
 */
void dir_remove_flat_at(int dirfd, const char *name);

#endif
