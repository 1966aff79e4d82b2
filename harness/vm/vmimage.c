/*
 * What qemu loads for a kernel variant. An x86 bzImage starts in
 * firmware and real mode and decompresses its kernel before anything
 * else, all of it emulated under TCG; the ELF kernel inside it, entered
 * at its PVH entry, is loaded by qemu itself in 32-bit protected mode
 * with nothing to decompress (docs/campaigns.md). So a bzImage's payload
 * is unpacked once, with the compressor's own tool, into a cache named
 * by the image's content, and the ELF is what boots. Anything else, or a
 * bzImage whose kernel cannot be had or has no PVH entry, boots as it is,
 * and the caller says which.
 */
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "files.h"
#include "hash.h"
#include "log.h"
#include "units.h"
#include "vm.h"

extern char **environ;

/* the cache keeps this many kernels; the least recently booted go first */
#define CACHE_KEEP 16
#define CACHE_GRACE_S (24 * 3600)	/* booted within: never trimmed */

/* the boot protocol's fields (Documentation/arch/x86/boot.rst) */
#define BZ_SETUP_SECTS 0x1f1
#define BZ_MAGIC 0x202		/* "HdrS" */
#define BZ_VERSION 0x206
#define BZ_PAYLOAD 0x248	/* payload_offset, payload_length: 2.08 on */
#define BZ_MIN_SIZE 0x250

/* Xen's note type for the 32-bit PVH entry point (xen/elfnote.h) */
#define PVH_NOTE 18

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The most an initrd's compressed archive may unpack to, looked through for a program */
#define INITRD_UNPACKED_MAX (1ULL << 30)

/* How a payload is compressed: its magic, its name, the tool that unpacks it. */
static const struct packer {
	const char *name;
	unsigned char magic[6];
	size_t nmagic;
	const char *const argv[5];
} packers[] = {
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, { "xz", "-dc", "--single-stream", NULL } },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, { "zstd", "-dcq", NULL } },
	{ "gzip", { 0x1f, 0x8b }, 2, { "gzip", "-dc", NULL } },
	{ "bzip2", { 'B', 'Z', 'h' }, 3, { "bzip2", "-dc", NULL } },
	{ "lzma", { 0x5d, 0, 0 }, 3, { "xz", "-dc", "--format=lzma", NULL } },
	{ "lz4", { 0x02, 0x21, 0x4c, 0x18 }, 4, { "lz4", "-dcq", NULL } },
};

int vm_bzimage_payload(const unsigned char *img, size_t size, size_t *off,
		       size_t *len, const char **packer)
{
	if (size < BZ_MIN_SIZE || memcmp(img + BZ_MAGIC, "HdrS", 4) != 0)
		return -ENOEXEC;
	if ((img[BZ_VERSION] | img[BZ_VERSION + 1] << 8) < 0x208)
		return -ENOTSUP;	/* no payload fields before protocol 2.08 */
	size_t sects = img[BZ_SETUP_SECTS] ? img[BZ_SETUP_SECTS] : 4;
	uint64_t start = (sects + 1) * 512 + (uint64_t)le32(img + BZ_PAYLOAD);
	uint64_t n = le32(img + BZ_PAYLOAD + 4);

	/* the payload ends in the 4-byte size the decompressor checks */
	if (n < 16 || start + n > size)
		return -EBADMSG;
	*off = (size_t)start;
	*len = (size_t)n;
	*packer = NULL;
	for (size_t i = 0; i < sizeof(packers) / sizeof(packers[0]); i++)
		if (memcmp(img + start, packers[i].magic, packers[i].nmagic) == 0)
			*packer = packers[i].name;
	return *packer ? 0 : -EPROTONOSUPPORT;
}

/*
 * The headers are copied out, never read in place: a file's e_phoff or a
 * note may sit at any offset, and a misaligned Elf64_Phdr read is
 * undefined (UBSan stopped latlab on a crafted image).
 */
