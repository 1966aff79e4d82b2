/*
 * Kernel variants in a container (runner = container, docs/containers.md):
 * one podman run of latlab's image on this machine's kernel, its latlab
 * in guest mode writing the guest channel (channel.h) to a pipe podman
 * hands in, read by vm_read with the rules it reads a qemu guest by.
 * Nothing of the container reaches the host but that stream: no results
 * folder is shared; the config and the cell list go in read-only.
 */
#ifndef LATLAB_CONTAINER_H
#define LATLAB_CONTAINER_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "vm.h"

/* The descriptor the channel has inside the container (podman --preserve-fds 1). */
#define CT_CHANNEL_FD 3
/* Where the container finds its config and cells: a read-only bind mount. */
#define CT_MOUNT "/latlab"

struct ct_boot {
	const struct config *cfg;
	int variant;			/* index into cfg->kernel */
	const char *config_text;	/* the resolved config (campaign.ini) */
	const char *cells_text;		/* the cell ids to run, one a line */
	const char *log;		/* podman's output and the container's stderr */
	const char *tree;		/* the cells' files to tree/HOST/RELEASE/CELL */
	const char *hostname;		/* the container's: its cells' host */
	int64_t cell_bytes_max;		/* what a cell's files may come to (vm_read_opts) */
};

/* The words ct_run_argv makes: they live as long as its argv. */
struct ct_words {
	char fd[16], budget[32], parent[128], mount[PATH_MAX + 64];
	char **extra;		/* container_args split (free) */
};

/*
 * podman's argv for b, its global options and `run`'s: malloc'ed,
 * NULL-terminated, its strings in w, b's or static. name: the
 * container's; parent: the cgroup parent with a real-time budget (""
 * none); dir: the folder mounted at CT_MOUNT. NULL when out of memory or
 * container_args do not split (the config checked them). Free the argv,
 * then w->extra.
 */
const char **ct_run_argv(const struct ct_boot *b, const char *name, const char *parent,
			 const char *dir, struct ct_words *w);

/*
 * The v1 cpu hierarchy's folder when this kernel has RT_GROUP_SCHED
 * (cpu.rt_runtime_us at its root) into dir: 0, or -ENOENT.
 */
int ct_rt_hierarchy(char *dir, size_t len);

/*
 * One container for b's cells: the podman run, read to its end. 0 when
 * podman could be started (what happened is in *out; its why says a
 * container that did not start), or -errno. Free out->sysinfo after.
 */
int ct_boot(const struct ct_boot *b, const struct vm_hooks *hooks, struct vm_outcome *out);

/*
 * The key estimate.c keeps a container variant's costs under: its image's
 * name (not its content: podman's to know), never 0.
 */
uint64_t ct_image_key(const char *image);

/*
 * Is image in podman's store? 0; -ENOENT (said in why: latlab never
 * pulls); -ENOEXEC when podman cannot be run.
 */
int ct_image_present(const char *image, char *why, size_t len);

#endif
