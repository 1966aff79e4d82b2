#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "config.h"
#include "cpulist.h"
#include "files.h"
#include "match.h"
#include "load_ops.h"
#include "matrix.h"
#include "log.h"
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
	  "run every cell this many times (innermost axis)", NULL, 0),
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
	ROW("dl_runtime", OPT_STRING, OFF(struct campaign_opts, dl_runtime), 0, 0, "50%",
	  "policy = deadline: runtime per period, a percentage of the interval or a duration",
	  NULL, OPT_ECHO_SET),
	ROW("dl_deadline", OPT_STRING, OFF(struct campaign_opts, dl_deadline), 0, 0, "100%",
	  "policy = deadline: relative deadline, a percentage of the interval or a duration",
	  NULL, OPT_ECHO_SET),
	ROW("dl_wait", OPT_ENUM, OFF(struct campaign_opts, dl_wait), 0, 0, "sleep",
	  "policy = deadline: wait for the next period with an absolute clock_nanosleep (sleep, as every policy) or end each job with sched_yield and be woken by the deadline scheduler (yield, as cyclicdeadline)",
	  "sleep|yield", OPT_ECHO_SET),
	ROW("boot_attempts", OPT_INT, OFF(struct campaign_opts, boot_attempts),
	  1, 10, "2",
	  "with --reboot: reboots into a kernel variant before its cells are given up",
	  NULL, 0),
	{ 0 },
};

const struct opt matrix_options[] = {
	ROW("kernel", OPT_AXIS_NAME, OFF(struct matrix_opts, kernel), 0, 0,
	  "running", "kernel variants: running, stock, rt or [kernel.NAME]",
	  NULL, 0),
	ROW("load", OPT_AXIS_NAME, OFF(struct matrix_opts, load), 0, 0, "none",
	  "loads: none or [load.NAME]", NULL, 0),
	ROW("workload", OPT_AXIS_NAME, OFF(struct matrix_opts, workload), 0, 0,
	  "timer", "workloads: a registered type or [workload.NAME]", NULL, 0),
	ROW("threads", OPT_AXIS_INT, OFF(struct matrix_opts, threads), 1, 1024,
	  "1", "measured threads, or all (one per CPU of the affinity)", NULL,
	  OPT_ALLOW_ALL),
	ROW("affinity", OPT_AXIS_AFFINITY, OFF(struct matrix_opts, affinity), 0,
	  0, "spread",
	  "spread (one CPU each), all (unpinned), isolated, or a CPU list (0-1+3)",
	  NULL, 0),
	ROW("interval", OPT_AXIS_DURATION, OFF(struct matrix_opts, interval),
	  10 * NS_PER_US, 10 * NS_PER_S, "1ms", "wake-up period", NULL, 0),
	ROW("priority", OPT_AXIS_INT, OFF(struct matrix_opts, priority), 1, 99,
	  "90", "SCHED_FIFO priority of the measured threads", NULL, 0),
	ROW("size", OPT_AXIS_SIZE, OFF(struct matrix_opts, size), 1, 1LL << 30,
	  "4KiB", "I/O size per cycle, for workloads that use it", NULL, 0),
	ROW("policy", OPT_AXIS_NAME, OFF(struct matrix_opts, policy), 0, 0, "fifo",
	  "how the measured threads are scheduled: fifo, rr, deadline (runtime/deadline from [campaign] dl_runtime, dl_deadline; period = interval) or other (priority ignored for deadline and other)",
	  NULL, OPT_ECHO_SET),
	ROW("dma_latency", OPT_AXIS_NAME, OFF(struct matrix_opts, dma_latency), 0, 0, "0",
	  "what latlab writes to /dev/cpu_dma_latency for the cell: a duration (0: no deep C-states) or none (leave the system as it is)",
	  NULL, OPT_ECHO_SET),
	{ 0 },
};

#define THR(f, help) ROW(#f, OPT_DURATION, OFF(struct threshold_opts, f), \
	0, 24 * 3600 * NS_PER_S, NULL, help, NULL, OPT_OPTIONAL)

