/*
 * kernel.c on the files of real kernels of three generations
 * (tests/fixtures/kernels: Debian's 6.1, 6.12 and 7.2, stock and rt,
 * booted in qemu, and the development VM's 6.18): the preemption model
 * and where it came from, the deadline servers, and the words for a
 * real-time thread that runs long. Then the model's rules on facts made
 * here, for what no captured kernel shows.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "kexec.h"

#define FIXTURES "tests/fixtures/kernels/"

static const struct {
	const char *dir, *model;
	int dynamic;
	const char *source, *fair, *ext;
	int warn;
	const char *words;
} kernels[] = {
	{ "6.1-stock", "voluntary", 1, "debugfs", "none", "none", 1,
	  "RT throttling is on (950000 of every 1000000 us); no fair deadline server: "
	  "real-time threads that keep a CPU busy longer than that in a period are stopped" },
	/* 6.1's rt kernel has no dynamic choice; its config says PREEMPT_RT */
	{ "6.1-rt", "rt", 0, "uname -v", "none", "none", 1, "RT throttling is on" },
	{ "6.12-stock", "voluntary", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "none", 1,
	  "RT throttling is on (950000 of every 1000000 us); the fair deadline server is on "
	  "(50 ms of every 1000 ms per CPU): a real-time thread that keeps a CPU busy while "
	  "SCHED_OTHER tasks wait there is stopped for them after about 950000 us" },
	/* Debian's 6.12 rt is dynamic (its patches): lazy by default */
	{ "6.12-rt", "rt+lazy", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "none", 1, "stopped for them after about 950000 us of a period" },
	/* 7.x: throttling off (runtime = period), the servers on */
	{ "7.2-stock", "lazy", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "0: runtime 50000000 ns, period 1000000000 ns", 1,
	  "RT throttling is off (runtime = period); the fair deadline server is on (50 ms of "
	  "every 1000 ms per CPU): a real-time thread that keeps a CPU busy while SCHED_OTHER "
	  "tasks wait there gives way to them for 50 ms once they have waited about 950 ms" },
	{ "7.2-stock-full", "full", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "0: runtime 50000000 ns, period 1000000000 ns", 1, "RT throttling is off" },
	/* mainline's rt kernel has no /sys/kernel/realtime: uname -v says PREEMPT_RT */
	{ "7.2-rt", "rt+full", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "0: runtime 50000000 ns, period 1000000000 ns", 1, "gives way to them for 50 ms" },
	{ "7.2-rt-lazy", "rt+lazy", 1, "debugfs", "0: runtime 50000000 ns, period 1000000000 ns",
	  "0: runtime 50000000 ns, period 1000000000 ns", 1, "gives way to them" },
	/* debugfs there and unreadable, the config in /proc/config.gz (gzip) */
	{ "6.18-host", "none", 1, "the config's choice (/proc/config.gz)",
	  "unknown (debugfs sched/fair_server: Is a directory)", "none", 1,
	  "RT throttling is on (950000 of every 1000000 us); this kernel has the fair deadline "
	  "server, whose settings could not be read (debugfs sched/fair_server: Is a directory; "
	  "by default 50 ms of every 1000 ms per CPU)" },
};

static void test_captured(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		struct kernel_facts f;
		struct kernel_info k;
		char text[1024];

		char root[256];

		print_message("%s\n", kernels[i].dir);
		snprintf(root, sizeof(root), FIXTURES "%s", kernels[i].dir);
		kernel_facts_read(root, &f);
		assert_true(f.release[0] != '\0');
		kernel_model(&f, &k);
		assert_string_equal(k.model, kernels[i].model);
		assert_int_equal(k.dynamic, kernels[i].dynamic);
		assert_non_null(strstr(k.source, kernels[i].source));
		kernel_servers_text(&f.fair, text, sizeof(text));
		assert_string_equal(text, kernels[i].fair);
		kernel_servers_text(&f.ext, text, sizeof(text));
		assert_string_equal(text, kernels[i].ext);
		assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), kernels[i].warn);
		if (!strstr(text, kernels[i].words))
			print_error("%s: '%s'\n", kernels[i].dir, text);
		assert_non_null(strstr(text, kernels[i].words));
	}
}

