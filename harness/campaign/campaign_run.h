/*
 * The running campaign, shared by the files that run it (private to
 * campaign*.c; campaign.h is the public face). campaign.c's loop is on
 * top: it drives the phases and calls the mode; the rest is below it and
 * never calls it back:
 *
 *   campaign.c        the phases of a campaign, one loop for every mode
 *   campaign_host.c   the host's mode: preflight, qemu variants, baseline, reboot
 *   campaign_guest.c  the guest's mode: the latlab inside a guest, its channel
 *   campaign_qemu.c   a qemu kernel variant's cells, in its guests
 *   campaign_reboot.c --reboot into the next kernel variant
 *   campaign_cells.c  the services: one cell here, its rows, skip, give up, fold
 *   campaign_dir.c    the campaign directory: lock, resume, disk space
 *   campaign_console.c  progress lines, the end-of-run table, LAVA
 *   campaign_plan.c   latlab plan and latlab status
 */
#ifndef LATLAB_CAMPAIGN_RUN_H
#define LATLAB_CAMPAIGN_RUN_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "settle.h"
#include "campaign.h"
#include "cell.h"
#include "channel.h"
#include "kernel.h"
#include "ledger.h"
#include "prior.h"
#include "rounds.h"
#include "sysinfo.h"
#include "units.h"

/* Setup, start delay and file writing around each cell's measurement. */
#define CELL_OVERHEAD_NS (300 * NS_PER_MS)

/* What a guest's boot and power-off cost, for the plan's estimate. */
#define VM_BOOT_NS (6 * NS_PER_S)

struct campaign;
struct cp_pool;

struct vm_image;

/*
 * How this latlab runs its campaign, as rtla's tool_ops: on the host (the
 * running kernel's cells here, a qemu variant's in its guests, the rest
 * after a reboot) or as the latlab inside a guest (the cells the host
 * gave it). The phases are the same; a mode fills in what differs, NULL
 * where it has nothing to add.
 */
struct cp_mode {
	const char *name;
	/* before the machine is looked at: the preflight, the hello. An exit status */
	int (*setup)(struct campaign *cp);
	/* the machine's facts are in cp->si: the mode's own added */
	void (*facts)(struct campaign *cp);
	/* does variant v trace here ([trace] mode = spikes)? NULL: every one */
	int (*traces)(const struct campaign *cp, int v);
	/* the directory is open, the cells not started: what the mode checks */
	void (*opened)(struct campaign *cp);
	/* does this latlab run cell c now? */
	int (*runs_here)(const struct campaign *cp, const struct cell *c);
	/*
	 * Does the mode run variant v's cells of round `round` (0: all of
	 * them) elsewhere (a qemu variant's in its guests)? 1 with *rc their
	 * exit status (EXIT_INTERRUPTED, or -errno when results cannot be
	 * written; EXIT_PASS for guests queued side by side: cp_pool_wait
	 * has theirs), 0: they run here.
	 */
	int (*elsewhere)(struct campaign *cp, int v, int round, int *rc);
	/* cell i starts here, and has ended (its files in dir) */
	void (*cell_started)(const struct campaign *cp, int i);
	void (*cell_ended)(const struct campaign *cp, int i, const char *dir);
	/* the cells done: the mode's judgement of them (the baseline, --reboot) */
	void (*finish)(struct campaign *cp, int *status);
	/* a pending cell that is not run here: is it still this latlab's? */
	int (*left_here)(const struct campaign *cp, const struct cell *c);
	int says_others;	/* say how many cells wait for other variants */
	/* the very end, whatever the status */
	void (*end)(struct campaign *cp, int status);
};

extern const struct cp_mode cp_host_mode, cp_guest_mode;

struct campaign {
	const struct config *cfg;
	const struct run_opts *ro;
	const struct cp_mode *mode;
	struct cell *cells;
	int ncells;
	int *order;		/* the cells in their run order (matrix_run_order) */
	/*
	 * Guests side by side (campaign_pool.c) share what follows: the
	 * ledger, brief, qemu; a thread holds lock while it reads or
	 * changes them, never while a guest boots or runs
	 */
	pthread_mutex_t lock;
	atomic_int signalled;	/* SIGINT or SIGTERM seen (cp_signalled) */
	struct ledger lg;	/* every cell's status, rows and reason */
	struct chan_brief *brief;	/* per cell, for the end-of-run table */
	unsigned char *kept;	/* per cell: its status is an earlier run's */
	char dir[PATH_MAX];	/* OUTPUT/NAME */
	char host[128];
	struct kernel_info kernel;
	struct sysinfo si;
	struct run_env env;
	int lock_fd;		/* the campaign's flock, or -1 */
	uint64_t extends;	/* the state hash of the tree cfg extends (cp_extension); 0: none */
	struct {
		int jobs;	/* instruction-clock guests side by side, >= 1 */
		struct vm_image *image;	/* per variant: what its guests boot */
		struct cp_pool *pool;	/* those running, or NULL */
		struct cp_booted {
			int v;
			struct cp_rounds round;
		} booted[64];		/* the guests running now (cp_run_qemu) */
		int nbooted;
		int kvm;	/* accel = auto: -1 untried, 0 no, 1 works */
		/* what each variant's boots said once: "VARIANT\tLINE" (cp_said_once) */
		char **said;
		int nsaid;
	} qemu;			/* on the host, for qemu variants */
	struct {
		int v;		/* the kernel variant this guest is */
		char *want;	/* per cell: the host gave it to this guest */
		struct settle settle;	/* how the boot settled before any cell (settle.h) */
		int settle_rc;		/* 0, or -errno: /proc/stat unread, nothing waited (settle = on) */
	} guest;		/* inside a guest (ro->guest) */
};

