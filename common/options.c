#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "log.h"
#include "options.h"
#include "units.h"

#define FIELD(base, o, T) ((T *)((char *)(base) + (o)->offset))
#define CFIELD(base, o, T) ((const T *)((const char *)(base) + (o)->offset))

const struct opt *opt_find(const struct opt *table, const char *key)
{
	for (const struct opt *o = table; o && o->key; o++)
		if (strcmp(o->key, key) == 0)
			return o;
	return NULL;
}

/* Edits from a to b (optimal string alignment: swaps count as one), any case. */
static int edits(const char *a, const char *b)
{
	enum { MAX = 64 };
	int la = (int)strlen(a), lb = (int)strlen(b);
	int d[MAX + 1][MAX + 1];

	if (la > MAX || lb > MAX)
		return MAX;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j - 1] + !same;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *opt_nearest(const char *word, const char *const *names, int n)
{
	const char *best = NULL;
	int best_d = 3, len = (int)strlen(word);

	for (int i = 0; i < n; i++) {
		int e = edits(word, names[i]);

		if (e < best_d && 2 * e < len) {
			best = names[i];
			best_d = e;
		}
	}
	return best;
}

int axis_has_item(const struct axis *ax, const char *text)
{
	for (int i = 0; i < ax->n; i++)
		if (strcmp(ax->s[i], text) == 0)
			return 1;
	return 0;
}

const char *opt_suggest(const char *key, const struct opt *table,
			const struct opt *more)
{
	const char *names[256];
	int n = 0;

	for (const struct opt *o = table; o && o->key && n < 256; o++)
		names[n++] = o->key;
	for (const struct opt *o = more; o && o->key && n < 256; o++)
		names[n++] = o->key;
	return opt_nearest(key, names, n);
}

int opt_choice_index(const char *choices, const char *word)
{
	size_t wlen = strlen(word);
	int i = 0;

	for (const char *p = choices; *p; i++) {
		size_t n = strcspn(p, "|");

		if (n == wlen && strncmp(p, word, n) == 0)
			return i;
		p += n;
		if (*p == '|')
			p++;
	}
	return -1;
}

void opt_choice_name(const char *choices, int n, char *buf, size_t len)
{
	const char *p = choices;

	for (; n > 0 && *p; n--) {
		p += strcspn(p, "|");
		if (*p == '|')
			p++;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(p, "|"), p);
}

/* A numbered word's text before its N ("deepest:"), its length. */
static size_t word_stem(const struct opt_word *w)
{
	size_t n = strlen(w->word);

	return w->max && n && w->word[n - 1] == 'N' ? n - 1 : n;
}

int opt_word_parse(const struct opt_word *words, const char *text, int64_t *v)
{
	for (const struct opt_word *w = words; w && w->word; w++) {
		size_t stem = word_stem(w);
		char *end;
		long long n;

		if (!w->max) {
			if (strcmp(text, w->word) == 0)
				return *v = w->value, 0;
			continue;
		}
		/* N as digits, no sign, no leading zero: one text a value */
		if (strncmp(text, w->word, stem) != 0 || !isdigit((unsigned char)text[stem]) ||
		    (text[stem] == '0' && text[stem + 1]))
			continue;
		errno = 0;
		n = strtoll(text + stem, &end, 10);
		if (errno || *end || n > w->max)
			continue;
		*v = w->flags & OPT_WORD_PLUS ? w->value + n : w->value;
		return 0;
	}
	return -1;
}

void opt_word_format(const struct opt_word *words, int64_t value, char *buf, size_t len)
{
	for (const struct opt_word *w = words; w && w->word; w++) {
		if (!w->max && w->value == value) {
			snprintf(buf, len, "%s", w->word);
			return;
		}
		if (w->max && (w->flags & OPT_WORD_PLUS) && value >= w->value &&
		    value <= w->value + w->max) {
			snprintf(buf, len, "%.*s%lld", (int)word_stem(w), w->word,
				 (long long)(value - w->value));
			return;
		}
	}
	snprintf(buf, len, "?");
}

void opt_words_list(const struct opt_word *words, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct opt_word *w = words; w && w->word && used < len; w++) {
		int n = snprintf(buf + used, len - used, "%s%s", w == words ? "" : "|", w->word);

		if (n < 0)
			return;
		used += (size_t)n;
	}
}

