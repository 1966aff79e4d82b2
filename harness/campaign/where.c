#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "axis_ops.h"
#include "cell.h"
#include "cell_kind.h"
#include "chain.h"
#include "cpulist.h"
#include "files.h"
#include "isolate.h"
#include "load_ops.h"
#include "log.h"
#include "netpeer.h"
#include "place.h"
#include "tracer.h"
#include "vm.h"
#include "watch.h"
#include "watch_opts.h"
#include "where.h"

enum where where_variant(const struct config *cfg, int v,
			 const struct kernel_info *k)
{
	const struct kernel_def *kd = &cfg->kernel[v];

	if (kd->runner == RUNNER_QEMU)
		return WHERE_QEMU;
	if (kd->runner == RUNNER_CONTAINER)
		return WHERE_CONTAINER;
	return kernel_matches(kd->match, k) ? WHERE_HERE : WHERE_OTHER;
}

enum where where_runs(const struct config *cfg, const struct cell *c,
		      const struct kernel_info *k)
{
	return where_variant(cfg, c->kernel, k);
}

const char *where_name(enum where w)
{
	static const char *const names[] = { "here", "qemu", "pending (other kernel)", "container" };

	return names[w];
}

static struct srcloc kernel_key_loc(const struct config *cfg,
				    const struct kernel_def *k, const char *key);

/* The message after the option's "FILE:LINE: "; -ENODEV. */
#define fail(why, len, loc, ...) \
	fail_at(why, len, -ENODEV, (loc)->file, (loc)->line, __VA_ARGS__)

/* The first CPU of `want` that `have` lacks, or -1. */
static int missing_cpu(const cpu_set_t *want, const cpu_set_t *have)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, want) && !CPU_ISSET(cpu, have))
			return cpu;
	return -1;
}

/*
 * Does the machine that runs c lack NUMA node `node` (or any online CPU
 * on it)? Here, sysfs says (a machine without NUMA has node 0 alone); in
 * a qemu guest, its variant's `numa_nodes` (1 unless set). The node's
 * CPUs, where known, go to cpus.
 */
static int node_missing(const struct config *cfg, const struct cell *c, int local, int node,
			cpu_set_t *cpus)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	cpu_set_t online;
	int64_t first, last, mib;

	if (!local)
		return vm_guest_node(k, node, &first, &last, &mib) != 0;
	if (cpulist_node(NULL, node, cpus) != 0)
		return 1;
	cpulist_online(&online);
	CPU_AND(cpus, cpus, &online);
	return CPU_COUNT(cpus) == 0;
}

/* "this machine has no NUMA node with an online CPU by that number (nodes: 0)" */
static const char *nodes_have(const struct config *cfg, const struct cell *c, int local,
			      char *buf, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	cpu_set_t nodes;
	char list[128] = "0";

	long long have = k->numa_nodes > 0 ? (long long)k->numa_nodes : 1;

	if (!local)
		snprintf(buf, len, "the guest has no such NUMA node (numa_nodes = %lld: nodes 0-%lld)",
			 have, have - 1);
	else {
		if (cpulist_nodes(NULL, &nodes) == 0)
			cpulist_format(&nodes, list, sizeof(list));
		snprintf(buf, len, "this machine has no NUMA node by that number with a CPU online (nodes: %s)",
			 list);
	}
	return buf;
}

/*
 * A load's or a workload's preflight (what the machine must have: a
 * program, a directory, a plugin), refused at the line of the key it
 * names in [KIND.NAME]. 0, or -ENODEV with "FILE:LINE: [KIND.NAME] ..."
 */
static int def_preflight(const struct config *cfg,
			 int (*preflight)(const void *opts, const char **key, char *err, size_t len),
			 const void *opts, const char *kind, const char *name, struct srcloc loc,
			 const char *machine, char *why, size_t len)
{
	char msg[PATH_MAX + 512], section[CFG_NAME_MAX + 16];
	const char *key = "type";

	if (!preflight || preflight(opts, &key, msg, sizeof(msg)) == 0)
		return 0;
	snprintf(section, sizeof(section), "%s.%s", kind, name);
	struct srcloc kl = config_key_loc(cfg, section, key, loc);

	return fail(why, len, &kl, "[%s] %s%s", section, msg, machine);
}

