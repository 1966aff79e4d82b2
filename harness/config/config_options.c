#include <stddef.h>

#include "config.h"
#include "units.h"

#define OFF(T, f) offsetof(T, f)

/* key, type, offset, min, max, default, help, choices, flags */
#define ROW(k, t, o, lo, hi, d, h, c, f) { .key = (k), .type = (t), \
	.offset = (o), .min = (lo), .max = (hi), .def = (d), .help = (h), \
	.choices = (c), .flags = (f) }

const struct opt campaign_options[] = {
	ROW("name", OPT_STRING, OFF(struct campaign_opts, name), 0, 0, "latlab",
	  "campaign name: results go to OUTPUT/NAME/", NULL, 0),
	ROW("duration", OPT_DURATION, OFF(struct campaign_opts, duration),
	  NS_PER_S / 10, 7 * 24 * 3600 * NS_PER_S, "60s",
	  "measuring time per cell", NULL, 0),
	ROW("output", OPT_STRING, OFF(struct campaign_opts, output), 0, 0,
	  "results", "results directory (-o overrides)", NULL, 0),
	ROW("repeat", OPT_INT, OFF(struct campaign_opts, repeat), 1, 1000, "1",
	  "run every cell this many times (innermost axis); raised on a finished or resumed tree, the new runs are added to it",
	  NULL, 0),
	ROW("repeat_first", OPT_INT, OFF(struct campaign_opts, repeat_first), 0, 1000, "0",
	  "written by latlab into an extended tree's campaign.ini: the repeat it was first run with, so that the first runs keep their ids (0: never extended)",
	  NULL, OPT_ECHO_SET),
	ROW("samples", OPT_ENUM, OFF(struct campaign_opts, samples), 0, 0, "off",
	  "write every sample to samples.bin (latlab export converts it)",
	  "off|on", 0),
	ROW("checkpoint", OPT_DURATION, OFF(struct campaign_opts, checkpoint),
	  0, 24 * 3600 * NS_PER_S, "5m",
	  "write a long cell's data so far, marked partial, this often (0ns: never)",
	  NULL, 0),
	ROW("hwlat", OPT_DURATION, OFF(struct campaign_opts, hwlat), 0,
	  3600 * NS_PER_S, "0s",
	  "run the kernel's hwlat tracer this long before the first cell (sysinfo.ini [hwlat]; 0s: never)",
	  NULL, OPT_ECHO_SET),
	ROW("timeline", OPT_DURATION, OFF(struct campaign_opts, timeline), 0,
	  24 * 3600 * NS_PER_S, "10s",
	  "window of timeline.csv: each thread's samples per log-spaced latency bin, per window (whole seconds; 0s: none)",
	  NULL, OPT_ECHO_SET),
	ROW("housekeeping", OPT_STRING, OFF(struct campaign_opts, housekeeping), 0, 0, "",
	  "the CPUs latlab's own threads (main, sample writer, tracer) run on while a host cell measures, as cyclictest --mainaffinity: a CPU list, or empty for where the kernel puts them (with isolation: the housekeeping cpuset's CPUs)",
	  NULL, OPT_ECHO_SET),
	ROW("dl_runtime", OPT_STRING, OFF(struct campaign_opts, dl_runtime), 0, 0, "50%",
	  "policy = deadline: runtime per period, a percentage of the interval or a duration",
	  NULL, OPT_ECHO_SET),
	ROW("dl_deadline", OPT_STRING, OFF(struct campaign_opts, dl_deadline), 0, 0, "100%",
	  "policy = deadline: relative deadline, a percentage of the interval or a duration",
	  NULL, OPT_ECHO_SET),
	ROW("dl_wait", OPT_ENUM, OFF(struct campaign_opts, dl_wait), 0, 0, "sleep",
	  "policy = deadline: wait for the next period with an absolute clock_nanosleep (sleep, as every policy) or end each job with sched_yield and be woken by the deadline scheduler (yield, as cyclicdeadline)",
	  "sleep|yield", OPT_ECHO_SET),
	ROW("order", OPT_ENUM, OFF(struct campaign_opts, order), 0, 0, "interleaved",
	  "the cells' run order: interleaved (every cell's run r before any cell's run r+1: rounds), shuffled (rounds, each in a seeded random order) or blocked (the matrix's order, a cell's repeats back to back)",
	  "interleaved|shuffled|blocked", OPT_ECHO_SET),
	ROW("seed", OPT_INT, OFF(struct campaign_opts, seed), 0, 2147483647, "0",
	  "order = shuffled: the seed of the rounds' order (0: one made from the config, the same on every resume)",
	  NULL, OPT_ECHO_SET),
	ROW("corrected", OPT_ENUM, OFF(struct campaign_opts, corrected), 0, 0, "off",
	  "also record wakeup_corrected: the wake-up with each missed period counted at the latency it would have had (coordinated omission undone, as wrk does); the wake-up itself is unchanged",
	  "off|on", OPT_ECHO_SET),
	ROW("boot_attempts", OPT_INT, OFF(struct campaign_opts, boot_attempts),
	  1, 10, "2",
	  "with --reboot: reboots into a kernel variant before its cells are given up",
	  NULL, 0),
	{ 0 },
};