/* preempt:rt is the family; a new model name is a match's word */
static void test_match(void **state)
{
	struct kernel_info rtfull = { .model = "rt+full", .dynamic = 1 };
	struct kernel_info rt = { .model = "rt" }, lazy = { .model = "lazy", .dynamic = 1 };

	(void)state;
	assert_true(kernel_matches("preempt:rt", &rtfull));
	assert_true(kernel_matches("preempt:rt", &rt));
	assert_false(kernel_matches("!preempt:rt", &rtfull));
	assert_true(kernel_matches("!preempt:rt", &lazy));
	assert_true(kernel_matches("preempt:rt+full", &rtfull));
	assert_false(kernel_matches("preempt:rt+lazy", &rtfull));
	assert_false(kernel_matches("preempt:full", &rtfull));
	assert_true(kernel_matches("preempt:lazy", &lazy));
	assert_true(kernel_matches("preempt:dynamic", &lazy));
	assert_false(kernel_matches("preempt:dynamic", &rt));
	for (const char *const *m = (const char *const[]){ "preempt:rt+full", "preempt:rt+lazy",
			"preempt:rt+laziest", "preempt:lazy", "preempt:laziest", "!preempt:none",
			NULL }; *m; m++)
		assert_int_equal(kernel_match_check(*m), 0);
	for (const char *const *m = (const char *const[]){ "preempt:rt+", "preempt:rt+none",
			"preempt:fast", "preempt:", NULL }; *m; m++)
		assert_int_equal(kernel_match_check(*m), -EINVAL);
}

/* The rules, on facts no captured kernel has. */
static void test_rules(void **state)
{
	static const struct {
		const char *version, *realtime, *preempt, *cmdline, *config_model;
		int config_rt, config_dynamic;
		const char *model;
		int dynamic;
	} rules[] = {
		/* an rt kernel that says so only in /sys/kernel/realtime */
		{ "#1 SMP", "1", "", "", "", -1, -1, "rt", 0 },
		/* dynamic rt whose debugfs is unread: its config's default, not a guess */
		{ "#1 SMP PREEMPT_RT", "", "", "", "full", 1, 1, "rt+full", 1 },
		/* ... and preempt= beats the config's default */
		{ "#1 SMP PREEMPT_RT", "", "", "lazy", "full", 1, 1, "rt+lazy", 1 },
		/* dynamic rt, nothing readable but uname: rt, its mode unknown */
		{ "#1 SMP PREEMPT_RT", "", "", "lazy", "", -1, -1, "rt", 0 },
		/* preempt= on a kernel that is not dynamic is ignored (as the kernel does) */
		{ "#1 SMP PREEMPT", "", "", "none", "", -1, -1, "full", 0 },
		{ "#1 SMP PREEMPT_DYNAMIC", "", "", "", "", -1, -1, "unknown", 1 },
		{ "#1 SMP PREEMPT_DYNAMIC", "", "", "full", "", -1, -1, "full", 1 },
		/* debugfs first, a word it does not know is not a model */
		{ "#1 SMP PREEMPT_DYNAMIC", "", "none (voluntary) full", "full", "none", 0, 1,
		  "voluntary", 1 },
		{ "#1 SMP PREEMPT_DYNAMIC", "", "(fast)", "", "lazy", 0, 1, "lazy", 1 },
		/* a static kernel's config is its model */
		{ "#1 SMP", "", "", "", "voluntary", 0, 0, "voluntary", 0 },
		{ "#1 SMP", "", "", "", "", -1, -1, "unknown", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct kernel_facts f = { .config_rt = rules[i].config_rt,
					  .config_dynamic = rules[i].config_dynamic };
		struct kernel_info k;

		snprintf(f.version, sizeof(f.version), "%s", rules[i].version);
		snprintf(f.realtime, sizeof(f.realtime), "%s", rules[i].realtime);
		snprintf(f.preempt, sizeof(f.preempt), "%s", rules[i].preempt);
		snprintf(f.cmdline_preempt, sizeof(f.cmdline_preempt), "%s", rules[i].cmdline);
		snprintf(f.config_model, sizeof(f.config_model), "%s", rules[i].config_model);
		kernel_model(&f, &k);
		print_message("%zu: %s\n", i, k.model);
		assert_string_equal(k.model, rules[i].model);
		assert_int_equal(k.dynamic, rules[i].dynamic);
	}
}

/* Throttling's edges: -1, a server switched off, an unknown sysctl. */
static void test_throttle(void **state)
{
	struct kernel_facts f = { .rt_runtime_us = -1, .rt_period_us = 1000000 };
	char text[1024];

	(void)state;
	snprintf(f.release, sizeof(f.release), "6.1.0");
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "RT throttling is off (runtime -1); no fair deadline server: "
				     "nothing stops a real-time thread that never sleeps"));
	/* a fair server set to 0 (as some RT distributions do) */
	f.fair = (struct kernel_servers){ .state = 1, .n = 1, .run = { { 0, 3, 0, 1000000000 } } };
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "the fair deadline server is off (runtime 0)"));
	kernel_servers_text(&f.fair, text, sizeof(text));
	assert_string_equal(text, "0-3: runtime 0 ns, period 1000000000 ns");
	/* CPUs that differ: runs of CPUs */
	f.fair.n = 2;
	f.fair.run[1] = (struct kernel_server){ 4, 4, 50000000, 1000000000 };
	kernel_servers_text(&f.fair, text, sizeof(text));
	assert_string_equal(text, "0-3: runtime 0 ns, period 1000000000 ns; "
				  "4: runtime 50000000 ns, period 1000000000 ns");
	f.rt_runtime_us = f.rt_period_us = INT64_MIN;
	f.fair.state = 0;
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "RT throttling unknown"));
	/* unreadable on a kernel from before the fair server: not one said to be there */
	f.rt_runtime_us = 950000;
	f.rt_period_us = 1000000;
	f.fair.state = -1;
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 1);
	assert_null(strstr(text, "has the fair deadline server"));
	snprintf(f.release, sizeof(f.release), "6.12.0");
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 1);
	assert_non_null(strstr(text, "has the fair deadline server"));
}

