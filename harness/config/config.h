/*
 * The campaign config: an INI file (libinih) plus --set overrides, read
 * through the option tables below. config_load() either fills a complete,
 * validated struct config or fails with "file:line: reason" and leaves
 * nothing behind; nothing in latlab writes a file before it succeeds.
 * It reads no machine state: whether this machine has the CPUs, isolated
 * CPUs and kernel images a config names is where.h's question.
 */
#ifndef LATLAB_CONFIG_H
#define LATLAB_CONFIG_H

#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "axis.h"
#include "options.h"
#include "workload.h"

#define CFG_NAME_MAX 48	/* a load, workload, kernel variant or campaign name, NUL included */
#define CFG_DEFS_MAX 32

struct campaign_opts {
	char name[OPT_STR_MAX];
	int64_t duration;	/* ns per cell */
	char output[OPT_STR_MAX];
	int64_t repeat;
	int64_t repeat_first;	/* the repeat an extended tree was first run with; 0: not extended */
	int samples;		/* 0 off, 1 on: write samples.bin */
	int64_t boot_attempts;	/* reboots into a variant before giving up */
	int64_t checkpoint;	/* ns between partial writes of a cell; 0: none */
	int64_t hwlat;		/* ns of the hwlat tracer before the first cell; 0: none */
	int64_t timeline;	/* ns of a timeline.csv window (whole seconds); 0: none */
	char dl_runtime[OPT_STR_MAX];	/* SCHED_DEADLINE runtime: "50%" of the interval or a duration */
	char dl_deadline[OPT_STR_MAX];	/* SCHED_DEADLINE relative deadline, the same way */
	int dl_wait;		/* enum dl_wait: how a deadline thread waits for its next period */
	int corrected;		/* 0 off, 1 on: record wakeup_corrected */
	int order;		/* enum run_order: the cells' order of running */
	int64_t seed;		/* order = shuffled: its seed; 0: one from the config's hash */
	char housekeeping[OPT_STR_MAX];	/* latlab's own threads' CPUs: a CPU list, or "" */
};

/* [campaign] order: every cell's run r before any's r + 1, the same shuffled, or the matrix's */
enum run_order { ORDER_INTERLEAVED, ORDER_SHUFFLED, ORDER_BLOCKED };

/* [campaign] dl_wait: sleep to the period (every policy's loop) or sched_yield (cyclicdeadline's) */
enum dl_wait { DL_WAIT_SLEEP, DL_WAIT_YIELD };

/* The axes, in the order cells are expanded (outermost first). */
struct matrix_opts {
	union {
		/* by the axis table's index (axis.h); the host is no matrix axis: empty */
		struct axis ax[TAXIS_COUNT];
		struct {	/* the same by the axis's name: cfg->matrix.load */
#define AXIS(e, m, ...) struct axis m;
#define READER_AXIS AXIS
#include "axes.h"
#undef READER_AXIS
#undef AXIS
		};
	};
};

/*
 * SCHED_DEADLINE's runtime or deadline as [campaign] dl_runtime and
 * dl_deadline say it, typed when the config is read: a share of the
 * period (the interval) or a duration.
 */
struct dl_spec {
	double share;		/* of the period, 0 to 1; 0: ns instead */
	int64_t ns;
};

/* A spec's value for a period, in ns (what the thread asks of the kernel). */
int64_t config_dl_ns(const struct dl_spec *s, int64_t period);

struct threshold_opts {
	int metric;			/* enum metric the latency limits apply to */
	int64_t max, p50, p90, p99, p99_9, p99_99;	/* ns, OPT_UNSET if none */
	int64_t overruns, errors;	/* most allowed, OPT_UNSET if none */
	/* [thresholds] only: the most periods a thread may miss ("1%"; "off", the default) */
	char missed[OPT_STR_MAX];	/* an OPT_STRING: its field is OPT_STR_MAX */
	int64_t missed_ppm;	/* the same in parts per million; -1: off */
	int missed_given;	/* missed = in the config, not the default */
	/* [thresholds] only: judge the campaign against a baseline tree */
	char baseline[OPT_STR_MAX];	/* a results tree, or "" */
	int64_t baseline_tolerance;	/* percent */
};

