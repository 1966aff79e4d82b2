#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "argv.h"
#include "cpio.h"
#include "files.h"
#include "log.h"
#include "netpeer.h"
#include "vm.h"
#include "workload.h"

/*
 * The program interpreter (PT_INTERP) of a 64-bit ELF program for
 * machine (EM_*): 1 with interp filled for a dynamic executable, 0 for a
 * static one, -ENOEXEC for anything else (another machine's), -errno.
 */
static int elf_interp(const char *path, int machine, char *interp, size_t len)
{
	Elf64_Ehdr eh;
	FILE *fp = fopen(path, "rbe");
	int rc = 0;

	if (!fp)
		return -errno;
	if (fread(&eh, sizeof(eh), 1, fp) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != machine) {
		fclose(fp);
		return -ENOEXEC;
	}
	for (int i = 0; i < eh.e_phnum && rc == 0; i++) {
		Elf64_Phdr ph;

		if (fseek(fp, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, fp) != 1) {
			rc = -ENOEXEC;
			break;
		}
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz == 0 || ph.p_filesz > len ||
		    fseek(fp, (long)ph.p_offset, SEEK_SET) ||
		    fread(interp, 1, ph.p_filesz, fp) != ph.p_filesz) {
			rc = -ENOEXEC;
			break;
		}
		interp[ph.p_filesz - 1] = '\0';
		rc = 1;
	}
	fclose(fp);
	return rc;
}

/* The EM_* of the programs this latlab runs among. */
static int host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

int vm_program_fits(const char *path, const struct vm_arch *arch,
		    char *interp, size_t len)
{
	int rc = elf_interp(path, arch->elf_machine, interp, len);

	if (rc > 0 && arch->elf_machine != host_machine())
		return -ELIBBAD;
	return rc;
}

const char *vm_program_misfit(int rc, const struct vm_arch *arch, char *buf,
			      size_t len)
{
	if (rc == -ENOEXEC)
		snprintf(buf, len, "not a program for %s", arch->name);
	else if (rc == -ELIBBAD)
		snprintf(buf, len, "linked dynamically: an %s guest needs static programs",
			 arch->name);
	else
		snprintf(buf, len, "%s", strerror(-rc));
	return buf;
}

/*
 * Every library binary loads (a program or a shared object), at the path
 * the loader asks for: `INTERP --list`, which reads it without running
 * it. 0, or -errno with err.
 */
