/*
 * What a campaign's bookkeeping writes per cell, at 100 and 10 000 cells:
 * the whole ledger rewritten twice per cell (latlab up to 0.3.x: cost grows
 * with the campaign) against a status line appended per change plus the
 * whole files now and then (ledger_progress: after 10 s and 1/32 of the
 * cells; now). Bytes are write(2)
 * bytes from /proc/self/io; cells take CELL_MS of wall time each (the
 * shortest a cell can be is 100 ms + overhead: here it is simulated with
 * a clock offset, not slept). For the old way at 10 000 cells only the
 * first 200 cells are run (as the issue measured) and the rest is
 * computed: it is a sum of rewrites whose size grows linearly.
 *   build/bench/ledger_cost [DIR]   (default /dev/shm)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ledger.h"
#include "matrix.h"
#include "atomic.h"

static long long written(void)
{
	FILE *fp = fopen("/proc/self/io", "r");
	char line[128];
	long long v = -1;

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "wchar: %lld", &v) == 1)
			break;
	if (fp)
		fclose(fp);
	return v;
}

/* A measured cell's rows: 3 metrics x 1 thread, as long as real ones. */
static char *rows(const struct cell *c)
{
	char *r = NULL;

	if (asprintf(&r, "%1$s,%2$s,0,host,6.1.0,running,none,timer,1,spread,1000000,90,4096,1,fifo,ok,,0,0,wakeup,1000,51234,61234,4000,60000,70000,90000,150000,300000,412345,0,0,0,1000000,2000000,0,0\n"
		     "%1$s,%2$s,0,host,6.1.0,running,none,timer,1,spread,1000000,90,4096,1,fifo,ok,,0,0,io,1000,51234,61234,4000,60000,70000,90000,150000,300000,412345,0,0,0,1000000,2000000,0,0\n"
		     "%1$s,%2$s,0,host,6.1.0,running,none,timer,1,spread,1000000,90,4096,1,fifo,ok,,0,0,response,1000,51234,61234,4000,60000,70000,90000,150000,300000,412345,0,0,0,1000000,2000000,0,0\n",
		     "bench", c->id) < 0)
		abort();
	return r;
}

/* Bytes per cell over the first `run` of n cells, each way. */
static double measure(const struct config *cfg, const char *dir, int n, int run,
		      int appended)
{
	struct cell *cells;
	struct ledger lg;
	long long before;

	if (matrix_expand(cfg, &cells) != n || ledger_init(&lg, cfg, cells, n))
		abort();
	for (int i = 0; i < n; i++)
		lg.rows[i] = rows(&cells[i]);
	if (ledger_write(&lg, dir))
		abort();
	before = written();
	for (int i = 0; i < run; i++) {
		lg.status[i] = CELL_RUNNING;
		if (appended ? ledger_mark(&lg, dir, i) : ledger_write(&lg, dir))
			abort();
		lg.status[i] = CELL_OK;
		/* a cell takes 0.4 s: the whole files every 25 cells at most */
		lg.written_ns -= 400000000LL;
		if (appended ? ledger_progress(&lg, dir, i) : ledger_write(&lg, dir))
			abort();
	}
	double per = (double)(written() - before) / run;
	ledger_free(&lg);
	free(cells);
	return per;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/dev/shm";
	char path[4096], err[1024], cmd[4200];
	static const int sizes[] = { 100, 1000, 10000 };

	snprintf(path, sizeof(path), "%s/latlab-bench-ledger-%d", dir, (int)getpid());
	if (mkdir_p(path))
		return 1;
	printf("%8s %16s %16s %8s\n", "cells", "whole (B/cell)", "appended (B/cell)", "ratio");
	for (int s = 0; s < 3; s++) {
		int n = sizes[s];
		char set[64];
		const char *sets[] = { set, "matrix.threads=1-10", "campaign.name=bench" };
		struct config *cfg = malloc(sizeof(*cfg));

		/* n cells: 10 thread counts x n / 10 repeats */
		snprintf(set, sizeof(set), "campaign.repeat=%d", n / 10);
		if (!cfg || config_load(cfg, NULL, sets, 3, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		int run = n > 200 ? 200 : n;
		double whole = measure(cfg, path, n, run, 0);
		double app = measure(cfg, path, n, n, 1);
		/* the old way grows linearly: its mean over all n cells is its
		 * mean over the first `run` (all of the same size here: the
		 * files hold every cell from the start) */
		printf("%8d %16.0f %16.0f %7.0fx\n", n, whole, app, whole / app);
		config_free(cfg);
		free(cfg);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", path);
	return system(cmd) != 0;
}
