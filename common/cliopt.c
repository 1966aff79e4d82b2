#include <getopt.h>
#include <string.h>

#include "cliopt.h"
#include "log.h"
#include "options.h"

/* One option of any of the three kinds a table has, with the struct it fills. */
struct any {
	const char *name;
	char letter;
	int has_arg;
	const struct cli_opt *opt;	/* one of these three */
	const struct opt *row;
	const struct cli_flag *flag;
	void *dst;
};

/* getopt's value for option i: its letter, or 256 + i */
static int id_of(const struct any *a, int i)
{
	return a->letter ? a->letter : 256 + i;
}

/* One option's value into its struct. 0, or CLI_BAD (said). */
static int take(const struct any *a, const struct cli_table *t, const char *arg)
{
	char err[512];
	int rc;

	if (a->row || a->flag) {
		const struct opt *row = a->row ? a->row : opt_find(t->rows, a->flag->key);

		rc = row ? opt_parse(row, a->dst, a->row ? arg : a->flag->value, err, sizeof(err))
			 : (snprintf(err, sizeof(err), "--%s: no option %s", a->name, a->flag->key), -1);
		if (rc)
			log_error("%s", err);
		return rc ? CLI_BAD : 0;
	}
	void *field = (char *)a->dst + a->opt->offset;

	switch (a->opt->type) {
	case CLI_FLAG:
		*(int *)field = 1;
		return 0;
	case CLI_TEXT:
		*(const char **)field = arg;
		return 0;
	case CLI_CALL:
		return a->opt->parse(arg, field) != 0 ? CLI_BAD : 0;
	}
	return CLI_BAD;
}

/* Every option of the tables, in order, at most CLI_OPTS_MAX. How many; owner[] its table. */
static int gather(const struct cli_table *t, int ntables, struct any *all, int *owner)
{
	int n = 0;

	for (int k = 0; k < ntables; k++) {
		for (const struct cli_opt *o = t[k].opts; o && o->name && n < CLI_OPTS_MAX; o++, n++) {
			all[n] = (struct any){ o->name, o->letter, o->arg != NULL, o, NULL, NULL, t[k].dst };
			owner[n] = k;
		}
		for (const struct opt *r = t[k].rows; r && r->key && n < CLI_OPTS_MAX; r++, n++) {
			all[n] = (struct any){ r->key, r->short_opt, 1, NULL, r, NULL, t[k].dst };
			owner[n] = k;
		}
		for (const struct cli_flag *f = t[k].flags; f && f->letter && n < CLI_OPTS_MAX; f++, n++) {
			all[n] = (struct any){ f->name, f->letter, 0, NULL, NULL, f, t[k].dst };
			owner[n] = k;
		}
	}
	return n;
}

enum cli_parsed cli_opts_parse(const struct cli_table *t, int ntables, enum cli_order order,
			       int argc, char **argv, int *first)
{
	struct option longopts[CLI_OPTS_MAX + 2];
	struct any all[CLI_OPTS_MAX];
	int owner[CLI_OPTS_MAX];
	/* '+': the first operand ends the options; without it getopt permutes */
	char shortopts[2 * CLI_OPTS_MAX + 4];
	size_t s = 0;
	int n = gather(t, ntables, all, owner), opt, index;

	if (order == CLI_OPTIONS_FIRST)
		shortopts[s++] = '+';
	shortopts[s++] = 'h';
	for (int i = 0; i < n; i++) {
		longopts[i] = (struct option){ all[i].name, all[i].has_arg ? required_argument : no_argument,
					       NULL, id_of(&all[i], i) };
		if (all[i].letter) {
			shortopts[s++] = all[i].letter;
			if (all[i].has_arg)
				shortopts[s++] = ':';
		}
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[s] = '\0';
	/*
	 * 0, not 1: getopt starts over entirely (glibc's and musl's), the
	 * order of an earlier parse in the process forgotten
	 */
	optind = 0;
	opterr = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, &index)) != -1) {
		int i = 0;

		if (opt == 'h')
			return CLI_HELP;
		while (i < n && opt != id_of(&all[i], i))
			i++;
		if (i == n)
			return CLI_UNKNOWN;
		if (take(&all[i], &t[owner[i]], optarg) != 0)
			return CLI_BAD;
	}
	*first = optind;
	return CLI_PARSED;
}

void cli_opts_help(const struct cli_opt *opts, FILE *fp)
{
	for (const struct cli_opt *o = opts; o && o->name; o++) {
		char left[64];

		if (!o->help)
			continue;
		snprintf(left, sizeof(left), "%c%c%s--%s%s%s", o->letter ? '-' : ' ',
			 o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(fp, "  %-22s %s\n", left, o->help);
	}
}
