#!/usr/bin/env bash
# What each option costs the measured thread, in instruction time: the
# timer workload in a Debian stock guest on the instruction clock (one
# vCPU, 1 instruction = 1 ns, the host's load out of it), one campaign
# per option against the same base, idle, 1 ms, FIFO 90, RUNS runs of
# DURATION each. Per option, the wake-up's p50 and max: the median over
# the runs with their range, n the runs, and the median's difference from
# the base in ns (= instructions). Options that are axes (wakeup, clock,
# workload) are one campaign with the base among their values; the
# others (samples, spikes tracing, checkpoints) a campaign each; numa
# (local, interleave: the guest's one node) an axis campaign too;
# [trace] timerlat = on in Debian's rt image, whose timerlat tracer the
# stock image lacks, against the rt image's own base (rtbase). Not here:
# isolation (it needs a CPU left over, and an icount guest has one) and
# the interference sampler (always on: it reads its counters before the
# first period and after the last, so every row includes it).
# spikes-bpf: the same captures by BPF's flight recorder ([trace] method
# = bpf), armed at 50 us and never fired: what leaving it on costs;
# spikes-lean: the same with [trace] recorder = lean.
#
#   KERNELS=kernels bench/option_cost.sh      (RUNS=5 DURATION=2s)
#   ONLY="spikes spikes-bpf spikes-lean" LOAD=hackbench KERNELS=kernels/sid bench/option_cost.sh
#
# ONLY: those options' campaigns and the base's alone (the base run as a
# campaign of its own); LOAD=hackbench: every campaign under latload's
# hackbench in the guest (the base's too).
#
# Deterministic up to what the guest's own boot leaves: the same table
# on every run of the same kernel, latlab and qemu.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-5}
DURATION=${DURATION:-2s}
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO, the guests' network namespace)" >&2; exit 2; }
[ -s "$KERNELS/vmlinux-stock" ] || { echo "no $KERNELS/vmlinux-stock: make kernels" >&2; exit 2; }

tmp=$(mktemp -d /tmp/latlab-optcost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -Iinclude -fPIC -shared -o "$tmp/empty.so" examples/plugins/minimal.c

cat >"$tmp/base.ini" <<EOC
[campaign]
name = base
duration = $DURATION
repeat = $RUNS
output = $tmp/out
[matrix]
kernel = stock
workload = timer
interval = 1ms
priority = 90
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinux-stock
match = preempt:voluntary
clock = icount
[workload.empty]
type = plugin
path = $tmp/empty.so
[thresholds]
missed = off
EOC
if [ "${LOAD:-}" = hackbench ]; then
	printf '[load.hb]\ntype = hackbench\ngroups = 1\n' >>"$tmp/base.ini"
	sed -i 's/^priority = 90$/priority = 90\nload = hb/' "$tmp/base.ini"
fi

# campaign NAME SET... (bench/lib.sh): the base config with --set SET... as campaign NAME
# rows CAMPAIGN COLUMN: "value p50_ns max_ns" of each run's wakeup row,
# by the value of cells.csv's COLUMN (or the campaign's name)
rows() {
	[ -s "$tmp/out/$1/cells.csv" ] || return 0
	untraced "$1" && return 0
	awk -F, -v col="$2" -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == "wakeup" && $h["status"] == "ok" {
			print (col == "" ? name : $h[col]), $h["p50_ns"], $h["max_ns"] }' "$tmp/out/$1/cells.csv"
}

# untraced NAME: NAME asked for captures and a cell ran without them (a
# guest whose kernel refused the recorder's programs: the cell goes on
# untraced, its log says why) — its rows would be the base's, so none is
# printed and the table says so
untraced() {
	case $1 in spikes*) ;; *) return 1 ;; esac
	local f
	for f in $(find "$tmp/out/$1" -name cell.ini); do
		grep -q '^trace = spikes' "$f" && continue
		echo "$1 untraced: $(grep -ho 'no spike captures in this cell: .*' "$(dirname "$f")/log.txt" | head -1)" >>"$tmp/untraced"
		return 0
	done
	return 1
}

# wanted NAME: a campaign ONLY asks for (every one without it)
wanted() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

