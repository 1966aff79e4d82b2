#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axis.h"
#include "axis_ops.h"
#include "cpulist.h"
#include "files.h"
#include "isolate.h"
#include "place.h"

#define IRQ_DIR "/proc/irq"

/* Does `list`, its words separated by any of `seps`, hold `word`? */
static int has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || strchr(seps, p[-1])) && (p[n] == '\0' || strchr(seps, p[n])))
			return 1;
	return 0;
}

int isolation_root(char *root, size_t len, int *version, char *why, size_t wlen)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char line[1024], v2[PATH_MAX] = "";

	if (!fp)
		return snprintf(why, wlen, "/proc/self/mountinfo: %s", strerror(errno)), -ENODEV;
	while (fgets(line, sizeof(line), fp)) {
		char mnt[PATH_MAX], type[32], opts[512];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash, " - %31s %*s %511s", type, opts) != 2)
			continue;
		if (strcmp(type, "cgroup") == 0 && has_word(opts, "cpuset", ", \n")) {
			snprintf(root, len, "%s", mnt);
			*version = 1;
			fclose(fp);
			return 0;
		}
		if (strcmp(type, "cgroup2") == 0 && !v2[0]) {
			char path[PATH_MAX + 32], ctl[512];

			snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
			if (file_first_line(path, ctl, sizeof(ctl)) == 0 && has_word(ctl, "cpuset", " "))
				snprintf(v2, sizeof(v2), "%s", mnt);
		}
	}
	fclose(fp);
	if (v2[0]) {
		snprintf(root, len, "%s", v2);
		*version = 2;
		return 0;
	}
	snprintf(why, wlen, "no cpuset controller is mounted (neither a cgroup v1 cpuset hierarchy nor cgroup v2 with cpuset)");
	return -ENODEV;
}

/* The online CPUs that are not measured. */
static void housekeeping_of(const cpu_set_t *measured, cpu_set_t *hk)
{
	cpu_set_t online;

	cpulist_online(&online);
	CPU_ZERO(hk);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &online) && !CPU_ISSET(cpu, measured))
			CPU_SET(cpu, hk);
}

/*
 * Whose a latlab-PID cpuset is: a latlab that runs now (its pid alive and
 * a latlab: never to be removed under it), or a killed one's, which the
 * next run undoes. "" for another name.
 */
static const char *latlab_owner(const char *name, char *buf, size_t len)
{
	char comm[64] = "", path[64];
	long pid;
	char *end;

	if (strncmp(name, "latlab-", 7) != 0)
		return "";
	pid = strtol(name + 7, &end, 10);
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if ((*end == '\0' || *end == '-') && pid > 0 && file_first_line(path, comm, sizeof(comm)) == 0 &&
	    strcmp(comm, "latlab") == 0)
		snprintf(buf, len, " (latlab %ld's, which runs now: run this one after it ends)", pid);
	else
		snprintf(buf, len, " (a killed latlab's: the next latlab run undoes it first)");
	return buf;
}

/*
 * The cpusets under root whose CPUs meet the measured ones: their names
 * into others (space-separated), and the first that holds them for itself
 * (v1: exclusive; v2: a partition) said in who. 1 if one does, else 0.
 */
static int scan_others(const char *root, int version, const cpu_set_t *measured, char *others,
		       size_t olen, char *who, size_t len)
{
	DIR *d = opendir(root);
	struct dirent *e;
	int found = 0;

	others[0] = '\0';
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX + 300], flag[64], owner[128];
		cpu_set_t cpus;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpuset.cpus", root, e->d_name);
		if (cpulist_read_file(path, &cpus) != 0)
			continue;
		CPU_AND(&cpus, &cpus, measured);
		if (CPU_COUNT(&cpus) == 0)
			continue;
		size_t n = strlen(others);

		snprintf(others + n, olen - n, "%s%s", n ? " " : "", e->d_name);
		snprintf(path, sizeof(path), "%s/%s/%s", root, e->d_name,
			 version == 1 ? "cpuset.cpu_exclusive" : "cpuset.cpus.partition");
		if (found || file_first_line(path, flag, sizeof(flag)) != 0 ||
		    strcmp(flag, version == 1 ? "0" : "member") == 0)
			continue;
		snprintf(who, len, "CPU %d is in the %s cpuset %s/%s%s", cpulist_nth(&cpus, 0),
			 version == 1 ? "exclusive" : "partition", root, e->d_name,
			 latlab_owner(e->d_name, owner, sizeof(owner)));
		found = 1;
	}
	closedir(d);
	return found;
}

