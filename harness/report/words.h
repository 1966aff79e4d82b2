/*
 * The row vocabulary: how a tree cell's row and side are keyed, titled,
 * labelled, written in compare.csv and history.csv, and said to a reader
 * — each a loop over the axis table (axis.h), the reader (tree.c) only
 * reading and checking.
 */
#ifndef LATLAB_WORDS_H
#define LATLAB_WORDS_H

#include <stddef.h>

#include "axis.h"
#include "csvfile.h"
#include "tree.h"

/* the longest value tcell_axis_value writes ("kernel@host:release"), its NUL included */
#define TAXIS_VALUE_MAX (3 * TCELL_AXIS_MAX)
/* a side's label: a value, and the campaign that tells two apart */
#define SIDE_LABEL_MAX (TAXIS_VALUE_MAX + 128)

/* c's value on axis, as a word ("hackbench", "1000us", "stock@host:6.1.0"). */
void tcell_axis_value(const struct tcell *c, int axis, char *buf, size_t len);

/* The key of c's row along axis: every axis but it and the repeat. */
void tcell_row_key_along(const struct tcell *c, int axis, char *buf, size_t len);

/* Are a and b on one side along axis (the same value of it, in one tree)? */
int tcell_same_side_along(const struct tcell *a, const struct tcell *b, int axis);

/* c's row along axis in words: its axes, the compared one left out, the kernel in when it is not compared. */
void tcell_row_title_along(const struct tcell *c, int axis, char *buf, size_t len);

/*
 * c's row along axis as a reader says it, the compared axis left out:
 * "hackbench · file-write · 1 thread on CPU 1 · 1 ms · FIFO 90 · 4KiB"
 * (the size only for workloads that move bytes, cpu_dma_latency only
 * where it is not the default 0). For titles, captions and the report's
 * verdicts; compare.csv and the lines on stdout keep tcell_row_title_along.
 */
void tcell_row_words(const struct tcell *c, int axis, char *buf, size_t len);

/*
 * Did c's workload use the size axis? Not the timer's or noise's, nor a
 * workload that measured and moved no byte (a sysfs read, a chain of
 * such steps): their tables and words leave the size out.
 */
int tcell_moves_bytes(const struct tcell *c);

/*
 * The same with the axes of the bits of omit (1 << TAXIS_...) left out;
 * terse as tcell_row_words, or not (0: every axis not omitted, the size
 * of a timer and a cpu_dma_latency of 0 too: what tells rows apart that
 * differ only there).
 */
void tcell_row_words_omit(const struct tcell *c, unsigned omit, int terse, char *buf,
			  size_t len);

/* A row's columns along axis (the row axes' columns, the compared one empty; then row_kernel). */
void tcell_row_fields_along(struct csvw *w, const struct tcell *c, int axis);

/* A row in words: "LOAD, WORKLOAD, threads T, affinity A, I µs, priority P, size S, ...". */
void tcell_row_title(const struct tcell *c, char *buf, size_t len);

/* Do a and b come from the same kernel variant on the same host and release? */
int tcell_same_side(const struct tcell *a, const struct tcell *b);

/* A row's columns (the row axes': compare.csv's and history.csv's first ones). */
void tcell_row_fields(struct csvw *w, const struct tcell *c);

/*
 * compare.csv's or history.csv's header: the row axes' columns, then
 * rest (a comma list) — written by w.
 */
void tcell_row_header(struct csvw *w, const char *rest);

#endif
