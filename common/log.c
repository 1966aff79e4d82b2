#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

/*
 * The only mutable file-scope state outside main.c: a flag main sets once
 * before any thread starts.
 */
static int log_quiet;

void log_set_quiet(int quiet)
{
	log_quiet = quiet;
}

static void vlog(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", program_invocation_short_name, level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("error: ", fmt, ap);
	va_end(ap);
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
