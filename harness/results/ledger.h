/*
 * A campaign's ledger: what is known of every cell — its status, its
 * cells.csv rows, why it failed or was skipped — and the reboot intent,
 * written whole and atomically as OUTPUT/NAME/{cells.csv,state,junit.xml}
 * after every change (docs/formats.md). prior.c reads state and cells.csv
 * back to resume.
 */
#ifndef LATLAB_LEDGER_H
#define LATLAB_LEDGER_H

#include "cell.h"
#include "model.h"
#include "config.h"
#include "matrix.h"

struct ledger {
	const struct config *cfg;
	const struct cell *cells;
	int ncells;
	char **rows;			/* cells.csv text per cell (owned), or NULL */
	char **reason;			/* per cell (owned), for junit.xml, or NULL */
	enum cell_status *status;
	char reboot_to[64];		/* the variant a reboot is meant to reach */
	int boot_tries[CFG_DEFS_MAX];	/* per cfg->kernel index */
};

/* Every cell pending, no rows yet. 0 or -ENOMEM. */
int ledger_init(struct ledger *lg, const struct config *cfg,
		const struct cell *cells, int ncells);
void ledger_free(struct ledger *lg);

/* cells.csv, state and junit.xml in dir, each atomically. 0 or -errno. */
int ledger_write(const struct ledger *lg, const char *dir);

/*
 * The cells.csv rows of cell c (malloc'ed text): a row per thread x
 * metric when it measured, else one with the statistics empty. host,
 * release and policy (SCHED_FIFO or SCHED_OTHER) say where it ran.
 */
char *ledger_rows(const struct config *cfg, const struct cell *c,
		  enum cell_status st, const struct cell_result *res,
		  const char *host, const char *release, int policy);

#endif
