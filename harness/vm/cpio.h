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
/* The content of src (symlinks followed), with src's permission bits. */
int cpio_file(struct cpio *a, const char *name, const char *src);
/* The trailer; returns the first error of the whole archive, or 0. */
int cpio_finish(struct cpio *a);

#endif
