/* CSV writing (through libcsv and back), atomic files, ring, kernel match. */
#include <errno.h>
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

#include "files.h"
#include "kernel.h"
#include "results.h"
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
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
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
	char path[128];

	(void)state;
	assert_int_equal(afile_write(dir, "t.csv", fill_rows, NULL), 0);
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	assert_int_equal(csv_table_read(path, &t), 0);
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
	char path[128];
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.csv", dir);
	fp = fopen(path, "w");
	fputs("a,b\n\"unterminated,1\n", fp);
	fclose(fp);
	assert_int_equal(csv_table_read(path, &t), -EINVAL);
	assert_int_equal(csv_table_read("/nonexistent.csv", &t), -ENOENT);
}

static void fill_text(FILE *fp, void *arg)
{
	fputs(arg, fp);
}

/* The old file stays whole until the new one is complete. */
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
	struct kernel_info rt = { .release = "6.6.0-rt15", .model = "rt" };
	struct kernel_info dyn = { .release = "6.18.44", .model = "full",
				   .dynamic = 1 };
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
	/* the test binary's own directory holds the test binary */
	assert_int_equal(self_dir(buf, sizeof(buf)), 0);
	strncat(buf, "/test_results", sizeof(buf) - strlen(buf) - 1);
	assert_int_equal(access(buf, X_OK), 0);
	assert_int_equal(path_lookup("sh", buf, sizeof(buf)), 0);
	assert_int_equal(access(buf, X_OK), 0);
	assert_int_equal(path_lookup("no-such-program-latlab", buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_csv_malformed),
		cmocka_unit_test(test_atomic_replace),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_kernel_match),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
