/*
 * A qemu guest's disk ([kernel.NAME] disk = on): the modules its kernel
 * needs for it, found by the release its image says, and the file that
 * backs it, made and formatted on the host for each boot; a modelled disk
 * (disk = modelled): its filesystem made on the host and packed for the
 * guest to write onto null_blk (docs/campaigns.md, "The guest's disk").
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "log.h"
#include "units.h"
#include "vm.h"

const char *const vm_disk_caches[] = { "writeback", "none", "writethrough", "directsync",
				       "unsafe", NULL };

int vm_device_modules(const struct kernel_def *k, const char *list, char *dir, size_t len,
		      char *why, size_t whylen)
{
	char image[PATH_MAX], rel[128], path[PATH_MAX + 16];
	int rc;

	snprintf(image, sizeof(image), "%s", k->image);
	if (access(k->image, R_OK) != 0)
		return fail_with(why, whylen, -errno, "image = %s: %s", k->image, strerror(errno));
	rc = vm_image_release(k->image, rel, sizeof(rel));
	if (rc)
		return fail_with(why, whylen, -ENOENT,
				 "image = %s says no release (%s), so its modules cannot be found",
				 k->image, rc == -ENOENT ? "no version string in it" : strerror(-rc));
	snprintf(dir, len, "%s/modules/%s", dirname(image), rel);
	snprintf(path, sizeof(path), "%s/%s", dir, list);
	if (access(path, R_OK) != 0)
		return fail_with(why, whylen, -ENOENT,
				 "no %s: the modules of %s that its %s (%s; make kernels fetches them beside Debian's images)",
				 path, rel,
				 strcmp(list, "net.list") == 0	? "network cards need" :
				 strcmp(list, "veth.list") == 0 ? "veth pair needs" :
								  "disk needs",
				 strcmp(list, "net.list") == 0	 ? "virtio_net" :
				 strcmp(list, "veth.list") == 0	 ? "veth" :
				 strcmp(list, "nullb.list") == 0 ? "null_blk, ext4" :
								   "virtio_blk, ext4");
	return 0;
}

const char *vm_disk_modules(const struct kernel_def *k)
{
	return k->disk == DISK_MODELLED ? "nullb.list" : "disk.list";
}

/* argv, its output to err's tail: 0, or -EIO with the last line said. */
static int run_quiet(char *const argv[], char *err, size_t errlen)
{
	char out[] = "/tmp/latlab-mkfs.XXXXXX", last[256] = "";
	posix_spawn_file_actions_t fa;
	char found[PATH_MAX];
	int fd, st = 0, rc;
	pid_t pid;

	/*
	 * looked up first: where the spawn is emulated (qemu-user's) a
	 * program not found is a child that exits 127, not ENOENT
	 */
	if (path_lookup(argv[0], found, sizeof(found)) != 0)
		return fail_with(err, errlen, -ENOENT, "%s: %s (install e2fsprogs: make deps)",
				 argv[0], strerror(ENOENT));
	fd = mkostemp(out, O_CLOEXEC);
	if (fd < 0)
		return fail_with(err, errlen, -errno, "%s: %s", out, strerror(errno));
	unlink(out);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, NULL);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		close(fd);
		return fail_with(err, errlen, -rc, "%s: %s%s", argv[0], strerror(rc),
				 rc == ENOENT ? " (install e2fsprogs: make deps)" : "");
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	FILE *fp = fdopen(fd, "r");
	char line[256];

	if (fp) {
		rewind(fp);
		while (fgets(line, sizeof(line), fp))
			if (line[strspn(line, " \t\n")])
				snprintf(last, sizeof(last), "%.*s", (int)strcspn(line, "\n"), line);
		fclose(fp);
	} else {
		close(fd);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return fail_with(err, errlen, -EIO, "%s failed (%s %d)%s%s", argv[0],
			 WIFEXITED(st) ? "exit" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), last[0] ? ": " : "", last);
}

/*
 * ext4 as Debian's mkfs makes it at path, every inode table and the
 * journal written now: left lazy, the guest kernel's ext4lazyinit thread
 * would write them during the measurement. A disk's own features, not
 * those of mke2fs.conf's "small" type for a filesystem under 512 MiB.
 */
