#!/usr/bin/env bash
# latlab's wake-up against rt-tests' cyclictest on the instruction clock
# (issue 60): in icount guests of Debian 6.1 stock and rt and sid's 7.2,
# workload = timer and type = cyclictest side by side in each boot, idle,
# 1 ms, FIFO 90, one thread on CPU 0, RUNS runs of DURATION each (the
# runs share boots: campaign rounds). Per kernel and percentile (min, p10,
# p50, p90, p99, max): latlab minus cyclictest in ns (= instructions), the
# median over the runs with its range, n the runs. p10 and p50 come from
# hist.csv's buckets (16 ns wide at 4 us), min and max are exact.
# Each program also runs twice a round (timer2, ct2: the same settings
# under another name), so two more tables say how far each program is
# from itself in the same boot and round: a difference between the two
# programs that is no larger than these is not one of their paths.
#
#   KERNELS=kernels bench/cyclictest_icount.sh      (RUNS=3 DURATION=10s)
#   APPEND="nohz=off" ...: the guests' kernel command line gets it too
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
APPEND=${APPEND:-}
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO)" >&2; exit 2; }
for k in vmlinux-stock vmlinux-rt sid/vmlinux-stock; do
	[ -s "$KERNELS/$k" ] || { echo "no $KERNELS/$k: make kernels" >&2; exit 2; }
done
command -v cyclictest >/dev/null || { echo "no cyclictest: make deps (rt-tests)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/latlab-ctbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/c.ini" <<EOC
[campaign]
name = ct
duration = $DURATION
repeat = $RUNS
output = $tmp/out
[matrix]
kernel = stock, rt, sid
workload = timer, cyclictest, timer2, ct2
threads = 1
interval = 1ms
[workload.timer2]
type = timer
[workload.ct2]
type = cyclictest
EOC
for v in stock:vmlinux-stock rt:vmlinux-rt sid:sid/vmlinux-stock; do
	printf '[kernel.%s]\nrunner = qemu\nimage = %s/%s\nclock = icount\nboot_timeout = 120s\n' \
		"${v%%:*}" "$KERNELS" "${v#*:}" >>"$tmp/c.ini"
	[ -z "$APPEND" ] || printf 'append = %s\n' "$APPEND" >>"$tmp/c.ini"
done
# carry on when a cell misses a threshold (exit 1): its figures are kept
"$LATLAB" run "$tmp/c.ini" -q || [ $? -eq 1 ] || { echo "latlab run failed" >&2; exit 1; }

# figures DIR: "min p10 p50 p90 p99 max" of the cell's wake-up
figures() {
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		FILENAME ~ /summary/ && $h["metric"] == "wakeup" { mn = $h["min_ns"]; mx = $h["max_ns"] }
		FILENAME ~ /hist/ && $h["metric"] == "wakeup" { lo[n] = $h["lo_ns"]; c[n++] = $h["count"]; all += $h["count"] }
		END {
			split("10 50 90 99", q, " ")
			for (j = 1; j <= 4; j++) { s = 0; for (i = 0; i < n; i++) { s += c[i]; if (s >= all * q[j] / 100) { p[j] = lo[i]; break } } }
			print mn, p[1], p[2], p[3], p[4], mx
		}' "$1/summary.csv" "$1/hist.csv"
}
# table A B TITLE: A's figures minus B's, per kernel and percentile
table() {
	echo "$3, ns of instruction time: median [range] over n = $RUNS runs of $DURATION"
	printf '%-6s %-18s %-18s %-18s %-18s %-18s %-18s\n' kernel min p10 p50 p90 p99 max
	for k in stock rt sid; do
		diffs=()
		for r in $(seq 1 "$RUNS"); do
			a=$(figures "$(echo "$tmp"/out/ct/*/*/*-"$k"-none-"$1"-*-"$r")")
			b=$(figures "$(echo "$tmp"/out/ct/*/*/*-"$k"-none-"$2"-*-"$r")")
			diffs+=("$(paste -d' ' <(echo "$a" | tr ' ' '\n') <(echo "$b" | tr ' ' '\n') | awk '{ printf "%d ", $1 - $2 }')")
		done
		printf '%-6s' "$k"
		for col in 1 2 3 4 5 6; do
			printf '%s\n' "${diffs[@]}" | awk -v c=$col '{ print $c }' | sort -n |
				awk '{ v[NR] = $1 } END { printf " %-18s", sprintf("%+d [%+d, %+d]", v[int((NR + 1) / 2)], v[1], v[NR]) }'
		done
		echo
	done
}
table timer cyclictest "latlab minus cyclictest"
echo
table timer2 timer "latlab minus latlab (the same cell twice a round)"
echo
table ct2 cyclictest "cyclictest minus cyclictest (the same cell twice a round)"