if [ -n "${ONLY:-}" ]; then
	campaign abs
else
	campaign axes matrix.wakeup=abs,rel,posix-timer,timerfd,poll,pselect
fi
wanted clocks && campaign clocks matrix.clock=monotonic,realtime,tai
wanted workloads && campaign workloads matrix.workload=timer,empty
wanted samples && campaign samples campaign.samples=on
wanted spikes && campaign spikes trace.mode=spikes trace.threshold=50us
wanted spikes-bpf && campaign spikes-bpf trace.mode=spikes trace.method=bpf trace.threshold=50us
wanted spikes-lean && campaign spikes-lean trace.mode=spikes trace.method=bpf trace.recorder=lean trace.threshold=50us
wanted checkpoints && campaign checkpoints campaign.checkpoint=500ms
wanted numa && campaign numa matrix.numa=none,local,interleave
# timerlat needs a kernel with its tracer: Debian's rt image, against its own base
wanted timerlat && campaign rtbase kernel.stock.image="$KERNELS/vmlinux-rt" kernel.stock.match=any
wanted timerlat && campaign timerlat kernel.stock.image="$KERNELS/vmlinux-rt" kernel.stock.match=any trace.timerlat=on
{
	[ -n "${ONLY:-}" ] && rows abs ""
	rows axes wakeup
	rows clocks clock | awk '$1 != "monotonic"'
	rows workloads workload | awk '$1 != "timer"'
	rows samples ""
	rows spikes ""
	rows spikes-bpf ""
	rows spikes-lean ""
	rows checkpoints ""
	rows numa numa | awk '$1 != "none"'
	rows rtbase ""
	rows timerlat ""
} >"$tmp/all"

median_of() { awk -v o="$1" '$1 == o { print $2 }' "$tmp/all" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }'; }
base_p50=$(median_of abs)
rt_p50=$(median_of rtbase)
echo "# option cost on the instruction clock: $(basename "$KERNELS")/vmlinux-stock, one vCPU, 1 instruction = 1 ns; timer at 1 ms, FIFO 90, ${LOAD:-idle}; $RUNS runs of $DURATION each"
echo "# the base: wakeup = abs, clock = monotonic, workload = timer, samples off, no tracing, checkpoint 5m"
printf '%-14s %4s  %-30s %-30s %s\n' option n "p50 ns, median [range]" "max ns, median [range]" "p50 - base's (ns)"
for opt in abs rel posix-timer timerfd poll pselect realtime tai empty samples spikes spikes-bpf spikes-lean checkpoints local interleave rtbase timerlat; do
	awk -v o="$opt" '$1 == o' "$tmp/all" >"$tmp/one"
	[ -s "$tmp/one" ] || [ -z "${ONLY:-}" ] || grep -q "^$opt untraced" "$tmp/untraced" 2>/dev/null || continue
	[ -s "$tmp/one" ] || { printf '%-14s    0  (no run: see %s)\n' "$opt" "$tmp"; continue; }
	read -r n p50 p50lo p50hi < <(awk '{ print $2 }' "$tmp/one" | sort -n | awk '{ v[NR] = $1 } END { print NR, v[int((NR + 1) / 2)], v[1], v[NR] }')
	read -r _ mx mxlo mxhi < <(awk '{ print $3 }' "$tmp/one" | sort -n | awk '{ v[NR] = $1 } END { print NR, v[int((NR + 1) / 2)], v[1], v[NR] }')
	# timerlat against the rt image's own base, the rest against stock's
	base=$base_p50
	[ "$opt" = timerlat ] && base=$rt_p50
	[ "$opt" = rtbase ] && base=$p50
	printf '%-14s %4s  %-30s %-30s %+d\n' "$opt" "$n" "$p50 [$p50lo, $p50hi]" "$mx [$mxlo, $mxhi]" "$((p50 - base))"
done
[ -s "$tmp/untraced" ] && sed 's/^/# NOT MEASURED: /' "$tmp/untraced"
for f in "$tmp"/*.log; do
	[ -s "$f" ] && { echo "# $(basename "$f" .log):"; sed 's/^/#   /' "$f" | tail -5; }
done
exit 0
