#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/select.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "wakeup.h"

static int64_t read_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct timespec ts_of(int64_t ns)
{
	if (ns < 0)
		ns = 0;
	return (struct timespec){ .tv_sec = ns / 1000000000LL, .tv_nsec = ns % 1000000000LL };
}

#ifndef CLOCK_AUX
#define CLOCK_AUX 16	/* the first auxiliary clock (uapi linux/time.h, 6.17) */
#endif

clockid_t waker_clockid(int clock)
{
	if (clock >= WCLOCK_AUX0)
		return CLOCK_AUX + (clock - WCLOCK_AUX0);
	return clock == WCLOCK_REALTIME ? CLOCK_REALTIME : clock == WCLOCK_TAI ? CLOCK_TAI
									       : CLOCK_MONOTONIC;
}

int waker_init(struct waker *w, int method, int clock)
{
	struct timespec res;

	memset(w, 0, sizeof(*w));
	w->method = method;
	w->clock = waker_clockid(clock);
	w->fd = -1;
	if (clock_getres(w->clock, &res) != 0)
		return -errno;	/* an auxiliary clock this kernel lacks or has not enabled */
	if (method == WAKE_ABS || method == WAKE_REL) {
		/* a clock that can be read but not slept on (aux clocks before nanosleep came to them) */
		struct timespec zero = { 0, 0 };
		int rc = clock_nanosleep(w->clock, 0, &zero, NULL);

		if (rc == EINVAL || rc == ENOTSUP)
			return -rc;
	}
	/* the offset between two reads as close as they come: the lowest of a few */
	int64_t best = INT64_MAX;

	for (int i = 0; i < 5; i++) {
		int64_t a = read_ns(CLOCK_MONOTONIC), c = read_ns(w->clock), b = read_ns(CLOCK_MONOTONIC);

		if (b - a < best) {
			best = b - a;
			w->offset = c - (a + (b - a) / 2);
		}
	}
	if (method == WAKE_TIMERFD) {
		w->fd = timerfd_create(w->clock, TFD_CLOEXEC);
		if (w->fd < 0)
			return -errno;
	} else if (method == WAKE_POSIX_TIMER) {
		struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID,
				       .sigev_signo = WAKEUP_SIGNAL };

		ev._sigev_un._tid = gettid();
		sigemptyset(&w->sig);
		sigaddset(&w->sig, WAKEUP_SIGNAL);
		int rc = pthread_sigmask(SIG_BLOCK, &w->sig, NULL);

		if (rc)
			return -rc;
		if (timer_create(w->clock, &ev, &w->timer) != 0)
			return -errno;
		w->has_timer = 1;
	}
	return 0;
}

/* A relative sleep of `rest` ns by w's method (rel, poll, pselect). 0 or an error number. */
static int sleep_for(const struct waker *w, int64_t rest)
{
	struct timespec left = ts_of(rest);

	if (w->method == WAKE_REL)
		return clock_nanosleep(w->clock, 0, &left, NULL);
	if (w->method == WAKE_POLL)
		return ppoll(NULL, 0, &left, NULL) < 0 ? errno : 0;
	return pselect(0, NULL, NULL, NULL, &left, NULL) < 0 ? errno : 0;
}

int waker_sleep_other(struct waker *w, int64_t at)
{
	int64_t target = at + w->offset;	/* on w's clock */
	struct timespec t = ts_of(target);
	int64_t rest;

	switch (w->method) {
	case WAKE_REL:
	case WAKE_POLL:
	case WAKE_PSELECT:
		/* what is left, again if a timeout on another clock ended early */
		while ((rest = target - read_ns(w->clock)) > 0) {
			int rc = sleep_for(w, rest);

			if (rc)
				return rc;
		}
		return 0;
	case WAKE_TIMERFD: {
		struct itimerspec its = { .it_value = t };
		uint64_t n;

		if (timerfd_settime(w->fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
			return errno;
		return read(w->fd, &n, sizeof(n)) == (ssize_t)sizeof(n) ? 0 : errno;
	}
	case WAKE_POSIX_TIMER: {
		struct itimerspec its = { .it_value = t };

		if (target <= read_ns(w->clock))
			return 0;	/* a past time would fire at once: the same */
		if (timer_settime(w->timer, TIMER_ABSTIME, &its, NULL) != 0)
			return errno;
		for (;;) {
			if (sigwaitinfo(&w->sig, NULL) == WAKEUP_SIGNAL)
				return 0;
			if (errno != EINTR)
				return errno;
		}
	}
	default:
		return clock_nanosleep(w->clock, TIMER_ABSTIME, &t, NULL);
	}
}

void waker_fini(struct waker *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->has_timer)
		timer_delete(w->timer);
	w->fd = -1;
	w->has_timer = 0;
}
