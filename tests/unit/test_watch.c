/*
 * latlab watch's reading of the kernel (harness/trace/watch.c) on the
 * text a Debian 6.1 kernel printed (a hist file of `keys=pid,lat.buckets=100`),
 * and the watch workload's thread list (workloads/watch.c): each bucket
 * lands in its thread's histogram at its middle, lines of threads not
 * watched are left alone, Dropped is counted, anything else in a
 * "{ ... }" line is refused; a tid list is ids, commas between. The BPF
 * watcher's buckets (harness/trace/watch_bpf.c) tile the values without
 * a gap and within 1/16 of their width; a refusal quotes the verifier's
 * own last lines, not libbpf's words around them.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "watch.h"
#include "watch_bpf.h"
#include "workload.h"
#include "watch_opts.h"

static const char hist_text[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=pid,lat.buckets=100:vals=hitcount:sort=pid,lat.buckets=100:size=16384 [active]\n"
	"#\n"
	"\n"
	"{ pid:         96, lat: ~ 146000-146099 } hitcount:          1\n"
	"{ pid:         96, lat: ~ 168000-168099 } hitcount:          3\n"
	"{ pid:         97, lat: ~ 5000-5099 } hitcount:         10\n"
	"{ pid:        300, lat: ~ 100-199 } hitcount:          7\n"
	"{ pid:         97, lat: ~ 18446744073555418500-18446744073555418599 } hitcount:          2\n"
	"\n"
	"Totals:\n"
	"    Hits: 23\n"
	"    Entries: 5\n"
	"    Dropped: 2\n";

static void two_threads(struct watch *w, struct watch_thread *t)
{
	memset(w, 0, sizeof(*w));
	memset(t, 0, 2 * sizeof(*t));
	t[0].tid = 96;
	t[1].tid = 97;
	for (int i = 0; i < 2; i++) {
		hist_init(&t[i].timer);
		hist_init(&t[i].sched);
	}
	w->t = t;
	w->n = 2;
}

static void buckets_land_in_their_thread(void **state)
{
	struct watch w;
	struct watch_thread t[2];
	uint64_t dropped = 0;

	(void)state;
	two_threads(&w, t);
	assert_int_equal(watch_parse_hist(&w, hist_text, 0, &dropped), 0);
	assert_int_equal(dropped, 2);
	/* pid 96: 4 timer samples, at the buckets' middles */
	assert_int_equal(t[0].timer.count, 4);
	assert_int_equal(t[0].sched.count, 0);
	assert_in_range(t[0].timer.min, 146040, 146060);
	assert_in_range(t[0].timer.max, 168040, 168120);
	/* the median is the second of the 168 µs bucket's three */
	assert_in_range(hist_percentile(&t[0].timer, 50), 167500, 168800);
	assert_int_equal(t[1].timer.count, 10);
	assert_in_range(t[1].timer.max, 5040, 5080);
	/* 154 ms below zero, as the kernel prints a u64: counted apart, not a latency */
	assert_int_equal(t[1].unpaired, 2);
	assert_int_equal(t[0].unpaired, 0);
	/* which 1: the scheduling delay's histogram */
	assert_int_equal(watch_parse_hist(&w, hist_text, 1, &dropped), 0);
	assert_int_equal(t[1].sched.count, 10);
	assert_int_equal(t[1].unpaired, 4);
	assert_int_equal(dropped, 4);
	/* pid 300 is not watched: nothing of it anywhere */
	assert_int_equal(t[0].timer.count + t[1].timer.count, 14);
}

static void a_line_not_the_kernels_is_refused(void **state)
{
	struct watch w;
	struct watch_thread t[2];
	uint64_t dropped = 0;
	static const char *const bad[] = {
		"{ pid: 96, lat: 5000 } hitcount: 1\n",		/* no bucket range */
		"{ pid: 96, lat: ~ 5000-4000 } hitcount: 1\n",	/* a range backwards */
		"{ pid: 96, lat: ~ 5000-5099 }\n",		/* no count */
		"{ lat: ~ 5000-5099 } hitcount: 1\n",		/* no pid */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		two_threads(&w, t);
		assert_int_equal(watch_parse_hist(&w, bad[i], 0, &dropped), -EINVAL);
	}
	/* an empty histogram (no wake-up yet) is no error */
	two_threads(&w, t);
	assert_int_equal(watch_parse_hist(&w, "# event histogram\n\nTotals:\n    Hits: 0\n", 0, &dropped), 0);
	assert_int_equal(t[0].timer.count, 0);
}

