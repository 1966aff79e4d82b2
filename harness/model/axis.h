/*
 * The axes of the matrix, in one table: each axis's name, its cells.csv
 * column, its part of a cell's id, how its value is held, written, titled
 * and labelled, what a tree written before it holds, and whether a row
 * names it where it has its default. Everything that lists the axes —
 * the config's matrix, a cell's values, its id, cells.csv's row,
 * compare.csv's and history.csv's columns, a row's key, title and words,
 * `--axis` — is a loop over it (docs/architecture.md, "Adding an axis").
 *
 * The host is an axis of the readers only (compare --axis host: a machine
 * and release); the matrix never varies it.
 */
#ifndef LATLAB_AXIS_H
#define LATLAB_AXIS_H

#include <stddef.h>

#include "cpulist.h"
#include "options.h"

/*
 * The values of the axes that take words (enum cell_policy, IDLE_ANY,
 * ...): declared at the top of axes.h, beside their rows, once — this
 * first include of it, whose rows expand to nothing.
 */
#define AXIS(...)
#define READER_AXIS(...)
#include "axes.h"
#undef READER_AXIS
#undef AXIS

/* An axis's part of a cell's id at most (axes.h's .id_max): a word's, and a number's or a name's. */
#define AXIS_ID_WORD 17
#define AXIS_ID_LONG 63

/*
 * An axis row's words (axes.h): a table of struct opt_word, its end
 * added; a word, and a numbered one ("deepest:N": N 0 to max).
 */
#define AXIS_WORDS(...) ((const struct opt_word[]){ __VA_ARGS__, { .word = NULL } })
#define AXIS_WORD(w, v, h) { .word = (w), .value = (v), .help = (h) }
#define AXIS_WORD_N(w, v, h, n, f) { .word = (w), .value = (v), .help = (h), .max = (n), .flags = (f) }

/* The axes, in the matrix's order (repeat last, not an axis): axes.h's rows. */
enum taxis {
#define AXIS(e, m, ...) TAXIS_##e,
#define READER_AXIS AXIS
#include "axes.h"
#undef READER_AXIS
#undef AXIS
	TAXIS_COUNT
};
/* a set of axes is a 32-bit mask (1u << axis): a row's omitted axes, a cell's begun hooks */
_Static_assert(TAXIS_COUNT <= 32, "the axes fit a 32-bit mask");

/* How a cell holds an axis's value, and how cells.csv writes it. */
enum axis_kind {
	AXK_NAME,	/* a definition's name (kernel, load, workload): its index */
	AXK_HOST,	/* the machine and release (readers only) */
	AXK_ITEM,	/* one of the axis's items as written (affinity, numa): its index */
	AXK_COUNT,	/* a number or all (threads) */
	AXK_INT,	/* a number (priority) */
	AXK_DURATION,	/* ns; in an id "1ms", in cells.csv ns */
	AXK_SIZE,	/* bytes; in an id "4KiB", in cells.csv bytes */
	AXK_POLICY,	/* enum cell_policy; its name */
	AXK_MICROS,	/* us, or -1: none (dma_latency) */
};

struct axis_def {
	const char *name;	/* [matrix] key, --axis name */
	const char *plural;	/* "kernels", "affinities": the matrix's size in words */
	const char *column;	/* its cells.csv, compare.csv and history.csv column; NULL: host */
	enum axis_kind kind;
	/*
	 * Its part of a cell's id ("t1", "i200us"): after this prefix; in
	 * every id, or only where the matrix varies it; at most id_max
	 * characters with its '-' (0: no bound).
	 */
	const char *id;
	int id_always, id_max;
	/* the value of a tree written before the axis (its column missing or empty) */
	const char *missing;
	/* said in a row's title only where it is not this (NULL: always said) */
	const char *hidden;
	/*
	 * A row's title part ("threads %s", "%s µs"; %s its value, a
	 * duration in µs) and a side's label along the axis ("threads %s",
	 * "%sus"); NULL: the axis's own words (kernel, host).
	 */
	const char *title, *label;
	int words_at;		/* its place in a row's words (report/words.c); -1: none */
	const struct opt_word *values;	/* the words it takes, or NULL (options.h) */
};

extern const struct axis_def axis_defs[TAXIS_COUNT];

/* "fifo", "rr", "deadline", "other": the policy axis's word for a policy */
const char *policy_name(int policy);

/* How the axis writes value ("timerfd", "aux3", "deepest:2") into buf: its words. */
void axis_value_format(int axis, int64_t value, char *buf, size_t len);

/* The axis whose cells.csv column is `column`, or -1. */
int taxis_of_column(const char *column);

/* The axis called name, or -1; an axis's name ("?" for none). */
int taxis_parse(const char *name);
const char *taxis_name(int axis);

/* "kernel|host|load|...": every axis's name, for messages (TAXIS_NAMES_MAX fits it). */
#define TAXIS_NAMES_MAX 512
void taxis_names(char *buf, size_t len);

/* Is the axis's value a number (a duration, an int, a size)? cells.csv has its digits. */
int taxis_numeric(int axis);

/* Does the matrix vary the axis (every one but the host)? */
int taxis_in_matrix(int axis);

/* Is the axis one of a row (not the kernel or the host, which make a side)? */
int taxis_in_row(int axis);

/*
 * compare.csv's and history.csv's first columns: each row axis's column
 * ("load,workload,...,numa"), no trailing comma (TAXIS_NAMES_MAX fits it).
 */
void taxis_row_columns(char *buf, size_t len);

/* The row axes' names for people: "load, workload, threads, ..., idle" (TAXIS_NAMES_MAX fits it). */
void taxis_row_words(char *buf, size_t len);

/*
 * An axis item made safe and short for an id: '-' -> '_', ',' '+' -> '.',
 * ':' and ' ' left out.
 */
void axis_id_text(const char *src, char *dst, size_t len);

#endif