/* [trace]: spike forensics (docs/spikes.md) */
enum trace_mode { TRACE_OFF, TRACE_SPIKES };
/* how captures are taken: latlab's tracefs instance, BPF's flight recorder where it works, or it only */
enum trace_method { TRACE_BY_TRACEFS, TRACE_BY_AUTO, TRACE_BY_BPF };
/* the flight recorder's events: all the tracefs path's, or without those every idle wake-up passes */
enum trace_recorder { TRACE_REC_FULL, TRACE_REC_LEAN };
/* which captures a cell keeps: the first above the threshold, or the worst */
enum trace_keep { TRACE_KEEP_WORST, TRACE_KEEP_FIRST };

/* A tracepoint: its system and its name ("sched", "sched_migrate_task"). */
struct trace_event {
	char sys[64], ev[128];
};

#define TRACE_EVENTS_MAX 32

struct trace_opts {
	int mode;		/* enum trace_mode */
	int64_t threshold;	/* ns of wake-up latency that triggers a capture */
	int64_t captures;	/* most kept per cell */
	int keep;		/* enum trace_keep */
	int64_t buffer;		/* bytes per CPU */
	char events[OPT_STR_MAX];	/* system:event, ... added to the default set, as written */
	struct trace_event event[TRACE_EVENTS_MAX];	/* the same, typed when the config is read */
	int nevents;
	int method;		/* enum trace_method */
	int recorder;		/* enum trace_recorder */
	int timerlat;		/* 1: the kernel's timerlat beside the threads (trace/timerlat.h) */
	int watch;		/* 0 off; the kernel's histograms of the threads (trace/watch.h): 1 auto, 2 bpf, 3 hist */
};

enum kernel_runner { RUNNER_HOST, RUNNER_QEMU, RUNNER_CONTAINER };
enum kernel_trace { KTRACE_INHERIT = 0, KTRACE_OFF, KTRACE_SPIKES };
enum vm_accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };
/* a qemu guest's clock: the host's time, or qemu's instruction count */
enum vm_clock { CLOCK_HOST, CLOCK_ICOUNT };
/* where a qemu guest's files go: a virtio-blk disk at /var/tmp, its RAM,
 * or a null_blk disk in its memory whose service time is a timer of its own */
enum vm_disk { DISK_ON, DISK_RAM, DISK_MODELLED };
/* where a qemu guest's IP traffic goes: across two virtio-net cards,
 * loopback, or a veth pair between two network namespaces */
enum vm_net { NET_DEVICE, NET_LOOPBACK, NET_VETH };
/* where a container variant's cells' load runs: beside them in the
 * container, or on the host outside it (a neighbour's load) */
enum ct_load_in { LOAD_IN_CONTAINER, LOAD_IN_HOST };
/* the guest's disk: where it is mounted, the only place on it */
#define VM_DISK_MOUNT "/var/tmp"
/* the guest's two cards: its own address (eth0) and its peer's (eth1) */
#define VM_NET_SELF "10.0.2.1"
#define VM_NET_PEER "10.0.2.2"
/* a qemu guest's architecture (vm.c has what each boots with) */
enum vm_arch_id { VM_ARCH_X86_64, VM_ARCH_ARM64 };
/* the architecture this latlab was built for: its guests alone may use KVM
 * (-1: none of the guests', as on armhf) */
#if defined(__aarch64__)
#define VM_ARCH_HOST VM_ARCH_ARM64
#elif defined(__x86_64__)
#define VM_ARCH_HOST VM_ARCH_X86_64
#else
#define VM_ARCH_HOST (-1)
#endif

