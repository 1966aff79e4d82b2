/*
 * A campaign's ledger: what is known of every cell — its status, its
 * cells.csv rows, why it failed or was skipped — and the reboot intent,
 * as OUTPUT/NAME/{cells.csv,state,junit.xml} (docs/formats.md). Each cell's
 * change of status is appended to the state at once (a line, synced: the
 * cost does not grow with the campaign); the three files are rewritten
 * whole and atomically now and then (ledger_progress) and at the end,
 * when the state is compacted again. prior.c reads state (its last line of a
 * cell wins) and cells.csv back to resume; a cell done since the last
 * whole write gets its rows back with ledger_rows_from_dir.
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
	char boot_id[40];		/* this boot's (ledger_init), kept in the state */
	int *went_down;			/* per cell: boots that ended while it ran */
	int appended;			/* state lines since the last whole write */
	int64_t written_ns;		/* CLOCK_MONOTONIC of the last whole write */
};

/* The whole files are rewritten no sooner than this while cells change… */
#define LEDGER_EVERY_NS (10LL * 1000000000LL)
/* …and no later than this (ns). */
#define LEDGER_STALE_NS (300LL * 1000000000LL)

/*
 * This boot's id (/proc/sys/kernel/random/boot_id; LATLAB_FAKE_BOOT_ID
 * for the tests), "" where unreadable. The state keeps the boot_id of
 * the latlab that wrote it: a cell still running in a state written in
 * another boot was running when the machine went down.
 */
void ledger_boot_id(char *buf, size_t len);

/* Every cell pending, no rows yet. 0 or -ENOMEM. */
int ledger_init(struct ledger *lg, const struct config *cfg,
		const struct cell *cells, int ncells);
void ledger_free(struct ledger *lg);

/*
 * cells.csv, state and junit.xml in dir, each whole and atomically (the
 * file that fails is said). 0 or -errno.
 */
int ledger_write(struct ledger *lg, const char *dir);

/*
 * DIR/campaign.ini: the config the campaign runs, resolved (every default
 * filled in; config_write_ini), atomically. 0 or -errno.
 */
int ledger_write_config(const char *dir, const struct config *cfg);

/* DIR/campaign.ini's path, for config_load. 0 or -ENAMETOOLONG. */
int ledger_config_path(char *buf, size_t len, const char *dir);

/* Cell i's status appended to dir/state and synced. 0 or -errno. */
int ledger_mark(struct ledger *lg, const char *dir, int i);

/*
 * Cell i's outcome: its status, its reason (copied; NULL for none) and
 * its cells.csv rows (taken: the ledger frees them), each replacing what
 * it had. ledger_progress then says it.
 */
void ledger_settle(struct ledger *lg, int i, enum cell_status status, const char *reason,
		   char *rows);

/*
 * Cell i changed (its status, rows and reason are set): its status
 * appended, and the whole files rewritten when LEDGER_EVERY_NS has
 * passed since they were and 1/32 of the cells have appended lines (so a
 * whole write's cost, spread over the cells since the last, does not grow
 * with the campaign), when LEDGER_STALE_NS has passed, or when the
 * appended lines outnumber twice the cells.
 * 0 or -errno.
 */
int ledger_progress(struct ledger *lg, const char *dir, int i);

/*
 * The cells.csv rows of cell c (malloc'ed text): a row per thread x
 * metric when it measured, else one with the statistics empty. host,
 * release and policy (SCHED_FIFO or SCHED_OTHER) say where it ran.
 */
char *ledger_rows(const struct config *cfg, const struct cell *c,
		  enum cell_status st, const struct cell_result *res,
		  const char *host, const char *release, int policy);

/*
 * The same rows rebuilt from the cell's directory: its cell.ini (status,
 * policy, reason) and summary.csv, which cells.csv's rows repeat, read
 * with the strict readers. For a cell whose rows did not reach cells.csv
 * before a crash, and for a guest's cell (the host never copies a
 * guest's own text into cells.csv). NULL when the directory does not
 * hold them: no cell.ini of a finished cell, or a damaged summary.csv (a
 * measured cell needs one). *said (when not NULL): cell.ini's status.
 */
char *ledger_rows_from_dir(const struct config *cfg, const struct cell *c,
			   const char *dir, const char *host, const char *release,
			   enum cell_status *said);

#endif
