#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "argv.h"
#include "files.h"
#include "log.h"
#include "units.h"
#include "vm.h"

/*
 * x86_64: the pc machine, the channel on isa-debugcon's port (guest.h).
 * arm64: the virt machine, the channel on a pci-serial (a 16550 on its
 * PCI bus; Debian's arm64 kernels build its driver in). Both devices
 * carry bytes from the guest to a pipe and nothing else: no semihosting,
 * no monitor, no host file a guest can name (docs/boards.md).
 *
 * Under TCG the arm64 CPU signs its pointers with qemu's own cheap
 * algorithm (pauth-impdef) instead of an emulated QARMA5: Debian's arm64
 * kernels authenticate every return (ARM64_PTR_AUTH_KERNEL), and a boot
 * with a 1 s cell took 22.5-26.2 s with QARMA5, 6.7-7.5 s without
 * (docs/boards.md). Pointer authentication itself is unchanged.
 */
static const struct vm_arch arches[] = {
	[VM_ARCH_X86_64] = { "x86_64", "qemu-system-x86_64", "qemu-system-x86",
			     "pc", "ttyS0", "max", EM_X86_64, 0, NULL },
	[VM_ARCH_ARM64] = { "arm64", "qemu-system-aarch64", "qemu-system-arm",
			    "virt", "ttyAMA0", "max,pauth-impdef=on", EM_AARCH64, 1,
			    "aarch64-linux-gnu-" },
};

int vm_guest_node(const struct kernel_def *k, int node, int64_t *first, int64_t *last,
		  int64_t *mib)
{
	int64_t nodes = k->numa_nodes > 0 ? k->numa_nodes : 1;
	int64_t cpn = k->cpus / nodes, share = (k->memory >> 20) / nodes;

	if (node < 0 || node >= nodes)
		return -ENOENT;
	*first = node * cpn;
	*last = node == nodes - 1 ? k->cpus - 1 : *first + cpn - 1;
	*mib = node == nodes - 1 ? (k->memory >> 20) - share * (nodes - 1) : share;
	return 0;
}

const struct vm_arch *vm_arch(const struct kernel_def *k)
{
	return &arches[k->arch == VM_ARCH_ARM64 ? VM_ARCH_ARM64 : VM_ARCH_X86_64];
}

int vm_arch_native(const struct kernel_def *k)
{
	return k->arch == VM_ARCH_HOST;
}

/* after "done", the guest powers off; this long at most */
#define POWEROFF_NS (30 * NS_PER_S)

