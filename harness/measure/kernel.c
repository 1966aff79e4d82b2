#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "files.h"
#include "kernel.h"
static int paren_word(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '('), *b = a ? strchr(a, ')') : NULL;

	if (!a || !b)
		return -ENOENT;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

/* CONFIG_PREEMPT_* from /boot/config-RELEASE, for kernels uname can't tell */
static void model_from_boot_config(const char *release, char *out, size_t len)
{
	char path[256], line[256];
	FILE *fp;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	fp = fopen(path, "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "CONFIG_PREEMPT_NONE=y", 21) == 0)
			snprintf(out, len, "none");
		else if (strncmp(line, "CONFIG_PREEMPT_VOLUNTARY=y", 26) == 0)
			snprintf(out, len, "voluntary");
		else if (strncmp(line, "CONFIG_PREEMPT=y", 16) == 0)
			snprintf(out, len, "full");
	}
	fclose(fp);
}

void kernel_info_read(struct kernel_info *k)
{
	struct utsname u;
	char buf[512];

	memset(k, 0, sizeof(*k));
	snprintf(k->model, sizeof(k->model), "unknown");
	if (uname(&u) == 0) {
		snprintf(k->release, sizeof(k->release), "%s", u.release);
		snprintf(k->version, sizeof(k->version), "%s", u.version);
	}
	k->dynamic = strstr(k->version, "PREEMPT_DYNAMIC") != NULL;

	/*
	 * Testing aid (docs/campaigns.md): stand in for the running kernel's
	 * identity, so the multi-kernel path runs without a second kernel.
	 */
	const char *fake_rel = getenv("LATLAB_FAKE_KERNEL_RELEASE");
	const char *fake_model = getenv("LATLAB_FAKE_KERNEL_PREEMPT");
	if (fake_rel && *fake_rel) {
		snprintf(k->release, sizeof(k->release), "%s", fake_rel);
		snprintf(k->version, sizeof(k->version), "(LATLAB_FAKE_KERNEL_RELEASE)");
		k->dynamic = 0;
		snprintf(k->model, sizeof(k->model), "%s",
			 fake_model && *fake_model ? fake_model : "unknown");
		return;
	}

	if ((file_first_line("/sys/kernel/realtime", buf, sizeof(buf)) == 0 &&
	     strcmp(buf, "1") == 0) || strstr(k->version, "PREEMPT_RT")) {
		snprintf(k->model, sizeof(k->model), "rt");
		return;
	}
	if (k->dynamic) {
		/* the boot-time choice: debugfs if mounted, else preempt= */
		if (file_first_line("/sys/kernel/debug/sched/preempt", buf,
			      sizeof(buf)) == 0 &&
		    paren_word(buf, k->model, sizeof(k->model)) == 0)
			return;
		if (file_first_line("/proc/cmdline", buf, sizeof(buf)) == 0) {
			const char *p = strstr(buf, "preempt=");

			if (p) {
				snprintf(k->model, sizeof(k->model), "%.*s",
					 (int)strcspn(p + 8, " "), p + 8);
				return;
			}
		}
	}
	if (strstr(k->version, "PREEMPT ") ||
	    strstr(k->version, "PREEMPT_LAZY"))
		snprintf(k->model, sizeof(k->model), "%s",
			 strstr(k->version, "PREEMPT_LAZY") ? "lazy" : "full");
	model_from_boot_config(k->release, k->model, sizeof(k->model));
}
