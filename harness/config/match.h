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
	char model[16];		/* rt | full | voluntary | none | lazy | unknown */
	int dynamic;		/* PREEMPT_DYNAMIC: model chosen at boot */
};

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
