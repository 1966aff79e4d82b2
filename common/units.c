#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "units.h"

struct unit {
	const char *name;
	int64_t mult;
};

static const struct unit duration_units[] = {
	{ "ns", 1 },
	{ "us", NS_PER_US },
	{ "ms", NS_PER_MS },
	{ "s", NS_PER_S },
	{ "m", 60 * NS_PER_S },
	{ "h", 3600 * NS_PER_S },
	{ NULL, 0 },
};

static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1LL << 10 }, { "kib", 1LL << 10 },
	{ "m", 1LL << 20 }, { "mib", 1LL << 20 },
	{ "g", 1LL << 30 }, { "gib", 1LL << 30 },
	{ NULL, 0 },
};

/*
 * "<digits>[.<digits>]<unit>" scaled by the unit's multiplier, exactly:
 * the fraction is applied digit by digit so "1.5us" is 1500 ns, not 1499.
 */
static int parse_scaled(const char *s, const struct unit *units,
			int case_fold, int64_t *out)
{
	const char *p = s;
	int64_t whole = 0, mult = 0, frac_val = 0, frac_div = 1;
	int digits = 0;

	while (isspace((unsigned char)*p))
		p++;
	for (; isdigit((unsigned char)*p); p++, digits++) {
		if (whole > (INT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, digits++) {
			if (frac_div <= INT64_MAX / 10) {
				frac_val = frac_val * 10 + (*p - '0');
				frac_div *= 10;
			}
		}
	}
	if (digits == 0)
		return -EINVAL;

	const char *u = p;
	size_t ulen = strlen(u);

	while (ulen > 0 && isspace((unsigned char)u[ulen - 1]))
		ulen--;
	int blank = 0;

	while (ulen > 0 && isspace((unsigned char)*u)) {
		u++;		/* "1 ms": said below, once "ms" is a unit */
		ulen--;
		blank = 1;
	}
	for (const struct unit *it = units; it->name; it++) {
		int same = case_fold ? strncasecmp(u, it->name, ulen) == 0
				     : strncmp(u, it->name, ulen) == 0;
		if (same && strlen(it->name) == ulen) {
			mult = it->mult;
			break;
		}
	}
	if (mult == 0)
		return -EINVAL;
	if (blank && ulen > 0)
		return -EILSEQ;	/* a blank between the number and its unit */
	if (whole > INT64_MAX / mult)
		return -ERANGE;
	/* frac_val / frac_div * mult, rounded to nearest, without overflow */
	long double f = (long double)frac_val * mult / frac_div;
	int64_t frac = (int64_t)(f + 0.5L);

	if (frac > INT64_MAX - whole * mult)
		return -ERANGE;
	*out = whole * mult + frac;
	return 0;
}

int units_parse_duration(const char *s, int64_t *ns)
{
	return parse_scaled(s, duration_units, 0, ns);
}

int units_parse_size(const char *s, int64_t *bytes)
{
	int rc = parse_scaled(s, size_units, 1, bytes);
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	/* KB, MB, GB: 1000 or 1024 is anyone's guess, so neither */
	if (rc == -EINVAL && n >= 2 && strchr("kKmMgG", s[n - 2]) &&
	    (s[n - 1] == 'b' || s[n - 1] == 'B'))
		return -EDOM;
	return rc;
}

int units_parse_int(const char *s, int64_t *v)
{
	char *end;
	long long x;

	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	/* 0x4b for addresses; a leading 0 is not octal */
	int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;

	errno = 0;
	x = strtoll(s, &end, base);
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	return 0;
}

void units_format_duration(int64_t ns, char *buf, size_t len)
{
	/* largest unit that divides exactly, so the text parses back to ns */
	for (int i = 5; i >= 0; i--) {
		int64_t m = duration_units[i].mult;

		if (ns != 0 && ns % m == 0) {
			snprintf(buf, len, "%lld%s", (long long)(ns / m),
				 duration_units[i].name);
			return;
		}
	}
	snprintf(buf, len, "%lldns", (long long)ns);
}

void units_format_elapsed(int64_t ns, char *buf, size_t len)
{
	int64_t s = ns / NS_PER_S;
	const int64_t year = 365LL * 24 * 3600;

	if (ns == INT64_MAX)
		snprintf(buf, len, "more than %lld years", (long long)(INT64_MAX / NS_PER_S / year));
	else if (s >= 2 * year)
		snprintf(buf, len, "%.1f years", (double)s / (double)year);
	else if (s >= 3600)
		snprintf(buf, len, "%lldh %02lldm", (long long)(s / 3600),
			 (long long)(s % 3600 / 60));
	else if (s >= 60)
		snprintf(buf, len, "%lldm %02llds", (long long)(s / 60),
			 (long long)(s % 60));
	else if (ns >= NS_PER_S)
		snprintf(buf, len, "%.1fs", (double)ns / NS_PER_S);
	else
		snprintf(buf, len, "%lldms", (long long)(ns / NS_PER_MS));
}

void units_format_size(int64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "GiB", "MiB", "KiB" };

	for (int i = 0; i < 3; i++) {
		int64_t m = 1LL << (10 * (3 - i));

		if (bytes != 0 && bytes % m == 0) {
			snprintf(buf, len, "%lld%s", (long long)(bytes / m),
				 names[i]);
			return;
		}
	}
	snprintf(buf, len, "%lld", (long long)bytes);
}

void units_format_count(double v, char *buf, size_t len)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	double a = v < 0 ? -v : v;
	int k = 0;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (a < 1) {	/* a rate below one: two decimals, never e-notation */
		snprintf(buf, len, "%.2f", v);
		return;
	}
	while (k < 4 && a >= 999.5) {
		a /= 1000;
		v /= 1000;
		k++;
	}
	/* three significant digits, as %.3g would, but never in e-notation */
	snprintf(buf, len, a >= 99.95 ? "%.0f%s" : a >= 9.995 ? "%.1f%s" : "%.2f%s", v, suffix[k]);
}

int64_t units_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}
