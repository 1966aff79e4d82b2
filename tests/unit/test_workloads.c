/* The workload registry and the built-in workloads' option handling. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "fakefs.h"
#include "chain.h"
#include "netpeer.h"
#include "options.h"
#include "workload.h"

static int64_t ok_run(struct workload_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void test_registry_valid(void **state)
{
	(void)state;
	assert_int_equal(workload_registry_check(workload_registry), 0);
	assert_non_null(workload_find("timer"));
	assert_non_null(workload_find("null"));
	assert_null(workload_find("nosuch"));
	for (int i = 0; workload_registry[i]; i++)
		assert_non_null(workload_registry[i]->help);
	/* each judged on what it exists for */
	assert_int_equal(workload_find("timer")->primary, METRIC_WAKEUP);
	assert_int_equal(workload_find("file-write")->primary, METRIC_RESPONSE);
	assert_int_equal(workload_find("udp-rtt")->primary, METRIC_RESPONSE);
	assert_int_equal(workload_find("noise")->primary, METRIC_NOISE_MAX);
}

/*
 * Start-up refuses a descriptor without run(), a name, a unique name, a
 * kind it knows, with a run() its kind never calls (a cell of another
 * program's threads), or with a primary metric it does not record; a
 * kind of its own with no run() is one.
 */
static void test_registry_rejects(void **state)
{
	static const struct workload_ops no_run = { .name = "x" };
	static const struct workload_ops no_name = { .run = ok_run };
	static const struct workload_ops a = { .name = "a", .run = ok_run };
	static const struct workload_ops a2 = { .name = "a", .run = ok_run };
	const struct workload_ops *bad1[] = { &a, &no_run, NULL };
	const struct workload_ops *bad2[] = { &no_name, NULL };
	const struct workload_ops *bad3[] = { &a, &a2, NULL };
	static const struct workload_ops own = { .name = "o", .run = ok_run,
						 .primary = METRIC_NOISE_MAX };
	static const struct workload_ops wild = { .name = "w", .run = ok_run,
						  .primary = METRIC_COUNT };
	static const struct workload_ops both = { .name = "b", .run = ok_run,
						  .metrics = METRIC_BIT(METRIC_NOISE_MAX),
						  .primary = METRIC_NOISE_MAX };
	static const struct workload_ops other = { .name = "c", .kind = WORKLOAD_CYCLICTEST };
	static const struct workload_ops other_run = { .name = "c", .kind = WORKLOAD_WATCH,
						       .run = ok_run };
	static const struct workload_ops unknown = { .name = "u", .kind = WORKLOAD_KINDS,
						     .run = ok_run };
	const struct workload_ops *good[] = { &a, &both, &other, NULL };
	const struct workload_ops *bad4[] = { &own, NULL };
	const struct workload_ops *bad5[] = { &wild, NULL };
	const struct workload_ops *bad6[] = { &other_run, NULL };
	const struct workload_ops *bad7[] = { &unknown, NULL };

	(void)state;
	assert_int_equal(workload_registry_check(bad1), -EINVAL);
	assert_int_equal(workload_registry_check(bad2), -EINVAL);
	assert_int_equal(workload_registry_check(bad3), -EINVAL);
	assert_int_equal(workload_registry_check(bad4), -EINVAL);
	assert_int_equal(workload_registry_check(bad5), -EINVAL);
	assert_int_equal(workload_registry_check(bad6), -EINVAL);
	assert_int_equal(workload_registry_check(bad7), -EINVAL);
	assert_int_equal(workload_registry_check(good), 0);
}

/* null: setup/run/teardown, and fail_every makes every n-th cycle EIO. */
static void test_null_fail_every(void **state)
{
	const struct workload_ops *w = workload_find("null");
	void *opts = calloc(1, w->opts_size);
	struct workload_ctx ctx = { 0 };
	char err[128];
	int fails = 0;

	(void)state;
	opt_defaults(w->options, opts);
	assert_int_equal(opt_parse(opt_find(w->options, "fail_every"), opts,
				   "3", err, sizeof(err)), 0);
	/* a rejected value leaves the option as it was */
	assert_int_not_equal(opt_parse(opt_find(w->options, "fail_every"), opts,
				       "-1", err, sizeof(err)), 0);
	assert_int_equal(*(int64_t *)opts, 3);
	ctx.opts = opts;
	assert_int_equal(w->setup(&ctx), 0);
	for (int i = 1; i <= 9; i++) {
		int64_t rc = w->run(&ctx);

		if (rc < 0) {
			assert_int_equal(rc, -EIO);
			assert_int_equal(i % 3, 0);
			fails++;
		}
	}
	assert_int_equal(fails, 3);
	w->teardown(&ctx);
	assert_null(ctx.priv);
	free(opts);
}

