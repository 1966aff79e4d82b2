#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "rows.h"
#include "tree.h"
#include "version.h"

void html_head(FILE *fp, const char *title)
{
	/* the release that drew it (its commit would change every page at every commit) */
	fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<meta name=\"generator\" content=\"latlab " LATLAB_VERSION "\">\n<title>", fp);
	html_text(fp, title);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#222}\n"
	      "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\n"
	      "table{border-collapse:collapse;font-size:12px;margin:.5em 0}\n"
	      "td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}\n"
	      "th{background:#f4f4f4}td.l,th.l{text-align:left}\n"
	      "tr.ok td.st{background:#c8efc8}tr.fail td.st{background:#f6b8b8}\n"
	      "tr.error td.st{background:#f8d49a}tr.skipped td.st{background:#e0e0e0}\n"
	      "tr.interrupted td.st{background:#fff0a0}tr.pending td.st{background:#f7f7f7}\n"
	      ".warn{color:#9a4a00}figure{margin:1em 0}img{max-width:100%;border:1px solid #eee}\n"
	      "figcaption{font-size:12px;color:#555}code{font-size:12px}td.l a{white-space:nowrap}\n"
	      "ul.answer{font-size:15px;padding-left:1.2em}ul.answer li{margin:.3em 0}\n"
	      "li.lower,li.higher{list-style:square}li.no-difference,li.too-few,li.equivalent{color:#444}\n"
	      "#cells.compact .more{display:none}\n"
	      "ul.answer ul{font-size:14px;padding-left:1.2em}li.pairs{list-style:disc}\n"
	      "figure.lead img{max-width:1000px}\n"
	      "</style></head>\n<body>\n", fp);
}

void html_foot(FILE *fp)
{
	fputs("<script>\n"
	      "window.addEventListener('load', function () {\n"
	      "  var imgs = document.images, ok = 0;\n"
	      "  for (var i = 0; i < imgs.length; i++)\n"
	      "    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;\n"
	      "  document.body.setAttribute('data-figures', imgs.length);\n"
	      "  document.body.setAttribute('data-figures-loaded', ok);\n"
	      "  document.body.setAttribute('data-width', document.documentElement.scrollWidth);\n"
	      "});\n</script>\n</body></html>\n", fp);
}

const char *html_status_class(const char *status)
{
	static const char *const known[] = { "ok", "fail", "error", "skipped",
					     "interrupted", "pending" };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(status, known[i]) == 0)
			return known[i];
	return "pending";
}

void html_emulated_banner(FILE *fp, int kinds)
{
	if (kinds & EMU_ICOUNT)
		fputs("<p class=\"warn\" id=\"icount\"><b>Measured in qemu on an instruction-counted clock "
		      "(clock = icount: TCG, -icount).</b> Latencies here are in instruction time "
		      "(1 instruction = 2<sup>shift</sup> ns, idle time skipped): the kernel's own code paths, "
		      "not time on any hardware. They compare kernel variants measured the same way; "
		      "caches, memory stalls, SMIs and real interrupt controllers are not in them.</p>\n", fp);
	if (kinds & EMU_TCG)
		fputs("<p class=\"warn\" id=\"emulated\"><b>Measured in qemu without KVM (TCG: the CPU is emulated).</b> "
		      "Latencies here are the emulator's pace on a host doing other work, not the kernel's or "
		      "the hardware's: no verdict, deadline count or gate is given on them "
		      "(clock = icount for a comparison of kernels).</p>\n", fp);
}

void html_unmeasured(FILE *fp, const struct tree *t)
{
	char text[1200];

	if (!rows_unmeasured_text(t, text, sizeof(text)))
		return;
	fputs("<p class=\"warn\" id=\"unmeasured\">", fp);
	html_text(fp, t->dir);
	fputs(": ", fp);
	html_text(fp, text);
	fputs(" — no row, figure or verdict here has them.</p>\n", fp);
}

void html_damaged(FILE *fp, const struct tree *t)
{
	if (!t->nbad)
		return;
	fputs("<div class=\"warn\" id=\"damaged\"><p><b>", fp);
	html_printf(fp, "%d cell%s of %s left out: their files cannot be trusted.",
		    t->nbad, t->nbad == 1 ? "" : "s", t->dir);
	fputs("</b> Nothing on this page is drawn from them.</p>\n<ul>\n", fp);
	for (int i = 0; i < t->n; i++) {
		if (!t->cell[i].bad)
			continue;
		fputs("<li class=\"damaged\">", fp);
		html_text(fp, t->cell[i].id);
		fputs(": ", fp);
		html_text(fp, t->cell[i].bad);
		fputs("</li>\n", fp);
	}
	fputs("</ul></div>\n", fp);
}

int html_rel_path(const char *from_dir, const char *to, char *buf, size_t len)
{
	char from[PATH_MAX], dest[PATH_MAX];
	size_t common = 0, i = 0, used = 0;

	if (!realpath(from_dir, from) || !realpath(to, dest))
		return -errno;
	if (strcmp(from, "/") == 0)
		from[0] = '\0';	/* the root: no component to go up from */
	/* common: where the directories both are under end */
	for (; from[i] && from[i] == dest[i]; i++)
		if (from[i] == '/')
			common = i;
	if ((!from[i] && (dest[i] == '/' || !dest[i])) || (!dest[i] && from[i] == '/'))
		common = i;
	buf[0] = '\0';
	for (size_t k = common; from[k]; k++)	/* up from from_dir to there */
		if (from[k] == '/' && used + 4 <= len) {
			memcpy(buf + used, "../", 4);
			used += 3;
		}
	const char *down = dest + common + (dest[common] == '/');

	if (used == 0 && !*down)
		snprintf(buf, len, ".");
	else if (!*down)
		buf[used - 1] = '\0';	/* "../..", no slash at the end */
	else
		snprintf(buf + used, len - used, "%s", down);
	return 0;
}
