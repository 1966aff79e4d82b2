#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "watch.h"
#include "watch_bpf.h"

#define BPF_THREADS 64		/* bpf/watch.bpf.c's MAX_THREADS */
#define BPF_BUCKETS 1024	/* and BUCKETS */
#define BPF_PROBES 4		/* and PROBES */

void watch_bpf_bucket_range(int b, long long *lo, long long *hi)
{
	if (b < 16) {
		*lo = *hi = b;
		return;
	}
	int e = b / 16 + 3, sub = b % 16;

	/* from bucket 960 the range starts at 2^63: past any int64 (a pair
	 * BPF would count only from a clock gone backwards), held at the top */
	if (e - 4 >= 59) {
		*lo = *hi = LLONG_MAX;
		return;
	}
	*lo = (long long)(16 + sub) << (e - 4);
	*hi = *lo + ((1LL << (e - 4)) - 1);	/* bucket 959 ends at INT64_MAX exactly */
}

/*
 * The verifier's last `lines` lines (before libbpf's "-- END PROG LOAD
 * LOG --"), or libbpf's own last lines where it printed no verifier log;
 * joined by '|'.
 */
void watch_bpf_log_tail(const char *log, char *out, size_t len, int lines)
{
	const char *end = log + strlen(log), *verifier = NULL, *p;
	int seen = 0;

	for (const char *f = log; (f = strstr(f, "-- END PROG LOAD LOG --")); f++)
		verifier = f;
	if (verifier)
		end = verifier;
	/* back from end to the start of the lines-th last line */
	for (p = end; p > log && seen < lines;) {
		p--;
		if (p == log || p[-1] == '\n')
			seen++;
	}
	snprintf(out, len, "%.*s", (int)(end - p), p);
	for (char *c = out; *c; c++)
		if (*c == '\n')
			*c = c[1] ? '|' : '\0';
}

int watch_bpf_kallsyms(int (*each)(void *arg, unsigned long long addr, char type,
				   const char *name), void *arg)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[256];

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long a;
		char type, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 && a &&
		    each(arg, a, type, name))
			break;
	}
	fclose(fp);
	return 0;
}

/* watch_wakers' walk: the three callbacks' addresses, until all are found */
struct wakers {
	unsigned long long *addr;
	int found;
};

static int waker_of(void *arg, unsigned long long a, char type, const char *name)
{
	static const char *const fn[] = { "hrtimer_wakeup", "timerfd_tmrproc", "posix_timer_fn" };
	struct wakers *w = arg;

	if (type != 't' && type != 'T')
		return 0;
	for (size_t i = 0; i < sizeof(fn) / sizeof(fn[0]); i++)
		if (strcmp(name, fn[i]) == 0 && !w->addr[i]) {
			w->addr[i] = a;
			w->found++;
		}
	return w->found == 3;
}

int watch_wakers(unsigned long long addr[3])
{
	struct wakers w = { addr, 0 };

	addr[0] = addr[1] = addr[2] = 0;
	watch_bpf_kallsyms(waker_of, &w);
	return w.found;
}

#ifdef HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* bpf/watch.bpf.c's table of the watched threads, as its skeleton's .bss holds it */
struct slot {
	__u32 tid, idx1;
};

#include "watch.skel.h"

#define BPF_HIST_SIZE (2 * BPF_THREADS * BPF_BUCKETS * sizeof(__u64))

/* what w->bpf holds: the loaded programs, and their histogram map mapped
 * into latlab's memory (BPF_F_MMAPABLE) once, where each read finds it */
struct bpf_watcher {
	struct watch_bpf *skel;
	const volatile __u64 *hist;
};

_Static_assert(WATCH_MAX_THREADS <= BPF_THREADS, "every watched thread has a slot in the maps");

int watch_bpf_built(void)
{
	return 1;
}

/* does this process have capability cap (effective)? */
static int has_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