static int add_libraries(struct cpio *a, const char *interp, const char *binary, char *err,
			 size_t errlen)
{
	char line[PATH_MAX + 128];
	int pipefd[2], st, rc;

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return fail_with(err, errlen, -errno, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		execl(interp, interp, "--list", binary, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	FILE *fp = fdopen(pipefd[0], "r");
	rc = 0;
	while (fp && fgets(line, sizeof(line), fp)) {
		char *arrow = strstr(line, "=> "), *path = arrow ? arrow + 3 : line;

		path += strspn(path, " \t");
		if (*path != '/')
			continue;	/* linux-vdso.so.1: the kernel's own */
		path[strcspn(path, " \t\n")] = '\0';
		if (rc == 0 && (rc = cpio_file(a, path, path)) != 0)
			fail_with(err, errlen, rc, "%s (loaded by %s): %s", path,
				  binary, strerror(-rc));
	}
	if (fp)
		fclose(fp);
	else
		close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return rc ? rc : fail_with(err, errlen, -ENOEXEC,
					   "%s --list %s failed: cannot tell which libraries it needs",
					   interp, binary);
	return rc;
}

/*
 * Put binary, a program for the guest's architecture, at name in the
 * archive. With a dynamic one (the host's own architecture only) also its
 * interpreter and every library it loads.
 */
static int add_program(struct cpio *a, const char *name, const char *binary,
		       const struct vm_arch *arch, char *err, size_t errlen)
{
	char interp[PATH_MAX], why[96];
	int rc;

	rc = vm_program_fits(binary, arch, interp, sizeof(interp));
	if (rc < 0)
		return fail_with(err, errlen, rc, "%s: %s", binary,
				 vm_program_misfit(rc, arch, why, sizeof(why)));
	int dynamic = rc;

	rc = cpio_file(a, name, binary);
	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", binary, strerror(-rc));
	if (!dynamic)
		return 0;
	rc = cpio_file(a, interp, interp);
	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", interp, strerror(-rc));
	return add_libraries(a, interp, binary, err, errlen);
}

int vm_shared_fits(const char *path, const struct vm_arch *arch, char *why, size_t len)
{
	char interp[PATH_MAX];
	Elf64_Ehdr eh;
	int rc = elf_interp(path, arch->elf_machine, interp, sizeof(interp));
	FILE *fp;

	if (rc == -ENOEXEC)
		return fail_with(why, len, rc, "not a shared object for %s (its ELF header)",
				 arch->name);
	if (rc < 0)
		return fail_with(why, len, rc, "%s", strerror(-rc));
	fp = fopen(path, "rbe");
	if (!fp || fread(&eh, sizeof(eh), 1, fp) != 1 || eh.e_type != ET_DYN) {
		if (fp)
			fclose(fp);
		return fail_with(why, len, -ENOEXEC, "not a shared object (its ELF header)");
	}
	fclose(fp);
	if (arch->elf_machine != host_machine())
		return fail_with(why, len, -ELIBBAD,
				 "an %s guest's latlab is static and loads no shared object",
				 arch->name);
	return 0;
}

/*
 * A shared object a workload loads (a plugin), at its own path, and the
 * libraries it needs, asked of interp (the guest latlab's loader).
 */
static int add_shared(struct cpio *a, const char *path, const char *interp,
		      const struct vm_arch *arch, char *err, size_t errlen)
{
	char why[160];
	int rc = vm_shared_fits(path, arch, why, sizeof(why));

	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", path, why);
	rc = cpio_file(a, path, path);
	if (rc == 0)
		rc = cpio_file(a, interp, interp);
	/* a static latlab's dlopen asks for the loader by its name in the
	 * library directory, not at the interpreter's path */
	char real[PATH_MAX];

	if (rc == 0 && realpath(interp, real) && strcmp(real, interp) != 0)
		rc = cpio_file(a, real, real);
	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", path, strerror(-rc));
	return add_libraries(a, interp, path, err, errlen);
}

/* A busybox that runs with no library: Debian's busybox-static. */
static int find_busybox(char *path, size_t len)
{
	static const char *const where[] = { "/bin/busybox", "/usr/bin/busybox" };
	char interp[PATH_MAX];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (elf_interp(where[i], host_machine(), interp, sizeof(interp)) == 0) {
			snprintf(path, len, "%s", where[i]);
			return 0;
		}
	return -ENOENT;
}

/* The words of a comma list, one at a time: "a.ko, b.ko". */
static const char *next_word(const char *p, char *word, size_t len)
{
	size_t n;

	p += strspn(p, " ,\t");
	n = strcspn(p, ",");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n)
		return NULL;
	snprintf(word, len, "%.*s", (int)n, p);
	p += n;
	return p + strspn(p, " \t");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A name as a word the init script can hold unquoted: [A-Za-z0-9._-]. */
static void script_word(const char *in, char *out, size_t len)
{
	size_t i = 0;

	for (; in[i] && i + 1 < len; i++)
		out[i] = (isalnum((unsigned char)in[i]) || strchr("._-", in[i]))
			 ? in[i] : '_';
	out[i] = '\0';
}

/* The names a module list holds, one a line ([A-Za-z0-9_-]), in order; NULL: none. */
static FILE *module_list(const struct vm_guest *g, const char *list)
{
	char path[PATH_MAX + 16], err[PATH_MAX + 64];

	if (!g->device_modules)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", g->device_modules, list);
	return file_fopen_regular(path, 1 << 16, err, sizeof(err));
}

/* The next module's name of a list, or 0 at its end. */
static int module_next(FILE *fp, char *name, size_t len)
{
	char line[256];

	while (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		script_word(line, name, len);
		return 1;
	}
	return 0;
}

/*
 * A list's modules loaded, each once (virtio_pci is the disk's and the
 * cards'); the module named own with args (a script's words) after it.
 */
static void insmod_script(FILE *fp, const struct vm_guest *g, const char *list,
			  const char *own, const char *args)
{
	FILE *in = module_list(g, list);
	char name[128];

	while (module_next(in, name, sizeof(name)))
		fprintf(fp, "[ -d /sys/module/%s ] || insmod /latlab/mod/%s.ko%s%s || echo 'latlab init: insmod %s failed' > /dev/kmsg\n",
			name, name, own && strcmp(name, own) == 0 ? " " : "",
			own && strcmp(name, own) == 0 ? args : "", name);
	if (in)
		fclose(in);
}

/*
 * The modelled disk (disk = modelled): null_blk, memory-backed, one
 * device of 4 KiB blocks on one queue, each request completed by its
 * hrtimer (irqmode 2) disk_time after it is queued — a timer of the
 * guest's own clock, so that the wait is the model's on any clock. Its
 * filesystem, made on the host (vm_disk_pack), written onto it block run
 * by block run, then mounted at VM_DISK_MOUNT; a disk that does not come
 * up is said, and its cells skipped as the virtio disk's are.
 */
static void modelled_script(FILE *fp, const struct vm_guest *g)
{
	const struct kernel_def *k = &g->cfg->kernel[g->variant];
	char args[256];
	long long gib = (k->disk_size + (1LL << 30) - 1) >> 30;

	snprintf(args, sizeof(args),
		 "nr_devices=1 queue_mode=2 submit_queues=1 irqmode=2 completion_nsec=%lld hw_queue_depth=%lld memory_backed=1 bs=%d gb=%lld",
		 (long long)k->disk_time, (long long)k->disk_depth, VM_DISK_BLOCK, gib);
	insmod_script(fp, g, "nullb.list", "null_blk", args);
	fprintf(fp, "i=0; while [ ! -b /dev/nullb0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done\n"
		"ok=0; [ -b /dev/nullb0 ] && ok=1; skip=0\n"
		"while [ $ok = 1 ] && read -r at n; do\n"
		"\tdd if=/latlab/disk.img of=/dev/nullb0 bs=%d skip=$skip seek=$at count=$n conv=notrunc 2>/dev/null || ok=0\n"
		"\tskip=$((skip + n))\n"
		"done < /latlab/disk.map\n"
		"rm -f /latlab/disk.img\n"
		"sync\n"
		"if [ $ok = 1 ] && mount -t ext4 /dev/nullb0 " VM_DISK_MOUNT " > /dev/kmsg 2>&1; then\n"
		"\techo \"latlab init: the modelled disk /dev/nullb0 (null_blk, ext4; completion_nsec $(cat /sys/module/null_blk/parameters/completion_nsec), irqmode $(cat /sys/module/null_blk/parameters/irqmode)) is mounted at " VM_DISK_MOUNT "\" > /dev/kmsg\n"
		"else\n"
		"\techo 'latlab init: the modelled disk did not come up (no /dev/nullb0, its filesystem not written, or it did not mount): its cells are skipped' > /dev/kmsg\n"
		"fi\n",
		VM_DISK_BLOCK);
}

/*
 * The disk's modules loaded, /dev/vda waited for (5 s of guest time) and
 * mounted at VM_DISK_MOUNT. A disk that does not come up is said on the
 * console; the guest's latlab then skips the cells that need it
 * (where_fits), never measuring them on RAM.
 */
static void disk_script(FILE *fp, const struct vm_guest *g)
{
	insmod_script(fp, g, "disk.list", NULL, NULL);
	fprintf(fp, "i=0; while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done\n"
		"if mount -t ext4 /dev/vda " VM_DISK_MOUNT " > /dev/kmsg 2>&1; then\n"
		"\techo 'latlab init: the disk /dev/vda (ext4) is mounted at " VM_DISK_MOUNT "' > /dev/kmsg\n"
		"else\n"
		"\techo 'latlab init: the disk did not come up (no /dev/vda, or it did not mount): its cells are skipped' > /dev/kmsg\n"
		"fi\n");
}

/*
 * The peer's side of the guest's network: the interface $twin moved into
 * the network namespace of a process that only sleeps, where the peers'
 * sockets are made (netpeer.h), and $self kept here, so that a packet
 * between them crosses from one to the other; NETPEER_ENV says where the
 * peer is (with $kind, "veth", after it for the pair). What came up is
 * said on the console (said: the network, with $self and $twin in it);
 * without it (missing) the guest's latlab skips the cells that need it.
 */
static void peer_ns_script(FILE *fp, const char *said, const char *missing)
{
	fprintf(fp, "if [ -n \"$twin\" ] && [ \"$twin\" != \"$self\" ]; then\n"
		"\tunshare -n sleep 2147483647 &\n"
		"\tpeer=$!\n"
		"\ti=0; while [ \"$(readlink /proc/$peer/ns/net)\" = \"$(readlink /proc/self/ns/net)\" ] && [ $i -lt 100 ]; do sleep 0.01; i=$((i + 1)); done\n"
		"\tip link set $twin netns $peer\n"
		"\tnsenter -t $peer -n sh -c \"ip link set lo up; ip addr add " VM_NET_PEER "/24 dev $twin; ip link set $twin up\"\n"
		"\tip addr add " VM_NET_SELF "/24 dev $self; ip link set $self up\n"
		"\texport " NETPEER_ENV "=\"/proc/$peer/ns/net " VM_NET_PEER "${kind:+ $kind}\"\n"
		"\techo \"latlab init: the network: %s in the namespace of pid $peer\" > /dev/kmsg\n"
		"else\n"
		"\techo 'latlab init: %s: its cells are skipped' > /dev/kmsg\n"
		"fi\n",
		said, missing);
}

/*
 * The two cards (vm.c: on one hub inside qemu): eth0 here, eth1 the
 * peer's, so that a packet between them leaves one card and arrives on
 * the other.
 */
static void net_script(FILE *fp, const struct vm_guest *g)
{
	insmod_script(fp, g, "net.list", NULL, NULL);
	fprintf(fp, "i=0; while [ ! -e /sys/class/net/eth1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done\n"
		"self=eth0; twin=; kind=; [ -e /sys/class/net/eth1 ] && twin=eth1\n");
	peer_ns_script(fp, "$self " VM_NET_SELF ", its peer " VM_NET_PEER " behind $twin",
		       "no second network card (eth1)");
}

/*
 * The veth pair (net = veth): lv0 here, its twin the peer's, so that a
 * packet between them crosses the pair — veth's transmit and the
 * receiving softirq, no device or its interrupt. busybox's ip names the
 * twin itself (vethN): found by the link lv0 names.
 */
static void veth_script(FILE *fp, const struct vm_guest *g)
{
	insmod_script(fp, g, "veth.list", NULL, NULL);
	fprintf(fp, "self=lv0; twin=; kind=veth\n"
		"if ip link add name lv0 type veth 2>/dev/null; then\n"
		"\tpeer_idx=$(cat /sys/class/net/lv0/iflink)\n"
		"\tfor n in /sys/class/net/*; do [ \"$(cat $n/ifindex)\" = \"$peer_idx\" ] && twin=${n##*/}; done\n"
		"fi\n");
	peer_ns_script(fp, "a veth pair, $self " VM_NET_SELF ", its peer " VM_NET_PEER " behind $twin",
		       "no veth pair (the veth module, or ip link add)");
}

static char *init_script(const struct vm_guest *g)
{
	const struct kernel_def *k = &g->cfg->kernel[g->variant];
	char *text = NULL, word[OPT_STR_MAX];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	char host[128], mod[OPT_STR_MAX];
	int n = 0;

	if (!fp)
		return NULL;
	script_word(g->hostname, host, sizeof(host));
	fprintf(fp, "#!/bin/busybox sh\n"
		"# written by latlab: the init of a guest that measures kernel variant %s\n"
		"/bin/busybox mkdir -p /proc /sys /dev /tmp /var/tmp /run /sbin /usr/bin /usr/sbin /results\n"
		"/bin/busybox mount -t proc proc /proc\n"
		"/bin/busybox mount -t sysfs sysfs /sys\n"
		"/bin/busybox mount -t devtmpfs devtmpfs /dev\n"
		"/bin/busybox mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null\n"
		/* [matrix] isolation's cpusets: cgroup v2, as a systemd machine mounts it */
		"/bin/busybox mount -t cgroup2 nodev /sys/fs/cgroup 2>/dev/null\n"
		/* sched/preempt: the model a PREEMPT_DYNAMIC kernel runs */
		"/bin/busybox mount -t debugfs nodev /sys/kernel/debug 2>/dev/null\n"
		"/bin/busybox --install -s\n"
		"export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/usr/local/bin:/usr/local/sbin HOME=/\n"
		"hostname %s\n"
		"ip link set lo up\n",
		k->name, host);
	for (const char *p = k->modules; (p = next_word(p, word, sizeof(word))); n++) {
		script_word(base_name(word), mod, sizeof(mod));
		fprintf(fp, "insmod /latlab/modules/%d.ko || echo 'latlab init: insmod %s failed' > /dev/kmsg\n",
			n, mod);
	}
	if (g->disk && k->disk == DISK_MODELLED)
		modelled_script(fp, g);
	else if (g->disk)
		disk_script(fp, g);
	if (g->net)
		net_script(fp, g);
	if (g->veth)
		veth_script(fp, g);
	/* the log goes to the host over the channel; kmsg keeps a copy in
	 * the console log */
	fprintf(fp, "/bin/latlab run " VM_CONFIG_PATH " -o /results --guest %s --guest-accel %s --guest-cells /latlab/cells > /dev/kmsg 2>&1\n"
		"echo \"latlab init: latlab exited with $?\" > /dev/kmsg\n"
		/* the block device's own count: that the I/O reached it */
		"[ ! -e /sys/block/vda/stat ] || echo \"latlab init: vda stat $(cat /sys/block/vda/stat)\" > /dev/kmsg\n"
		"[ ! -e /sys/block/nullb0/stat ] || echo \"latlab init: nullb0 stat $(cat /sys/block/nullb0/stat)\" > /dev/kmsg\n"
		/* the cards' interrupts: that the traffic crossed them */
		"grep -E 'virtio[0-9]+-(input|output)' /proc/interrupts | while read -r l; do echo \"latlab init: irq $l\" > /dev/kmsg; done\n"
		"sync\n"
		"poweroff -f\n",
		k->name, g->accel == ACCEL_KVM ? "kvm" : "tcg");
	fclose(fp);
	return text;
}

/* The program a workload has the guest given (workload_ops.carries): 0 and
 * its first word, or -ENOENT for none. */
static int carried_program(const struct workload_def *wd, char *prog, size_t len)
{
	const char *key;
	const char *cmd = wd->ops && wd->ops->carries ? wd->ops->carries(wd->opts, &key) : NULL;

	return cmd && argv_first(cmd, prog, len) == 0 ? 0 : -ENOENT;
}

/* The largest module taken into a guest (Debian's largest are a few MiB) */
#define MODULE_MAX (64u << 20)

/*
 * What the workloads load (plugins), each once, with the loader this
 * machine's programs have: a static guest latlab loads them through it
 * too (dir: where latlab is). 0, or -errno with err.
 */
static int add_loaded(struct cpio *a, const struct vm_guest *g, const char *dir,
		      const struct vm_arch *arch, char *err, size_t errlen)
{
	char bin[PATH_MAX + 16];
	int rc = 0;

	for (int i = 0; rc == 0 && i < g->cfg->nworkloads; i++) {
		const struct workload_def *wd = &g->cfg->workload[i];
		char interp[PATH_MAX] = "/lib64/ld-linux-x86-64.so.2";

		const char *so = wd->ops && wd->ops->loads ? wd->ops->loads(wd->opts) : NULL;
		int seen = 0;

		/* once each (a chain names its plugin step's, which is a definition too) */
		for (int j = 0; so && j < i; j++) {
			const struct workload_def *w2 = &g->cfg->workload[j];

			seen |= w2->ops && w2->ops->loads && w2->ops->loads(w2->opts) &&
				strcmp(w2->ops->loads(w2->opts), so) == 0;
		}
		if (!so || seen)
			continue;
		snprintf(bin, sizeof(bin), "%s/latlab", dir);
		if (vm_program_fits(bin, arch, interp, sizeof(interp)) == 0)
			snprintf(interp, sizeof(interp), "/lib64/ld-linux-x86-64.so.2");
		rc = add_shared(a, so, interp, arch, err, errlen);
	}
	return rc;
}

/*
 * The programs the workloads run (cyclictest, a watched command), each
 * once, at the path PATH finds them at here, with their libraries.
 * 0, or -errno with err.
 */
static int add_carried(struct cpio *a, const struct vm_guest *g, const struct vm_arch *arch,
		       char *err, size_t errlen)
{
	int rc = 0;

	for (int i = 0; rc == 0 && i < g->cfg->nworkloads; i++) {
		char prog[OPT_STR_MAX], found[PATH_MAX];
		int seen = 0;

		if (carried_program(&g->cfg->workload[i], prog, sizeof(prog)) != 0)
			continue;
		for (int j = 0; j < i; j++) {
			char other[OPT_STR_MAX];

			seen |= carried_program(&g->cfg->workload[j], other, sizeof(other)) == 0 &&
				strcmp(other, prog) == 0;
		}
		/* one this machine has not is a section no cell of the guest's
		 * uses: campaign/where.c refuses a cell that names it first */
		if (seen || path_lookup(prog, found, sizeof(found)) != 0)
			continue;
		rc = add_program(a, found + 1, found, arch, err, errlen);
	}
	return rc;
}

/*
 * The variant's modules (modules =, in its order) and the devices'
 * (a disk's, the cards', a veth pair's: each once, whichever list names
 * it). 0, or -errno with err.
 */
static int add_modules(struct cpio *a, const struct vm_guest *g, char *err, size_t errlen)
{
	const struct kernel_def *k = &g->cfg->kernel[g->variant];
	char word[OPT_STR_MAX];
	int rc = 0, n = 0;

	for (const char *p = k->modules; rc == 0 && (p = next_word(p, word, sizeof(word)));) {
		char name[OPT_STR_MAX + 32];

		snprintf(name, sizeof(name), "latlab/modules/%d.ko", n++);
		rc = cpio_file(a, name, word);
		if (rc)
			fail_with(err, errlen, rc, "[kernel.%s] modules: %s: %s", k->name,
			     word, strerror(-rc));
	}
	/* the devices' modules, each once, whichever list names it */
	const char *lists[3] = { g->disk ? vm_disk_modules(k) : NULL, g->net ? "net.list" : NULL,
				 g->veth ? "veth.list" : NULL };

	for (int l = 0; rc == 0 && l < 3; l++) {
		FILE *list = lists[l] ? module_list(g, lists[l]) : NULL;

		if (lists[l] && g->device_modules && !list)
			rc = fail_with(err, errlen, -ENOENT, "%s/%s: %s", g->device_modules,
				       lists[l], strerror(errno));
		while (rc == 0 && module_next(list, word, sizeof(word))) {
			char name[OPT_STR_MAX + 32], from[PATH_MAX + OPT_STR_MAX + 8];

			snprintf(name, sizeof(name), "latlab/mod/%s.ko", word);
			snprintf(from, sizeof(from), "%s/%s.ko", g->device_modules, word);
			/* a name, a regular file there itself (never a link to root's), bounded */
			rc = strchr(word, '/') || !word[0] ? -EINVAL :
			     cpio_file_checked(a, name, from, 1, MODULE_MAX);
			if (rc)
				fail_with(err, errlen, rc, "[kernel.%s] %s: %s: %s%s", k->name,
					  l ? "net" : "disk", from, strerror(-rc),
					  rc == -ELOOP ? " (a symbolic link: a module is taken from its own folder only)" :
					  rc == -EINVAL ? " (not a regular file)" : "");
		}
		if (list)
			fclose(list);
	}
	return rc;
}

int vm_initramfs(const struct vm_guest *g, const char *path, char *err,
		 size_t errlen)
{
	const struct kernel_def *k = &g->cfg->kernel[g->variant];
	const struct vm_arch *arch = vm_arch(k);
	char dir[PATH_MAX], bin[PATH_MAX + 16], bb[PATH_MAX];
	struct cpio a;
	char *init;
	int rc;

	/* another architecture's are named in the config (check_arch) */
	if (k->busybox[0])
		snprintf(bb, sizeof(bb), "%s", k->busybox);
	else if (find_busybox(bb, sizeof(bb)) != 0)
		return fail_with(err, errlen, -ENOENT,
			    "no static busybox (/bin/busybox): install busybox-static (make deps)");
	if (k->programs[0])
		snprintf(dir, sizeof(dir), "%s", k->programs);
	else if (self_dir(dir, sizeof(dir)) != 0)
		return fail_with(err, errlen, -ENOENT, "cannot find latlab's own directory");
	FILE *fp = fopen(path, "wbe");
	if (!fp)
		return fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	cpio_start(&a, fp);
	rc = add_program(&a, "bin/busybox", bb, arch, err, errlen);
	snprintf(bin, sizeof(bin), "%s/latlab", dir);
	if (rc == 0)
		rc = add_program(&a, "bin/latlab", bin, arch, err, errlen);
	snprintf(bin, sizeof(bin), "%s/latload", dir);
	if (rc == 0)
		rc = add_program(&a, "bin/latload", bin, arch, err, errlen);
	if (rc == 0)
		rc = add_loaded(&a, g, dir, arch, err, errlen);
	if (rc == 0)
		rc = add_carried(&a, g, arch, err, errlen);
	if (rc == 0)
		rc = add_modules(&a, g, err, errlen);
	/*
	 * the archive's own write failed: the disk under it, whatever was
	 * being added (a full tmpfs was said as ext4.ko's fault)
	 */
	if (rc && a.err)
		fail_with(err, errlen, a.err, "writing the guest's initramfs %s: %s", path,
			  strerror(-a.err));
	/* the modelled disk's filesystem, written onto it at boot */
	if (rc == 0 && g->pack)
		rc = cpio_data(&a, "latlab/disk.img", 0644, g->pack->data, g->pack->datalen);
	if (rc == 0 && g->pack)
		rc = cpio_data(&a, "latlab/disk.map", 0644, g->pack->map, g->pack->maplen);
	init = rc ? NULL : init_script(g);
	if (rc == 0 && !init)
		rc = fail_with(err, errlen, -ENOMEM, "out of memory");
	if (rc == 0)
		rc = cpio_data(&a, "init", 0755, init, strlen(init));
	free(init);
	if (rc == 0)
		rc = cpio_data(&a, VM_CONFIG_PATH + 1, 0644, g->config_text,
			       strlen(g->config_text));
	if (rc == 0)
		rc = cpio_data(&a, "latlab/cells", 0644, g->cells_text,
			       strlen(g->cells_text));
	if (rc == 0 && (rc = cpio_finish(&a)) != 0)
		fail_with(err, errlen, rc, "writing the guest's initramfs %s: %s", path, strerror(-rc));
	else if (rc)
		cpio_finish(&a);
	/* the kernel unpacks concatenated archives (a full disk: the archive's) */
	if (rc == 0 && k->initrd[0] && (rc = file_append(fp, k->initrd)) != 0) {
		if (rc == -ENOSPC || rc == -EDQUOT)
			fail_with(err, errlen, rc, "writing the guest's initramfs %s: [kernel.%s] initrd %s: %s",
				  path, k->name, k->initrd, strerror(-rc));
		else
			fail_with(err, errlen, rc, "[kernel.%s] initrd: %s: %s", k->name, k->initrd,
				  strerror(-rc));
	}
	if (fclose(fp) != 0 && rc == 0)
		rc = fail_with(err, errlen, -errno, "writing the guest's initramfs %s: %s", path,
			       strerror(errno));
	if (rc)
		unlink(path);
	return rc;
}
