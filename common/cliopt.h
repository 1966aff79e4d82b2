/*
 * Command lines from tables (fio's style), for latlab's commands
 * (harness/cli) and latload (loadgen/main.c): one row per option — its
 * long name, letter, argument, where its value goes and how it is read,
 * its help — and getopt_long's tables made from the rows. One parse may
 * fill several structs, a table each (latload: its own options, and its
 * load type's: the option engine's rows, common/options.h, and flags
 * that set one of them).
 */
#ifndef LATLAB_CLIOPT_H
#define LATLAB_CLIOPT_H

#include <stddef.h>
#include <stdio.h>

struct opt;

enum cli_type {
	CLI_FLAG,	/* int: 1 when given */
	CLI_TEXT,	/* const char *: the argument as given */
	CLI_CALL,	/* parse(arg, the field): 0, or -EINVAL after saying why */
};

struct cli_opt {
	const char *name;	/* --NAME */
	char letter;		/* -L, or 0 */
	const char *arg;	/* its argument's name ("DIR"); NULL: it takes none */
	enum cli_type type;
	size_t offset;		/* of its field in its table's struct (not CLI_ROW's) */
	int (*parse)(const char *arg, void *field);
	const char *help;	/* NULL: not shown (the guest's own options, latload's descriptors) */
};

/* An option without argument that sets a row of the option engine: -p is pipe = on. */
struct cli_flag {
	char letter;		/* 0 ends a table */
	const char *name;	/* --NAME */
	const char *key;	/* the row it sets */
	const char *value;	/* to this */
	const char *help;
};

/*
 * What one struct is filled from: its rows (NULL-name-terminated, or
 * NULL: none); the option engine's rows (NULL-key-terminated, or NULL),
 * each --KEY VALUE and, with a short_opt, -L VALUE, read by opt_parse;
 * and flags setting those (NULL or a table ended by letter 0).
 */
struct cli_table {
	const struct cli_opt *opts;
	void *dst;
	const struct opt *rows;
	const struct cli_flag *flags;
};

/* the most rows of all the tables of one parse */
#define CLI_OPTS_MAX 128

enum cli_parsed { CLI_PARSED = 0, CLI_HELP = 1, CLI_UNKNOWN = -1, CLI_BAD = -2 };

/* how a parse takes operands among the options */
enum cli_order {
	CLI_ANY_ORDER,		/* options after operands too (latlab run c.ini -q) */
	CLI_OPTIONS_FIRST,	/* the first operand ends them (latload: a command's own options after it) */
};

/*
 * argv's options (argv[0] the command) into the tables' structs; -h and
 * --help are every command's. CLI_PARSED with *first the index of the
 * first operand; CLI_HELP when help was asked (what follows not read);
 * CLI_UNKNOWN for an option no row has (getopt said which); CLI_BAD for
 * a value a row refused (said).
 */
enum cli_parsed cli_opts_parse(const struct cli_table *t, int ntables, enum cli_order order,
			       int argc, char **argv, int *first);

/* The rows with help, a line each ("  -o, --output DIR       help"), to fp. */
void cli_opts_help(const struct cli_opt *opts, FILE *fp);

#endif