int isolation_holder(const cpu_set_t *cpus, char *who, size_t len)
{
	char root[PATH_MAX], others[1024], why[256];
	int version;

	if (isolation_root(root, sizeof(root), &version, why, sizeof(why)) != 0)
		return 0;
	return scan_others(root, version, cpus, others, sizeof(others), who, len);
}

/*
 * isolation_check's questions, its answers kept in iso: the housekeeping
 * CPUs, the hierarchy and its version, the other cpusets on a measured CPU.
 */
static int check_into(int kind, const cpu_set_t *measured, struct isolation *iso, char *why,
		      size_t len)
{
	char list[256];

	if (CPU_COUNT(measured) == 0)
		return snprintf(why, len, "isolation needs pinned measured threads (affinity = all leaves them where the kernel puts them)"),
		       -ENODEV;
	housekeeping_of(measured, &iso->housekeeping);
	if (CPU_COUNT(&iso->housekeeping) == 0) {
		cpulist_format(measured, list, sizeof(list));
		return snprintf(why, len, "the measured CPUs %s are every online CPU: none is left for housekeeping",
				list), -ENODEV;
	}
	if (isolation_root(iso->root, sizeof(iso->root), &iso->version, why, len) != 0)
		return -ENODEV;
	if (access(iso->root, W_OK) != 0)
		return snprintf(why, len, "%s: %s (%s)", iso->root, strerror(errno),
				errno == EROFS ? "a container's cgroups are read-only: isolate from the host"
					       : "making cpusets needs root"), -ENODEV;
	if (scan_others(iso->root, iso->version, measured, iso->others, sizeof(iso->others), why, len))
		return -ENODEV;
	if (kind == ISO_CPUSET_IRQS && access(IRQ_DIR "/default_smp_affinity", W_OK) != 0)
		return snprintf(why, len, "%s/default_smp_affinity: %s (interrupts cannot be moved here)",
				IRQ_DIR, strerror(errno)), -ENODEV;
	return 0;
}

int isolation_check(int kind, const cpu_set_t *measured, char *why, size_t len)
{
	struct isolation iso;

	return kind == ISO_NONE ? 0 : check_into(kind, measured, &iso, why, len);
}

/* A file of cpuset `dir` set (inside a cpuset latlab made: its removal undoes it). */
static int set_in(const char *dir, const char *file, const char *value, char *why, size_t len)
{
	char path[PATH_MAX + 64];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	rc = file_write_string(path, value);
	if (rc)
		snprintf(why, len, "%s = %s: %s", path, value, strerror(-rc));
	return rc;
}

/* The cpuset root/NAME-SUFFIX of `cpus` made; exclusive when asked. */
static int make_cpuset(const struct isolation *iso, struct undo *u, const char *suffix,
		       const cpu_set_t *cpus, const char *mems, int exclusive, char *why, size_t len)
{
	char dir[PATH_MAX + 96], list[256];
	int rc;

	snprintf(dir, sizeof(dir), "%s/%s-%s", iso->root, iso->name, suffix);
	cpulist_format(cpus, list, sizeof(list));
	rc = undo_mkdir_cgroup(u, dir);
	if (rc) {
		snprintf(why, len, "mkdir %s: %s", dir, strerror(-rc));
		return rc;
	}
	if ((rc = set_in(dir, "cpuset.cpus", list, why, len)) ||
	    (rc = set_in(dir, "cpuset.mems", mems, why, len)))
		return rc;
	if (exclusive && (rc = set_in(dir, "cpuset.cpu_exclusive", "1", why, len)) == -EINVAL)
		snprintf(why, len, "CPU %s cannot be made exclusive (another cpuset holds it)", list);
	return rc;
}