/* ---- campaign_cells.c: the services the modes and runners call ---- */

/*
 * Cell i on this machine: measured, judged, written, said, reported
 * (nth of run_n here; lava: its maxima as LAVA test cases). 0 to go on
 * (its status is in the ledger), or the exit status that stops the
 * campaign: EXIT_INTERRUPTED, or EXIT_RUNTIME (results that cannot be
 * written, no real-time privilege).
 */
int cp_run_here(struct campaign *cp, int i, int nth, int run_n, int lava);

/* The cells.csv rows of a cell run on this machine (malloc'ed). */
char *cp_rows(const struct campaign *cp, const struct cell *c,
	      enum cell_status st, const struct cell_result *res);
/* The ledger (cells.csv, state, junit.xml) written out. 0 or -errno. */
int cp_write(struct campaign *cp);
/*
 * SIGINT or SIGTERM came (they are blocked in every thread): whichever
 * thread takes it, every thread asking after it is told.
 */
int cp_signalled(struct campaign *cp);
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

/*
 * Is this the first time variant v says line (a guest's warning, the
 * host's word on its clock)? 1 the first time (remembered), else 0:
 * what every boot of a variant repeats is said once per variant.
 */
int cp_said_once(struct campaign *cp, int v, const char *line);

/* ---- campaign.c ---- */

/* The highest priority of the matrix (at least 1): what SCHED_FIFO is probed at. */
int cp_max_priority(const struct config *cfg);

/* ---- campaign_host.c ---- */

/*
 * [thresholds] baseline can be read as the judgement at the end will
 * read it, and is not the campaign's own tree (OUTPUT/NAME): 0, or
 * -errno with "FILE:LINE: reason" in why.
 */
int cp_check_baseline(const struct config *cfg, const char *output, char *why, size_t len);

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
/*
 * OUTPUT/NAME holds this campaign run with fewer repeats (or extended
 * before): the config that extends it, cfg with repeat_first, into
 * *ext (a shallow copy to free(), its options cfg's), what the tree was
 * into *was (when not NULL), and 1; 0 when the
 * tree is not one cfg extends (none, the same config, or another: left
 * to cp_prepare_dir); -ERANGE when cfg's repeat is below the tree's
 * (said in why: runs are never dropped).
 */
struct cp_tree_was {
	int64_t repeat;		/* the runs of each cell it holds */
	uint64_t hash;		/* its state's config_hash */
};
int cp_extension(const struct config *cfg, const char *output, struct config **ext,
		 struct cp_tree_was *was, char *why, size_t len);
/*
 * What cell c's files come to, about (bytes): 1 MiB, 256 KiB a thread
 * (hist.csv and series.csv), and samples.bin when asked for.
 */
double cp_cell_need(const struct campaign *cp, const struct cell *c);
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
/* The line said when a cell ends, led by its workload's primary metric. */
void cp_progress(const struct cell *c, const struct cell_result *res, int primary,
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
 * Every pending cell of qemu variant v of the rounds `round`, in its
 * guests. The exit status of its cells, EXIT_INTERRUPTED, or -errno
 * when the results cannot be written. Takes cp->lock itself: call it
 * without.
 */
int cp_run_qemu(struct campaign *cp, int v, struct cp_rounds round);
/*
 * What each qemu variant with cells to run boots, decided once and said:
 * image =, or the ELF kernel inside a bzImage (vm_image).
 */
void cp_qemu_images(struct campaign *cp);
/* That image's path for variant v (image = before cp_qemu_images). */
const char *cp_boot_image(const struct campaign *cp, int v);
/* The content key of variant v's image = (vm_image_key; 0: not known). */
uint64_t cp_image_key(const struct campaign *cp, int v);

/* ---- campaign_pool.c: instruction-clock guests side by side ---- */

/* Variant v's guests run side by side with others (clock = icount, jobs > 1). */
int cp_pool_takes(const struct campaign *cp, int v);
/*
 * The pool, when a variant's guests run side by side; else none (0).
 * -ENOMEM: none, and every guest runs alone (jobs = 1).
 */
int cp_pool_init(struct campaign *cp);
/* The pool waited for and freed. */
void cp_pool_free(struct campaign *cp);
/* Variant v's cells of the rounds `round` queued for the next free job. */
void cp_pool_add(struct campaign *cp, int v, struct cp_rounds round);
/* cp_rounds_of, cp_boots_at, cp_boot_at: rounds.h */
/*
 * Every queued guest done: the exit status of their cells,
 * EXIT_INTERRUPTED, or -errno when results cannot be written (then
 * what was queued and not started is left pending).
 */
int cp_pool_wait(struct campaign *cp);
/* How many guests side by side: --jobs, else this machine's CPUs and memory. */
int cp_pool_jobs(const struct config *cfg, int asked);

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

/*
 * Every child of this process killed (SIGKILL) and reaped, and theirs, as
 * a subreaper gets them: what a cell's foreign code left running. How
 * many; call it only where this process has no children of its own left
 * (a cell's process at its end, latlab after it).
 */
int cp_kill_descendants(void);

/*
 * Before a --reboot campaign writes anything: can the resume unit carry
 * its output as it is (systemd's EnvironmentFile rules), and is
 * resume.env not armed for another campaign? 0, or -errno with why.
 */
int cp_reboot_check(const struct config *cfg, const char *output, char *why, size_t len);

#endif
