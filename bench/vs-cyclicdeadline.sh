#!/usr/bin/env bash
# latlab's SCHED_DEADLINE cell against rt-tests' cyclicdeadline, side by
# side: one thread, period 4 ms (cyclicdeadline refuses runtimes under
# 2 ms unless HRTICK is switched on in debugfs, which latlab will not do
# to a machine), runtime 60 % (2.4 ms, cyclicdeadline's own choice),
# deadline = period, unpinned; ROUNDS alternating runs of DURATION s on an
# idle machine. Prints per round each side's min, mean and max wake-up
# latency (µs) and the ratios latlab/cyclicdeadline, then the median
# ratios with their range over the rounds.
#
# The two wait differently: latlab sleeps to the next period with an
# absolute clock_nanosleep (docs/guide.md: one loop for every policy);
# cyclicdeadline ends each job with sched_yield and is woken by the
# deadline scheduler's replenishment. Their latencies are measured from
# the same instant (the period's start), so the ratio says what the choice
# of waiting costs.
#
#   bench/vs-cyclicdeadline.sh      (LATLAB=build/latlab ROUNDS=3 DURATION=10)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
command -v cyclicdeadline >/dev/null || { echo "needs rt-tests (make deps)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_DEADLINE" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT


printf '%5s %28s %28s %8s %8s\n' round "cyclicdeadline min/avg/max" "latlab min/mean/max" r_avg r_max
: >"$tmp/ravg"; : >"$tmp/rmax"
for r in $(seq "$ROUNDS"); do
	line=$(timeout $((DURATION + 30)) cyclicdeadline -i 4000 -t 1 -D "$DURATION" -q 2>/dev/null | grep '^T:' | tail -1)
	read -r cmin cavg cmax < <(sed -E 's/.*Min: *([0-9]+).*Avg: *([0-9]+).*Max: *([0-9]+).*/\1 \2 \3/' <<<"$line")
	cat >"$tmp/c.ini" <<EOC
[campaign]
name = dl$r
duration = ${DURATION}s
output = $tmp/out
dl_runtime = 60%
[matrix]
policy = deadline
affinity = all
interval = 4ms
EOC
	"$LATLAB" run "$tmp/c.ini" -q >/dev/null 2>&1
	read -r lmin lmean lmax < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "wakeup" { printf "%.1f %.1f %.1f\n", $c["min_ns"] / 1000, $c["mean_ns"] / 1000, $c["max_ns"] / 1000 }' \
		"$tmp/out/dl$r/cells.csv")
	ravg=$(awk -v a="$lmean" -v b="$cavg" 'BEGIN { printf "%.2f", a / b }')
	rmax=$(awk -v a="$lmax" -v b="$cmax" 'BEGIN { printf "%.2f", a / b }')
	echo "$ravg" >>"$tmp/ravg"; echo "$rmax" >>"$tmp/rmax"
	printf '%5d %28s %28s %8s %8s\n' "$r" "$cmin/$cavg/$cmax" "$lmin/$lmean/$lmax" "$ravg" "$rmax"
done
echo "mean latency latlab/cyclicdeadline: $(median_range 2 <"$tmp/ravg")"
echo "max latency latlab/cyclicdeadline:  $(median_range 2 <"$tmp/rmax")"
