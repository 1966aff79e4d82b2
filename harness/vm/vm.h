/*
 * Kernel variants in qemu: the initramfs latlab builds for a guest
 * (initramfs.c), one boot of it (vm.c), read over the guest channel
 * (channel.h; vm_read.c). The campaign decides what to boot and what
 * becomes of the cells.
 */
#ifndef LATLAB_VM_H
#define LATLAB_VM_H

/* Where a guest finds its copy of the config (the host maps its FILE:LINEs back) */
#define VM_CONFIG_PATH "/latlab/config.ini"


#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "matrix.h"

struct vm_guest {
	const struct config *cfg;
	int variant;			/* index into cfg->kernel */
	int accel;			/* ACCEL_KVM or ACCEL_TCG: decided */
	const char *config_text;	/* the resolved config (campaign.ini) */
	const char *cells_text;		/* the cell ids to run, one a line */
	const char *hostname;		/* the guest's */
	const char *device_modules;	/* the devices' modules' folder (vm_device_modules), or NULL */
	int disk;			/* a disk is attached: mount it at VM_DISK_MOUNT */
	const struct vm_disk_pack *pack;	/* disk = modelled: its filesystem (else NULL) */
	int net;			/* two network cards: a peer behind the second */
	int veth;			/* a veth pair: a peer behind its twin */
};

/*
 * The guest's word on a finished cell, handed to the campaign: what it
 * said (status, reason: control characters made '?'), and where its files
 * landed. The campaign builds the cell's cells.csv rows from those files.
 */
struct vm_cell {
	const char *id;
	int status;			/* enum cell_status */
	const char *reason;
	const char *dir;		/* TREE/HOST/RELEASE/CELL, or NULL: no files */
	const char *host, *release;	/* the guest's, from its hello */
	const char *brief;		/* "samples overruns errors min p50 ..." */
};

struct vm_hooks {
	void *arg;
	/*
	 * the guest started a cell: 0 takes it; < 0: not a cell this guest
	 * was given (nothing of it is written); > 0 stops
	 */
	int (*started)(void *arg, const char *id);
	/* a finished cell, its files already in place; nonzero stops */
	int (*finished)(void *arg, const struct vm_cell *cell);
	/* nonzero: stop the guest now (SIGINT/SIGTERM) */
	int (*stop)(void *arg);
	/*
	 * a line the guest's latlab logged ("latlab: " left out, cleaned):
	 * the hook says it; NULL: vm_read prints it on stderr
	 */
	void (*log)(void *arg, const char *text);
};

struct vm_outcome {
	int hello;			/* the guest's latlab came up */
	int done;			/* and said it finished */
	int64_t hello_at, done_at;	/* when it said so (units_now_ns), or 0 */
	int64_t up_ns;			/* qemu started to the guest's hello */
	int64_t down_ns;		/* its done to qemu's end (the power-off) */
	int64_t wall_ns;		/* qemu started to qemu's end */
	int interrupted;		/* stopped by hooks->stop */
	int host_errno;			/* the host could not write a file (why says) */
	int paused;			/* and so qemu paused the guest: its disk's (host_errno ENOSPC) */
	int finished;			/* cells handed to hooks->finished */
	char running[CELL_ID_MAX];	/* started, not finished, when it stopped */
	int64_t quiet_wall_ns, quiet_cpu_ns;	/* a hang: its quiet's length, and qemu's CPU time in it */
	char why[512];			/* why the guest stopped early */
	char host[128], release[128];	/* the guest's (from hello) */
	char hello_note[512];		/* what of its hello was not taken, and what stood in, or "" */
	char *sysinfo;			/* the guest's sysinfo.ini, or NULL */
};

/*
 * Write the initramfs for g to path: busybox, latlab, latload, the
 * libraries they load, the config, the cell list, the variant's modules,
 * an /init, then the variant's initrd appended. 0, or -errno with err.
 */
int vm_initramfs(const struct vm_guest *g, const char *path, char *err,
		 size_t errlen);

