#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "files.h"
#include "rtrights.h"

#define CAP_IPC_LOCK_BIT 14
#define CAP_SYS_NICE_BIT 23

/* root + rel into out. */
static void under(const char *root, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s%s", root, rel);
}

/* Is word one of the comma list's words? */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		size_t w = strcspn(p, ",");

		if (w == n && strncmp(p, word, n) == 0)
			return 1;
		p += w + (p[w] == ',');
	}
	return 0;
}

/*
 * Is / the whole of a filesystem of its own (mount root "/", not an
 * overlay)? 1, 0, or -1 when mountinfo does not say. A container's root
 * is an overlay or a folder of the host's filesystem; a machine made
 * from a container's image keeps its /.dockerenv on a disk of its own.
 */
static int root_whole_fs(const char *root)
{
	char path[PATH_MAX], line[4096];
	int whole = -1;
	FILE *fp;

	under(root, "/proc/self/mountinfo", path, sizeof(path));
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		char mroot[PATH_MAX], point[PATH_MAX], type[64];
		const char *dash = strstr(line, " - ");

		if (dash && sscanf(line, "%*s %*s %*s %4095s %4095s", mroot, point) == 2 &&
		    strcmp(point, "/") == 0 && sscanf(dash + 3, "%63s", type) == 1)
			whole = strcmp(mroot, "/") == 0 && strstr(type, "overlay") == NULL &&
				strcmp(type, "aufs") != 0;	/* the last mount on / wins */
	}
	fclose(fp);
	return whole;
}

int rt_container(const char *root, char *name, size_t len)
{
	static const struct {
		const char *in_path, *name;
	} paths[] = {
		{ "kubepods", "a Kubernetes pod" }, { "libpod", "podman" },
		{ "docker", "docker" }, { "crio", "CRI-O" }, { "containerd", "containerd" },
		{ "systemd-nspawn", "systemd-nspawn" }, { "lxc", "lxc" },
	};
	char path[PATH_MAX], line[4096];
	FILE *fp;

	under(root, "/run/.containerenv", path, sizeof(path));
	if (access(path, F_OK) == 0)
		return snprintf(name, len, "podman (/run/.containerenv)"), 0;
	under(root, "/.dockerenv", path, sizeof(path));
	if (access(path, F_OK) == 0 && root_whole_fs(root) != 1)
		return snprintf(name, len, "docker (/.dockerenv)"), 0;
	/* pid 1's environment: container=podman, docker, lxc, systemd-nspawn */
	under(root, "/proc/1/environ", path, sizeof(path));
	if ((fp = fopen(path, "re")) != NULL) {
		size_t n = fread(line, 1, sizeof(line) - 1, fp);

		fclose(fp);
		line[n] = '\0';
		for (size_t i = 0; i < n; i += strlen(line + i) + 1)
			if (strncmp(line + i, "container=", 10) == 0 && line[i + 10])
				return snprintf(name, len, "%.40s (pid 1's container=)", line + i + 10), 0;
	}
	under(root, "/proc/self/cgroup", path, sizeof(path));
	if ((fp = fopen(path, "re")) == NULL)
		return -ENOENT;
	while (fgets(line, sizeof(line), fp))
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			if (strstr(line, paths[i].in_path)) {
				fclose(fp);
				return snprintf(name, len, "%s (its cgroup's path)", paths[i].name), 0;
			}
	fclose(fp);
	return -ENOENT;
}

/* CapEff holds capability bit (1), not (0), or -1 unknown. */
static int has_cap(const char *root, int bit)
{
	char path[PATH_MAX], line[256];
	unsigned long long eff;
	int rc = -1;
	FILE *fp;

	under(root, "/proc/self/status", path, sizeof(path));
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			rc = (int)((eff >> bit) & 1);
	fclose(fp);
	return rc;
}

/*
 * This process's cgroup of the hierarchy that has the cpu controller
 * (v1's cpu, or v2's unified one): its folder under root into dir, the
 * mount's folder into top, and whether that mount shows the hierarchy's
 * root (*whole 1) or only a cgroup of it (0: a container's, its own
 * cgroup at the mount's top); its path in the hierarchy (/proc/self/cgroup's,
 * as the host names it) into name. 0, or -ENOENT.
 */
