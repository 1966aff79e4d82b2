/*
 * interference.c on fixed /proc/interrupts, /proc/softirqs and /proc/stat
 * texts: the sources named as documented, only the measured CPUs, rows
 * that did not move left out, one-column rows (ERR, MIS) read, the
 * deltas, and steal time in ms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "interference.h"

static const char *interrupts_before =
	"           CPU0       CPU1       CPU2\n"
	"  0:         44          0          0  IO-APIC   2-edge      timer\n"
	" 36:          0        139          5  PCI-MSIX-0000:00:03.0   0-edge      virtio1-req.0\n"
	"NMI:          0          0          0   Non-maskable interrupts\n"
	"LOC:    5552006    4102296         10   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";
static const char *interrupts_after =
	"           CPU0       CPU1       CPU2\n"
	"  0:         44          0          0  IO-APIC   2-edge      timer\n"
	" 36:          0        239          5  PCI-MSIX-0000:00:03.0   0-edge      virtio1-req.0\n"
	"NMI:          0          0          0   Non-maskable interrupts\n"
	"LOC:    5553006    4104296         10   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";
static const char *softirqs_before =
	"                    CPU0       CPU1       CPU2\n"
	"          HI:          0          0          0\n"
	"      NET_RX:   19641988   22515248          7\n";
static const char *softirqs_after =
	"                    CPU0       CPU1       CPU2\n"
	"          HI:          0          0          0\n"
	"      NET_RX:   19641988   22520248          9\n";

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static const struct intf_row *find(const struct intf_row *r, int n, int cpu,
				   const char *source)
{
	for (int i = 0; i < n; i++)
		if (r[i].cpu == cpu && strcmp(r[i].source, source) == 0)
			return &r[i];
	return NULL;
}

static void test_deltas(void **state)
{
	char dir[] = "/tmp/latlab-intf-XXXXXX", ib[64], ia[64], sb[64], sa[64];
	struct intf_snap before = { NULL, 0 }, after = { NULL, 0 };
	struct intf_row *d = NULL;
	cpu_set_t cpus;
	int n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(ib, sizeof(ib), "%s/ib", dir);
	snprintf(ia, sizeof(ia), "%s/ia", dir);
	snprintf(sb, sizeof(sb), "%s/sb", dir);
	snprintf(sa, sizeof(sa), "%s/sa", dir);
	write_file(ib, interrupts_before);
	write_file(ia, interrupts_after);
	write_file(sb, softirqs_before);
	write_file(sa, softirqs_after);
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);	/* the measured CPU: 1 only */
	assert_int_equal(intf_read_files(&before, &cpus, ib, sb), 0);
	assert_int_equal(intf_read_files(&after, &cpus, ia, sa), 0);
	assert_int_equal(intf_delta(&before, &after, &d, &n), 0);
	assert_int_equal(n, 3);	/* IRQ 36, LOC, NET_RX: nothing else moved on CPU 1 */
	const struct intf_row *r = find(d, n, 1, "36 virtio1-req.0");
	assert_non_null(r);
	assert_string_equal(r->kind, "irq");
	assert_int_equal(r->count, 100);
	r = find(d, n, 1, "LOC Local timer interrupts");
	assert_non_null(r);
	assert_int_equal(r->count, 2000);
	r = find(d, n, 1, "NET_RX");
	assert_non_null(r);
	assert_string_equal(r->kind, "softirq");
	assert_int_equal(r->count, 5000);
	for (int i = 0; i < n; i++)
		assert_int_equal(d[i].cpu, 1);	/* CPU 2's NET_RX moved, but is not measured */
	free(d);
	intf_free(&before);
	intf_free(&after);
	assert_int_equal(intf_read_files(&before, &cpus, "/nonexistent", sb), -2);
	intf_free(&before);
	unlink(ib);
	unlink(ia);
	unlink(sb);
	unlink(sa);
	rmdir(dir);
}