/* One boot of a kernel variant. */
struct vm_boot {
	const struct config *cfg;
	int variant;			/* index into cfg->kernel */
	int accel;			/* ACCEL_KVM or ACCEL_TCG: decided */
	const char *kernel;		/* what qemu loads: image =, or the ELF in it (vm_image) */
	const char *initramfs;
	const char *console_log;	/* the guest's console */
	const char *qemu_log;		/* qemu's own messages */
	const char *tree;		/* the cells' files to tree/HOST/RELEASE/CELL */
	const char *disk;		/* the disk's file (vm_disk_make), or NULL */
	int net;			/* two virtio-net cards on a hub of their own */
	int64_t boot_timeout;		/* to the guest latlab's hello */
	const char *hostname;		/* the name given the guest (vm_guest's): its cells' host */
	int64_t cell_bytes_max;		/* what a cell's files may come to (vm_read_opts) */
};

/*
 * What a hung guest of boot b had and said last, for its cell's reason
 * ("; its devices: ...; its console's last line: '...'"): its emulated
 * devices (those whose waits qemu's I/O thread paces) and its console's
 * last line — the guest's words, so at most 100 characters, each outside
 * printable ASCII (and a quote) made '?'.
 */
void vm_hung_context(const struct vm_boot *b, char *out, size_t len);

/*
 * In a forked child about to exec a guest's program (qemu, podman):
 * every signal unblocked, a process group of its own (the harness stops
 * it by it), SIGKILL when latlab dies, stdin /dev/null, stdout and
 * stderr to `log` (left as they are when log < 0).
 */
void vm_child_begin(int log);

/*
 * Boot b. Returns 0 when qemu could be started (what happened is in
 * *out), or -errno. Free out->sysinfo after.
 */
int vm_boot(const struct vm_boot *b, const struct vm_hooks *hooks,
	    struct vm_outcome *out);

/* How a read of the guest channel ended. */
enum vm_end {
	VM_END_DONE,		/* the guest said done */
	VM_END_EOF,		/* the stream ended: qemu is gone */
	VM_END_QUIET,		/* no word within its deadline */
	VM_END_STOPPED,		/* a hook said stop (out->interrupted) */
	VM_END_HOST,		/* the host could not write (out->host_errno) */
};

struct vm_read_opts {
	const char *tree;	/* a finished cell to tree/HOST/RELEASE/CELL */
	const char *variant;	/* the kernel variant, in the log lines */
	int64_t boot_ns;	/* to the guest's hello */
	int64_t cell_ns;	/* a cell's duration + timeout, from its start */
	int64_t quiet_ns;	/* between other messages (timeout) */
	/*
	 * qemu's process: past a deadline the guest is waited on while qemu
	 * had under half of it on a CPU (a busy host), up to 10 times it;
	 * 0: none (a recorded stream)
	 */
	pid_t qemu;
	const char *host;	/* the host name the guest was given: its hello's must be it; NULL any of a release's characters */
	int icount;		/* the guest's clock counts instructions: its deadlines are its own time's */
	int64_t cell_bytes_max;	/* what a cell's files may come to in all; 0: no sum, each file its verb's max */
	int64_t slack_ns;	/* the quiet a deadline allows past its bound; 0: 10 s (a unit test's shorter) */
};

/* The file messages a cell may send (its files, each rewrite counted). */
#define VM_CELL_FILES_MAX 1024

/*
 * Past a deadline, is a quiet guest owed more time (vm_read's patience)?
 * wall: how long it has been quiet; window: the deadline's length; cpu:
 * qemu's CPU time over the quiet; delay: its threads' wait to run on a
 * run queue over it (all ns). Owed where qemu wanted to run (running or
 * waiting, a tenth of the quiet at least: not a guest that sits idle) but
 * ran under half the window (on the instruction clock, icount, 8 times
 * that: a guest second costs qemu up to 8 s of a CPU), up to 10 windows.
 */
int vm_owed(int64_t wall, int64_t window, int64_t cpu, int64_t delay, int icount);

/*
 * Read the guest channel (channel.h) from fd until the guest is done, the
 * stream ends, a deadline passes (each plus 10 s), a hook stops it, or a
 * file cannot be written. A cell's files land in CELL.incoming and move
 * to CELL when the guest says the cell is done; a cell that did not
 * finish leaves nothing. Names the guest gives are used only as single
 * path components, and a cell only when hooks->started takes it. Fills
 * *out (free out->sysinfo after); out->why is vm_boot's to write.
 */