int watch_bpf_can(const char *doing, char *why, size_t len)
{
	/* $LATLAB_FAKE_BTF: another path, as a testing aid (a kernel without BTF) */
	const char *btf = getenv("LATLAB_FAKE_BTF") ? getenv("LATLAB_FAKE_BTF") : "/sys/kernel/btf/vmlinux";

	if (access(btf, R_OK) != 0) {
		snprintf(why, len, "this kernel has no BTF (%s: %s; CONFIG_DEBUG_INFO_BTF)", btf,
			 strerror(errno));
		return -ENODEV;
	}
	/* CAP_BPF 39 and CAP_PERFMON 38 (Linux 5.8), or CAP_SYS_ADMIN before them */
	if (!has_cap(CAP_SYS_ADMIN) && !(has_cap(39) && has_cap(38))) {
		snprintf(why, len, "%s through BPF needs CAP_BPF and CAP_PERFMON (or root)", doing);
		return -EPERM;
	}
	return 0;
}

int watch_bpf_check(char *why, size_t len)
{
	return watch_bpf_can("watching", why, len);
}

/* libbpf's last lines (a verifier's refusal), for why */
static char bpf_log[2048];

static int keep_log(enum libbpf_print_level level, const char *fmt, va_list ap);

void watch_bpf_log_begin(void)
{
	bpf_log[0] = '\0';
	libbpf_set_print(keep_log);
}

const char *watch_bpf_log(void)
{
	return bpf_log;
}

static int keep_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t used = strlen(bpf_log), n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	if (used + n >= sizeof(bpf_log)) {	/* keep the end */
		size_t cut = used + n - sizeof(bpf_log) + 1;

		memmove(bpf_log, bpf_log + (cut < used ? cut : used), used - (cut < used ? cut : used) + 1);
		used = strlen(bpf_log);
	}
	snprintf(bpf_log + used, sizeof(bpf_log) - used, "%s", line);
	return 0;
}


int watch_bpf_load(struct watch *w, char *why, size_t len)
{
	struct watch_bpf *skel;
	char tail[600];
	int rc;

	watch_bpf_log_begin();
	skel = watch_bpf__open();
	if (!skel) {
		rc = -errno;
		snprintf(why, len, "BPF: the watcher's object: %s", strerror(-rc));
		return rc;
	}
	unsigned long long addr[3];

	watch_wakers(addr);
	for (int i = 0; i < 3; i++)
		skel->rodata->wakers[i] = addr[i];
	rc = watch_bpf__load(skel);
	if (rc) {
		watch_bpf_log_tail(bpf_log, tail, sizeof(tail), 4);
		snprintf(why, len, "BPF: the kernel refused the watcher's programs (%s): %s",
			 strerror(-rc), tail[0] ? tail : "no log");
		watch_bpf__destroy(skel);
		return rc;
	}
	struct bpf_watcher *bw = malloc(sizeof(*bw));
	void *map = MAP_FAILED;

	if (bw)
		map = mmap(NULL, BPF_HIST_SIZE, PROT_READ, MAP_SHARED,
			   bpf_map__fd(skel->maps.hist), 0);
	if (map == MAP_FAILED) {
		rc = bw ? -errno : -ENOMEM;
		snprintf(why, len, "BPF: mapping the histogram map: %s", strerror(-rc));
		free(bw);
		watch_bpf__destroy(skel);
		return rc;
	}
	bw->skel = skel;
	bw->hist = map;
	w->bpf = bw;
	return 0;
}

