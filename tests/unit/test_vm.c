/*
 * The initramfs archive latlab writes for a qemu guest, read back the way
 * the kernel reads it (newc headers, 4-byte alignment, the trailer), and
 * the qemu kernel options of a config.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "container.h"
#include "cpio.h"
#include "guest.h"
#include "settle.h"
#include "version.h"
#include "vm.h"

struct entry {
	char name[256];
	unsigned mode, nlink;
	size_t size;
	char data[64];
};

static unsigned hex8(const char *p)
{
	char buf[9];

	memcpy(buf, p, 8);
	buf[8] = '\0';
	return (unsigned)strtoul(buf, NULL, 16);
}

/* Parse a newc archive; returns the number of entries, the trailer included. */
static int parse(const char *buf, size_t len, struct entry *e, int max)
{
	size_t off = 0;
	int n = 0;

	while (off + 110 <= len && n < max) {
		assert_memory_equal(buf + off, "070701", 6);
		unsigned mode = hex8(buf + off + 14), nlink = hex8(buf + off + 38);
		size_t size = hex8(buf + off + 54), namesize = hex8(buf + off + 94);

		assert_int_equal(hex8(buf + off + 22), 0);	/* uid root */
		assert_int_equal(hex8(buf + off + 30), 0);	/* gid root */
		assert_true(off + 110 + namesize <= len);
		assert_int_equal(buf[off + 110 + namesize - 1], '\0');
		snprintf(e[n].name, sizeof(e[n].name), "%s", buf + off + 110);
		e[n].mode = mode;
		e[n].nlink = nlink;
		e[n].size = size;
		off += 110 + namesize;
		off += (4 - off % 4) % 4;	/* the data starts 4-aligned */
		assert_true(off + size <= len);
		memcpy(e[n].data, buf + off, size < sizeof(e[n].data) ? size : sizeof(e[n].data));
		off += size;
		off += (4 - off % 4) % 4;
		if (strcmp(e[n++].name, "TRAILER!!!") == 0)
			break;
	}
	assert_int_equal(off, len);	/* nothing after the trailer */
	return n;
}

