/*
 * The fuzz corpora (tests/fuzz/corpus/{config,tree,channel,image,ct_hist}), every input fed to
 * its target again: under `make SANITIZE=1 test` a crasher kept there
 * stays fixed. Each corpus must hold inputs, or the test tests nothing.
 */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "targets.h"

static int replay(const char *dir, int (*target)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		FILE *fp;
		uint8_t *buf;
		long len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fp = fopen(path, "rb");
		assert_non_null(fp);
		fseek(fp, 0, SEEK_END);
		len = ftell(fp);
		rewind(fp);
		buf = malloc((size_t)len + 1);
		assert_non_null(buf);
		assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
		fclose(fp);
		target(buf, (size_t)len);
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

static void test_config_corpus(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/config", fuzz_config) >= 10);
}

static void test_tree_corpus(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/tree", fuzz_tree) >= 4);
}

static void test_image_corpus(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/image", fuzz_image) >= 4);
}

static void test_channel_corpus(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/channel", fuzz_channel) >= 5);
}

static void test_ct_hist_corpus(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/ct_hist", fuzz_ct_hist) >= 5);
}

static int remove_scratch(void **state)
{
	(void)state;
	fuzz_cleanup();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_corpus),
		cmocka_unit_test(test_tree_corpus),
		cmocka_unit_test(test_channel_corpus),
		cmocka_unit_test(test_image_corpus),
		cmocka_unit_test(test_ct_hist_corpus),
	};

	return cmocka_run_group_tests_name("fuzz_replay", tests, NULL, remove_scratch);
}
