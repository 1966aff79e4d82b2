/*
 * A cpio archive in the "newc" format the kernel unpacks as an initramfs
 * (Documentation/driver-api/early-userspace/buffer-format.rst). Parent
 * directories are added on the way; every entry is owned by root; a name
 * already in the archive is not added again (two programs' libc).
 */
#ifndef LATLAB_CPIO_H
#define LATLAB_CPIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct cpio {
	FILE *fp;
	unsigned ino;
	int err;		/* first error (-errno); later calls do nothing */
	char **names;		/* every name already in the archive */
	int nnames;
};

void cpio_start(struct cpio *a, FILE *fp);
/* name is the path inside the archive ("bin/latlab"; a leading / is dropped) */
int cpio_dir(struct cpio *a, const char *name);
int cpio_data(struct cpio *a, const char *name, mode_t mode, const void *data,
	      size_t len);
/* The most cpio_file takes of a file (a program, a library) */
#define CPIO_FILE_MAX (1ULL << 30)

/*
 * The content of src (symlinks followed), with src's permission bits: a
 * regular file of CPIO_FILE_MAX at most (a FIFO is refused, never waited
 * on): 0, or -errno (-EINVAL: not a regular file, -EFBIG: too big; a
 * source's error leaves the archive going on).
 */
int cpio_file(struct cpio *a, const char *name, const char *src);

/*
 * The same, of max bytes at most, and with nofollow a symbolic link at
 * src refused (-ELOOP): for files from a folder others may write (a
 * kernel's modules), which must not name a file of root's elsewhere.
 */
int cpio_file_checked(struct cpio *a, const char *name, const char *src, int nofollow,
		      size_t max);
/* The trailer; returns the first error of the whole archive, or 0. */
int cpio_finish(struct cpio *a);

#endif
