/*
 * The journal of what latlab changes on the machine (harness/measure/
 * undo.c), on files of a scratch directory standing for sysfs and the
 * cgroup tree: changes undone the last first at the end; a journal whose
 * latlab was killed undone by the next scan and one whose latlab lives
 * left alone; nothing outside the roots written or replayed; a cut last
 * line not replayed; a change that cannot be undone said.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "files.h"
#include "undo.h"

static char top[64], run[96], sys[96], roots_buf[2][112];
static const char *roots[3];

static void put(const char *name, const char *value)
{
	char path[160];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", sys, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(value, fp);
	fclose(fp);
}

static const char *get(const char *name)
{
	static char buf[64];
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", sys, name);
	if (file_first_line(path, buf, sizeof(buf)) != 0)
		snprintf(buf, sizeof(buf), "(missing)");
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/test_undo.XXXXXX");
	assert_non_null(mkdtemp(top));
	snprintf(run, sizeof(run), "%s/run", top);
	snprintf(sys, sizeof(sys), "%s/sys", top);
	assert_int_equal(mkdir(sys, 0755), 0);
	snprintf(roots_buf[0], sizeof(roots_buf[0]), "%s/", sys);
	roots[0] = roots_buf[0];
	roots[1] = NULL;
	put("balance", "1\n");
	put("affinity", "0-1\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fakefs_remove(top);
}

static char *in_sys(const char *name)
{
	static char path[160];

	snprintf(path, sizeof(path), "%s/%s", sys, name);
	return path;
}

static int journals(void)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "ls %s 2>/dev/null | grep -c '^undo-' >/dev/null", run);
	return system(cmd) == 0;
}

static void test_finish_undoes(void **state)
{
	struct undo u;
	char report[256];
	struct stat st;

	(void)state;
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(undo_set(&u, in_sys("balance"), "0", NULL), 0);
	assert_int_equal(undo_set(&u, in_sys("affinity"), "0", NULL), 0);
	assert_int_equal(undo_set(&u, in_sys("affinity"), "1", NULL), 0);	/* twice: the first value back */
	assert_int_equal(undo_mkdir_cgroup(&u, in_sys("latlab-1-cpu1")), 0);
	assert_string_equal(get("balance"), "0");
	assert_string_equal(get("affinity"), "1");
	assert_int_equal(stat(in_sys("latlab-1-cpu1"), &st), 0);
	assert_int_equal(undo_mkdir_cgroup(&u, in_sys("latlab-1-cpu1")), -EEXIST);
	/* a change the kernel refuses changed nothing: not undone later (over a value never set) */
	assert_int_equal(symlink("/proc/version", in_sys("refuses")), 0);
	int before = u.changes;

	assert_true(undo_set(&u, in_sys("refuses"), "x", NULL) < 0);
	assert_int_equal(u.changes, before);
	assert_true(journals());
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_string_equal(report, "");
	assert_string_equal(get("balance"), "1");
	assert_string_equal(get("affinity"), "0-1");
	assert_int_not_equal(stat(in_sys("latlab-1-cpu1"), &st), 0);
	assert_false(journals());
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);	/* closed: nothing */
}

static void test_outside_roots(void **state)
{
	struct undo u;
	char report[256], other[160];

	(void)state;
	snprintf(other, sizeof(other), "%s/elsewhere", top);
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(undo_set(&u, other, "x", NULL), -EPERM);
	assert_int_equal(undo_set(&u, in_sys("../elsewhere"), "x", NULL), -EPERM);
	assert_int_equal(undo_mkdir_cgroup(&u, other), -EPERM);
	assert_int_equal(u.changes, 0);
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_int_not_equal(access(other, F_OK), 0);
}

/* A latlab that changes, then dies without undoing (SIGKILL): the child. */
static pid_t killed_latlab(int stay, int *wait_fd)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct undo u;
		char byte = 1;

		close(p[0]);
		if (undo_open(&u, run, roots) || undo_set(&u, in_sys("balance"), "0", NULL) ||
		    undo_mkdir_cgroup(&u, in_sys("latlab-1-cpu1")))
			_exit(1);
		(void)!write(p[1], &byte, 1);
		if (stay)
			pause();
		raise(SIGKILL);
	}
	close(p[1]);
	char byte;

	assert_int_equal(read(p[0], &byte, 1), 1);
	*wait_fd = p[0];
	return pid;
}