enum vm_end vm_read(int fd, const struct vm_read_opts *o,
		    const struct vm_hooks *h, struct vm_outcome *out);

/* What qemu loads for a kernel variant (vmimage.c). */
struct vm_image {
	char path[PATH_MAX + 64];	/* image =, or the ELF kernel inside it */
	int elf;			/* path is the ELF inside image =, in the cache */
	int cached;			/* extracted by an earlier run, checked now */
	int remade;			/* a cached copy did not match its image: made again */
	char packer[8];			/* how its payload was compressed */
	uint64_t key;			/* image ='s content (vm_image_key) */
	size_t size;			/* the ELF's bytes */
	int64_t unpack_ns;		/* what unpacking it took, when it was */
	char why[PATH_MAX + 200];	/* why image = boots as it is */
};

/*
 * What variant k boots: an x86 bzImage's ELF kernel (its PVH entry: no
 * firmware, real mode or decompression under emulation), unpacked once
 * into the cache (vm_cache_dir) under the image's content key and found
 * there after; anything else, or a bzImage whose kernel cannot be had,
 * as it is, with why. 1: the ELF; 0: image = as it is.
 */
int vm_image(const struct kernel_def *k, struct vm_image *im);

/*
 * The cache kept to its size: the least recently booted entries go, but
 * never one of keep (the paths this run boots) nor one booted within a
 * day (another campaign's). Called once a run knows what it boots.
 */
void vm_cache_trim(const char *const *keep, int nkeep);

/* latlab's cache: $XDG_CACHE_HOME/latlab, or ~/.cache/latlab. 0 or -ENOENT. */
int vm_cache_dir(char *buf, size_t len);

/* A file's content as a 64-bit key (FNV-1a, its size folded in). */
uint64_t vm_image_key(const unsigned char *data, size_t size);
/* A file's vm_image_key, 0 when it cannot be read (not a regular file, over 2 GiB). */
uint64_t vm_file_key(const char *path);

/*
 * An x86 bzImage's compressed kernel: its offset and length in img (the
 * 4-byte size after the stream included) and its packer's name. 0;
 * -ENOEXEC: not a bzImage; -ENOTSUP: a boot protocol before 2.08;
 * -EBADMSG: a payload outside the file; -EPROTONOSUPPORT: an unknown
 * compression.
 */
int vm_bzimage_payload(const unsigned char *img, size_t size, size_t *off,
		       size_t *len, const char **packer);

/*
 * elf is an x86-64 ELF kernel with a PVH entry note, which qemu boots
 * directly: 0; -ENOENT without the note; -ENOEXEC, -EBADMSG otherwise.
 */
int vm_elf_pvh(const unsigned char *elf, size_t size);

/*
 * The release (uname -r) a kernel image says: an x86 bzImage's header
 * string, else the "Linux version " of an ELF or uncompressed image (a
 * compressed arm64 vmlinuz says none). 0; -ENOENT: none found; -EBADMSG:
 * not a release's characters.
 */
int vm_image_release_of(const unsigned char *img, size_t size, char *rel, size_t len);
/* The same of a file: 0, or -errno (a FIFO or a directory: -EINVAL). */
int vm_image_release(const char *path, char *rel, size_t len);

/*
 * A path as a value of qemu's KEY=VALUE,... options, its commas doubled
 * (qemu's escape): 0, or -ENAMETOOLONG.
 */
int vm_qemu_opt_value(const char *in, char *out, size_t len);

/*
 * Is a program at one of the names (paths inside the archive, without the
 * leading /: "usr/bin/cyclictest") in the initrd at path? Its newc
 * archives, one after another as the kernel unpacks them, each plain or
 * compressed (gzip, xz, zstd, bzip2, lzma, lz4: unpacked by their tool,
 * bounded). 0 and the name found in found, -ENOENT where none is, or
 * -errno (not a regular file, a damaged archive, a missing tool).
 */
int vm_initrd_find(const char *path, const char *const *names, int n, char *found, size_t len);

/* qemu's cache modes for the disk's file, as [kernel.NAME] disk_cache names them */
extern const char *const vm_disk_caches[];

/*
 * Where the modules of variant k's devices are: IMAGE_DIR/modules/RELEASE
 * (make kernels; tools/debian-kernels.sh), RELEASE from the image, whose
 * list (disk.list, net.list) names them in load order. 0 with dir, or
 * -ENOENT with why.
 */