static void test_timer_has_no_io(void **state)
{
	const struct workload_ops *w = workload_find("timer");
	struct workload_ctx ctx = { 0 };

	(void)state;
	assert_null(w->setup);
	assert_int_equal(w->run(&ctx), 0);
}

/* A step of the chain test: each run() takes at least 200 us, counts itself, moves 7 bytes. */
static int slow_runs;
static int64_t slow_run(struct workload_ctx *ctx)
{
	int64_t end = mono_ns() + 200000;

	(void)ctx;
	slow_runs++;
	while (mono_ns() < end)
		;
	return 7;
}
static const struct workload_ops slow = { .name = "slow", .run = slow_run };

/*
 * chain: its steps in order, each period; setup declares io_step1..n
 * (not n + 1), run() stores each step's own time there and returns the
 * bytes of all; a failing step fails the period with its error.
 */
static void test_chain_steps(void **state)
{
	const struct workload_ops *null = workload_find("null");
	void *nopts = calloc(1, null->opts_size);
	struct chain_opts o = { .n = 2, .ops = { null, &slow } };
	struct workload_ctx ctx = { .opts = &o };
	char err[64];

	(void)state;
	opt_defaults(null->options, nopts);
	o.opts[0] = nopts;
	assert_int_equal(workload_chain.setup(&ctx), 0);
	assert_int_equal(ctx.metrics, METRIC_BIT(METRIC_IO_STEP1) | METRIC_BIT(METRIC_IO_STEP2));
	slow_runs = 0;
	assert_int_equal(workload_chain.run(&ctx), 7);
	assert_int_equal(slow_runs, 1);
	assert_true(ctx.metric_ns[METRIC_IO_STEP1] >= 0);
	assert_true(ctx.metric_ns[METRIC_IO_STEP1] < 200000);
	assert_true(ctx.metric_ns[METRIC_IO_STEP2] >= 200000);
	workload_chain.teardown(&ctx);
	assert_null(ctx.priv);

	/* the first step fails every 2nd period: that period's error, the second step not run */
	assert_int_equal(opt_parse(opt_find(null->options, "fail_every"), nopts, "2", err,
				   sizeof(err)), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.opts = &o;
	assert_int_equal(workload_chain.setup(&ctx), 0);
	slow_runs = 0;
	assert_int_equal(workload_chain.run(&ctx), 7);
	assert_int_equal(workload_chain.run(&ctx), -EIO);
	assert_int_equal(slow_runs, 1);
	workload_chain.teardown(&ctx);
	free(nopts);
}

/* ---- the I/O workloads, against a temporary directory ---- */

static char tmpdir[64];

static int make_tmpdir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/latlab-wl-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	(void)state;
	return fakefs_remove(tmpdir);
}