int vm_elf_pvh(const unsigned char *elf, size_t size)
{
	Elf64_Ehdr eh;

	if (size < sizeof(eh) || memcmp(elf, ELFMAG, SELFMAG) != 0 ||
	    elf[EI_CLASS] != ELFCLASS64 || elf[EI_DATA] != ELFDATA2LSB)
		return -ENOEXEC;
	memcpy(&eh, elf, sizeof(eh));
	if (eh.e_machine != EM_X86_64)
		return -ENOEXEC;
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > size - eh.e_phoff)
		return -EBADMSG;
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, elf + eh.e_phoff + (size_t)i * sizeof(Elf64_Phdr), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			continue;
		/* the notes: namesz, descsz, type, then name and desc padded to 4 */
		for (uint64_t at = ph.p_offset, end = ph.p_offset + ph.p_filesz; at + 12 <= end;) {
			Elf64_Nhdr nh;

			memcpy(&nh, elf + at, sizeof(nh));
			uint64_t name = (nh.n_namesz + 3ULL) & ~3ULL, desc = (nh.n_descsz + 3ULL) & ~3ULL;

			if (nh.n_type == PVH_NOTE && nh.n_namesz == 4 && at + 12 + 4 <= end &&
			    memcmp(elf + at + 12, "Xen", 4) == 0)
				return 0;
			at += 12 + name + desc;
		}
	}
	return -ENOENT;
}

uint64_t vm_image_key(const unsigned char *data, size_t size)
{
	return hash_fnv1a64(HASH_FNV1A64_BASIS, data, size) ^ size;
}

int vm_cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/latlab", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/latlab", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The whole file, mapped: 0 or -errno. */
static int map_file(const char *path, unsigned char **data, size_t *size)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO is refused below, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size == 0)
		rc = -EINVAL;
	else if ((uint64_t)st.st_size > (1ULL << 31))
		rc = -EFBIG;
	*data = NULL;
	if (rc == 0) {
		*size = (size_t)st.st_size;
		*data = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (*data == MAP_FAILED) {
			rc = -errno;
			*data = NULL;
		}
	}
	close(fd);
	return rc;
}

/*
 * The packer's tool unpacks in[0..len) into the file out_fd: 0, or
 * -errno (-ENOENT: the tool is missing; -EBADMSG: it failed). The bytes
 * go through a socket, which a tool that dies refuses without SIGPIPE.
 */
static int unpack(const struct packer *p, const unsigned char *in, size_t len, int out_fd,
		  uint64_t limit)
{
	int sv[2], rc = 0, st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		/* the file it writes is bounded: past limit, SIGXFSZ ends it (a
		 * payload that unpacks to 20 GB wrote 20 GB) */
		struct rlimit fsize = { limit, limit };
		int null = open("/dev/null", O_WRONLY);

		signal(SIGPIPE, SIG_DFL);
		if (dup2(sv[1], 0) < 0 || dup2(out_fd, 1) < 0 || null < 0 || dup2(null, 2) < 0 ||
		    setrlimit(RLIMIT_FSIZE, &fsize) != 0)
			_exit(126);
		execvp(p->argv[0], (char *const *)p->argv);
		_exit(127);
	}
	rc = pid < 0 ? -errno : 0;
	close(sv[1]);
	for (size_t done = 0; rc == 0 && done < len;) {
		ssize_t w = send(sv[0], in + done, len - done, MSG_NOSIGNAL);

		if (w < 0 && errno != EINTR)
			break;		/* the tool stopped reading: its status says */
		done += w > 0 ? (size_t)w : 0;
	}
	close(sv[0]);
	if (rc != 0)
		return rc;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -ENOENT;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXFSZ)
		return -EFBIG;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EBADMSG;
}

/*
 * The cache holds at most CACHE_KEEP kernels: the least recently booted
 * go first — never one of keep (what this run boots), nor one booted in
 * the last day (what another campaign sharing the cache may be about to
 * boot). Each entry's digest file goes with it.
 */
void vm_cache_trim(const char *const *keep, int nkeep)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], oldest[PATH_MAX + 64];
	struct timespec now;

	if (vm_cache_dir(dir, sizeof(dir)) != 0)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	for (;;) {
		struct timespec when = { 0, 0 };
		int n = 0;
		DIR *d = opendir(dir);
		struct dirent *e;

		if (!d)
			return;
		oldest[0] = '\0';
		while ((e = readdir(d)) != NULL) {
			struct stat st;
			size_t l = strlen(e->d_name);
			int kept = 0;

			if (l < 9 || strcmp(e->d_name + l - 8, ".vmlinux") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (lstat(path, &st) != 0)
				continue;
			n++;
			for (int i = 0; i < nkeep; i++)
				kept |= keep[i] && strcmp(keep[i], path) == 0;
			if (kept || now.tv_sec - st.st_mtim.tv_sec < CACHE_GRACE_S)
				continue;
			if (!oldest[0] || st.st_mtim.tv_sec < when.tv_sec ||
			    (st.st_mtim.tv_sec == when.tv_sec && st.st_mtim.tv_nsec < when.tv_nsec)) {
				when = st.st_mtim;
				snprintf(oldest, sizeof(oldest), "%s", path);
			}
		}
		closedir(d);
		if (n <= CACHE_KEEP || !oldest[0] || unlink(oldest) != 0)
			return;
		snprintf(path, sizeof(path), "%s.digest", oldest);
		unlink(path);
	}
}

