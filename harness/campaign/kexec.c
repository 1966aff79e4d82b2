#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "kernel.h"
#include "kexec.h"
#include "log.h"
#include "match.h"

int kexec_is(const char *reboot)
{
	return strcmp(reboot, KEXEC_REBOOT) == 0;
}

int kexec_pick(const char *root, const char *match, const char *cmdline,
	       char *rel, size_t len, char *why, size_t wlen)
{
	char dir[PATH_MAX], seen[512] = "";
	size_t used = 0;
	struct dirent *e;
	DIR *d;

	rel[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/boot", root);
	d = opendir(dir);
	if (!d)
		return fail_with(why, wlen, -ENOENT, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		const char *r = e->d_name + 8;
		struct kernel_info k;
		int n;

		if (strncmp(e->d_name, "vmlinuz-", 8) != 0 || !*r || strlen(r) >= len)
			continue;
		n = kernel_info_installed(root, r, cmdline, &k);
		if (used < sizeof(seen)) {
			int w = snprintf(seen + used, sizeof(seen) - used, "%s%s (%s)",
					 used ? ", " : "", r, n ? "no config" : k.model);

			used += w > 0 ? (size_t)w : 0;
		}
		if (n == 0 && kernel_matches(match, &k) &&
		    (!rel[0] || strverscmp(r, rel) > 0))
			snprintf(rel, len, "%s", r);
	}
	closedir(d);
	if (rel[0])
		return 0;
	return fail_with(why, wlen, -ENOENT,
			 "no kernel in %s fits match = '%s' when booted with this command line (kexec reuses it); there: %s",
			 dir, match, used ? seen : "no vmlinuz-*");
}

int kexec_load(const char *root, const char *rel, char *why, size_t wlen)
{
	char kernel[PATH_MAX], initrd[PATH_MAX + 16], *argv[6];
	int argc = 0, st;

	snprintf(kernel, sizeof(kernel), "%s/boot/vmlinuz-%s", root, rel);
	snprintf(initrd, sizeof(initrd), "--initrd=%s/boot/initrd.img-%s", root, rel);
	argv[argc++] = "kexec";
	argv[argc++] = "-l";
	argv[argc++] = kernel;
	if (access(initrd + 9, R_OK) == 0)
		argv[argc++] = initrd;
	argv[argc++] = "--reuse-cmdline";
	argv[argc] = NULL;
	st = argv_run(argv, 0);
	if (st == 127)
		return fail_with(why, wlen, -ENOENT, "no kexec on PATH (apt-get install kexec-tools)");
	if (st != 0)
		return fail_with(why, wlen, -EIO, "kexec -l %s: %s %d", kernel,
				 st < 0 ? "ended by a signal or failed:" : "exit", st);
	return 0;
}