static void tid_lists(void **state)
{
	int tids[WATCH_OPTS_MAX_TIDS];

	(void)state;
	assert_int_equal(watch_tids_parse("12", tids, 4), 1);
	assert_int_equal(tids[0], 12);
	assert_int_equal(watch_tids_parse("12,13,400", tids, 4), 3);
	assert_int_equal(tids[2], 400);
	assert_int_equal(watch_tids_parse("12,,13", tids, 4), -EINVAL);
	assert_int_equal(watch_tids_parse("12,x", tids, 4), -EINVAL);
	assert_int_equal(watch_tids_parse("0", tids, 4), -EINVAL);
	assert_int_equal(watch_tids_parse("12,", tids, 4), -EINVAL);
	assert_int_equal(watch_tids_parse("1,2,3,4,5", tids, 4), -E2BIG);
	assert_int_equal(watch_tids_parse("", tids, 4), 0);
}

static void a_comm_is_one_process(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(watch_find_comm("no-such-latlab-comm", err, sizeof(err)), -ESRCH);
	assert_non_null(strstr(err, "no process is called 'no-such-latlab-comm'"));
	/* pid 1 is one process, whatever its name here */
	FILE *fp = fopen("/proc/1/comm", "r");
	char name[64] = "";

	assert_non_null(fp);
	assert_non_null(fgets(name, sizeof(name), fp));
	fclose(fp);
	name[strcspn(name, "\n")] = 0;
	int pid = watch_find_comm(name, err, sizeof(err));

	assert_true(pid == 1 || pid == -EEXIST);
}

/* bpf/watch.bpf.c's bucket_of, as watch_bpf.c reads it back: every value in its bucket */
static void bpf_buckets_tile(void **state)
{
	long long lo, hi, prev_hi = -1;

	(void)state;
	for (int b = 0; b < 960; b++) {	/* every bucket an int64 reaches */
		watch_bpf_bucket_range(b, &lo, &hi);
		assert_true(lo == prev_hi + 1);		/* no gap, no overlap */
		assert_true(hi >= lo);
		if (lo >= 16)
			assert_true((hi - lo + 1) * 16 <= lo);	/* 1/16 of the value at most */
		prev_hi = hi;
	}
	assert_true(prev_hi == LLONG_MAX);	/* bucket 959 ends at the top */
	watch_bpf_bucket_range(974, &lo, &hi);	/* beyond: held there, no overflow */
	assert_true(lo == LLONG_MAX && hi == LLONG_MAX);
	watch_bpf_bucket_range(16, &lo, &hi);
	assert_true(lo == 16 && hi == 16);
	watch_bpf_bucket_range(16 * 7 + 5, &lo, &hi);	/* 2^10 .. : 1024 + 5 x 64 */
	assert_true(lo == 1344 && hi == 1407);
}

static void bpf_refusal_quotes_the_verifier(void **state)
{
	char out[256];
	static const char log[] =
		"libbpf: prog 'll_watch_switch': BPF program load failed: Permission denied\n"
		"libbpf: prog 'll_watch_switch': -- BEGIN PROG LOAD LOG --\n"
		"0: R1=ctx() R10=fp0\n"
		"; int BPF_PROG(ll_watch_switch, ...)\n"
		"R2 invalid mem access 'scalar'\n"
		"processed 12 insns (limit 1000000)\n"
		"-- END PROG LOAD LOG --\n"
		"libbpf: prog 'll_watch_switch': failed to load: -13\n"
		"libbpf: failed to load object 'watch_bpf'\n";

	(void)state;
	watch_bpf_log_tail(log, out, sizeof(out), 2);
	assert_string_equal(out, "R2 invalid mem access 'scalar'|processed 12 insns (limit 1000000)");
	/* no verifier's log: libbpf's own last lines */
	watch_bpf_log_tail("libbpf: a\nlibbpf: b\nlibbpf: c\n", out, sizeof(out), 2);
	assert_string_equal(out, "libbpf: b|libbpf: c");
	watch_bpf_log_tail("", out, sizeof(out), 2);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_land_in_their_thread),
		cmocka_unit_test(a_line_not_the_kernels_is_refused),
		cmocka_unit_test(tid_lists),
		cmocka_unit_test(a_comm_is_one_process),
		cmocka_unit_test(bpf_buckets_tile),
		cmocka_unit_test(bpf_refusal_quotes_the_verifier),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
