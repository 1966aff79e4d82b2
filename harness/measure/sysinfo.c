#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpulist.h"
#include "files.h"
#include "kernel.h"
#include "log.h"
#include "rtrights.h"
#include "sysinfo.h"
#include "version.h"


void sysinfo_add(struct sysinfo *si, const char *section, const char *key,
		 const char *fmt, ...)
{
	struct sysinfo_kv *kv;
	va_list ap;

	if (si->n >= SYSINFO_MAX)
		return;
	kv = &si->kv[si->n++];
	kv->section = section;
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(kv->value, sizeof(kv->value), fmt, ap);
	va_end(ap);
	/* one value, one line */
	for (char *p = kv->value; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

void sysinfo_warn(struct sysinfo *si, const char *fmt, ...)
{
	va_list ap;

	if (si->nwarn >= SYSINFO_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(si->warn[si->nwarn++], sizeof(si->warn[0]), fmt, ap);
	va_end(ap);
}

/* First line of a file, or "unknown" when it cannot be read. */
static const char *line_of(const char *path, char *buf, size_t len)
{
	if (file_first_line(path, buf, len) != 0)
		snprintf(buf, len, "unknown");
	return buf;
}

/* The word after "key=" on the kernel command line, or "". */
static void cmdline_arg(const char *cmdline, const char *key, char *out,
			size_t len)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *p = cmdline; (p = strstr(p, key)) != NULL; p++) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			snprintf(out, len, "%.*s",
				 (int)strcspn(p + klen + 1, " "), p + klen + 1);
			return;
		}
	}
}

static void cpu_model(char *out, size_t len, int *hypervisor)
{
	char line[1024];
	FILE *fp = fopen("/proc/cpuinfo", "re");

	snprintf(out, len, "unknown");
	*hypervisor = 0;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			char *v = strchr(line, ':') + 2;

			v[strcspn(v, "\n")] = '\0';
			snprintf(out, len, "%s", v);
		}
		if (strncmp(line, "flags", 5) == 0 &&
		    strstr(line, " hypervisor"))
			*hypervisor = 1;
	}
	fclose(fp);
}