static void test_cpio_layout(void **state)
{
	char *buf = NULL, src[] = "/tmp/latlab-test-cpio.XXXXXX";
	size_t len = 0;
	struct entry e[16];
	struct cpio a;
	FILE *fp = open_memstream(&buf, &len);
	int fd = mkstemp(src);

	(void)state;
	assert_non_null(fp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello", 5), 5);
	fchmod(fd, 0750);
	close(fd);
	cpio_start(&a, fp);
	/* parents come first, each once; a leading / is dropped */
	assert_int_equal(cpio_data(&a, "/latlab/config.ini", 0644, "[c]\n", 4), 0);
	assert_int_equal(cpio_file(&a, "lib/x86_64-linux-gnu/libx.so", src), 0);
	assert_int_equal(cpio_dir(&a, "latlab"), 0);	/* already there */
	assert_int_equal(cpio_data(&a, "init", 0755, "#!", 2), 0);
	/* the same library for a second program: not added twice */
	assert_int_equal(cpio_file(&a, "/lib/x86_64-linux-gnu/libx.so", src), 0);
	/* a missing file is the caller's to name; the archive goes on */
	assert_int_equal(cpio_file(&a, "bin/x", "/nonexistent/x"), -ENOENT);
	assert_int_equal(cpio_finish(&a), 0);
	fclose(fp);
	unlink(src);

	int n = parse(buf, len, e, 16);
	assert_int_equal(n, 7);
	assert_string_equal(e[0].name, "latlab");
	assert_int_equal(e[0].mode, 040755);
	assert_int_equal(e[0].nlink, 2);
	assert_string_equal(e[1].name, "latlab/config.ini");
	assert_int_equal(e[1].mode, 0100644);
	assert_int_equal(e[1].size, 4);
	assert_memory_equal(e[1].data, "[c]\n", 4);
	assert_string_equal(e[2].name, "lib");
	assert_string_equal(e[3].name, "lib/x86_64-linux-gnu");
	assert_string_equal(e[4].name, "lib/x86_64-linux-gnu/libx.so");
	assert_int_equal(e[4].mode, 0100750);	/* the source's permissions */
	assert_memory_equal(e[4].data, "hello", 5);
	assert_string_equal(e[5].name, "init");
	assert_int_equal(e[5].mode, 0100755);
	assert_string_equal(e[6].name, "TRAILER!!!");
	free(buf);
}

/*
 * Files from folders others may write: a link refused where it must be a
 * file of its own (a module: attack-5 guest/03 took a root-only file into
 * the guest), a FIFO refused at once (guest/02 held latlab for good), a
 * file past the bound refused; the same link followed where a library's is.
 */
static void test_cpio_checked(void **state)
{
	char dir[] = "/tmp/latlab-test-cpio2.XXXXXX", file[96], link[96], fifo[96];
	char *buf = NULL;
	size_t len = 0;
	struct cpio a;
	FILE *fp = open_memstream(&buf, &len), *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/secret", dir);
	snprintf(link, sizeof(link), "%s/virtio.ko", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo.ko", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("0123456789", f);
	fclose(f);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	cpio_start(&a, fp);
	assert_int_equal(cpio_file_checked(&a, "latlab/mod/virtio.ko", link, 1, 1 << 20), -ELOOP);
	assert_int_equal(cpio_file_checked(&a, "latlab/mod/fifo.ko", fifo, 1, 1 << 20), -EINVAL);
	assert_int_equal(cpio_file(&a, "bin/fifo", fifo), -EINVAL);
	assert_int_equal(cpio_file_checked(&a, "latlab/mod/secret.ko", file, 1, 9), -EFBIG);
	assert_int_equal(cpio_file_checked(&a, "latlab/mod/secret.ko", file, 1, 10), 0);
	assert_int_equal(cpio_file(&a, "lib/libx.so", link), 0);	/* a library's link: followed */
	assert_int_equal(cpio_finish(&a), 0);
	fclose(fp);
	free(buf);
	unlink(link);
	unlink(fifo);
	unlink(file);
	rmdir(dir);
}

static int load_text(struct config *cfg, const char *text, char *err,
		     size_t errlen)
{
	char path[] = "/tmp/latlab-test-vm.XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = config_load(cfg, path, NULL, 0, err, errlen);
	unlink(path);
	return rc;
}

static void test_qemu_options(void **state)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	char err[512];

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(load_text(cfg,
		"[matrix]\nkernel = rt, mine\n"
		"[kernel.rt]\nrunner = qemu\nimage = /boot/vmlinuz-rt\naccel = tcg\n"
		"append = isolcpus=1\nmemory = 1G\ncpus = 4\n"
		"[kernel.mine]\nrunner = qemu\nimage = bzImage\n", err, sizeof(err)), 0);
	const struct kernel_def *rt = &cfg->kernel[config_kernel_index(cfg, "rt")];
	const struct kernel_def *mine = &cfg->kernel[config_kernel_index(cfg, "mine")];
	assert_int_equal(rt->runner, RUNNER_QEMU);
	assert_int_equal(rt->accel, ACCEL_TCG);
	assert_int_equal(rt->cpus, 4);
	assert_int_equal(rt->memory, 1LL << 30);
	assert_string_equal(rt->append, "isolcpus=1");
	/* a qemu variant's match defaults to what its name says, else any */
	assert_string_equal(rt->match, "preempt:rt");
	assert_string_equal(mine->match, "any");
	assert_int_equal(mine->accel, ACCEL_AUTO);
	assert_int_equal(mine->cpus, 2);
	assert_int_equal(mine->memory, 512LL << 20);
	assert_int_equal(mine->clock, CLOCK_HOST);
	config_free(cfg);

	/* the instruction clock: one CPU unless told, shift 0 unless told */
	memset(cfg, 0, sizeof(*cfg));
	assert_int_equal(load_text(cfg,
		"[matrix]\nkernel = ic, ic3, ia\n"
		"[kernel.ic]\nrunner = qemu\nimage = x\nclock = icount\n"
		"[kernel.ic3]\nrunner = qemu\nimage = x\nclock = icount\nicount_shift = 3\ncpus = 1\n"
		"[kernel.ia]\nrunner = qemu\nimage = x\nclock = icount\narch = arm64\nprograms = p\nbusybox = b\n",
		err, sizeof(err)), 0);
	const struct kernel_def *ic = &cfg->kernel[config_kernel_index(cfg, "ic")];
	const struct kernel_def *ic3 = &cfg->kernel[config_kernel_index(cfg, "ic3")];
	assert_int_equal(ic->clock, CLOCK_ICOUNT);
	assert_int_equal(ic->cpus, 1);
	assert_int_equal(ic->icount_shift, 0);
	assert_int_equal(ic3->icount_shift, 3);
	/* an arm64 guest takes the clock too, on one CPU */
	const struct kernel_def *ia = &cfg->kernel[config_kernel_index(cfg, "ia")];
	assert_int_equal(ia->clock, CLOCK_ICOUNT);
	assert_int_equal(ia->cpus, 1);
	config_free(cfg);

	/* the modelled disk: a quarter of memory unless told, 200 µs, depth 64 */
	memset(cfg, 0, sizeof(*cfg));
	assert_int_equal(load_text(cfg,
		"[matrix]\nkernel = m, m1, v\n"
		"[kernel.m]\nrunner = qemu\nimage = x\ndisk = modelled\n"
		"[kernel.m1]\nrunner = qemu\nimage = x\ndisk = modelled\nmemory = 1G\ndisk_time = 50us\ndisk_depth = 1\n"
		"[kernel.v]\nrunner = qemu\nimage = x\n",
		err, sizeof(err)), 0);
	const struct kernel_def *m = &cfg->kernel[config_kernel_index(cfg, "m")];
	const struct kernel_def *m1 = &cfg->kernel[config_kernel_index(cfg, "m1")];
	const struct kernel_def *v = &cfg->kernel[config_kernel_index(cfg, "v")];
	assert_int_equal(m->disk, DISK_MODELLED);
	assert_int_equal(m->disk_size, 128LL << 20);
	assert_int_equal(m->disk_time, 200000);
	assert_int_equal(m->disk_depth, 64);
	assert_int_equal(m1->disk_size, 256LL << 20);
	assert_int_equal(m1->disk_time, 50000);
	assert_int_equal(m1->disk_depth, 1);
	assert_int_equal(v->disk, DISK_ON);
	assert_int_equal(v->disk_size, 1LL << 30);
	assert_string_equal(vm_disk_modules(m), "nullb.list");
	assert_string_equal(vm_disk_modules(v), "disk.list");
	config_free(cfg);

	/* each bad config names its file:line and what is wrong */
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\n",
		  ":3: [kernel.rt] runner = qemu needs 'image ='" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\naccel = hvf\n",
		  ":6: accel = 'hvf': expected one of auto|kvm|tcg" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nqemu_args = -name \"open\n",
		  ":6: qemu_args = '-name \"open': an unclosed quote" },
		/* qemu_args that split well do not excuse a bad match */
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nqemu_args = -icount shift=auto\nmatch = preempt:fast\n",
		  ":7: match = 'preempt:fast': expected one or more terms, blank-separated, each [!]preempt:" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\narch = riscv64\n",
		  ":6: arch = 'riscv64': expected one of x86_64|arm64" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\narch = arm64\nbusybox = b\n",
		  ":6: [kernel.rt] arch = arm64 needs 'programs ='" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\narch = arm64\nprograms = p\n",
		  ":6: [kernel.rt] arch = arm64 needs 'busybox ='" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nclock = icount\naccel = kvm\n",
		  ":7: [kernel.rt] clock = icount runs under TCG only" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\ncpus = 2\nclock = icount\n",
		  ":6: [kernel.rt] clock = icount takes cpus = 1" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nmatch = any\nclock = icount\n",
		  ":5: [kernel.rt] clock = icount is qemu's: it needs runner = qemu" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nicount_shift = 2\n",
		  ":6: [kernel.rt] icount_shift is for clock = icount" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nclock = icount\nqemu_args = -icount shift=auto\n",
		  ":7: [kernel.rt] clock = icount sets -icount itself" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\nclock = icount\nicount_shift = 11\n",
		  ":7: icount_shift = 11 is out of range" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\ndisk = modelled\ndisk_size = 300M\n",
		  ":7: [kernel.rt] disk = modelled keeps the disk in the guest's memory: disk_size = 300MiB is more than half of memory = 512MiB" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\ndisk_time = 1ms\n",
		  ":6: [kernel.rt] disk_time is for disk = modelled" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\ndisk = ram\ndisk_depth = 8\n",
		  ":7: [kernel.rt] disk_depth is for disk = modelled" },
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\ndisk = modelled\ndisk_time = 1s\n",
		  ":7: disk_time = 1s is out of range" },
