#!/usr/bin/env bash
# What watching costs the watched thread, in instruction time (issue 61):
# latlab's own timer thread ([trace] watch) in Debian guests on the
# instruction clock (one vCPU, 1 instruction = 1 ns): 6.1 stock and sid's
# 7.x stock, 1 ms, FIFO 90, RUNS runs of DURATION each, with watch off,
# through BPF, and through histogram triggers; idle, or LOADS="none
# hackbench" for BPF under hackbench too (the triggers idle only: under
# hackbench such guests hang, both ways; docs/own-code.md). Per kernel,
# load and method: the cells that finished, the wake-up's p50 and max
# (median over the runs [range]), the p50's difference from watch off in
# ns (= instructions), and latlab's wakeup minus the kernel's watch_timer
# at p50 and at the max (the path from the thread's switch-in to its clock
# read: the same at every percentile when both count the same wake-ups).
#
#   KERNELS=kernels bench/watch_cost.sh      (RUNS=5 DURATION=2s LOADS=none)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-5}
DURATION=${DURATION:-2s}
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO, the guests' network namespace)" >&2; exit 2; }
[ -s "$KERNELS/vmlinux-stock" ] && [ -s "$KERNELS/sid/vmlinux-stock" ] ||
	{ echo "no $KERNELS/vmlinux-stock or $KERNELS/sid/vmlinux-stock: make kernels" >&2; exit 2; }

tmp=$(mktemp -d /tmp/latlab-watchcost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/base.ini" <<EOC
[campaign]
name = base
duration = $DURATION
repeat = $RUNS
output = $tmp/out
boot_attempts = 1
[matrix]
kernel = k61, k7
load = none, hackbench
workload = timer
interval = 1ms
priority = 90
[load.hackbench]
type = hackbench
[kernel.k61]
runner = qemu
image = $KERNELS/vmlinux-stock
clock = icount
boot_timeout = 120s
[kernel.k7]
runner = qemu
image = $KERNELS/sid/vmlinux-stock
clock = icount
boot_timeout = 120s
[thresholds]
missed = off
EOC

# campaign (bench/lib.sh): the base config as campaign NAME, guests two at a time
CAMPAIGN_ARGS="--jobs 2"
loads=$(tr ' ' , <<<"${LOADS:-none}")
campaign off trace.watch=off matrix.load="$loads"
campaign bpf trace.watch=bpf matrix.load="$loads"
campaign hist trace.watch=hist matrix.load=none

# rows NAME: "kernel load metric p50 max" of every ok cell's thread 0
rows() {
	local c k l
	for c in "$tmp/out/$1"/*/*/0*; do
		grep -q '^status = ok' "$c/cell.ini" 2>/dev/null || continue
		k=$(sed -n 's/^kernel = //p' "$c/cell.ini")
		l=$(sed -n 's/^load = //p' "$c/cell.ini")
		awk -F, -v k="$k" -v l="$l" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$h["thread"] == 0 && ($h["metric"] == "wakeup" || $h["metric"] == "watch_timer") {
				print k, l, $h["metric"], $h["p50_ns"], $h["max_ns"] }' "$c/summary.csv"
	done
}
med() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print NR, v[int((NR + 1) / 2)], v[1], v[NR]; else print 0, 0, 0, 0 }'; }

echo "# watch's cost on the instruction clock: $RUNS runs of $DURATION a cell, timer at 1 ms, FIFO 90; k61 Debian 6.1 stock, k7 sid's 7.x stock"
printf '%-4s %-9s %-5s %5s  %-28s %-28s %9s  %s\n' kernel load watch cells "p50 ns, median [range]" "max ns, median [range]" "p50-off" "wakeup - watch_timer: p50, max (median ns)"
for k in k61 k7; do
	for l in ${LOADS:-none}; do
		off=""
		for m in off bpf hist; do
			rows "$m" >"$tmp/rows.$m" || true
			[ "$m" = hist ] && [ "$l" = hackbench ] && continue
			read -r n p50 plo phi < <(awk -v k="$k" -v l="$l" '$1 == k && $2 == l && $3 == "wakeup" { print $4 }' "$tmp/rows.$m" | med)
			read -r _ mx mlo mhi < <(awk -v k="$k" -v l="$l" '$1 == k && $2 == l && $3 == "wakeup" { print $5 }' "$tmp/rows.$m" | med)
			[ "$m" = off ] && off=$p50
			d50=$(awk -v k="$k" -v l="$l" '$1 == k && $2 == l { v[$3] = $4 } END { if ("watch_timer" in v) print v["wakeup"] - v["watch_timer"] }' "$tmp/rows.$m" | med | cut -d' ' -f2)
			dmx=$(awk -v k="$k" -v l="$l" '$1 == k && $2 == l { v[$3] = $5 } END { if ("watch_timer" in v) print v["wakeup"] - v["watch_timer"] }' "$tmp/rows.$m" | med | cut -d' ' -f2)
			printf '%-4s %-9s %-5s %2s/%-2s  %-28s %-28s %+9d  %s\n' "$k" "$l" "$m" "$n" "$RUNS" \
				"$p50 [$plo, $phi]" "$mx [$mlo, $mhi]" "$((p50 - ${off:-$p50}))" \
				"$([ "$m" = off ] && echo - || echo "$d50, $dmx")"
		done
	done
done
for f in "$tmp"/*.log; do
	[ -s "$f" ] && { echo "# $(basename "$f" .log):"; sed 's/^/#   /' "$f" | tail -4; }
done
exit 0
