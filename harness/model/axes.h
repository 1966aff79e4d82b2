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
 * AXIS(ENUM, member, plural, column, kind, id, id_always, id_max,
 *      missing, hidden, title, label, words,
 *      option type, min, max, default, values, flags, help)
 *
 * The fields are struct axis_def's (axis.h) and struct opt's
 * (common/options.h). values: the words an axis takes,
 * AXIS_WORDS(AXIS_WORD(word, value, what it does), ...), from which its
 * parse, its list of values, "did you mean", completion and the docs
 * are made; NULL for an axis of names or numbers. READER_AXIS: an axis of the readers only, no
 * [matrix] key (an includer that wants it defines READER_AXIS too; one
 * that does not, as an empty macro).
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
#endif

AXIS(KERNEL, kernel, "kernels", "kernel", AXK_NAME, "", 0, 63, NULL, NULL, NULL, NULL, 0,
     OPT_AXIS_NAME, 0, 0, "running", NULL, 0,
     "kernel variants: running, stock, rt or [kernel.NAME]")
/* the host: a machine and release (compare --axis host), which the matrix never varies */
READER_AXIS(HOST, host, "hosts", NULL, AXK_HOST, NULL, 0, 0, NULL, NULL, NULL, NULL, -1)
AXIS(LOAD, load, "loads", "load", AXK_NAME, "", 1, 0, NULL, NULL, "%s", "%s", 1,
     OPT_AXIS_NAME, 0, 0, "none", NULL, 0,
     "loads: none or [load.NAME]")
AXIS(WORKLOAD, workload, "workloads", "workload", AXK_NAME, "", 1, 0, NULL, NULL, "%s", "%s", 2,
     OPT_AXIS_NAME, 0, 0, "timer", NULL, 0,
     "workloads: a registered type or [workload.NAME]")
AXIS(THREADS, threads, "threads", "threads", AXK_COUNT, "t", 1, 0, NULL, NULL,
     "threads %s", "threads %s", 3,
     OPT_AXIS_INT, 1, 1024, "1", NULL, OPT_ALLOW_ALL,
     "measured threads, or all (one per CPU of the affinity)")
AXIS(AFFINITY, affinity, "affinities", "affinity", AXK_ITEM, "a", 1, 65, NULL, NULL,
     "affinity %s", "affinity %s", 4,
     OPT_AXIS_AFFINITY, 0, 0, "spread",
     AXIS_WORDS(AXIS_WORD("spread", AFF_SPREAD, "one CPU each"),
		AXIS_WORD("all", AFF_ALL, "unpinned"),
		AXIS_WORD("isolated", AFF_ISOLATED, "the CPUs the kernel isolates"),
		AXIS_WORD_N("node:N", AFF_NODE, "the CPUs of NUMA node N on the machine that runs the cell", NODE_MAX, 0)),
     0, "where the measured threads run: one of these, or a CPU list (0-1+3)")
AXIS(INTERVAL, interval, "intervals", "interval_ns", AXK_DURATION, "i", 0, 63, NULL, NULL,
     "%s µs", "%sus", 5,
     OPT_AXIS_DURATION, 10 * NS_PER_US, 10 * NS_PER_S, "1ms", NULL, 0,
     "wake-up period")
AXIS(PRIORITY, priority, "priorities", "priority", AXK_INT, "p", 0, 63, NULL, NULL,
     "priority %s", "priority %s", 7,
     OPT_AXIS_INT, 1, 99, "90", NULL, 0,
     "SCHED_FIFO priority of the measured threads")
AXIS(SIZE, size, "sizes", "size", AXK_SIZE, "s", 0, 63, NULL, NULL, "size %s", "size %s", 8,
     OPT_AXIS_SIZE, 1, 1LL << 30, "4KiB", NULL, 0,
     "I/O size per cycle, for workloads that use it")
AXIS(POLICY, policy, "policies", "policy", AXK_POLICY, "P", 0, 15, NULL, NULL, "%s", "%s", 6,
     OPT_AXIS_CHOICE, 0, 0, "fifo",
     AXIS_WORDS(AXIS_WORD("fifo", POL_FIFO, "SCHED_FIFO at the priority"),
		AXIS_WORD("rr", POL_RR, "SCHED_RR at the priority"),
		AXIS_WORD("deadline", POL_DEADLINE, "SCHED_DEADLINE, runtime and deadline from [campaign] dl_runtime, dl_deadline; period = interval; priority ignored"),
		AXIS_WORD("other", POL_OTHER, "SCHED_OTHER; priority ignored")),
     OPT_ECHO_SET, "how the measured threads are scheduled")
AXIS(DMA, dma_latency, "dma_latencies", "dma_latency", AXK_MICROS, "d", 0, 17, "0", NULL,
     "dma_latency %s", "dma_latency %s", 9,
     OPT_AXIS_NAME, 0, 0, "0", NULL, OPT_ECHO_SET,
     "what latlab writes to /dev/cpu_dma_latency for the cell: a duration (0: no deep C-states) or none (leave the system as it is)")
