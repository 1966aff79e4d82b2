#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "undo.h"

#define HEADER "latlab-undo\t1"
#define JOURNAL_MAX (1 << 20)	/* bytes: far more than a machine's interrupts and states */
#define RMDIR_TRIES 100		/* 10 ms apart: exiting threads leave a cgroup late */

const char *const undo_roots[] = { "/sys/fs/cgroup/", "/proc/irq/", "/sys/devices/system/cpu/",
				   NULL };

void undo_init(struct undo *u)
{
	memset(u, 0, sizeof(*u));
	u->fd = -1;
}

/* Under one of roots, and no ".." in it: what replay may touch. */
static int allowed(const char *path, const char *const *roots)
{
	if (strstr(path, "/.."))
		return 0;
	for (int i = 0; roots && roots[i]; i++)
		if (strncmp(path, roots[i], strlen(roots[i])) == 0)
			return 1;
	return 0;
}

/* One journal line, on disk before the change it undoes. 0 or -errno. */
static int journal(struct undo *u, const char *kind, const char *path, const char *value)
{
	char line[PATH_MAX + 512];
	int n = snprintf(line, sizeof(line), "%s\t%s%s%s\n", kind, path, value ? "\t" : "",
			 value ? value : "");

	if (u->fd < 0)
		return -EBADF;
	if (n < 0 || (size_t)n >= sizeof(line) || strpbrk(path, "\t\n") ||
	    (value && strpbrk(value, "\t\n")))
		return -EINVAL;
	if (write(u->fd, line, (size_t)n) != n || fdatasync(u->fd) != 0)
		return errno ? -errno : -EIO;
	u->changes++;
	return 0;
}

/* This boot's id (/proc/sys/kernel/random/boot_id), or "unknown". */
static void boot_id(char *buf, size_t len)
{
	if (file_first_line("/proc/sys/kernel/random/boot_id", buf, len) != 0 || !buf[0])
		snprintf(buf, len, "unknown");
}

/*
 * A cgroup a journal may remove: one latlab made, by name and by parent —
 * latlab-... directly in a hierarchy's root (a root of roots, or one
 * folder below it: v1's cpuset/) — not any path a tampered journal names
 * (a prefix of the roots let any cgroup under /sys/fs/cgroup be removed).
 */
static int ours(const char *path, const char *const *roots)
{
	const char *base = strrchr(path, '/');

	if (!base || strncmp(base + 1, "latlab-", 7) != 0)
		return 0;
	for (int i = 0; roots && roots[i]; i++) {
		size_t n = strlen(roots[i]);
		const char *rest = path + n, *slash;

		if (strncmp(path, roots[i], n) != 0)
			continue;
		slash = strchr(rest, '/');
		if (!slash || slash == base)	/* ROOT/latlab-..., ROOT/HIERARCHY/latlab-... */
			return strncmp(rest, "latlab-", 7) == 0 || slash == base;
	}
	return 0;
}

int undo_open(struct undo *u, const char *dir, const char *const *roots)
{
	char tmp[PATH_MAX + 8];
	int fd;

	undo_init(u);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -errno;
	if (snprintf(u->path, sizeof(u->path), "%s/undo-%d.txt", dir, (int)getpid()) >=
	    (int)sizeof(u->path))
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s.tmp", u->path);
	/* whole and locked before it has its name: a scan never sees it half made */
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	char head[160], boot[64];

	boot_id(boot, sizeof(boot));
	int hn = snprintf(head, sizeof(head), HEADER "\nboot\t%s\n", boot);

	if (flock(fd, LOCK_EX) != 0 || write(fd, head, (size_t)hn) != hn ||
	    fsync(fd) != 0 || rename(tmp, u->path) != 0) {
		int rc = -errno;

		close(fd);
		unlink(tmp);
		return rc;
	}
	u->fd = fd;
	u->roots = roots;
	return 0;
}

/*
 * A change that failed changed nothing: its journal line is taken back, so
 * no undo writes over a value latlab never set (an interrupt the kernel
 * keeps where it is).
 */
static void unjournal(struct undo *u, off_t before)
{
	if (ftruncate(u->fd, before) == 0 && lseek(u->fd, before, SEEK_SET) == before)
		u->changes--;
}

/* A journal file another user made, or a link or a FIFO: not latlab's to read or replay. */
static int foreign(int fd)
{
	struct stat st;

	return fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	       (st.st_mode & 0022);
}

