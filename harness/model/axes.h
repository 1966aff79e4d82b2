/*
 * The axes of the matrix, one row each, in the matrix's order (the host
 * is an axis of the readers only; repeat, last, is no axis). Included by
 * axis.h, which makes the TAXIS_ enum and the named members of a cell and
 * of [matrix] from it, by axis.c, which makes the table, and by
 * config/config_options.c, which makes [matrix]'s options: a new axis is
 * a row here (at the end: the ids, cells.csv and titles of older trees
 * stay as they were, its `missing` and `hidden` keeping it out of them;
 * the enum of its words' values, if it takes words, in the block below)
 * and, when it checks or changes the machine, a file of its own in
 * measure/ registered in measure/axis_ops.c (docs/architecture.md,
 * "Adding an axis").
 *
 * AXIS(ENUM, member,
 *      AXIS_IS(.field = value, ...),		struct axis_def's fields (axis.h)
 *      AXIS_OPTION(.field = value, ...),	its [matrix] option's (struct opt,
 *						common/options.h; the key and the
 *						offset are the member's)
 *      values)					the words it takes, or NULL
 *
 * Each part names its fields; a field a kind of axis has no use for is
 * left out (an axis of words has no .min and .max; .hidden only where a
 * title leaves out the axis's default). Three fields that may hold the
 * same word mean three things: AXIS_OPTION's .def is what [matrix]
 * takes when the key is not given; AXIS_IS's .missing what a tree
 * written before the axis holds (its column missing or empty), .hidden
 * the value a row's title does not say. .id_max bounds the axis's part
 * of a cell's id: AXIS_ID_WORD for a word, AXIS_ID_LONG for a number
 * or a name (axis.h). values: AXIS_WORDS(AXIS_WORD(word, value, what
 * it does), ...), from which its parse, its list of values, "did you
 * mean", completion and the docs are made; NULL for an axis of names or
 * numbers. READER_AXIS(ENUM, member, AXIS_IS(...)): an axis of the
 * readers only, no [matrix] key (an includer that wants it defines
 * READER_AXIS too; one that does not, as an empty macro). An includer
 * defines AXIS_IS and AXIS_OPTION as it needs them: as their fields, or
 * as nothing.
 */
#ifndef LATLAB_AXES_VALUES
#define LATLAB_AXES_VALUES
/*
 * The values of the axes that take words, as their rows' AXIS_WORDS
 * store them: declared once, at the first include (axis.h's).
 */
/* policy: how a measured thread is scheduled */
enum cell_policy { POL_FIFO, POL_RR, POL_DEADLINE, POL_OTHER };
/* wakeup: how a measured thread sleeps to its period (measure/wakeup.h) */
enum wakeup_method { WAKE_ABS, WAKE_REL, WAKE_POSIX_TIMER, WAKE_TIMERFD, WAKE_POLL, WAKE_PSELECT };
/* clock: the clock it sleeps on and is timed by; aux0-aux7 from WCLOCK_AUX0 (CLOCK_AUX + N, Linux 6.17) */
enum wakeup_clock { WCLOCK_MONOTONIC, WCLOCK_REALTIME, WCLOCK_TAI, WCLOCK_AUX0 };
/* isolation: the measured CPUs as they are, kept by cpusets, with the interrupts off them too */
enum isolation_kind { ISO_NONE, ISO_CPUSET, ISO_CPUSET_IRQS };
/* idle: deepest:N is N (0 to IDLE_DEEPEST_MAX); any and poll below it */
#define IDLE_ANY (-1)
#define IDLE_POLL (-2)
#define IDLE_DEEPEST_MAX 15
/* numa: where the measured threads' memory lives; node:N's N in config's numa_node */
enum numa_kind { NUMA_NONE, NUMA_LOCAL, NUMA_REMOTE, NUMA_INTERLEAVE, NUMA_NODE };
/* throttle: RT throttling as the machine has it, or off for the cell (measure/throttle.c) */
enum throttle_kind { THROTTLE_DEFAULT, THROTTLE_OFF };
/* smt: the measured CPUs' SMT siblings as they are, or offline for the cell (measure/smt.c) */
enum smt_kind { SMT_ON, SMT_OFF };
#endif