/* cpus as the kernel's hexadecimal mask ("1", "ff,ffffffff"). */
static void mask_hex(const cpu_set_t *cpus, char *buf, size_t len)
{
	int top = 0;
	size_t u = 0;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, cpus))
			top = cpu;
	for (int word = top / 32; word >= 0 && u < len; word--) {
		unsigned v = 0;

		for (int b = 0; b < 32; b++)
			if (CPU_ISSET(word * 32 + b, cpus))
				v |= 1u << b;
		u += (size_t)snprintf(buf + u, len - u, word == top / 32 ? "%x" : ",%08x", v);
	}
}

/* Every interrupt whose affinity meets a measured CPU moved to the rest of its CPUs, or housekeeping. */
static void move_irqs(struct isolation *iso, struct undo *u)
{
	DIR *d = opendir(IRQ_DIR);
	struct dirent *e;
	char hk[256], hex[128];

	cpulist_format(&iso->housekeeping, hk, sizeof(hk));
	mask_hex(&iso->housekeeping, hex, sizeof(hex));
	undo_set(u, IRQ_DIR "/default_smp_affinity", hex, NULL);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX], list[256];
		cpu_set_t cpus, left;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), IRQ_DIR "/%s/smp_affinity_list", e->d_name);
		if (cpulist_read_file(path, &cpus) != 0)
			continue;
		CPU_AND(&left, &cpus, &iso->measured);
		if (CPU_COUNT(&left) == 0)
			continue;	/* already off the measured CPUs */
		CPU_AND(&cpus, &cpus, &iso->housekeeping);	/* its CPUs that are not measured */
		if (CPU_COUNT(&cpus))
			cpulist_format(&cpus, list, sizeof(list));
		else
			snprintf(list, sizeof(list), "%s", hk);
		if (undo_set(u, path, list, NULL) == 0) {
			iso->irqs_moved++;
		} else {	/* managed by its driver (EIO), or per CPU */
			size_t n = strlen(iso->irqs_stuck);

			snprintf(iso->irqs_stuck + n, sizeof(iso->irqs_stuck) - n, "%s%s", n ? " " : "",
				 e->d_name);
		}
	}
	closedir(d);
}

/* v1: the housekeeping cpuset, an exclusive one per measured CPU, the root's balancing off. */
static int begin_v1(struct isolation *iso, struct undo *u, char *why, size_t len)
{
	char mems[128], path[PATH_MAX + 64], suffix[32];
	int rc;

	snprintf(path, sizeof(path), "%s/cpuset.mems", iso->root);
	if ((rc = file_first_line(path, mems, sizeof(mems))) != 0) {
		snprintf(why, len, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if ((rc = make_cpuset(iso, u, "housekeeping", &iso->housekeeping, mems, 0, why, len)) != 0)
		return rc;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;

		if (!CPU_ISSET(cpu, &iso->measured))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		snprintf(suffix, sizeof(suffix), "cpu%d", cpu);
		if ((rc = make_cpuset(iso, u, suffix, &one, mems, 1, why, len)) != 0)
			return rc;
	}
	/* the root balancing would span them all again: each set is its own domain */
	snprintf(path, sizeof(path), "%s/cpuset.sched_load_balance", iso->root);
	if ((rc = undo_set(u, path, "0", NULL)) != 0)
		snprintf(why, len, "%s = 0: %s", path, strerror(-rc));
	return rc;
}

/*
 * v2: latlab's process in the root cgroup (a thread may only join a
 * threaded cgroup of its process's own threaded domain: the root is
 * one), cpuset enabled for the root's children, and per measured CPU a
 * threaded child of the root made a partition — isolated where the
 * kernel has it, root otherwise: the root and every other cgroup lose
 * that CPU at once, so nothing else is moved.
 */
static int begin_v2(struct isolation *iso, struct undo *u, char *why, size_t len)
{
	char path[PATH_MAX + 160], line[PATH_MAX], pid[16], state[128];
	int rc;

	/* where latlab was, to go back after the cell ("0::/user.slice/...") */
	FILE *fp = fopen("/proc/self/cgroup", "re");

	while (fp && fgets(line, sizeof(line), fp))
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(iso->own_cgroup, sizeof(iso->own_cgroup), "%s", line + 3);
		}
	if (fp)
		fclose(fp);
	if (iso->own_cgroup[0] && strcmp(iso->own_cgroup, "/") != 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", iso->root);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if ((rc = file_write_string(path, pid)) != 0) {
			snprintf(why, len, "latlab into the root cgroup (%s): %s", path, strerror(-rc));
			return rc;
		}
		iso->moved_self = 1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", iso->root);
	if (file_first_line(path, line, sizeof(line)) == 0 && !has_word(line, "cpuset", " ") &&
	    (rc = undo_set(u, path, "+cpuset", "-cpuset")) != 0) {
		snprintf(why, len, "%s = +cpuset: %s", path, strerror(-rc));
		return rc;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char dir[PATH_MAX + 96], one[16];

		if (!CPU_ISSET(cpu, &iso->measured))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s-cpu%d", iso->root, iso->name, cpu);
		snprintf(one, sizeof(one), "%d", cpu);
		if ((rc = undo_mkdir_cgroup(u, dir)) != 0) {
			snprintf(why, len, "mkdir %s: %s", dir, strerror(-rc));
			return rc;
		}
		if ((rc = set_in(dir, "cgroup.type", "threaded", why, len)) ||
		    (rc = set_in(dir, "cpuset.cpus", one, why, len)))
			return rc;
		if (set_in(dir, "cpuset.cpus.partition", "isolated", why, len) != 0 &&
		    (rc = set_in(dir, "cpuset.cpus.partition", "root", why, len)) != 0)
			return rc;
		/* a partition the kernel cannot make says so when read: "isolated invalid (...)" */
		snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", dir);
		file_first_line(path, state, sizeof(state));
		if (strstr(state, "invalid")) {
			snprintf(why, len, "%s: %s", path, state);
			return -EBUSY;
		}
		snprintf(iso->partition, sizeof(iso->partition), "%.40s", state);
	}
	return 0;
}

