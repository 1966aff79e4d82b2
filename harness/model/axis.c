#include <stdio.h>
#include <string.h>

#include "axis.h"

/*
 * The table. A new axis is a row here (at the end: ids, cells.csv and
 * titles of older trees stay as they were, since a row's `missing` and
 * `hidden` keep the new axis out of what they say), its option in
 * config/config_options.c, its name in struct matrix_opts and struct
 * cell, and what measures it (docs/architecture.md, "Adding an axis").
 */
const struct axis_def axis_defs[TAXIS_COUNT] = {
	[TAXIS_KERNEL] = { "kernel", "kernels", "kernel", AXK_NAME, "", 0, 63, NULL, NULL, NULL, NULL, 0 },
	[TAXIS_HOST] = { "host", "hosts", NULL, AXK_HOST, NULL, 0, 0, NULL, NULL, NULL, NULL, -1 },
	[TAXIS_LOAD] = { "load", "loads", "load", AXK_NAME, "", 1, 0, NULL, NULL, "%s", "%s", 1 },
	[TAXIS_WORKLOAD] = { "workload", "workloads", "workload", AXK_NAME, "", 1, 0, NULL, NULL, "%s", "%s", 2 },
	[TAXIS_THREADS] = { "threads", "threads", "threads", AXK_COUNT, "t", 1, 0, NULL, NULL,
			    "threads %s", "threads %s", 3 },
	[TAXIS_AFFINITY] = { "affinity", "affinities", "affinity", AXK_ITEM, "a", 1, 65, NULL, NULL,
			     "affinity %s", "affinity %s", 4 },
	[TAXIS_INTERVAL] = { "interval", "intervals", "interval_ns", AXK_DURATION, "i", 0, 63, NULL, NULL,
			     "%s µs", "%sus", 5 },
	[TAXIS_PRIORITY] = { "priority", "priorities", "priority", AXK_INT, "p", 0, 63, NULL, NULL,
			     "priority %s", "priority %s", 7 },
	[TAXIS_SIZE] = { "size", "sizes", "size", AXK_SIZE, "s", 0, 63, NULL, NULL, "size %s", "size %s", 8 },
	[TAXIS_POLICY] = { "policy", "policies", "policy", AXK_POLICY, "P", 0, 15, NULL, NULL, "%s", "%s", 6 },
	[TAXIS_DMA] = { "dma_latency", "dma_latencies", "dma_latency", AXK_MICROS, "d", 0, 17, "0", NULL,
			"dma_latency %s", "dma_latency %s", 9 },
	/* came after the others: a title says it only where it is set */
	[TAXIS_NUMA] = { "numa", "numa", "numa", AXK_ITEM, "m", 0, 17, "none", "none", "numa %s",
			 "numa %s", 10 },
	[TAXIS_WAKEUP] = { "wakeup", "wake-up methods", "wakeup", AXK_ITEM, "w", 0, 17, "abs", "abs",
			   "woken by %s", "%s", 11 },
	[TAXIS_CLOCK] = { "clock", "clocks", "clock", AXK_ITEM, "c", 0, 17, "monotonic", "monotonic",
			  "clock %s", "%s", 12 },
	[TAXIS_ISOLATION] = { "isolation", "isolations", "isolation", AXK_ITEM, "x", 0, 17, "none",
			      "none", "isolation %s", "%s", 13 },
	[TAXIS_IDLE] = { "idle", "idle states", "idle", AXK_ITEM, "e", 0, 17, "any", "any", "idle %s",
			 "idle %s", 14 },
};

const char *policy_name(int policy)
{
	static const char *const names[] = { "fifo", "rr", "deadline", "other" };

	return policy >= 0 && policy <= POL_OTHER ? names[policy] : "?";
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
