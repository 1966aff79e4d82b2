/* CSV writing (through libcsv and back), atomic files, ring, kernel match. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "files.h"
#include "html.h"
#include "kernel.h"
#include "atomic.h"
#include "csvfile.h"
#include "ring.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/latlab-results-%d", (int)getpid());
	return mkdir_p(dir);
}

static int teardown(void **state)
{
	(void)state;
	return fakefs_remove(dir);
}

static void fill_rows(FILE *fp, void *arg)
{
	static const char *const fields[] = {
		"plain", "with,comma", "with \"quote\"", "two\nlines", " lead",
		"",
	};
	struct csvw w = { .fp = fp };

	(void)arg;
	csvw_header(&w, "a,b,c,d,e,f,n,x");
	for (size_t i = 0; i < 6; i++)
		csvw_str(&w, fields[i]);
	csvw_int(&w, -42);
	csvw_num(&w, 1.25, 2);
	csvw_end(&w);
}

/* What csvw writes, libcsv reads back field for field. */
static void test_csv_roundtrip(void **state)
{
	struct csv_table t;
	char path[128], err[PATH_MAX + 256];

	(void)state;
	assert_int_equal(afile_write(dir, "t.csv", fill_rows, NULL), 0);
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	assert_int_equal(csv_table_read(path, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, 2);
	assert_int_equal(t.ncols[1], 8);
	assert_string_equal(t.cell[1][0], "plain");
	assert_string_equal(t.cell[1][1], "with,comma");
	assert_string_equal(t.cell[1][2], "with \"quote\"");
	assert_string_equal(t.cell[1][3], "two\nlines");
	assert_string_equal(t.cell[1][4], " lead");
	assert_string_equal(t.cell[1][5], "");
	assert_string_equal(t.cell[1][6], "-42");
	assert_string_equal(t.cell[1][7], "1.25");
	assert_int_equal(csv_table_col(&t, "n"), 6);
	assert_int_equal(csv_table_col(&t, "zz"), -1);
	csv_table_free(&t);
	/* plain numbers are written unquoted */
	FILE *fp = fopen(path, "r");
	char line[256];
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\n");
	fclose(fp);
}

static void test_csv_malformed(void **state)
{
	struct csv_table t;
	char path[128], err[PATH_MAX + 256];
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.csv", dir);
	fp = fopen(path, "w");
	fputs("a,b\n\"unterminated,1\n", fp);
	fclose(fp);
	assert_int_equal(csv_table_read(path, &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(csv_table_read("/nonexistent.csv", &t, err, sizeof(err)), -ENOENT);
}

static void fill_text(FILE *fp, void *arg)
{
	fputs(arg, fp);
}

/* The old file stays whole until the new one is complete. */
struct table_case {
	const char *text;
	int rc;
	const char *want;	/* in err, after "PATH:" */
};

/* What csv_table_read refuses, and the line it names. */
static void test_csv_strict(void **state)
{
	static const struct table_case cases[] = {
		{ "a,b\n1,2\n", 0, NULL },
		{ "a,b\n1,2", -EINVAL, "2: the last line has no newline: the file was cut short" },
		{ "a,b\n1\n", -EINVAL, "2: 1 fields, but the header has 2" },
		{ "a,b\n1,2,3\n", -EINVAL, "2: 3 fields, but the header has 2" },
		/* a row spanning lines is named by the line it begins on */
		{ "a,b\n\"x\ny\",1\n3\n", -EINVAL, "4: 1 fields, but the header has 2" },
		{ "a,b\n\"open,1\n", -EINVAL, "2: a quoted field is never closed" },
		{ "", -EINVAL, " empty: not even a header" },
		{ "a,b\n1,\"2\"x\n", -EINVAL, "2: " },
	};
	char path[128], err[PATH_MAX + 256];
	struct csv_table t;

	(void)state;
	snprintf(path, sizeof(path), "%s/strict.csv", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *fp = fopen(path, "w");
		char want[300];

		assert_non_null(fp);
		fputs(cases[i].text, fp);
		fclose(fp);
		err[0] = '\0';
		int rc = csv_table_read(path, &t, err, sizeof(err));
		if (rc != cases[i].rc)
			fail_msg("case %zu: rc %d, want %d (%s)", i, rc, cases[i].rc, err);
		snprintf(want, sizeof(want), "%s:%s", path, cases[i].want ? cases[i].want : "");
		if (cases[i].want && !strstr(err, want))
			fail_msg("case %zu: '%s', want '%s'", i, err, want);
		csv_table_free(&t);
	}
}

/* A FIFO or a directory where a file belongs: refused at once. */
static void test_csv_not_regular(void **state)
{
	char path[128], err[PATH_MAX + 256];
	struct csv_table t;

	(void)state;
	snprintf(path, sizeof(path), "%s/fifo.csv", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(csv_table_read(path, &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(csv_table_read(dir, &t, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "a directory, not a file"));
	assert_int_equal(csv_table_read("/dev/zero", &t, err, sizeof(err)), -EINVAL);
}

struct num_case {
	const char *text;
	int rc;
	int64_t v;
};

/* A number is taken only when it parses whole. */
static void test_csv_numbers(void **state)
{
	static const struct num_case ints[] = {
		{ "12", 0, 12 }, { "-7", 0, -7 }, { "12x", -EINVAL, 0 },
		{ " 12", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "1.5", -EINVAL, 0 },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "9223372036854775808", -ERANGE, 0 },
		{ "-9223372036854775809", -ERANGE, 0 },
	};
	static const char *const bad_nums[] = { "nan", "inf", "-inf", "1e999", "1.5x", "" };
	char path[128], err[PATH_MAX + 256];
	struct csv_table t;
	int64_t v;
	double d;

	(void)state;
	snprintf(path, sizeof(path), "%s/nums.csv", dir);
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		FILE *fp = fopen(path, "w");

		fprintf(fp, "n,x\n\"%s\",2.5\n", ints[i].text);
		fclose(fp);
		assert_int_equal(csv_table_read(path, &t, err, sizeof(err)), 0);
		v = 0;
		int rc = csv_table_int(&t, 1, "n", &v, err, sizeof(err));
		if (rc != ints[i].rc || (rc == 0 && v != ints[i].v))
			fail_msg("'%s': rc %d v %lld", ints[i].text, rc, (long long)v);
		if (rc)
			assert_non_null(strstr(err, ":2: n = '"));
		assert_int_equal(csv_table_num(&t, 1, "x", &d, err, sizeof(err)), 0);
		assert_true(d == 2.5);
		assert_int_equal(csv_table_int(&t, 1, "nosuch", &v, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, ":1: no column 'nosuch'"));
		csv_table_free(&t);
	}
	for (size_t i = 0; i < sizeof(bad_nums) / sizeof(bad_nums[0]); i++) {
		FILE *fp = fopen(path, "w");

		fprintf(fp, "x\n\"%s\"\n", bad_nums[i]);
		fclose(fp);
		assert_int_equal(csv_table_read(path, &t, err, sizeof(err)), 0);
		if (csv_table_num(&t, 1, "x", &d, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' taken as a number", bad_nums[i]);
		csv_table_free(&t);
	}
}

static void test_atomic_replace(void **state)
{
	char path[128], buf[64];
	struct afile af;
	FILE *fp;

	(void)state;
	assert_int_equal(afile_write(dir, "a.txt", fill_text, "old\n"), 0);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	assert_int_equal(afile_open(&af, path), 0);
	fputs("new, half", af.fp);
	afile_abort(&af);		/* a crash before commit */
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "old\n");
	assert_int_equal(access(af.tmp, F_OK), -1);	/* no temp left */
	assert_int_equal(afile_write(dir, "a.txt", fill_text, "new\n"), 0);
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "new\n");
	/* a directory that does not exist */
	assert_int_equal(afile_write("/nonexistent/dir", "x", fill_text, ""),
			 -ENOENT);
}

static void test_mkdir_p(void **state)
{
	char path[160];
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/x/y/z", dir);
	assert_int_equal(mkdir_p(path), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(mkdir_p(path), 0);	/* exists: fine */
}

/* Records come out in order, a full ring drops and counts. */
static void test_ring(void **state)
{
	enum { RING_SLOTS = 64 };
	struct ring *r = malloc(sizeof(*r));
	struct series_rec *slots = calloc(RING_SLOTS, sizeof(*slots));
	struct series_rec rec = { 0 }, out;

	(void)state;
	ring_init(r, slots, RING_SLOTS, sizeof(rec));
	assert_int_equal(ring_pop(r, &out), 0);
	for (int i = 0; i < RING_SLOTS + 5; i++) {
		rec.t_s = i;
		ring_push(r, &rec);
	}
	assert_int_equal(r->dropped, 5);
	for (int i = 0; i < RING_SLOTS; i++) {
		assert_int_equal(ring_pop(r, &out), 1);
		assert_int_equal(out.t_s, i);
	}
	assert_int_equal(ring_pop(r, &out), 0);
	/* wraps around the index */
	for (int i = 0; i < 3 * RING_SLOTS; i++) {
		rec.t_s = i;
		assert_int_equal(ring_push(r, &rec), 0);
		assert_int_equal(ring_pop(r, &out), 1);
		assert_int_equal(out.t_s, i);
	}
	free(r);
	free(slots);
}

static void test_kernel_match(void **state)
{
	struct kernel_info rt = { .release = "6.6.0-rt15", .model = "rt",
				  .cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/vda1 isolcpus=1 quiet" };
	struct kernel_info dyn = { .release = "6.18.44", .model = "full",
				   .dynamic = 1, .cmdline = "root=/dev/vda1 ro" };
	static const struct {
		const char *match;
		int rt, dyn;
	} cases[] = {
		{ "any", 1, 1 },
		{ "preempt:rt", 1, 0 },
		{ "!preempt:rt", 0, 1 },
		{ "preempt:full", 0, 1 },
		{ "preempt:dynamic", 0, 1 },
		{ "release:*-rt*", 1, 0 },
		{ "!release:6.18.*", 1, 0 },
		/* a word of the command line, never a part of one */
		{ "cmdline:isolcpus=*", 1, 0 },
		{ "!cmdline:isolcpus=*", 0, 1 },
		{ "cmdline:root=/dev/vda1", 1, 1 },
		{ "cmdline:vda1", 0, 0 },
		{ "cmdline:ro", 0, 1 },
		/* terms: every one must hold */
		{ "preempt:rt cmdline:isolcpus=1", 1, 0 },
		{ "preempt:rt  !cmdline:isolcpus=*", 0, 0 },
		{ "any\t!preempt:rt cmdline:root=*", 0, 1 },
		{ " release:6.* ", 1, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(kernel_match_check(cases[i].match), 0);
		assert_int_equal(kernel_matches(cases[i].match, &rt), cases[i].rt);
		assert_int_equal(kernel_matches(cases[i].match, &dyn),
				 cases[i].dyn);
	}
	assert_int_equal(kernel_match_check("preempt:"), -EINVAL);
	assert_int_equal(kernel_match_check("release:"), -EINVAL);
	assert_int_equal(kernel_match_check("uname:x"), -EINVAL);
	assert_int_equal(kernel_match_check("cmdline:"), -EINVAL);
	assert_int_equal(kernel_match_check(""), -EINVAL);
	assert_int_equal(kernel_match_check("   "), -EINVAL);
	assert_int_equal(kernel_match_check("preempt:rt bogus"), -EINVAL);
	assert_int_equal(kernel_match_check("preempt:rt !"), -EINVAL);
	assert_string_equal(kernel_builtin_match("stock"), "!preempt:rt");
	assert_null(kernel_builtin_match("other"));
}

static void test_files(void **state)
{
	char path[128], buf[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/two-lines", dir);
	assert_int_equal(afile_write(dir, "two-lines", fill_text, "first\nsecond\n"), 0);
	assert_int_equal(file_first_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "first");
	assert_int_equal(afile_write(dir, "empty", fill_text, ""), 0);
	snprintf(path, sizeof(path), "%s/empty", dir);
	assert_int_equal(file_first_line(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(file_first_line("/nonexistent/x", buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "");
	/* a log's last line that says something: no blank one, no note of latlab's ('#') */
	assert_int_equal(afile_write(dir, "log", fill_text,
				     "# podman command: podman run\nError: unknown flag: --x\nsee --help\n  \n# after\n"), 0);
	snprintf(path, sizeof(path), "%s/log", dir);
	file_last_line(path, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "see --help");
	/* the preferred kind, where one is there; else the last */
	file_last_line(path, "Error: ", buf, sizeof(buf));
	assert_string_equal(buf, "Error: unknown flag: --x");
	file_last_line(path, "Warning: ", buf, sizeof(buf));
	assert_string_equal(buf, "see --help");
	file_last_line(path, NULL, buf, 6);	/* cut to its room */
	assert_string_equal(buf, "see -");
	file_last_line("/nonexistent/x", "Error: ", buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* the test binary's own directory holds the test binary */
	assert_int_equal(self_dir(buf, sizeof(buf)), 0);
	strncat(buf, "/test_results", sizeof(buf) - strlen(buf) - 1);
	assert_int_equal(access(buf, X_OK), 0);
	assert_int_equal(path_lookup("sh", buf, sizeof(buf)), 0);
	assert_int_equal(access(buf, X_OK), 0);
	assert_int_equal(path_lookup("no-such-program-latlab", buf, sizeof(buf)), -ENOENT);
	/* a name with a slash is a path, as execvp takes it */
	assert_int_equal(path_lookup("/bin/sh", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/bin/sh");
	assert_int_equal(path_lookup("/nonexistent/sh", buf, sizeof(buf)), -ENOENT);
	char plain[] = "/tmp/latlab-test-plain.XXXXXX";	/* not executable */
	int fd = mkstemp(plain);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(path_lookup(plain, buf, sizeof(buf)), -EACCES);
	unlink(plain);
}

/*
 * Escaping for HTML and for junit.xml alike: markup characters as
 * entities, tab, newline and CR kept, every other control character
 * (which XML 1.0 cannot hold at all) shown as '?'.
 */
static void test_html_text(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;&amp;&#39;" },
		{ "tab\tnl\ncr\r", "tab\tnl\ncr\r" },
		{ "\x1b[31mred\x07\x01\x7f", "?[31mred???" },
		{ "µs é", "µs é" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		assert_non_null(fp);
		html_text(fp, cases[i].in);
		fclose(fp);
		assert_string_equal(buf, cases[i].out);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_text),
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_csv_malformed),
		cmocka_unit_test(test_csv_strict),
		cmocka_unit_test(test_csv_not_regular),
		cmocka_unit_test(test_csv_numbers),
		cmocka_unit_test(test_atomic_replace),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_kernel_match),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
