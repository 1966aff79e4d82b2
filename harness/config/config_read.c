#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ini.h>

#include "argv.h"
#include "config_parts.h"
#include "files.h"
#include "log.h"

const char set_file[] = "--set";

/* The message after the entry's "FILE:LINE: " (loc NULL: none); -EINVAL. */
int cfg_fail(char *err, size_t len, const struct srcloc *loc,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at(err, len, -EINVAL, loc ? loc->file : NULL, loc ? loc->line : 0,
		 fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cfg_errs_add(struct cfg_errs *e, const char *msg)
{
	size_t used = e->n ? strlen(e->buf) : 0;

	if (e->n++ < CONFIG_ERRORS_MAX && used + 1 < e->len)
		snprintf(e->buf + used, e->len - used, "%s%s", used ? "\n" : "", msg);
	return -EINVAL;
}

void cfg_errs_end(struct cfg_errs *e)
{
	size_t used = strlen(e->buf);

	if (e->n > CONFIG_ERRORS_MAX && used + 1 < e->len)
		snprintf(e->buf + used, e->len - used,
			 "\n%d more errors not shown: fix these and run again",
			 e->n - CONFIG_ERRORS_MAX);
}

/* ---- pass 1: collect key/values with their lines ---- */
struct reader {
	FILE *fp;
	int line;
	int section_line;	/* line of the last [section] header */
	int long_line;		/* first line longer than the parser takes */
	int nul_line;		/* first line with a NUL byte */
	int mid_line;		/* the last chunk read did not end the line */
	int long_section;	/* line of a [section] name libinih cut */
	int line_len;		/* bytes of the current line so far */
	struct config *cfg;
	int oom;
};

/* Debian's libinih is built with INI_MAX_SECTION 50 (ini.h keeps it private). */
#define INIH_SECTION_MAX 50

/* The largest config latlab reads (bytes). */
#define CONFIG_MAX (1 << 20)

/*
 * fgets for inih that counts lines, so every entry knows its line. A
 * chunk without its newline continues the same line (an inih built to
 * grow its buffer reads a long line in several). A line longer than inih
 * takes is noted and skipped whole, and a NUL byte is noted (and read as
 * a blank), each with the line it is on.
 */
static char *counting_reader(char *str, int num, void *stream)
{
	struct reader *r = stream;
	int n = 0, c = EOF;

	while (n < num - 1 && (c = getc(r->fp)) != EOF) {
		if (c == '\0') {
			if (!r->nul_line)
				r->nul_line = r->line + !r->mid_line;
			c = ' ';
		}
		str[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return NULL;
	str[n] = '\0';
	if (!r->mid_line) {
		r->line++;
		r->line_len = 0;
		if (str[strspn(str, " \t")] == '[')
			r->section_line = r->line;
	}
	r->line_len += n;
	r->mid_line = str[n - 1] != '\n';
	if (r->mid_line && r->line_len > ini_max_line - 3) {
		if (!r->long_line)
			r->long_line = r->line;
		while ((c = getc(r->fp)) != EOF && c != '\n')
			;
		r->mid_line = 0;
	}
	return str;
}

static int push_entry(struct config *cfg, const char *section,
		      const char *key, const char *value, struct srcloc loc,
		      struct srcloc section_loc)
{
	struct config_entry *e;

	if (strlen(section) >= sizeof(e->section) ||
	    strlen(key) >= sizeof(e->key))
		return -ENAMETOOLONG;
	e = realloc(cfg->entries, (size_t)(cfg->nentries + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	cfg->entries = e;
	e = &cfg->entries[cfg->nentries];
	snprintf(e->section, sizeof(e->section), "%s", section);
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->value = strdup(value);
	if (!e->value)
		return -ENOMEM;
	e->loc = loc;
	e->section_loc = section_loc;
	cfg->nentries++;
	return 0;
}

static int on_ini_entry(void *user, const char *section, const char *name,
			const char *value)
{
	struct reader *r = user;
	struct srcloc loc = { r->cfg->path, r->line };
	struct srcloc sloc = { r->cfg->path, r->section_line };

	/* libinih keeps a section's first INIH_SECTION_MAX - 1 bytes: a name
	 * that long may have been cut, and must not match a shorter one */
	if (strlen(section) >= INIH_SECTION_MAX - 1) {
		r->long_section = r->section_line;
		return 0;
	}
	int rc = push_entry(r->cfg, section, name, value ? value : "", loc,
			    sloc);

	if (rc == -ENOMEM)
		r->oom = 1;
	return rc == 0;
}

int read_file(struct config *cfg, char *err, size_t errlen)
{
	struct reader r = { .cfg = cfg };
	struct srcloc loc = { cfg->path, 0 };
	int rc;

	/* a directory, a FIFO or /dev/zero is not a config: refused at once */
	int fd = file_open_regular(cfg->path, CONFIG_MAX, err, errlen);

	if (fd < 0)
		return -EINVAL;
	r.fp = fdopen(fd, "r");
	if (!r.fp) {
		close(fd);
		return cfg_fail(err, errlen, NULL, "%s: %s", cfg->path,
				strerror(errno));
	}
	/* Debian's libinih makes these run-time settings */
	ini_allow_multiline = 0;	/* one entry, one line: exact lines */
	ini_use_stack = 0;
	ini_max_line = OPT_STR_MAX;	/* every value a line holds fits its option */
	/* the heap buffer's size: 200 by default, which cut lines of 199+ */
	ini_initial_alloc = ini_max_line;
	ini_allow_realloc = 0;
	ini_stop_on_first_error = 1;
	ini_allow_no_value = 0;

	/* the reader is both the stream and the handler's user pointer */
	rc = ini_parse_stream(counting_reader, &r, on_ini_entry, &r);
	fclose(r.fp);
	if (r.oom || rc == -2)
		return cfg_fail(err, errlen, NULL, "out of memory");
	if (r.nul_line && (rc <= 0 || r.nul_line <= rc) &&
	    (!r.long_line || r.nul_line <= r.long_line)) {
		loc.line = r.nul_line;
		return cfg_fail(err, errlen, &loc, "a NUL byte: not a text file");
	}
	if (r.long_section) {
		loc.line = r.long_section;
		return cfg_fail(err, errlen, &loc,
				"a [section] name is at most %d characters (the INI reader keeps no more): shorten the name",
				INIH_SECTION_MAX - 2);
	}
	if (r.long_line && (rc <= 0 || r.long_line <= rc)) {
		loc.line = r.long_line;
		return cfg_fail(err, errlen, &loc,
				"line longer than %d characters",
				ini_max_line - 3);
	}
	if (rc > 0) {
		loc.line = rc;
		return cfg_fail(err, errlen, &loc,
				"syntax error: expected [section] or key = value (or a name too long)");
	}
	return 0;
}

int read_sets(struct config *cfg, const char *const *sets, int nsets,
		     char *err, size_t errlen)
{
	for (int i = 0; i < nsets; i++) {
		struct srcloc loc = { set_file, i + 1 };
		const char *eq = strchr(sets[i], '=');
		char left[160], section[64], key[64];
		const char *dot;
		size_t seclen;

		if (!eq || (size_t)(eq - sets[i]) >= sizeof(left))
			return cfg_fail(err, errlen, &loc,
					"'%s': expected section.key=value",
					sets[i]);
		snprintf(left, sizeof(left), "%.*s", (int)(eq - sets[i]),
			 sets[i]);
		/* kernel.NAME.key, load.NAME.key, workload.NAME.key,
		 * thresholds.METRIC.key (but thresholds.p99.9 is a key) */
		dot = strchr(left, '.');
		if (dot && (strncmp(left, "kernel.", 7) == 0 ||
			    strncmp(left, "load.", 5) == 0 ||
			    strncmp(left, "workload.", 9) == 0))
			dot = strchr(dot + 1, '.');
		else if (dot && strncmp(left, "thresholds.", 11) == 0) {
			const char *next = strchr(dot + 1, '.');
			char metric[32];

			snprintf(metric, sizeof(metric), "%.*s",
				 next ? (int)(next - dot - 1) : 0, dot + 1);
			if (next && metric_parse(metric) >= 0)
				dot = next;
		}
		if (!dot || dot[1] == '\0')
			return cfg_fail(err, errlen, &loc,
					"'%s': expected section.key=value",
					sets[i]);
		seclen = (size_t)(dot - left);
		if (seclen >= sizeof(section) || strlen(dot + 1) >= sizeof(key))
			return cfg_fail(err, errlen, &loc, "'%s': name too long",
					sets[i]);
		snprintf(section, sizeof(section), "%.*s", (int)seclen, left);
		snprintf(key, sizeof(key), "%s", dot + 1);
		const char *value = eq + 1;
		while (isspace((unsigned char)*value))
			value++;
		if (push_entry(cfg, section, key, value, loc, loc))
			return cfg_fail(err, errlen, &loc, "out of memory");
	}
	return 0;
}