const struct opt threshold_options[] = {
	ROW("metric", OPT_ENUM, OFF(struct threshold_opts, metric), 0, 0,
	  "wakeup", "metric the latency limits apply to", METRIC_NAMES, 0),
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
const struct opt baseline_options[] = {
	ROW("baseline", OPT_STRING, OFF(struct threshold_opts, baseline), 0, 0, "",
	  "a results tree: the run fails (exit 1) where a row is worse than the baseline's beyond baseline_tolerance and the 95 % interval says so (latlab compare --baseline)",
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
	{ 0 },
};

const struct opt load_options[] = {
	ROW("type", OPT_STRING, OFF(struct load_def, type), 0, 0, NULL,
	  "load type (see the load list)", NULL, 0),
	ROW("cpus", OPT_STRING, OFF(struct load_def, cpus), 0, 0, "all",
	  "all, housekeeping (CPUs with no measured thread) or a CPU list",
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

struct config_entry {
	char section[64];
	char key[64];
	char *value;
	struct srcloc loc;
	struct srcloc section_loc;	/* the [section] header's line */
};

static const char set_file[] = "--set";

static int cfg_fail(char *err, size_t len, const struct srcloc *loc,
		    const char *fmt, ...) PRINTF_LIKE(4, 5);

/* The message after the entry's "FILE:LINE: " (loc NULL: none); -EINVAL. */
static int cfg_fail(char *err, size_t len, const struct srcloc *loc,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail_at(err, len, -EINVAL, loc ? loc->file : NULL, loc ? loc->line : 0,
		 fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* ---- pass 1: collect key/values with their lines ---- */

struct reader {
	FILE *fp;
	int line;
	int section_line;	/* line of the last [section] header */
	int long_line;		/* first line longer than the parser takes */
	int nul_line;		/* first line with a NUL byte */
	int mid_line;		/* the last chunk read did not end the line */
	int long_section;	/* line of a [section] name libinih cut */
	int line_len;		/* bytes of the current line so far */
	struct config *cfg;
	int oom;
};

/* Debian's libinih is built with INI_MAX_SECTION 50 (ini.h keeps it private). */
#define INIH_SECTION_MAX 50

/* The largest config latlab reads (bytes). */
#define CONFIG_MAX (1 << 20)

/*
 * fgets for inih that counts lines, so every entry knows its line. A
 * chunk without its newline continues the same line (an inih built to
 * grow its buffer reads a long line in several). A line longer than inih
 * takes is noted and skipped whole, and a NUL byte is noted (and read as
 * a blank), each with the line it is on.
 */
static char *counting_reader(char *str, int num, void *stream)
{
	struct reader *r = stream;
	int n = 0, c = EOF;

	while (n < num - 1 && (c = getc(r->fp)) != EOF) {
		if (c == '\0') {
			if (!r->nul_line)
				r->nul_line = r->line + !r->mid_line;
			c = ' ';
		}
		str[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0)
		return NULL;
	str[n] = '\0';
	if (!r->mid_line) {
		r->line++;
		r->line_len = 0;
		if (str[strspn(str, " \t")] == '[')
			r->section_line = r->line;
	}
	r->line_len += n;
	r->mid_line = str[n - 1] != '\n';
	if (r->mid_line && r->line_len > ini_max_line - 3) {
		if (!r->long_line)
			r->long_line = r->line;
		while ((c = getc(r->fp)) != EOF && c != '\n')
			;
		r->mid_line = 0;
	}
	return str;
}

static int push_entry(struct config *cfg, const char *section,
		      const char *key, const char *value, struct srcloc loc,
		      struct srcloc section_loc)
{
	struct config_entry *e;

	if (strlen(section) >= sizeof(e->section) ||
	    strlen(key) >= sizeof(e->key))
		return -ENAMETOOLONG;
	e = realloc(cfg->entries, (size_t)(cfg->nentries + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	cfg->entries = e;
	e = &cfg->entries[cfg->nentries];
	snprintf(e->section, sizeof(e->section), "%s", section);
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->value = strdup(value);
	if (!e->value)
		return -ENOMEM;
	e->loc = loc;
	e->section_loc = section_loc;
	cfg->nentries++;
	return 0;
}

static int on_ini_entry(void *user, const char *section, const char *name,
			const char *value)
{
	struct reader *r = user;
	struct srcloc loc = { r->cfg->path, r->line };
	struct srcloc sloc = { r->cfg->path, r->section_line };

	/* libinih keeps a section's first INIH_SECTION_MAX - 1 bytes: a name
	 * that long may have been cut, and must not match a shorter one */
	if (strlen(section) >= INIH_SECTION_MAX - 1) {
		r->long_section = r->section_line;
		return 0;
	}
	int rc = push_entry(r->cfg, section, name, value ? value : "", loc,
			    sloc);

	if (rc == -ENOMEM)
		r->oom = 1;
	return rc == 0;
}

static int read_file(struct config *cfg, char *err, size_t errlen)
{
	struct reader r = { .cfg = cfg };
	struct srcloc loc = { cfg->path, 0 };
	int rc;

	/* a directory, a FIFO or /dev/zero is not a config: refused at once */
	int fd = file_open_regular(cfg->path, CONFIG_MAX, err, errlen);

	if (fd < 0)
		return -EINVAL;
	r.fp = fdopen(fd, "r");
	if (!r.fp) {
		close(fd);
		return cfg_fail(err, errlen, NULL, "%s: %s", cfg->path,
				strerror(errno));
	}
	/* Debian's libinih makes these run-time settings */
	ini_allow_multiline = 0;	/* one entry, one line: exact lines */
	ini_use_stack = 0;
	ini_max_line = 4096;
	/* the heap buffer's size: 200 by default, which cut lines of 199+ */
	ini_initial_alloc = ini_max_line;
	ini_allow_realloc = 0;
	ini_stop_on_first_error = 1;
	ini_allow_no_value = 0;

	/* the reader is both the stream and the handler's user pointer */
	rc = ini_parse_stream(counting_reader, &r, on_ini_entry, &r);
	fclose(r.fp);
	if (r.oom || rc == -2)
		return cfg_fail(err, errlen, NULL, "out of memory");
	if (r.nul_line && (rc <= 0 || r.nul_line <= rc) &&
	    (!r.long_line || r.nul_line <= r.long_line)) {
		loc.line = r.nul_line;
		return cfg_fail(err, errlen, &loc, "a NUL byte: not a text file");
	}
	if (r.long_section) {
		loc.line = r.long_section;
		return cfg_fail(err, errlen, &loc,
				"a [section] name is at most %d characters (the INI reader keeps no more): shorten the name",
				INIH_SECTION_MAX - 2);
	}
	if (r.long_line && (rc <= 0 || r.long_line <= rc)) {
		loc.line = r.long_line;
		return cfg_fail(err, errlen, &loc,
				"line longer than %d characters",
				ini_max_line - 3);
	}
	if (rc > 0) {
		loc.line = rc;
		return cfg_fail(err, errlen, &loc,
				"syntax error: expected [section] or key = value (or a name too long)");
	}
	return 0;
}

static int read_sets(struct config *cfg, const char *const *sets, int nsets,
		     char *err, size_t errlen)
{
	for (int i = 0; i < nsets; i++) {
		struct srcloc loc = { set_file, i + 1 };
		const char *eq = strchr(sets[i], '=');
		char left[160], section[64], key[64];
		const char *dot;
		size_t seclen;

		if (!eq || (size_t)(eq - sets[i]) >= sizeof(left))
			return cfg_fail(err, errlen, &loc,
					"'%s': expected section.key=value",
					sets[i]);
		snprintf(left, sizeof(left), "%.*s", (int)(eq - sets[i]),
			 sets[i]);
		/* kernel.NAME.key, load.NAME.key, workload.NAME.key,
		 * thresholds.METRIC.key (but thresholds.p99.9 is a key) */
		dot = strchr(left, '.');
		if (dot && (strncmp(left, "kernel.", 7) == 0 ||
			    strncmp(left, "load.", 5) == 0 ||
			    strncmp(left, "workload.", 9) == 0))
			dot = strchr(dot + 1, '.');
		else if (dot && strncmp(left, "thresholds.", 11) == 0) {
			const char *next = strchr(dot + 1, '.');
			char metric[32];

			snprintf(metric, sizeof(metric), "%.*s",
				 next ? (int)(next - dot - 1) : 0, dot + 1);
			if (next && metric_parse(metric) >= 0)
				dot = next;
		}
		if (!dot || dot[1] == '\0')
			return cfg_fail(err, errlen, &loc,
					"'%s': expected section.key=value",
					sets[i]);
		seclen = (size_t)(dot - left);
		if (seclen >= sizeof(section) || strlen(dot + 1) >= sizeof(key))
			return cfg_fail(err, errlen, &loc, "'%s': name too long",
					sets[i]);
		snprintf(section, sizeof(section), "%.*s", (int)seclen, left);
		snprintf(key, sizeof(key), "%s", dot + 1);
		const char *value = eq + 1;
		while (isspace((unsigned char)*value))
			value++;
		if (push_entry(cfg, section, key, value, loc, loc))
			return cfg_fail(err, errlen, &loc, "out of memory");
	}
	return 0;
}

/* ---- pass 2: interpret the entries through the tables ---- */

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= CFG_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

/* Index of the def called `name` in an array of defs (each starts with its name). */
static int find_def(const void *arr, int n, size_t elem, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp((const char *)arr + (size_t)i * elem, name) == 0)
			return i;
	return -1;
}

int config_kernel_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->kernel, cfg->nkernels, sizeof(cfg->kernel[0]), name);
}

int config_load_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->load, cfg->nloads, sizeof(cfg->load[0]), name);
}

int config_workload_index(const struct config *cfg, const char *name)
{
	return find_def(cfg->workload, cfg->nworkloads,
			sizeof(cfg->workload[0]), name);
}

/*
 * The definition called `name` in a [kind.NAME] family, created on first
 * sight. Returns its address (each def struct starts with its name), or
 * NULL with err set.
 */
static void *get_def(void *arr, int *n, size_t elem, const char *name,
		     const struct srcloc *loc, const char *kind, char *err,
		     size_t errlen)
{
	char *p = arr;
	int i = find_def(arr, *n, elem, name);

	if (i >= 0)
		return p + (size_t)i * elem;
	if (!valid_name(name)) {
		cfg_fail(err, errlen, loc,
			 "[%s.%s]: a name is letters, digits, '_', '.', '-' (at most %d)",
			 kind, name, CFG_NAME_MAX - 1);
		return NULL;
	}
	if (*n >= CFG_DEFS_MAX) {
		cfg_fail(err, errlen, loc, "more than %d [%s.*] sections",
			 CFG_DEFS_MAX, kind);
		return NULL;
	}
	p += (size_t)(*n)++ * elem;
	memset(p, 0, elem);
	snprintf(p, CFG_NAME_MAX, "%s", name);
	return p;
}

static int set_option(const struct opt *table, void *base,
		      const struct config_entry *e, char *err, size_t errlen)
{
	const struct opt *o = opt_find(table, e->key);
	char why[256];

	if (!o)
		return cfg_fail(err, errlen, &e->loc,
				"unknown key '%s' in [%s] (see latlab list)",
				e->key, e->section);
	if (opt_parse(o, base, e->value, why, sizeof(why)) != 0)
		return cfg_fail(err, errlen, &e->loc, "%s", why);
	return 0;
}

static int apply_entry(struct config *cfg, const struct config_entry *e,
		       char *err, size_t errlen)
{
	const char *s = e->section;
	void *def;

	/* values are echoed into campaign.ini and cell.ini: one line each */
	for (const char *c = e->value; *c; c++)
		if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
			return cfg_fail(err, errlen, &e->loc,
					"%s: a control character (0x%02x) in the value",
					e->key, (unsigned char)*c);
	if (strcmp(s, "campaign") == 0)
		return set_option(campaign_options, &cfg->campaign, e, err,
				  errlen);
	if (strcmp(s, "matrix") == 0) {
		struct matrix_opts *m = &cfg->matrix;
		int rc = set_option(matrix_options, m, e, err, errlen);
		const struct opt *o = opt_find(matrix_options, e->key);

		if (rc == 0) {
			struct axis *ax = (struct axis *)((char *)m +
							  o->offset);
			ax->loc = e->loc;
		}
		return rc;
	}
	if (strcmp(s, "thresholds") == 0) {
		cfg->has_thresholds = 1;
		if (strcmp(e->key, "baseline") == 0)
			cfg->baseline_loc = e->loc;
		if (opt_find(baseline_options, e->key))
			return set_option(baseline_options, &cfg->thresholds, e, err, errlen);
		return set_option(threshold_options, &cfg->thresholds, e, err,
				  errlen);
	}
	if (strncmp(s, "thresholds.", 11) == 0) {
		int m = opt_choice_index(METRIC_NAMES, s + 11);

		if (m < 0)
			return cfg_fail(err, errlen, &e->section_loc,
					"unknown section [%s]: thresholds per metric are [thresholds.M] for M one of %s",
					s, METRIC_NAMES);
		if (strncmp(e->key, "baseline", 8) == 0)
			return cfg_fail(err, errlen, &e->loc,
					"%s belongs in [thresholds], not in [%s]: a baseline judges the whole campaign",
					e->key, s);
		cfg->has_metric_thresholds[m] = 1;
		/* the table without its first row, metric: the section names it */
		return set_option(threshold_options + 1,
				  &cfg->metric_thresholds[m], e, err, errlen);
	}
	if (strcmp(s, "trace") == 0) {
		cfg->has_trace = 1;
		if (!cfg->trace_loc.file || strcmp(e->key, "mode") == 0)
			cfg->trace_loc = strcmp(e->key, "mode") == 0 ? e->loc : e->section_loc;
		return set_option(trace_options, &cfg->trace, e, err, errlen);
	}
	if (strncmp(s, "kernel.", 7) == 0) {
		def = get_def(cfg->kernel, &cfg->nkernels,
			      sizeof(cfg->kernel[0]), s + 7, &e->loc, "kernel",
			      err, errlen);
		if (!def)
			return -EINVAL;
		struct kernel_def *k = def;
		if (!k->loc.file) {
			opt_defaults(kernel_options, k);
			k->loc = e->section_loc;
		}
		return set_option(kernel_options, k, e, err, errlen);
	}
	if (strncmp(s, "load.", 5) == 0) {
		def = get_def(cfg->load, &cfg->nloads, sizeof(cfg->load[0]),
			      s + 5, &e->loc, "load", err, errlen);
		if (!def)
			return -EINVAL;
		struct load_def *l = def;
		if (!l->loc.file) {
			opt_defaults(load_options, l);
			l->loc = e->section_loc;
		}
		if (opt_find(load_options, e->key))
			return set_option(load_options, l, e, err, errlen);
		return 0;	/* type options: checked once the type is known */
	}
	if (strncmp(s, "workload.", 9) == 0) {
		def = get_def(cfg->workload, &cfg->nworkloads,
			      sizeof(cfg->workload[0]), s + 9, &e->loc,
			      "workload", err, errlen);
		if (!def)
			return -EINVAL;
		struct workload_def *w = def;
		if (!w->loc.file)
			w->loc = e->section_loc;
		if (strcmp(e->key, "type") == 0) {
			if (strlen(e->value) >= sizeof(w->type))
				return cfg_fail(err, errlen, &e->loc,
						"type too long");
			snprintf(w->type, sizeof(w->type), "%s", e->value);
		}
		return 0;	/* options: checked once the type is known */
	}
	return cfg_fail(err, errlen, &e->section_loc,
			"unknown section [%s]: expected campaign, matrix, thresholds, thresholds.METRIC, trace, kernel.NAME, load.NAME or workload.NAME",
			s);
}

struct srcloc config_key_loc(const struct config *cfg, const char *section,
			     const char *key, struct srcloc fallback)
{
	for (int i = cfg->nentries - 1; i >= 0; i--)
		if (strcmp(cfg->entries[i].section, section) == 0 &&
		    strcmp(cfg->entries[i].key, key) == 0)
			return cfg->entries[i].loc;
	return fallback;
}

static int resolve_workload(struct config *cfg, struct workload_def *w,
			    char *err, size_t errlen)
{
	char section[CFG_NAME_MAX + 16];
	struct srcloc tloc;

	snprintf(section, sizeof(section), "workload.%s", w->name);
	tloc = config_key_loc(cfg, section, "type", w->loc);
	if (!w->type[0])	/* an empty type = is named on its own line */
		return cfg_fail(err, errlen, &tloc,
				tloc.line != w->loc.line ? "[%s] type is empty" : "[%s] has no 'type ='",
				section);
	w->ops = workload_find(w->type);
	if (!w->ops)
		return cfg_fail(err, errlen, &tloc,
				"unknown workload type '%s' (latlab list shows them)",
				w->type);
	w->opts = calloc(1, w->ops->opts_size ? w->ops->opts_size : 1);
	if (!w->opts)
		return cfg_fail(err, errlen, NULL, "out of memory");
	opt_defaults(w->ops->options, w->opts);
	for (int i = 0; i < cfg->nentries; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (strcmp(e->section, section) != 0 ||
		    strcmp(e->key, "type") == 0)
			continue;
		if (!opt_find(w->ops->options, e->key))
			return cfg_fail(err, errlen, &e->loc,
					"unknown key '%s' for workload type '%s' (see latlab list)",
					e->key, w->type);
		if (set_option(w->ops->options, w->opts, e, err, errlen))
			return -EINVAL;
	}
	char why[256];

	if (w->ops->check && w->ops->check(w->opts, why, sizeof(why)))
		return cfg_fail(err, errlen, &w->loc, "[workload.%s]: %s", w->name, why);
	/* against every interval of the matrix, at the offending key's line */
	for (int i = 0; w->ops->check_period && i < cfg->matrix.interval.n; i++) {
		const char *key = "type";

		if (w->ops->check_period(w->opts, cfg->matrix.interval.v[i], &key,
					 why, sizeof(why))) {
			struct srcloc kloc = config_key_loc(cfg, section, key, w->loc);

			return cfg_fail(err, errlen, &kloc, "[workload.%s] %s with interval = %s",
					w->name, why, cfg->matrix.interval.s[i]);
		}
	}
	return 0;
}

/* The CPU list's syntax only: whether its CPUs are online is preflight's. */
static int check_load_cpus(const struct load_def *l, struct srcloc loc,
			   char *err, size_t errlen)
{
	cpu_set_t set;

	if (strcmp(l->cpus, "all") != 0 && strcmp(l->cpus, "housekeeping") != 0 &&
	    (cpulist_parse(l->cpus, &set) || CPU_COUNT(&set) == 0))
		return cfg_fail(err, errlen, &loc,
				"cpus = '%s': expected all, housekeeping or a CPU list",
				l->cpus);
	return 0;
}

static int resolve_load(struct config *cfg, struct load_def *l, char *err,
			size_t errlen)
{
	char section[CFG_NAME_MAX + 16], why[256];
	struct srcloc tloc;
	int64_t n = 1;

	snprintf(section, sizeof(section), "load.%s", l->name);
	tloc = config_key_loc(cfg, section, "type", l->loc);
	if (!l->type[0])
		return cfg_fail(err, errlen, &tloc,
				tloc.line != l->loc.line ? "[%s] type is empty" : "[%s] has no 'type ='",
				section);
	if (strcmp(l->type, "none") != 0) {
		l->ops = load_find(l->type);
		if (!l->ops)
			return cfg_fail(err, errlen, &tloc,
					"unknown load type '%s' (latlab list shows them)",
					l->type);
	}
	l->cpus_loc = config_key_loc(cfg, section, "cpus", l->loc);
	if (check_load_cpus(l, l->cpus_loc, err, errlen))
		return -EINVAL;
	struct srcloc iloc = config_key_loc(cfg, section, "instances", l->loc);
	if (strcmp(l->instances, "per-cpu") != 0 &&
	    (units_parse_int(l->instances, &n) || n < 1 || n > 1024))
		return cfg_fail(err, errlen, &iloc,
				"instances = '%s': expected a number (1 to 1024) or per-cpu",
				l->instances);
	const struct opt *table = l->ops ? l->ops->options : NULL;
	size_t size = l->ops && l->ops->opts_size ? l->ops->opts_size : 1;

	l->opts = calloc(1, size);
	if (!l->opts)
		return cfg_fail(err, errlen, NULL, "out of memory");
	opt_defaults(table, l->opts);
	for (int i = 0; i < cfg->nentries; i++) {
		const struct config_entry *e = &cfg->entries[i];

		if (strcmp(e->section, section) != 0 ||
		    opt_find(load_options, e->key))
			continue;
		if (!opt_find(table, e->key))
			return cfg_fail(err, errlen, &e->loc,
					"unknown key '%s' for load type '%s' (see latlab list)",
					e->key, l->type);
		if (set_option(table, l->opts, e, err, errlen))
			return -EINVAL;
	}
	if (l->ops && l->ops->check && l->ops->check(l->opts, why, sizeof(why)))
		return cfg_fail(err, errlen, &l->loc, "[%s]: %s", section, why);
	/* per-cpu: the CPUs are the machine's; where_fits counts them */
	int64_t workers = load_workers(l->ops, l->opts);
	if (strcmp(l->instances, "per-cpu") != 0 && n * workers > LOAD_MAX_WORKERS)
		return cfg_fail(err, errlen, &iloc,
				"[%s] instances = %lld x %lld workers each = %lld: at most %d in all",
				section, (long long)n, (long long)workers,
				(long long)(n * workers), LOAD_MAX_WORKERS);
	return 0;
}

/* Axis names that are built in get a definition of their own. */
static int add_builtin_defs(struct config *cfg, char *err, size_t errlen)
{
	const struct matrix_opts *m = &cfg->matrix;

	for (int i = 0; i < m->kernel.n; i++) {
		const char *name = m->kernel.s[i];
		const char *match = kernel_builtin_match(name);
		struct kernel_def *k;

		if (config_kernel_index(cfg, name) >= 0)
			continue;
		if (!match)
			return cfg_fail(err, errlen, &m->kernel.loc,
					"kernel variant '%s' has no [kernel.%s] section (built in: running, stock, rt)",
					name, name);
		k = get_def(cfg->kernel, &cfg->nkernels,
			    sizeof(cfg->kernel[0]), name, &m->kernel.loc,
			    "kernel", err, errlen);
		if (!k)
			return -EINVAL;
		opt_defaults(kernel_options, k);
		snprintf(k->match, sizeof(k->match), "%s", match);
		k->loc = m->kernel.loc;
	}
	for (int i = 0; i < m->load.n; i++) {
		const char *name = m->load.s[i];
		struct load_def *l;

		if (config_load_index(cfg, name) >= 0)
			continue;
		if (strcmp(name, "none") != 0)
			return cfg_fail(err, errlen, &m->load.loc,
					"load '%s' has no [load.%s] section (built in: none)",
					name, name);
		l = get_def(cfg->load, &cfg->nloads, sizeof(cfg->load[0]),
			    name, &m->load.loc, "load", err, errlen);
		if (!l)
			return -EINVAL;
		opt_defaults(load_options, l);
		snprintf(l->type, sizeof(l->type), "none");
		l->loc = m->load.loc;
	}
	for (int i = 0; i < m->workload.n; i++) {
		const char *name = m->workload.s[i];
		struct workload_def *w;

		if (config_workload_index(cfg, name) >= 0)
			continue;
		if (!workload_find(name))
			return cfg_fail(err, errlen, &m->workload.loc,
					"workload '%s' is neither a workload type nor a [workload.%s] section (latlab list shows the types)",
					name, name);
		w = get_def(cfg->workload, &cfg->nworkloads,
			    sizeof(cfg->workload[0]), name, &m->workload.loc,
			    "workload", err, errlen);
		if (!w)
			return -EINVAL;
		snprintf(w->type, sizeof(w->type), "%s", name);
		w->loc = m->workload.loc;
	}
	return 0;
}

const char *policy_name(int policy)
{
	static const char *const names[] = { "fifo", "rr", "deadline", "other" };

	return policy >= 0 && policy <= POL_OTHER ? names[policy] : "?";
}

int config_dl_value(const char *spec, int64_t period, int64_t *ns)
{
	char *end;
	size_t n = strlen(spec);

	if (n > 1 && spec[n - 1] == '%') {
		double pct = strtod(spec, &end);

		if (end != spec + n - 1 || !(pct > 0 && pct <= 100))
			return -EINVAL;
		*ns = (int64_t)((double)period * pct / 100);
		return *ns > 0 ? 0 : -EINVAL;
	}
	return units_parse_duration(spec, ns) == 0 && *ns > 0 ? 0 : -EINVAL;
}

/* Where [kernel.NAME] key was set (the last one wins), or the variant's own line. */
struct srcloc config_kernel_loc(const struct config *cfg, const struct kernel_def *k,
				const char *key)
{
	char sec[CFG_NAME_MAX + 8];

	snprintf(sec, sizeof(sec), "kernel.%s", k->name);
	return config_key_loc(cfg, sec, key, k->loc);
}

/* [kernel.NAME] KEY was written (in the file or a --set). */
static int kernel_key_set(const struct config *cfg, const struct kernel_def *k,
			  const char *key)
{
	struct srcloc loc = config_kernel_loc(cfg, k, key);

	return loc.line != k->loc.line || loc.file != k->loc.file;
}

/*
 * A guest of another architecture: emulated (KVM runs only this
 * machine's own), with programs and a busybox built for it, since this
 * machine's are not.
 */
static int check_arch(const struct config *cfg, const struct kernel_def *k,
		      char *err, size_t errlen)
{
	struct srcloc loc;

	if (k->arch != VM_ARCH_ARM64)
		return 0;
	if (k->accel == ACCEL_KVM && k->arch != VM_ARCH_HOST) {
		loc = config_kernel_loc(cfg, k, "accel");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 runs under TCG here (KVM runs only this machine's own architecture): accel = kvm cannot be",
				k->name);
	}
	loc = config_kernel_loc(cfg, k, "arch");
	if (!k->programs[0])
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 needs 'programs =': the folder with latlab and latload built for arm64 (make static CROSS=aarch64-linux-gnu- puts them in build/aarch64-linux-gnu/static)",
				k->name);
	if (!k->busybox[0])
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] arch = arm64 needs 'busybox =': a static arm64 busybox (make kernels puts one in kernels/arm64/busybox)",
				k->name);
	return 0;
}

/*
 * A kernel variant's own keys, each check in turn: a qemu variant's image
 * and architecture, qemu_args as argv words, match.
 */
/*
 * clock = icount: qemu counts instructions only when it emulates them
 * (TCG), and with more than one vCPU its round-robin between them is what
 * the figures would show (docs/campaigns.md, "An instruction-counted
 * clock"): one CPU (the default then), no -icount of qemu_args' own.
 */
static int check_clock(const struct config *cfg, struct kernel_def *k,
		       char *err, size_t errlen)
{
	struct srcloc loc;

	if (k->clock != CLOCK_ICOUNT) {
		if (kernel_key_set(cfg, k, "icount_shift")) {
			loc = config_kernel_loc(cfg, k, "icount_shift");
			return cfg_fail(err, errlen, &loc,
					"[kernel.%s] icount_shift is for clock = icount", k->name);
		}
		return 0;
	}
	if (k->runner != RUNNER_QEMU) {
		loc = config_kernel_loc(cfg, k, "clock");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount is qemu's: it needs runner = qemu", k->name);
	}
	if (k->accel == ACCEL_KVM) {
		loc = config_kernel_loc(cfg, k, "accel");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount runs under TCG only (qemu counts the instructions it emulates): accel = kvm cannot be",
				k->name);
	}
	if (!kernel_key_set(cfg, k, "cpus"))
		k->cpus = 1;
	if (k->cpus > 1) {
		loc = config_kernel_loc(cfg, k, "cpus");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount takes cpus = 1: with more, an x86 guest hangs bringing up CPU 1, and an arm64 one shows qemu's turn-taking between its vCPUs, not the kernel (docs/campaigns.md)",
				k->name);
	}
	if (strstr(k->qemu_args, "-icount")) {
		loc = config_kernel_loc(cfg, k, "qemu_args");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] clock = icount sets -icount itself: take it out of qemu_args",
				k->name);
	}
	return 0;
}

