/*
 * latlab report DIR: the figures DIR's data supports, rendered by the
 * gnuplot scripts into DIR/report/, and DIR/report/index.html — the
 * machine, the matrix as a table, the figures, links to the CSV files.
 * latlab compare DIR...: the same cells across kernels, hosts, campaigns.
 */
#ifndef LATLAB_REPORT_H
#define LATLAB_REPORT_H

/* Returns the exit status. */
int report_run(const char *dir, int pdf, int quiet);

/* Returns the exit status; out NULL: ./compare. */
int compare_run(const char *const *dirs, int n, const char *out, int pdf);

#endif
