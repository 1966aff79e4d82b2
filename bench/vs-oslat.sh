#!/usr/bin/env bash
# latlab's noise workload against rt-tests' oslat on the same CPU for the
# same time, side by side. Both run SCHED_OTHER on CPU 1 (oslat at a
# real-time priority would be a busy loop of the whole duration, stopped
# by RT throttling for 50 ms of every second, which it would then report
# as noise); latlab reads the clock for half of each 1 ms period (its
# most: the thread must sleep every period), oslat all the time.
# ROUNDS alternating runs of DURATION s. Per round: each side's largest
# gap between two clock reads (µs) and how often a gap reached 32 µs per
# second of reading the clock (oslat: its overflow bucket; latlab: the
# windows whose noise_max reached 32 µs, a lower bound as a window may
# hold more than one), the ratios latlab/oslat, then their medians with
# the range over the rounds.
#
#   bench/vs-oslat.sh      (LATLAB=build/latlab ROUNDS=3 DURATION=10 CPU=1)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CPU=${CPU:-1}
command -v oslat >/dev/null || { echo "needs rt-tests (make deps)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

printf '%5s %12s %12s %14s %14s %8s %8s\n' round oslat_max latlab_max "oslat >=32/s" "latlab >=32/s" r_max r_rate
: >"$tmp/rmax"; : >"$tmp/rrate"
for r in $(seq "$ROUNDS"); do
	timeout $((DURATION + 30)) oslat -c "$CPU" -D "$DURATION" -q >"$tmp/oslat.txt" 2>&1
	omax=$(awk '/Maximum:/ { print $2 }' "$tmp/oslat.txt")
	ober=$(awk '/^ *032 \(us\):/ { print $3 }' "$tmp/oslat.txt")
	odur=$(awk '/Duration:/ { print $2 }' "$tmp/oslat.txt")
	orate=$(awk -v n="$ober" -v d="$odur" 'BEGIN { printf "%.1f", n / d }')
	cat >"$tmp/c.ini" <<EOC
[campaign]
name = n$r
duration = ${DURATION}s
output = $tmp/out
[matrix]
workload = n
policy = other
affinity = $CPU
interval = 1ms
[workload.n]
type = noise
busy = 500us
EOC
	"$LATLAB" run "$tmp/c.ini" -q >/dev/null 2>&1
	D=$(echo "$tmp"/out/n$r/*/*/0000-*)
	lmax=$(awk -F, '$3 == "noise_max" { printf "%.0f", $13 / 1000 }' "$D/summary.csv")
	read -r lrate < <(awk -F, -v busy=500000 '$3 == "noise_max" { n += $6; if ($4 >= 32000) big += $6 }
		END { printf "%.1f\n", big / (n * busy / 1e9) }' "$D/hist.csv")
	rmax=$(awk -v a="$lmax" -v b="$omax" 'BEGIN { printf "%.2f", a / b }')
	rrate=$(awk -v a="$lrate" -v b="$orate" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	echo "$rmax" >>"$tmp/rmax"; echo "$rrate" >>"$tmp/rrate"
	printf '%5d %12s %12s %14s %14s %8s %8s\n' "$r" "$omax" "$lmax" "$orate" "$lrate" "$rmax" "$rrate"
done
echo "largest gap latlab/oslat:          $(median_range 2 <"$tmp/rmax")"
echo "gaps >= 32 us per s, latlab/oslat: $(median_range 2 <"$tmp/rrate")"