/* came after the others: a title says it only where it is set */
AXIS(NUMA, numa, "numa", "numa", AXK_ITEM, "m", 0, 17, "none", "none", "numa %s", "numa %s", 10,
     OPT_AXIS_CHOICE, 0, 0, "none",
     AXIS_WORDS(AXIS_WORD("none", NUMA_NONE, "the kernel's default, first touch"),
		AXIS_WORD("local", NUMA_LOCAL, "bound to its CPU's node"),
		AXIS_WORD("remote", NUMA_REMOTE, "bound to the nearest other node"),
		AXIS_WORD("interleave", NUMA_INTERLEAVE, "over every node"),
		AXIS_WORD_N("node:N", NUMA_NODE, "bound to node N", NODE_MAX, 0)),
     OPT_ECHO_SET,
     "where each measured thread's memory (its stack, its workload's buffers) is allocated, checked after allocation, in cell.ini")
AXIS(WAKEUP, wakeup, "wake-up methods", "wakeup", AXK_ITEM, "w", 0, 17, "abs", "abs",
     "woken by %s", "%s", 11,
     OPT_AXIS_CHOICE, 0, 0, "abs",
     AXIS_WORDS(AXIS_WORD("abs", WAKE_ABS, "clock_nanosleep to the period, TIMER_ABSTIME: cyclictest's default"),
		AXIS_WORD("rel", WAKE_REL, "a relative clock_nanosleep of what is left: cyclictest -r"),
		AXIS_WORD("posix-timer", WAKE_POSIX_TIMER, "a POSIX timer armed for the period, its signal waited for with sigwaitinfo"),
		AXIS_WORD("timerfd", WAKE_TIMERFD, "a timerfd armed for the period, read"),
		AXIS_WORD("poll", WAKE_POLL, "ppoll with what is left as its timeout, as stress-ng's cyclic"),
		AXIS_WORD("pselect", WAKE_PSELECT, "pselect with what is left as its timeout")),
     OPT_ECHO_SET,
     "how each measured thread sleeps to its period (the latency is always the wake-up against the period on the clock below)")
AXIS(CLOCK, clock, "clocks", "clock", AXK_ITEM, "c", 0, 17, "monotonic", "monotonic",
     "clock %s", "%s", 12,
     OPT_AXIS_CHOICE, 0, 0, "monotonic",
     AXIS_WORDS(AXIS_WORD("monotonic", WCLOCK_MONOTONIC, "cyclictest's default"),
		AXIS_WORD("realtime", WCLOCK_REALTIME, "cyclictest -c 1"),
		AXIS_WORD("tai", WCLOCK_TAI, NULL),
		AXIS_WORD_N("auxN", WCLOCK_AUX0, "the auxiliary clocks, Linux 6.17, where the kernel has them enabled", 7, OPT_WORD_PLUS)),
     OPT_ECHO_SET, "the clock the measured threads sleep on and are timed by")
AXIS(ISOLATION, isolation, "isolations", "isolation", AXK_ITEM, "x", 0, 17, "none", "none",
     "isolation %s", "%s", 13,
     OPT_AXIS_CHOICE, 0, 0, "none",
     AXIS_WORDS(AXIS_WORD("none", ISO_NONE, "the machine as it is"),
		AXIS_WORD("cpuset", ISO_CPUSET, "an exclusive cgroup v1 cpuset for each measured CPU, every task it can move, the loads' too, in a housekeeping cpuset of the other CPUs, latlab's own threads there too: as rteval --cpusets and cyclicdeadline; on cgroup v2 an isolated partition for each measured CPU"),
		AXIS_WORD("cpuset+irqs", ISO_CPUSET_IRQS, "besides, every interrupt that can move off the measured CPUs")),
     OPT_ECHO_SET,
     "what latlab does to keep the measured CPUs for the measured threads, undone after the cell; needs pinned threads and a CPU left over")
AXIS(IDLE, idle, "idle states", "idle", AXK_ITEM, "e", 0, 17, "any", "any", "idle %s", "idle %s", 14,
     OPT_AXIS_CHOICE, 0, 0, "any",
     AXIS_WORDS(AXIS_WORD("any", IDLE_ANY, "as they are"),
		AXIS_WORD_N("deepest:N", 0, "every state deeper than N disabled: cyclictest --deepest-idle-state", IDLE_DEEPEST_MAX, OPT_WORD_PLUS),
		AXIS_WORD("poll", IDLE_POLL, "every state but the polling one")),
     OPT_ECHO_SET,
     "the idle states the measured CPUs may enter, set through cpuidle for the cell and set back after it; needs a cpuidle driver (dma_latency asks the same of every CPU through PM QoS)")
AXIS(THROTTLE, throttle, "throttle settings", "throttle", AXK_ITEM, "T", 0, 17, "default", "default",
     "throttle %s", "throttle %s", 15,
     OPT_AXIS_CHOICE, 0, 0, "default",
     AXIS_WORDS(AXIS_WORD("default", THROTTLE_DEFAULT, "as the machine has it"),
		AXIS_WORD("off", THROTTLE_OFF, "RT throttling unlimited, sched_rt_runtime_us = -1, and on kernels with deadline servers, 6.12+, no runtime for the fair and ext servers on the measured CPUs; while off, a real-time thread latlab or a load starts that runs 1 s without blocking gets SIGXCPU, which ends its process: RLIMIT_RTTIME")),
     OPT_ECHO_SET,
     "what the kernel keeps back from real-time threads for the cell, set back after it; refused where the servers cannot be set (a kernel in lockdown)")
