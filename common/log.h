/* Messages to stderr, prefixed with the program's name. */
#ifndef LATLAB_LOG_H
#define LATLAB_LOG_H

#include <stdarg.h>
#include <stddef.h>

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* "latlab: error: ..." */
void log_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Each line of text as an error of its own (a config's errors, one a line). */
void log_error_lines(const char *text);
/* "latlab: warning: ..." */
void log_warn(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* "latlab: ..." unless quiet; for progress */
void log_info(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Silence log_info (errors and warnings still print). */
void log_set_quiet(int quiet);
/*
 * Also hand every line (without its newline) to sink: a latlab inside a
 * virtual machine sends its log to the host this way. Set before threads.
 */
void log_set_sink(void (*sink)(const char *line));

/*
 * Write the message into err (len bytes) and return rc: for functions that
 * say why they failed and let their caller decide how to tell.
 */
int fail_with(char *err, size_t len, int rc, const char *fmt, ...)
	PRINTF_LIKE(4, 5);

/*
 * The same, the message after "FILE:LINE: " ("FILE: " when line is 0;
 * nothing when file is NULL): where in a config or a data file it is.
 */
int fail_at(char *err, size_t len, int rc, const char *file, int line,
	    const char *fmt, ...) PRINTF_LIKE(6, 7);
int vfail_at(char *err, size_t len, int rc, const char *file, int line,
	     const char *fmt, va_list ap) PRINTF_LIKE(6, 0);

#endif