int watch_bpf_attach(struct watch *w, char *why, size_t len)
{
	struct watch_bpf *skel = ((struct bpf_watcher *)w->bpf)->skel;
	char tail[600];
	int rc;

	/* bpf/watch.bpf.c's table: each thread at the first free of PROBES slots from its tid */
	const unsigned nslots = sizeof(skel->bss->slots) / sizeof(skel->bss->slots[0]);

	for (int i = 0; i < w->n; i++) {
		unsigned k;

		for (k = 0; k < BPF_PROBES; k++) {
			struct slot *sl = &skel->bss->slots[((unsigned)w->t[i].tid + k) & (nslots - 1)];

			if (!sl->idx1) {
				sl->tid = (__u32)w->t[i].tid;
				sl->idx1 = (__u32)i + 1;
				break;
			}
		}
		if (k == BPF_PROBES) {
			snprintf(why, len, "BPF: thread %d finds no free slot in the watcher's table", w->t[i].tid);
			return -ENOSPC;
		}
	}
	bpf_log[0] = '\0';
	rc = watch_bpf__attach(skel);
	if (rc) {
		watch_bpf_log_tail(bpf_log, tail, sizeof(tail), 2);
		snprintf(why, len, "BPF: attaching the watcher: %s%s%s", strerror(-rc),
			 tail[0] ? ": " : "", tail);
		return rc;
	}
	return 0;
}

/* The histograms read where the kernel counts them (mapped at load):
 * a load a bucket, not a lookup (2,048 system calls a thread before) */
int watch_bpf_read(struct watch *w, char *why, size_t len)
{
	struct bpf_watcher *bw = w->bpf;

	(void)why;
	(void)len;
	if (!bw)
		return 0;
	for (int i = 0; i < w->n; i++) {
		struct watch_thread *t = &w->t[i];
		__u32 slot = (__u32)i;
		__u64 unpaired = 0;

		hist_init(&t->timer);
		hist_init(&t->sched);
		t->unpaired = 0;
		for (int which = 0; which < 2; which++)
			for (int b = 0; b < BPF_BUCKETS; b++) {
				__u64 c = bw->hist[(which * BPF_THREADS + i) * BPF_BUCKETS + b];
				long long lo, hi;

				if (!c)
					continue;
				/* at its middle, as the triggers' 100 ns buckets are folded */
				watch_bpf_bucket_range(b, &lo, &hi);
				hist_add_bucket(which ? &t->sched : &t->timer, (lo + hi) / 2,
						(lo + hi) / 2 + 1, c);
			}
		if (bpf_map__lookup_elem(bw->skel->maps.counts, &slot, sizeof(slot), &unpaired,
					 sizeof(unpaired), 0) == 0)
			t->unpaired = unpaired;
	}
	return 0;
}

int watch_bpf_close(struct watch *w, char *why, size_t len)
{
	struct bpf_watcher *bw = w->bpf;
	int rc;

	if (!bw)
		return 0;
	watch_bpf__detach(bw->skel);	/* nothing counted while the maps are read */
	rc = watch_bpf_read(w, why, len);
	munmap((void *)bw->hist, BPF_HIST_SIZE);
	watch_bpf__destroy(bw->skel);
	free(bw);
	w->bpf = NULL;
	return rc;
}

#else	/* latlab built without BPF */

int watch_bpf_built(void)
{
	return 0;
}

int watch_bpf_can(const char *doing, char *why, size_t len)
{
	(void)doing;
	return watch_bpf_check(why, len);
}

int watch_bpf_check(char *why, size_t len)
{
	snprintf(why, len, "this latlab was built without BPF (make deps: clang, bpftool, libbpf-dev; a native build on a kernel with BTF)");
	return -ENODEV;
}

int watch_bpf_load(struct watch *w, char *why, size_t len)
{
	(void)w;
	return watch_bpf_check(why, len);
}

int watch_bpf_attach(struct watch *w, char *why, size_t len)
{
	(void)w;
	return watch_bpf_check(why, len);
}

int watch_bpf_read(struct watch *w, char *why, size_t len)
{
	(void)w;
	(void)why;
	(void)len;
	return 0;
}

int watch_bpf_close(struct watch *w, char *why, size_t len)
{
	(void)w;
	(void)why;
	(void)len;
	return 0;
}

#endif
