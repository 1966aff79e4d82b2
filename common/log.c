#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

/*
 * A flag main sets once before any thread starts (the other mutable
 * file-scope state: the guest channel's descriptor and lock, vm/guest.c;
 * libtracecmd's functions, loaded once, trace/tracer.c; latload's stop
 * flag and its sinks, loadgen/).
 */
static int log_quiet;
static void (*log_sink)(const char *line);

void log_set_quiet(int quiet)
{
	log_quiet = quiet;
}

void log_set_sink(void (*sink)(const char *line))
{
	log_sink = sink;
}

/* A line is formatted whole and written at once: lines of threads never mix. */
static void vlog(const char *level, const char *fmt, va_list ap)
{
	char line[2048];
	int n = snprintf(line, sizeof(line), "%s: %s",
			 program_invocation_short_name, level);

	if (n < 0 || n >= (int)sizeof(line) - 1)
		n = 0;
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	if (log_sink)
		log_sink(line);
	n = (int)strlen(line);
	line[n++] = '\n';
	fwrite(line, 1, (size_t)n, stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("error: ", fmt, ap);
	va_end(ap);
}

void log_error_lines(const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		log_error("%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

int vfail_at(char *err, size_t len, int rc, const char *file, int line,
	     const char *fmt, va_list ap)
{
	int n = !file ? 0 : line > 0 ? snprintf(err, len, "%s:%d: ", file, line)
				     : snprintf(err, len, "%s: ", file);

	if (n < 0 || (size_t)n >= len)
		n = 0;
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	return rc;
}

int fail_at(char *err, size_t len, int rc, const char *file, int line,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at(err, len, rc, file, line, fmt, ap);
	va_end(ap);
	return rc;
}

int fail_with(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return rc;
}