int undo_holder(const struct undo *u, const char *path)
{
	char dir[PATH_MAX], want[PATH_MAX + 16], line[PATH_MAX + 600];
	const char *slash = strrchr(u->path, '/');
	DIR *d;
	struct dirent *e;
	int holder = 0;

	if (!slash)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - u->path), u->path);
	snprintf(want, sizeof(want), "write\t%s\t", path);
	d = opendir(dir);
	while (d && !holder && (e = readdir(d))) {
		int pid = 0, fd;
		FILE *fp;

		if (sscanf(e->d_name, "undo-%d.txt", &pid) != 1 || pid == (int)getpid())
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		/* a journal its owner no longer holds is stale: undo_stale's, not a holder */
		if (foreign(fd) || flock(fd, LOCK_SH | LOCK_NB) == 0 || errno != EWOULDBLOCK ||
		    !(fp = fdopen(fd, "r"))) {
			close(fd);
			continue;
		}
		while (!holder && fgets(line, sizeof(line), fp))
			if (strncmp(line, want, strlen(want)) == 0)
				holder = pid;
		fclose(fp);
	}
	if (d)
		closedir(d);
	return holder;
}

int undo_set(struct undo *u, const char *path, const char *value, const char *restore)
{
	char old[512];
	off_t before;
	int rc;

	if (!allowed(path, u->roots))
		return -EPERM;
	/*
	 * A setting another latlab holds for its cell is not ours to take:
	 * its value now is that run's, and whoever ended first would write
	 * the other's back (two throttle = off runs left it off for good)
	 */
	if (undo_holder(u, path))
		return -EBUSY;
	if (!restore) {
		rc = file_first_line(path, old, sizeof(old));
		if (rc)
			return rc;
		restore = old;
	}
	before = lseek(u->fd, 0, SEEK_CUR);
	rc = journal(u, "write", path, restore);
	if (rc)
		return rc;
	rc = file_write_string(path, value);
	if (rc)
		unjournal(u, before);
	return rc;
}

int undo_mkdir_cgroup(struct undo *u, const char *path)
{
	off_t before;
	int rc;

	if (!allowed(path, u->roots) || !ours(path, u->roots))
		return -EPERM;
	before = lseek(u->fd, 0, SEEK_CUR);
	rc = journal(u, "cgroup", path, NULL);
	if (rc)
		return rc;
	if (mkdir(path, 0755) == 0)
		return 0;
	rc = -errno;
	unjournal(u, before);
	return rc;
}

/* Is tid one of this process's threads? */
static int own_thread(const char *tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%s", tid);
	return access(path, F_OK) == 0;
}

int undo_move_tasks(const char *from, const char *to, int keep_own, int *stuck)
{
	FILE *fp = fopen(from, "re");
	char id[32];
	int moved = 0;

	if (!fp)
		return 0;
	while (fgets(id, sizeof(id), fp)) {
		id[strcspn(id, "\n")] = '\0';
		if (keep_own && own_thread(id))
			continue;
		int rc = file_write_string(to, id);

		if (rc == 0)
			moved++;
		else if (rc != -ESRCH)	/* gone meanwhile: nothing to move */
			(*stuck)++;
	}
	fclose(fp);
	return moved;
}

/* The tasks of cgroup `path` (v1: tasks, v2: cgroup.procs) moved to its parent. */
static void move_to_parent(const char *path)
{
	static const char *const files[] = { "tasks", "cgroup.procs" };
	char from[PATH_MAX + 16], to[PATH_MAX + 16], parent[PATH_MAX];
	int stuck = 0;

	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');

	if (!slash || slash == parent)
		return;
	*slash = '\0';
	for (int f = 0; f < 2; f++) {
		snprintf(from, sizeof(from), "%s/%s", path, files[f]);
		if (access(from, F_OK) != 0)
			continue;
		snprintf(to, sizeof(to), "%s/%s", parent, files[f]);
		undo_move_tasks(from, to, 0, &stuck);	/* what stays, rmdir says (EBUSY) */
		return;
	}
}

/* Cgroup `path` emptied into its parent and removed; gone already is done. 0 or -errno. */
static int remove_cgroup(const char *path)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < RMDIR_TRIES; i++) {
		if (access(path, F_OK) != 0)
			return 0;
		move_to_parent(path);
		if (rmdir(path) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&pause, NULL);
	}
	return -EBUSY;
}

/* "PATH: reason" added to report, after "; " when not the first. */
static void report_add(char *report, size_t len, const char *path, int rc)
{
	size_t used = strlen(report);

	if (used < len)
		snprintf(report + used, len - used, "%s%s: %s", used ? "; " : "", path,
			 strerror(-rc));
}

/* One line undone; 0, or -errno with the reason in report. */
static int replay_line(char *line, const char *const *roots, char *report, size_t len)
{
	char *kind = strtok(line, "\t"), *path = strtok(NULL, "\t"), *value = strtok(NULL, "");
	int rc;

	if (kind && strcmp(kind, "boot") == 0)
		return 0;	/* checked before any line is replayed */
	if (!kind || !path || !allowed(path, roots)) {
		report_add(report, len, path ? path : "(a cut line)", -EINVAL);
		return -EINVAL;
	}
	if (strcmp(kind, "write") == 0 && value)
		rc = file_write_string(path, value);
	else if (strcmp(kind, "cgroup") == 0 && !value && ours(path, roots))
		rc = remove_cgroup(path);
	else
		rc = -EINVAL;
	/* an interrupt or a CPU gone since: nothing left to undo */
	if (rc == -ENOENT)
		rc = 0;
	if (rc)
		report_add(report, len, path, rc);
	return rc;
}