/* A file's digest as the cache keeps it beside an entry: its key, hex. */
static void digest_text(const unsigned char *data, size_t size, char *out, size_t len)
{
	snprintf(out, len, "%016llx %zu\n", (unsigned long long)vm_image_key(data, size), size);
}

/*
 * A cached entry is what it stands for: the size the image's trailer
 * says, the digest recorded when it was unpacked, a PVH ELF. 0 or -EBADMSG.
 */
static int cache_entry_good(const char *path, uint32_t want)
{
	char dpath[PATH_MAX + 80], text[64], have[64], err[PATH_MAX + 64];
	unsigned char *elf;
	size_t elf_size;
	int rc, fd;
	ssize_t n;

	if (map_file(path, &elf, &elf_size) != 0)
		return -EBADMSG;
	rc = elf_size == want ? vm_elf_pvh(elf, elf_size) : -EBADMSG;
	if (rc == 0)
		digest_text(elf, elf_size, have, sizeof(have));
	munmap(elf, elf_size);
	if (rc)
		return -EBADMSG;
	snprintf(dpath, sizeof(dpath), "%s.digest", path);
	fd = file_open_regular(dpath, 128, err, sizeof(err));
	if (fd < 0)
		return -EBADMSG;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -EBADMSG;
	text[n] = '\0';
	return strcmp(text, have) == 0 ? 0 : -EBADMSG;
}

/*
 * The ELF kernel inside the bzImage at img, in the cache as path: from
 * an earlier extraction, or unpacked now. 0, or -errno with why.
 */
static int extract(const unsigned char *img, size_t size, const char *path,
		   struct vm_image *im)
{
	const struct packer *p = NULL;
	size_t off, len;
	const char *name;
	unsigned char *elf;
	size_t elf_size;
	int rc = vm_bzimage_payload(img, size, &off, &len, &name);

	if (rc == -ENOEXEC)
		return fail_with(im->why, sizeof(im->why), rc, "not a bzImage");
	if (rc == -ENOTSUP)
		return fail_with(im->why, sizeof(im->why), rc,
				 "a bzImage of a boot protocol before 2.08 (no payload fields)");
	if (rc == -EBADMSG)
		return fail_with(im->why, sizeof(im->why), rc,
				 "its setup header's payload lies outside the file");
	if (rc)
		return fail_with(im->why, sizeof(im->why), rc,
				 "its payload is compressed in a way latlab does not know");
	for (size_t i = 0; i < sizeof(packers) / sizeof(packers[0]); i++)
		if (strcmp(packers[i].name, name) == 0)
			p = &packers[i];
	snprintf(im->packer, sizeof(im->packer), "%s", name);
	uint32_t want = le32(img + off + len - 4);
	struct stat cst;

	/* nothing in the cache is trusted that was not just checked */
	if (lstat(path, &cst) == 0) {
		if (cache_entry_good(path, want) == 0) {
			im->cached = 1;
			im->size = want;
			utimensat(AT_FDCWD, path, NULL, 0);	/* recently booted */
			return 0;
		}
		unlink(path);	/* not what it stands for: made again, and said */
		im->remade = 1;
	}
	char tmp[PATH_MAX + 96];
	int64_t t0 = units_now_ns();

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	/*
	 * A new file of ours, never one a name already leads to: a link
	 * planted at it (the cache may be a folder others write) would make
	 * root overwrite what it names. What is there (a killed run's, or a
	 * link) is removed first: unlink takes a link, not what it names.
	 */
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail_with(im->why, sizeof(im->why), -errno, "%s: %s", tmp, strerror(errno));
	/* the last 4 bytes are the kernel's size, which the tools would take
	 * for a stream of their own */
	/* one byte past the trailer's size tells a payload that says less than it is */
	rc = unpack(p, img + off, len - 4, fd, (uint64_t)want + 1);
	if (rc == 0 && fsync(fd) != 0)
		rc = -errno;
	close(fd);
	if (rc == -ENOENT)
		fail_with(im->why, sizeof(im->why), rc, "its payload is %s and %s is not installed",
			  name, p->argv[0]);
	else if (rc == -EFBIG)
		fail_with(im->why, sizeof(im->why), -EBADMSG,
			  "its payload unpacks to more than the %u bytes its trailer says (stopped there)",
			  want);
	else if (rc)
		fail_with(im->why, sizeof(im->why), rc, "%s could not unpack its payload", p->argv[0]);
	char digest[64] = "";