static int check_kernel(const struct config *cfg, struct kernel_def *k,
			char *err, size_t errlen)
{
	struct srcloc loc;
	char **words;
	int nwords, rc;

	if (!k->match[0] && k->runner == RUNNER_QEMU)
		/* the guest checks what it booted against it */
		snprintf(k->match, sizeof(k->match), "%s",
			 kernel_builtin_match(k->name) ? kernel_builtin_match(k->name) : "any");
	if (k->runner == RUNNER_QEMU && !k->image[0]) {
		loc = config_kernel_loc(cfg, k, "image");
		return cfg_fail(err, errlen, &loc,
				"[kernel.%s] runner = qemu needs 'image =' (a bzImage or vmlinuz)%s",
				k->name, loc.line != k->loc.line ? ": it is empty" : "");
	}
	if (k->runner == RUNNER_QEMU && (rc = check_arch(cfg, k, err, errlen)) != 0)
		return rc;
	if ((rc = check_clock(cfg, k, err, errlen)) != 0)
		return rc;
	if (k->qemu_args[0]) {
		if (argv_split(k->qemu_args, &words, &nwords) != 0) {
			loc = config_kernel_loc(cfg, k, "qemu_args");
			return cfg_fail(err, errlen, &loc,
					"qemu_args = '%s': an unclosed quote or a trailing backslash",
					k->qemu_args);
		}
		free(words);
	}
	if (!k->match[0])
		return cfg_fail(err, errlen, &k->loc, "[kernel.%s] has no 'match ='", k->name);
	if (kernel_match_check(k->match) != 0) {
		loc = config_kernel_loc(cfg, k, "match");
		return cfg_fail(err, errlen, &loc,
				"match = '%s': expected [!]preempt:rt|full|voluntary|none|lazy|dynamic, [!]release:GLOB or any",
				k->match);
	}
	return 0;
}

