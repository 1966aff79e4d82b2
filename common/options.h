/*
 * Declarative options (fio style): one row per option, shared by the INI
 * parser, --set overrides, validation, campaign.ini echoes and
 * `latlab list`. Each row says where its value lives (offset into the
 * section's struct), its type, range, default and help.
 */
#ifndef LATLAB_OPTIONS_H
#define LATLAB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A string option's room: the longest line the config reader takes, so no
 * value a line can hold (a stress-ng or kernel-build command line, a long
 * path) is cut or refused for its length; the line's limit is said at its
 * line.
 */
#define OPT_STR_MAX 4096
#define AXIS_MAX 64
/*
 * An axis item's room: a CPU list of a big machine ("1+3+5+...+63")
 * fits; the names items refer to are shorter (CFG_NAME_MAX: they are in
 * every cell's id and directory).
 */
#define AXIS_ITEM_MAX 256

enum opt_type {
	OPT_INT,		/* int64_t */
	OPT_DURATION,		/* int64_t ns */
	OPT_SIZE,		/* int64_t bytes */
	OPT_STRING,		/* char[OPT_STR_MAX] */
	OPT_ENUM,		/* int: index into `choices` ("a|b|c") */
	OPT_AXIS_INT,		/* struct axis: integers and ranges "1-4" */
	OPT_AXIS_DURATION,	/* struct axis of durations */
	OPT_AXIS_SIZE,		/* struct axis of sizes */
	OPT_AXIS_NAME,		/* struct axis of names, checked later */
	OPT_AXIS_AFFINITY,	/* struct axis: one of `words` (spread, ...) or a CPU list */
	OPT_AXIS_CHOICE,	/* struct axis of `words`, each its value */
};

/* Option may be written `all` (an axis item stored as AXIS_ALL). */
#define OPT_ALLOW_ALL 1u
/* Option has no default: unset is stored as OPT_UNSET. */
#define OPT_OPTIONAL 2u
/*
 * Echoed (opt_write_ini) only when set to something other than its
 * default: an option added later leaves older configs' echo, and so
 * their hash and the campaigns that resume by it, unchanged.
 */
#define OPT_ECHO_SET 4u

#define OPT_UNSET INT64_MIN
#define AXIS_ALL (-1)

/* Where threads run: the affinity axis's items; a load's cpus, housekeeping too. */
enum affinity_kind { AFF_SPREAD, AFF_ALL, AFF_ISOLATED, AFF_LIST, AFF_NODE, AFF_HOUSEKEEPING };

/* Where a value came from, for "file:line: message" errors. */
struct srcloc {
	const char *file;	/* config path, or "--set" */
	int line;
};

/* A matrix axis: items as written (for ids) and their values. */
struct axis {
	int n;
	int64_t v[AXIS_MAX];	/* value; AXIS_ALL; or enum affinity_kind */
	char s[AXIS_MAX][AXIS_ITEM_MAX];	/* the item's text */
	struct srcloc loc;
};

/*
 * One word an option takes: as written, as stored, and what it does. An
 * option's words make its parse, its list of values, its "did you mean",
 * its completion and its docs (latlab list), so the four never disagree.
 * A word whose max is not 0 ends in N and takes a number there, 0 to max
 * ("deepest:N", "auxN"): stored as value + N with OPT_WORD_PLUS, else as
 * value (the option's reader types N from the text: node:N). A table
 * ends with a NULL word.
 */
struct opt_word {
	const char *word;
	int64_t value;
	const char *help;	/* NULL: the word says it */
	int max;
	unsigned flags;
};
#define OPT_WORD_PLUS 1u

struct opt {
	const char *key;
	enum opt_type type;
	size_t offset;
	int64_t min, max;	/* for numbers and number axes (0,0: none) */
	const char *def;	/* default as text; NULL for none */
	const char *help;
	const char *choices;	/* OPT_ENUM: "a|b|c", each its index */
	const struct opt_word *words;	/* OPT_ENUM, OPT_AXIS_CHOICE, _AFFINITY: the words */
	unsigned flags;
	char short_opt;		/* latload's one-letter flag, or 0 */
};

/* The row for `key` in a NULL-key-terminated table, or NULL. */
const struct opt *opt_find(const struct opt *table, const char *key);

/*
 * "Did you mean": the name of names[0..n) nearest to word — at most two
 * edits (a letter added, dropped, changed, or two swapped; any case), and
 * fewer than half of word's length — or NULL when none is that near.
 */
const char *opt_nearest(const char *word, const char *const *names, int n);

/* Is text one of the axis's items, as written? */
int axis_has_item(const struct axis *ax, const char *text);

/* The same among the keys of table and of more (either may be NULL). */
const char *opt_suggest(const char *key, const struct opt *table,
			const struct opt *more);

/* Fill every option of `table` in `base` with its default. */
void opt_defaults(const struct opt *table, void *base);

/*
 * Parse `value` into the option's field of `base`. On error returns
 * -EINVAL (or -ERANGE) with a one-line reason in err, and the field is
 * left as it was.
 */
int opt_parse(const struct opt *o, void *base, const char *value,
	      char *err, size_t errlen);

/* The option's current value as config text ("" when unset). */
void opt_format(const struct opt *o, const void *base, char *buf,
		size_t len);

/* "duration", "size list", ... for `latlab list`. */
const char *opt_type_name(const struct opt *o);

/* Write "key = value" for every option of the table. */
void opt_write_ini(FILE *fp, const struct opt *table, const void *base);

/* Index of `word` in "a|b|c", or -1. */
int opt_choice_index(const char *choices, const char *word);

/*
 * The next word of a comma list at *p into word, without the spaces
 * around it when `trim`; empty words are words too. 1, or 0 at the end.
 */
int opt_list_next(const char **p, char *word, size_t len, int trim);

/*
 * A comma list that `what` (an option's name, "--baseline") takes: 0,
 * or -EINVAL with why in err — empty ("--baseline is empty: it names
 * nothing"), or an empty item, leading, trailing or between two commas
 * ("--baseline 'a,,b' has an empty item (2 of 3)"). Blanks count as empty.
 */
int opt_list_check(const char *list, const char *what, char *err, size_t len);

/* The n-th word of "a|b|c" into buf. */
void opt_choice_name(const char *choices, int n, char *buf, size_t len);

/* The value of text among words: 0, or -1 when it is none of them. */
int opt_word_parse(const struct opt_word *words, const char *text, int64_t *v);

/* How value is written among words into buf ("?" for none of them). */
void opt_word_format(const struct opt_word *words, int64_t value, char *buf, size_t len);

/* "a|b|deepest:N": the words as a list, for messages and latlab list. */
void opt_words_list(const struct opt_word *words, char *buf, size_t len);

/*
 * "a (its help), b or c (its help)": the words with what each does, for
 * an option's help; a numbered word with its range ("deepest:N, N 0-15").
 */
void opt_words_help(const struct opt_word *words, char *buf, size_t len);

#endif
