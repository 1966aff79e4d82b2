/*
 * The tree reader under fire: a few thousand mutated copies of a real
 * results tree (tests/fixtures/compare/stock), each read by tree_read and
 * cell_files_read. Whatever the damage, the reader returns: the tree or
 * an error that names a file, and a damaged cell is left out with its
 * reason. Run under `make SANITIZE=1 test`, a crash, an overflow or a
 * read out of bounds fails it. LATLAB_FUZZ_ITERS sets the count, and
 * LATLAB_FUZZ_SEED the seed (printed, so a failure can be replayed).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tree.h"

#define CELL "vm/6.1.0-stock/0000-none-timer-t1-aspread-1"

static char dir[64];

static const char *const files[] = {
	"cells.csv", CELL "/hist.csv", CELL "/summary.csv", CELL "/load.csv",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

/* What a hostile or broken writer leaves: tokens that break numbers. */
static const char *const tokens[] = {
	"-9223372036854775808", "9223372036854775808", "18446744073709551616",
	"nan", "inf", "-1", "0", "1e308", "\"", ",", "\n", "x", "..", "/",
	"wakeup", "io", "response", "pending", "ok", "", " ", "\r\n", "\0",
	"11936garbage", "99999999999999999999999999",
};

static int setup(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/latlab-fuzz-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r tests/fixtures/compare/stock %s",
		 dir, dir);
	return system(cmd);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	*len = (size_t)ftell(fp);
	rewind(fp);
	buf = malloc(*len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *len, fp), *len);
	buf[*len] = '\0';	/* mutate's strcspn stops here */
	fclose(fp);
	return buf;
}

static void spit(const char *path, const char *buf, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	fwrite(buf, 1, len, fp);
	fclose(fp);
}

/*
 * buf (len bytes and a NUL) with one random mutation into out (room for
 * len + 128), NUL-terminated too.
 */
static size_t mutate1(const char *buf, size_t len, char *out, unsigned *seed)
{
	size_t at = len ? (size_t)rand_r(seed) % len : 0, n;
	const char *tok = tokens[(size_t)rand_r(seed) % (sizeof(tokens) / sizeof(tokens[0]))];
	size_t tlen = tok[0] ? strlen(tok) : 1;	/* "\0" is one NUL byte */

	switch (rand_r(seed) % 6) {
	case 0:		/* cut short */
		memcpy(out, buf, at);
		return at;
	case 1:		/* a byte flipped */
		memcpy(out, buf, len);
		if (len)
			out[at] = (char)(out[at] ^ (1 << (rand_r(seed) % 8)));
		return len;
	case 2:		/* a token inserted */
		memcpy(out, buf, at);
		memcpy(out + at, tok, tlen);
		memcpy(out + at + tlen, buf + at, len - at);
		return len + tlen;
	case 3:		/* a field replaced by a token */
		n = strcspn(buf + at, ",\n");
		memcpy(out, buf, at);
		memcpy(out + at, tok, tlen);
		memcpy(out + at + tlen, buf + at + n, len - at - n);
		return len - n + tlen;
	case 4:		/* a line dropped */
		n = strcspn(buf + at, "\n");
		n += at + n < len;
		memcpy(out, buf, at);
		memcpy(out + at, buf + at + n, len - at - n);
		return len - n;
	default:	/* the end of the file repeated from `at` (at most 64) */
		n = len - at < 64 ? len - at : 64;
		memcpy(out, buf, len);
		memcpy(out + len, buf + at, n);
		return len + n;
	}
}

static size_t mutate(const char *buf, size_t len, char *out, unsigned *seed)
{
	size_t n = mutate1(buf, len, out, seed);

	out[n] = '\0';
	return n;
}

static void test_fuzz(void **state)
{
	const char *it = getenv("LATLAB_FUZZ_ITERS"), *sd = getenv("LATLAB_FUZZ_SEED");
	int iters = it ? atoi(it) : 3000;
	unsigned seed = sd ? (unsigned)strtoul(sd, NULL, 10) : 20261130u;
	char *orig[NFILES], path[NFILES][PATH_MAX], err[PATH_MAX + 1024];
	size_t len[NFILES];
	int read_ok = 0, failed = 0, left_out = 0;

	(void)state;
	print_message("fuzz: %d mutated trees, LATLAB_FUZZ_SEED=%u\n", iters, seed);
	for (size_t f = 0; f < NFILES; f++) {
		snprintf(path[f], sizeof(path[f]), "%s/%s", dir, files[f]);
		orig[f] = slurp(path[f], &len[f]);
	}
	for (int i = 0; i < iters; i++) {
		size_t f = (size_t)rand_r(&seed) % NFILES;
		char *out = malloc(len[f] + 128);
		struct tree t;
		struct cell_files cf;

		assert_non_null(out);
		/* one or two mutations of one file */
		size_t n = mutate(orig[f], len[f], out, &seed);
		if (rand_r(&seed) % 2) {
			char *again = malloc(n + 128);

			assert_non_null(again);
			n = mutate(out, n, again, &seed);
			free(out);
			out = again;
		}
		spit(path[f], out, n);
		err[0] = '\0';
		int rc = tree_read(&t, dir, err, sizeof(err));
		if (rc) {
			failed++;
			if (!strstr(err, dir))
				fail_msg("iteration %d: error without a file: '%s'", i, err);
		} else {
			read_ok++;
			left_out += t.nbad;
			for (int c = 0; c < t.n; c++) {
				if (t.cell[c].bad && !t.cell[c].bad[0])
					fail_msg("iteration %d: a cell left out without why", i);
				if (t.cell[c].bad && t.cell[c].measured)
					fail_msg("iteration %d: a damaged cell measured", i);
				if (t.cell[c].measured && t.cell[c].wakeup->count == 0)
					fail_msg("iteration %d: measured with no sample", i);
			}
			tree_free(&t);
		}
		snprintf(err, sizeof(err), "%s/%s", dir, CELL);
		char why[PATH_MAX + 1024];
		if (cell_files_read(err, &cf, why, sizeof(why)) == 0)
			cell_files_free(&cf);
		spit(path[f], orig[f], len[f]);
		free(out);
	}
	print_message("fuzz: %d read (%d cells left out), %d refused\n", read_ok,
		      left_out, failed);
	/* the mutations must reach both outcomes, or the test tests nothing */
	assert_true(left_out > iters / 10);
	assert_true(read_ok > iters / 10);
	/* and the restored tree reads clean */
	struct tree t;
	assert_int_equal(tree_read(&t, dir, err, sizeof(err)), 0);
	assert_int_equal(t.nbad, 0);
	assert_int_equal(t.cell[0].measured, 1);
	tree_free(&t);
	for (size_t f = 0; f < NFILES; f++)
		free(orig[f]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests_name("tree_fuzz", tests, setup, teardown);
}