static int disk_mkfs(const char *path, char *err, size_t errlen)
{
	char *const argv[] = { "mkfs.ext4", "-q", "-F", "-L", "latlab", "-T", "default",
			       "-b", "4096", "-E", "lazy_itable_init=0,lazy_journal_init=0,nodiscard",
			       (char *)path, NULL };

	return run_quiet(argv, err, errlen);
}

int vm_disk_make(const char *path, int64_t size, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (ftruncate(fd, (off_t)size) != 0)
		rc = fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	/*
	 * Its blocks reserved now (unwritten extents: no data written): a
	 * sparse file took blocks as the guest wrote, and when the host's
	 * filesystem filled, qemu paused the guest (werror=enospc) and the
	 * cell was called hung — the host's disk a verdict on the kernel. A
	 * filesystem that cannot reserve stays sparse, watched (vm_boot).
	 */
	if (rc == 0 && fallocate(fd, 0, 0, (off_t)size) != 0 && errno != EOPNOTSUPP) {
		char want[32];

		units_format_size(size, want, sizeof(want));
		rc = fail_with(err, errlen, -errno,
			       "cannot reserve %s for the guest's disk (disk_size) at %s: %s", want, path,
			       strerror(errno));
	}
	close(fd);
	if (rc == 0)
		rc = disk_mkfs(path, err, errlen);
	if (rc)
		unlink(path);
	return rc;
}

/* One 4 KiB block of the image holds nothing but zeros. */
static int block_zero(const unsigned char *b)
{
	for (size_t i = 0; i < VM_DISK_BLOCK; i++)
		if (b[i])
			return 0;
	return 1;
}

int vm_disk_pack(const char *path, int64_t size, struct vm_disk_pack *p, char *err,
		 size_t errlen)
{
	FILE *data = NULL, *map = NULL;
	unsigned char *b = malloc(VM_DISK_BLOCK);
	int64_t run = -1, nrun = 0, blocks = size / VM_DISK_BLOCK;
	int fd = -1, rc = 0;

	memset(p, 0, sizeof(*p));
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !b) {
		rc = fail_with(err, errlen, b ? -errno : -ENOMEM, "%s: %s", path,
			       strerror(b ? errno : ENOMEM));
		free(b);
		return rc;
	}
	/* sparse: the image is read once and its zeros never leave the host */
	if (ftruncate(fd, (off_t)size) != 0)
		rc = fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (rc == 0)
		rc = disk_mkfs(path, err, errlen);
	data = rc ? NULL : open_memstream(&p->data, &p->datalen);
	map = rc ? NULL : open_memstream(&p->map, &p->maplen);
	if (rc == 0 && (!data || !map))
		rc = fail_with(err, errlen, -ENOMEM, "out of memory");
	for (int64_t i = 0; rc == 0 && i <= blocks; i++) {
		ssize_t got = i < blocks ? pread(fd, b, VM_DISK_BLOCK, (off_t)(i * VM_DISK_BLOCK)) : 0;

		if (got < 0 || (i < blocks && got != VM_DISK_BLOCK)) {
			rc = fail_with(err, errlen, got < 0 ? -errno : -EIO, "reading %s: %s", path,
				       got < 0 ? strerror(errno) : "short read");
			break;
		}
		if (i < blocks && !block_zero(b)) {
			if (run < 0)
				run = i, nrun = 0;
			nrun++;
			fwrite(b, 1, VM_DISK_BLOCK, data);
			continue;
		}
		if (run >= 0)
			fprintf(map, "%lld %lld\n", (long long)run, (long long)nrun);
		run = -1;
	}
	free(b);
	close(fd);
	unlink(path);
	if (data && fclose(data) != 0 && rc == 0)
		rc = fail_with(err, errlen, -ENOMEM, "out of memory");
	if (map && fclose(map) != 0 && rc == 0)
		rc = fail_with(err, errlen, -ENOMEM, "out of memory");
	if (rc)
		vm_disk_pack_free(p);
	return rc;
}

void vm_disk_pack_free(struct vm_disk_pack *p)
{
	free(p->data);
	free(p->map);
	memset(p, 0, sizeof(*p));
}

int vm_disk_may_pause(const char *path)
{
	struct statvfs vfs;
	struct stat st;

	if (stat(path, &st) != 0 || statvfs(path, &vfs) != 0)
		return 0;
	return (double)st.st_blocks * 512.0 < (double)st.st_size &&
	       (double)vfs.f_bfree * (double)vfs.f_frsize < 1048576.0;
}