/*
 * The policy and dma_latency axes: their items' values (a policy; -1 for
 * none or microseconds), and the deadline options against every interval.
 */
static int check_policy_axes(struct config *cfg, char *err, size_t errlen)
{
	struct axis *pol = &cfg->matrix.policy, *dma = &cfg->matrix.dma_latency;
	struct srcloc loc;
	int deadline = 0;

	for (int i = 0; i < pol->n; i++) {
		int p = opt_choice_index(POLICY_NAMES, pol->s[i]);

		if (p < 0)
			return cfg_fail(err, errlen, &pol->loc,
					"policy = '%s': expected fifo, rr, deadline or other",
					pol->s[i]);
		pol->v[i] = p;
		deadline |= p == POL_DEADLINE;
	}
	for (int i = 0; i < dma->n; i++) {
		int64_t ns;

		if (strcmp(dma->s[i], "none") == 0 || strcmp(dma->s[i], "0") == 0) {
			dma->v[i] = dma->s[i][0] == '0' ? 0 : -1;	/* 0 needs no unit */
			continue;
		}
		if (units_parse_duration(dma->s[i], &ns) != 0 || ns < 0 ||
		    ns / NS_PER_US > INT32_MAX)
			return cfg_fail(err, errlen, &dma->loc,
					"dma_latency = '%s': expected none or a duration (0, 10us, 1ms)",
					dma->s[i]);
		dma->v[i] = ns / NS_PER_US;
	}
	for (int i = 0; deadline && i < cfg->matrix.interval.n; i++) {
		int64_t period = cfg->matrix.interval.v[i], rt, dl;
		const char *bad = config_dl_value(cfg->campaign.dl_runtime, period, &rt) ?
			"dl_runtime" : config_dl_value(cfg->campaign.dl_deadline, period, &dl) ?
			"dl_deadline" : NULL;

		if (!bad && !(rt <= dl && dl <= period))
			bad = "dl_runtime";
		if (bad) {
			loc = config_key_loc(cfg, "campaign", bad, pol->loc);
			return cfg_fail(err, errlen, &loc,
					"policy = deadline with interval %lld ns: %s must be a percentage (1%%-100%%) or a duration, and runtime <= deadline <= period (dl_runtime = %s, dl_deadline = %s)",
					(long long)period, bad, cfg->campaign.dl_runtime,
					cfg->campaign.dl_deadline);
		}
	}
	return 0;
}

