/*
 * What an earlier run left in a campaign directory: its state file (the
 * config hash, every cell's status) and its cells.csv rows — read back to
 * resume the campaign, for `latlab status`, and for junit.xml.
 */
#ifndef LATLAB_PRIOR_H
#define LATLAB_PRIOR_H

#include <stdint.h>

#include "matrix.h"
#include "model.h"
#include "csvfile.h"

struct prior_cell {
	char id[CELL_ID_MAX];
	enum cell_status status;
};

#define PRIOR_MAX_VARIANTS 32

struct prior {
	uint64_t hash;
	char reboot_to[64];	/* the variant a reboot was meant to reach */
	int nboots;
	struct {
		char variant[64];
		int tries;	/* reboots into it so far */
	} boot[PRIOR_MAX_VARIANTS];
	char boot_id[40];	/* the boot of the latlab that last wrote it whole */
	struct prior_down {
		char id[CELL_ID_MAX];
		int n;		/* boots that ended while the cell ran */
	} *down;
	int ndown;
	int n;
	struct prior_cell *cell;
	struct csv_table rows;	/* cells.csv (empty if missing) */
	/* sorted by id, for lookups in O(log n): resume is O(n log n) */
	int *last;		/* each id's last line in cell[], one an id */
	int nlast;
	int *by_id;		/* cells.csv's rows (1..), by id then row */
	int nby_id;
	int id_col;		/* cells.csv's cell column, or -1 */
	/*
	 * Each column cells.csv has now (cells_head_columns, SUMMARY_COLUMNS), in
	 * order: its place in the file read, or -1 (a column added since the
	 * file was written: an older latlab's campaign, resumed).
	 */
	int *col_of;
	int ncols_now;
};

/*
 * Read DIR/state and DIR/cells.csv. 0; -ENOENT when there is no state;
 * -EINVAL when the state is not latlab's (empty, no config_hash), or
 * another -errno (not a regular file, unreadable): each with
 * "PATH: reason" in err.
 */
int prior_read(const char *dir, struct prior *p, char *err, size_t errlen);

void prior_free(struct prior *p);

/* The boots that ended while cell `id` ran, as recorded (0 if none). */
int prior_went_down(const struct prior *p, const char *id);

/* The status recorded for `id` (CELL_PENDING if none). */
enum cell_status prior_status(const struct prior *p, const char *id);

/* cells.csv's rows of `id` stand together (none: also 1). */
int prior_rows_together(const struct prior *p, const char *id);

/* cells.csv's rows of `id`, re-serialized as CSV text (malloc), or NULL. */
char *prior_rows(const struct prior *p, const char *id);

/*
 * cells.csv's status, host and kernel_release of `id` (its first row):
 * 0, or -ENOENT when cells.csv has no row of it.
 */
int prior_where(const struct prior *p, const char *id, const char **status,
		const char **host, const char **release);

/* cells.csv's reason for `id`, or "". */
const char *prior_reason(const struct prior *p, const char *id);

#endif