/* [matrix]: each axis's option, from its row in model/axes.h (the host has none) */
#define AXIS(e, m, plural, column, kind, id, always, idmax, missing, hidden, title, label, wd, \
	     t, lo, hi, d, v, f, h)						\
	{ .key = #m, .type = (t), .offset = OFF(struct matrix_opts, m), .min = (lo),	\
	  .max = (hi), .def = (d), .help = (h), .words = (v), .flags = (f) },
#define READER_AXIS(e, m, ...)

const struct opt matrix_options[] = {
#include "axes.h"
	{ 0 },
};
#undef READER_AXIS
#undef AXIS

#define THR(f, help) ROW(#f, OPT_DURATION, OFF(struct threshold_opts, f), \
	0, 24 * 3600 * NS_PER_S, NULL, help, NULL, OPT_OPTIONAL)

const struct opt threshold_options[] = {
	ROW("metric", OPT_ENUM, OFF(struct threshold_opts, metric), 0, 0,
	  "wakeup", "metric the latency limits apply to (a limit on a figure the run cannot vouch for, an emulator's pace or a device's wait on the instruction clock, is not judged, and said); a missed period is later than any limit below the period of the wake-up, io, response or a step", METRIC_NAMES, 0),
	THR(max, "fail a cell whose max exceeds this"),
	ROW("p50", OPT_DURATION, OFF(struct threshold_opts, p50), 0,
	  24 * 3600 * NS_PER_S, NULL, "fail above this median", NULL,
	  OPT_OPTIONAL),
	THR(p90, "fail above this 90th percentile"),
	THR(p99, "fail above this 99th percentile"),
	ROW("p99.9", OPT_DURATION, OFF(struct threshold_opts, p99_9), 0,
	  24 * 3600 * NS_PER_S, NULL, "fail above this 99.9th percentile",
	  NULL, OPT_OPTIONAL),
	ROW("p99.99", OPT_DURATION, OFF(struct threshold_opts, p99_99), 0,
	  24 * 3600 * NS_PER_S, NULL, "fail above this 99.99th percentile",
	  NULL, OPT_OPTIONAL),
	ROW("overruns", OPT_INT, OFF(struct threshold_opts, overruns), 0,
	  INT64_MAX, NULL, "most overruns allowed per thread", NULL,
	  OPT_OPTIONAL),
	ROW("errors", OPT_INT, OFF(struct threshold_opts, errors), 0, INT64_MAX,
	  NULL, "most I/O errors allowed per thread", NULL, OPT_OPTIONAL),
	{ 0 },
};

