#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "settle.h"
#include "units.h"

int settle_parse_stat(const char *text, struct cpu_ticks *t)
{
	/* cpu user nice system idle iowait irq softirq steal ... */
	unsigned long long v[8] = { 0 };
	int n = sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);

	if (n < 4)
		return -EINVAL;
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	t->all = t->busy + v[3] + v[4];
	return 0;
}

static int read_ticks(struct cpu_ticks *t)
{
	char buf[512];
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	return settle_parse_stat(buf, t);
}

int settle_wait(int64_t window_ns, int64_t quiet_ns, int64_t limit_ns, struct settle *out)
{
	struct cpu_ticks first, prev, now;
	int64_t start = mono_ns(), quiet_since = start;
	int rc = read_ticks(&first);

	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	prev = first;
	for (;;) {
		struct timespec ts = { window_ns / NS_PER_S, window_ns % NS_PER_S };
		int64_t t;

		nanosleep(&ts, NULL);
		t = mono_ns();
		rc = read_ticks(&now);
		if (rc)
			return rc;
		unsigned long long busy = now.busy - prev.busy, all = now.all - prev.all;

		if (all && 100.0 * (double)busy > SETTLE_BUSY_PCT * (double)all) {
			quiet_since = t;	/* busy: the quiet starts again */
			if (now.all > first.all)
				out->busy_pct = 100.0 * (double)(now.busy - first.busy) /
						(double)(now.all - first.all);
		}
		prev = now;
		if (t - quiet_since >= quiet_ns) {
			out->settled = 1;
			out->waited_s = (double)(t - start) / NS_PER_S;
			return 0;
		}
		if (t - start >= limit_ns) {
			out->waited_s = (double)(t - start) / NS_PER_S;
			return 0;
		}
	}
}
