#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <zlib.h>

#include "files.h"
#include "kernel.h"

#define DEBUGFS "/sys/kernel/debug"
#define UNKNOWN_US INT64_MIN

/* root + path: the machine's file, or a captured one under root */
static const char *at(const char *root, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", root, path);
	return buf;
}

/* A file's first line as a number: 0, or -errno (-EINVAL: not a number). */
static int read_number(const char *path, int64_t *v)
{
	char line[64], *end;
	int rc = file_first_line(path, line, sizeof(line));

	if (rc)
		return rc;
	errno = 0;
	*v = strtoll(line, &end, 10);
	return !line[0] || errno || (*end && *end != ' ' && *end != '\r') ? -EINVAL : 0;
}

static int64_t first_number(const char *path)
{
	int64_t v;

	return read_number(path, &v) == 0 ? v : UNKNOWN_US;
}

/* "none voluntary (full) lazy" -> "full" */
static int paren_word(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '('), *b = a ? strchr(a, ')') : NULL;

	if (!a || !b || b == a + 1)
		return -ENOENT;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

/* The word after "key=" on a command line, or "". */
static void cmdline_word(const char *cmdline, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *p = cmdline; (p = strstr(p, key)) != NULL; p++)
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=')
			snprintf(out, len, "%.*s", (int)strcspn(p + klen + 1, " \r\n"), p + klen + 1);
}

/* One line of the config: the PREEMPT_* choices latlab reads. */
static void config_line(struct kernel_facts *f, const char *line)
{
	static const struct {
		const char *opt, *model;
	} choice[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" },
		{ "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT_LAZIEST=y", "laziest" },
	};

	for (size_t i = 0; i < sizeof(choice) / sizeof(choice[0]); i++)
		if (strncmp(line, choice[i].opt, strlen(choice[i].opt)) == 0)
			snprintf(f->config_model, sizeof(f->config_model), "%s", choice[i].model);
	if (strncmp(line, "CONFIG_PREEMPT_RT=y", 19) == 0)
		f->config_rt = 1;
	if (strncmp(line, "CONFIG_PREEMPT_DYNAMIC=y", 24) == 0)
		f->config_dynamic = 1;
}

/*
 * The kernel's config: /boot/config-RELEASE (Debian up to trixie, most
 * distributions), /usr/lib/modules/RELEASE/config (Debian since forky),
 * or, for the running kernel, /proc/config.gz (CONFIG_IKCONFIG_PROC: many
 * boards). gzip reads a plain file as it is.
 */
static void read_config(const char *root, struct kernel_facts *f, int running)
{
	char rel[3][160], path[PATH_MAX], line[256];

	snprintf(rel[0], sizeof(rel[0]), "/boot/config-%s", f->release);
	snprintf(rel[1], sizeof(rel[1]), "/usr/lib/modules/%s/config", f->release);
	snprintf(rel[2], sizeof(rel[2]), "/proc/config.gz");
	f->config_rt = f->config_dynamic = -1;
	for (size_t i = 0; i < (running ? 3u : 2u); i++) {
		at(root, rel[i], path, sizeof(path));
		gzFile gz = f->release[0] || i == 2 ? gzopen(path, "rbe") : NULL;

		if (!gz)
			continue;
		f->config_rt = f->config_dynamic = 0;
		while (gzgets(gz, line, sizeof(line)))
			config_line(f, line);
		gzclose(gz);
		snprintf(f->config_from, sizeof(f->config_from), "%.150s", rel[i]);
		return;
	}
}

/* A server's runtime and period on each CPU, as runs of equal CPUs. */
static void read_servers(const char *dir, struct kernel_servers *s)
{
	char path[PATH_MAX];
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(dir, &st) != 0) {
		s->state = errno == ENOENT ? 0 : -1;
		snprintf(s->why, sizeof(s->why), "%s", strerror(errno));
		return;
	}
	s->state = 1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int64_t rt = 0, per = 0;
		int rc;

		snprintf(path, sizeof(path), "%s/cpu%d/runtime", dir, cpu);
		rc = read_number(path, &rt);
		snprintf(path, sizeof(path), "%s/cpu%d/period", dir, cpu);
		if (rc == 0)
			rc = read_number(path, &per);
		if (rc) {
			if (cpu == 0) {	/* there, and not readable */
				s->state = -1;
				snprintf(s->why, sizeof(s->why), "debugfs sched/%s: %s",
					 strrchr(dir, '/') + 1, strerror(-rc));
			}
			break;
		}
		struct kernel_server *last = s->n ? &s->run[s->n - 1] : NULL;

		if (last && last->last == cpu - 1 && last->runtime_ns == rt && last->period_ns == per)
			last->last = cpu;
		else if (s->n < KERNEL_SERVER_RUNS)
			s->run[s->n++] = (struct kernel_server){ cpu, cpu, rt, per };
		else
			s->more = 1;
	}
}

