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

/*
 * Append name='value' (the value quoted for gnuplot) to vars. 0, or
 * -E2BIG when it does not fit (vars then ends before it; plot_render
 * refuses such vars).
 */
int plot_var(char *vars, size_t len, const char *name, const char *value);

/*
 * The curves of a figure as a gnuplot script file: n, and arrays
 * paths[1..n] and names[1..n], each element quoted, so a figure has any
 * number of curves and a path any blank. tail.gp and compare.gp load the
 * file named by their `list` variable. 0 or -errno.
 */
int plot_write_list(const char *file, const char *const *paths,
		    const char *const *names, int n);

#endif