/* Options of workload `name` from "key=value" strings; NULL on a bad one. */
static void *make_opts(const char *name, const char *const *kv, int n)
{
	const struct workload_ops *w = workload_find(name);
	void *opts = calloc(1, w->opts_size ? w->opts_size : 1);
	char err[256];

	opt_defaults(w->options, opts);
	for (int i = 0; i < n; i++) {
		char key[64];
		const char *eq = strchr(kv[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv[i]), kv[i]);
		if (opt_parse(opt_find(w->options, key), opts, eq + 1, err,
			      sizeof(err))) {
			free(opts);
			return NULL;
		}
	}
	return opts;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

struct wl_case {
	const char *workload;
	const char *opts[3];
	int64_t size;
	int setup_rc;		/* expected setup() result */
	const char *why;	/* substring of ctx.why when setup fails */
	int64_t run_rc;		/* expected run(): > 0 means "that many bytes" */
};

static void run_case(const struct wl_case *c)
{
	const struct workload_ops *w = workload_find(c->workload);
	int nopts = 0;

	while (nopts < 3 && c->opts[nopts])
		nopts++;
	void *opts = make_opts(c->workload, c->opts, nopts);
	struct workload_ctx ctx = { .opts = opts, .size = c->size, .cpu = -1 };

	assert_non_null(w);
	assert_non_null(opts);
	int rc = w->setup(&ctx);
	if (rc != c->setup_rc)
		fail_msg("%s %s: setup %d (%s), want %d", c->workload,
			 c->opts[0] ? c->opts[0] : "", rc, ctx.why, c->setup_rc);
	if (rc) {
		assert_non_null(strstr(ctx.why, c->why));
		free(opts);
		return;
	}
	for (int i = 0; i < 3; i++) {
		int64_t got = w->run(&ctx);

		if (got != c->run_rc)
			fail_msg("%s %s: run %lld, want %lld", c->workload,
				 c->opts[0] ? c->opts[0] : "", (long long)got,
				 (long long)c->run_rc);
	}
	w->teardown(&ctx);
	assert_null(ctx.priv);
	free(opts);
}

static void test_sysfs_read(void **state)
{
	char good[96], bad[96], empty[96], hex[96];
	char o_good[128], o_bad[128], o_empty[128], o_hex[128], o_none[128];

	(void)state;
	snprintf(good, sizeof(good), "%s/good", tmpdir);
	snprintf(bad, sizeof(bad), "%s/bad", tmpdir);
	snprintf(empty, sizeof(empty), "%s/empty", tmpdir);
	snprintf(hex, sizeof(hex), "%s/hex", tmpdir);
	write_file(good, "1234\n");
	write_file(bad, "12 volts\n");
	write_file(empty, "");
	write_file(hex, "0x1f\n");
	snprintf(o_good, sizeof(o_good), "path=%s", good);
	snprintf(o_bad, sizeof(o_bad), "path=%s", bad);
	snprintf(o_empty, sizeof(o_empty), "path=%s", empty);
	snprintf(o_hex, sizeof(o_hex), "path=%s", hex);
	snprintf(o_none, sizeof(o_none), "path=%s/none", tmpdir);
	const struct wl_case cases[] = {
		{ "sysfs-read", { o_good }, 0, 0, NULL, 5 },
		{ "sysfs-read", { o_hex }, 0, 0, NULL, 5 },
		{ "sysfs-read", { o_bad }, 0, 0, NULL, -EBADMSG },
		{ "sysfs-read", { o_empty }, 0, 0, NULL, -ENODATA },
		{ "sysfs-read", { o_none }, 0, -ENODEV, "no /tmp/", 0 },
		{ "sysfs-read", { NULL }, 0, 0, NULL, -1 },	/* default: below */
	};
	for (size_t i = 0; i < 5; i++)
		run_case(&cases[i]);
	/* the default attribute exists on any Linux and parses */
	const struct workload_ops *w = workload_find("sysfs-read");
	void *opts = make_opts("sysfs-read", NULL, 0);
	struct workload_ctx ctx = { .opts = opts };
	assert_int_equal(w->setup(&ctx), 0);
	assert_true(w->run(&ctx) > 0);
	w->teardown(&ctx);
	free(opts);
}

static void test_file_io(void **state)
{
	char path[96], o_path[128], o_link[128], link[96], taken[96], o_taken[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/io.dat", tmpdir);
	snprintf(o_path, sizeof(o_path), "path=%s", path);
	snprintf(taken, sizeof(taken), "%s/taken", tmpdir);
	write_file(taken, "not latlab's");
	snprintf(o_taken, sizeof(o_taken), "path=%s", taken);
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	assert_int_equal(symlink("/tmp/latlab-wl-victim", link), 0);
	snprintf(o_link, sizeof(o_link), "path=%s", link);
	const struct wl_case cases[] = {
		{ "file-write", { o_path, "region=64k" }, 4096, 0, NULL, 4096 },
		{ "file-write", { o_path, "region=64k", "sync=fdatasync" }, 512, 0, NULL, 512 },
		{ "file-write", { o_path, "region=64k", "sync=fsync" }, 512, 0, NULL, 512 },
		{ "file-write", { o_path, "region=64k", "sync=dsync" }, 512, 0, NULL, 512 },
		{ "file-read", { o_path, "region=64k" }, 4096, 0, NULL, 4096 },
		{ "file-read", { o_path, "region=4k" }, 65536, 0, NULL, 65536 },	/* region < size */
		{ "file-write", { o_taken }, 512, -EEXIST, "latlab only writes files it creates", 0 },
		{ "file-write", { o_link }, 512, -EEXIST, "latlab only writes files it creates", 0 },
		{ "file-write", { o_path, "direct=on" }, 1000, -EINVAL, "multiple of 4096", 0 },
		{ "file-write", { "path=/nonexistent/dir/f" }, 512, -ENOENT, "cannot create", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_case(&cases[i]);
		/* nothing left behind, the other's file and the link untouched */
		assert_int_equal(access(path, F_OK), -1);
	}
	assert_int_equal(access("/tmp/latlab-wl-victim", F_OK), -1);
	FILE *fp = fopen(taken, "r");
	char buf[32] = "";
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "not latlab's");
}

static void test_dev_read(void **state)
{
	char o_file[128];

	(void)state;
	snprintf(o_file, sizeof(o_file), "path=%s", tmpdir);
	const struct wl_case cases[] = {
		{ "dev-read", { NULL }, 256, 0, NULL, 256 },		/* /dev/urandom */
		{ "dev-read", { "path=/dev/zero" }, 4096, 0, NULL, 4096 },
		{ "dev-read", { "path=/dev/null" }, 64, 0, NULL, -ENODATA },
		{ "dev-read", { o_file }, 64, -EINVAL, "not a character device", 0 },
		{ "dev-read", { "path=/dev/nonexistent-sensor" }, 64, -ENODEV, "no /dev/nonexistent-sensor", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

static void test_rtt(void **state)
{
	(void)state;
	const struct wl_case cases[] = {
		{ "pipe-rtt", { NULL }, 100, 0, NULL, 200 },
		{ "pipe-rtt", { "peer=process" }, 4096, 0, NULL, 8192 },
		{ "pipe-rtt", { "peer=thread", "peer_nice=5" }, 1 << 20, 0, NULL, 2 << 20 },
		{ "udp-rtt", { NULL }, 1000, 0, NULL, 2000 },
		{ "udp-rtt", { "peer=process" }, 65507, 0, NULL, 2 * 65507 },
		{ "udp-rtt", { NULL }, 65508, -EMSGSIZE, "more than a UDP datagram holds", 0 },
		{ "mq-rtt", { NULL }, 100, 0, NULL, 200 },
		{ "mq-rtt", { "peer=process" }, 4096, 0, NULL, 8192 },
		{ "mq-rtt", { NULL }, 1 << 20, -EINVAL, "msgsize_max", 0 },
		{ "sem-rtt", { NULL }, 64, 0, NULL, 0 },
		{ "sem-rtt", { "peer=process", "peer_nice=3" }, 64, 0, NULL, 0 },
		{ "signal-rtt", { NULL }, 64, 0, NULL, 0 },
		{ "signal-rtt", { "peer=process" }, 64, 0, NULL, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

/*
 * Where the guest's /init says the peer is (NETPEER_ENV): loopback when
 * unset, behind a card ("NS ADDR"), behind a veth twin ("NS ADDR veth");
 * anything else refused. A namespace peer's socket is made in that
 * namespace: here the caller's own, named by its nsfs file.
 */
static void test_net_peer(void **state)
{
	struct net_peer p;
	char name[64];
	int fd;

	(void)state;
	unsetenv(NETPEER_ENV);
	assert_int_equal(net_peer_get(&p), 0);
	assert_false(p.device || p.veth);
	assert_string_equal(net_peer_name(&p, name, sizeof(name)), "loopback");
	setenv(NETPEER_ENV, "/proc/self/ns/net 10.0.2.2", 1);
	assert_int_equal(net_peer_get(&p), 0);
	assert_true(p.device && !p.veth);
	assert_string_equal(net_peer_name(&p, name, sizeof(name)), "device 10.0.2.2");
	setenv(NETPEER_ENV, "/proc/self/ns/net 10.0.2.2 veth", 1);
	assert_int_equal(net_peer_get(&p), 0);
	assert_true(p.veth && !p.device);
	assert_string_equal(p.ns, "/proc/self/ns/net");
	assert_string_equal(net_peer_name(&p, name, sizeof(name)), "veth 10.0.2.2");
	fd = net_peer_socket(&p, SOCK_DGRAM);
	assert_true(fd >= 0 || fd == -EPERM);	/* setns needs CAP_SYS_ADMIN */
	if (fd >= 0)
		close(fd);
	static const char *const bad[] = {
		"10.0.2.2", "/proc/self/ns/net", "/proc/self/ns/net 10.0.2.x",
		"/proc/self/ns/net 10.0.2.2 card", "/proc/self/ns/net 10.0.2.2 veth x",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv(NETPEER_ENV, bad[i], 1);
		if (net_peer_get(&p) != -EINVAL)
			fail_msg("'%s' taken", bad[i]);
	}
	unsetenv(NETPEER_ENV);
}

/* opts of type ops, its defaults with key = value set (NULL: none). */
static void *opts_with(const struct workload_ops *ops, const char *key, const char *value)
{
	void *o = calloc(1, ops->opts_size);
	char err[256];

	assert_non_null(o);
	opt_defaults(ops->options, o);
	if (key)
		assert_int_equal(opt_parse(opt_find(ops->options, key), o, value, err, sizeof(err)), 0);
	return o;
}

/*
 * compute: exactly one of loops and time, time less than the period; a
 * step of time = D takes at least D, one of loops = N the same work each
 * cycle (more loops, more time).
 */
static void test_compute(void **state)
{
	const struct workload_ops *ops = workload_find("compute");
	const char *key = NULL;
	char err[256];
	void *o;

	(void)state;
	assert_non_null(ops);
	o = opts_with(ops, NULL, NULL);
	assert_int_equal(ops->check(o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give exactly one of loops = N"));
	assert_int_equal(opt_parse(opt_find(ops->options, "loops"), o, "100", err, sizeof(err)), 0);
	assert_int_equal(opt_parse(opt_find(ops->options, "time"), o, "10us", err, sizeof(err)), 0);
	assert_int_equal(ops->check(o, err, sizeof(err)), -EINVAL);
	free(o);
	o = opts_with(ops, "time", "1ms");
	assert_int_equal(ops->check(o, err, sizeof(err)), 0);
	assert_int_equal(ops->check_period(o, 1000000, &key, err, sizeof(err)), -EINVAL);
	assert_string_equal(key, "time");
	assert_non_null(strstr(err, "every period would be missed"));
	assert_int_equal(ops->check_period(o, 2000000, &key, err, sizeof(err)), 0);
	free(o);
	/* time = 200us: every step at least that long */
	struct workload_ctx ctx = { 0 };

	ctx.opts = o = opts_with(ops, "time", "200us");
	for (int i = 0; i < 5; i++) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		assert_int_equal(ops->run(&ctx), 0);
		clock_gettime(CLOCK_MONOTONIC, &b);
		assert_true((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) >= 200000);
	}
	free(o);
	ctx.opts = o = opts_with(ops, "loops", "1000");
	assert_int_equal(ops->check(o, err, sizeof(err)), 0);
	assert_int_equal(ops->run(&ctx), 0);
	free(o);
}

static void test_i2c_missing_bus(void **state)
{
	(void)state;
	const struct wl_case c = { "i2c-read", { "bus=254", "address=0x4b" }, 1,
				   -ENODEV, "no /dev/i2c-254", 0 };
	run_case(&c);
	/* option ranges: a 7-bit address */
	assert_null(make_opts("i2c-read", (const char *[]){ "address=0x80" }, 1));
	assert_null(make_opts("i2c-read", (const char *[]){ "register=256" }, 1));
}

static void test_pi_mutex(void **state)
{
	(void)state;
	const struct wl_case cases[] = {
		{ "pi-mutex", { NULL }, 64, 0, NULL, 64 },
		{ "pi-mutex", { "protocol=none", "contenders=3", "gap=10us" }, 64, 0, NULL, 64 },
		{ "pi-mutex", { "nices=-5 x" }, 64, -EINVAL, "nices = '-5 x'", 0 },
		{ "pi-mutex", { "nices=20" }, 64, -EINVAL, "numbers from -20 to 19", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_valid),
		cmocka_unit_test(test_registry_rejects),
		cmocka_unit_test(test_null_fail_every),
		cmocka_unit_test(test_timer_has_no_io),
		cmocka_unit_test(test_chain_steps),
		cmocka_unit_test(test_sysfs_read),
		cmocka_unit_test(test_file_io),
		cmocka_unit_test(test_dev_read),
		cmocka_unit_test(test_rtt),
		cmocka_unit_test(test_net_peer),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_i2c_missing_bus),
		cmocka_unit_test(test_pi_mutex),
	};

	return cmocka_run_group_tests_name("workloads", tests, make_tmpdir,
					   remove_tmpdir);
}