#if !defined(__aarch64__)	/* an arm64 latlab may run arm64 guests under KVM */
		{ "[matrix]\nkernel = rt\n[kernel.rt]\nrunner = qemu\nimage = x\naccel = kvm\narch = arm64\nprograms = p\nbusybox = b\n",
		  ":6: [kernel.rt] arch = arm64 runs under TCG here" },
#endif
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(cfg, 0, sizeof(*cfg));
		assert_int_equal(load_text(cfg, bad[i].text, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].want);
		config_free(cfg);
	}
	free(cfg);
}

/* The EM_* of the machine these tests run as (under qemu-user too). */
#if defined(__x86_64__)
#define OWN_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#else
#define OWN_MACHINE EM_NONE
#endif

/* A minimal ELF file: its class, machine and, if interp, a PT_INTERP. */
static void fake_elf(const char *path, int class, int machine, const char *interp)
{
	Elf64_Ehdr eh = { .e_type = ET_EXEC, .e_machine = (Elf64_Half)machine,
			  .e_version = EV_CURRENT, .e_ehsize = sizeof(eh),
			  .e_phentsize = sizeof(Elf64_Phdr) };
	Elf64_Phdr ph = { .p_type = PT_INTERP,
			  .p_offset = sizeof(eh) + sizeof(ph) };
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = (unsigned char)class;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	if (interp) {
		eh.e_phoff = sizeof(eh);
		eh.e_phnum = 1;
		ph.p_filesz = strlen(interp) + 1;
	}
	assert_int_equal(fwrite(&eh, sizeof(eh), 1, fp), 1);
	if (interp) {
		assert_int_equal(fwrite(&ph, sizeof(ph), 1, fp), 1);
		assert_int_equal(fwrite(interp, ph.p_filesz, 1, fp), 1);
	}
	fclose(fp);
}