/* /proc/stat: the measured CPU's steal time in ms, the others' left out */
static void test_steal(void **state)
{
	char dir[] = "/tmp/latlab-intf-XXXXXX", b[64], a[64];
	struct intf_snap before = { NULL, 0 }, after = { NULL, 0 };
	struct intf_row *d = NULL;
	cpu_set_t cpus;
	int n = 0;
	long hz = sysconf(_SC_CLK_TCK);

	(void)state;
	assert_true(hz > 0);
	assert_non_null(mkdtemp(dir));
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(a, sizeof(a), "%s/a", dir);
	write_file(b, "cpu  3448906 11414 304919 3416215 16268 0 24150 325792 0 0\n"
		      "cpu0 1738140 5700 148108 1586477 10079 0 10555 154154 0 0\n"
		      "cpu1 1710766 5714 156811 1829738 6189 0 13595 171638 0 0\n"
		      "intr 1 2 3\nctxt 12345\n");
	write_file(a, "cpu  3448956 11414 304928 3417108 16270 0 24152 325947 0 0\n"
		      "cpu0 1738140 5700 148108 1586477 10079 0 10555 154159 0 0\n"
		      "cpu1 1710816 5714 156820 1830631 6191 0 13597 171788 0 0\n"
		      "intr 1 2 3\nctxt 12399\n");
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	assert_int_equal(intf_read_stat(&before, &cpus, b), 0);
	assert_int_equal(intf_read_stat(&after, &cpus, a), 0);
	assert_int_equal(before.n, 1);	/* cpu1 only: not the total, not cpu0 */
	assert_int_equal(intf_delta(&before, &after, &d, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].kind, "steal");
	assert_string_equal(d[0].source, "steal ms");
	assert_int_equal(d[0].cpu, 1);
	/* 150 ticks; truncation on each side can move the delta by one tick's ms */
	assert_true(llabs(d[0].count - 150LL * 1000 / hz) <= 1000 / hz);
	free(d);
	/* nothing stolen: a row of 0, which a reader tells from a kernel that does not say */
	assert_int_equal(intf_delta(&after, &after, &d, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].kind, "steal");
	assert_int_equal(d[0].count, 0);
	free(d);
	intf_free(&before);
	intf_free(&after);
	/* the shared reader (spike captures use it too): ns, -1 where unsaid */
	int64_t steal[CPU_SETSIZE];

	assert_int_equal(intf_steal_ns(a, steal), 0);
	assert_int_equal(steal[0], 154159LL * (1000000000LL / hz));
	assert_int_equal(steal[1], 171788LL * (1000000000LL / hz));
	assert_int_equal(steal[2], -1);
	assert_true(intf_steal_counted(steal));
	assert_int_equal(intf_steal_ns("/nonexistent", steal), -2);
	assert_int_equal(steal[0], -1);
	assert_false(intf_steal_counted(steal));	/* unknown everywhere: none counted */
	/* bare metal, TCG: the column there and 0 on every CPU since boot */
	write_file(b, "cpu  10 0 20 30 0 0 0 0 0 0\ncpu0 5 0 10 15 0 0 0 0 0 0\ncpu1 5 0 10 15 0 0 0 0 0 0\n");
	assert_int_equal(intf_steal_ns(b, steal), 0);
	assert_int_equal(steal[1], 0);
	assert_false(intf_steal_counted(steal));
	write_file(b, "cpu0 5 0 10 15 0 0 0 0 0 0\ncpu1 5 0 10 15 0 0 0 1 0 0\n");	/* one tick on CPU 1 */
	assert_int_equal(intf_steal_ns(b, steal), 0);
	assert_true(intf_steal_counted(steal));
	/* no steal column (an old kernel): no row, not a 0 */
	write_file(b, "cpu1 1710766 5714 156811 1829738\n");
	assert_int_equal(intf_read_stat(&before, &cpus, b), 0);
	assert_int_equal(before.n, 0);
	assert_int_equal(intf_read_stat(&before, &cpus, "/nonexistent"), -2);
	intf_free(&before);
	unlink(b);
	unlink(a);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deltas),
		cmocka_unit_test(test_steal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