static void count_said(void *arg, const char *line)
{
	(*(int *)arg)++;
	assert_non_null(strstr(line, "undone what a latlab killed"));
}

static void test_stale(void **state)
{
	int said = 0, fd, status;
	pid_t pid;

	(void)state;
	/* alive: its journal is held, not touched */
	pid = killed_latlab(1, &fd);
	assert_int_equal(undo_stale(run, roots, count_said, &said), 0);
	assert_string_equal(get("balance"), "0");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fd);
	/* killed: the next scan undoes it, once */
	assert_int_equal(undo_stale(run, roots, count_said, &said), 1);
	assert_int_equal(said, 1);
	assert_string_equal(get("balance"), "1");
	assert_int_not_equal(access(in_sys("latlab-1-cpu1"), F_OK), 0);
	assert_false(journals());
	assert_int_equal(undo_stale(run, roots, count_said, &said), 0);

	pid = killed_latlab(0, &fd);
	waitpid(pid, &status, 0);
	close(fd);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(undo_stale(run, roots, NULL, NULL), 1);
	assert_string_equal(get("balance"), "1");
	char missing[160];

	snprintf(missing, sizeof(missing), "%s/none", top);
	assert_int_equal(undo_stale(missing, roots, NULL, NULL), 0);
}

static void say_line(void *arg, const char *line)
{
	snprintf(arg, 512, "%s", line);
}

/*
 * A setting another latlab holds for its cell is refused (-EBUSY) and its
 * holder named, so that two runs never write each other's values back
 * (two throttle = off runs left RT throttling off for good); once that
 * latlab is gone, its stale journal is no holder.
 */
static void test_held_by_another(void **state)
{
	struct undo u;
	char report[256];
	int fd, status;
	pid_t pid;

	(void)state;
	pid = killed_latlab(1, &fd);	/* holds balance, alive */
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(undo_holder(&u, in_sys("balance")), pid);
	assert_int_equal(undo_holder(&u, in_sys("affinity")), 0);
	assert_int_equal(undo_set(&u, in_sys("balance"), "1", NULL), -EBUSY);
	assert_string_equal(get("balance"), "0");	/* the other's value, untouched */
	assert_int_equal(undo_set(&u, in_sys("affinity"), "0", NULL), 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fd);
	assert_int_equal(undo_holder(&u, in_sys("balance")), 0);	/* stale: not a holder */
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_int_equal(undo_stale(run, roots, NULL, NULL), 1);
	assert_string_equal(get("balance"), "1");
}

/* A journal another user could have written is not replayed: said and left. */
static void test_foreign_journal(void **state)
{
	char path[160], said[512] = "";
	FILE *fp;

	(void)state;
	mkdir(run, 0700);
	snprintf(path, sizeof(path), "%s/undo-9.txt", run);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "latlab-undo 1\nwrite\t%s\t7\n", in_sys("balance"));
	fclose(fp);
	assert_int_equal(chmod(path, 0666), 0);	/* anyone could have written it */
	assert_int_equal(undo_stale(run, roots, say_line, said), 0);
	assert_non_null(strstr(said, "undo-9.txt is not a journal latlab wrote"));
	assert_string_equal(get("balance"), "1");
	if (geteuid() == 0) {	/* another user's */
		assert_int_equal(chmod(path, 0600), 0);
		assert_int_equal(chown(path, 65534, 65534), 0);
		said[0] = '\0';
		assert_int_equal(undo_stale(run, roots, say_line, said), 0);
		assert_non_null(strstr(said, "undo-9.txt is not a journal latlab wrote"));
		assert_string_equal(get("balance"), "1");
	}
	unlink(path);
}

/*
 * A FIFO named as a journal: said and left, never waited on (it held every
 * run); a symbolic link the same, said (it was skipped in silence).
 */
static void test_stale_fifo(void **state)
{
	char path[160], said[512] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/undo-7.txt", run);
	mkdir(run, 0700);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(undo_stale(run, roots, say_line, said), 0);
	assert_non_null(strstr(said, "undo-7.txt is not a journal latlab wrote (not a regular file of this user's, writable by it alone): left alone"));
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
	/* a symbolic link is not followed, and not passed over in silence */
	said[0] = '\0';
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(undo_stale(run, roots, say_line, said), 0);
	assert_non_null(strstr(said, "undo-7.txt cannot be read as a journal (a symbolic link, not followed): left alone"));
	assert_int_equal(unlink(path), 0);
}

