/*
 * Text in HTML and XML (the pages, junit.xml): & < > " ' as entities,
 * control characters XML 1.0 cannot carry shown as '?'.
 */
#ifndef LATLAB_ESCAPE_H
#define LATLAB_ESCAPE_H

#include <stdio.h>

/* Write s with & < > " ' escaped (and C0 controls but tab, LF, CR as '?'). */
void html_text(FILE *fp, const char *s);

/* printf, then escape what it produced. */
void html_printf(FILE *fp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
