#include <stdio.h>
#include <string.h>

#include "model.h"
#include "vouch.h"

double vouch_wake_missed_pct(double late, double periods)
{
	return periods > 0 ? 100.0 * late / periods : 0;
}

int vouch_status_judged(int status)
{
	return status == CELL_OK || status == CELL_FAIL;
}

int vouch_misses_count(const struct vouch_facts *f)
{
	return f->emulated != EMU_TCG && !(f->emulated == EMU_ICOUNT && f->waits);
}

int vouch_wakeup_kind(int metric)
{
	switch (metric) {
	case METRIC_WAKEUP:
	case METRIC_TIMERLAT_IRQ:
	case METRIC_TIMERLAT_THREAD:
	case METRIC_WATCH_TIMER:
	case METRIC_WATCH_SCHED:
		return 1;
	default:
		return 0;
	}
}

unsigned vouch_metric(const struct vouch_facts *f, int metric)
{
	unsigned why = 0;

	if (!vouch_status_judged(f->status))
		why |= VR_BIT(VR_STATUS);
	if (f->emulated == EMU_TCG)
		why |= VR_BIT(VR_EMULATED);
	if (f->emulated == EMU_ICOUNT && metric >= 0 && metric < METRIC_COUNT &&
	    (f->waits & METRIC_BIT(metric)))
		why |= VR_BIT(VR_DEVICE);
	/*
	 * The corrected wake-up counts every missed period at the latency it
	 * would have had: nothing of it is left out
	 */
	if (metric != METRIC_WAKEUP_CORRECTED &&
	    (vouch_wakeup_kind(metric) ? f->wake_missed_pct : f->missed_pct) > VOUCH_MISSED_PCT)
		why |= VR_BIT(VR_MISSED);
	return why;
}

static const char *const keywords[VR_COUNT] = {
	[VR_STATUS] = "status",
	[VR_EMULATED] = "emulated",
	[VR_DEVICE] = "device-wait",
	[VR_MISSED] = "missed",
};

const char *vouch_keyword(int reason)
{
	return reason >= 0 && reason < VR_COUNT ? keywords[reason] : "?";
}

void vouch_keywords(unsigned reasons, char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int r = 0; r < VR_COUNT && u < len; r++)
		if (reasons & VR_BIT(r))
			u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? "+" : "", keywords[r]);
}

int vouch_keywords_parse(const char *s, unsigned *reasons)
{
	*reasons = 0;
	while (*s) {
		size_t n = strcspn(s, "+");
		int r = 0;

		while (r < VR_COUNT && (strlen(keywords[r]) != n || strncmp(s, keywords[r], n)))
			r++;
		if (r == VR_COUNT)
			return -1;
		*reasons |= VR_BIT(r);
		s += n + (s[n] == '+');
	}
	return 0;
}

void vouch_words(unsigned reasons, const struct vouch_facts *f, int metric, char *buf,
		 size_t len)
{
	int first = 0;

	while (first < VR_COUNT && !(reasons & VR_BIT(first)))
		first++;
	switch (first) {
	case VR_STATUS:
		snprintf(buf, len, "the cell %s: it did not end measured",
			 cell_status_name(f->status));
		break;
	case VR_EMULATED:
		snprintf(buf, len,
			 "measured in qemu without the instruction clock (TCG on the host's clock): the figures are the emulator's pace on this host, not the kernel's (clock = icount for a verdict on the kernels)");
		break;
	case VR_DEVICE:
		snprintf(buf, len,
			 "on the instruction clock a wait for an emulated device is not the device's time (the clock jumps to the guest's next timer while qemu completes the request on the host): --metric wakeup judges the wake-ups beside the I/O; the I/O's own time needs a real device (runner = host, on the board)");
		break;
	case VR_MISSED:
		snprintf(buf, len,
			 "%s missed %.0f %% of its periods (more than %.0f %%): its figures are of the periods that ran (--deadline counts the missed ones as late; [campaign] corrected = on records them)",
			 vouch_wakeup_kind(metric) ? "its wake-ups" : "it",
			 vouch_wakeup_kind(metric) ? f->wake_missed_pct : f->missed_pct,
			 VOUCH_MISSED_PCT);
		break;
	default:
		snprintf(buf, len, "can be judged");
	}
}

void vouch_trace_words(unsigned traced, char *buf, size_t len)
{
	static const char *const names[] = { "spikes tracing", "the watch's histogram triggers",
					     "the BPF watch", "timerlat" };
	size_t u = 0;

	buf[0] = '\0';
	for (int i = 0; i < 4 && u < len; i++)
		if (traced & (1u << i))
			u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? " and " : "", names[i]);
	if (!traced)
		snprintf(buf, len, "untraced");
}

void vouch_metrics_text(unsigned metrics, char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int m = 0; m < METRIC_COUNT && u < len; m++)
		if (metrics & METRIC_BIT(m))
			u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? "," : "", metric_name(m));
}

int vouch_metrics_parse(const char *s, unsigned *metrics)
{
	char name[32];

	*metrics = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int m;

		if (n >= sizeof(name))
			return -1;
		memcpy(name, s, n);
		name[n] = '\0';
		if ((m = metric_parse(name)) < 0)
			return -1;
		*metrics |= METRIC_BIT(m);
		s += n + (s[n] == ',');
	}
	return 0;
}
