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
 * <body data-figures="N" data-figures-loaded="M" data-width="W"> once
 * the images have loaded, W the page's scroll width in pixels (the test
 * suite reads them in a headless browser).
 */
void html_foot(FILE *fp);

/* CSS class of a cell status (ok, fail, error, ...). */
const char *html_status_class(const char *status);

/* The banner of a page whose figures come from an emulated CPU. */
/* What an emulated measurement means (kinds: EMU_TCG | EMU_ICOUNT, tree.h). */
void html_emulated_banner(FILE *fp, int kinds);

/*
 * The path of `to` relative to the directory from_dir, both as they
 * stand on disk (symbolic links resolved): how a page in from_dir links
 * to a file of another tree ("." for from_dir itself, ".." for its parent,
 * no slash at the end). 0, or -errno when either is not there.
 */
int html_rel_path(const char *from_dir, const char *to, char *buf, size_t len);

struct tree;

/*
 * The cells of t whose files could not be trusted, each with why: a
 * warning section, nothing when there are none.
 */
void html_damaged(FILE *fp, const struct tree *t);

/* The tree's cells that measured nothing (rows_unmeasured_text), said once; nothing when none. */
void html_unmeasured(FILE *fp, const struct tree *t);

#endif