AXIS(KERNEL, kernel,
     AXIS_IS(.plural = "kernels", .column = "kernel", .kind = AXK_NAME, .id = "",
	     .id_max = AXIS_ID_LONG, .words_at = 0),
     AXIS_OPTION(.type = OPT_AXIS_NAME, .def = "running",
		 .help = "kernel variants: running, stock, rt or [kernel.NAME]"),
     NULL)
/* the host: a machine and release (compare --axis host), which the matrix never varies */
READER_AXIS(HOST, host,
     AXIS_IS(.plural = "hosts", .kind = AXK_HOST, .words_at = -1))
AXIS(LOAD, load,
     AXIS_IS(.plural = "loads", .column = "load", .kind = AXK_NAME, .id = "", .id_always = 1,
	     .title = "%s", .label = "%s", .words_at = 1),
     AXIS_OPTION(.type = OPT_AXIS_NAME, .def = "none", .help = "loads: none or [load.NAME]"),
     NULL)
AXIS(WORKLOAD, workload,
     AXIS_IS(.plural = "workloads", .column = "workload", .kind = AXK_NAME, .id = "",
	     .id_always = 1, .title = "%s", .label = "%s", .words_at = 2),
     AXIS_OPTION(.type = OPT_AXIS_NAME, .def = "timer",
		 .help = "workloads: a registered type or [workload.NAME]"),
     NULL)
AXIS(THREADS, threads,
     AXIS_IS(.plural = "threads", .column = "threads", .kind = AXK_COUNT, .id = "t",
	     .id_always = 1, .title = "threads %s", .label = "threads %s", .words_at = 3),
     AXIS_OPTION(.type = OPT_AXIS_INT, .min = 1, .max = 1024, .def = "1",
		 .flags = OPT_ALLOW_ALL,
		 .help = "measured threads, or all (one per CPU of the affinity)"),
     NULL)
AXIS(AFFINITY, affinity,
     AXIS_IS(.plural = "affinities", .column = "affinity", .kind = AXK_ITEM, .id = "a",
	     .id_always = 1, .id_max = 65, .title = "affinity %s", .label = "affinity %s",
	     .words_at = 4),
     AXIS_OPTION(.type = OPT_AXIS_AFFINITY, .def = "spread",
		 .help = "where the measured threads run: one of these, or a CPU list (0-1+3)"),
     AXIS_WORDS(AXIS_WORD("spread", AFF_SPREAD, "one CPU each"),
		AXIS_WORD("all", AFF_ALL, "unpinned"),
		AXIS_WORD("isolated", AFF_ISOLATED, "the CPUs the kernel isolates"),
		AXIS_WORD_N("node:N", AFF_NODE, "the CPUs of NUMA node N on the machine that runs the cell", NODE_MAX, 0)))
AXIS(INTERVAL, interval,
     AXIS_IS(.plural = "intervals", .column = "interval_ns", .kind = AXK_DURATION, .id = "i",
	     .id_max = AXIS_ID_LONG, .title = "%s µs", .label = "%sus", .words_at = 5),
     AXIS_OPTION(.type = OPT_AXIS_DURATION, .min = 10 * NS_PER_US, .max = 10 * NS_PER_S,
		 .def = "1ms", .help = "wake-up period"),
     NULL)
AXIS(PRIORITY, priority,
     AXIS_IS(.plural = "priorities", .column = "priority", .kind = AXK_INT, .id = "p",
	     .id_max = AXIS_ID_LONG, .title = "priority %s", .label = "priority %s",
	     .words_at = 7),
     AXIS_OPTION(.type = OPT_AXIS_INT, .min = 1, .max = 99, .def = "90",
		 .help = "SCHED_FIFO priority of the measured threads"),
     NULL)
AXIS(SIZE, size,
     AXIS_IS(.plural = "sizes", .column = "size", .kind = AXK_SIZE, .id = "s",
	     .id_max = AXIS_ID_LONG, .title = "size %s", .label = "size %s", .words_at = 8),
     AXIS_OPTION(.type = OPT_AXIS_SIZE, .min = 1, .max = 1LL << 30, .def = "4KiB",
		 .help = "I/O size per cycle, for workloads that use it"),
     NULL)
