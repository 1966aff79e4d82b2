/* The HTML of report and compare pages: escaping, head, foot. */
#ifndef LATLAB_HTML_H
#define LATLAB_HTML_H

#include <stdio.h>

#include "escape.h"

/*
 * Doctype, head with the inline style (nothing from the network), and the
 * page title (escaped).
 */
void html_head(FILE *fp, const char *title);

/*
 * The end of the page, with a small inline check that marks
 * <body data-figures="N" data-figures-loaded="M"> once the images have
 * loaded (the test suite reads it in a headless browser).
 */
void html_foot(FILE *fp);

/* CSS class of a cell status (ok, fail, error, ...). */
const char *html_status_class(const char *status);

/* The banner of a page whose figures come from an emulated CPU. */
/* What an emulated measurement means (kinds: EMU_TCG | EMU_ICOUNT, tree.h). */
void html_emulated_banner(FILE *fp, int kinds);

struct tree;

/*
 * The cells of t whose files could not be trusted, each with why: a
 * warning section, nothing when there are none.
 */
void html_damaged(FILE *fp, const struct tree *t);

#endif
