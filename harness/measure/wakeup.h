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

/* waker_sleep's every method but abs (wakeup.c). */
int waker_sleep_other(struct waker *w, int64_t at);

/*
 * Sleep until the period `at` (CLOCK_MONOTONIC ns) has come on w's
 * clock; at once if it has. 0, or an error number (EINTR: interrupted,
 * sleep again). abs, the default, inline with waker_now: between the
 * kernel's return and the clock read the measured thread runs no call of
 * latlab's, as cyclictest's (docs/own-code.md, "Against cyclictest").
 */
static inline int waker_sleep(struct waker *w, int64_t at)
{
	if (w->method == WAKE_ABS) {
		int64_t target = at + w->offset;
		struct timespec t = { .tv_sec = target / 1000000000LL,
				      .tv_nsec = target % 1000000000LL };

		return clock_nanosleep(w->clock, TIMER_ABSTIME, &t, NULL);
	}
	return waker_sleep_other(w, at);
}

/* Now on w's clock, as CLOCK_MONOTONIC ns (minus the offset). */
static inline int64_t waker_now(const struct waker *w)
{
	struct timespec t;

	clock_gettime(w->clock, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec - w->offset;
}

void waker_fini(struct waker *w);

/* The clockid of an enum wakeup_clock. */
clockid_t waker_clockid(int clock);

#endif