struct kernel_def {
	char name[CFG_NAME_MAX];
	char match[OPT_STR_MAX];
	char reboot[OPT_STR_MAX];
	int runner;			/* enum kernel_runner */
	/* runner = qemu (docs/campaigns.md) */
	char image[OPT_STR_MAX];	/* bzImage / vmlinuz */
	char modules[OPT_STR_MAX];	/* .ko files insmod'ed at boot, in order */
	char initrd[OPT_STR_MAX];	/* a cpio archive appended to latlab's */
	char append[OPT_STR_MAX];	/* kernel command line additions */
	char qemu_args[OPT_STR_MAX];	/* more qemu arguments (argv words) */
	/* runner = container (docs/containers.md); image = names its image */
	char container_args[OPT_STR_MAX];	/* more `podman run` arguments (argv words) */
	int64_t rt_runtime;		/* its cgroup's real-time budget a second, ns (RT_GROUP_SCHED) */
	int load_in;			/* enum ct_load_in */
	int arch;			/* enum vm_arch_id */
	char programs[OPT_STR_MAX];	/* latlab and latload for arch ("": latlab's own) */
	char busybox[OPT_STR_MAX];	/* a static busybox for arch ("": the host's) */
	int64_t cpus, memory;
	int64_t numa_nodes;		/* emulated NUMA nodes (1: none), CPUs and memory split evenly */
	int accel;			/* enum vm_accel */
	int clock;			/* enum vm_clock */
	int64_t icount_shift;		/* clock = icount: 2^shift ns an instruction */
	int64_t boot_timeout;		/* boot to the guest latlab's hello */
	int64_t timeout;		/* a cell's time beyond its duration */
	int trace;			/* enum kernel_trace: [trace] mode for this variant */
	int disk;			/* enum vm_disk */
	int64_t disk_size;		/* the disk's size, bytes (a sparse file; modelled: its ext4) */
	int disk_cache;			/* qemu's cache mode: vm_disk_caches[] */
	int64_t disk_time;		/* disk = modelled: a request's service time, ns */
	int64_t disk_depth;		/* disk = modelled: the queue's depth */
	int net;			/* enum vm_net */
	int settle;			/* 0: the guest waits for its boot to settle (settle.h); 1: off */
	int boots;			/* clock = icount: 0 rounds share a boot, 1 a boot every round */
	int trace_mode;			/* TRACE_*: that, or [trace]'s, resolved (config_check.c) */
	struct srcloc loc;
};

struct load_ops;

/*
 * Where measured threads or a load's processes run, typed once from the
 * config's text when it is read (config_resolve.c): nothing that measures
 * parses a placement again.
 */
struct placement {
	int kind;		/* enum affinity_kind (a load's: all, housekeeping, node, list) */
	int node;		/* AFF_NODE: the NUMA node's number */
	cpu_set_t cpus;		/* AFF_LIST: its CPUs */
};

struct load_def {
	char name[CFG_NAME_MAX];
	char type[OPT_STR_MAX];
	char cpus[OPT_STR_MAX];		/* all | housekeeping | node:N | CPU list, as written */
	struct placement place;		/* the same, typed */
	struct srcloc cpus_loc;		/* where cpus = was set (or loc) */
	char instances[OPT_STR_MAX];	/* a number, or per-cpu, as written */
	int64_t ninstances;		/* the same: a number, or 0 for per-cpu */
	int64_t nice;
	int64_t ready_timeout;		/* ns */
	const struct load_ops *ops;	/* NULL for type none */
	void *opts;			/* ops->options struct, owned */
	struct srcloc loc;
};

struct workload_def {
	char name[CFG_NAME_MAX];
	char type[OPT_STR_MAX];
	const struct workload_ops *ops;
	void *opts;			/* ops->options struct, owned */
	struct srcloc loc;
};

/* The most cells a matrix may have (repeat included). */
#define MATRIX_MAX_CELLS 100000

struct config_entry;

struct config {
	char path[PATH_MAX];
	struct campaign_opts campaign;
	struct matrix_opts matrix;
	/* the affinity axis's items, typed; the numa axis's nodes (-1: none named) */
	struct placement place[AXIS_MAX];
	int numa_node[AXIS_MAX];
	struct threshold_opts thresholds;	/* [thresholds], its metric = */
	int has_thresholds;
	/* [thresholds.wakeup], [thresholds.io], [thresholds.response] */
	struct threshold_opts metric_thresholds[METRIC_COUNT];
	int has_metric_thresholds[METRIC_COUNT];
	struct srcloc baseline_loc;	/* where [thresholds] baseline was set */
	struct dl_spec dl_runtime, dl_deadline;	/* [campaign]'s, typed (policy = deadline) */
	cpu_set_t housekeeping;	/* [campaign] housekeeping typed; empty: not set */
	struct trace_opts trace;
	int has_trace;			/* a [trace] section (echoed only then) */
	struct srcloc trace_loc;	/* where [trace] mode was set (or the section) */
	int nkernels, nloads, nworkloads;
	struct kernel_def kernel[CFG_DEFS_MAX];
	struct load_def load[CFG_DEFS_MAX];
	struct workload_def workload[CFG_DEFS_MAX];
	struct config_entry *entries;	/* raw key/values, owned */
	int nentries;
};

/* Where `key` was set in `section` (the last one wins), or fallback. */
struct srcloc config_key_loc(const struct config *cfg, const char *section,
			     const char *key, struct srcloc fallback);