static void collect_kernel(struct sysinfo *si, const struct kernel_facts *f)
{
	struct kernel_info k;
	char buf[1024], arg[256];

	kernel_info_of(f, &k);
	sysinfo_add(si, "kernel", "release", "%s", k.release);
	sysinfo_add(si, "kernel", "version", "%s", k.version);
	struct utsname u;
	sysinfo_add(si, "kernel", "machine", "%s", uname(&u) == 0 ? u.machine : "unknown");
	sysinfo_add(si, "kernel", "preempt", "%s%s", k.model,
	    k.dynamic ? " (dynamic)" : "");
	sysinfo_add(si, "kernel", "preempt_from", "%s%s%s", k.source,
	    f->debugfs_why[0] ? "; " : "", f->debugfs_why);
	/* /sys/kernel/realtime is the RT patch's; mainline's rt kernels say it in uname -v */
	sysinfo_add(si, "kernel", "realtime", "%s",
	    strcmp(k.model, "rt") == 0 || strncmp(k.model, "rt+", 3) == 0 ? "1" : "0");
	line_of("/proc/cmdline", buf, sizeof(buf));
	sysinfo_add(si, "kernel", "cmdline", "%s", buf);
	/* which boot: the runs of one boot share its memory layout and seed */
	sysinfo_add(si, "kernel", "boot_id", "%s",
	    line_of("/proc/sys/kernel/random/boot_id", buf, sizeof(buf)));
	cmdline_arg(buf, "isolcpus", arg, sizeof(arg));
	sysinfo_add(si, "kernel", "isolcpus", "%s", arg);
	cmdline_arg(buf, "nohz_full", arg, sizeof(arg));
	sysinfo_add(si, "kernel", "nohz_full", "%s", arg);
	cmdline_arg(buf, "rcu_nocbs", arg, sizeof(arg));
	sysinfo_add(si, "kernel", "rcu_nocbs", "%s", arg);
	sysinfo_add(si, "kernel", "isolated_cpus", "%s",
	    line_of("/sys/devices/system/cpu/isolated", buf, sizeof(buf)));
	sysinfo_add(si, "kernel", "clocksource", "%s",
	    line_of("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		    buf, sizeof(buf)));
	sysinfo_add(si, "kernel", "thp", "%s",
	    line_of("/sys/kernel/mm/transparent_hugepage/enabled", buf,
		    sizeof(buf)));
}

/*
 * The machine's NUMA shape, from sysfs as numactl --hardware shows it:
 * [numa] nodes (the online ones), and per node its CPUs, its memory
 * (MiB) and its row of the distance matrix (10 is local).
 */
static void collect_numa(struct sysinfo *si)
{
	cpu_set_t nodes, cpus;
	char list[256], path[128], line[512], key[32];

	if (cpulist_nodes(NULL, &nodes) != 0) {
		sysinfo_add(si, "numa", "nodes", "none (no NUMA in this kernel)");
		return;
	}
	cpulist_format(&nodes, list, sizeof(list));
	sysinfo_add(si, "numa", "nodes", "%s", list);
	for (int n = 0; n < CPU_SETSIZE && n <= NODE_MAX; n++) {
		long long kb = -1;
		FILE *fp;

		if (!CPU_ISSET(n, &nodes))
			continue;
		if (cpulist_node(NULL, n, &cpus) == 0) {
			cpulist_format(&cpus, list, sizeof(list));
			snprintf(key, sizeof(key), "node%d_cpus", n);
			sysinfo_add(si, "numa", key, "%s", list[0] ? list : "none");
		}
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		if ((fp = fopen(path, "re"))) {
			while (fgets(line, sizeof(line), fp))
				if (sscanf(line, "Node %*d MemTotal: %lld kB", &kb) == 1)
					break;
			fclose(fp);
		}
		snprintf(key, sizeof(key), "node%d_memory_mib", n);
		if (kb >= 0)
			sysinfo_add(si, "numa", key, "%lld", kb / 1024);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
		line_of(path, line, sizeof(line));
		snprintf(key, sizeof(key), "node%d_distance", n);
		sysinfo_add(si, "numa", key, "%s", line);
	}
}

static void collect_cpu(struct sysinfo *si)
{
	char buf[256], path[128], list[256], model[256];
	cpu_set_t online;
	int hyper, smt_on;

	cpulist_online(&online);
	cpulist_format(&online, list, sizeof(list));
	cpu_model(model, sizeof(model), &hyper);
	sysinfo_add(si, "cpu", "model", "%s", model);
	sysinfo_add(si, "cpu", "online", "%s", list);
	sysinfo_add(si, "cpu", "count", "%d", CPU_COUNT(&online));
	line_of("/sys/devices/system/cpu/smt/active", buf, sizeof(buf));
	smt_on = strcmp(buf, "1") == 0;
	sysinfo_add(si, "cpu", "smt_active", "%s", buf);
	sysinfo_add(si, "cpu", "numa_nodes", "%d",
	    numa_available() < 0 ? 1 : numa_num_configured_nodes());
	collect_numa(si);
	if (smt_on)
		sysinfo_warn(si, "SMT is active: a load on a sibling thread shares the measured core");

	/* the idle states a dma_latency value keeps the CPUs out of: NAME (exit us) */
	size_t used = 0;
	buf[0] = '\0';
	for (int st = 0; st < 16; st++) {
		char name[64], lat[32];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", st);
		line_of(path, name, sizeof(name));
		if (strcmp(name, "unknown") == 0)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/latency", st);
		line_of(path, lat, sizeof(lat));
		used += (size_t)snprintf(buf + used, used < sizeof(buf) ? sizeof(buf) - used : 0,
					 "%s%s (%s us)", used ? ", " : "", name, lat);
		if (used >= sizeof(buf))
			break;
	}
	sysinfo_add(si, "cpu", "idle_states", "%s", buf[0] ? buf : "none (no cpuidle)");

	int governed = 0, not_perf = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		char key[32];

		if (!CPU_ISSET(c, &online))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 c);
		line_of(path, buf, sizeof(buf));
		snprintf(key, sizeof(key), "governor.cpu%d", c);
		if (strcmp(buf, "unknown") == 0)
			snprintf(buf, sizeof(buf), "none (no cpufreq)");
		else {
			governed = 1;
			not_perf |= strcmp(buf, "performance") != 0;
		}
		sysinfo_add(si, "cpu", key, "%s", buf);
	}
	if (governed && not_perf)
		sysinfo_warn(si, "cpufreq governor is not 'performance' on every CPU: frequency changes distort latency (cpupower frequency-set -g performance)");

	char vendor[128], product[128];
	line_of("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	line_of("/sys/class/dmi/id/product_name", product, sizeof(product));
	sysinfo_add(si, "machine", "virtualized", "%s", hyper ? "yes" : "no");
	sysinfo_add(si, "machine", "vendor", "%s", vendor);
	sysinfo_add(si, "machine", "product", "%s", product);
	if (hyper && strcmp(vendor, "unknown") != 0)
		sysinfo_warn(si, "running in a virtual machine (%s %s): the hypervisor adds latency the guest cannot see",
		     vendor, product);
	else if (hyper)
		sysinfo_warn(si, "running in a virtual machine: the hypervisor adds latency the guest cannot see");
}

/*
 * What stops a real-time thread that runs long: RT throttling, and since
 * 6.12 the fair deadline server (and, with sched_ext, the ext server).
 */
static void collect_sched(struct sysinfo *si, const struct kernel_facts *f)
{
	char rt[64], period[64], text[512];

	line_of("/proc/sys/kernel/sched_rt_runtime_us", rt, sizeof(rt));
	line_of("/proc/sys/kernel/sched_rt_period_us", period, sizeof(period));
	sysinfo_add(si, "sched", "rt_runtime_us", "%s", rt);
	sysinfo_add(si, "sched", "rt_period_us", "%s", period);
	kernel_servers_text(&f->fair, text, sizeof(text));
	sysinfo_add(si, "sched", "fair_server", "%s", text);
	kernel_servers_text(&f->ext, text, sizeof(text));
	sysinfo_add(si, "sched", "ext_server", "%s", text);
	/* what the kernel does to a thread that runs long, said whatever it is */
	si->runs_long = kernel_throttle_words(f, text, sizeof(text));
	sysinfo_add(si, "sched", "runs_long", "%s", text);
}

/*
 * [rights]: where latlab runs and what it may do there — a container
 * runtime, its cpu cgroup and that cgroup's real-time budget, the
 * capabilities a measurement needs and RLIMIT_RTPRIO. What "host against
 * container" differs in, beside the figures.
 */
static void collect_rights(struct sysinfo *si)
{
	static const char *const yn[] = { "unknown", "no", "yes" };
	struct rt_facts f;
	struct rlimit rl = { 0 };

	rt_facts_read("", &f);
	sysinfo_add(si, "rights", "container", "%s", f.container);
	sysinfo_add(si, "rights", "cpu_cgroup", "%s", f.cgroup);
	sysinfo_add(si, "rights", "cpu_rt_runtime_us", "%s", f.rt_runtime_us);
	sysinfo_add(si, "rights", "cap_sys_nice", "%s", yn[f.sys_nice + 1]);
	sysinfo_add(si, "rights", "cap_ipc_lock", "%s", yn[f.ipc_lock + 1]);
	if (getrlimit(RLIMIT_RTPRIO, &rl) != 0)
		sysinfo_add(si, "rights", "rlimit_rtprio", "unknown");
	else if (rl.rlim_cur == RLIM_INFINITY)
		sysinfo_add(si, "rights", "rlimit_rtprio", "unlimited");
	else
		sysinfo_add(si, "rights", "rlimit_rtprio", "%llu", (unsigned long long)rl.rlim_cur);
}

void sysinfo_collect(struct sysinfo *si, const char *cmdline)
{
	char host[256] = "unknown";

	memset(si, 0, sizeof(*si));
	gethostname(host, sizeof(host) - 1);
	sysinfo_add(si, "host", "hostname", "%s", host);
	char features[256];

	version_features(features, sizeof(features));
	sysinfo_add(si, "latlab", "version", "%s", LATLAB_VERSION);
	sysinfo_add(si, "latlab", "commit", "%s", version_commit()[0] ? version_commit() : "none");
	sysinfo_add(si, "latlab", "features", "%s", features);
	sysinfo_add(si, "latlab", "command", "%s", cmdline ? cmdline : "");
	struct kernel_facts f;

	kernel_facts_read("", &f);
	collect_kernel(si, &f);
	collect_cpu(si);
	collect_sched(si, &f);
	collect_rights(si);
}

const char *sysinfo_get(const struct sysinfo *si, const char *section,
			const char *key)
{
	for (int i = 0; i < si->n; i++)
		if (strcmp(si->kv[i].section, section) == 0 &&
		    strcmp(si->kv[i].key, key) == 0)
			return si->kv[i].value;
	return NULL;
}