int config_trace_mode(const struct config *cfg, int k)
{
	if (k >= 0 && k < cfg->nkernels && cfg->kernel[k].trace != KTRACE_INHERIT)
		return cfg->kernel[k].trace == KTRACE_SPIKES ? TRACE_SPIKES : TRACE_OFF;
	return cfg->trace.mode;
}

/* events = system:event, ...: the names' shape (whether they exist is the run's) */
static int check_trace_events(const struct config *cfg, char *err, size_t errlen)
{
	const char *p = cfg->trace.events;
	char word[OPT_STR_MAX];

	while (opt_list_next(&p, word, sizeof(word), 1)) {
		const char *w = word, *colon = strchr(w, ':');

		int ok = colon && colon != w && colon[1] && !strchr(colon + 1, ':');
		for (const char *c = w; ok && *c; c++)
			ok = isalnum((unsigned char)*c) || *c == '_' || *c == ':';
		if (!ok) {
			struct srcloc loc = config_key_loc(cfg, "trace", "events", (struct srcloc){ 0 });

			return cfg_fail(err, errlen, &loc,
					"events: '%s' is not system:event (letters, digits, '_'), e.g. sched:sched_migrate_task",
					w);
		}
	}
	return 0;
}

/* The product of the axes (and repeat): at most MATRIX_MAX_CELLS cells. */
static int check_matrix_size(const struct config *cfg, char *err, size_t errlen)
{
	const struct matrix_opts *m = &cfg->matrix;
	const struct axis *axes[MATRIX_AXES];
	long double cells = (long double)cfg->campaign.repeat;
	struct srcloc loc = config_key_loc(cfg, "campaign", "repeat", (struct srcloc){ 0 });

	matrix_axes(cfg, axes);
	for (int a = 0; a < MATRIX_AXES; a++) {
		cells *= axes[a]->n;
		if (axes[a]->n > 1 && axes[a]->loc.file)
			loc = axes[a]->loc;	/* the last axis that multiplies */
	}
	if (cells <= MATRIX_MAX_CELLS)
		return 0;
	return cfg_fail(err, errlen, &loc,
			"the matrix has %.0Lf cells (%d kernels x %d loads x %d workloads x %d threads x %d affinities x %d intervals x %d priorities x %d sizes x %d policies x %d dma_latencies x repeat %lld): at most %d",
			cells, m->kernel.n, m->load.n, m->workload.n, m->threads.n,
			m->affinity.n, m->interval.n, m->priority.n, m->size.n,
			m->policy.n, m->dma_latency.n,
			(long long)cfg->campaign.repeat, MATRIX_MAX_CELLS);
}