AXIS(POLICY, policy,
     AXIS_IS(.plural = "policies", .column = "policy", .kind = AXK_POLICY, .id = "P",
	     .id_max = 15, .title = "%s", .label = "%s", .words_at = 6),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "fifo", .flags = OPT_ECHO_SET,
		 .help = "how the measured threads are scheduled"),
     AXIS_WORDS(AXIS_WORD("fifo", POL_FIFO, "SCHED_FIFO at the priority"),
		AXIS_WORD("rr", POL_RR, "SCHED_RR at the priority"),
		AXIS_WORD("deadline", POL_DEADLINE, "SCHED_DEADLINE, runtime and deadline from [campaign] dl_runtime, dl_deadline; period = interval; priority ignored"),
		AXIS_WORD("other", POL_OTHER, "SCHED_OTHER; priority ignored")))
AXIS(DMA, dma_latency,
     AXIS_IS(.plural = "dma_latencies", .column = "dma_latency", .kind = AXK_MICROS, .id = "d",
	     .id_max = AXIS_ID_WORD, .missing = "0", .title = "dma_latency %s",
	     .label = "dma_latency %s", .words_at = 9),
     AXIS_OPTION(.type = OPT_AXIS_NAME, .def = "0", .flags = OPT_ECHO_SET,
		 .help = "what latlab writes to /dev/cpu_dma_latency for the cell: a duration (0: no deep C-states) or none (leave the system as it is)"),
     NULL)
/* came after the others: a title says it only where it is set */
AXIS(NUMA, numa,
     AXIS_IS(.plural = "numa", .column = "numa", .kind = AXK_ITEM, .id = "m",
	     .id_max = AXIS_ID_WORD, .missing = "none", .hidden = "none", .title = "numa %s",
	     .label = "numa %s", .words_at = 10),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "none", .flags = OPT_ECHO_SET,
		 .help = "where each measured thread's memory (its stack, its workload's buffers) is allocated, checked after allocation, in cell.ini"),
     AXIS_WORDS(AXIS_WORD("none", NUMA_NONE, "the kernel's default, first touch"),
		AXIS_WORD("local", NUMA_LOCAL, "bound to its CPU's node"),
		AXIS_WORD("remote", NUMA_REMOTE, "bound to the nearest other node"),
		AXIS_WORD("interleave", NUMA_INTERLEAVE, "over every node"),
		AXIS_WORD_N("node:N", NUMA_NODE, "bound to node N", NODE_MAX, 0)))
AXIS(WAKEUP, wakeup,
     AXIS_IS(.plural = "wake-up methods", .column = "wakeup", .kind = AXK_ITEM, .id = "w",
	     .id_max = AXIS_ID_WORD, .missing = "abs", .hidden = "abs", .title = "woken by %s",
	     .label = "%s", .words_at = 11),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "abs", .flags = OPT_ECHO_SET,
		 .help = "how each measured thread sleeps to its period (the latency is always the wake-up against the period on the clock below)"),
     AXIS_WORDS(AXIS_WORD("abs", WAKE_ABS, "clock_nanosleep to the period, TIMER_ABSTIME: cyclictest's default"),
		AXIS_WORD("rel", WAKE_REL, "a relative clock_nanosleep of what is left: cyclictest -r"),
		AXIS_WORD("posix-timer", WAKE_POSIX_TIMER, "a POSIX timer armed for the period, its signal waited for with sigwaitinfo"),
		AXIS_WORD("timerfd", WAKE_TIMERFD, "a timerfd armed for the period, read"),
		AXIS_WORD("poll", WAKE_POLL, "ppoll with what is left as its timeout, as stress-ng's cyclic"),
		AXIS_WORD("pselect", WAKE_PSELECT, "pselect with what is left as its timeout")))
AXIS(CLOCK, clock,
     AXIS_IS(.plural = "clocks", .column = "clock", .kind = AXK_ITEM, .id = "c",
	     .id_max = AXIS_ID_WORD, .missing = "monotonic", .hidden = "monotonic",
	     .title = "clock %s", .label = "%s", .words_at = 12),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "monotonic", .flags = OPT_ECHO_SET,
		 .help = "the clock the measured threads sleep on and are timed by"),
     AXIS_WORDS(AXIS_WORD("monotonic", WCLOCK_MONOTONIC, "cyclictest's default"),
		AXIS_WORD("realtime", WCLOCK_REALTIME, "cyclictest -c 1"),
		AXIS_WORD("tai", WCLOCK_TAI, NULL),
		AXIS_WORD_N("auxN", WCLOCK_AUX0, "the auxiliary clocks, Linux 6.17, where the kernel has them enabled", 7, OPT_WORD_PLUS)))
