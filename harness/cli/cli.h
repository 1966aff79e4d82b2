/*
 * latlab's command line: each command a row of main.c's table — its
 * name, synopsis, help, options and function — and each
 * command's options a table of its own (fio's style, common/cliopt.h,
 * which latload's options share): one row per option, its long name,
 * letter, argument, where its value goes and how it is read, and its
 * help. cli_parse reads a command's; `latlab help COMMAND` prints them.
 * main.c only dispatches.
 */
#ifndef LATLAB_CLI_H
#define LATLAB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cliopt.h"

struct cli_command {
	const char *name;
	const char *usage;	/* the synopsis after "latlab " */
	const char *help;
	const struct cli_opt *opts;	/* NULL-name-terminated, or NULL: none */
	int (*fn)(int argc, char **argv);
};

/* The commands' table (main.c's, NULL-name-terminated), given once by main. */
void cli_set_commands(const struct cli_command *table);
const struct cli_command *cli_commands(void);

/* The command called name, or NULL. */
const struct cli_command *cli_find(const char *name);

/* "usage: latlab COMMAND [OPTIONS]" and the commands, to fp. */
void cli_usage(FILE *fp);

/* A command's synopsis to stderr: the exit status of a bad command line. */
int cli_bad_usage(const char *cmd);

/* A command's synopsis, help and options (latlab help COMMAND). */
void cli_help(const struct cli_command *c, FILE *fp);

/*
 * argv's options (argv[0] the command's name) into dst by the command's
 * table. 0 with *first the index of the first operand; 1 when --help was
 * given (the synopsis printed: nothing more to do); or EXIT_USAGE, said.
 */
int cli_parse(const char *cmd, int argc, char **argv, void *dst, int *first);

/* The command line as run (for sysinfo.ini), set once by main. */
void cli_set_cmdline(int argc, char **argv);
const char *cli_cmdline(void);

/* The options' readers the commands share (CLI_CALL), each saying what is wrong. */
int cli_jobs_guests(const char *arg, void *field);	/* int: 1 to 64 guests side by side */
int cli_jobs_gnuplot(const char *arg, void *field);	/* int: 1 to 64 gnuplot processes */
int cli_axis(const char *arg, void *field);		/* int: an axis of the table */
int cli_metric(const char *arg, void *field);		/* int: a metric */
int cli_margin(const char *arg, void *field);		/* double: 0 to 100 % as a fraction */
int cli_tolerance(const char *arg, void *field);	/* double: 0 to 1000 % as a fraction */
int cli_deadline(const char *arg, void *field);	/* int64_t: ns */
int cli_target(const char *arg, void *field);		/* double: a probability */

/* the commands (cmd_*.c) */
int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_hwlat(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* the tables of their options */
extern const struct cli_opt run_cli[], plan_cli[], watch_cli[], report_cli[], compare_cli[],
	history_cli[], export_cli[], hwlat_cli[];

#endif