static int validate(struct config *cfg, char *err, size_t errlen)
{
	struct srcloc loc;
	int rc;

	if (!valid_name(cfg->campaign.name)) {
		loc = config_key_loc(cfg, "campaign", "name", (struct srcloc){ 0 });
		return cfg_fail(err, errlen, &loc,
				"campaign name '%s': use letters, digits, '_', '.', '-' (at most %d; not . or ..)",
				cfg->campaign.name, CFG_NAME_MAX - 1);
	}
	if (!cfg->campaign.output[0]) {
		loc = config_key_loc(cfg, "campaign", "output", (struct srcloc){ 0 });
		return cfg_fail(err, errlen, &loc, "output is empty");
	}
	if (cfg->campaign.timeline % NS_PER_S) {
		loc = config_key_loc(cfg, "campaign", "timeline", (struct srcloc){ 0 });
		return cfg_fail(err, errlen, &loc,
				"timeline = %lld ns: whole seconds (10s, 1m), or 0s for none",
				(long long)cfg->campaign.timeline);
	}
	rc = add_builtin_defs(cfg, err, errlen);
	if (rc == 0)
		rc = check_trace_events(cfg, err, errlen);
	if (rc == 0)
		rc = check_policy_axes(cfg, err, errlen);
	for (int i = 0; rc == 0 && i < cfg->nkernels; i++)
		rc = check_kernel(cfg, &cfg->kernel[i], err, errlen);
	for (int i = 0; rc == 0 && i < cfg->nloads; i++)
		rc = resolve_load(cfg, &cfg->load[i], err, errlen);
	for (int i = 0; rc == 0 && i < cfg->nworkloads; i++)
		rc = resolve_workload(cfg, &cfg->workload[i], err, errlen);
	return rc ? rc : check_matrix_size(cfg, err, errlen);
}

