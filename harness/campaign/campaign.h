/*
 * A campaign: every cell of the plan, in order. Cells of another kernel
 * variant stay pending. Writes OUTPUT/NAME/{campaign.ini,state,cells.csv}
 * and a directory per cell (cell.h).
 */
#ifndef LATLAB_CAMPAIGN_H
#define LATLAB_CAMPAIGN_H

#include "config.h"
#include "matrix.h"

struct run_opts {
	const char *output;	/* -o: overrides [campaign] output */
	int allow_non_rt;	/* SCHED_OTHER when SCHED_FIFO is refused */
	int restart;		/* ignore an earlier run: keep it under a dated name */
	int reboot;		/* then boot the next kernel variant (reboot =) */
	int quiet;
	int jobs;		/* --jobs: instruction-clock guests side by side; 0: per CPU */
	const char *cmdline;
	/* set only in a latlab virtual machine, by the init latlab writes, or
	 * in a container, by the latlab that starts it (runner = container) */
	const char *guest;	/* --guest: the kernel variant this guest is */
	const char *guest_accel;	/* --guest-accel: kvm or tcg */
	const char *guest_cells;	/* --guest-cells: a file of cell ids */
	const char *guest_channel;	/* --guest-channel: a container's descriptor for the channel */
};

/* Run the campaign; returns the exit status (docs/exit-status.md). */
int campaign_run(const struct config *cfg, const struct run_opts *ro);

/* latlab status DIR: cells by status and kernel variant, time left. */
int campaign_status(const char *dir, FILE *out);

/*
 * Print the plan (latlab plan), its wall time for `jobs` guests side by
 * side (0: as run would choose), and what run would refuse (the cells
 * that do not fit, images, the baseline, SCHED_FIFO, the tree in output
 * (NULL: the config's)); returns the exit status run would give before
 * it measures (0, 2 or 3).
 */
int campaign_plan(const struct config *cfg, const char *output, int jobs, FILE *out);

#endif
