#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "matrix.h"
#include "targets.h"
#include "tree.h"

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *fp = fopen(path, "wb");

	if (!fp)
		abort();
	fwrite(data, 1, size, fp);
	fclose(fp);
}

int fuzz_config(const uint8_t *data, size_t size)
{
	static char path[64];
	struct config *cfg = malloc(sizeof(*cfg));
	struct cell *cells;
	char err[1024];

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/latlab-fuzz-config-%d.ini", (int)getpid());
	write_file(path, data, size);
	if (cfg && config_load(cfg, path, NULL, 0, err, sizeof(err)) == 0) {
		FILE *null = fopen("/dev/null", "w");
		int n = matrix_expand(cfg, &cells);

		if (n > 0)
			free(cells);
		if (null) {
			config_write_ini(null, cfg);
			fclose(null);
		}
		(void)config_hash(cfg);
	} else if (cfg && !err[0]) {
		abort();	/* every refusal says why */
	}
	if (cfg)
		config_free(cfg);
	free(cfg);
	return 0;
}

#define CELL "vm/6.1.0-stock/0000-none-timer-t1-aspread-1"

int fuzz_tree(const uint8_t *data, size_t size)
{
	/* the first byte picks the file the rest replaces (or adds) */
	static const char *const files[] = {
		"cells.csv", CELL "/summary.csv", CELL "/hist.csv", CELL "/load.csv",
		CELL "/series.csv", CELL "/spikes.csv", CELL "/interference.csv",
		CELL "/timeline.csv",
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	static char dir[64];
	char path[256], err[8192];
	struct tree t;
	struct cell_files f;

	if (!dir[0]) {
		char cmd[256];
		const char *src = getenv("LATLAB_FUZZ_TREE");

		snprintf(dir, sizeof(dir), "/tmp/latlab-fuzz-tree-%d", (int)getpid());
		snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r %s %s", dir,
			 src ? src : "tests/fixtures/compare/stock", dir);
		if (system(cmd) != 0)
			abort();
	}
	if (size == 0)
		return 0;
	const char *name = files[data[0] % NFILES];
	char saved[sizeof(path) + 8];
	int had;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(saved, sizeof(saved), "%s.orig", path);
	had = access(path, F_OK) == 0;	/* spikes, interference, timeline.csv: added */
	if (had && access(saved, F_OK) != 0 && rename(path, saved) != 0)
		abort();
	write_file(path, data + 1, size - 1);
	err[0] = '\0';
	if (tree_read(&t, dir, err, sizeof(err)) == 0) {
		for (int i = 0; i < t.n; i++)
			if (t.cell[i].bad && t.cell[i].measured)
				abort();	/* a damaged cell is never drawn */
		tree_free(&t);
	} else if (!err[0]) {
		abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, CELL);
	if (cell_files_read(path, &f, err, sizeof(err)) == 0)
		cell_files_free(&f);
	/* the next input starts from the real tree */
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (had)
		rename(saved, path);
	else
		unlink(path);
	return 0;
}