int isolation_begin(struct isolation *iso, struct undo *u, int kind,
		    const cpu_set_t *measured, char *why, size_t len)
{
	int rc;

	memset(iso, 0, sizeof(*iso));
	iso->kind = kind;
	if (kind == ISO_NONE)
		return 0;
	/* the other cpusets on a measured CPU are named as they were before latlab's own */
	if ((rc = check_into(kind, measured, iso, why, len)) != 0)
		return rc;
	snprintf(iso->name, sizeof(iso->name), "latlab-%d", (int)getpid());
	iso->measured = *measured;
	rc = iso->version == 1 ? begin_v1(iso, u, why, len) : begin_v2(iso, u, why, len);
	if (rc)
		return rc;
	if (kind == ISO_CPUSET_IRQS)
		move_irqs(iso, u);
	return 0;
}

void isolation_end(struct isolation *iso)
{
	char path[PATH_MAX * 2 + 32], pid[16];

	if (!iso->moved_self)
		return;
	snprintf(path, sizeof(path), "%s%s/cgroup.procs", iso->root, iso->own_cgroup);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	file_write_string(path, pid);	/* gone meanwhile: latlab stays in the root */
	iso->moved_self = 0;
}

void isolation_sweep(struct isolation *iso)
{
	char from[PATH_MAX + 16], to[PATH_MAX + 96];
	int stuck = 0;

	if (iso->kind == ISO_NONE || iso->version != 1)
		return;		/* v2's partition took the CPUs from everything else itself */
	snprintf(from, sizeof(from), "%s/tasks", iso->root);
	snprintf(to, sizeof(to), "%s/%s-housekeeping/tasks", iso->root, iso->name);
	/* twice: what forked meanwhile too; what stays after the second is stuck */
	iso->tasks_moved += undo_move_tasks(from, to, 1, &stuck);
	stuck = 0;
	iso->tasks_moved += undo_move_tasks(from, to, 1, &stuck);
	iso->tasks_stuck += stuck;
}

void isolation_cpu_tasks(const struct isolation *iso, int cpu, char *path, size_t len)
{
	if (iso->kind == ISO_NONE || cpu < 0)
		snprintf(path, len, "%s", "");
	else	/* v1 moves a thread by its tasks file; v2's threaded cgroups, cgroup.threads */
		snprintf(path, len, "%s/%s-cpu%d/%s", iso->root, iso->name, cpu,
			 iso->version == 1 ? "tasks" : "cgroup.threads");
}

