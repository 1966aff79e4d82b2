/*
 * Hardware latency: the kernel's hwlat tracer (CONFIG_HWLAT_TRACER) in
 * latlab's own tracefs instance — a CPU spins with interrupts off and
 * records the gaps it could not account for (SMIs, firmware, the
 * hypervisor). `latlab hwlat` and `[campaign] hwlat = D`.
 */
#ifndef LATLAB_HWLAT_H
#define LATLAB_HWLAT_H

#include <stdint.h>

struct hwlat_result {
	int64_t duration_ns;	/* how long it ran */
	int64_t threshold_ns;	/* tracing_thresh: gaps above it are recorded */
	int64_t max_ns;		/* the largest gap (inner or outer) */
	uint64_t count;		/* gaps above the threshold */
};

/*
 * Run hwlat for `duration_ns` (stopped early by SIGINT/SIGTERM when
 * `signals` are blocked and pending: *interrupted is then set). 0; -ENODEV
 * when this kernel has no hwlat tracer; another -errno; why says it.
 */
int hwlat_run(int64_t duration_ns, struct hwlat_result *r, int *interrupted,
	      char *why, size_t len);

#endif
