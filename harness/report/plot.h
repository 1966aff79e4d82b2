/*
 * Running the gnuplot scripts of plots/: fork/exec of gnuplot (never a
 * shell) with the variables as one -e argument; its stderr is kept, an
 * error is reported with it, a warning is counted.
 */
#ifndef LATLAB_PLOT_H
#define LATLAB_PLOT_H

#include <limits.h>
#include <stddef.h>

struct plot_job;

struct plotter {
	char dir[PATH_MAX];	/* where the .gp scripts are */
	int pdf;		/* also render PDF */
	int jobs;		/* gnuplot processes plot_flush runs; 0: one per CPU */
	int warnings;		/* gnuplot's warnings, all figures */
	int failed;		/* figures that could not be drawn */
	char last_warning[512];
	struct plot_job *queue;	/* figures plot_render queued, for plot_flush */
	int nqueue, capqueue;
	char **temp;		/* files plot_flush removes when done */
	int ntemp;
};

/*
 * Find plots/: $LATLAB_PLOTS, beside the binary's tree (build/, build/san/)
 * or the installed share/latlab/plots. 0 or -ENOENT.
 */
int plotter_init(struct plotter *p);

/*
 * Queue `script` (e.g. "hist.gp") to be rendered to OUTBASE.svg, to
 * OUTBASE.png when `png` (the report's cell figures: only with --png)
 * and to OUTBASE.pdf when p->pdf, with `vars` ("name=value" pairs,
 * values quoted for gnuplot by plot_var); a format not drawn has its old
 * file removed. Nothing is drawn before plot_flush. 0, or -ENOMEM, or
 * -EINVAL (err: a newline or quote where a command would break).
 */
int plot_render(struct plotter *p, const char *script, const char *outbase, int png,
		const char *vars, char *err, size_t errlen);

/* Remove `path` (a figure's input made for it) once plot_flush is done. */
int plot_temp(struct plotter *p, const char *path);

/*
 * Draw every queued figure on `jobs` long-lived gnuplot processes (one
 * per CPU by default) fed through pipes: each figure starts from `reset
 * session`, and a marker after it tells its messages from the next one's.
 * A message that is not a warning, or an output file missing or empty (a
 * full disk), fails the figure: it is said on stderr, its files removed,
 * p->failed counted, and the other figures are still drawn. Then the
 * temporary files go. No gnuplot on PATH fails every figure, said once.
 * 0; -EIO when a figure failed (err: the first one's message; pages leave
 * it out: plot_drawn); or -errno, nothing more drawn (a pipe or a process
 * that could not be made, err says so).
 */
int plot_flush(struct plotter *p, char *err, size_t errlen);

/* OUTBASE's figure was drawn (its .svg is there and not empty). */
int plot_drawn(const char *outbase);

/* Free what is still queued and remove the temporary files. */
void plotter_free(struct plotter *p);

/*
 * Append name='value' (the value quoted for gnuplot) to vars. 0, or
 * -E2BIG when it does not fit (vars then ends before it; plot_render
 * refuses such vars).
 */
int plot_var(char *vars, size_t len, const char *name, const char *value);

/* value in gnuplot's single quotes (a quote doubled), to fp: for the list files */
void plot_quoted(FILE *fp, const char *value);

/*
 * One palette keyed by meaning (docs/report.md, "Colours"): the colours
 * (1..PLOT_COLORS, common.gp's linetypes) of a page's sides, by their
 * names — a kernel variant's name ("rt"), a host's, or a value of the
 * compared axis. A name's colour is fixed by the name (a hash), so that
 * rt is one colour in the report, compare and history alike; a name whose
 * colour an earlier name of the same page took moves to the next free one
 * (past PLOT_COLORS names, they repeat). Equal names get equal colours.
 */
#define PLOT_COLORS 7
void plot_colors(const char *const *names, int n, int *out);

/* One curve of a figure drawn from a list file (plot_write_list). */
struct plot_curve {
	const char *path, *name;
	const char *metric;	/* NULL: the figure's `metric` */
	int color;		/* 1..PLOT_COLORS: its side's (plot_colors); 0: by its place */
	int dash;		/* gnuplot's dash type (1 solid): a repeat inside its side */
};

/*
 * The curves of a figure as a gnuplot script file: n, and arrays
 * paths[1..n], names[1..n], colors[1..n] and dashes[1..n] (and
 * metrics[1..n] when a curve has its own), strings quoted, so a figure has
 * any number of curves and a path any blank. tail.gp and compare.gp load
 * the file named by their `list` variable. 0 or -errno.
 */
int plot_write_list(const char *file, const struct plot_curve *curve, int n);

#endif