/* debugfs's sched/: the dynamic model and the deadline servers. */
static void read_debugfs(const char *debugfs, struct kernel_facts *f)
{
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/sched/preempt", debugfs);
	rc = file_first_line(path, f->preempt, sizeof(f->preempt));
	if (rc == -ENOENT)
		snprintf(f->debugfs_why, sizeof(f->debugfs_why), "no sched/preempt in debugfs");
	else if (rc)
		snprintf(f->debugfs_why, sizeof(f->debugfs_why), "debugfs sched/preempt: %s",
			 strerror(-rc));
	f->preempt[strcspn(f->preempt, "\r")] = '\0';
	snprintf(path, sizeof(path), "%s/sched/fair_server", debugfs);
	read_servers(path, &f->fair);
	snprintf(path, sizeof(path), "%s/sched/ext_server", debugfs);
	read_servers(path, &f->ext);
}

/*
 * A thread of its own mount namespace (unshare's CLONE_NEWNS is a
 * thread's own, with CLONE_FS): debugfs mounted there is seen by no other
 * task and goes with the thread.
 */
static void *private_debugfs(void *arg)
{
	struct kernel_facts *f = arg;

	if (unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
		snprintf(f->debugfs_why, sizeof(f->debugfs_why),
			 "debugfs not mounted, and latlab cannot mount it: %s", strerror(errno));
		for (struct kernel_servers *s = &f->fair; s; s = s == &f->fair ? &f->ext : NULL) {
			s->state = -1;
			snprintf(s->why, sizeof(s->why), "%s", f->debugfs_why);
		}
		return NULL;
	}
	read_debugfs(DEBUGFS, f);
	return NULL;
}

void kernel_facts_read(const char *root, struct kernel_facts *f)
{
	char path[PATH_MAX];
	struct stat st;
	pthread_t t;

	memset(f, 0, sizeof(*f));
	file_first_line(at(root, "/proc/sys/kernel/osrelease", path, sizeof(path)),
			f->release, sizeof(f->release));
	file_first_line(at(root, "/proc/sys/kernel/version", path, sizeof(path)),
			f->version, sizeof(f->version));
	file_first_line(at(root, "/sys/kernel/realtime", path, sizeof(path)),
			f->realtime, sizeof(f->realtime));
	if (file_first_line(at(root, "/proc/cmdline", path, sizeof(path)), f->cmdline,
			    sizeof(f->cmdline)) == 0)
		cmdline_word(f->cmdline, "preempt", f->cmdline_preempt, sizeof(f->cmdline_preempt));
	f->rt_runtime_us = first_number(at(root, "/proc/sys/kernel/sched_rt_runtime_us", path,
					   sizeof(path)));
	f->rt_period_us = first_number(at(root, "/proc/sys/kernel/sched_rt_period_us", path,
					  sizeof(path)));
	read_config(root, f, 1);
	at(root, DEBUGFS "/sched", path, sizeof(path));
	if (stat(path, &st) == 0 || root[0]) {
		read_debugfs(at(root, DEBUGFS, path, sizeof(path)), f);
		return;
	}
	if (pthread_create(&t, NULL, private_debugfs, f) == 0)
		pthread_join(t, NULL);
	else {
		snprintf(f->debugfs_why, sizeof(f->debugfs_why), "debugfs not mounted");
		f->fair.state = f->ext.state = -1;
		snprintf(f->fair.why, sizeof(f->fair.why), "debugfs not mounted");
		snprintf(f->ext.why, sizeof(f->ext.why), "debugfs not mounted");
	}
}

