/* Durations (ns) and sizes (bytes) as users write them in configs. */
#ifndef LATLAB_UNITS_H
#define LATLAB_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL

/* CLOCK_MONOTONIC now, in ns. */
static inline int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS_PER_S + t.tv_nsec;
}

/*
 * Parse "250us", "1.5s", "10m", "2h". A unit is required (ns us ms s m h);
 * fractions are allowed down to 1 ns. 0 or -EINVAL / -ERANGE.
 */
int units_parse_duration(const char *s, int64_t *ns);

/*
 * Parse "512", "4k", "4KiB", "1M", "2GiB" (binary multiples; "B" optional).
 * 0 or -EINVAL / -ERANGE.
 */
/*
 * Bytes, or with k/KiB, M/MiB, G/GiB (powers of 1024, any case). -EDOM
 * for KB, MB, GB (refused: 1000 or 1024?), -EILSEQ for a blank between
 * the number and its unit; -EINVAL, -ERANGE.
 */
int units_parse_size(const char *s, int64_t *bytes);

/*
 * Parse an integer with nothing after it: decimal, or hexadecimal with
 * 0x ("010" is ten, not octal). 0 or -EINVAL / -ERANGE.
 */
int units_parse_int(const char *s, int64_t *v);

/* "1000us" -> shortest exact form ("1ms"); for ids and config echoes. */
void units_format_duration(int64_t ns, char *buf, size_t len);

/*
 * "1h 02m", "3m 05s", "12.5s", "250ms", "3.4 years": for humans (plan,
 * progress). INT64_MAX stands for "too long to say": "more than 292 years".
 */
void units_format_elapsed(int64_t ns, char *buf, size_t len);

/* "4096" -> "4KiB" when exact, else bytes. */
void units_format_size(int64_t bytes, char *buf, size_t len);

/*
 * A count or rate for people: three significant digits with an SI suffix,
 * never e-notation ("29.4k", "3.69M", "124", "7.20", "0.04").
 */
void units_format_count(double v, char *buf, size_t len);

/* CLOCK_MONOTONIC now, in ns: for deadlines. */
int64_t units_now_ns(void);

#endif