int vm_device_modules(const struct kernel_def *k, const char *list, char *dir, size_t len,
		      char *why, size_t whylen);

/*
 * The disk of one boot: a file of size bytes at path (which must not
 * exist), its blocks reserved (fallocate; sparse where the filesystem
 * cannot), formatted ext4 by the host's mkfs.ext4. 0, or -errno with err
 * (-ENOSPC: the host's disk has not the room; nothing is left at path).
 */
int vm_disk_make(const char *path, int64_t size, char *err, size_t errlen);

/* The module list a variant's disk needs: disk.list (virtio-blk) or nullb.list (modelled). */
const char *vm_disk_modules(const struct kernel_def *k);

/* the modelled disk's block size, its image's unit (null_blk's bs) */
#define VM_DISK_BLOCK 4096

/*
 * A modelled disk's filesystem packed for the guest: of an ext4 image
 * (size bytes), the 4 KiB blocks that are not all zero (null_blk reads
 * zeros where nothing was written), data their bytes in order and map a
 * line "BLOCK COUNT" a run of them. The guest's /init writes them onto
 * /dev/nullb0 (initramfs.c).
 */
struct vm_disk_pack {
	char *data, *map;
	size_t datalen, maplen;
};

/*
 * Pack an ext4 of size bytes: made by mkfs.ext4 in a sparse file at path
 * (which must not exist; removed before return). 0, or a negative errno
 * with err said (nothing left allocated).
 */
int vm_disk_pack(const char *path, int64_t size, struct vm_disk_pack *p, char *err,
		 size_t errlen);
void vm_disk_pack_free(struct vm_disk_pack *p);

/*
 * Could qemu have paused the guest of this disk (werror=enospc)? 1 when
 * the file is still sparse (its filesystem could not reserve it) and the
 * filesystem holding it has less than 1 MiB left, even for root.
 */
int vm_disk_may_pause(const char *path);

/* What a guest of one architecture ([kernel.NAME] arch) boots with. */
struct vm_arch {
	const char *name;		/* as arch = says it */
	const char *qemu;		/* the emulator's program */
	const char *package;		/* Debian's package holding it */
	const char *machine;		/* qemu's -machine */
	const char *console;		/* the kernel's serial console */
	const char *tcg_cpu;		/* qemu's -cpu under TCG */
	int elf_machine;		/* EM_*: what the initramfs's programs must be */
	int pci_serial;			/* its channel: qemu's pci-serial, else
					 * isa-debugcon's port (guest.h) */
	const char *cross;		/* make's CROSS= that builds for it, or NULL */
};

const struct vm_arch *vm_arch(const struct kernel_def *k);

/*
 * The NUMA node `node` of k's guest (numa_nodes, 1 unless set): its CPUs
 * first..last and its memory (MiB), the guest's split evenly in order, the
 * last node taking what is left. 0, or -ENOENT when the guest has no such
 * node. What start_qemu asks qemu for and what plan says.
 */
int vm_guest_node(const struct kernel_def *k, int node, int64_t *first, int64_t *last,
		  int64_t *mib);

/* k's guest is of this latlab's own architecture: it may run under KVM. */
int vm_arch_native(const struct kernel_def *k);

/*
 * path is a shared object a guest of arch can load (a plugin): an ELF
 * shared object for its machine, and that machine this one's (another
 * architecture's guest runs a static latlab). 0, or -errno with why.
 */
int vm_shared_fits(const char *path, const struct vm_arch *arch, char *why, size_t len);

/*
 * path is a program a guest of arch runs: 0 for a static one, 1 for one
 * linked dynamically with its interpreter in interp (the host's own
 * architecture only: its libraries go along); -ENOEXEC for another
 * machine's, -ELIBBAD for a dynamic one of a foreign architecture, or
 * -errno. vm_program_misfit says why in words (into buf).
 */
int vm_program_fits(const char *path, const struct vm_arch *arch,
		    char *interp, size_t len);
const char *vm_program_misfit(int rc, const struct vm_arch *arch, char *buf,
			      size_t len);

/* /dev/kvm can be opened for reading and writing. */
int vm_kvm_present(void);

#endif