static int cpu_cgroup(const char *root, char *dir, size_t dlen, char *top, size_t tlen,
		      int *whole, char *name, size_t nlen)
{
	char path[PATH_MAX], line[4096], cg[PATH_MAX] = "", v2[PATH_MAX] = "";
	FILE *fp;

	under(root, "/proc/self/cgroup", path, sizeof(path));
	if ((fp = fopen(path, "re")) == NULL)
		return -ENOENT;
	while (fgets(line, sizeof(line), fp)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (has_word(c1 + 1, "cpu"))
			snprintf(cg, sizeof(cg), "%s", c2 + 1);
		else if (!c1[1] && strncmp(line, "0:", 2) == 0)
			snprintf(v2, sizeof(v2), "%s", c2 + 1);
	}
	fclose(fp);
	int want_v2 = !cg[0];

	if (want_v2 && !v2[0])
		return -ENOENT;
	under(root, "/proc/self/mountinfo", path, sizeof(path));
	if ((fp = fopen(path, "re")) == NULL)
		return -ENOENT;
	int rc = -ENOENT;

	while (rc && fgets(line, sizeof(line), fp)) {
		char mroot[PATH_MAX], point[PATH_MAX], type[64], super[1024];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", mroot, point) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2)
			continue;
		if (want_v2 ? strcmp(type, "cgroup2") != 0
			    : strcmp(type, "cgroup") != 0 || !has_word(super, "cpu"))
			continue;
		const char *rel = want_v2 ? v2 : cg;
		size_t n = strlen(mroot);

		snprintf(name, nlen, "%s", rel);
		/* the path as the mount shows it: below the mount's own root */
		*whole = strcmp(mroot, "/") == 0;
		if (!*whole && strncmp(rel, mroot, n) == 0)
			rel += n;
		snprintf(top, tlen, "%s%s", root, point);
		snprintf(dir, dlen, "%s%s%s", root, point, strcmp(rel, "/") == 0 ? "" : rel);
		rc = 0;
	}
	fclose(fp);
	return rc;
}

/*
 * From the mount down to dir, the first cgroup whose cpu.rt_runtime_us
 * is 0, into at (its folder): 1 found, 0 none (or no such file: a kernel
 * without RT_GROUP_SCHED). The mount's own folder is looked at only
 * where it is not the hierarchy's root (whole 0: a container's own
 * cgroup); the root's budget is the machine's.
 */
static int zero_budget(const char *top, const char *dir, int whole, char *at, size_t len)
{
	char cur[PATH_MAX], file[PATH_MAX + 32], v[64];
	size_t n = strlen(top);

	snprintf(cur, sizeof(cur), "%s", dir);
	for (const char *p = dir + n; ; p++) {
		if (*p == '/' || *p == '\0') {
			snprintf(cur, sizeof(cur), "%.*s", (int)(p - dir), dir);
			if (strlen(cur) > n || !whole) {
				snprintf(file, sizeof(file), "%s/cpu.rt_runtime_us", cur);
				if (file_first_line(file, v, sizeof(v)) == 0 && strcmp(v, "0") == 0) {
					snprintf(at, len, "%s", cur);
					return 1;
				}
			}
		}
		if (!*p)
			return 0;
	}
}

/* Does the runtime's name (rt_container's, with its evidence) begin with word? */
static int is(const char *name, const char *word)
{
	size_t n = strlen(word);

	return strncmp(name, word, n) == 0 && (name[n] == ' ' || !name[n]);
}

/* The fix for a container runtime's child cgroup, or "". */
static const char *container_fix(const char *name)
{
	if (is(name, "podman"))
		return ": podman run --cpu-rt-runtime=950000 --cap-add=SYS_NICE,IPC_LOCK gives the container a budget (its parents' first)";
	if (is(name, "docker"))
		return ": docker run --cpu-rt-runtime=950000 --cap-add=SYS_NICE --ulimit rtprio=99, with dockerd --cpu-rt-runtime giving the parent its budget";
	if (is(name, "a Kubernetes pod"))
		return ": a kernel with RT_GROUP_SCHED gives a pod's cgroup no real-time budget and the kubelet sets none (a node kernel without it, or a runtime that sets cpu.rt_runtime_us)";
	return "";
}

