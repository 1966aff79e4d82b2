/* A cell's log.txt as it runs: each line with its UTC time (cell.h). */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "cell.h"

void cell_log(struct cell_result *res, const char *fmt, ...)
{
	struct timespec t;
	struct tm tm;
	char stamp[64];
	va_list ap;

	if (!res->log)
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	gmtime_r(&t.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(res->log, "%s.%03ldZ ", stamp, t.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(res->log, fmt, ap);
	va_end(ap);
	fputc('\n', res->log);
}

int cell_end_with(struct cell_result *res, enum cell_status status, const char *fmt, ...)
{
	va_list ap;

	res->status = status;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
	return -1;
}