const char *where_cell_files(const struct config *cfg, const struct cell *c,
			     const char **key, char *section, size_t len, struct srcloc *loc)
{
	const struct workload_def *wd = &cfg->workload[c->workload];
	const struct load_def *l = &cfg->load[c->load];
	int of_load;
	const char *path = config_cell_files(wd, l, &of_load);

	*key = of_load ? "dir" : "path";
	snprintf(section, len, "%s.%s", of_load ? "load" : "workload", of_load ? l->name : wd->name);
	if (loc)
		*loc = of_load ? l->loc : wd->loc;
	return path;
}

int where_cell_net(const struct config *cfg, const struct cell *c)
{
	return config_cell_sends_ip(&cfg->workload[c->workload], &cfg->load[c->load]);
}

/*
 * A qemu variant's cell that sends over IP: with net = device or veth,
 * the variant's card (or veth) modules found (the host) or the peer set
 * up (the guest); loopback is the user's word, said in every output. 0,
 * or -ENODEV with why.
 */
static int net_fits(const struct config *cfg, const struct cell *c, int guest,
		    char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	char dir[PATH_MAX], mw[PATH_MAX + 256];
	struct srcloc nl;
	struct net_peer np;

	const struct workload_def *wd = &cfg->workload[c->workload];
	const char *to = workload_net_to(wd->ops, wd->opts);

	if (k->runner == RUNNER_QEMU && to) {
		char sec[CFG_NAME_MAX + 16];

		snprintf(sec, sizeof(sec), "workload.%s", wd->name);
		struct srcloc tl = config_key_loc(cfg, sec, "to", wd->loc);

		return fail(why, len, &tl,
			    "[%s] to = %s: a qemu guest's traffic does not leave qemu (kernel %s): a peer on another machine is measured from the machine itself (runner = host)",
			    sec, to, k->name);
	}
	if (k->runner != RUNNER_QEMU || k->net == NET_LOOPBACK || !where_cell_net(cfg, c))
		return 0;
	int veth = k->net == NET_VETH;

	nl = kernel_key_loc(cfg, k, "net");
	if (guest) {
		if (net_peer_get(&np) == 0 && (veth ? np.veth : np.device))
			return 0;
		return fail(why, len, &nl, "[kernel.%s] net = %s: the guest's network did not come up (see the console's \"latlab init\" lines)",
			    k->name, veth ? "veth" : "device");
	}
	if (k->modules[0] ||
	    vm_device_modules(k, veth ? "veth.list" : "net.list", dir, sizeof(dir), mw, sizeof(mw)) == 0)
		return 0;
	if (veth)
		return fail(why, len, &nl,
			    "[kernel.%s] net = veth: %s; or name them in modules =, or net = loopback (said in every output)",
			    k->name, mw);
	return fail(why, len, &nl,
		    "[kernel.%s] net = device (the default: the cell sends over IP): %s; or name them in modules =, or net = loopback (said in every output)",
		    k->name, mw);
}

