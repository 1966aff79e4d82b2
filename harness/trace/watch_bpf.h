/*
 * The BPF watcher (bpf/watch.bpf.c, built into latlab as a skeleton where
 * the build machine had clang, bpftool, libbpf and BTF): the histograms
 * of trace/watch.h counted by BPF programs on the BTF tracepoints
 * hrtimer_start, hrtimer_expire_entry, sched_waking and sched_switch,
 * filtered in the kernel to the watched threads; nothing copied out per
 * event, the maps read at the end. The programs' links are owned by
 * latlab's file descriptors: a killed latlab leaves nothing attached.
 */
#ifndef LATLAB_WATCH_BPF_H
#define LATLAB_WATCH_BPF_H

#include <stddef.h>

struct watch;

/* Was latlab built with it? 1 or 0. */
int watch_bpf_built(void);

/*
 * Can it watch through BPF here: built with it, the kernel's BTF
 * (/sys/kernel/btf/vmlinux), CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN).
 * 0, or -ENODEV / -EPERM with why.
 */
int watch_bpf_check(char *why, size_t len);

/*
 * Can `doing` ("watching", "recording") go through BPF here: the same
 * checks, the refusal naming it. 0, or -ENODEV / -EPERM with why.
 */
int watch_bpf_can(const char *doing, char *why, size_t len);

#ifdef HAVE_BPF
/* libbpf's messages kept from now on (its debug lines left out), for a refusal's why */
void watch_bpf_log_begin(void);
/* what was kept since watch_bpf_log_begin: the end of it */
const char *watch_bpf_log(void);
#endif

/*
 * The programs loaded (w->bpf): the costly part — libbpf reading the
 * kernel's BTF, the verifier — done before the cell's load starts (on a
 * guest's one vCPU under hackbench it took minutes). 0, or -errno with
 * why (a verifier's refusal: its last lines).
 */
int watch_bpf_load(struct watch *w, char *why, size_t len);

/* w's threads (w->t, w->n) given to the loaded programs, which are attached. 0 or -errno with why. */
int watch_bpf_attach(struct watch *w, char *why, size_t len);

/* The maps read into each thread's histograms (what they count so far: replaced). 0 or -errno with why. */
int watch_bpf_read(struct watch *w, char *why, size_t len);

/* The programs detached, the maps read into each thread's histograms, the programs freed. 0 or -errno. */
int watch_bpf_close(struct watch *w, char *why, size_t len);

/*
 * What of libbpf's log goes in a refusal: the verifier's last `lines`
 * lines (before libbpf's "-- END PROG LOAD LOG --"), or the log's own
 * last lines where it holds no verifier log; joined by '|'.
 */
void watch_bpf_log_tail(const char *log, char *out, size_t len, int lines);

/*
 * /proc/kallsyms, a symbol at a time (those with an address: not root or
 * kptr_restrict shows none): each(arg, address, type, name) until it
 * returns non-zero. 0, or -errno where the file cannot be read.
 */
int watch_bpf_kallsyms(int (*each)(void *arg, unsigned long long addr, char type,
				   const char *name), void *arg);

/*
 * The callbacks of the timers that wake a sleeper — hrtimer_wakeup,
 * timerfd_tmrproc, posix_timer_fn, in that order — from /proc/kallsyms;
 * 0 for one it shows no address of (not root, kptr_restrict). How many found.
 */
int watch_wakers(unsigned long long addr[3]);

/* The log-linear bucket b's range [lo, hi] in ns (bpf/watch.bpf.c's bucket_of). */
void watch_bpf_bucket_range(int b, long long *lo, long long *hi);

#endif
