#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cellread.h"
#include "ledger.h"
#include "log.h"
#include "model.h"
#include "reconcile.h"
#include "tree.h"

/* The status a cell directory's cell.ini says ("" when none). */
static void ini_status(const char *dir, char *out, size_t len)
{
	cell_ini_get(dir, CELLF_INI, "cell", "status", out, len);
}

/*
 * The directory TREE/HOST/RELEASE/ID whose cell.ini says `status`, with
 * its host and release: 0, or -ENOENT.
 */
static int find_cell_dir(const char *tree, const char *id, const char *status,
			 char *dir, size_t len, char *host, char *release, size_t hlen)
{
	DIR *hd = opendir(tree);
	struct dirent *h, *r;
	char sub[PATH_MAX + 300], said[32];
	int rc = -ENOENT;

	while (hd && rc && (h = readdir(hd)) != NULL) {
		if (h->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", tree, h->d_name);
		DIR *rd = opendir(sub);

		while (rd && rc && (r = readdir(rd)) != NULL) {
			if (r->d_name[0] == '.' ||
			    cell_path(dir, len, tree, h->d_name, r->d_name, id) != 0)
				continue;
			ini_status(dir, said, sizeof(said));
			if (strcmp(said, status) == 0) {
				snprintf(host, hlen, "%s", h->d_name);
				snprintf(release, hlen, "%s", r->d_name);
				rc = 0;
			}
		}
		if (rd)
			closedir(rd);
	}
	if (hd)
		closedir(hd);
	return rc;
}

/*
 * A cell that measured (ok, fail) keeps its summary.csv and hist.csv
 * whole, as the tree reader checks them; else it runs again, said.
 */
static int measured_files_whole(const char *dir, enum cell_status st, const char *id)
{
	char err[PATH_MAX + 1024];
	struct cell_files f;

	if (st != CELL_OK && st != CELL_FAIL)
		return 1;
	if (cell_files_read(dir, &f, err, sizeof(err)) != 0) {
		log_warn("%s: its files are damaged (%s): it runs again", id, err);
		return 0;
	}
	cell_files_free(&f);
	return 1;
}

char *reconcile_rows(const struct config *cfg, const char *tree,
		     const struct prior *prior, const struct cell *c,
		     enum cell_status st)
{
	const char *id = c->id, *name = cell_status_name(st);
	const char *status = "nothing", *host, *release;
	char dir[PATH_MAX + CELL_ID_MAX + 300], said[32], h[NAME_MAX + 1], r[NAME_MAX + 1];

	if (prior_where(prior, id, &status, &host, &release) == 0 &&
	    strcmp(status, name) == 0) {
		if (st == CELL_SKIPPED)
			return prior_rows(prior, id);	/* given up, perhaps without a directory */
		said[0] = '\0';
		if (cell_path(dir, sizeof(dir), tree, host, release, id) == 0)
			ini_status(dir, said, sizeof(said));
		if (strcmp(said, name) != 0) {
			log_warn("%s: the state says %s, its cell.ini says %s: it runs again", id,
				 name, said[0] ? said : "nothing (no cell.ini)");
			return NULL;
		}
		if (!measured_files_whole(dir, st, id))
			return NULL;
		if (prior_rows_together(prior, id))
			return prior_rows(prior, id);
		log_warn("%s: cells.csv holds its rows in more than one place: rebuilt from %s",
			 id, dir);
		return ledger_rows_from_dir(cfg, c, dir, host, release, NULL);
	}
	if (find_cell_dir(tree, id, name, dir, sizeof(dir), h, r, sizeof(h)) == 0) {
		char *rows = ledger_rows_from_dir(cfg, c, dir, h, r, NULL);

		if (rows) {
			log_info("%s: cells.csv says %s, the state and its cell.ini %s: its rows rebuilt from %s",
				 id, status, name, dir);
			return rows;
		}
	}
	log_warn("%s: the state says %s, cells.csv says %s, and no directory of it does: it runs again",
		 id, name, status);
	return NULL;
}
