/*
 * A campaign's wall time, from what this machine measured of its guests
 * (estimate.c): plan, status and a running campaign's progress use it.
 */
#ifndef LATLAB_ESTIMATE_H
#define LATLAB_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "kernel.h"
#include "matrix.h"

/* A boot of variant k (its image's key): qemu to the guest's hello, and its power-off. */
void est_record_boot(const struct kernel_def *k, uint64_t image_key, int64_t up_ns,
		     int64_t down_ns);
/* A cell of variant k under load type load_type took wall_ns for duration_ns. */
void est_record_cell(const struct kernel_def *k, uint64_t image_key, const char *load_type,
		     int64_t duration_ns, int64_t wall_ns);

#define EST_TO_RUN 1
#define EST_BOOTED 2

struct est_input {
	const struct config *cfg;
	const struct cell *cells;
	int n;
	/* per cell: 0 done, EST_TO_RUN, or EST_BOOTED: in a guest's boot running now */
	const unsigned char *left;
	const struct kernel_info *kernel;	/* the running kernel */
	const uint64_t *image_key;	/* per variant, or NULL */
	int jobs;			/* guests side by side */
};

/* A guest's cost: its image's as measured here, other images' booted the same way, or none. */
#define EST_MEASURED 0
#define EST_LIKE 1
#define EST_GUESSED 2
#define EST_OTHER_LOAD 3	/* a cell under a load not measured here: as the other loads measured */

/* How the estimate came about, for the words beside it. */
struct est_said {
	int boots, boots_measured;	/* guest boots, and those with their image's measured cost */
	int boots_like;			/* ... with other images' (booted the same way) */
	int cells_guessed;		/* guest cells with nothing measured here */
	int cells_like;			/* ... with other images' cells under that load */
	int cells_other_load;		/* ... with this machine's cells under other loads (loaded or idle alike) */
	int jobs;
};

/*
 * The wall time of in's cells still to run, as run_cells orders them,
 * from what latlab's cache's boots.txt holds; saturated at INT64_MAX.
 */
int64_t est_campaign(const struct est_input *in, struct est_said *said);

#endif
