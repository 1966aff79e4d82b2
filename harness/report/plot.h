/*
 * Running the gnuplot scripts of plots/: fork/exec of gnuplot (never a
 * shell) with the variables as one -e argument; its stderr is kept, an
 * error is reported with it, a warning is counted.
 */
#ifndef LATLAB_PLOT_H
#define LATLAB_PLOT_H

#include <limits.h>
#include <stddef.h>

struct plotter {
	char dir[PATH_MAX];	/* where the .gp scripts are */
	int pdf;		/* also render PDF */
	int warnings;		/* gnuplot's warnings, all figures */
	char last_warning[512];
};

/*
 * Find plots/: $LATLAB_PLOTS, beside the binary's tree (build/, build/san/)
 * or the installed share/latlab/plots. 0 or -ENOENT.
 */
int plotter_init(struct plotter *p);

/*
 * Render `script` (e.g. "hist.gp") to OUTBASE.png and OUTBASE.svg (and
 * .pdf) with `vars` ("name=value" pairs, values quoted for gnuplot by
 * plot_var). 0, or -errno / -EIO with gnuplot's message in err.
 */
int plot_render(struct plotter *p, const char *script, const char *outbase,
		const char *vars, char *err, size_t errlen);

/* Append name='value' (the value quoted for gnuplot) to vars. */
void plot_var(char *vars, size_t len, const char *name, const char *value);

#endif