/* [thresholds] also takes these (not [thresholds.METRIC]): the whole campaign against a tree */
/* [thresholds] only; echoed only when set, so older configs keep their hash */
const struct opt missed_options[] = {
	ROW("missed", OPT_STRING, OFF(struct threshold_opts, missed), 0, 0, "1%",
	  "fail a cell a thread of which missed more than this share of its periods (0% to 100%, or off; the default is not applied on an emulated CPU, qemu's TCG, one written here is)",
	  NULL, OPT_ECHO_SET),
	{ 0 },
};

const struct opt baseline_options[] = {
	ROW("baseline", OPT_STRING, OFF(struct threshold_opts, baseline), 0, 0, "",
	  "a results tree, or several joined by commas (campaigns of the baseline): the run fails (exit 1) where a row is worse than the baseline's beyond baseline_tolerance and the 95 % interval says so (latlab compare --baseline)",
	  NULL, 0),
	ROW("baseline_tolerance", OPT_INT, OFF(struct threshold_opts, baseline_tolerance),
	  0, 1000, "20", "percent worse than the baseline that is tolerated",
	  NULL, 0),
	{ 0 },
};

const struct opt kernel_options[] = {
	ROW("match", OPT_STRING, OFF(struct kernel_def, match), 0, 0, NULL,
	  "how to recognise it: [!]preempt:MODEL, [!]release:GLOB or any",
	  NULL, 0),
	ROW("reboot", OPT_STRING, OFF(struct kernel_def, reboot), 0, 0, "",
	  "argv that boots this variant (used only with --reboot)", NULL, 0),
	ROW("runner", OPT_ENUM, OFF(struct kernel_def, runner), 0, 0, "host",
	  "host: cells run when this machine boots the variant; qemu: in a virtual machine booting image",
	  "host|qemu", 0),
	ROW("image", OPT_STRING, OFF(struct kernel_def, image), 0, 0, "",
	  "qemu: the kernel image (bzImage, vmlinuz)", NULL, 0),
	ROW("modules", OPT_STRING, OFF(struct kernel_def, modules), 0, 0, "",
	  "qemu: .ko files (comma list) put in the initramfs and insmod'ed in this order",
	  NULL, 0),
	ROW("initrd", OPT_STRING, OFF(struct kernel_def, initrd), 0, 0, "",
	  "qemu: a cpio archive appended to latlab's initramfs (extra files)",
	  NULL, 0),
	ROW("append", OPT_STRING, OFF(struct kernel_def, append), 0, 0, "",
	  "qemu: kernel command line additions (isolcpus=1 ...)", NULL, 0),
	ROW("qemu_args", OPT_STRING, OFF(struct kernel_def, qemu_args), 0, 0, "",
	  "qemu: more arguments for qemu-system-x86_64 or -aarch64 (argv words, no shell): -icount shift=auto ...",
	  NULL, 0),
	ROW("arch", OPT_ENUM, OFF(struct kernel_def, arch), 0, 0, "x86_64",
	  "qemu: the guest's architecture: x86_64 (machine pc) or arm64 (machine virt, TCG only, needs programs and busybox)",
	  "x86_64|arm64", OPT_ECHO_SET),
	ROW("programs", OPT_STRING, OFF(struct kernel_def, programs), 0, 0, "",
	  "qemu: the folder holding latlab and latload built for arch (make static CROSS=aarch64-linux-gnu-: build/aarch64-linux-gnu/static); empty: latlab's own",
	  NULL, OPT_ECHO_SET),
	ROW("busybox", OPT_STRING, OFF(struct kernel_def, busybox), 0, 0, "",
	  "qemu: a static busybox for arch (make kernels: kernels/arm64/busybox); empty: this machine's /bin/busybox",
	  NULL, OPT_ECHO_SET),
	ROW("cpus", OPT_INT, OFF(struct kernel_def, cpus), 1, 64, "2",
	  "qemu: virtual CPUs", NULL, 0),
	ROW("memory", OPT_SIZE, OFF(struct kernel_def, memory), 128LL << 20,
	  64LL << 30, "512M", "qemu: guest memory (results are kept in it)",
	  NULL, 0),
	ROW("numa_nodes", OPT_INT, OFF(struct kernel_def, numa_nodes), 1, 8, "1",
	  "qemu: emulated NUMA nodes, the CPUs and memory split evenly between them (-numa node), so that affinity = node:N and a load's cpus = node:N have nodes to name; 1: none",
	  NULL, OPT_ECHO_SET),
	ROW("accel", OPT_ENUM, OFF(struct kernel_def, accel), 0, 0, "auto",
	  "qemu: kvm, tcg (emulation: only relative figures mean anything) or auto (kvm if a probe boot proves it works)",
	  "auto|kvm|tcg", 0),
	ROW("clock", OPT_ENUM, OFF(struct kernel_def, clock), 0, 0, "host",
	  "qemu: the guest's clock: host (its time is the host's) or icount (qemu counts the instructions it emulates: 1 instruction = 2^icount_shift ns, idle time skipped; TCG, 1 CPU: docs/campaigns.md)",
	  "host|icount", OPT_ECHO_SET),
	ROW("icount_shift", OPT_INT, OFF(struct kernel_def, icount_shift), 0, 10, "0",
	  "qemu, clock = icount: the shift of -icount (an instruction is 2^shift ns of guest time)",
	  NULL, OPT_ECHO_SET),
	ROW("boot_timeout", OPT_DURATION, OFF(struct kernel_def, boot_timeout),
	  NS_PER_S, 3600 * NS_PER_S, "2m",
	  "qemu: longest wait from start to the guest's first word", NULL, 0),
	ROW("timeout", OPT_DURATION, OFF(struct kernel_def, timeout), 0,
	  24 * 3600 * NS_PER_S, "2m",
	  "qemu: a cell's time beyond its duration before the guest counts as hung",
	  NULL, 0),
	ROW("trace", OPT_ENUM, OFF(struct kernel_def, trace), 0, 0, "inherit",
	  "spike captures on this variant: inherit ([trace] mode), off or spikes",
	  "inherit|off|spikes", OPT_ECHO_SET),
	ROW("disk", OPT_ENUM, OFF(struct kernel_def, disk), 0, 0, "on",
	  "qemu: where the guest's file I/O goes (file-read, file-write, the disk load): on (a virtio-blk disk of its own, ext4, mounted at " VM_DISK_MOUNT ", given to each boot whose cells write files) or ram (the initramfs: no block device, said in every output)",
	  "on|ram", OPT_ECHO_SET),
	ROW("disk_size", OPT_SIZE, OFF(struct kernel_def, disk_size), 64LL << 20,
	  1LL << 40, "1G", "qemu, disk = on: the disk's size (a file beside the campaign's vm/ logs, its blocks reserved, made for each boot and removed after it)",
	  NULL, OPT_ECHO_SET),
	ROW("disk_cache", OPT_ENUM, OFF(struct kernel_def, disk_cache), 0, 0, "writeback",
	  "qemu, disk = on: qemu's cache mode for the disk's file (writeback: the host's page cache, flushes honoured; none: O_DIRECT, the host's filesystem must allow it; writethrough, directsync; unsafe: flushes ignored)",
	  "writeback|none|writethrough|directsync|unsafe", OPT_ECHO_SET),
	ROW("net", OPT_ENUM, OFF(struct kernel_def, net), 0, 0, "device",
	  "qemu: where the guest's IP traffic goes (udp-rtt, the net load): device (two virtio-net cards on a hub inside qemu, the peer behind the second in a network namespace of its own: each packet an interrupt, nothing leaves qemu) or loopback (127.0.0.1: softirqs, no device; said in every output)",
	  "device|loopback", OPT_ECHO_SET),
	ROW("boots", OPT_ENUM, OFF(struct kernel_def, boots), 0, 0, "shared",
	  "qemu, clock = icount: shared (a boot holds several rounds, the guests side by side: fewer boots; runs within a boot are not independent where a load carries history, compaction's page cache) or round (a boot every round: every run a boot's first, the runs independent; a boot's time each round). On the host's clock a boot is every round's",
	  "shared|round", OPT_ECHO_SET),
	ROW("settle", OPT_ENUM, OFF(struct kernel_def, settle), 0, 0, "on",
	  "qemu: on (the latlab in the guest measures nothing until the boot's own work is done: the CPUs idle, busy at most 4 % of every 250 ms, for 1 s; at most 60 s, said in the log and sysinfo.ini) or off (from the moment it starts: the boot's transients in the first cells)",
	  "on|off", OPT_ECHO_SET),
	{ 0 },
};