/* What a guest of each architecture may be given as a program. */
/* A path in qemu's KEY=VALUE,... options: its commas doubled, never another option. */
static void test_qemu_opt_value(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(vm_qemu_opt_value("/r/o,file=/etc/passwd,x=", out, sizeof(out)), 0);
	assert_string_equal(out, "/r/o,,file=/etc/passwd,,x=");
	assert_int_equal(vm_qemu_opt_value("/plain", out, sizeof(out)), 0);
	assert_string_equal(out, "/plain");
	assert_int_equal(vm_qemu_opt_value(",,", out, sizeof(out)), 0);
	assert_string_equal(out, ",,,,");
	assert_int_equal(vm_qemu_opt_value("/a,b", out, 5), -ENAMETOOLONG);
	assert_int_equal(vm_qemu_opt_value("/abc", out, 4), -ENAMETOOLONG);
	assert_int_equal(vm_qemu_opt_value("/ab", out, 4), 0);
}

static void test_program_fits(void **state)
{
	struct kernel_def x86 = { .arch = VM_ARCH_X86_64 }, arm = { .arch = VM_ARCH_ARM64 };
	const struct vm_arch *ax = vm_arch(&x86), *aa = vm_arch(&arm);
	char dir[] = "/tmp/latlab-elf.XXXXXX", path[64], interp[128], why[96];
	static const char ld[] = "/lib/ld-linux-aarch64.so.1";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_string_equal(ax->qemu, "qemu-system-x86_64");
	assert_string_equal(aa->qemu, "qemu-system-aarch64");
	assert_int_equal(aa->pci_serial, 1);
	assert_int_equal(ax->pci_serial, 0);
	assert_int_equal(vm_arch_native(&arm), OWN_MACHINE == EM_AARCH64);
	assert_int_equal(vm_arch_native(&x86), OWN_MACHINE == EM_X86_64);

	snprintf(path, sizeof(path), "%s/static-arm64", dir);
	fake_elf(path, ELFCLASS64, EM_AARCH64, NULL);
	assert_int_equal(vm_program_fits(path, aa, interp, sizeof(interp)), 0);
	assert_int_equal(vm_program_fits(path, ax, interp, sizeof(interp)), -ENOEXEC);
	assert_string_equal(vm_program_misfit(-ENOEXEC, ax, why, sizeof(why)),
			    "not a program for x86_64");
	unlink(path);

	/* dynamic: only for the machine latlab itself runs on (its
	 * libraries go along); another's would need that system's */
	snprintf(path, sizeof(path), "%s/dynamic-arm64", dir);
	fake_elf(path, ELFCLASS64, EM_AARCH64, ld);
	if (OWN_MACHINE == EM_AARCH64) {
		assert_int_equal(vm_program_fits(path, aa, interp, sizeof(interp)), 1);
		assert_string_equal(interp, ld);
	} else {
		assert_int_equal(vm_program_fits(path, aa, interp, sizeof(interp)), -ELIBBAD);
		assert_non_null(strstr(vm_program_misfit(-ELIBBAD, aa, why, sizeof(why)),
				       "an arm64 guest needs static programs"));
	}
	unlink(path);

	snprintf(path, sizeof(path), "%s/elf32", dir);
	fake_elf(path, ELFCLASS32, EM_AARCH64, NULL);
	assert_int_equal(vm_program_fits(path, aa, interp, sizeof(interp)), -ENOEXEC);
	unlink(path);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(vm_program_fits(path, aa, interp, sizeof(interp)), -ENOENT);
	rmdir(dir);
}