AXIS(ISOLATION, isolation,
     AXIS_IS(.plural = "isolations", .column = "isolation", .kind = AXK_ITEM, .id = "x",
	     .id_max = AXIS_ID_WORD, .missing = "none", .hidden = "none",
	     .title = "isolation %s", .label = "%s", .words_at = 13),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "none", .flags = OPT_ECHO_SET,
		 .help = "what latlab does to keep the measured CPUs for the measured threads, undone after the cell; needs pinned threads and a CPU left over"),
     AXIS_WORDS(AXIS_WORD("none", ISO_NONE, "the machine as it is"),
		AXIS_WORD("cpuset", ISO_CPUSET, "an exclusive cgroup v1 cpuset for each measured CPU, every task it can move, the loads' too, in a housekeeping cpuset of the other CPUs, latlab's own threads there too: as rteval --cpusets and cyclicdeadline; on cgroup v2 an isolated partition for each measured CPU"),
		AXIS_WORD("cpuset+irqs", ISO_CPUSET_IRQS, "besides, every interrupt that can move off the measured CPUs")))
AXIS(IDLE, idle,
     AXIS_IS(.plural = "idle states", .column = "idle", .kind = AXK_ITEM, .id = "e",
	     .id_max = AXIS_ID_WORD, .missing = "any", .hidden = "any", .title = "idle %s",
	     .label = "idle %s", .words_at = 14),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "any", .flags = OPT_ECHO_SET,
		 .help = "the idle states the measured CPUs may enter, set through cpuidle for the cell and set back after it; needs a cpuidle driver (dma_latency asks the same of every CPU through PM QoS)"),
     AXIS_WORDS(AXIS_WORD("any", IDLE_ANY, "as they are"),
		AXIS_WORD_N("deepest:N", 0, "every state deeper than N disabled: cyclictest --deepest-idle-state", IDLE_DEEPEST_MAX, OPT_WORD_PLUS),
		AXIS_WORD("poll", IDLE_POLL, "every state but the polling one")))
AXIS(THROTTLE, throttle,
     AXIS_IS(.plural = "throttle settings", .column = "throttle", .kind = AXK_ITEM, .id = "T",
	     .id_max = AXIS_ID_WORD, .missing = "default", .hidden = "default",
	     .title = "throttle %s", .label = "throttle %s", .words_at = 15),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "default", .flags = OPT_ECHO_SET,
		 .help = "what the kernel keeps back from real-time threads for the cell, set back after it; refused where the servers cannot be set (a kernel in lockdown)"),
     AXIS_WORDS(AXIS_WORD("default", THROTTLE_DEFAULT, "as the machine has it"),
		AXIS_WORD("off", THROTTLE_OFF, "RT throttling unlimited, sched_rt_runtime_us = -1, and on kernels with deadline servers, 6.12+, no runtime for the fair and ext servers on the measured CPUs; while off, a real-time thread latlab or a load starts that runs 1 s without blocking gets SIGXCPU, which ends its process: RLIMIT_RTTIME")))
AXIS(SMT, smt,
     AXIS_IS(.plural = "SMT settings", .column = "smt", .kind = AXK_ITEM, .id = "S",
	     .id_max = AXIS_ID_WORD, .missing = "on", .hidden = "on", .title = "smt %s",
	     .label = "smt %s", .words_at = 16),
     AXIS_OPTION(.type = OPT_AXIS_CHOICE, .def = "on", .flags = OPT_ECHO_SET,
		 .help = "the measured CPUs' SMT siblings (the other hardware threads of their cores) for the cell; needs pinned threads, one a core, on a machine with SMT"),
     AXIS_WORDS(AXIS_WORD("on", SMT_ON, "as the machine has them"),
		AXIS_WORD("off", SMT_OFF, "each measured CPU's siblings taken offline (cpuN/online = 0) before the cpusets are built, brought back after the cell through the journal, even after a SIGKILL")))
