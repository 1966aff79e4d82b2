/*
 * How a measured thread sleeps to its period ([matrix] wakeup) on which
 * clock ([matrix] clock): clock_nanosleep to the period (abs, cyclictest's
 * default) or for what is left of it (rel, cyclictest -r), a POSIX timer
 * and its signal, a timerfd, or ppoll/pselect timeouts (stress-ng's
 * cyclic). Whatever the method, the wake-up is timed against the period
 * on the one clock it slept on: the period is CLOCK_MONOTONIC's, moved to
 * the clock by the offset between the two read at the start.
 */
#ifndef LATLAB_WAKEUP_H
#define LATLAB_WAKEUP_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "axis.h"

/* The signal the posix-timer method's timer sends to its thread. */
#define WAKEUP_SIGNAL (SIGRTMIN + 3)

struct waker {
	int method;		/* enum wakeup_method */
	clockid_t clock;
	int64_t offset;		/* the clock minus CLOCK_MONOTONIC, ns */
	int fd;			/* timerfd; -1 */
	timer_t timer;		/* posix-timer's */
	int has_timer;
	sigset_t sig;		/* WAKEUP_SIGNAL, blocked in the thread */
};

/*
 * Set w up in the thread that will sleep: the clock's offset, the timerfd
 * or the POSIX timer (its signal blocked in this thread). 0 or -errno
 * (the clock or method this kernel lacks).
 */
int waker_init(struct waker *w, int method, int clock);

/*
 * Sleep until the period `at` (CLOCK_MONOTONIC ns) has come on w's
 * clock; at once if it has. 0, or an error number (EINTR: interrupted,
 * sleep again).
 */
int waker_sleep(struct waker *w, int64_t at);

/* Now on w's clock, as CLOCK_MONOTONIC ns (minus the offset). */
int64_t waker_now(const struct waker *w);

void waker_fini(struct waker *w);

/* The clockid of an enum wakeup_clock. */
clockid_t waker_clockid(int clock);

#endif