/* What nothing can be read from: never a crash, every field unknown. */
static void test_nothing(void **state)
{
	struct kernel_facts f;
	struct kernel_info k;
	char text[512];

	(void)state;
	kernel_facts_read(FIXTURES "no-such-kernel", &f);
	kernel_model(&f, &k);
	assert_string_equal(k.model, "unknown");
	assert_int_equal(f.config_rt, -1);
	assert_int_equal(f.fair.state, 0);
	kernel_servers_text(&f.fair, text, sizeof(text));
	assert_string_equal(text, "none");
	assert_int_equal(kernel_throttle_words(&f, text, sizeof(text)), 0);
}

static void put(const char *root, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/boot/%s", root, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/*
 * reboot = kexec's choice: the newest kernel in /boot (version order, not
 * the bytes': -10 after -9) that fits the match as it would boot with this
 * command line; one with no config is never taken, and said.
 */
static void test_kexec_pick(void **state)
{
	static const char *const dyn = "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n";
	char root[] = "/tmp/latlab-kexec.XXXXXX", boot[64], rel[128], why[1024];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(boot, sizeof(boot), "%s/boot", root);
	assert_int_equal(mkdir(boot, 0755), 0);
	put(root, "vmlinuz-6.1.0-9-amd64", "");
	put(root, "config-6.1.0-9-amd64", dyn);
	put(root, "vmlinuz-6.1.0-10-amd64", "");
	put(root, "config-6.1.0-10-amd64", dyn);
	put(root, "vmlinuz-6.1.0-10-rt-amd64", "");
	put(root, "config-6.1.0-10-rt-amd64", "CONFIG_PREEMPT_RT=y\n");
	put(root, "vmlinuz-6.1.0-11-amd64", "");	/* no config */
	put(root, "config-6.1.0-9-rt-amd64", "CONFIG_PREEMPT_RT=y\n");	/* no kernel */

	assert_int_equal(kexec_pick(root, "!preempt:rt", "root=/dev/vda1", rel, sizeof(rel), why,
				    sizeof(why)), 0);
	assert_string_equal(rel, "6.1.0-10-amd64");
	assert_int_equal(kexec_pick(root, "preempt:rt", "root=/dev/vda1", rel, sizeof(rel), why,
				    sizeof(why)), 0);
	assert_string_equal(rel, "6.1.0-10-rt-amd64");
	/* the command line it boots with decides a dynamic kernel's model */
	assert_int_equal(kexec_pick(root, "preempt:full", "root=/dev/vda1 preempt=full", rel,
				    sizeof(rel), why, sizeof(why)), 0);
	assert_string_equal(rel, "6.1.0-10-amd64");
	assert_int_equal(kexec_pick(root, "preempt:full", "root=/dev/vda1", rel, sizeof(rel), why,
				    sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no kernel in "));
	assert_non_null(strstr(why, "6.1.0-11-amd64 (no config)"));
	assert_non_null(strstr(why, "6.1.0-10-rt-amd64 (rt)"));
	assert_null(strstr(why, "6.1.0-9-rt-amd64"));
	assert_int_equal(kexec_pick(root, "preempt:rt cmdline:isolcpus=*", "root=/dev/vda1", rel,
				    sizeof(rel), why, sizeof(why)), -ENOENT);
	assert_int_equal(kexec_pick("/nonexistent", "any", "", rel, sizeof(rel), why, sizeof(why)),
			 -ENOENT);
	assert_non_null(strstr(why, "/nonexistent/boot: "));
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured),
		cmocka_unit_test(test_kexec_pick),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