void opt_words_help(const struct opt_word *words, char *buf, size_t len)
{
	size_t used = 0, count = 0;

	buf[0] = '\0';
	while (words && words[count].word)
		count++;
	for (size_t i = 0; i < count && used < len; i++) {
		const struct opt_word *w = &words[i];
		char range[32] = "";
		int n;

		if (w->max)
			snprintf(range, sizeof(range), "N 0-%d", w->max);
		n = snprintf(buf + used, len - used, "%s%s%s%s%s%s%s",
			     i == 0 ? "" : i + 1 == count ? " or " : ", ", w->word,
			     w->help || range[0] ? " (" : "", range,
			     range[0] && w->help ? ": " : "", w->help ? w->help : "",
			     w->help || range[0] ? ")" : "");
		if (n < 0)
			return;
		used += (size_t)n;
	}
}

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	memmove(s, p, strlen(p) + 1);
}

static int check_range(const struct opt *o, int64_t v, const char *text,
		       char *err, size_t len)
{
	char lo[32], hi[32];

	if (o->min == 0 && o->max == 0)
		return 0;
	if (v >= o->min && v <= o->max)
		return 0;
	if (o->type == OPT_DURATION || o->type == OPT_AXIS_DURATION) {
		units_format_duration(o->min, lo, sizeof(lo));
		units_format_duration(o->max, hi, sizeof(hi));
	} else if (o->type == OPT_SIZE || o->type == OPT_AXIS_SIZE) {
		units_format_size(o->min, lo, sizeof(lo));
		units_format_size(o->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%lld", (long long)o->min);
		snprintf(hi, sizeof(hi), "%lld", (long long)o->max);
	}
	return fail_with(err, len, -ERANGE, "%s = %s is out of range (%s to %s)",
		    o->key, text, lo, hi);
}

/* One number as the option's unit wants it. */
static int parse_number(const struct opt *o, const char *text, int64_t *v,
			char *err, size_t len)
{
	int rc;
	const char *what;

	switch (o->type) {
	case OPT_DURATION:
	case OPT_AXIS_DURATION:
		rc = units_parse_duration(text, v);
		what = "a duration with a unit (ns, us, ms, s, m, h)";
		break;
	case OPT_SIZE:
	case OPT_AXIS_SIZE:
		rc = units_parse_size(text, v);
		what = "a size (bytes, or with k, M, G)";
		break;
	default:
		rc = units_parse_int(text, v);
		what = "an integer";
		break;
	}
	if (rc == -ERANGE && (o->min || o->max))
		/* too big for 64 bits: say the option's own range */
		return check_range(o, o->max < INT64_MAX ? INT64_MAX : INT64_MIN,
				   text, err, len);
	if (rc == -ERANGE)
		return fail_with(err, len, rc, "%s = '%s' is out of range", o->key, text);
	if (rc == -EILSEQ)
		return fail_with(err, len, -EINVAL,
				 "%s = '%s' has a blank between the number and its unit: write it without",
				 o->key, text);
	if (rc == -EDOM)
		return fail_with(err, len, -EINVAL,
				 "%s = '%s': KB, MB and GB are refused (1000 or 1024?): write KiB, MiB, GiB or k, M, G (powers of 1024), or the bytes",
				 o->key, text);
	if (rc)
		return fail_with(err, len, rc, "%s = '%s' is not %s", o->key, text,
			    what);
	return check_range(o, *v, text, err, len);
}

/* A number into its field, stored only when valid. */
static int parse_number_field(const struct opt *o, int64_t *field,
			      const char *text, char *err, size_t len)
{
	int64_t v;
	int rc = parse_number(o, text, &v, err, len);

	if (rc == 0)
		*field = v;
	return rc;
}

/*
 * " (did you mean 'WORD'?)" for the word nearest `value` among the
 * option's words, or its choices ("a|b|c"); or "".
 */
static const char *choice_mean(const struct opt *o, const char *value, char *buf, size_t len)
{
	char words[OPT_STR_MAX];
	const char *names[64];
	int n = 0;

	if (o->words)
		opt_words_list(o->words, words, sizeof(words));
	else
		snprintf(words, sizeof(words), "%s", o->choices);
	/* a numbered word ("deepest:N") is not offered: its range is said */
	for (char *w = strtok(words, "|"); w && n < 64; w = strtok(NULL, "|"))
		if (!o->words || w[strlen(w) - 1] != 'N')
			names[n++] = w;
	const char *near = opt_nearest(value, names, n);

	if (near)
		snprintf(buf, len, " (did you mean '%s'?)", near);
	else
		buf[0] = '\0';
	return buf;
}

static int axis_push(const struct opt *o, struct axis *ax, const char *text,
		     int64_t v, char *err, size_t len)
{
	if (ax->n >= AXIS_MAX)
		return fail_with(err, len, -ERANGE, "%s has more than %d values",
			    o->key, AXIS_MAX);
	if (strlen(text) >= AXIS_ITEM_MAX)
		return fail_with(err, len, -EINVAL, "%s value '%.40s...' is longer than %d characters",
			    o->key, text, AXIS_ITEM_MAX - 1);
	/* numbers are the same when their values are: 1ms and 1000us, 1 and 0x1 */
	int numeric = o->type == OPT_AXIS_INT || o->type == OPT_AXIS_DURATION ||
		      o->type == OPT_AXIS_SIZE;

	for (int i = 0; i < ax->n; i++) {
		if (strcmp(ax->s[i], text) == 0)
			return fail_with(err, len, -EINVAL,
				    "%s lists '%s' twice", o->key, text);
		if (numeric && ax->v[i] == v)
			return fail_with(err, len, -EINVAL,
				    "%s lists the same value twice: '%s' and '%s'",
				    o->key, ax->s[i], text);
	}
	snprintf(ax->s[ax->n], AXIS_ITEM_MAX, "%s", text);
	ax->v[ax->n++] = v;
	return 0;
}

static int parse_axis_item(const struct opt *o, struct axis *ax, char *item,
			   char *err, size_t len)
{
	int64_t v, hi;
	char *dash;
	int rc;

	if ((o->flags & OPT_ALLOW_ALL) && strcmp(item, "all") == 0)
		return axis_push(o, ax, item, AXIS_ALL, err, len);

	switch (o->type) {
	case OPT_AXIS_NAME:
		for (const char *p = item; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
				return fail_with(err, len, -EINVAL,
					    "%s: '%s' is not a name (letters, digits, _ . -)",
					    o->key, item);
		return axis_push(o, ax, item, 0, err, len);
	case OPT_AXIS_AFFINITY: {
		cpu_set_t set;
		char list[256];

		if (opt_word_parse(o->words, item, &v) == 0)
			return axis_push(o, ax, item, v, err, len);
		rc = cpulist_parse(item, &set);
		if (rc == 0 && CPU_COUNT(&set) > 0)
			return axis_push(o, ax, item, AFF_LIST, err, len);
		opt_words_list(o->words, list, sizeof(list));
		return fail_with(err, len, -EINVAL,
			    "%s: '%s' is not one of %s (N 0-%d) or a CPU list (0-3+6)",
			    o->key, item, list, NODE_MAX);
	}
	case OPT_AXIS_CHOICE: {
		char list[512], near[64], range[256] = "";
		size_t used = 0;
		int numbered = 0;

		if (opt_word_parse(o->words, item, &v) == 0)
			return axis_push(o, ax, item, v, err, len);
		opt_words_list(o->words, list, sizeof(list));
		/* a numbered word's range: " (N 0-15)", or each's when several */
		for (const struct opt_word *w = o->words; w && w->word; w++)
			numbered += w->max != 0;
		for (const struct opt_word *w = o->words; w && w->word && used < sizeof(range); w++) {
			int n;

			if (!w->max)
				continue;
			n = snprintf(range + used, sizeof(range) - used, "%s%s%sN 0-%d",
				     used ? ", " : " (", numbered > 1 ? w->word : "",
				     numbered > 1 ? " " : "", w->max);
			used += n > 0 ? (size_t)n : 0;
		}
		if (used && used < sizeof(range) - 1)
			strcat(range, ")");
		return fail_with(err, len, -EINVAL, "%s: '%s' is not one of %s%s%s", o->key, item,
			    list, range, choice_mean(o, item, near, sizeof(near)));
	}
	case OPT_AXIS_INT:
		/* "1-4" is a range; a leading '-' would be a negative number */
		dash = strchr(item + 1, '-');
		if (dash) {
			*dash = '\0';
			rc = parse_number(o, item, &v, err, len);
			if (rc == 0)
				rc = parse_number(o, dash + 1, &hi, err, len);
			*dash = '-';
			if (rc)
				return rc;
			if (hi < v)
				return fail_with(err, len, -EINVAL,
					    "%s: bad range '%s' (the first must not be larger)",
					    o->key, item);
			if (hi - v >= AXIS_MAX)
				return fail_with(err, len, -EINVAL,
					    "%s: bad range '%s' (at most %d values on an axis)",
					    o->key, item, AXIS_MAX);
			for (int64_t x = v; x <= hi; x++) {
				char txt[32];

				snprintf(txt, sizeof(txt), "%lld",
					 (long long)x);
				rc = axis_push(o, ax, txt, x, err, len);
				if (rc)
					return rc;
			}
			return 0;
		}
		/* fall through */
	default:
		rc = parse_number(o, item, &v, err, len);
		if (rc)
			return rc;
		return axis_push(o, ax, item, v, err, len);
	}
}

static int parse_axis(const struct opt *o, struct axis *ax, const char *value,
		      char *err, size_t len)
{
	char buf[OPT_STR_MAX * 4];
	char *rest = buf, *it;

	ax->n = 0;
	if (strlen(value) >= sizeof(buf))
		return fail_with(err, len, -EINVAL, "%s: value too long", o->key);
	snprintf(buf, sizeof(buf), "%s", value);
	trim(buf);
	if (buf[0] == '\0')
		return fail_with(err, len, -EINVAL,
			    "%s is empty: an axis needs at least one value",
			    o->key);
	/* strsep, not strtok: "1,,2" has an empty item, an error */
	while ((it = strsep(&rest, ",")) != NULL) {
		trim(it);
		if (*it == '\0')
			return fail_with(err, len, -EINVAL,
				    "%s has an empty item", o->key);
		int rc = parse_axis_item(o, ax, it, err, len);
		if (rc)
			return rc;
	}
	if (ax->n == 0)
		return fail_with(err, len, -EINVAL, "%s is empty: an axis needs at least one value",
			    o->key);
	return 0;
}

int opt_parse(const struct opt *o, void *base, const char *value,
	      char *err, size_t len)
{
	char text[OPT_STR_MAX];
	int idx;

	switch (o->type) {
	case OPT_STRING:
		if (strlen(value) >= OPT_STR_MAX)
			return fail_with(err, len, -EINVAL,
				    "%s is longer than %d characters", o->key,
				    OPT_STR_MAX - 1);
		snprintf(FIELD(base, o, char), OPT_STR_MAX, "%s", value);
		return 0;
	case OPT_ENUM: {
		int64_t v;
		char list[512], near[64];

		if (o->words && opt_word_parse(o->words, value, &v) == 0) {
			*FIELD(base, o, int) = (int)v;
			return 0;
		}
		idx = o->words ? -1 : opt_choice_index(o->choices, value);
		if (idx < 0) {
			if (o->words)
				opt_words_list(o->words, list, sizeof(list));
			else
				snprintf(list, sizeof(list), "%s", o->choices);
			return fail_with(err, len, -EINVAL,
				    "%s = '%s': expected one of %s%s", o->key, value, list,
				    choice_mean(o, value, near, sizeof(near)));
		}
		*FIELD(base, o, int) = idx;
		return 0;
	}
	case OPT_INT:
	case OPT_DURATION:
	case OPT_SIZE:
		snprintf(text, sizeof(text), "%s", value);
		trim(text);
		if (text[0] == '\0' && (o->flags & OPT_OPTIONAL)) {
			*FIELD(base, o, int64_t) = OPT_UNSET;
			return 0;
		}
		return parse_number_field(o, FIELD(base, o, int64_t), text,
					  err, len);
	default: {
		/* built aside, so a bad value leaves the axis as it was */
		struct axis *ax = malloc(sizeof(*ax));
		int rc;

		if (!ax)
			return fail_with(err, len, -ENOMEM, "out of memory");
		*ax = *FIELD(base, o, struct axis);
		rc = parse_axis(o, ax, value, err, len);
		if (rc == 0)
			*FIELD(base, o, struct axis) = *ax;
		free(ax);
		return rc;
	}
	}
}

void opt_defaults(const struct opt *table, void *base)
{
	char err[256];

	for (const struct opt *o = table; o && o->key; o++) {
		if (!o->def) {
			if (o->type == OPT_STRING)
				FIELD(base, o, char)[0] = '\0';
			else if (o->type <= OPT_SIZE)
				*FIELD(base, o, int64_t) = OPT_UNSET;
			continue;
		}
		/* defaults are part of the program: a bad one is a bug */
		if (opt_parse(o, base, o->def, err, sizeof(err)) != 0) {
			log_error("bad default for %s: %s", o->key, err);
			abort();
		}
	}
}

void opt_format(const struct opt *o, const void *base, char *buf, size_t len)
{
	const struct axis *ax;
	size_t used = 0;
	int64_t v;

	buf[0] = '\0';
	switch (o->type) {
	case OPT_STRING:
		snprintf(buf, len, "%s", CFIELD(base, o, char));
		return;
	case OPT_ENUM:
		if (o->words)
			opt_word_format(o->words, *CFIELD(base, o, int), buf, len);
		else
			opt_choice_name(o->choices, *CFIELD(base, o, int), buf, len);
		return;
	case OPT_INT:
	case OPT_DURATION:
	case OPT_SIZE:
		v = *CFIELD(base, o, int64_t);
		if (v == OPT_UNSET)
			return;
		if (o->type == OPT_DURATION)
			units_format_duration(v, buf, len);
		else
			snprintf(buf, len, "%lld", (long long)v);
		return;
	default:
		ax = CFIELD(base, o, struct axis);
		for (int i = 0; i < ax->n && used < len; i++) {
			int n = snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", ax->s[i]);
			if (n < 0)
				return;
			used += (size_t)n;
		}
	}
}

const char *opt_type_name(const struct opt *o)
{
	switch (o->type) {
	case OPT_INT: return "integer";
	case OPT_DURATION: return "duration";
	case OPT_SIZE: return "size";
	case OPT_STRING: return "string";
	case OPT_ENUM: return "choice";
	case OPT_AXIS_INT: return "integer list";
	case OPT_AXIS_DURATION: return "duration list";
	case OPT_AXIS_SIZE: return "size list";
	case OPT_AXIS_NAME: return "name list";
	case OPT_AXIS_AFFINITY: return "affinity list";
	case OPT_AXIS_CHOICE: return "choice list";
	}
	return "?";
}

/* Is the option at its default? (its value and the default, formatted alike) */
static int at_default(const struct opt *o, const void *base, const char *value)
{
	static _Thread_local union {
		struct axis a;
		char s[OPT_STR_MAX];
		int64_t i;
	} scratch;
	struct opt at0 = *o;
	char def[AXIS_MAX * (AXIS_ITEM_MAX + 2)], why[256];

	(void)base;
	if (!o->def)
		return 0;
	at0.offset = 0;
	memset(&scratch, 0, sizeof(scratch));
	if (opt_parse(&at0, &scratch, o->def, why, sizeof(why)) != 0)
		return 0;
	opt_format(&at0, &scratch, def, sizeof(def));
	return strcmp(def, value) == 0;
}

void opt_write_ini(FILE *fp, const struct opt *table, const void *base)
{
	char buf[AXIS_MAX * (AXIS_ITEM_MAX + 2)];

	for (const struct opt *o = table; o && o->key; o++) {
		opt_format(o, base, buf, sizeof(buf));
		if ((o->flags & OPT_ECHO_SET) && at_default(o, base, buf))
			continue;
		fprintf(fp, "%s = %s\n", o->key, buf);
	}
}

int opt_list_next(const char **p, char *word, size_t len, int trim)
{
	const char *w = *p;
	size_t n = strcspn(w, ",");

	if (!*w)
		return 0;
	*p = w + n + (w[n] != '\0');
	while (trim && n && *w == ' ')
		w++, n--;
	while (trim && n && w[n - 1] == ' ')
		n--;
	snprintf(word, len, "%.*s", (int)n, w);
	return 1;
}

int opt_list_check(const char *list, const char *what, char *err, size_t len)
{
	int items = 1, empty = 0;
	size_t n = 0;

	for (const char *p = list;; p++) {
		if (*p == ',' || !*p) {
			if (!n && !empty)
				empty = items;
			if (!*p)
				break;
			items++;
			n = 0;
		} else if (*p != ' ' && *p != '\t') {
			n++;
		}
	}
	if (empty && items == 1)
		return fail_with(err, len, -EINVAL, "%s is empty: it names nothing", what);
	if (empty)
		return fail_with(err, len, -EINVAL, "%s '%.200s' has an empty item (%d of %d)",
				 what, list, empty, items);
	return 0;
}