/*
 * Where the key on line `line` of `echo` (config_write_ini's text of cfg:
 * a qemu guest's copy, /latlab/config.ini) was set in the user's config:
 * 0 and *loc, or -ENOENT (no key there, or one no file set: a default).
 */
int config_echo_loc(const struct config *cfg, const char *echo, int line, struct srcloc *loc);

/*
 * `text` with every "PATH:LINE" of the guest's copy of the config (`path`,
 * its echo `echo`) said at the user's FILE:LINE instead, "(the guest's
 * copy: line N)" beside it; a line that maps to nothing is left as it is.
 */
void config_echo_map(const struct config *cfg, const char *echo, const char *path,
		     const char *text, char *out, size_t len);

/* The same for a key of [kernel.NAME], falling back to the variant's loc. */
struct srcloc config_kernel_loc(const struct config *cfg, const struct kernel_def *k,
				const char *key);

extern const struct opt campaign_options[];
extern const struct opt matrix_options[];
extern const struct opt threshold_options[];
extern const struct opt baseline_options[];
extern const struct opt missed_options[];
extern const struct opt kernel_options[];
extern const struct opt trace_options[];
extern const struct opt load_options[];

/*
 * Every table above with the section a user writes it in, as latlab list
 * and docs/reference.md show them: a table not here is a key no page
 * names (tests/cli/basics.bats holds the two lists equal).
 */
struct config_section {
	const char *title;	/* "campaign", "thresholds (the whole campaign)", "kernel.NAME" */
	const struct opt *options;
};
extern const struct config_section config_sections[];

/*
 * Read `path` (NULL: defaults only) and apply `sets` ("section.key=value",
 * later wins; in the file, a key given twice in a section is an error).
 * 0 on success; -EINVAL with "file:line: reason" in err on any problem,
 * a line each, up to CONFIG_ERRORS_MAX of them (log_error_lines says
 * them). cfg is zeroed first and must be freed with config_free() in
 * both cases.
 */
#define CONFIG_ERRORS_MAX 20
int config_load(struct config *cfg, const char *path,
		const char *const *sets, int nsets, char *err, size_t errlen);

/*
 * A config a command makes instead of reading one (latlab watch): cfg
 * zeroed and every default set; then the caller's typed settings (the
 * options tables' opt_parse into cfg->campaign, cfg->matrix, a
 * definition's opts); then config_finish, which checks and resolves what
 * config_load does after reading. Free with config_free.
 */
void config_init(struct config *cfg);

/* A [workload.NAME] of `type`, its options at their defaults (typed: no entry), or NULL with err. */
struct workload_def *config_add_workload(struct config *cfg, const char *name, const char *type,
					 char *err, size_t errlen);

/* What config_load checks after reading, on a config made so. 0, or -EINVAL with err (a line each). */
int config_finish(struct config *cfg, char *err, size_t errlen);

void config_free(struct config *cfg);

/* The resolved config (every default filled) as INI text. */
void config_write_ini(FILE *fp, const struct config *cfg);

/* One [load.NAME] or [workload.NAME] section as config_write_ini writes it (cell.ini has its cell's). */
void config_write_load(FILE *fp, const struct load_def *l);
void config_write_workload(FILE *fp, const struct workload_def *w);

/* FNV-1a of config_write_ini()'s text: same config, same hash. */
uint64_t config_hash(const struct config *cfg);

/* Indices into cfg->kernel/load/workload for axis item names. */
int config_kernel_index(const struct config *cfg, const char *name);
int config_load_index(const struct config *cfg, const char *name);
int config_workload_index(const struct config *cfg, const char *name);

/*
 * Where a cell of workload wd under load l writes files: its workload's
 * file (fs_path), else its load's directory; NULL when neither writes
 * one. *of_load (unless NULL) says which. The one answer of a guest's
 * disk (campaign/where.c) and cell.ini's files (results/cellfiles.c).
 */
const char *config_cell_files(const struct workload_def *wd, const struct load_def *l,
			      int *of_load);

/*
 * Does load l of a cell of variant k run outside it, on the host (a
 * container's load_in = host)? Then the container's latlab neither starts
 * nor judges it: the host's does (campaign_qemu.c).
 */
int config_load_outside(const struct kernel_def *k, const struct load_def *l);

/* Does such a cell send over IP (its workload, a chain's step, its load)? */
int config_cell_sends_ip(const struct workload_def *wd, const struct load_def *l);

#endif
