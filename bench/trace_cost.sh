#!/usr/bin/env bash
# The cost of [trace] mode = spikes, measured side by side in one run.
#
# 1. Wake-up latency with tracing armed but never fired (threshold 10 s)
#    against mode = off: ROUNDS alternating pairs of DURATION-second cells
#    (timer workload, one thread per CPU, 1 ms, SCHED_FIFO 90, idle
#    machine). Prints each pair's p50 and p99 (threads merged: the largest
#    thread's value) and the ratio spikes/off; then the median ratio with
#    its range over the rounds. Goal: p50 ratio <= 1.10.
# 2. The time from a spike to its trace-N.txt on disk, from an rt-hog run
#    (busy 3 ms every 200 ms on CPU 1, 10 captures): median and range of
#    the "saved N ms after the spike" lines of log.txt (the main thread
#    polls every 100 ms, so this is 0-100 ms plus the reading).
#
#   bench/trace_cost.sh          (LATLAB=build/latlab ROUNDS=5 DURATION=5)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5}
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO and tracefs" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

config() {	# config NAME MODE
	cat >"$tmp/$1.ini" <<EOC
[campaign]
name = $1
duration = ${DURATION}s
output = $tmp/out
[matrix]
threads = all
interval = 1ms
[thresholds]
missed = off
[trace]
mode = $2
threshold = 10s
EOC
}

# worst wakeup p50 and p99 over the threads of a tree's cell (us)
pcts() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "wakeup" { if ($c["p50_ns"] > p50) p50 = $c["p50_ns"];
			if ($c["p99_ns"] > p99) p99 = $c["p99_ns"] }
		END { printf "%.1f %.1f\n", p50 / 1000, p99 / 1000 }' "$1/cells.csv"
}


echo "== wake-up latency, mode = spikes (never fired) vs off: $ROUNDS pairs of ${DURATION} s"
printf '%5s %10s %10s %10s %10s %8s %8s\n' round off_p50 off_p99 spk_p50 spk_p99 r_p50 r_p99
: >"$tmp/r50"; : >"$tmp/r99"
for r in $(seq "$ROUNDS"); do
	for mode in off spikes; do
		config "$mode-$r" "$mode"
		"$LATLAB" run "$tmp/$mode-$r.ini" -q >/dev/null 2>&1
		read -r p50 p99 < <(pcts "$tmp/out/$mode-$r")
		eval "${mode}_50=$p50 ${mode}_99=$p99"
	done
	r50=$(awk -v a="$spikes_50" -v b="$off_50" 'BEGIN { printf "%.3f", a / b }')
	r99=$(awk -v a="$spikes_99" -v b="$off_99" 'BEGIN { printf "%.3f", a / b }')
	echo "$r50" >>"$tmp/r50"; echo "$r99" >>"$tmp/r99"
	printf '%5d %10s %10s %10s %10s %8s %8s\n' "$r" "$off_50" "$off_99" "$spikes_50" "$spikes_99" "$r50" "$r99"
done
echo "p50 ratio spikes/off: $(median_range 3 <"$tmp/r50")   (goal <= 1.10)"
echo "p99 ratio spikes/off: $(median_range 3 <"$tmp/r99")"

echo "== spike to trace-N.txt on disk (rt-hog, 10 captures)"
cat >"$tmp/hog.ini" <<EOC
[campaign]
name = hog
duration = 3s
output = $tmp/out
[matrix]
load = hog
affinity = 1
priority = 80
[load.hog]
type = rt-hog
cpus = 1
busy = 3ms
every = 200ms
[trace]
mode = spikes
threshold = 1ms
captures = 10
EOC
"$LATLAB" run "$tmp/hog.ini" -q >/dev/null 2>&1 || true
sed -n 's/.*(saved \([0-9]*\) ms after the spike)$/\1/p' "$tmp"/out/hog/*/*/*/log.txt >"$tmp/saved"
[ -s "$tmp/saved" ] || { echo "no capture saved"; exit 1; }
echo "spike to disk, ms: $(median_range 3 <"$tmp/saved")"
