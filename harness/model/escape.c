#include <stdarg.h>
#include <stdio.h>

#include "escape.h"

void html_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		case '\t': case '\n': case '\r': fputc(c, fp); break;
		default:
			/* XML 1.0 has no other control character, not even as
			 * &#N;: junit.xml would not parse. Shown, not dropped. */
			if (c < 0x20 || c == 0x7f)
				fputc('?', fp);
			else
				fputc(c, fp);
		}
	}
}

void html_printf(FILE *fp, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	html_text(fp, buf);
}
