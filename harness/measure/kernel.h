/* What kernel is running, and whether a variant's `match =` fits it. */
#ifndef LATLAB_KERNEL_H
#define LATLAB_KERNEL_H

struct kernel_info {
	char release[128];	/* uname -r */
	char version[256];	/* uname -v */
	char model[16];		/* rt | full | voluntary | none | lazy | unknown */
	int dynamic;		/* PREEMPT_DYNAMIC: model chosen at boot */
};

/*
 * Fill from uname, /sys/kernel/realtime, debugfs, /proc/cmdline, /boot —
 * or, as a testing aid, from $LATLAB_FAKE_KERNEL_RELEASE (and
 * $LATLAB_FAKE_KERNEL_PREEMPT) when set.
 */
void kernel_info_read(struct kernel_info *k);

/*
 * `match` syntax: [!]any | [!]preempt:MODEL | [!]release:GLOB, where MODEL
 * is rt, full, voluntary, none, lazy or dynamic. 0 if well-formed, else
 * -EINVAL.
 */
int kernel_match_check(const char *match);

/* 1 if the running kernel `k` fits `match`, else 0. */
int kernel_matches(const char *match, const struct kernel_info *k);

/* Built-in variants: running (any), stock (!preempt:rt), rt (preempt:rt). */
const char *kernel_builtin_match(const char *name);

#endif