const struct opt trace_options[] = {
	ROW("mode", OPT_ENUM, OFF(struct trace_opts, mode), 0, 0, "off",
	  "spikes: capture the kernel's events around a late wake-up and say why (docs/spikes.md)",
	  "off|spikes", 0),
	ROW("threshold", OPT_DURATION, OFF(struct trace_opts, threshold),
	  NS_PER_US, 10 * NS_PER_S, "500us",
	  "a wake-up later than this triggers a capture", NULL, 0),
	ROW("captures", OPT_INT, OFF(struct trace_opts, captures), 1, 1000, "3",
	  "most captures kept per cell (tracing re-arms after each)", NULL, 0),
	ROW("buffer", OPT_SIZE, OFF(struct trace_opts, buffer), 64LL << 10,
	  1LL << 30, "2MiB",
	  "trace buffer per CPU (its window before a spike grows with it)",
	  NULL, 0),
	ROW("events", OPT_STRING, OFF(struct trace_opts, events), 0, 0, "",
	  "more events, system:event comma list (sched:sched_migrate_task,...)",
	  NULL, 0),
	ROW("timerlat", OPT_ENUM, OFF(struct trace_opts, timerlat), 0, 0, "off",
	  "on: the kernel's timerlat tracer beside the measured threads, on their CPUs at the cell's interval; its IRQ and thread latencies become the metrics timerlat_irq and timerlat_thread (docs/spikes.md)",
	  "off|on", OPT_ECHO_SET),
	ROW("watch", OPT_ENUM, OFF(struct trace_opts, watch), 0, 0, "off",
	  "on: the kernel keeps each measured thread's latencies in its own histograms, as latlab watch does for a program — through BPF where it can, else histogram triggers; bpf or hist: by that one only: the metrics watch_timer (its timer's expiry to it running) and watch_sched (its waking to its running) (docs/own-code.md)",
	  "off|on|bpf|hist", OPT_ECHO_SET),
	{ 0 },
};