int rt_rights_why(const char *root, int prio, long long rtprio_limit, char *why, size_t len)
{
	char dir[PATH_MAX], top[PATH_MAX], at[PATH_MAX], cg[PATH_MAX], ct[64] = "";
	int nice = has_cap(root, CAP_SYS_NICE_BIT), n, whole = 1;
	int in_ct = rt_container(root, ct, sizeof(ct)) == 0;

	if (nice == 0 && rtprio_limit < prio) {
		n = snprintf(why, len, "this process has no CAP_SYS_NICE and its RLIMIT_RTPRIO is %lld (ulimit -r), below priority %d: run as root, or ulimit -r %d (rtprio %d in /etc/security/limits.conf), or give latlab CAP_SYS_NICE and CAP_IPC_LOCK (setcap cap_sys_nice,cap_ipc_lock+ep)",
			     rtprio_limit, prio, prio, prio);
		if (in_ct && n > 0 && (size_t)n < len)
			snprintf(why + n, len - (size_t)n, "; it runs in %s%s", ct,
				 is(ct, "podman") || is(ct, "docker") ?
				 " (--cap-add=SYS_NICE,IPC_LOCK)" : "");
		return 1;
	}
	int found = cpu_cgroup(root, dir, sizeof(dir), top, sizeof(top), &whole, cg, sizeof(cg)) == 0 &&
		    zero_budget(top, dir, whole, at, sizeof(at));

	if (found && !whole && strcmp(at, top) == 0) {
		/* only the container's own cgroup is seen: its parents are the host's */
		const char *slash = strrchr(cg, '/');
		int plen = slash && slash != cg ? (int)(slash - cg) : 1;

		n = snprintf(why, len, "its cgroup has no real-time budget: %s/cpu.rt_runtime_us is 0 — the container's own cgroup, %s on the host (this kernel has CONFIG_RT_GROUP_SCHED: a child cgroup gets no real-time time unless given some, and SCHED_FIFO is refused even to root); it is given one from the host, its parent %.*s first (a parent's budget must hold its children's)",
			     at + strlen(root), cg, plen, cg);
		if (in_ct && n > 0 && (size_t)n < len)
			snprintf(why + n, len - (size_t)n, "; it runs in %s%s", ct, container_fix(ct));
		return 1;
	}
	if (found) {
		n = snprintf(why, len, "its cgroup has no real-time budget: %s/cpu.rt_runtime_us is 0 (this kernel has CONFIG_RT_GROUP_SCHED: a child cgroup gets no real-time time unless given some, and SCHED_FIFO is refused even to root); give it one, each cgroup from %s down to %s (echo 950000 > cpu.rt_runtime_us in each: a parent's must hold its children's), or run latlab from the root cpu cgroup",
			     at + strlen(root), top + strlen(root), dir + strlen(root));
		if (in_ct && n > 0 && (size_t)n < len)
			snprintf(why + n, len - (size_t)n, "; it runs in %s%s", ct, container_fix(ct));
		return 1;
	}
	n = snprintf(why, len, "run as root, or give this user real-time rights (ulimit -r %d; rtprio in /etc/security/limits.conf; or CAP_SYS_NICE)",
		     prio);
	if (in_ct && n > 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, "; it runs in %s%s", ct, container_fix(ct));
	return 0;
}

int rt_rights_here(int prio, char *why, size_t len)
{
	struct rlimit rl = { 0 };

	getrlimit(RLIMIT_RTPRIO, &rl);
	return rt_rights_why("", prio, rl.rlim_cur == RLIM_INFINITY ? 99 : (long long)rl.rlim_cur,
			     why, len);
}

void rt_facts_read(const char *root, struct rt_facts *f)
{
	char dir[PATH_MAX], top[PATH_MAX], file[PATH_MAX + 32];
	int whole = 1;

	memset(f, 0, sizeof(*f));
	if (rt_container(root, f->container, sizeof(f->container)) != 0)
		snprintf(f->container, sizeof(f->container), "none");
	f->sys_nice = has_cap(root, CAP_SYS_NICE_BIT);
	f->ipc_lock = has_cap(root, CAP_IPC_LOCK_BIT);
	if (cpu_cgroup(root, dir, sizeof(dir), top, sizeof(top), &whole, f->cgroup,
		       sizeof(f->cgroup)) != 0) {
		snprintf(f->cgroup, sizeof(f->cgroup), "unknown");
		snprintf(f->rt_runtime_us, sizeof(f->rt_runtime_us), "unknown");
		return;
	}
	snprintf(file, sizeof(file), "%s/cpu.rt_runtime_us", dir);
	if (file_first_line(file, f->rt_runtime_us, sizeof(f->rt_runtime_us)) != 0)
		snprintf(f->rt_runtime_us, sizeof(f->rt_runtime_us), "none (no RT_GROUP_SCHED)");
	/* a container is never in the machine's root cgroup: "/" is its cgroup
	 * namespace's root (cgroup v2's default), whose name on the host is not
	 * seen from inside */
	if (strcmp(f->container, "none") != 0 && strcmp(f->cgroup, "/") == 0)
		snprintf(f->cgroup, sizeof(f->cgroup),
			 "/ (the root of the container's own cgroup namespace: the host names it otherwise)");
}