/* Is word a whole word of s (blank-separated)? */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; (p = strstr(p, word)) != NULL; p++)
		if ((p == s || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

static int is_mode(const char *w)
{
	return strcmp(w, "none") == 0 || strcmp(w, "voluntary") == 0 || strcmp(w, "full") == 0 ||
	       strcmp(w, "lazy") == 0 || strcmp(w, "laziest") == 0;
}

void kernel_model(const struct kernel_facts *f, struct kernel_info *k)
{
	char mode[32] = "";
	int rt = strcmp(f->realtime, "1") == 0 || has_word(f->version, "PREEMPT_RT") ||
		 f->config_rt == 1;

	snprintf(k->release, sizeof(k->release), "%s", f->release);
	snprintf(k->version, sizeof(k->version), "%s", f->version);
	/* uname -v says PREEMPT_DYNAMIC of a stock kernel only; an rt one's is in its config */
	k->dynamic = f->preempt[0] || has_word(f->version, "PREEMPT_DYNAMIC") ||
		     f->config_dynamic == 1;
	if (paren_word(f->preempt, mode, sizeof(mode)) == 0 && is_mode(mode))
		snprintf(k->source, sizeof(k->source), "debugfs sched/preempt");
	else if (k->dynamic && is_mode(f->cmdline_preempt)) {
		snprintf(mode, sizeof(mode), "%s", f->cmdline_preempt);
		snprintf(k->source, sizeof(k->source), "preempt= on the command line");
	} else if ((k->dynamic || !rt) && f->config_model[0]) {
		/* a dynamic kernel's default is its config's choice */
		snprintf(mode, sizeof(mode), "%s", f->config_model);
		snprintf(k->source, sizeof(k->source), "the config's choice (%.120s)", f->config_from);
	} else if (!rt && !k->dynamic && has_word(f->version, "PREEMPT_LAZY")) {
		snprintf(mode, sizeof(mode), "lazy");
		snprintf(k->source, sizeof(k->source), "uname -v");
	} else if (!rt && !k->dynamic && has_word(f->version, "PREEMPT")) {
		snprintf(mode, sizeof(mode), "full");
		snprintf(k->source, sizeof(k->source), "uname -v");
	} else {
		mode[0] = '\0';
		snprintf(k->source, sizeof(k->source), rt ? "uname -v" : "nothing readable");
	}
	if (rt && k->dynamic && mode[0])
		snprintf(k->model, sizeof(k->model), "rt+%s", mode);
	else if (rt)
		snprintf(k->model, sizeof(k->model), "rt");	/* no choice, or none known */
	else
		snprintf(k->model, sizeof(k->model), "%s", mode[0] ? mode : "unknown");
}

/* "6.18.44-fc" -> 6018: the kernel's major and minor, or 0 */
static int release_number(const char *release)
{
	int major, minor;

	return sscanf(release, "%d.%d", &major, &minor) == 2 ? major * 1000 + minor : 0;
}

/* The fair deadline server came with 6.12: 50 ms of every 1000 ms per CPU. */
#define FAIR_SERVER_SINCE 6012

int kernel_throttle_words(const struct kernel_facts *f, char *buf, size_t len)
{
	int64_t rt = f->rt_runtime_us, per = f->rt_period_us;
	const struct kernel_servers *fs = &f->fair;
	int throttling = rt != UNKNOWN_US && per != UNKNOWN_US && rt >= 0 && rt < per;
	int server = fs->state == 1 && fs->n > 0 && fs->run[0].runtime_ns > 0;
	/* there, not readable: the kernel's own default, said as such */
	int unread = fs->state == -1 && release_number(f->release) >= FAIR_SERVER_SINCE;
	double run_ms = server ? fs->run[0].runtime_ns / 1e6 : 50;
	double per_ms = server ? fs->run[0].period_ns / 1e6 : 1000;
	char rt_text[96], fs_text[320];

	if (rt == UNKNOWN_US || per == UNKNOWN_US)
		snprintf(rt_text, sizeof(rt_text), "RT throttling unknown (no sched_rt_runtime_us)");
	else if (throttling)
		snprintf(rt_text, sizeof(rt_text), "RT throttling is on (%lld of every %lld us)",
			 (long long)rt, (long long)per);
	else
		snprintf(rt_text, sizeof(rt_text), "RT throttling is off (runtime %s)",
			 rt < 0 ? "-1" : "= period");
	if (server)
		snprintf(fs_text, sizeof(fs_text), "the fair deadline server is on (%.4g ms of every "
			 "%.4g ms per CPU%s)", run_ms, per_ms,
			 fs->n > 1 || fs->more ? " on CPU 0; other CPUs differ" : "");
	else if (unread)
		snprintf(fs_text, sizeof(fs_text), "this kernel has the fair deadline server, whose "
			 "settings could not be read (%s; by default 50 ms of every 1000 ms per CPU)",
			 fs->why[0] ? fs->why : "debugfs");
	else if (fs->state == 1)
		snprintf(fs_text, sizeof(fs_text), "the fair deadline server is off (runtime 0)");
	else
		snprintf(fs_text, sizeof(fs_text), "no fair deadline server");

	size_t n = (size_t)snprintf(buf, len, "%s; %s: ", rt_text, fs_text);

	if (n >= len)
		return throttling || server || unread;
	if (throttling && (server || unread))
		snprintf(buf + n, len - n, "a real-time thread that keeps a CPU busy while SCHED_OTHER "
			 "tasks wait there is stopped for them after about %lld us of a period",
			 (long long)rt);
	else if (throttling)
		snprintf(buf + n, len - n, "real-time threads that keep a CPU busy longer than that "
			 "in a period are stopped for the rest of it");
	else if (server || unread)
		snprintf(buf + n, len - n, "a real-time thread that keeps a CPU busy while SCHED_OTHER "
			 "tasks wait there gives way to them for %.4g ms once they have waited about "
			 "%.4g ms", run_ms, per_ms - run_ms);
	else
		snprintf(buf + n, len - n, "nothing stops a real-time thread that never sleeps; it "
			 "keeps its CPU from SCHED_OTHER tasks for good");
	return throttling || server || unread;
}

void kernel_servers_text(const struct kernel_servers *s, char *buf, size_t len)
{
	size_t u = 0;

	if (s->state == 0) {
		snprintf(buf, len, "none");
		return;
	}
	if (s->state < 0 || s->n == 0) {
		snprintf(buf, len, "unknown (%s)", s->why[0] ? s->why : "not readable");
		return;
	}
	buf[0] = '\0';
	for (int i = 0; i < s->n && u < len; i++) {
		const struct kernel_server *r = &s->run[i];
		char cpus[32];

		if (r->first == r->last)
			snprintf(cpus, sizeof(cpus), "%d", r->first);
		else
			snprintf(cpus, sizeof(cpus), "%d-%d", r->first, r->last);
		u += (size_t)snprintf(buf + u, len - u, "%s%s: runtime %lld ns, period %lld ns",
				      i ? "; " : "", cpus, (long long)r->runtime_ns,
				      (long long)r->period_ns);
	}
	if (s->more && u < len)
		snprintf(buf + u, len - u, "; more CPUs differ");
}

void kernel_info_of(const struct kernel_facts *f, struct kernel_info *k)
{
	memset(k, 0, sizeof(*k));
	/*
	 * Testing aid (docs/campaigns.md): stand in for the running kernel's
	 * identity, so the multi-kernel path runs without a second kernel.
	 */
	const char *fake_rel = getenv("LATLAB_FAKE_KERNEL_RELEASE");
	const char *fake_model = getenv("LATLAB_FAKE_KERNEL_PREEMPT");
	const char *fake_cmdline = getenv("LATLAB_FAKE_KERNEL_CMDLINE");

	snprintf(k->cmdline, sizeof(k->cmdline), "%s", f->cmdline);
	if (fake_rel && *fake_rel) {
		if (fake_cmdline)
			snprintf(k->cmdline, sizeof(k->cmdline), "%s", fake_cmdline);
		snprintf(k->release, sizeof(k->release), "%s", fake_rel);
		snprintf(k->version, sizeof(k->version), "(LATLAB_FAKE_KERNEL_RELEASE)");
		snprintf(k->model, sizeof(k->model), "%s",
			 fake_model && *fake_model ? fake_model : "unknown");
		snprintf(k->source, sizeof(k->source), "LATLAB_FAKE_KERNEL_PREEMPT");
		return;
	}
	kernel_model(f, k);
}

int kernel_info_installed(const char *root, const char *release, const char *cmdline,
			  struct kernel_info *k)
{
	struct kernel_facts f;

	memset(&f, 0, sizeof(f));
	snprintf(f.release, sizeof(f.release), "%s", release);
	snprintf(f.cmdline, sizeof(f.cmdline), "%s", cmdline);
	cmdline_word(f.cmdline, "preempt", f.cmdline_preempt, sizeof(f.cmdline_preempt));
	read_config(root, &f, 0);
	memset(k, 0, sizeof(*k));
	kernel_model(&f, k);
	snprintf(k->cmdline, sizeof(k->cmdline), "%s", f.cmdline);
	return f.config_from[0] ? 0 : -ENOENT;
}

void kernel_info_read(struct kernel_info *k)
{
	struct kernel_facts f;

	kernel_facts_read("", &f);
	kernel_info_of(&f, k);
}
