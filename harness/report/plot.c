#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
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

/* value in gnuplot's single quotes, to fp */
static void quoted(FILE *fp, const char *value)
{
	fputc('\'', fp);
	for (const char *c = value; *c; c++) {
		if (*c == '\'')
			fputc('\'', fp);
		fputc(*c, fp);
	}
	fputc('\'', fp);
}

int plot_write_list(const char *file, const char *const *paths,
		    const char *const *names, int n)
{
	FILE *fp = fopen(file, "we");
	int rc = 0;

	if (!fp)
		return -errno;
	fprintf(fp, "n = %d\narray paths[%d]\narray names[%d]\n", n, n, n);
	for (int i = 0; i < n; i++) {
		fprintf(fp, "paths[%d] = ", i + 1);
		quoted(fp, paths[i]);
		fprintf(fp, "\nnames[%d] = ", i + 1);
		quoted(fp, names[i]);
		fputc('\n', fp);
	}
	if (ferror(fp))
		rc = -EIO;
	if (fclose(fp) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

static int run_gnuplot(struct plotter *p, const char *script,
		       const char *vars, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], msg[4096];
	int pipefd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", p->dir, script);
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pipefd[1], 2);
		if (null >= 0)
			dup2(null, 1);
		execlp("gnuplot", "gnuplot", "-e", vars, path, (char *)NULL);
		dprintf(2, "cannot run gnuplot: %s (install gnuplot-nox)\n",
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], msg + got, sizeof(msg) - 1 - got)) > 0)
		got += (size_t)n;
	msg[got] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* gnuplot's message, on one line */
		for (char *c = msg; *c; c++)
			if (*c == '\n')
				*c = ' ';
		snprintf(err, errlen, "gnuplot %s failed (%s %d): %s", script,
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 msg);
		return -EIO;
	}
	if (got > 0) {
		p->warnings++;
		snprintf(p->last_warning, sizeof(p->last_warning), "%.60s: %.400s",
			 script, msg);
	}
	return 0;
}

int plot_render(struct plotter *p, const char *script, const char *outbase,
		const char *vars, char *err, size_t errlen)
{
	static const char *const fmts[] = { "png", "svg", "pdf" };
	char all[16384], out[PATH_MAX + 16], lib[PATH_MAX + 16];

	snprintf(lib, sizeof(lib), "%s/common.gp", p->dir);
	for (int f = 0; f < (p->pdf ? 3 : 2); f++) {
		int rc;

		snprintf(all, sizeof(all), "%s", vars);
		snprintf(out, sizeof(out), "%s.%s", outbase, fmts[f]);
		if (strlen(vars) + 1 >= sizeof(all) ||
		    plot_var(all, sizeof(all), "out", out) ||
		    plot_var(all, sizeof(all), "fmt", fmts[f]) ||
		    plot_var(all, sizeof(all), "lib", lib)) {
			snprintf(err, errlen, "%.200s: gnuplot's variables are too long (the paths?)",
				 outbase);
			return -E2BIG;
		}
		rc = run_gnuplot(p, script, all, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
