/*
 * reboot = kexec (docs/campaigns.md, "kexec: a reboot without the
 * firmware"): a kernel variant booted straight from the running kernel,
 * for boards whose firmware takes minutes. latlab picks the newest kernel
 * installed in /boot that fits the variant's match = when booted with the
 * running command line (kexec --reuse-cmdline), loads it with its initrd
 * (kexec -l) and asks systemd to boot it (systemctl kexec).
 */
#ifndef LATLAB_KEXEC_H
#define LATLAB_KEXEC_H

#include <stddef.h>

#include "match.h"

/* A variant's reboot = that asks for kexec. */
#define KEXEC_REBOOT "kexec"

/* 1 when reboot (a variant's reboot =) is the built-in kexec. */
int kexec_is(const char *reboot);

/*
 * The kernel kexec would boot for match: the newest (version order)
 * root/boot/vmlinuz-RELEASE whose config (/boot/config-RELEASE or
 * /usr/lib/modules/RELEASE/config) makes it fit match when booted with
 * cmdline. root is "" for this machine. Its release in rel; 0, or
 * -ENOENT with what /boot held in why.
 */
int kexec_pick(const char *root, const char *match, const char *cmdline,
	       char *rel, size_t len, char *why, size_t wlen);

/*
 * kexec -l the kernel of release rel (root/boot's vmlinuz and, if there,
 * initrd.img) with the running command line. 0, or -errno with why.
 */
int kexec_load(const char *root, const char *rel, char *why, size_t wlen);

#endif
