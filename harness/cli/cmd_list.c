/*
 * latlab list: every section's keys, the workload and load types with
 * theirs, plain or as Markdown (docs/reference.md is its --markdown).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "exitcodes.h"
#include "load_ops.h"
#include "workload.h"

/*
 * An option's help as latlab list says it: its own words, then what it
 * takes — each word with what it does and the words as a list, or its
 * choices ("a|b|c") — last, after ": ", where completion reads them.
 */
static void option_help(const struct opt *o, char *buf, size_t len)
{
	char words[4096], list[512];

	if (o->words) {
		opt_words_help(o->words, words, sizeof(words));
		opt_words_list(o->words, list, sizeof(list));
		snprintf(buf, len, "%s: %s; values: %s", o->help, words, list);
	} else
		snprintf(buf, len, "%s%s%s", o->help, o->choices ? ": " : "",
			 o->choices ? o->choices : "");
}

static void list_table(const char *section, const struct opt *table)
{
	char def[128];

	printf("[%s]\n", section);
	if (!table || !table->key)
		printf("  (no options)\n");
	/* the columns as wide as the section's longest key, type and default */
	int kw = 10, tw = 14, dw = 10;

	for (const struct opt *o = table; o && o->key; o++) {
		int k = (int)strlen(o->key), t = (int)strlen(opt_type_name(o));
		int d = o->def ? (int)strlen(o->def) : 7;

		kw = k > kw ? k : kw;
		tw = t > tw ? t : tw;
		dw = d > dw && d <= 24 ? d : dw;	/* a long default runs over, not every row */
	}
	for (const struct opt *o = table; o && o->key; o++) {
		char help[8192];

		if (o->def)
			snprintf(def, sizeof(def), "%s", o->def);
		else
			snprintf(def, sizeof(def), "(unset)");
		option_help(o, help, sizeof(help));
		printf("  %-*s %-*s default %-*s %s\n", kw, o->key, tw,
		       opt_type_name(o), dw, def, help);
	}
}

/* s in a Markdown table's cell: its | escaped */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			putchar('\\');
		putchar(*s);
	}
}

/* A table of options as Markdown (latlab list --markdown: docs/reference.md) */
static void md_table(const char *section, const struct opt *table)
{
	printf("\n### [%s]\n\n", section);
	if (!table || !table->key) {
		printf("(no options)\n");
		return;
	}
	printf("| key | type | default | what it is |\n|---|---|---|---|\n");
	for (const struct opt *o = table; o && o->key; o++) {
		printf("| `%s` | %s | ", o->key, opt_type_name(o));
		if (o->def && o->def[0]) {
			putchar('`');
			md_cell(o->def);
			putchar('`');
		} else
			printf("%s", o->def ? "(empty)" : "(unset)");
		char help[8192];

		option_help(o, help, sizeof(help));
		printf(" | ");
		md_cell(help);
		printf(" |\n");
	}
}

/* A workload or load type's line before its table, plain or Markdown. */
static void list_type(const char *name, const char *help)
{
	printf("\n  %-10s %s\n", name, help);
}

static void md_type(const char *name, const char *help)
{
	printf("\n**%s**: ", name);
	md_cell(help);
	printf("\n");
}

/* How latlab list says it: plain, or Markdown (docs/reference.md). */
struct list_style {
	void (*table)(const char *section, const struct opt *table);
	void (*type)(const char *name, const char *help);
	const char *head, *workloads, *loads, *kernels;
	int none;	/* the load type none has a line of its own */
};

static const struct list_style list_plain = {
	list_table, list_type,
	"Axes and options (config sections; --set SECTION.KEY=VALUE):\n\n",
	"\nWorkloads ([workload.NAME] type = ..., or the name itself in the workload axis):\n",
	"\nLoads ([load.NAME] type = ..., or none in the load axis; each instance is a latload process):\n",
	"\nKernel variants built in: running (any kernel), stock (!preempt:rt), rt (preempt:rt)\n",
	1,
};

static const struct list_style list_md = {
	md_table, md_type,
	"\n## Config keys\n\nEach key is `[SECTION] KEY = VALUE` in a config, or `--set SECTION.KEY=VALUE`.\n",
	"\n## Workload types\n\n`[workload.NAME] type = TYPE`, or the type itself in the workload axis.\n",
	"\n## Load types\n\n`[load.NAME] type = TYPE`, or `none` in the load axis; each instance is a latload process.\n",
	"\n## Kernel variants built in\n\n`running` (any kernel), `stock` (`!preempt:rt`), `rt` (`preempt:rt`).\n",
	0,
};

/* One type's line and its options' table ("workload type timer"). */
static void list_one(const struct list_style *st, const char *kind, const char *name,
		     const char *help, const struct opt *options)
{
	char sec[64];

	st->type(name, help);
	snprintf(sec, sizeof(sec), "%s type %s", kind, name);
	if (options && options->key)
		st->table(sec, options);
}

/* Every section's keys, the workload and load types with theirs, in style st. */
static void list_all(const struct list_style *st)
{
	fputs(st->head, stdout);
	for (const struct config_section *sec = config_sections; sec->title; sec++)
		st->table(sec->title, sec->options);
	fputs(st->workloads, stdout);
	for (int i = 0; workload_registry[i]; i++)
		list_one(st, "workload", workload_registry[i]->name, workload_registry[i]->help,
			 workload_registry[i]->options);
	fputs(st->loads, stdout);
	if (st->none)
		st->type("none", "no load: the machine as it is");
	for (int i = 0; load_registry[i]; i++)
		list_one(st, "load", load_registry[i]->name, load_registry[i]->help,
			 load_registry[i]->options);
	fputs(st->kernels, stdout);
}

/*
 * What latlab list prints, as Markdown, after the commands: docs/reference.md
 * is this output (make reference writes it; a test holds them equal).
 */
static void list_markdown(void)
{
	printf("## Commands\n\n| command | what it does |\n|---|---|\n");
	for (const struct cli_command *c = cli_commands(); c->name; c++) {
		printf("| `latlab ");
		md_cell(c->usage);
		printf("` | ");
		md_cell(c->help);
		printf(" |\n");
	}
	list_all(&list_md);
}

int cmd_list(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--markdown") == 0) {
		list_markdown();
		return EXIT_PASS;
	}
	if (argc > 1)
		return cli_bad_usage("list");
	list_all(&list_plain);
	return EXIT_PASS;
}

