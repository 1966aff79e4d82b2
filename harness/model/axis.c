#include <stdio.h>
#include <string.h>

#include "axis.h"

/* The table, from axes.h's rows (each row's option is config/config_options.c's). */
const struct axis_def axis_defs[TAXIS_COUNT] = {
#define AXIS_IS(...) __VA_ARGS__
#define AXIS_OPTION(...)
#define AXIS(e, m, is, option, words) [TAXIS_##e] = { .name = #m, is, .values = (words) },
#define READER_AXIS(e, m, is) [TAXIS_##e] = { .name = #m, is },
#include "axes.h"
#undef READER_AXIS
#undef AXIS
#undef AXIS_OPTION
#undef AXIS_IS
};

const char *policy_name(int policy)
{
	for (const struct opt_word *w = axis_defs[TAXIS_POLICY].values; w->word; w++)
		if (w->value == policy)
			return w->word;
	return "?";
}

void axis_value_format(int axis, int64_t value, char *buf, size_t len)
{
	opt_word_format(axis >= 0 && axis < TAXIS_COUNT ? axis_defs[axis].values : NULL, value,
			buf, len);
}

int taxis_of_column(const char *column)
{
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (axis_defs[a].column && strcmp(axis_defs[a].column, column) == 0)
			return a;
	return -1;
}

int taxis_parse(const char *name)
{
	for (int a = 0; a < TAXIS_COUNT; a++)
		if (strcmp(axis_defs[a].name, name) == 0)
			return a;
	return -1;
}

const char *taxis_name(int axis)
{
	return axis >= 0 && axis < TAXIS_COUNT ? axis_defs[axis].name : "?";
}

/* the names (or the row axes' columns) joined by sep */
static void joined(char *buf, size_t len, int rows_only, const char *sep)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int a = 0; a < TAXIS_COUNT && u < len; a++) {
		if (rows_only && !taxis_in_row(a))
			continue;
		u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? sep : "",
				      rows_only ? axis_defs[a].column : axis_defs[a].name);
	}
}

void taxis_names(char *buf, size_t len)
{
	joined(buf, len, 0, "|");
}

int taxis_numeric(int axis)
{
	enum axis_kind k = axis_defs[axis].kind;

	return k == AXK_DURATION || k == AXK_INT || k == AXK_SIZE;
}

int taxis_in_matrix(int axis)
{
	return axis != TAXIS_HOST;
}

int taxis_in_row(int axis)
{
	return axis != TAXIS_KERNEL && axis != TAXIS_HOST;
}

void taxis_row_columns(char *buf, size_t len)
{
	joined(buf, len, 1, ",");
}

void taxis_row_words(char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int a = 0; a < TAXIS_COUNT && u < len; a++)
		if (taxis_in_row(a))
			u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? ", " : "", axis_defs[a].name);
}

void axis_id_text(const char *src, char *dst, size_t len)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++) {
		char ch = *src;

		if (ch == '-')
			ch = '_';
		else if (ch == ',' || ch == '+')
			ch = '.';
		else if (ch == ':' || ch == ' ')	/* node:1: anode1, no colon in a directory's name */
			continue;
		dst[i++] = ch;
	}
	dst[i] = '\0';
}