	elf_size = 0;
	if (rc == 0 && (rc = map_file(tmp, &elf, &elf_size)) == 0) {
		rc = vm_elf_pvh(elf, elf_size);
		digest_text(elf, elf_size, digest, sizeof(digest));
		munmap(elf, elf_size);
		if (elf_size != want)
			rc = fail_with(im->why, sizeof(im->why), -EBADMSG,
				       "its payload unpacked to %zu bytes, not the %u its trailer says",
				       elf_size, want);
		else if (rc == -ENOENT)
			fail_with(im->why, sizeof(im->why), rc,
				  "its kernel has no PVH entry note (CONFIG_PVH), which qemu needs to boot an ELF");
		else if (rc)
			fail_with(im->why, sizeof(im->why), rc, "its payload is not an x86-64 ELF kernel");
	}
	/* the digest first: an entry without one is never taken */
	if (rc == 0) {
		char dpath[PATH_MAX + 80];

		struct afile af;

		snprintf(dpath, sizeof(dpath), "%s.digest", path);
		rc = afile_open(&af, dpath);
		if (rc == 0) {
			fputs(digest, af.fp);
			rc = afile_commit(&af);
		}
		if (rc)
			fail_with(im->why, sizeof(im->why), rc, "%s: %s", dpath, strerror(-rc));
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = fail_with(im->why, sizeof(im->why), -errno, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	im->unpack_ns = units_now_ns() - t0;
	im->size = elf_size;
	return rc;
}

#define BZ_KERNEL_VERSION 0x20e	/* the version string's offset, less 0x200 */

/* A release's characters: what uname -r may hold (and a path component may). */
static size_t release_len(const unsigned char *p, size_t max)
{
	size_t n = 0;

	while (n < max && (isalnum(p[n]) || strchr("._+-~", p[n])) && p[n])
		n++;
	return n;
}

int vm_image_release_of(const unsigned char *img, size_t size, char *rel, size_t len)
{
	static const char mark[] = "Linux version ";
	const unsigned char *at = NULL;
	size_t n;

	if (size >= BZ_MIN_SIZE && memcmp(img + BZ_MAGIC, "HdrS", 4) == 0) {
		size_t off = (size_t)(img[BZ_KERNEL_VERSION] | img[BZ_KERNEL_VERSION + 1] << 8) + 0x200;

		if (off > 0x200 && off < size)
			at = img + off;
	} else {
		at = memmem(img, size, mark, sizeof(mark) - 1);
		if (at)
			at += sizeof(mark) - 1;
	}
	if (!at)
		return -ENOENT;
	n = release_len(at, (size_t)(img + size - at));
	if (n == 0 || n >= len || at[0] == '.' || at[0] == '-')
		return -EBADMSG;
	memcpy(rel, at, n);
	rel[n] = '\0';
	return 0;
}

int vm_image_release(const char *path, char *rel, size_t len)
{
	unsigned char *data;
	size_t size;
	int rc = map_file(path, &data, &size);

	if (rc)
		return rc;
	rc = vm_image_release_of(data, size, rel, len);
	munmap(data, size);
	return rc;
}

uint64_t vm_file_key(const char *path)
{
	unsigned char *data;
	size_t size;
	uint64_t key;

	if (map_file(path, &data, &size) != 0)
		return 0;
	key = vm_image_key(data, size);
	munmap(data, size);
	return key;
}

int vm_image(const struct kernel_def *k, struct vm_image *im)
{
	unsigned char *img;
	size_t size;
	char dir[PATH_MAX];
	int rc;

	memset(im, 0, sizeof(*im));
	snprintf(im->path, sizeof(im->path), "%s", k->image);
	rc = map_file(k->image, &img, &size);
	if (rc)
		return fail_with(im->why, sizeof(im->why), 0, "%s: %s", k->image, strerror(-rc));
	im->key = vm_image_key(img, size);
	if (vm_arch(k)->pci_serial) {
		/* arm64's Image.gz: qemu unpacks it on the host before the boot
		 * (hw/arm/boot.c, load_aarch64_image) */
		munmap(img, size);
		snprintf(im->why, sizeof(im->why), "qemu unpacks an arm64 image on the host itself");
		return 0;
	}
	if (vm_elf_pvh(img, size) == 0) {
		munmap(img, size);
		snprintf(im->why, sizeof(im->why), "an ELF kernel with a PVH entry already");
		return 0;
	}
	rc = vm_cache_dir(dir, sizeof(dir));
	if (rc == 0)
		rc = mkdir_p(dir);
	if (rc) {
		munmap(img, size);
		return fail_with(im->why, sizeof(im->why), 0,
				 "no cache directory for its ELF kernel (XDG_CACHE_HOME or HOME): %s",
				 strerror(-rc));
	}
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%016llx.vmlinux", dir, (unsigned long long)im->key);
	rc = extract(img, size, path, im);
	munmap(img, size);
	if (rc)
		return 0;	/* as it is, with why */
	snprintf(im->path, sizeof(im->path), "%s", path);
	im->elf = 1;
	return 1;
}

/* One newc archive's entries from at (its end past TRAILER!!! into *end): is a name there? */
static int newc_find(const unsigned char *a, size_t size, size_t at, const char *const *names,
		     int n, char *found, size_t len, size_t *end)
{
	while (at + 110 <= size) {
		char field[9] = "";
		unsigned long fsize, nsize;

		if (memcmp(a + at, "070701", 6) != 0 && memcmp(a + at, "070702", 6) != 0)
			return -EBADMSG;
		memcpy(field, a + at + 54, 8);
		fsize = strtoul(field, NULL, 16);
		memcpy(field, a + at + 94, 8);
		nsize = strtoul(field, NULL, 16);
		if (nsize == 0 || nsize > 4096 || at + 110 + nsize > size)
			return -EBADMSG;
		const char *name = (const char *)a + at + 110;

		if (name[nsize - 1] != '\0')
			return -EBADMSG;
		at = (at + 110 + nsize + 3) & ~(size_t)3;
		if (strcmp(name, "TRAILER!!!") == 0) {
			*end = at;
			return -ENOENT;
		}
		for (int i = 0; i < n; i++)
			if (strcmp(name, names[i]) == 0 ||
			    (name[0] == '.' && name[1] == '/' && strcmp(name + 2, names[i]) == 0)) {
				snprintf(found, len, "%s", names[i]);
				return 0;
			}
		if (fsize > size - at)
			return -EBADMSG;
		at = (at + fsize + 3) & ~(size_t)3;
	}
	return -EBADMSG;
}

/* The archives of a[0..size) in turn, a compressed one unpacked (depth: how many times already). */
static int initrd_walk(const unsigned char *a, size_t size, const char *const *names, int n,
		       char *found, size_t len, int depth)
{
	size_t at = 0;

	while (at < size) {
		while (at < size && a[at] == 0)
			at++;	/* padding between archives */
		if (at >= size)
			return -ENOENT;
		if (size - at >= 6 && (memcmp(a + at, "070701", 6) == 0 ||
				       memcmp(a + at, "070702", 6) == 0)) {
			size_t end = 0;
			int rc = newc_find(a, size, at, names, n, found, len, &end);

			if (rc != -ENOENT || end == 0)
				return rc;
			at = end;
			continue;
		}
		/* a compressed archive runs to the end of the file */
		const struct packer *p = NULL;

		for (size_t i = 0; i < sizeof(packers) / sizeof(packers[0]); i++)
			if (size - at >= packers[i].nmagic &&
			    memcmp(a + at, packers[i].magic, packers[i].nmagic) == 0)
				p = &packers[i];
		if (!p || depth > 0)
			return -EBADMSG;
		int fd = memfd_create("latlab-initrd", MFD_CLOEXEC), rc;
		struct stat st;
		unsigned char *plain;

		if (fd < 0)
			return -errno;
		rc = unpack(p, a + at, size - at, fd, INITRD_UNPACKED_MAX);
		if (rc == 0 && fstat(fd, &st) != 0)
			rc = -errno;
		if (rc == 0 && st.st_size > 0) {
			plain = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
			if (plain == MAP_FAILED)
				rc = -errno;
			else {
				rc = initrd_walk(plain, (size_t)st.st_size, names, n, found, len,
						 depth + 1);
				munmap(plain, (size_t)st.st_size);
			}
		} else if (rc == 0) {
			rc = -EBADMSG;
		}
		close(fd);
		return rc;
	}
	return -ENOENT;
}

int vm_initrd_find(const char *path, const char *const *names, int n, char *found, size_t len)
{
	unsigned char *a;
	size_t size;
	int rc = map_file(path, &a, &size);

	if (rc)
		return rc == -EINVAL ? -EBADMSG : rc;
	rc = initrd_walk(a, size, names, n, found, len, 0);
	munmap(a, size);
	return rc;
}