const struct opt load_options[] = {
	ROW("type", OPT_STRING, OFF(struct load_def, type), 0, 0, NULL,
	  "load type (see the load list)", NULL, 0),
	ROW("cpus", OPT_STRING, OFF(struct load_def, cpus), 0, 0, "all",
	  "all, housekeeping (CPUs with no measured thread), node:N (the CPUs of NUMA node N) or a CPU list",
	  NULL, 0),
	ROW("instances", OPT_STRING, OFF(struct load_def, instances), 0, 0, "1",
	  "latload processes: a number, or per-cpu (one pinned to each CPU)",
	  NULL, 0),
	ROW("nice", OPT_INT, OFF(struct load_def, nice), -20, 19, "0",
	  "nice value of the load processes", NULL, 0),
	ROW("ready_timeout", OPT_DURATION, OFF(struct load_def, ready_timeout),
	  NS_PER_MS, 600 * NS_PER_S, "10s",
	  "how long every instance may take to report ready", NULL, 0),
	{ 0 },
};

const struct config_section config_sections[] = {
	{ "campaign", campaign_options },
	{ "matrix", matrix_options },
	{ "thresholds", threshold_options },
	{ "thresholds (not [thresholds.METRIC])", missed_options },
	{ "thresholds (the whole campaign)", baseline_options },
	{ "trace", trace_options },
	{ "kernel.NAME", kernel_options },
	{ "load.NAME", load_options },
	{ 0 },
};