int vm_kvm_present(void)
{
	/* testing aid: another file stands for /dev/kvm (docs/campaigns.md) */
	const char *dev = getenv("LATLAB_KVM_DEVICE");
	int fd = open(dev && *dev ? dev : "/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * A path as a value of qemu's KEY=VALUE,... options: a comma doubled (its
 * syntax's escape), so that "o,file=VICTIM" stays one path and never
 * becomes another option (attack-5 guest/09: a crafted output directory
 * made a host file the guest's disk). 0, or -ENAMETOOLONG.
 */
int vm_qemu_opt_value(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in; in++) {
		if (o + (*in == ',' ? 2 : 1) >= len)	/* and the NUL */
			return -ENAMETOOLONG;
		if (*in == ',')
			out[o++] = ',';
		out[o++] = *in;
	}
	if (o >= len)
		return -ENAMETOOLONG;
	out[o] = '\0';
	return 0;
}

/*
 * The command qemu runs, for the first line of its log: "# qemu command:"
 * and each word single-quoted where the shell would split or expand it.
 * What qemu_args added (a netdev, a disk of its own) is there for the
 * reader; last_line skips it. Made before the fork: the child of a
 * process with threads may not allocate. NULL when out of memory.
 */
static char *command_text(const char *const *argv)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_=,./:@+%";
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return NULL;
	fputs("# qemu command:", fp);
	for (size_t i = 0; argv[i]; i++) {
		const char *w = argv[i];

		if (w[0] && !w[strspn(w, plain)]) {
			fprintf(fp, " %s", w);
			continue;
		}
		fputs(" '", fp);
		for (; *w; w++)
			if (*w == '\'')
				fputs("'\\''", fp);
			else
				fputc(*w, fp);
		fputc('\'', fp);
	}
	fputc('\n', fp);
	if (fclose(fp) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* What qemu's device arguments point into: they live until the exec. */
struct qemu_bufs {
	char numa[8][2][160];
	char drive[2 * PATH_MAX + 128];
	char path[2 * PATH_MAX];
};

/*
 * The guest's devices onto argv at *n: its NUMA nodes (the CPUs and
 * memory split evenly, node i its own share), its disk (virtio-blk on
 * PCI, raw, its cache mode as configured), its two cards. 0, or -1.
 */
static int qemu_devices(const struct vm_boot *b, const struct kernel_def *k, const char **argv,
			size_t *n, struct qemu_bufs *q)
{
	for (int i = 0; i < k->numa_nodes && k->numa_nodes > 1 && i < 8; i++) {
		int64_t first, last, mib;

		vm_guest_node(k, i, &first, &last, &mib);
		snprintf(q->numa[i][0], sizeof(q->numa[i][0]), "memory-backend-ram,id=latlab-m%d,size=%lldM",
			 i, (long long)mib);
		snprintf(q->numa[i][1], sizeof(q->numa[i][1]), "node,nodeid=%d,cpus=%lld-%lld,memdev=latlab-m%d",
			 i, (long long)first, (long long)last, i);
		argv[(*n)++] = "-object";
		argv[(*n)++] = q->numa[i][0];
		argv[(*n)++] = "-numa";
		argv[(*n)++] = q->numa[i][1];
	}
	if (b->disk) {
		if (vm_qemu_opt_value(b->disk, q->path, sizeof(q->path)) != 0)
			return -1;
		snprintf(q->drive, sizeof(q->drive), "file=%s,if=none,id=latlab-disk,format=raw,cache=%s",
			 q->path, vm_disk_caches[k->disk_cache]);
		argv[(*n)++] = "-drive";
		argv[(*n)++] = q->drive;
		argv[(*n)++] = "-device";
		argv[(*n)++] = "virtio-blk-pci,drive=latlab-disk";
	}
	/*
	 * two cards on one hub of qemu's own: what one sends, the other
	 * receives, with its interrupt; no backend leaves qemu, so nothing
	 * the guest sends reaches the host (the guest's peer: initramfs.c)
	 */
	static const char *const cards[] = {
		"-netdev", "hubport,id=latlab-n0,hubid=0",
		"-device", "virtio-net-pci,netdev=latlab-n0,mac=52:54:00:4c:4c:00",
		"-netdev", "hubport,id=latlab-n1,hubid=0",
		"-device", "virtio-net-pci,netdev=latlab-n1,mac=52:54:00:4c:4c:01",
	};

	for (size_t i = 0; b->net && i < sizeof(cards) / sizeof(cards[0]); i++)
		argv[(*n)++] = cards[i];
	return 0;
}

/*
 * The child: qemu in its own process group, gone when latlab goes, its
 * output (after its command line) to b->qemu_log, the data pipe kept
 * open across the exec (qemu opens /dev/fd/N).
 */
static void qemu_child(const struct vm_boot *b, const char *qemu, const char **argv,
		       const char *command, int data_fd) __attribute__((noreturn));

void vm_child_begin(int log)
{
	sigset_t none;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (null >= 0)
		dup2(null, 0);
	if (log >= 0) {
		dup2(log, 1);
		dup2(log, 2);
	}
}

static void qemu_child(const struct vm_boot *b, const char *qemu, const char **argv,
		       const char *command, int data_fd)
{
	int log = open(b->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);

	vm_child_begin(log);
	fcntl(data_fd, F_SETFD, 0);
	if (log >= 0 && command && write(log, command, strlen(command)) < 0)
		_exit(127);
	execvp(qemu, (char *const *)argv);
	dprintf(2, "latlab: cannot run %s: %s\n", qemu, strerror(errno));
	_exit(127);
}

/* qemu with the guest's channel on data_fd; its own output to b->qemu_log. */
static pid_t start_qemu(const struct vm_boot *b, int data_fd)
{
	const struct kernel_def *k = &b->cfg->kernel[b->variant];
	int accel = b->accel;
	const struct vm_arch *arch = vm_arch(k);
	char smp[32], mem[32], console[2 * PATH_MAX + 64], path[2 * PATH_MAX],
		append[OPT_STR_MAX + 128];
	char chardev[64];
	struct qemu_bufs q;

	snprintf(smp, sizeof(smp), "%lld", (long long)k->cpus);
	snprintf(mem, sizeof(mem), "%lldM", (long long)(k->memory >> 20));
	/* the console: a chardev, its path a value of qemu's syntax (commas doubled) */
	if (vm_qemu_opt_value(b->console_log, path, sizeof(path)) != 0)
		return -1;
	snprintf(console, sizeof(console), "file,id=latlab-console,path=%s", path);
	snprintf(chardev, sizeof(chardev), "file,id=latlab,path=/dev/fd/%d", data_fd);
	snprintf(append, sizeof(append), "console=%s panic=-1 printk.devkmsg=on %s",
		 arch->console, k->append);
	/* the channel (guest.h): an x86 port, or a serial port on PCI */
	const char *const port[] = { "-chardev", chardev, "-device",
				     "isa-debugcon,chardev=latlab,iobase=0xe9", NULL };
	const char *const pci[] = { "-chardev", chardev, "-device",
				    "pci-serial,chardev=latlab", NULL };
	const char *const *channel = arch->pci_serial ? pci : port;
	/* instruction time: 2^shift ns an instruction, idle time skipped,
	 * never slowed to the host's pace (docs/campaigns.md) */
	char icount[64];

	snprintf(icount, sizeof(icount), "shift=%lld,sleep=off,align=off",
		 (long long)k->icount_shift);
	const char *const fixed[] = {
		arch->qemu, "-machine", arch->machine,
		"-accel", accel == ACCEL_KVM ? "kvm" : "tcg",
		"-cpu", accel == ACCEL_KVM ? "host" : arch->tcg_cpu,
		"-smp", smp, "-m", mem,
		"-nodefaults", "-no-user-config", "-display", "none",
		"-no-reboot",		/* a panic (panic=-1) ends qemu */
		"-chardev", console,	/* the console, to console_log */
		"-serial", "chardev:latlab-console",
		"-kernel", b->kernel, "-initrd", b->initramfs, "-append", append,
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), n = nfixed;
	char **extra = NULL;
	int nextra = 0;

	/* qemu_args = was checked with the config */
	if (k->qemu_args[0] && argv_split(k->qemu_args, &extra, &nextra) != 0)
		return -1;
	const char **argv = calloc(nfixed + 6 + 4 * 8 + 4 + 8 + (size_t)nextra + 1, sizeof(*argv));
	if (!argv) {
		free(extra);
		return -1;
	}
	memcpy(argv, fixed, sizeof(fixed));
	while (*channel)
		argv[n++] = *channel++;
	if (k->clock == CLOCK_ICOUNT) {
		argv[n++] = "-icount";
		argv[n++] = icount;
	}
	if (qemu_devices(b, k, argv, &n, &q) != 0) {
		free(argv);
		free(extra);
		return -1;
	}
	for (int i = 0; i < nextra; i++)
		argv[n++] = extra[i];

	char *command = command_text(argv);
	pid_t pid = fork();
	if (pid != 0) {
		free(command);
		free(argv);
		free(extra);
		return pid;
	}
	qemu_child(b, arch->qemu, argv, command, data_fd);
}

/*
 * Wait up to grace_ns for qemu to end by itself, then SIGTERM, then after
 * 3 s SIGKILL. Returns its wait status.
 */
static int stop_qemu(pid_t pid, int64_t grace_ns)
{
	static const int signals[] = { 0, SIGTERM, SIGKILL };
	int st = 0;

	for (size_t s = 0; s < sizeof(signals) / sizeof(signals[0]); s++) {
		int last = signals[s] == SIGKILL;
		int64_t end = units_now_ns() + (s == 0 ? grace_ns : 3 * NS_PER_S);

		if (signals[s])
			kill(pid, signals[s]);
		for (;;) {
			pid_t w = waitpid(pid, &st, last ? 0 : WNOHANG);

			if (w == pid || (w < 0 && errno != EINTR))
				return st;
			if (!last && units_now_ns() > end)
				break;
			usleep(20000);
		}
	}
	return st;
}

/* The last line of a small log file, for an error message. */
void vm_hung_context(const struct vm_boot *b, char *out, size_t len)
{
	char last[512];
	size_t n;

	file_last_line(b->console_log, NULL, last, sizeof(last));
	n = strlen(last);
	while (n && (last[n - 1] == '\r' || last[n - 1] == ' '))
		last[--n] = '\0';	/* a serial console's line ends CR LF */
	for (n = 0; last[n] && n < 100; n++)
		if (last[n] < 0x20 || last[n] > 0x7e || last[n] == '\'')
			last[n] = '?';
	last[n] = '\0';
	snprintf(out, len, "; its devices: %s; its console's last line: %s%.100s%s",
		 b->disk && b->net ? "a virtio disk and two cards" :
		 b->disk	  ? "a virtio disk" :
		 b->net		  ? "two virtio-net cards" :
				    "none of qemu's",
		 last[0] ? "'" : "none", last, last[0] ? "'" : "");
}

int vm_boot(const struct vm_boot *b, const struct vm_hooks *h,
	    struct vm_outcome *out)
{
	const struct kernel_def *k = &b->cfg->kernel[b->variant];
	struct vm_read_opts o = {
		.tree = b->tree,
		.variant = k->name,
		.boot_ns = b->boot_timeout,
		.cell_ns = b->cfg->campaign.duration + k->timeout,
		.quiet_ns = k->timeout,
		.cell_bytes_max = b->cell_bytes_max,
	};
	int pipefd[2];
	char t[32];

	memset(out, 0, sizeof(*out));
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -errno;
	int64_t start = units_now_ns();
	pid_t pid = start_qemu(b, pipefd[1]);
	close(pipefd[1]);
	if (pid < 0) {
		int rc = -errno;

		close(pipefd[0]);
		return rc;
	}
	o.qemu = pid;
	o.host = b->hostname;
	o.icount = k->clock == CLOCK_ICOUNT;
	enum vm_end end = vm_read(pipefd[0], &o, h, out);
	switch (end) {
	case VM_END_DONE:
	case VM_END_HOST:
		break;
	case VM_END_STOPPED:
		snprintf(out->why, sizeof(out->why), "stopped by a signal");
		break;
	case VM_END_EOF: {
		char last[256];

		/* qemu ended on its own: a panic (panic=-1 and -no-reboot),
		 * a triple fault, or qemu refused */
		file_last_line(b->qemu_log, NULL, last, sizeof(last));
		snprintf(out->why, sizeof(out->why), "the guest stopped%s%s%s",
			 out->hello ? "" : " before latlab started in it",
			 last[0] ? ": qemu: " : " (kernel panic? see the console log)",
			 last);
		break;
	}
	case VM_END_QUIET: {
		char ran[160];

		/* what the quiet was, by the host's clock and qemu's share of it */
		snprintf(ran, sizeof(ran), "; qemu ran %.1f s of the %.1f s it waited%s",
			 (double)out->quiet_cpu_ns / NS_PER_S, (double)out->quiet_wall_ns / NS_PER_S,
			 out->quiet_cpu_ns * 2 < out->quiet_wall_ns ?
			 ": the host gave it little time, and it was waited on 10 times its bound" : "");
		if (!out->hello) {
			units_format_duration(b->boot_timeout, t, sizeof(t));
			snprintf(out->why, sizeof(out->why),
				 "the guest did not start latlab within %s (boot_timeout)%s", t,
				 out->quiet_wall_ns ? ran : "");
			break;
		}
		/*
		 * qemu pauses a guest whose disk the host cannot write
		 * (werror=enospc): a disk that could not be reserved
		 * (vm_disk_make) on a host filesystem now full is the host's
		 * failure, said as such; the cell is not the guest's to fail
		 */
		if (b->disk && vm_disk_may_pause(b->disk)) {
			out->host_errno = ENOSPC;
			out->paused = 1;
			snprintf(out->why, sizeof(out->why),
				 "the host's filesystem holding the guest's disk (%.300s) is full: qemu pauses a guest whose disk it cannot write, so the guest did not hang",
				 b->disk);
			break;
		}
		char context[256];

		units_format_duration(out->running[0] ? o.cell_ns : k->timeout, t, sizeof(t));
		vm_hung_context(b, context, sizeof(context));
		snprintf(out->why, sizeof(out->why),
			 "the guest hung: no word from it for %s%s%s%s", t,
			 out->running[0] ? " (duration + timeout)" : " (timeout)",
			 out->quiet_wall_ns ? ran : "", context);
		break;
	}
	}
	close(pipefd[0]);
	stop_qemu(pid, out->done ? POWEROFF_NS : 0);
	int64_t stop = units_now_ns();

	out->wall_ns = stop - start;
	out->up_ns = out->hello_at ? out->hello_at - start : 0;
	out->down_ns = out->done_at ? stop - out->done_at : 0;
	return 0;
}