/* The journal on fd replayed, the last line first. The lines that failed. */
static int replay(int fd, const char *const *roots, char *report, size_t len)
{
	char *text = malloc(JOURNAL_MAX + 1);
	ssize_t n = text ? pread(fd, text, JOURNAL_MAX, 0) : -1;
	int failed = 0;

	report[0] = '\0';
	if (n < 0) {
		report_add(report, len, "the journal", text ? -errno : -ENOMEM);
		free(text);
		return 1;
	}
	text[n] = '\0';
	if (strncmp(text, HEADER "\n", sizeof(HEADER)) != 0) {
		report_add(report, len, "the journal's first line", -EINVAL);
		free(text);
		return 1;
	}
	/*
	 * Lines from the end: each change undone after those made after it.
	 * A cut last line (a crash mid-write) was never acted on: left out.
	 */
	char *end = strrchr(text, '\n');

	while (end > text + sizeof(HEADER) - 1) {
		char *start = end;

		*end = '\0';
		while (start[-1] != '\n')
			start--;
		if (*start)
			failed += replay_line(start, roots, report, len) != 0;
		end = start - 1;
	}
	free(text);
	return failed;
}

int undo_finish(struct undo *u, char *report, size_t len)
{
	int failed;

	if (len)
		report[0] = '\0';
	if (u->fd < 0)
		return 0;
	failed = replay(u->fd, u->roots, report, len);
	unlink(u->path);
	close(u->fd);
	u->fd = -1;
	return failed;
}

int undo_stale(const char *dir, const char *const *roots,
	       void (*say)(void *arg, const char *line), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int replayed = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		int tmp = nl > 4 && strcmp(e->d_name + nl - 4, ".tmp") == 0;

		if (strncmp(e->d_name, "undo-", 5) != 0 ||
		    (!tmp && (nl < 4 || strcmp(e->d_name + nl - 4, ".txt") != 0)))
			continue;
		/* O_NONBLOCK: a FIFO put here must not hold every run at its start */
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		struct stat st;

		/* not silent: a journal left unread is a setting never restored */
		if (fd < 0 && errno != ENOENT) {
			char line[PATH_MAX + 160];

			snprintf(line, sizeof(line), "%s/%s cannot be read as a journal (%s): left alone",
				 dir, e->d_name, errno == ELOOP ? "a symbolic link, not followed" : strerror(errno));
			if (say)
				say(arg, line);
		}
		if (fd < 0)
			continue;
		if (fstat(fd, &st) != 0 || foreign(fd)) {
			char line[PATH_MAX + 160];

			snprintf(line, sizeof(line), "%s/%s is not a journal latlab wrote (not a regular file of this user's, writable by it alone): left alone",
				 dir, e->d_name);
			close(fd);
			if (say)
				say(arg, line);
			continue;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {	/* its latlab still runs */
			close(fd);
			continue;
		}
		if (tmp) {	/* made before any change: nothing to undo */
			unlinkat(dirfd(d), e->d_name, 0);
			close(fd);
			continue;
		}
		char report[1024], line[1400], boot[64], theirs[96] = "";
		char head[sizeof(HEADER) + 96];
		ssize_t hn = pread(fd, head, sizeof(head) - 1, 0);

		/* a journal of another boot: its values were that boot's */
		head[hn > 0 ? hn : 0] = '\0';
		const char *b = strstr(head, "\nboot\t");

		if (b)
			snprintf(theirs, sizeof(theirs), "%.*s", (int)strcspn(b + 6, "\n"), b + 6);
		boot_id(boot, sizeof(boot));
		if (theirs[0] && strcmp(theirs, boot) != 0) {
			snprintf(line, sizeof(line), "%s/%s is the journal of a latlab of another boot (%s): not replayed onto this one, removed",
				 dir, e->d_name, theirs);
			unlinkat(dirfd(d), e->d_name, 0);
			close(fd);
			if (say)
				say(arg, line);
			continue;
		}
		int failed = replay(fd, roots, report, sizeof(report));

		snprintf(line, sizeof(line), "undone what a latlab killed before its end had changed (%s/%s)%s%s",
			 dir, e->d_name, failed ? "; not undone: " : "", failed ? report : "");
		unlinkat(dirfd(d), e->d_name, 0);
		close(fd);
		if (say)
			say(arg, line);
		replayed++;
	}
	closedir(d);
	return replayed;
}
