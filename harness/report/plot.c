#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpulist.h"
#include "files.h"
#include "log.h"
#include "plot.h"

static int has_scripts(const char *dir)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/common.gp", dir);
	return access(path, R_OK) == 0;
}

int plotter_init(struct plotter *p)
{
	static const char *const rel[] = { "/../plots", "/../../plots",
					   "/../share/latlab/plots" };
	char self[PATH_MAX];
	const char *env = getenv("LATLAB_PLOTS");

	memset(p, 0, sizeof(*p));
	if (env && has_scripts(env)) {
		snprintf(p->dir, sizeof(p->dir), "%s", env);
		return 0;
	}
	if (self_dir(self, sizeof(self)) != 0)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char dir[PATH_MAX + 32];

		snprintf(dir, sizeof(dir), "%s%s", self, rel[i]);
		if (has_scripts(dir) && realpath(dir, p->dir))
			return 0;
	}
	return -ENOENT;
}

int plot_var(char *vars, size_t len, const char *name, const char *value)
{
	size_t used = strlen(vars), start = used;
	int n = snprintf(vars + used, len - used, "%s='", name);

	if (n < 0 || (size_t)n >= len - used)
		goto too_long;
	used += (size_t)n;
	/* in gnuplot's single quotes, '' is one quote; nothing else is special */
	for (const char *c = value; *c; c++) {
		if (used + 2 + 4 > len)
			goto too_long;
		if (*c == '\'')
			vars[used++] = '\'';
		vars[used++] = *c;
	}
	snprintf(vars + used, len - used, "'; ");
	return 0;
too_long:
	vars[start] = '\0';
	return -E2BIG;
}

void plot_quoted(FILE *fp, const char *value)
{
	fputc('\'', fp);
	for (const char *c = value; *c; c++) {
		if (*c == '\'')
			fputc('\'', fp);
		fputc(*c, fp);
	}
	fputc('\'', fp);
}

/* FNV-1a: a name's colour does not depend on the page it is on */
static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void plot_colors(const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++) {
		int want = (int)(name_hash(names[i]) % PLOT_COLORS);

		out[i] = 0;
		for (int j = 0; j < i && !out[i]; j++)
			if (strcmp(names[j], names[i]) == 0)
				out[i] = out[j];
		/* the next colour no other name of the page has, from its own on */
		for (int k = 0; k < PLOT_COLORS && !out[i]; k++) {
			int color = (want + k) % PLOT_COLORS + 1, taken = 0;

			for (int j = 0; j < i; j++)
				taken |= out[j] == color;
			if (!taken)
				out[i] = color;
		}
		if (!out[i])	/* every colour taken: they repeat */
			out[i] = want + 1;
	}
}