/* /proc/stat's first line: busy is user, nice, system, irq, softirq, steal; all adds idle, iowait. */
static void test_settle_stat(void **state)
{
	struct cpu_ticks t;
	struct settle st;

	(void)state;
	assert_int_equal(settle_parse_stat("cpu  10 1 5 100 4 2 3 7 0 0\ncpu0 10 1 5 100 4 2 3 7 0 0\n", &t), 0);
	assert_int_equal(t.busy, 10 + 1 + 5 + 2 + 3 + 7);
	assert_int_equal(t.all, t.busy + 100 + 4);
	/* an old kernel's four fields */
	assert_int_equal(settle_parse_stat("cpu 1 2 3 4\n", &t), 0);
	assert_int_equal(t.busy, 6);
	assert_int_equal(t.all, 10);
	assert_int_equal(settle_parse_stat("intr 1 2 3\n", &t), -EINVAL);
	assert_int_equal(settle_parse_stat("cpu 1 2\n", &t), -EINVAL);
	/* the wait ends by the limit at the latest (this machine's CPUs may be busy) */
	assert_int_equal(settle_wait(10000000, 20000000, 300000000, &st), 0);
	assert_true(st.waited_s >= 0.02 && st.waited_s < 5);
	assert_true(st.busy_pct >= 0 && st.busy_pct <= 100);
	assert_true(st.settled || st.waited_s >= 0.3);
}

/*
 * A guest's disk is reserved whole, or refused with -ENOSPC where the
 * host has not the room; a disk left sparse on a full filesystem is one
 * qemu may have paused, a reserved one never (attack-5 guest/01). On a
 * tmpfs of its own (root only).
 */
