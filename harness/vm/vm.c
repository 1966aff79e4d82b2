#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "argv.h"
#include "model.h"
#include "cpio.h"
#include "files.h"
#include "channel.h"
#include "log.h"
#include "results.h"
#include "units.h"
#include "vm.h"

#define QEMU "qemu-system-x86_64"
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
 * The program interpreter (PT_INTERP) of an ELF file: 1 with interp
 * filled for a dynamic executable, 0 for a static one, -errno.
 */
static int elf_interp(const char *path, char *interp, size_t len)
{
	Elf64_Ehdr eh;
	FILE *fp = fopen(path, "rbe");
	int rc = 0;

	if (!fp)
		return -errno;
	if (fread(&eh, sizeof(eh), 1, fp) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
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

/*
 * Put binary at name in the archive, and with a dynamic one its
 * interpreter and every library it loads, at the paths the loader asks
 * for (`ld.so --list`, which reads the binary without running it).
 */
static int add_program(struct cpio *a, const char *name, const char *binary,
		       char *err, size_t errlen)
{
	char interp[PATH_MAX], line[PATH_MAX + 128];
	int pipefd[2], st, rc;

	rc = cpio_file(a, name, binary);
	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", binary, strerror(-rc));
	rc = elf_interp(binary, interp, sizeof(interp));
	if (rc <= 0)
		return rc == 0 ? 0 : fail_with(err, errlen, rc, "%s: not an x86-64 ELF program", binary);
	rc = cpio_file(a, interp, interp);
	if (rc)
		return fail_with(err, errlen, rc, "%s: %s", interp, strerror(-rc));
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

/* A busybox that runs with no library: Debian's busybox-static. */
static int find_busybox(char *path, size_t len)
{
	static const char *const where[] = { "/bin/busybox", "/usr/bin/busybox" };
	char interp[PATH_MAX];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (elf_interp(where[i], interp, sizeof(interp)) == 0) {
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
		"/bin/busybox --install -s\n"
		"export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/\n"
		"hostname %s\n"
		"ip link set lo up\n",
		k->name, host);
	for (const char *p = k->modules; (p = next_word(p, word, sizeof(word))); n++) {
		script_word(base_name(word), mod, sizeof(mod));
		fprintf(fp, "insmod /latlab/modules/%d.ko || echo 'latlab init: insmod %s failed' > /dev/kmsg\n",
			n, mod);
	}
	/* the log goes to the host over the channel; kmsg keeps a copy in
	 * the console log */
	fprintf(fp, "/bin/latlab run /latlab/config.ini -o /results --guest %s --guest-accel %s --guest-cells /latlab/cells > /dev/kmsg 2>&1\n"
		"echo \"latlab init: latlab exited with $?\" > /dev/kmsg\n"
		"sync\n"
		"poweroff -f\n",
		k->name, g->accel == ACCEL_KVM ? "kvm" : "tcg");
	fclose(fp);
	return text;
}

int vm_initramfs(const struct vm_guest *g, const char *path, char *err,
		 size_t errlen)
{
	const struct kernel_def *k = &g->cfg->kernel[g->variant];
	char dir[PATH_MAX], bin[PATH_MAX + 16], bb[PATH_MAX], word[OPT_STR_MAX];
	struct cpio a;
	char *init;
	int rc, n = 0;

	if (find_busybox(bb, sizeof(bb)) != 0)
		return fail_with(err, errlen, -ENOENT,
			    "no static busybox (/bin/busybox): install busybox-static (make deps)");
	if (self_dir(dir, sizeof(dir)) != 0)
		return fail_with(err, errlen, -ENOENT, "cannot find latlab's own directory");
	FILE *fp = fopen(path, "wbe");
	if (!fp)
		return fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	cpio_start(&a, fp);
	rc = add_program(&a, "bin/busybox", bb, err, errlen);
	snprintf(bin, sizeof(bin), "%s/latlab", dir);
	if (rc == 0)
		rc = add_program(&a, "bin/latlab", bin, err, errlen);
	snprintf(bin, sizeof(bin), "%s/latload", dir);
	if (rc == 0)
		rc = add_program(&a, "bin/latload", bin, err, errlen);
	for (const char *p = k->modules; rc == 0 && (p = next_word(p, word, sizeof(word)));) {
		char name[OPT_STR_MAX + 32];

		snprintf(name, sizeof(name), "latlab/modules/%d.ko", n++);
		rc = cpio_file(&a, name, word);
		if (rc)
			fail_with(err, errlen, rc, "[kernel.%s] modules: %s: %s", k->name,
			     word, strerror(-rc));
	}
	init = rc ? NULL : init_script(g);
	if (rc == 0 && !init)
		rc = fail_with(err, errlen, -ENOMEM, "out of memory");
	if (rc == 0)
		rc = cpio_data(&a, "init", 0755, init, strlen(init));
	free(init);
	if (rc == 0)
		rc = cpio_data(&a, "latlab/config.ini", 0644, g->config_text,
			       strlen(g->config_text));
	if (rc == 0)
		rc = cpio_data(&a, "latlab/cells", 0644, g->cells_text,
			       strlen(g->cells_text));
	if (rc == 0 && (rc = cpio_finish(&a)) != 0)
		fail_with(err, errlen, rc, "%s: %s", path, strerror(-rc));
	else if (rc)
		cpio_finish(&a);
	/* the kernel unpacks concatenated archives */
	if (rc == 0 && k->initrd[0] && (rc = file_append(fp, k->initrd)) != 0)
		fail_with(err, errlen, rc, "[kernel.%s] initrd: %s: %s", k->name,
		     k->initrd, strerror(-rc));
	if (fclose(fp) != 0 && rc == 0)
		rc = fail_with(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(path);
	return rc;
}

/* ---- one boot ---------------------------------------------------------- */

struct chan {
	int fd;
	char buf[1 << 16];
	size_t start, end;
	int eof;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* More bytes, waiting until deadline: 1, 0 (deadline or stop), -1 EOF. */
static int fill(struct chan *c, int64_t deadline, const struct vm_hooks *h,
		int *stopped)
{
	if (c->start > 0) {
		memmove(c->buf, c->buf + c->start, c->end - c->start);
		c->end -= c->start;
		c->start = 0;
	}
	for (;;) {
		int64_t left = deadline - now_ns();
		struct pollfd p = { .fd = c->fd, .events = POLLIN };

		if (h->stop && h->stop(h->arg)) {
			*stopped = 1;
			return 0;
		}
		if (left <= 0)
			return 0;
		int r = poll(&p, 1, left > 200 * NS_PER_MS ? 200 : (int)(left / NS_PER_MS) + 1);
		if (r <= 0)
			continue;
		ssize_t n = read(c->fd, c->buf + c->end, sizeof(c->buf) - c->end);
		if (n > 0) {
			c->end += (size_t)n;
			return 1;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			c->eof = 1;
			return -1;
		}
	}
}

/* One line (without its newline) into line: 1, 0 deadline/stop, -1 EOF. */
static int read_line(struct chan *c, char *line, size_t len, int64_t deadline,
		     const struct vm_hooks *h, int *stopped)
{
	for (;;) {
		char *nl = memchr(c->buf + c->start, '\n', c->end - c->start);

		if (nl) {
			size_t n = (size_t)(nl - (c->buf + c->start));

			snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1),
				 c->buf + c->start);
			c->start += n + 1;
			return 1;
		}
		if (c->end - c->start == sizeof(c->buf)) {
			c->start = c->end = 0;	/* an endless line: not ours */
			continue;
		}
		int r = fill(c, deadline, h, stopped);
		if (r <= 0)
			return r;
	}
}

/* size raw bytes to fp (NULL: dropped): 1, 0, -1 as read_line. */
static int read_bytes(struct chan *c, FILE *fp, uint64_t size, int64_t deadline,
		      const struct vm_hooks *h, int *stopped)
{
	while (size > 0) {
		size_t have = c->end - c->start;

		if (have == 0) {
			int r = fill(c, deadline, h, stopped);

			if (r <= 0)
				return r;
			continue;
		}
		size_t n = have < size ? have : (size_t)size;
		if (fp)
			fwrite(c->buf + c->start, 1, n, fp);
		c->start += n;
		size -= n;
	}
	return 1;
}

static int safe_name(const char *name)
{
	return name[0] && name[0] != '.' && !strchr(name, '/') &&
	       strlen(name) < 128;
}

static void remove_flat_dir(const char *dir)
{
	char path[PATH_MAX + 300];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* The cell being received: its files land in DIR.incoming first. */
struct rx {
	char dir[PATH_MAX + CELL_ID_MAX + 300];
	char incoming[PATH_MAX + CELL_ID_MAX + 320];
	char *rows, *brief;
};

static void rx_reset(struct rx *r)
{
	free(r->rows);
	free(r->brief);
	r->rows = r->brief = NULL;
}

static pid_t start_qemu(const struct config *cfg, int v, int accel,
			const char *initramfs, const char *console_log,
			const char *qemu_log, int data_fd)
{
	const struct kernel_def *k = &cfg->kernel[v];
	char smp[32], mem[32], serial[PATH_MAX + 16], append[OPT_STR_MAX + 128];
	char chardev[64];

	snprintf(smp, sizeof(smp), "%lld", (long long)k->cpus);
	snprintf(mem, sizeof(mem), "%lldM", (long long)(k->memory >> 20));
	snprintf(serial, sizeof(serial), "file:%s", console_log);
	snprintf(chardev, sizeof(chardev), "file,id=latlab,path=/dev/fd/%d", data_fd);
	snprintf(append, sizeof(append), "console=ttyS0 panic=-1 printk.devkmsg=on %s",
		 k->append);
	const char *const fixed[] = {
		QEMU, "-machine", "pc",
		"-accel", accel == ACCEL_KVM ? "kvm" : "tcg",
		"-cpu", accel == ACCEL_KVM ? "host" : "max",
		"-smp", smp, "-m", mem,
		"-nodefaults", "-no-user-config", "-display", "none",
		"-no-reboot",		/* a panic (panic=-1) ends qemu */
		"-serial", serial,	/* the console, to console_log */
		"-chardev", chardev,	/* the channel (guest.h) */
		"-device", "isa-debugcon,chardev=latlab,iobase=0xe9",
		"-kernel", k->image, "-initrd", initramfs, "-append", append,
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
	char **extra = NULL;
	int nextra = 0;

	/* qemu_args = was checked with the config */
	if (k->qemu_args[0] && argv_split(k->qemu_args, &extra, &nextra) != 0)
		return -1;
	const char **argv = calloc(nfixed + (size_t)nextra + 1, sizeof(*argv));
	if (!argv) {
		free(extra);
		return -1;
	}
	memcpy(argv, fixed, sizeof(fixed));
	for (int i = 0; i < nextra; i++)
		argv[nfixed + (size_t)i] = extra[i];

	pid_t pid = fork();
	if (pid != 0) {
		free(argv);
		free(extra);
		return pid;
	}
	/* the child: its own process group, gone when latlab goes */
	sigset_t none;
	int null = open("/dev/null", O_RDONLY), log = open(qemu_log,
		O_WRONLY | O_CREAT | O_TRUNC, 0644);

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
	/* the data pipe stays open across exec: qemu opens /dev/fd/N */
	fcntl(data_fd, F_SETFD, 0);
	execvp(QEMU, (char *const *)argv);
	dprintf(2, "latlab: cannot run %s: %s\n", QEMU, strerror(errno));
	_exit(127);
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
		int64_t end = now_ns() + (s == 0 ? grace_ns : 3 * NS_PER_S);

		if (signals[s])
			kill(pid, signals[s]);
		for (;;) {
			pid_t w = waitpid(pid, &st, last ? 0 : WNOHANG);

			if (w == pid || (w < 0 && errno != EINTR))
				return st;
			if (!last && now_ns() > end)
				break;
			usleep(20000);
		}
	}
	return st;
}

/* The last line of a small log file, for an error message. */
static void last_line(const char *path, char *out, size_t len)
{
	char line[512];
	FILE *fp = fopen(path, "re");

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp))
		if (line[strspn(line, " \t\n")])
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
	if (fp)
		fclose(fp);
}

/* A blob's bytes into a malloc'ed string. */
static int read_text(struct chan *c, uint64_t size, char **text, int64_t deadline,
		     const struct vm_hooks *h, int *stopped)
{
	size_t len = 0;
	FILE *fp = open_memstream(text, &len);
	int r;

	if (!fp)
		return read_bytes(c, NULL, size, deadline, h, stopped);
	r = read_bytes(c, fp, size, deadline, h, stopped);
	fclose(fp);
	return r;
}

/* One read of the channel: where it is, and what it has taken so far. */
struct reader {
	struct chan *c;
	const struct vm_read_opts *o;
	const struct vm_hooks *h;
	struct vm_outcome *out;
	struct rx r;
	int64_t deadline;
	int stopped;		/* hooks said stop */
	int io;			/* last read: 1 more, 0 deadline/stop, -1 EOF */
	int end;		/* set: stop reading, with this vm_end */
	int taken;		/* the handler read its blob's bytes */
};

/* The guest is quiet between its messages at most this long, plus timeout. */
#define SLACK_NS (10 * NS_PER_S)

static void give_time(struct reader *d, int64_t ns)
{
	d->deadline = now_ns() + ns + SLACK_NS;
}

static void on_hello(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;

	(void)size;
	/* the host and release name the guest's directories: single names */
	if (sscanf(args, "%127s %127s", out->host, out->release) == 2 &&
	    safe_name(out->host) && safe_name(out->release))
		out->hello = 1;
	else
		snprintf(out->host, sizeof(out->host), "guest");
	give_time(d, d->o->quiet_ns);
}

static void on_sysinfo(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	free(d->out->sysinfo);
	d->out->sysinfo = NULL;
	d->io = read_text(d->c, size, &d->out->sysinfo, d->deadline, d->h, &d->stopped);
	d->taken = 1;
}

static void on_log(struct reader *d, char *args, uint64_t size)
{
	/* the guest's "latlab: ..." becomes "latlab: guest rt: ..." */
	const char *text = strncmp(args, "latlab: ", 8) == 0 ? args + 8 : args;

	(void)size;
	fprintf(stderr, "latlab: guest %s: %s\n", d->o->variant, text);
}

static void on_start(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	struct rx *r = &d->r;
	int rc;

	(void)size;
	if (!out->hello)
		return;
	args[strcspn(args, " ")] = '\0';
	out->running[0] = '\0';
	rx_reset(r);
	/* only a cell the guest was given: asked before any file operation */
	rc = safe_name(args) && strlen(args) < sizeof(out->running)
	     ? d->h->started(d->h->arg, args) : -1;
	if (rc < 0)
		return;
	if (rc > 0) {
		d->stopped = 1;
		d->end = VM_END_STOPPED;
		return;
	}
	snprintf(out->running, sizeof(out->running), "%s", args);
	cell_path(r->dir, sizeof(r->dir), d->o->tree, out->host, out->release,
		  out->running);
	snprintf(r->incoming, sizeof(r->incoming), "%s.incoming", r->dir);
	remove_flat_dir(r->incoming);
	give_time(d, d->o->cell_ns);
}

static void on_file(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	char *sp = strrchr(args, ' '), path[sizeof(d->r.incoming) + 300];
	FILE *fp = NULL;

	if (!out->running[0] || !sp)
		return;
	*sp = '\0';		/* args: the name; its size was parsed */
	if (!safe_name(args))
		return;		/* not a file of a cell directory: bytes dropped */
	snprintf(path, sizeof(path), "%s/%s", d->r.incoming, args);
	if (mkdir_p(d->r.incoming) == 0)
		fp = fopen(path, "wbe");
	if (!fp) {
		out->host_errno = errno;
		snprintf(out->why, sizeof(out->why), "cannot keep %s of cell %s: %s",
			 args, out->running, strerror(errno));
		d->end = VM_END_HOST;
		return;
	}
	d->io = read_bytes(d->c, fp, size, d->deadline, d->h, &d->stopped);
	d->taken = 1;
	if (fflush(fp) != 0 || fsync(fileno(fp)) != 0) {
		out->host_errno = errno;
		snprintf(out->why, sizeof(out->why), "%.400s: %s", path, strerror(errno));
		d->end = VM_END_HOST;
	}
	fclose(fp);
	give_time(d, d->o->quiet_ns);
}

static void on_row(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	if (!d->out->running[0])
		return;
	free(d->r.rows);
	d->r.rows = NULL;
	d->io = read_text(d->c, size, &d->r.rows, d->deadline, d->h, &d->stopped);
	d->taken = 1;
	give_time(d, d->o->quiet_ns);
}

static void on_brief(struct reader *d, char *args, uint64_t size)
{
	(void)size;
	if (!d->out->running[0])
		return;
	free(d->r.brief);
	d->r.brief = strdup(args);
	give_time(d, d->o->quiet_ns);
}

/* The cell that started is done: its files move in place; the hook takes it. */
static void on_cell(struct reader *d, char *args, uint64_t size)
{
	struct vm_outcome *out = d->out;
	struct rx *r = &d->r;
	char id[CELL_ID_MAX], status[32];
	struct vm_cell cell;
	int used = 0;

	(void)size;
	if (sscanf(args, "%159s %31s %n", id, status, &used) < 2 ||
	    !out->running[0] || strcmp(id, out->running) != 0)
		return;	/* not the cell that started: ignored */
	if (access(r->incoming, F_OK) == 0) {
		dir_keep_partial(r->dir);
		if (rename(r->incoming, r->dir) != 0)
			log_error("%s: %s", r->dir, strerror(errno));
	}
	cell.id = id;
	cell.status = cell_status_parse(status);
	if (cell.status < 0)
		cell.status = CELL_ERROR;
	cell.reason = args + used;
	cell.rows = r->rows ? r->rows : "";
	cell.brief = r->brief ? r->brief : "";
	out->running[0] = '\0';
	out->finished++;
	if (d->h->finished(d->h->arg, &cell)) {
		d->stopped = 1;
		d->end = VM_END_STOPPED;
	}
	rx_reset(r);
	give_time(d, d->o->quiet_ns);
}

static void on_done(struct reader *d, char *args, uint64_t size)
{
	(void)args;
	(void)size;
	d->out->done = 1;
	d->end = VM_END_DONE;
}

/* What the host does with each verb of channel.h. */
static void (*const handlers[CHAN_NVERBS])(struct reader *, char *, uint64_t) = {
	[CHAN_HELLO] = on_hello,
	[CHAN_SYSINFO] = on_sysinfo,
	[CHAN_LOG] = on_log,
	[CHAN_START] = on_start,
	[CHAN_FILE] = on_file,
	[CHAN_ROW] = on_row,
	[CHAN_BRIEF] = on_brief,
	[CHAN_CELL] = on_cell,
	[CHAN_DONE] = on_done,
};

enum vm_end vm_read(int fd, const struct vm_read_opts *o,
		    const struct vm_hooks *h, struct vm_outcome *out)
{
	struct reader d = { .o = o, .h = h, .out = out, .end = -1 };
	char line[4096];

	memset(out, 0, sizeof(*out));
	d.c = calloc(1, sizeof(*d.c));
	if (!d.c) {
		out->host_errno = ENOMEM;
		snprintf(out->why, sizeof(out->why), "out of memory");
		return VM_END_HOST;
	}
	d.c->fd = fd;
	d.deadline = now_ns() + o->boot_ns;
	while (d.end < 0) {
		char *args;
		uint64_t size;

		d.io = read_line(d.c, line, sizeof(line), d.deadline, h, &d.stopped);
		if (d.io <= 0)
			break;
		int verb = chan_parse(line, &args, &size);
		if (verb < 0)
			continue;	/* not the channel's, or garbled */
		d.taken = 0;
		handlers[verb](&d, args, size);
		/* a blob nobody took is skipped, so the stream stays in step */
		if (chan_verbs[verb].blob && !d.taken && d.end < 0)
			d.io = read_bytes(d.c, NULL, size, d.deadline, h, &d.stopped);
		if (d.io <= 0)
			break;
	}
	if (d.end < 0)
		d.end = d.stopped ? VM_END_STOPPED : d.io < 0 ? VM_END_EOF : VM_END_QUIET;
	if (d.end == VM_END_STOPPED)
		out->interrupted = 1;
	if (d.r.incoming[0] && out->running[0])
		remove_flat_dir(d.r.incoming);
	rx_reset(&d.r);
	free(d.c);
	return (enum vm_end)d.end;
}

int vm_boot(const struct config *cfg, int v, int accel, const char *initramfs,
	    const char *console_log, const char *qemu_log, const char *tree,
	    int64_t boot_timeout, const struct vm_hooks *h,
	    struct vm_outcome *out)
{
	const struct kernel_def *k = &cfg->kernel[v];
	struct vm_read_opts o = {
		.tree = tree,
		.variant = k->name,
		.boot_ns = boot_timeout,
		.cell_ns = cfg->campaign.duration + k->timeout,
		.quiet_ns = k->timeout,
	};
	int pipefd[2];
	char t[32];

	memset(out, 0, sizeof(*out));
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -errno;
	pid_t pid = start_qemu(cfg, v, accel, initramfs, console_log, qemu_log,
			       pipefd[1]);
	close(pipefd[1]);
	if (pid < 0) {
		int rc = -errno;

		close(pipefd[0]);
		return rc;
	}
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
		last_line(qemu_log, last, sizeof(last));
		snprintf(out->why, sizeof(out->why), "the guest stopped%s%s%s",
			 out->hello ? "" : " before latlab started in it",
			 last[0] ? ": qemu: " : " (kernel panic? see the console log)",
			 last);
		break;
	}
	case VM_END_QUIET:
		if (!out->hello) {
			units_format_duration(boot_timeout, t, sizeof(t));
			snprintf(out->why, sizeof(out->why),
				 "the guest did not start latlab within %s (boot_timeout)", t);
			break;
		}
		units_format_duration(out->running[0] ? o.cell_ns : k->timeout, t, sizeof(t));
		snprintf(out->why, sizeof(out->why),
			 "the guest hung: no word from it for %s%s", t,
			 out->running[0] ? " (duration + timeout)" : " (timeout)");
		break;
	}
	close(pipefd[0]);
	stop_qemu(pid, out->done ? POWEROFF_NS : 0);
	return 0;
}
