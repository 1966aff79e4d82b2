#!/usr/bin/env bash
# The IPC wake-up workloads side by side: pipe-rtt, mq-rtt, sem-rtt and
# signal-rtt (pmqtest, ptsematest and sigwaittest's mechanisms), one
# SCHED_FIFO 90 thread on CPU 1 with a SCHED_FIFO 80 peer thread, 1 ms
# period, REPEAT alternating runs of DURATION seconds each (the workload
# axis is the inner one, so the four alternate). Prints per workload the
# median over the runs of the round trip's p50 and p99 (`io`), and the
# ratio of each to pipe-rtt's with its range over the runs.
#
#   bench/ipc_rtt.sh            (LATLAB=build/latlab REPEAT=5 DURATION=3)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
REPEAT=${REPEAT:-5}
DURATION=${DURATION:-3}
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/c.ini" <<EOC
[campaign]
name = ipc
duration = ${DURATION}s
repeat = $REPEAT
output = $tmp/out
[matrix]
workload = pipe, mq, sem, signal
affinity = 1
size = 64B
[workload.pipe]
type = pipe-rtt
peer_policy = fifo
[workload.mq]
type = mq-rtt
peer_policy = fifo
[workload.sem]
type = sem-rtt
peer_policy = fifo
[workload.signal]
type = signal-rtt
peer_policy = fifo
EOC
"$LATLAB" run "$tmp/c.ini" -q >/dev/null 2>&1
# workload, repeat, io p50, io p99 (ns)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["metric"] == "io" { print $c["workload"], $c["repeat"], $c["p50_ns"], $c["p99_ns"] }' \
	"$tmp/out/ipc/cells.csv" >"$tmp/rows"
printf '%-8s %4s %10s %10s %24s %24s\n' workload n p50_us p99_us "p50/pipe [range]" "p99/pipe [range]"
for w in pipe mq sem signal; do
	# per run: the workload's p50 and p99, and their ratios to pipe-rtt's of the same repeat
	awk -v w="$w" '$1 == "pipe" { p50[$2] = $3; p99[$2] = $4 } $1 == w { a50[$2] = $3; a99[$2] = $4 }
		END { for (r in a50) print a50[r], a99[r], a50[r] / p50[r], a99[r] / p99[r] }' "$tmp/rows" >"$tmp/$w"
	read -r m50 _ _ n < <(cut -d' ' -f1 "$tmp/$w" | median_range)
	read -r m99 _ _ _ < <(cut -d' ' -f2 "$tmp/$w" | median_range)
	read -r r50 l50 h50 _ < <(cut -d' ' -f3 "$tmp/$w" | median_range)
	read -r r99 l99 h99 _ < <(cut -d' ' -f4 "$tmp/$w" | median_range)
	printf '%-8s %4d %10.1f %10.1f %8.2f [%5.2f, %5.2f] %8.2f [%5.2f, %5.2f]\n' "$w" "$n" \
		"$(awk -v x="$m50" 'BEGIN { print x / 1000 }')" "$(awk -v x="$m99" 'BEGIN { print x / 1000 }')" "$r50" "$l50" "$h50" "$r99" "$l99" "$h99"
done
