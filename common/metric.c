#include <string.h>

#include "metric.h"

static const char *const names[] = {
	"wakeup", "io", "response", "noise_max", "noise_total", "wakeup_corrected",
	"timerlat_irq", "timerlat_thread", "watch_timer", "watch_sched",
	"io_step1", "io_step2", "io_step3", "io_step4",
};
_Static_assert(sizeof(names) / sizeof(names[0]) == METRIC_COUNT, "a name for every metric");

const char *metric_name(int metric)
{
	return metric >= 0 && metric < METRIC_COUNT ? names[metric] : "?";
}

int metric_parse(const char *name)
{
	for (int m = 0; m < METRIC_COUNT; m++)
		if (strcmp(names[m], name) == 0)
			return m;
	return -1;
}

int metric_wakeup_of(unsigned recorded)
{
	static const int order[] = { METRIC_WAKEUP, METRIC_WATCH_TIMER, METRIC_WATCH_SCHED };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (recorded & METRIC_BIT(order[k]))
			return order[k];
	return METRIC_WAKEUP;
}
