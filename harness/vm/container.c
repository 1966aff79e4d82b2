#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "argv.h"
#include "container.h"
#include "files.h"
#include "log.h"
#include "units.h"

/* after "done" the container's latlab exits and podman removes it: this long at most */
#define CT_END_NS (30 * NS_PER_S)

int ct_rt_hierarchy(char *dir, size_t len)
{
	static const char *const where[] = { "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct" };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", where[i]);
		if (access(path, W_OK) == 0) {
			snprintf(dir, len, "%s", where[i]);
			return 0;
		}
	}
	return -ENOENT;
}

const char **ct_run_argv(const struct ct_boot *b, const char *name, const char *parent,
			 const char *dir, struct ct_words *w)
{
	const struct kernel_def *k = &b->cfg->kernel[b->variant];
	int nmore = 0, n = 0;

	w->extra = NULL;
	if (k->container_args[0] && argv_split(k->container_args, &w->extra, &nmore) != 0)
		return NULL;
	const char **argv = calloc(40 + (size_t)nmore, sizeof(*argv));
	if (!argv) {
		free(w->extra);
		w->extra = NULL;
		return NULL;
	}
	snprintf(w->mount, sizeof(w->mount), "type=bind,source=%s,target=" CT_MOUNT ",readonly", dir);
	snprintf(w->fd, sizeof(w->fd), "%d", CT_CHANNEL_FD);
	snprintf(w->budget, sizeof(w->budget), "%lld", (long long)(k->rt_runtime / 1000));
	snprintf(w->parent, sizeof(w->parent), "/%.100s", parent);
	argv[n++] = "podman";
	if (parent[0]) {
		/* a parent given as a path: podman's cgroupfs manager */
		argv[n++] = "--cgroup-manager";
		argv[n++] = "cgroupfs";
	}
	static const char *const fixed[] = {
		"run", "--rm", "--pull", "never", "--network", "none",
		/* SCHED_FIFO and mlockall: what a measurement needs, no more */
		"--cap-add", "SYS_NICE,IPC_LOCK",
		/* the channel: the pipe latlab reads, as fd 3 inside */
		"--preserve-fds", "1",
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		argv[n++] = fixed[i];
	argv[n++] = "--name";
	argv[n++] = name;
	argv[n++] = "--hostname";
	argv[n++] = b->hostname;
	argv[n++] = "--mount";
	argv[n++] = w->mount;
	if (parent[0]) {
		argv[n++] = "--cgroup-parent";
		argv[n++] = w->parent;
		argv[n++] = "--cpu-rt-runtime";
		argv[n++] = w->budget;
	}
	for (int i = 0; i < nmore; i++)
		argv[n++] = w->extra[i];
	argv[n++] = k->image;
	/* the image's entrypoint is latlab */
	static const char *const inside[] = {
		"run", CT_MOUNT "/config.ini", "-o", "/results", "--guest-cells", CT_MOUNT "/cells",
		"--guest-channel",
	};
	for (size_t i = 0; i < sizeof(inside) / sizeof(inside[0]); i++)
		argv[n++] = inside[i];
	argv[n++] = w->fd;
	argv[n++] = "--guest";
	argv[n++] = k->name;
	argv[n] = NULL;
	return argv;
}

uint64_t ct_image_key(const char *image)
{
	static const char kind[] = "podman:";
	uint64_t key = vm_image_key((const unsigned char *)kind, sizeof(kind) - 1);

	/* the name folded in after its kind, as one more FNV-1a run */
	for (const unsigned char *p = (const unsigned char *)image; *p; p++)
		key = (key ^ *p) * 0x100000001b3ULL;
	return key ? key : 1;
}

int ct_image_present(const char *image, char *why, size_t len)
{
	char *const argv[] = { "podman", "image", "exists", (char *)image, NULL };
	int rc = argv_run(argv, 1);

	if (rc == 0)
		return 0;
	if (rc == 1) {
		snprintf(why, len, "no image %s in podman's store: latlab never pulls one (make image builds localhost/latlab:VERSION from latlab's static build)",
			 image);
		return -ENOENT;
	}
	snprintf(why, len, "podman image exists %s: exit %d (is podman installed and working?)", image, rc);
	return -ENOEXEC;
}

/* The folder's cgroup in every hierarchy, removed once empty (rmdir removes
 * only an empty cgroup): children first. */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		char sub[PATH_MAX];

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		remove_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* The parent cgroup `name`, as podman made it in every hierarchy: 0 gone, -EBUSY left after 5 s. */
static int parent_remove(const char *name)
{
	for (int tries = 0; tries < 10; tries++) {
		DIR *d = opendir("/sys/fs/cgroup");
		struct dirent *e;
		int left = 0;
		char path[PATH_MAX];

		while (d && (e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", e->d_name, name);
			remove_tree(path);
			left += access(path, F_OK) == 0;
		}
		if (d)
			closedir(d);
		snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
		remove_tree(path);
		left += access(path, F_OK) == 0;
		if (!left)
			return 0;
		usleep(500000);
	}
	return -EBUSY;
}

/*
 * Where the kernel has RT_GROUP_SCHED, podman's own parent cgroup has no
 * real-time budget (SCHED_FIFO: EPERM): a parent of latlab's, `name` in
 * the cpu hierarchy, with the variant's rt_runtime. 1 made, 0 not needed,
 * -errno (why says).
 */
static int parent_make(const struct kernel_def *k, const char *name, char *why, size_t len)
{
	char dir[64], path[256], us[32];
	int rc;

	if (ct_rt_hierarchy(dir, sizeof(dir)) != 0)
		return 0;
	snprintf(path, sizeof(path), "%s/%.96s", dir, name);
	if (mkdir(path, 0755) != 0) {
		rc = -errno;
		snprintf(why, len, "cannot make the container's parent cgroup %s: %s", path, strerror(-rc));
		return rc;
	}
	snprintf(path, sizeof(path), "%s/%.96s/cpu.rt_runtime_us", dir, name);
	snprintf(us, sizeof(us), "%lld", (long long)(k->rt_runtime / 1000));
	/*
	 * The budget of a cgroup just removed (the last container's parent)
	 * is given back when the kernel takes the group offline, a moment
	 * after its rmdir: until then a budget that needs it is refused
	 * (EINVAL; seen with 950 ms after a container of 100 ms). Asked again
	 * for up to 3 s.
	 */
	for (int tries = 0; (rc = file_write_string(path, us)) == -EINVAL && tries < 30; tries++)
		usleep(100000);
	if (rc) {
		snprintf(why, len, "cannot give the container's parent cgroup %.120s a real-time budget of %s us a second: %s (RT_GROUP_SCHED: the budgets of the root's children add up to at most its own; a smaller rt_runtime, or another cgroup's budget freed)",
			 path, us, strerror(-rc));
		parent_remove(name);
		return rc;
	}
	return 1;
}

/*
 * The config and the cell list in a folder of their own, for the
 * read-only mount at CT_MOUNT: under /tmp, whose path holds none of the
 * characters --mount's syntax gives a meaning (',' '=' ':').
 */
static int stage_file(const char *dir, const char *name, const char *text)
{
	char path[128];
	FILE *fp;
	int rc = 0;

	snprintf(path, sizeof(path), "%.64s/%s", dir, name);
	fp = fopen(path, "we");
	if (!fp)
		return -errno;
	if (fputs(text, fp) == EOF)
		rc = -errno;
	if (fclose(fp) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

static int stage(const struct ct_boot *b, char *dir, size_t len)
{
	int rc;

	snprintf(dir, len, "/tmp/latlab-ct.XXXXXX");
	if (!mkdtemp(dir))
		return -errno;
	chmod(dir, 0755);
	rc = stage_file(dir, "config.ini", b->config_text);
	return rc ? rc : stage_file(dir, "cells", b->cells_text);
}

static void unstage(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%.64s/config.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%.64s/cells", dir);
	unlink(path);
	rmdir(dir);
}

/* podman run, its output to b->log, the pipe's write end as fd 3. The pid, or -1. */
static pid_t start_podman(const struct ct_boot *b, const char *const *argv, int data_fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	int log = open(b->log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	int data = fcntl(data_fd, F_DUPFD_CLOEXEC, 10);

	vm_child_begin(log);
	if (data < 0 || dup2(data, CT_CHANNEL_FD) != CT_CHANNEL_FD)
		_exit(127);
	/* nothing else of latlab's reaches podman or the container */
	syscall(SYS_close_range, CT_CHANNEL_FD + 1, ~0U, 0);
	execvp(argv[0], (char *const *)argv);
	dprintf(2, "latlab: cannot run podman: %s\n", strerror(errno));
	_exit(127);
}

/*
 * podman's end: waited for up to grace_ns, then the container removed
 * (podman rm -f) and podman killed. Its wait status.
 */
static int stop_podman(pid_t pid, const char *name, int64_t grace_ns)
{
	int64_t end = units_now_ns() + grace_ns;
	int st = 0;

	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return st;
		if (units_now_ns() > end)
			break;
		usleep(20000);
	}
	char *const rm[] = { "podman", "rm", "-f", "-t", "0", (char *)name, NULL };

	argv_run(rm, 1);
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* podman's last "Error:" line in its log, else its last line, for an error message. */
static void log_last(const char *path, char *out, size_t len)
{
	file_last_line(path, "Error: ", out, len);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

int ct_boot(const struct ct_boot *b, const struct vm_hooks *h, struct vm_outcome *out)
{
	static atomic_int boots;
	const struct kernel_def *k = &b->cfg->kernel[b->variant];
	struct vm_read_opts o = {
		.tree = b->tree,
		.variant = k->name,
		.boot_ns = k->boot_timeout,
		.cell_ns = b->cfg->campaign.duration + k->timeout,
		.quiet_ns = k->timeout,
		.host = b->hostname,
		.cell_bytes_max = b->cell_bytes_max,
	};
	char name[96], dir[64], last[400], t[32];
	struct ct_words w;
	int pipefd[2], made, rc;

	memset(out, 0, sizeof(*out));
	snprintf(name, sizeof(name), "latlab-%d-%d", (int)getpid(), atomic_fetch_add(&boots, 1) + 1);
	rc = stage(b, dir, sizeof(dir));
	if (rc) {
		snprintf(out->why, sizeof(out->why), "cannot write the container's config under /tmp: %s",
			 strerror(-rc));
		unstage(dir);
		return 0;
	}
	made = parent_make(k, name, out->why, sizeof(out->why));
	if (made < 0) {
		unstage(dir);
		return 0;
	}
	const char **argv = ct_run_argv(b, name, made ? name : "", dir, &w);
	if (!argv || pipe2(pipefd, O_CLOEXEC) != 0) {
		rc = argv ? -errno : -ENOMEM;
		free(argv);
		free(w.extra);
		unstage(dir);
		if (made)
			parent_remove(name);
		return rc;
	}
	/* the command, first in its log: what the container was given */
	FILE *lf = fopen(b->log, "we");
	if (lf) {
		fputs("# podman command:", lf);
		for (int i = 0; argv[i]; i++)
			fprintf(lf, " %s", argv[i]);
		fputc('\n', lf);
		fclose(lf);
	}
	int64_t start = units_now_ns();
	pid_t pid = start_podman(b, argv, pipefd[1]);
	close(pipefd[1]);
	free(argv);
	free(w.extra);
	if (pid < 0) {
		rc = -errno;
		close(pipefd[0]);
		unstage(dir);
		if (made)
			parent_remove(name);
		return rc;
	}
	enum vm_end end = vm_read(pipefd[0], &o, h, out);
	close(pipefd[0]);
	int st = stop_podman(pid, name, end == VM_END_DONE ? CT_END_NS : 0);
	int64_t stop = units_now_ns();

	log_last(b->log, last, sizeof(last));
	switch (end) {
	case VM_END_DONE:
	case VM_END_HOST:
		break;
	case VM_END_STOPPED:
		snprintf(out->why, sizeof(out->why), "stopped by a signal");
		break;
	case VM_END_EOF:
		snprintf(out->why, sizeof(out->why), "the container ended%s (podman exit %d)%s%s",
			 out->hello ? "" : " before latlab started in it",
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
			 last[0] ? ": " : "", last);
		break;
	case VM_END_QUIET:
		units_format_duration(out->running[0] ? o.cell_ns : out->hello ? k->timeout : k->boot_timeout,
				      t, sizeof(t));
		snprintf(out->why, sizeof(out->why), "%s for %s%s",
			 out->hello ? "the container's latlab said nothing" : "the container's latlab did not start",
			 t, out->running[0] ? " (duration + timeout)" : out->hello ? " (timeout)" : " (boot_timeout)");
		break;
	}
	if (made && parent_remove(name) != 0)
		log_warn("the container's parent cgroup %s is left: something still runs in it", name);
	unstage(dir);
	out->wall_ns = stop - start;
	out->up_ns = out->hello_at ? out->hello_at - start : 0;
	out->down_ns = out->done_at ? stop - out->done_at : 0;
	return 0;
}