int config_load(struct config *cfg, const char *path,
		const char *const *sets, int nsets, char *err, size_t errlen)
{
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	opt_defaults(campaign_options, &cfg->campaign);
	opt_defaults(matrix_options, &cfg->matrix);
	opt_defaults(threshold_options, &cfg->thresholds);
	opt_defaults(baseline_options, &cfg->thresholds);
	opt_defaults(trace_options, &cfg->trace);
	for (int m = 0; m < METRIC_COUNT; m++)
		opt_defaults(threshold_options + 1, &cfg->metric_thresholds[m]);
	if (path) {
		if (strlen(path) >= sizeof(cfg->path))
			return cfg_fail(err, errlen, NULL, "path too long");
		snprintf(cfg->path, sizeof(cfg->path), "%s", path);
		rc = read_file(cfg, err, errlen);
	}
	if (rc == 0)
		rc = read_sets(cfg, sets, nsets, err, errlen);
	for (int i = 0; rc == 0 && i < cfg->nentries; i++)
		rc = apply_entry(cfg, &cfg->entries[i], err, errlen);
	if (rc == 0)
		rc = validate(cfg, err, errlen);
	return rc;
}

void config_free(struct config *cfg)
{
	for (int i = 0; i < cfg->nworkloads; i++)
		free(cfg->workload[i].opts);
	for (int i = 0; i < cfg->nloads; i++)
		free(cfg->load[i].opts);
	for (int i = 0; i < cfg->nentries; i++)
		free(cfg->entries[i].value);
	free(cfg->entries);
	cfg->entries = NULL;
	cfg->nentries = cfg->nworkloads = cfg->nloads = 0;
}

