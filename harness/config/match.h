/*
 * A kernel as latlab describes it, and a variant's `match =`: its syntax
 * (checked when the config is read) and whether a kernel fits it. Pure:
 * measure/kernel.c reads the running kernel into a struct kernel_info.
 */
#ifndef LATLAB_MATCH_H
#define LATLAB_MATCH_H

struct kernel_info {
	char release[128];	/* uname -r */
	char version[256];	/* uname -v */
	/* rt+full | rt+lazy | rt+laziest | rt | full | lazy | laziest | voluntary | none | unknown */
	char model[16];
	int dynamic;		/* PREEMPT_DYNAMIC: model chosen at boot */
	char source[160];	/* what said the model: debugfs, the command line, a config file */
	char cmdline[2048];	/* /proc/cmdline, as booted (x86 allows 2048) */
};

/*
 * `match` syntax: one or more terms, blank-separated, all of which must
 * hold; a term is [!]any | [!]preempt:MODEL | [!]release:GLOB |
 * [!]cmdline:GLOB, where MODEL is a model of struct kernel_info (rt+full,
 * rt+lazy, rt+laziest, rt, full, lazy, laziest, voluntary, none) or
 * dynamic, and cmdline:GLOB holds when a word of the command line fits
 * GLOB (a variant booted with other parameters: cmdline:isolcpus=*).
 * preempt:rt is every PREEMPT_RT kernel, whatever its dynamic mode; the
 * others are that model alone. 0 if well-formed, else -EINVAL.
 */
int kernel_match_check(const char *match);

/* 1 if the running kernel `k` fits `match`, else 0. */
int kernel_matches(const char *match, const struct kernel_info *k);

/* Built-in variants: running (any), stock (!preempt:rt), rt (preempt:rt). */
const char *kernel_builtin_match(const char *name);

#endif
