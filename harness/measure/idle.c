#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "axis_ops.h"
#include "files.h"
#include "idle.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define STATES_MAX (IDLE_DEEPEST_MAX + 1)

struct cpu_states {
	int n;
	char name[STATES_MAX][32];
	int disabled[STATES_MAX];
};

/* CPU cpu's idle states from sysfs under root. 0, or -ENOENT (none). */
static int read_states(const char *root, int cpu, struct cpu_states *st)
{
	char path[PATH_MAX], flag[8];

	st->n = 0;
	for (int k = 0; k < STATES_MAX; k++) {
		snprintf(path, sizeof(path), "%s" CPU_DIR "/cpu%d/cpuidle/state%d/name", root, cpu, k);
		if (file_first_line(path, st->name[k], sizeof(st->name[k])) != 0)
			break;
		snprintf(path, sizeof(path), "%s" CPU_DIR "/cpu%d/cpuidle/state%d/disable", root, cpu, k);
		st->disabled[k] = file_first_line(path, flag, sizeof(flag)) == 0 && strcmp(flag, "0") != 0;
		st->n = k + 1;
	}
	return st->n ? 0 : -ENOENT;
}

/* Must state k be off under want? */
static int excluded(const struct cpu_states *st, int k, int64_t want)
{
	if (want == IDLE_POLL)
		return strcmp(st->name[k], "POLL") != 0;
	return want >= 0 && k > want;
}

/* "0 POLL, 1 C1, 2 C2" */
static void list_states(const struct cpu_states *st, char *buf, size_t len)
{
	size_t u = 0;

	buf[0] = '\0';
	for (int k = 0; k < st->n && u < len; k++)
		u += (size_t)snprintf(buf + u, len - u, "%s%d %s", k ? ", " : "", k, st->name[k]);
}

int idle_check(const char *root, int64_t want, const cpu_set_t *cpus, char *why, size_t len)
{
	char path[PATH_MAX], driver[64], names[256];
	struct cpu_states st;

	if (want == IDLE_ANY)
		return 0;
	snprintf(path, sizeof(path), "%s" CPU_DIR "/cpuidle/current_driver", root);
	if (file_first_line(path, driver, sizeof(driver)) != 0 || strcmp(driver, "none") == 0 ||
	    !driver[0])
		return snprintf(why, len, "this machine has no cpuidle driver (%s: %s): its CPUs idle in the architecture's default instruction, whose depth cannot be chosen",
				CPU_DIR "/cpuidle/current_driver", driver[0] ? driver : "missing"),
		       -ENODEV;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int poll = 0;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		if (read_states(root, cpu, &st) != 0)
			return snprintf(why, len, "CPU %d has no cpuidle states (driver %s)", cpu, driver),
			       -ENODEV;
		list_states(&st, names, sizeof(names));
		for (int k = 0; k < st.n; k++)
			poll |= strcmp(st.name[k], "POLL") == 0;
		if (want == IDLE_POLL && !poll)
			return snprintf(why, len, "CPU %d has no polling idle state (its states: %s)", cpu,
					names), -ENODEV;
		if (want >= st.n)
			return snprintf(why, len, "CPU %d has idle states 0-%d (%s): deepest:%lld is beyond them",
					cpu, st.n - 1, names, (long long)want), -ENODEV;
	}
	return 0;
}

int idle_begin(const char *root, struct undo *u, int64_t want, const cpu_set_t *cpus,
	       char *done, size_t dlen, char *why, size_t len)
{
	char path[PATH_MAX];
	struct cpu_states st;
	size_t used = 0;
	int rc;

	done[0] = '\0';
	if (want == IDLE_ANY)
		return 0;
	if ((rc = idle_check(root, want, cpus, why, len)) != 0)
		return rc;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char off[256] = "";
		size_t n = 0;

		if (!CPU_ISSET(cpu, cpus) || read_states(root, cpu, &st) != 0)
			continue;
		for (int k = 0; k < st.n; k++) {
			if (!excluded(&st, k, want) || st.disabled[k])
				continue;	/* allowed, or off already (not ours to turn on) */
			snprintf(path, sizeof(path), "%s" CPU_DIR "/cpu%d/cpuidle/state%d/disable", root,
				 cpu, k);
			if ((rc = undo_set(u, path, "1", NULL)) != 0) {
				snprintf(why, len, "%s = 1: %s", path, strerror(-rc));
				return rc;
			}
			if (n < sizeof(off))
				n += (size_t)snprintf(off + n, sizeof(off) - n, " %s", st.name[k]);
		}
		if (off[0] && used < dlen)
			used += (size_t)snprintf(done + used, dlen - used, "%sCPU %d:%s disabled",
						 used ? "; " : "", cpu, off);
	}
	if (!done[0])
		snprintf(done, dlen, "every state it excludes was disabled already");
	return 0;
}

/* the axis's hooks (axis_ops.h): this machine's sysfs */
static int axis_check(const struct config *cfg, const struct cell *c, int64_t v,
		      const cpu_set_t *cpus, char *why, size_t len)
{
	(void)cfg;
	(void)c;
	return cpus ? idle_check("", v, cpus, why, len) : 0;
}

static int axis_begin(const struct config *cfg, const struct cell *c, int64_t v,
		      const cpu_set_t *cpus, struct undo *u, char *done, size_t dlen, char *why,
		      size_t len)
{
	(void)cfg;
	(void)c;
	return idle_begin("", u, v, cpus, done, dlen, why, len);
}

const struct axis_ops idle_axis_ops = {
	.check = axis_check,
	.begin = axis_begin,
	.phase = AXIS_AFTER_ISOLATION,
	.as_is = IDLE_ANY,
	.done_key = "idle_done",
};