void config_write_ini(FILE *fp, const struct config *cfg)
{
	fprintf(fp, "[campaign]\n");
	opt_write_ini(fp, campaign_options, &cfg->campaign);
	fprintf(fp, "\n[matrix]\n");
	opt_write_ini(fp, matrix_options, &cfg->matrix);
	if (cfg->has_thresholds) {
		fprintf(fp, "\n[thresholds]\n");
		opt_write_ini(fp, threshold_options, &cfg->thresholds);
		if (cfg->thresholds.baseline[0])	/* older configs keep their hash */
			opt_write_ini(fp, baseline_options, &cfg->thresholds);
	}
	for (int m = 0; m < METRIC_COUNT; m++) {
		if (!cfg->has_metric_thresholds[m])
			continue;
		fprintf(fp, "\n[thresholds.%s]\n", metric_name(m));
		opt_write_ini(fp, threshold_options + 1, &cfg->metric_thresholds[m]);
	}
	if (cfg->has_trace) {
		fprintf(fp, "\n[trace]\n");
		opt_write_ini(fp, trace_options, &cfg->trace);
	}
	for (int i = 0; i < cfg->nkernels; i++) {
		fprintf(fp, "\n[kernel.%s]\n", cfg->kernel[i].name);
		opt_write_ini(fp, kernel_options, &cfg->kernel[i]);
	}
	for (int i = 0; i < cfg->nloads; i++) {
		const struct load_def *l = &cfg->load[i];

		fprintf(fp, "\n[load.%s]\n", l->name);
		opt_write_ini(fp, load_options, l);
		if (l->ops)
			opt_write_ini(fp, l->ops->options, l->opts);
	}
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct workload_def *w = &cfg->workload[i];

		fprintf(fp, "\n[workload.%s]\ntype = %s\n", w->name, w->type);
		opt_write_ini(fp, w->ops->options, w->opts);
	}
}

uint64_t config_hash(const struct config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	uint64_t h = 1469598103934665603ULL;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return 0;
	config_write_ini(fp, cfg);
	fclose(fp);
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 1099511628211ULL;
	}
	free(text);
	return h;
}