static void test_disk_room(void **state)
{
	char top[] = "/tmp/latlab-test-disk.XXXXXX", path[96], err[512];
	struct stat st;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_non_null(mkdtemp(top));
	if (mount("tmpfs", top, "tmpfs", 0, "size=8m") != 0) {
		rmdir(top);
		skip();
	}
	/* 64 MiB on 8: refused, said, nothing left */
	snprintf(path, sizeof(path), "%s/big.disk", top);
	assert_int_equal(vm_disk_make(path, 64LL << 20, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "cannot reserve 64MiB for the guest's disk (disk_size) at "));
	assert_non_null(strstr(err, "No space left on device"));
	assert_int_equal(access(path, F_OK), -1);
	/* a reserved file on a full filesystem: qemu writes into its blocks */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(fallocate(fd, 0, 0, 1 << 20), 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/sparse.disk", top);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 64LL << 20), 0);
	close(fd);
	assert_int_equal(vm_disk_may_pause(path), 0);	/* room left */
	char filler[96], block[65536] = { 0 };

	snprintf(filler, sizeof(filler), "%s/filler", top);
	fd = open(filler, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
	assert_int_equal(vm_disk_may_pause(path), 1);	/* sparse, the host full */
	snprintf(path, sizeof(path), "%s/big.disk", top);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(vm_disk_may_pause(path), 0);	/* reserved */
	assert_int_equal(vm_disk_may_pause("/nonexistent/disk"), 0);
	assert_int_equal(umount(top), 0);
	assert_int_equal(rmdir(top), 0);
}

/*
 * A modelled disk's filesystem packed: only its blocks that are not all
 * zero, in runs the map says; written back into a sparse file at their
 * places they are a filesystem e2fsck finds clean. A path that exists, or
 * no mkfs.ext4, is refused and said.
 */
static void test_disk_pack(void **state)
{
	char top[] = "/tmp/latlab-test-pack.XXXXXX", path[96], img[96], cmd[256], err[512];
	struct vm_disk_pack p;
	long long at, n, blocks = 0;
	const int64_t size = 32LL << 20;
	int fd, consumed;

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/fs.tmp", top);
	if (vm_disk_pack(path, size, &p, err, sizeof(err)) == -ENOENT)
		skip();	/* no mkfs.ext4 here: said below without one */
	assert_int_equal(access(path, F_OK), -1);	/* the image is gone */
	assert_true(p.datalen > 0 && p.datalen % VM_DISK_BLOCK == 0);
	assert_true(p.datalen < (size_t)size / 8);	/* zeros never leave the host */
	snprintf(img, sizeof(img), "%s/back.img", top);
	fd = open(img, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	for (const char *m = p.map; sscanf(m, "%lld %lld\n%n", &at, &n, &consumed) == 2; m += consumed) {
		assert_true(n > 0 && at >= 0 && (at + n) * VM_DISK_BLOCK <= size);
		assert_int_equal(pwrite(fd, p.data + blocks * VM_DISK_BLOCK, (size_t)n * VM_DISK_BLOCK,
					at * VM_DISK_BLOCK), n * VM_DISK_BLOCK);
		blocks += n;
	}
	close(fd);
	assert_int_equal(blocks * VM_DISK_BLOCK, (long long)p.datalen);
	assert_int_equal(strncmp(p.map, "0 ", 2), 0);	/* the superblock's block first */
	vm_disk_pack_free(&p);
	snprintf(cmd, sizeof(cmd), "e2fsck -fn %s >/dev/null 2>&1", img);
	assert_int_equal(system(cmd), 0);
	/* the path exists: refused, the file not touched */
	assert_int_equal(vm_disk_pack(img, size, &p, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "File exists"));
	assert_null(p.data);
	/* no mkfs.ext4: the package named, nothing left */
	const char *saved = getenv("PATH");
	char *old = saved ? strdup(saved) : NULL;

	setenv("PATH", top, 1);
	assert_int_equal(vm_disk_pack(path, size, &p, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "install e2fsprogs"));
	assert_int_equal(access(path, F_OK), -1);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	unlink(img);
	assert_int_equal(rmdir(top), 0);
}

/*
 * A hung guest's context: its devices, and its console's last line with
 * what a terminal would act on (escapes, newlines) and a quote made '?',
 * at most 100 characters of it.
 */
static void test_hung_context(void **state)
{
	char path[] = "/tmp/latlab-test-console.XXXXXX", out[256], want[256];
	struct vm_boot b = { .console_log = path, .disk = "d", .net = 1 };
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");

	(void)state;
	assert_non_null(fp);
	fprintf(fp, "[ 1.0] first\n[ 2.0] it's \033[2Jlast\r\n\n");
	fclose(fp);
	vm_hung_context(&b, out, sizeof(out));
	assert_string_equal(out, "; its devices: a virtio disk and two cards; its console's last line: '[ 2.0] it?s ?[2Jlast'");
	fp = fopen(path, "w");
	for (int i = 0; i < 300; i++)
		fputc('x', fp);
	fclose(fp);
	b.disk = NULL;
	b.net = 0;
	vm_hung_context(&b, out, sizeof(out));
	snprintf(want, sizeof(want), "; its devices: none of qemu's; its console's last line: '%.100s'",
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	assert_string_equal(out, want);
	unlink(path);
	vm_hung_context(&b, out, sizeof(out));
	assert_string_equal(out, "; its devices: none of qemu's; its console's last line: none");
}

/* runner = container: its defaults, podman's argv, and the channel on a descriptor */
static void test_container(void **state)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct ct_words w;
	char err[512];

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(load_text(cfg,
		"[matrix]\nkernel = ct, mine\n"
		"[kernel.ct]\nrunner = container\n"
		"[kernel.mine]\nrunner = container\nimage = localhost/x:1\nrt_runtime = 200ms\n"
		"container_args = --cpuset-cpus 1 --label \"a b\"\n", err, sizeof(err)), 0);
	const struct kernel_def *ct = &cfg->kernel[config_kernel_index(cfg, "ct")];
	/* this machine's kernel, whatever it is; latlab's own image */
	assert_string_equal(ct->match, "any");
	assert_string_equal(ct->image, "localhost/latlab:" LATLAB_VERSION);
	assert_int_equal(ct->rt_runtime, 100 * 1000000LL);
	struct ct_boot b = { .cfg = cfg, .variant = config_kernel_index(cfg, "mine"), .hostname = "h-ct" };
	const char **argv = ct_run_argv(&b, "latlab-1-1", "latlab-1-1", "/tmp/latlab-ct.x", &w);
	char line[4096] = "";

	assert_non_null(argv);
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line,
		"podman --cgroup-manager cgroupfs run --rm --pull never --network none "
		"--cap-add SYS_NICE,IPC_LOCK --preserve-fds 1 --name latlab-1-1 --hostname h-ct "
		"--mount type=bind,source=/tmp/latlab-ct.x,target=/latlab,readonly "
		"--cgroup-parent /latlab-1-1 --cpu-rt-runtime 200000 "
		"--cpuset-cpus 1 --label a b localhost/x:1 "
		"run /latlab/config.ini -o /results --guest-cells /latlab/cells --guest-channel 3 --guest mine");
	free(argv);
	free(w.extra);
	/* no parent (no RT_GROUP_SCHED): no cgroup options, podman's own manager */
	b.variant = config_kernel_index(cfg, "ct");
	argv = ct_run_argv(&b, "latlab-1-2", "", "/tmp/s", &w);
	assert_non_null(argv);
	assert_string_equal(argv[1], "run");
	for (int i = 0; argv[i]; i++) {
		assert_string_not_equal(argv[i], "--cgroup-parent");
		assert_string_not_equal(argv[i], "--cpu-rt-runtime");
	}
	free(argv);
	free(w.extra);
	config_free(cfg);

	/* container_args are podman's: refused on another runner, at their line */
	memset(cfg, 0, sizeof(*cfg));
	assert_int_not_equal(load_text(cfg, "[matrix]\nkernel = h\n[kernel.h]\nmatch = any\ncontainer_args = -x\n",
				       err, sizeof(err)), 0);
	assert_non_null(strstr(err, ":5: [kernel.h] container_args are podman's: they need runner = container"));
	config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	assert_int_not_equal(load_text(cfg, "[matrix]\nkernel = c\n[kernel.c]\nrunner = container\ncontainer_args = \"-x\n",
				       err, sizeof(err)), 0);
	assert_non_null(strstr(err, "container_args = '\"-x': an unclosed quote"));
	config_free(cfg);
	/* load_in: a container's word, refused on another runner at its line; the loads it moves */
	memset(cfg, 0, sizeof(*cfg));
	assert_int_not_equal(load_text(cfg, "[matrix]\nkernel = h\n[kernel.h]\nmatch = any\nload_in = host\n",
				       err, sizeof(err)), 0);
	assert_non_null(strstr(err, ":5: [kernel.h] load_in says where a container's load runs: it needs runner = container"));
	config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	assert_int_not_equal(load_text(cfg, "[matrix]\nkernel = c\n[kernel.c]\nrunner = container\nload_in = outside\n",
				       err, sizeof(err)), 0);
	assert_non_null(strstr(err, ":5:"));
	assert_non_null(strstr(err, "container|host"));
	config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	assert_int_equal(load_text(cfg, "[matrix]\nkernel = c, d\nload = none, hb\n"
				   "[kernel.c]\nrunner = container\nload_in = host\n"
				   "[kernel.d]\nrunner = container\n[load.hb]\ntype = hackbench\n",
				   err, sizeof(err)), 0);
	const struct kernel_def *kc = &cfg->kernel[config_kernel_index(cfg, "c")];
	const struct kernel_def *kd = &cfg->kernel[config_kernel_index(cfg, "d")];
	const struct load_def *hb = &cfg->load[config_load_index(cfg, "hb")];
	const struct load_def *none = &cfg->load[config_load_index(cfg, "none")];

	assert_int_equal(kd->load_in, LOAD_IN_CONTAINER);
	assert_true(config_load_outside(kc, hb));
	assert_false(config_load_outside(kc, none));	/* nothing to run outside */
	assert_false(config_load_outside(kd, hb));
	/* the resolved config the container is given says it: its latlab leaves the load alone */
	char *text = NULL;
	size_t tlen = 0;
	FILE *fp = open_memstream(&text, &tlen);

	assert_non_null(fp);
	config_write_ini(fp, cfg);
	fclose(fp);
	assert_non_null(strstr(text, "load_in = host"));
	/* once: d's default is not echoed (older configs' hash unchanged) */
	assert_null(strstr(strstr(text, "load_in = host") + 1, "load_in"));
	free(text);
	config_free(cfg);
	free(cfg);

	/* the channel on a pipe: a line as the host reads it; a closed fd refused */
	int p[2];
	char buf[128] = "";

	assert_int_equal(pipe(p), 0);
	assert_int_equal(guest_open_fd(-1), -EBADF);
	assert_int_equal(guest_open_fd(1000), -EBADF);
	assert_int_equal(guest_open_fd(p[1]), 0);
	guest_say(CHAN_LOG, "hello %d", 1);
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "LATLAB log hello 1\n");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio_layout),
		cmocka_unit_test(test_cpio_checked),
		cmocka_unit_test(test_qemu_options),
		cmocka_unit_test(test_qemu_opt_value),
		cmocka_unit_test(test_program_fits),
		cmocka_unit_test(test_settle_stat),
		cmocka_unit_test(test_disk_room),
		cmocka_unit_test(test_disk_pack),
		cmocka_unit_test(test_hung_context),
		cmocka_unit_test(test_container),
	};

	return cmocka_run_group_tests_name("vm", tests, NULL, NULL);
}
