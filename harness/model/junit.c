#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "junit.h"

static void attr(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, " %s=\"", name);
	html_text(fp, value);
	fputc('"', fp);
}

/* text, escaped, its "; " parts a line each */
static void lines(FILE *fp, const char *text)
{
	char part[1024];

	while (*text) {
		const char *end = strstr(text, "; ");
		size_t n = end ? (size_t)(end - text) : strlen(text);

		snprintf(part, sizeof(part), "%.*s", (int)n, text);
		html_text(fp, part);
		fputc('\n', fp);
		text += n + (end ? 2 : 0);
	}
}

static void one_case(FILE *fp, const struct junit_case *c)
{
	static const char *const tag[] = {
		[JUNIT_FAILURE] = "failure", [JUNIT_ERROR] = "error",
		[JUNIT_SKIPPED] = "skipped",
	};

	fputs("  <testcase", fp);
	attr(fp, "classname", c->classname);
	attr(fp, "name", c->name);
	if (c->time_s >= 0)
		fprintf(fp, " time=\"%.1f\"", c->time_s);
	fputc('>', fp);
	if (c->result != JUNIT_PASS) {
		fprintf(fp, "<%s", tag[c->result]);
		if (c->type && c->result != JUNIT_SKIPPED)
			attr(fp, "type", c->type);
		attr(fp, "message", c->message ? c->message : "");
		if (c->result == JUNIT_FAILURE && c->message && strstr(c->message, "; ")) {
			/* every limit broken, a line each: "; " parts the message's */
			fputc('>', fp);
			lines(fp, c->message);
			fprintf(fp, "</%s>", tag[c->result]);
		} else {
			fputs("/>", fp);
		}
	} else if (c->out && c->out[0]) {
		fputs("<system-out>", fp);
		html_text(fp, c->out);
		fputs("</system-out>", fp);
	}
	fputs("</testcase>\n", fp);
}

void junit_write(FILE *fp, const struct junit_suite *s, int n,
		 void (*get)(int i, struct junit_case *c, void *arg), void *arg)
{
	int count[JUNIT_SKIPPED + 1] = { 0 };
	struct junit_case c;

	for (int i = 0; i < n; i++) {
		c = (struct junit_case){ .time_s = -1 };
		get(i, &c, arg);
		count[c.result]++;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", fp);
	if (s->full)
		fputs("<testsuites>\n", fp);
	fputs("<testsuite", fp);
	attr(fp, "name", s->name);
	fprintf(fp, " tests=\"%d\" failures=\"%d\"", n, count[JUNIT_FAILURE]);
	if (s->full)
		fprintf(fp, " errors=\"%d\" skipped=\"%d\"", count[JUNIT_ERROR],
			count[JUNIT_SKIPPED]);
	fputs(">\n", fp);
	for (int i = 0; i < n; i++) {
		c = (struct junit_case){ .time_s = -1 };
		get(i, &c, arg);
		one_case(fp, &c);
	}
	fputs("</testsuite>\n", fp);
	if (s->full)
		fputs("</testsuites>\n", fp);
}