void isolation_describe(const struct isolation *iso, char *buf, size_t len)
{
	char hk[256], m[256];
	size_t u;

	if (iso->kind == ISO_NONE) {
		snprintf(buf, len, "none");
		return;
	}
	cpulist_format(&iso->housekeeping, hk, sizeof(hk));
	cpulist_format(&iso->measured, m, sizeof(m));
	if (iso->version == 1)
		u = (size_t)snprintf(buf, len, "exclusive cpusets %s/%s-cpuN for the measured CPUs %s; %d tasks moved to the housekeeping CPUs %s, %d could not move (per-CPU kernel threads)",
				     iso->root, iso->name, m, iso->tasks_moved, hk, iso->tasks_stuck);
	else
		u = (size_t)snprintf(buf, len, "cgroup v2 partitions (%s) %s/%s-cpuN for the measured CPUs %s; every other cgroup on the CPUs %s",
				     iso->partition, iso->root, iso->name, m, hk);
	if (iso->kind == ISO_CPUSET_IRQS && u < len)
		u += (size_t)snprintf(buf + u, len - u, "; %d interrupts moved, could not move: %s",
				      iso->irqs_moved, iso->irqs_stuck[0] ? iso->irqs_stuck : "none");
	if (iso->others[0] && u < len)
		snprintf(buf + u, len - u, "; other cpusets on a measured CPU, left alone: %s", iso->others);
}

/*
 * Isolation in a qemu guest, asked before it boots: its CPUs are its
 * variant's `cpus` (0 .. cpus - 1). The measured threads pinned there
 * must leave one for housekeeping, and none of them may be one
 * [campaign] housekeeping names; the rest (the cpusets, their version)
 * is the guest's own to check.
 */
static int guest_fits(const struct config *cfg, const struct cell *c, char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	cpu_set_t online, pinned, used, both;
	char list[256];

	CPU_ZERO(&online);
	for (int cpu = 0; cpu < k->cpus && cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &online);
	if (place_cpus_on(cfg, c, &online, &pinned, &used) <= 0)
		return 0;	/* placed by the guest's own files: asked there */
	if (CPU_COUNT(&pinned) == 0)
		return snprintf(why, len, "isolation needs pinned measured threads (affinity = all leaves them where the kernel puts them)"),
		       -1;
	if (CPU_COUNT(&pinned) >= CPU_COUNT(&online)) {
		cpulist_format(&pinned, list, sizeof(list));
		return snprintf(why, len, "the guest of kernel %s has %lld CPU%s ([kernel.%s] cpus = %lld), and the measured threads take CPU %s: none is left for housekeeping (cpus = %lld at least)",
				k->name, (long long)k->cpus, k->cpus == 1 ? "" : "s", k->name,
				(long long)k->cpus, list, (long long)CPU_COUNT(&pinned) + 1),
		       -1;
	}
	CPU_AND(&both, &pinned, &cfg->housekeeping);
	if (CPU_COUNT(&both))
		return snprintf(why, len, "housekeeping = '%s' names CPU %d, which it keeps for a measured thread in the guest",
				cfg->campaign.housekeeping, cpulist_nth(&both, 0)), -1;
	return 0;
}

/*
 * The axis's check (axis_ops.h): can this machine keep the cell's pinned
 * CPUs (cpus set: here; a guest checks its own), none of them one that
 * [campaign] housekeeping gives latlab's own threads? Its begin is not a
 * hook: isolation is bound into the cell's life (the loads swept into
 * the housekeeping cpuset after they start), and cell_machine.c calls it.
 */
static int isolation_fits(const struct config *cfg, const struct cell *c, int64_t v,
			  const cpu_set_t *cpus, char *why, size_t len)
{
	cpu_set_t pinned, used, both;

	if (!cpus)
		return guest_fits(cfg, c, why, len);
	if (place_cpus(cfg, c, &pinned, &used) <= 0)
		return 0;
	if (isolation_check((int)v, &pinned, why, len) != 0)
		return -1;
	CPU_AND(&both, &pinned, &cfg->housekeeping);
	if (CPU_COUNT(&both))
		return snprintf(why, len, "housekeeping = '%s' names CPU %d, which it keeps for a measured thread",
				cfg->campaign.housekeeping, cpulist_nth(&both, 0)), -1;
	return 0;
}

const struct axis_ops isolation_axis_ops = {
	.check = isolation_fits,
	.as_is = ISO_NONE,
};