int plot_write_list(const char *file, const struct plot_curve *curve, int n)
{
	FILE *fp = fopen(file, "we");
	int rc = 0, own = 0;

	if (!fp)
		return -errno;
	for (int i = 0; i < n; i++)
		own |= curve[i].metric != NULL;
	fprintf(fp, "n = %d\narray paths[%d]\narray names[%d]\narray colors[%d]\narray dashes[%d]\n",
		n, n, n, n, n);
	if (own)
		fprintf(fp, "array metrics[%d]\n", n);
	for (int i = 0; i < n; i++) {
		fprintf(fp, "paths[%d] = ", i + 1);
		plot_quoted(fp, curve[i].path);
		fprintf(fp, "\nnames[%d] = ", i + 1);
		plot_quoted(fp, curve[i].name);
		fprintf(fp, "\ncolors[%d] = %d\ndashes[%d] = %d", i + 1,
			curve[i].color > 0 ? curve[i].color : (i % PLOT_COLORS) + 1, i + 1,
			curve[i].dash > 0 ? curve[i].dash : 1);
		if (own) {
			fprintf(fp, "\nmetrics[%d] = ", i + 1);
			plot_quoted(fp, curve[i].metric ? curve[i].metric : "wakeup");
		}
		fputc('\n', fp);
	}
	if (ferror(fp))
		rc = -EIO;
	if (fclose(fp) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* One queued figure: its script and variables, rendered in its formats. */
struct plot_job {
	char *script;		/* file name in p->dir */
	char *outbase;
	char *vars;
	int png;		/* also OUTBASE.png */
};

int plot_render(struct plotter *p, const char *script, const char *outbase, int png,
		const char *vars, char *err, size_t errlen)
{
	struct plot_job *q;

	if (strchr(vars, '\n') || strchr(outbase, '\n') || strchr(outbase, '\'')) {
		snprintf(err, errlen, "%.200s: a newline or quote in a figure's name or variables",
			 outbase);
		return -EINVAL;
	}
	if (p->nqueue == p->capqueue) {
		int cap = p->capqueue ? 2 * p->capqueue : 64;

		q = realloc(p->queue, (size_t)cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		p->queue = q;
		p->capqueue = cap;
	}
	q = &p->queue[p->nqueue];
	q->script = strdup(script);
	q->outbase = strdup(outbase);
	q->vars = strdup(vars);
	q->png = png;
	if (!q->script || !q->outbase || !q->vars) {
		free(q->script);
		free(q->outbase);
		free(q->vars);
		return -ENOMEM;
	}
	p->nqueue++;
	return 0;
}

int plot_temp(struct plotter *p, const char *path)
{
	char **t = realloc(p->temp, (size_t)(p->ntemp + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	p->temp = t;
	if (!(t[p->ntemp] = strdup(path)))
		return -ENOMEM;
	p->ntemp++;
	return 0;
}

/* A long-lived gnuplot: commands on `in`, its messages (and our markers) on `err`. */
struct gnuplot {
	pid_t pid;
	int in, err;
	int job;		/* the figure it draws, -1 idle */
	char buf[8192];		/* the current figure's messages */
	size_t got;
	int eof;
};

#define MARKER "latlab-figure-done"

/* the files of a figure: always SVG; PNG where its job asks, PDF with --pdf */
enum { FMT_SVG, FMT_PNG, FMT_PDF, FMTS };
static const char *const exts[FMTS] = { "svg", "png", "pdf" };

static int drawn_in(const struct plotter *p, const struct plot_job *q, int fmt)
{
	return fmt == FMT_SVG || (fmt == FMT_PNG && q->png) || (fmt == FMT_PDF && p->pdf);
}

static int gnuplot_start(struct gnuplot *g)
{
	int in[2], err[2];

	memset(g, 0, sizeof(*g));
	g->job = -1;
	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	g->pid = fork();
	if (g->pid < 0) {
		int e = errno;

		close(in[0]);
		close(in[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (g->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(err[1], 2);
		if (null >= 0)
			dup2(null, 1);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		dprintf(2, "cannot run gnuplot: %s (install gnuplot-nox)\n" MARKER "\n",
			strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(err[1]);
	g->in = in[1];
	g->err = err[0];
	return 0;
}

static void gnuplot_stop(struct gnuplot *g)
{
	if (g->pid <= 0)
		return;
	close(g->in);
	close(g->err);
	while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
		;
	g->pid = 0;
}

/*
 * Send figure j: each of its formats from a fresh session, then the
 * marker; the file of a format it does not draw (an earlier report's)
 * is removed.
 */
static int gnuplot_send(struct plotter *p, struct gnuplot *g, int j)
{
	const struct plot_job *q = &p->queue[j];
	char path[PATH_MAX + 8];
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int rc = 0;

	if (!fp)
		return -ENOMEM;
	/* drawn once (SVG); the other formats replot it: the data is read once */
	fprintf(fp, "reset session\n%s out='%s.svg'; fmt='svg'; lib='%s/common.gp'\n"
		"load '%s/%s'\nunset output\n", q->vars, q->outbase, p->dir, p->dir,
		q->script);
	for (int f = FMT_SVG + 1; f < FMTS; f++) {
		if (drawn_in(p, q, f)) {
			fprintf(fp, "eval term_%s\nset output '%s.%s'\nreplot\nunset output\n",
				exts[f], q->outbase, exts[f]);
			continue;
		}
		snprintf(path, sizeof(path), "%s.%s", q->outbase, exts[f]);
		if (unlink(path) != 0 && errno != ENOENT)
			log_warn("%s: %s", path, strerror(errno));
	}
	fprintf(fp, "print '" MARKER "'\n");
	fclose(fp);
	for (size_t off = 0; off < len;) {
		ssize_t n = write(g->in, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = -EIO;	/* gnuplot is gone: its messages say why */
			break;
		}
		off += (size_t)n;
	}
	free(text);
	g->job = j;
	g->got = 0;
	return rc;
}

/*
 * Read what g printed; when its figure's marker came (or it died), judge
 * the figure: 1 done, 0 not yet, -EIO failed (err says why).
 */
static int gnuplot_read(struct plotter *p, struct gnuplot *g, char *err, size_t errlen)
{
	ssize_t n = read(g->err, g->buf + g->got, sizeof(g->buf) - 1 - g->got);
	char *marker;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		g->eof = 1;
	else
		g->got += (size_t)n;
	g->buf[g->got] = '\0';
	marker = strstr(g->buf, MARKER "\n");
	if (!marker && !g->eof) {
		if (g->got == sizeof(g->buf) - 1) {	/* keep the last half */
			memmove(g->buf, g->buf + g->got / 2, g->got - g->got / 2);
			g->got -= g->got / 2;
		}
		return 0;
	}
	if (marker)
		*marker = '\0';
	const struct plot_job *q = &p->queue[g->job];
	char *msg = g->buf + strspn(g->buf, " \n");
	int failed = g->eof;

	/* no gnuplot at all: nothing can be drawn, no figure is worth a page */
	if (strstr(msg, "cannot run gnuplot")) {
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(err, errlen, "%s", msg);
		g->job = -1;
		return -ENOENT;
	}

	/* an error is a message that is not a warning; gnuplot goes on after it */
	for (char *line = strstr(msg, "line "); line && !failed; line = strstr(line + 5, "line ")) {
		char *colon = strchr(line, ':');

		if (colon && colon - line < 12 && strncmp(colon + 1, " warning:", 9) != 0)
			failed = 1;
	}
	for (char *c = msg; *c; c++)	/* on one line */
		if (*c == '\n')
			*c = ' ';
	g->job = -1;
	if (failed) {
		snprintf(err, errlen, "gnuplot %s failed for %s: %s", q->script,
			 q->outbase, msg[0] ? msg : "it died");
		return -EIO;
	}
	/* a full disk: gnuplot says nothing and leaves empty files */
	for (int f = 0; f < FMTS; f++) {
		char path[PATH_MAX + 8];
		struct stat st;

		if (!drawn_in(p, q, f))
			continue;
		snprintf(path, sizeof(path), "%s.%s", q->outbase, exts[f]);
		if (stat(path, &st) != 0 || st.st_size == 0) {
			snprintf(err, errlen, "gnuplot %s wrote %s %s (is the disk full?)",
				 q->script, stat(path, &st) != 0 ? "no" : "an empty", path);
			return -EIO;
		}
	}
	if (msg[0]) {
		p->warnings++;
		snprintf(p->last_warning, sizeof(p->last_warning), "%.60s: %.400s",
			 q->script, msg);
	}
	return 1;
}

int plot_drawn(const char *outbase)
{
	char path[PATH_MAX + 8];
	struct stat st;

	snprintf(path, sizeof(path), "%s.svg", outbase);
	return stat(path, &st) == 0 && st.st_size > 0;
}

/* A figure that failed: said, its files removed (none is half there). */
/* Figure j's files, an earlier run's too: nothing links a figure not drawn now. */
static void figure_remove(const struct plotter *p, int j)
{
	char path[PATH_MAX + 8];

	for (int f = 0; f < FMTS; f++) {
		snprintf(path, sizeof(path), "%s.%s", p->queue[j].outbase, exts[f]);
		unlink(path);
	}
}

static void figure_failed(struct plotter *p, int j, const char *why)
{
	log_error("%s", why);
	figure_remove(p, j);
	p->failed++;
}

static void drop_queue(struct plotter *p)
{
	for (int i = 0; i < p->nqueue; i++) {
		free(p->queue[i].script);
		free(p->queue[i].outbase);
		free(p->queue[i].vars);
	}
	p->nqueue = 0;
}

static void drop_temp(struct plotter *p)
{
	for (int i = 0; i < p->ntemp; i++) {
		unlink(p->temp[i]);
		free(p->temp[i]);
	}
	p->ntemp = 0;
}

int plot_flush(struct plotter *p, char *err, size_t errlen)
{
	cpu_set_t online;
	struct gnuplot *g;

	cpulist_online(&online);
	int njobs = p->jobs > 0 ? p->jobs : CPU_COUNT(&online), next = 0, done = 0, rc = 0;

	if (njobs > p->nqueue)
		njobs = p->nqueue;
	g = calloc((size_t)(njobs > 0 ? njobs : 1), sizeof(*g));
	if (!g)
		rc = -ENOMEM;
	for (int i = 0; rc == 0 && i < njobs; i++)
		rc = gnuplot_start(&g[i]);
	if (rc && !err[0])
		snprintf(err, errlen, "cannot start gnuplot: %s", strerror(-rc));
	/* a figure to each idle gnuplot, until all are drawn or given up */
	while (rc == 0 && done < p->nqueue) {
		struct pollfd pfd[64];
		int n = njobs < 64 ? njobs : 64;

		for (int i = 0; i < n && next < p->nqueue; i++)
			if (g[i].job < 0 && gnuplot_send(p, &g[i], next++) != 0)
				g[i].eof = 1;	/* read says what it printed before it died */
		for (int i = 0; i < n; i++)
			pfd[i] = (struct pollfd){ .fd = g[i].job >= 0 ? g[i].err : -1,
						  .events = POLLIN };
		if (poll(pfd, (nfds_t)n, -1) < 0 && errno != EINTR) {
			rc = -errno;
			snprintf(err, errlen, "poll: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n && rc == 0; i++) {
			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) && !g[i].eof)
				continue;
			int job = g[i].job;
			char why[8192];
			int r = gnuplot_read(p, &g[i], why, sizeof(why));

			if (r == -ENOENT) {
				/* no gnuplot at all: every figure lost, said once; the
				 * pages (and compare's verdicts) go on without them */
				log_error("%s: no figure is drawn; the pages are written without them", why);
				snprintf(err, errlen, "%s", why);
				for (int j = 0; j < p->nqueue; j++)
					figure_remove(p, j);
				p->failed += p->nqueue;
				done = p->nqueue;
				break;
			}
			if (r < 0) {
				/* one figure lost, not the page: the others go on */
				figure_failed(p, job, why);
				if (!err[0])
					snprintf(err, errlen, "%s", why);
				if (g[i].eof) {	/* it died: another takes its place */
					gnuplot_stop(&g[i]);
					rc = gnuplot_start(&g[i]);
					if (rc)
						snprintf(err, errlen, "cannot start gnuplot: %s",
							 strerror(-rc));
				}
			}
			done += r != 0;
		}
	}
	for (int i = 0; g && i < njobs; i++)
		gnuplot_stop(&g[i]);
	free(g);
	drop_queue(p);
	drop_temp(p);
	return rc ? rc : p->failed ? -EIO : 0;
}

void plotter_free(struct plotter *p)
{
	drop_queue(p);
	drop_temp(p);
	free(p->queue);
	free(p->temp);
	p->queue = NULL;
	p->temp = NULL;
	p->capqueue = 0;
}
