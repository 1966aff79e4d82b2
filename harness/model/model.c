#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "axis.h"
#include "model.h"

static const char *const status_names[CELL_STATUS_COUNT] = {
	"pending", "ok", "fail", "interrupted", "error", "skipped", "running",
	"partial",
};

const char *cell_status_name(enum cell_status s)
{
	return status_names[s];
}

int cell_status_parse(const char *name)
{
	for (int i = 0; i < CELL_STATUS_COUNT; i++)
		if (strcmp(status_names[i], name) == 0)
			return i;
	return -1;
}

int cell_path(char *buf, size_t len, const char *tree, const char *host,
	      const char *release, const char *id)
{
	int n = snprintf(buf, len, "%s/%s/%s/%s", tree, host, release, id);

	return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

void path_component(char *s)
{
	if (!s[0] || !strcmp(s, ".") || !strcmp(s, "..")) {
		strcpy(s, "_");
		return;
	}
	for (; *s; s++)
		if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '_';
}

const char *spike_part_name(int part)
{
	static const char *const names[SPIKE_PARTS] = {
		"timer", "irq", "softirq", "nmi", "rt-thread", "blocking",
		"unexplained", "return",
	};

	return part >= 0 && part < SPIKE_PARTS ? names[part] : "?";
}

const char *spike_part_column(int part)
{
	static const char *const cols[SPIKE_PARTS] = {
		"timer_ns", "irq_ns", "softirq_ns", "nmi_ns", "rt_threads_ns",
		"blocking_ns", "unexplained_ns", "return_ns",
	};

	return part >= 0 && part < SPIKE_PARTS ? cols[part] : "?";
}

const char *cell_file_name(enum cell_file f)
{
	static const char *const names[] = {
		[CELLF_INI] = "cell.ini", [CELLF_SYSINFO] = "sysinfo.ini",
		[CELLF_LOG] = "log.txt", [CELLF_SAMPLES] = "samples.bin",
		[CELLF_HIST] = "hist.csv", [CELLF_SUMMARY] = "summary.csv",
		[CELLF_SERIES] = "series.csv", [CELLF_TIMELINE] = "timeline.csv",
		[CELLF_LOAD] = "load.csv", [CELLF_SPIKES] = "spikes.csv",
		[CELLF_INTERFERENCE] = "interference.csv",
	};

	return names[f];
}

void cell_trace_name(char *buf, size_t len, long long capture, const char *ext)
{
	snprintf(buf, len, "trace-%lld.%s", capture, ext);
}

int cell_file_path(char *buf, size_t len, const char *dir, enum cell_file f)
{
	int n = snprintf(buf, len, "%s/%s", dir, cell_file_name(f));

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

double missed_pct(uint64_t samples, uint64_t overruns)
{
	return samples + overruns ? 100.0 * (double)overruns / (double)(samples + overruns) : 0;
}

void cells_head_columns(char *buf, size_t len)
{
	size_t u = (size_t)snprintf(buf, len, "%s", CELLS_COLUMNS);

	for (int a = 0; a < TAXIS_COUNT && u < len; a++) {
		char have[sizeof(CELLS_COLUMNS) + 1] = ",", want[64];
		const char *col = axis_defs[a].column;

		if (!col)
			continue;
		strcat(have, CELLS_COLUMNS);
		snprintf(want, sizeof(want), ",%s,", col);
		if (!strstr(have, want))	/* an axis that came after them */
			u += (size_t)snprintf(buf + u, len - u, "%s,", col);
	}
}