/*
 * A journal of another boot (/run is no tmpfs here: it outlives a reboot)
 * is said and removed, never replayed; a cgroup line that names a cgroup
 * latlab did not make is refused (issue 56).
 */
static void test_other_boot_and_foreign_cgroup(void **state)
{
	char path[160], said[512] = "", report[256];
	struct undo u;
	FILE *fp;

	(void)state;
	mkdir(run, 0700);
	snprintf(path, sizeof(path), "%s/undo-99999.txt", run);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "latlab-undo\t1\nboot\t00000000-not-this-boot\nwrite\t%s\t0\n", in_sys("balance"));
	fclose(fp);
	assert_int_equal(undo_stale(run, roots, say_line, said), 0);
	assert_non_null(strstr(said, "undo-99999.txt is the journal of a latlab of another boot (00000000-not-this-boot): not replayed onto this one, removed"));
	assert_string_equal(get("balance"), "1");	/* not written */
	assert_int_not_equal(access(path, F_OK), 0);
	/* a cgroup not of latlab's making: refused to make and to remove */
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(undo_mkdir_cgroup(&u, in_sys("system.slice")), -EPERM);
	/* named as latlab's, but deeper than a hierarchy's root: not one it makes */
	assert_int_equal(mkdir(in_sys("a"), 0755), 0);
	assert_int_equal(mkdir(in_sys("a/b"), 0755), 0);
	assert_int_equal(undo_mkdir_cgroup(&u, in_sys("a/b/latlab-1")), -EPERM);
	assert_int_equal(undo_mkdir_cgroup(&u, in_sys("a/latlab-2")), 0);	/* v1: ROOT/cpuset/latlab-... */
	rmdir(in_sys("a/b"));
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 0);
	assert_int_equal(mkdir(in_sys("system.slice"), 0755), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "latlab-undo\t1\ncgroup\t%s\n", in_sys("system.slice"));
	fclose(fp);
	said[0] = '\0';
	assert_int_equal(undo_stale(run, roots, say_line, said), 1);
	assert_non_null(strstr(said, "not undone: "));
	assert_int_equal(access(in_sys("system.slice"), F_OK), 0);	/* still there */
	rmdir(in_sys("system.slice"));
}

/* A journal written by hand: a line outside the roots, a cut last line. */
static void test_replay_refuses(void **state)
{
	char path[160], text[512];
	FILE *fp;
	int said = 0;

	(void)state;
	mkdir(run, 0700);
	snprintf(path, sizeof(path), "%s/undo-999999.txt", run);
	fp = fopen(path, "w");
	assert_non_null(fp);
	char balance[160];

	/* in_sys's buffer is one: copied, since the order arguments are made in is the compiler's */
	snprintf(balance, sizeof(balance), "%s", in_sys("balance"));
	snprintf(text, sizeof(text),
		 "latlab-undo\t1\nwrite\t%s/elsewhere\tx\nwrite\t%s\t1\nwrite\t%s\t7",
		 top, balance, in_sys("affinity"));
	fputs(text, fp);
	fclose(fp);
	put("balance", "0\n");
	assert_int_equal(undo_stale(run, roots, count_said, &said), 1);
	assert_string_equal(get("balance"), "1");	/* the whole line replayed */
	assert_string_equal(get("affinity"), "0-1");	/* the cut one not */
	snprintf(path, sizeof(path), "%s/elsewhere", top);
	assert_int_not_equal(access(path, F_OK), 0);	/* outside the roots: never written */
}

/* What cannot be undone is said, and the rest still is. */
static void test_failure_said(void **state)
{
	struct undo u;
	char report[256];

	(void)state;
	assert_int_equal(undo_open(&u, run, roots), 0);
	assert_int_equal(undo_set(&u, in_sys("balance"), "0", NULL), 0);
	assert_int_equal(undo_set(&u, in_sys("affinity"), "1", "0-1"), 0);
	assert_int_equal(unlink(in_sys("affinity")), 0);
	assert_int_equal(mkdir(in_sys("affinity"), 0755), 0);	/* now a directory: EISDIR */
	assert_int_equal(undo_finish(&u, report, sizeof(report)), 1);
	assert_non_null(strstr(report, "affinity"));
	assert_string_equal(get("balance"), "1");
	rmdir(in_sys("affinity"));
	put("affinity", "0-1\n");
	assert_int_equal(undo_open(&u, "/proc/no/such/dir", roots), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_finish_undoes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outside_roots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_by_another, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_boot_and_foreign_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_said, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
