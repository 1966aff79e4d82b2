/*
 * The running campaign, shared by the files that run it (private to
 * campaign*.c; campaign.h is the public face):
 *
 *   campaign.c        the loop over the cells, resume, the exit fold
 *   campaign_dir.c    the campaign directory: lock, resume, disk space
 *   campaign_console.c  progress lines, the end-of-run table, LAVA
 *   campaign_qemu.c   a qemu kernel variant's cells, in its guests
 *   campaign_reboot.c --reboot into the next kernel variant
 *   campaign_guest.c  the latlab inside a guest: its side of the channel
 *   campaign_plan.c   latlab plan and latlab status
 */
#ifndef LATLAB_CAMPAIGN_RUN_H
#define LATLAB_CAMPAIGN_RUN_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "campaign.h"
#include "cell.h"
#include "channel.h"
#include "kernel.h"
#include "ledger.h"
#include "prior.h"
#include "sysinfo.h"
#include "units.h"

/* Setup, start delay and file writing around each cell's measurement. */
#define CELL_OVERHEAD_NS (300 * NS_PER_MS)

/* What a guest's boot and power-off cost, for the plan's estimate. */
#define VM_BOOT_NS (6 * NS_PER_S)

struct campaign {
	const struct config *cfg;
	const struct run_opts *ro;
	struct cell *cells;
	int ncells;
	struct ledger lg;	/* every cell's status, rows and reason */
	struct chan_brief *brief;	/* per cell, for the end-of-run table */
	char dir[PATH_MAX];	/* OUTPUT/NAME */
	char host[128];
	struct kernel_info kernel;
	struct sysinfo si;
	struct run_env env;
	int lock_fd;		/* the campaign's flock, or -1 */
	struct {
		int kvm;	/* accel = auto: -1 untried, 0 no, 1 works */
	} qemu;			/* on the host, for qemu variants */
	struct {
		int v;		/* the kernel variant this guest is */
		char *want;	/* per cell: the host gave it to this guest */
	} guest;		/* inside a guest (ro->guest) */
};

/* ---- campaign.c ---- */

/* The cells.csv rows of a cell run on this machine (malloc'ed). */
char *cp_rows(const struct campaign *cp, const struct cell *c,
	      enum cell_status st, const struct cell_result *res);
/* The ledger (cells.csv, state, junit.xml) written out. 0 or -errno. */
int cp_write(struct campaign *cp);
/* SIGINT or SIGTERM is pending (they are blocked in every thread). */
int cp_signalled(void);
/* A cell an earlier run finished (ok, fail, skipped): kept when resuming. */
int cp_done(enum cell_status st);
/* Cell i is skipped, with why. */
void cp_skip(struct campaign *cp, int i, const char *why);
/* Every pending cell of variant v is skipped, with why. */
void cp_give_up_variant(struct campaign *cp, int v, const char *why);
/* The index of the cell called id, or -1. */
int cp_cell_index(const struct campaign *cp, const char *id);
/*
 * The exit status of the cells so far, with another folded in: error
 * (EXIT_RUNTIME) over a failed threshold (EXIT_THRESHOLD) over EXIT_PASS.
 */
void cp_fold_exit(int *status, int exit_status);
/* The same for one more cell's status. */
void cp_fold(int *status, enum cell_status st);

/* ---- campaign_dir.c ---- */

/* NAME.tmp.PID files of writers that are gone, removed. */
void cp_remove_stale_temps(const char *dir);
/*
 * One latlab per campaign: an flock on OUTPUT/.NAME.lock, held to the
 * end. The descriptor, or -errno (-EWOULDBLOCK: in use; holder then
 * names the pid that holds it).
 */
int cp_lock(const char *output, const char *name, char *holder, size_t len);
/*
 * cp->dir: new (0), or the same campaign to resume (1, *prior filled),
 * -ESTALE when it holds another config's run, -EBADMSG when its state
 * cannot be read (said); -errno otherwise.
 */
int cp_prepare_dir(struct campaign *cp, const char *output, struct prior *prior);
/* Room for cell c's files under cp->dir: 0, or -ENOSPC (said). */
int cp_check_space(const struct campaign *cp, const struct cell *c);

/* ---- campaign_console.c ---- */

/* The running cell, for the progress line. */
struct ticker {
	const struct campaign *cp;
	const struct cell *c;
	int i, n;		/* cell i of n to run */
	int tty;
	int64_t last_ns;	/* last line printed (elapsed) */
};

/* run_env.tick: the progress line of the running cell (arg: a ticker). */
void cp_tick(void *arg, int64_t elapsed, const int64_t max[METRIC_CORE]);
/* The line said when a cell ends. */
void cp_progress(const struct cell *c, const struct cell_result *res,
		 int done_n, int run_n);
/* A measured cell's line of the end-of-run table. */
void cp_brief(struct chan_brief *b, const struct cell_result *res);
/* Each metric's max as a LAVA test case (lava-test-case on PATH). */
void cp_lava(const struct cell *c, const struct cell_result *res);
int cp_lava_present(void);
/* The cyclictest-style table of every cell at the end of a run (µs). */
void cp_print_table(const struct campaign *cp, FILE *out);

/* ---- campaign_qemu.c ---- */

/*
 * Every pending cell of qemu variant v, in its guests. The exit status
 * of its cells, EXIT_INTERRUPTED, or -errno when the results cannot be
 * written.
 */
int cp_run_qemu(struct campaign *cp, int v);

/* ---- campaign_reboot.c ---- */

/* Started after a reboot latlab asked for: did the variant come up? */
void cp_after_reboot(struct campaign *cp);
/* --reboot: boot the next variant with pending cells. An exit status. */
int cp_reboot_next(struct campaign *cp);

/* ---- campaign_guest.c ---- */

/* Hello to the host, the variant and the cells given. An exit status. */
int cp_guest_setup(struct campaign *cp);
/* [vm] in sysinfo, and the guest's sysinfo.ini to the host. */
void cp_guest_sysinfo(struct campaign *cp);
/* The booted kernel is the variant, and every cell fits it: else skipped. */
void cp_guest_check_kernel(struct campaign *cp);
/* A finished cell's files (from dir, if any), rows and status, to the host. */
void cp_guest_report(const struct campaign *cp, int i, const char *dir);

/* ---- campaign_plan.c ---- */

/* What `cells` cells and `boots` guest boots take, start to end (ns). */
int64_t cp_wall_time(const struct config *cfg, int cells, int boots);

#endif