/* Is path VM_DISK_MOUNT or under it? */
static int on_guest_disk(const char *path)
{
	size_t n = strlen(VM_DISK_MOUNT);

	return strncmp(path, VM_DISK_MOUNT, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * A qemu variant's cell that writes files: with disk = on or modelled, on
 * the disk (a path under VM_DISK_MOUNT, the variant's modules found);
 * disk = ram is the user's word and is said in every output. In the
 * guest: the disk came up (/dev/vda, or null_blk's /dev/nullb0). 0, or
 * -ENODEV with why.
 */
static int disk_fits(const struct config *cfg, const struct cell *c, int guest,
		     char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	char section[CFG_NAME_MAX + 16], dir[PATH_MAX], mw[PATH_MAX + 256];
	struct srcloc def;
	const char *key, *path = where_cell_files(cfg, c, &key, section, sizeof(section), &def);

	if (!path || k->runner != RUNNER_QEMU || k->disk == DISK_RAM)
		return 0;
	struct srcloc kl = config_key_loc(cfg, section, key, def);
	struct srcloc dl = kernel_key_loc(cfg, k, "disk");

	if (!on_guest_disk(path))
		return fail(why, len, &kl,
			    "[%s] %s = %s: in a qemu guest (kernel %s) only " VM_DISK_MOUNT
			    " is on its disk, the rest is RAM: a path under " VM_DISK_MOUNT
			    ", or [kernel.%s] disk = ram to measure RAM (said in every output)",
			    section, key, path, k->name, k->name);
	if (guest) {
		char src[PATH_MAX], type[64];

		int modelled = k->disk == DISK_MODELLED;

		if (file_mount_of(path, src, sizeof(src), type, sizeof(type)) == 0 &&
		    (modelled ? file_dev_modelled(src) : strncmp(src, "/dev/vd", 7) == 0))
			return 0;
		return fail(why, len, &dl, "[kernel.%s] disk = %s: the guest's disk did not come up (" VM_DISK_MOUNT " is not on %s: see the console's \"latlab init\" lines)",
			    k->name, modelled ? "modelled" : "on", modelled ? "/dev/nullb0" : "/dev/vda");
	}
	if (k->modules[0])
		return 0;	/* the user's modules =: theirs to have the drivers */
	if (vm_device_modules(k, vm_disk_modules(k), dir, sizeof(dir), mw, sizeof(mw)) != 0) {
		if (k->disk == DISK_MODELLED)
			return fail(why, len, &dl,
				    "[kernel.%s] disk = modelled: %s; or name them in modules =, or disk = ram to measure RAM (said in every output)",
				    k->name, mw);
		return fail(why, len, &dl,
			    "[kernel.%s] disk = on (the default: [%s] writes files): %s; or name them in modules =, or disk = ram to measure RAM (said in every output)",
			    k->name, section, mw);
	}
	return 0;
}

/*
 * Is program prog (a path, or a name the guest's PATH looks up: /bin,
 * /usr/bin, /sbin, /usr/sbin, /usr/local/bin) in a variant's own initrd?
 */
static int in_initrd(const char *initrd, const char *prog)
{
	static const char *const dirs[] = { "bin/", "usr/bin/", "sbin/", "usr/sbin/",
					     "usr/local/bin/" };
	char names[5][OPT_STR_MAX + 16], found[OPT_STR_MAX + 16];
	const char *list[5];
	int n = 0;

	if (strchr(prog, '/')) {
		snprintf(names[n], sizeof(names[n]), "%s", prog + (prog[0] == '/'));
		list[n] = names[n];
		n++;
	} else {
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++, n++) {
			snprintf(names[n], sizeof(names[n]), "%s%s", dirs[i], prog);
			list[n] = names[n];
		}
	}
	return vm_initrd_find(initrd, list, n, found, sizeof(found)) == 0;
}

/*
 * Why CPU cpu, which a config names, is not one latlab has: not online
 * (on the machine, or in the guest), held by another cpuset for itself
 * (another latlab's isolation), or online but outside the CPUs this
 * latlab may run on (have: its affinity, a container's cpuset). Into buf.
 */
static const char *absent(int cpu, const cpu_set_t *online, const cpu_set_t *have,
			  const char *machine, char *buf, size_t len)
{
	char list[256];
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (CPU_ISSET(cpu, online) && isolation_holder(&one, buf, len))
		return buf;	/* another latlab's isolation, named */
	if (CPU_ISSET(cpu, online)) {
		cpulist_format(have, list, sizeof(list));
		snprintf(buf, len, "CPU %d is online but latlab may not run there: it may run on CPUs %s only (its affinity: a container's --cpuset-cpus, taskset, or a cgroup's cpuset.cpus)",
			 cpu, list);
	} else {
		cpulist_format(online, list, sizeof(list));
		snprintf(buf, len, "CPU %d is not online%s (online: %s)", cpu, machine, list);
	}
	return buf;
}

/*
 * The CPUs cell c names, on the machine that runs it (local: this one or
 * a container's; else the guest's k->cpus): its affinity's, its load's
 * and [campaign] housekeeping's. 0, or -ENODEV with why; *have the CPUs
 * latlab may run on there.
 */
static int cpus_fit(const struct config *cfg, const struct cell *c, int local, cpu_set_t *have,
		    char *why, size_t len)
{
	const struct axis *ax = &cfg->matrix.affinity;
	const struct load_def *l = &cfg->load[c->load];
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	const struct placement *pl = &cfg->place[c->affinity];
	const char *machine = local ? "" : " in the guest";
	cpu_set_t want, online;
	char on[256], ab[512];
	int cpu;

	if (local) {	/* the CPUs this latlab may run on (a container's cpuset) */
		cpulist_usable(have);
		cpulist_online(&online);
	} else {	/* the guest's, all online */
		CPU_ZERO(have);
		for (cpu = 0; cpu < k->cpus && cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, have);
		online = *have;
	}
	cpulist_format(have, on, sizeof(on));
	if (cell_axis_value(cfg, c, TAXIS_AFFINITY) == AFF_ISOLATED && local &&
	    (cpulist_read_file("/sys/devices/system/cpu/isolated", &want) != 0 ||
	     CPU_COUNT(&want) == 0))
		return fail(why, len, &ax->loc,
			    "affinity = isolated, but no CPU is isolated (boot with isolcpus=)");
	if (pl->kind == AFF_NODE && node_missing(cfg, c, local, pl->node, &want))
		return fail(why, len, &ax->loc, "affinity '%s': %s", ax->s[c->affinity],
			    nodes_have(cfg, c, local, on, sizeof(on)));
	if (pl->kind == AFF_LIST && (cpu = missing_cpu(&pl->cpus, have)) >= 0)
		return fail(why, len, &ax->loc, "affinity '%s': %s", ax->s[c->affinity],
			    absent(cpu, &online, have, machine, ab, sizeof(ab)));
	if (l->place.kind == AFF_NODE && node_missing(cfg, c, local, l->place.node, &want))
		return fail(why, len, &l->cpus_loc, "[load.%s] cpus = '%s': %s", l->name, l->cpus,
			    nodes_have(cfg, c, local, on, sizeof(on)));
	if (l->place.kind == AFF_LIST && (cpu = missing_cpu(&l->place.cpus, have)) >= 0)
		return fail(why, len, &l->cpus_loc, "[load.%s] cpus = '%s': %s", l->name, l->cpus,
			    absent(cpu, &online, have, machine, ab, sizeof(ab)));
	if (CPU_COUNT(&cfg->housekeeping) && (cpu = missing_cpu(&cfg->housekeeping, have)) >= 0) {
		struct srcloc hl = config_key_loc(cfg, "campaign", "housekeeping", ax->loc);

		return fail(why, len, &hl, "housekeeping = '%s': %s", cfg->campaign.housekeeping,
			    absent(cpu, &online, have, machine, ab, sizeof(ab)));
	}
	return 0;
}

/*
 * What cell c asks of the machine beyond its CPUs: its kind's refusal of
 * an axis it does not apply, each hooked axis's check (on every CPU a
 * thread may use, here; the config alone for a guest's), and the tracer
 * [trace] mode = spikes needs. 0, or -ENODEV with why.
 */
static int axes_fit(const struct config *cfg, const struct cell *c, int guest, int local,
		    char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	const char *machine = local ? "" : " in the guest";
	cpu_set_t pinned, used;
	char kw[512];
	/* a program's threads are its own: never run without what the cell names */
	int refused = cell_kind_refuses(cell_kind_of(cfg->workload[c->workload].ops), cfg, c, kw,
					sizeof(kw));

	if (refused >= 0)
		return fail(why, len, &cfg->matrix.ax[refused].loc, "%s", kw);
	/* every CPU a thread may use, for the axes' checks (isolation's, idle's, ...) */
	int threads = local && axis_ops_checks(cfg, c) ? place_cpus(cfg, c, &pinned, &used) : 0;

	for (int a = 0; a < TAXIS_COUNT; a++) {
		const struct axis_ops *ops = axis_hooks[a];
		const struct axis *hx = &cfg->matrix.ax[a];
		int64_t v = ops ? axis_ops_value(cfg, c, a) : 0;
		char hw[PATH_MAX + 400];

		if (!ops || !ops->check || v == ops->as_is || (local && threads <= 0))
			continue;
		if (ops->check(cfg, c, v, local ? &used : NULL, hw, sizeof(hw)) != 0)
			return fail(why, len, &hx->loc, "%s = %s: %s%s", taxis_name(a),
				    hx->n ? hx->s[c->ax[a]] : "", hw, machine);
	}
	if (local && k->trace_mode == TRACE_SPIKES) {
		char tw[PATH_MAX + 128];
		struct srcloc tloc = k->trace == KTRACE_SPIKES ? k->loc : cfg->trace_loc;

		if (tracer_check_method(cfg->trace.method, tw, sizeof(tw)) != 0) {
			if (cfg->trace.method == TRACE_BY_BPF)
				tloc = config_key_loc(cfg, "trace", "method", tloc);
			return fail(why, len, &tloc, "[trace] mode = spikes%s%s: %s",
				    cfg->trace.method == TRACE_BY_BPF ? ", method = bpf" : "",
				    guest ? " in the guest" : "", tw);
		}
	}
	return 0;
}

/*
 * What cell c's workload needs of the machine that runs it: a qemu
 * guest is given the object it loads or the program it runs (one the
 * guest can load or run), its kind's own needs (cyclictest's options, a
 * watch's method), and its preflight here. 0, or -ENODEV with why.
 */
static int workload_fits(const struct config *cfg, const struct cell *c, int local,
			 char *why, size_t len)
{
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	const struct workload_def *wd = &cfg->workload[c->workload];
	const struct cell_kind *kind = cell_kind_of(wd->ops);
	const char *machine = local ? "" : " in the guest";

	/* a workload that loads an object (a plugin, a chain's plugin step) */
	const char *so = wd->ops->loads ? wd->ops->loads(wd->opts) : NULL;

	if (!local && so) {
		/* the guest gets the object at its path (initramfs.c): one it can load */
		char section[CFG_NAME_MAX + 16], sw[PATH_MAX + 160];

		snprintf(section, sizeof(section), "workload.%s", wd->name);
		struct srcloc at = config_key_loc(cfg, section, "path", wd->loc);

		if (so[0] != '/')
			return fail(why, len, &at, "[%s] path = %s: a qemu guest (kernel %s) is given a copy at the same path: name it from / (an absolute path)",
				    section, so, k->name);
		if (vm_shared_fits(so, vm_arch(k), sw, sizeof(sw)) != 0)
			return fail(why, len, &at, "[%s] path = %s: %s: the guest of kernel %s cannot load it",
				    section, so, sw, k->name);
		/* a static latlab's dlopen brings a second, unstarted libc:
		 * the plugin's first ctype call crashed it (seen) */
		char bin[PATH_MAX + 16], interp[PATH_MAX];

		snprintf(bin, sizeof(bin), "%s/latlab", k->programs);
		if (k->programs[0] && vm_program_fits(bin, vm_arch(k), interp, sizeof(interp)) == 0)
			return fail(why, len, &at, "[%s] path = %s: the guest of kernel %s runs %s, a static latlab, which cannot load a plugin (leave programs = empty: latlab's own)",
				    section, so, k->name, bin);
		/* its ABI and options, here, as the guest will see them */
		if (def_preflight(cfg, wd->ops->preflight, wd->opts, "workload", wd->name, wd->loc,
				  " (for the guest)", why, len) != 0)
			return -ENODEV;
	} else if (!local && wd->ops->carries) {
		/* the guest is given the program (initramfs.c): one it can run */
		char section[CFG_NAME_MAX + 16], path[PATH_MAX], pw[160], interp[PATH_MAX];
		char prog[OPT_STR_MAX];
		const char *key = "program", *cmd = wd->ops->carries(wd->opts, &key);
		int rc;

		snprintf(section, sizeof(section), "workload.%s", wd->name);
		struct srcloc at = config_key_loc(cfg, section, key, wd->loc);

		if (cmd && argv_first(cmd, prog, sizeof(prog)) == 0) {
			int whole = strcmp(cmd, prog) == 0;	/* cyclictest's program, not a command line */
			int own = path_lookup(prog, path, sizeof(path)) != 0 && k->initrd[0] &&
				  in_initrd(k->initrd, prog);

			if (own)
				return 0;	/* the variant's own initrd =: the guest's PATH finds it */
			if (path_lookup(prog, path, sizeof(path)) != 0)
				return fail(why, len, &at, "[%s] %s = %s: %s%snot found on this machine%s, so a qemu guest (kernel %s) cannot be given it",
					    section, key, cmd, whole ? "" : prog, whole ? "" : ": ",
					    k->initrd[0] ? " nor in the variant's initrd =" : "", k->name);
			if ((rc = vm_program_fits(path, vm_arch(k), interp, sizeof(interp))) < 0)
				return fail(why, len, &at, "[%s] %s = %s: %s: %s: the guest of kernel %s cannot run it",
					    section, key, cmd, path, vm_program_misfit(rc, vm_arch(k), pw, sizeof(pw)), k->name);
		}
	} else if (!local && wd->ops->preflight && !kind->guest_preflights && !wd->ops->loads) {
		/* a chain's steps are asked in the guest */
		struct srcloc kl = config_key_loc(cfg, "matrix", "workload", wd->loc);

		return fail(why, len, &kl, "workload %s (type = %s) runs on this machine only: a qemu guest (kernel %s) has no copy of what it loads",
			    wd->name, wd->ops->name, k->name);
	}
	if (kind->fits) {	/* the kernel first (a watch's method), then the program */
		char fw[1024];
		struct srcloc at = wd->loc;

		if (kind->fits(cfg, c, local, &at, fw, sizeof(fw)) != 0)
			return fail(why, len, &at, "%s", fw);
	}
	if (local && def_preflight(cfg, wd->ops->preflight, wd->opts, "workload", wd->name, wd->loc,
				   machine, why, len) != 0)
		return -ENODEV;
	return 0;
}

int where_fits(const struct config *cfg, const struct cell *c, int guest,
	       char *why, size_t len)
{
	const struct load_def *l = &cfg->load[c->load];
	const struct kernel_def *k = &cfg->kernel[c->kernel];
	int local = guest || k->runner != RUNNER_QEMU;	/* a container has this machine's CPUs */
	const char *machine = local ? "" : " in the guest";
	cpu_set_t have;

	if (cpus_fit(cfg, c, local, &have, why, len) != 0 ||
	    axes_fit(cfg, c, guest, local, why, len) != 0)
		return -ENODEV;
	/* a container's load that runs on the host (load_in = host): the host checks it, not the container */
	if (local && l->ops && !(guest && config_load_outside(k, l)) &&
	    def_preflight(cfg, l->ops->preflight, l->opts, "load", l->name, l->loc, machine, why,
			  len) != 0)
		return -ENODEV;
	if (workload_fits(cfg, c, local, why, len) != 0)
		return -ENODEV;
	if ((guest || !local) && disk_fits(cfg, c, guest, why, len) != 0)
		return -ENODEV;
	if ((guest || !local) && net_fits(cfg, c, guest, why, len) != 0)
		return -ENODEV;
	int64_t workers = load_workers(l->ops, l->opts) * CPU_COUNT(&have);

	if (l->ops && !l->ninstances && workers > LOAD_MAX_WORKERS)
		return fail(why, len, &l->loc,
			    "[load.%s] instances = per-cpu: %d CPUs x %lld workers each: at most %d in all",
			    l->name, CPU_COUNT(&have),
			    (long long)load_workers(l->ops, l->opts), LOAD_MAX_WORKERS);
	return 0;
}

/* Where a qemu variant's key was set, for an error: always a file. */
static struct srcloc kernel_key_loc(const struct config *cfg,
				    const struct kernel_def *k, const char *key)
{
	struct srcloc loc = config_kernel_loc(cfg, k, key);

	if (!loc.file)
		loc.file = cfg->path;
	return loc;
}

/* A program of a qemu variant ("busybox", or "programs" and its latlab). */
static int guest_program(const struct config *cfg, const struct kernel_def *k,
			 const char *key, const char *dir, const char *name,
			 char *why, size_t len)
{
	const struct vm_arch *arch = vm_arch(k);
	struct srcloc loc = kernel_key_loc(cfg, k, key);
	char path[PATH_MAX], interp[PATH_MAX], what[96], hint[96] = "";
	int rc;

	snprintf(path, sizeof(path), "%s%s%s", dir, name ? "/" : "", name ? name : "");
	rc = vm_program_fits(path, arch, interp, sizeof(interp));
	if (rc >= 0)
		return 0;
	if (arch->cross && name)
		snprintf(hint, sizeof(hint), " (make static CROSS=%s)", arch->cross);
	else if (arch->cross)
		snprintf(hint, sizeof(hint), " (make kernels puts one in kernels/%s/busybox)",
			 arch->name);
	return fail_at(why, len, rc, loc.file, loc.line, "[kernel.%s] %s = %s: %s%s%s%s",
		       k->name, key, dir, name ? name : "",
		       !name ? "" : rc == -ENOEXEC || rc == -ELIBBAD ? " is " : ": ",
		       vm_program_misfit(rc, arch, what, sizeof(what)), hint);
}

/*
 * What latlab boots a qemu variant with: its image; for another
 * architecture also the programs and busybox built for it.
 */
int where_guest_files(const struct config *cfg, const struct kernel_def *k,
		      char *why, size_t len)
{
	int rc = 0;

	if (access(k->image, R_OK) != 0) {
		struct srcloc loc = kernel_key_loc(cfg, k, "image");

		rc = -errno;
		return fail_at(why, len, rc, loc.file, loc.line, "[kernel.%s] image = %s: %s%s",
			       k->name, k->image, strerror(-rc),
			       rc == -ENOENT ? " (make kernels fetches Debian's stock and rt images into kernels/)" : "");
	}
	if (k->busybox[0])
		rc = guest_program(cfg, k, "busybox", k->busybox, NULL, why, len);
	if (rc == 0 && k->programs[0])
		rc = guest_program(cfg, k, "programs", k->programs, "latlab", why, len);
	if (rc == 0 && k->programs[0])
		rc = guest_program(cfg, k, "programs", k->programs, "latload", why, len);
	return rc;
}

int where_preflight(const struct config *cfg, const struct cell *cells,
		    int ncells, int guest, char *why, size_t len)
{
	int checked[CFG_DEFS_MAX] = { 0 };

	for (int i = 0; i < ncells; i++) {
		const struct cell *c = &cells[i];
		const struct kernel_def *k = &cfg->kernel[c->kernel];
		int rc = where_fits(cfg, c, guest, why, len);

		if (rc)
			return rc;
		if (guest || k->runner != RUNNER_QEMU || checked[c->kernel]++)
			continue;
		rc = where_guest_files(cfg, k, why, len);
		if (rc)
			return rc;
	}
	return 0;
}

int where_stacked(const struct config *cfg, const struct cell *c, char *why,
		  size_t len)
{
	int cpus[CPU_SETSIZE], count[CPU_SETSIZE] = { 0 }, worst = -1;
	const struct axis *ax = &cfg->matrix.threads;
	cpu_set_t mask;
	int n;

	if (c->policy != POL_FIFO && c->policy != POL_RR)
		return 0;
	n = place_threads(cfg, c, cpus, &mask);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE &&
		    ++count[cpus[i]] > (worst < 0 ? 1 : count[worst]))
			worst = cpus[i];
	if (worst < 0)
		return 0;
	const char *file = ax->loc.file ? ax->loc.file : cfg->path;

	snprintf(why, len, "%s:%d: %d real-time threads of %s share CPU %d (threads = %d, affinity = %s): they delay each other, so their latency is the design's, not the kernel's",
		 file, ax->loc.line, count[worst], c->id, worst, n,
		 cfg->matrix.affinity.s[c->affinity]);
	return 1;
}

int where_stacked_cells(const struct config *cfg, const struct cell *cells, int n,
			char *why, size_t len)
{
	char one[1024];
	int stacked = 0;

	for (int i = 0; i < n; i++)
		if (cfg->kernel[cells[i].kernel].runner != RUNNER_QEMU &&
		    where_stacked(cfg, &cells[i], one, sizeof(one)) && !stacked++)
			snprintf(why, len, "%s", one);
	return stacked;
}

/* What latlab runs on CPU s beside cell c's measured CPUs, in words. */
static void sibling_use(const struct config *cfg, const struct cell *c, int s,
			const cpu_set_t *pinned, char *out, size_t len)
{
	const struct load_def *l = &cfg->load[c->load];
	cpu_set_t usable, node;
	int load = 0;

	cpulist_usable(&usable);
	if (l->ops && CPU_ISSET(s, &usable)) {
		switch (l->place.kind) {
		case AFF_HOUSEKEEPING:
			load = !CPU_ISSET(s, pinned);
			break;
		case AFF_NODE:
			load = cpulist_node(NULL, l->place.node, &node) == 0 && CPU_ISSET(s, &node);
			break;
		case AFF_LIST:
			load = CPU_ISSET(s, &l->place.cpus);
			break;
		default:
			load = 1;
		}
	}
	if (load)
		snprintf(out, len, "the load %.64s runs there", l->name);
	else if (CPU_COUNT(&cfg->housekeeping) && CPU_ISSET(s, &cfg->housekeeping))
		snprintf(out, len, "latlab's housekeeping runs there (housekeeping = %.120s)",
			 cfg->campaign.housekeeping);
	else
		snprintf(out, len, "latlab puts nothing of its own there");
}

int where_smt(const struct config *cfg, const struct cell *c, const char *sysroot,
	      char *why, size_t len)
{
	cpu_set_t pinned, used;

	if (place_cpus(cfg, c, &pinned, &used) <= 0)
		return 0;
	for (int m = 0; m < CPU_SETSIZE; m++) {
		char path[PATH_MAX], use[256];
		cpu_set_t sib;

		if (!CPU_ISSET(m, &pinned))
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 sysroot, m);
		if (cpulist_read_file(path, &sib) != 0)
			continue;
		for (int s = 0; s < CPU_SETSIZE; s++) {
			if (s == m || !CPU_ISSET(s, &sib) || CPU_ISSET(s, &pinned))
				continue;
			sibling_use(cfg, c, s, &pinned, use, sizeof(use));
			snprintf(why, len, "%s: its measured CPU %d shares a core with CPU %d (SMT siblings), which it does not measure: %s — the two share the core's pipeline and caches",
				 c->id, m, s, use);
			return 1;
		}
	}
	return 0;
}

int where_smt_cells(const struct config *cfg, const struct cell *cells, int n,
		    char *why, size_t len)
{
	char one[1024];
	int found = 0;

	for (int i = 0; i < n; i++)
		if (cfg->kernel[cells[i].kernel].runner != RUNNER_QEMU &&
		    where_smt(cfg, &cells[i], "", one, sizeof(one)) && !found++)
			snprintf(why, len, "%s", one);
	return found;
}
