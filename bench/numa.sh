#!/usr/bin/env bash
# Local against remote memory for a measured thread, side by side in one
# interleaved campaign ([matrix] numa = local, remote; issue 29): the
# mem-touch workload (a word in every cache line of SIZE each period) on
# node 0's CPUs, its buffer and stack bound to node 0 or to the nearest
# other node. Prints, per placement, the median over ROUNDS runs of the
# time in the touch (io p50) with its range, the ratio remote/local round
# by round (median and range, n rounds), and compare's verdict on the
# worst case (response, a 97.5 % interval, n runs each).
#
# On a machine of two nodes or more it runs here. On one of one node
# (this VM) it runs in a qemu guest of two emulated nodes (KERNELS,
# TCG): qemu gives remote memory no cost of its own, so there the ratio
# is the method's check (about 1), not a machine's.
#
#   bench/numa.sh        (LATLAB=build/latlab ROUNDS=5 DURATION=1 SIZE=4MiB KERNELS=kernels)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-1}
SIZE=${SIZE:-4MiB}
KERNELS=${KERNELS:-$PWD/kernels}
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

nodes=$(cat /sys/devices/system/node/has_memory 2>/dev/null || echo 0)
kernel=""
if [ "$nodes" = 0 ]; then
	[ -s "$KERNELS/vmlinuz-stock" ] || { echo "one node here and no $KERNELS/vmlinuz-stock (make kernels)" >&2; exit 2; }
	where="a qemu guest of two emulated nodes (TCG: remote memory costs nothing extra there)"
	kernel="kernel = stock
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinuz-stock
accel = tcg
cpus = 2
numa_nodes = 2
memory = 1G"
else
	where="this machine (nodes with memory: $nodes)"
fi
cat >"$tmp/n.ini" <<EOC
[campaign]
name = n
duration = ${DURATION}s
repeat = $ROUNDS
output = $tmp/out
[thresholds]
missed = off
[matrix]
workload = mem-touch
size = $SIZE
affinity = node:0
numa = local, remote
$kernel
EOC
echo "== mem-touch of $SIZE on node 0's CPUs, memory local or remote, $ROUNDS interleaved runs of ${DURATION} s, in $where"
"$LATLAB" run "$tmp/n.ini" -q >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
# per run: its placement, its round (repeat) and io p50 (us), threads merged (the largest)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["metric"] == "io" { k = $c["numa"] " " $c["repeat"]; if ($c["p50_ns"] > v[k]) v[k] = $c["p50_ns"] }
	END { for (k in v) { split(k, a, " "); printf "%s %s %.3f\n", a[1], a[2], v[k] / 1000 } }' \
	"$tmp/out/n/cells.csv" | sort -k2n >"$tmp/p50"
for p in local remote; do
	awk -v p="$p" '$1 == p { print $3 }' "$tmp/p50" >"$tmp/$p"
	echo "$p: io p50 (us) $(median_range 3 <"$tmp/$p")"
done
# each round's remote against the same round's local (they ran side by side)
awk '$1 == "local" { l[$2] = $3 } $1 == "remote" { r[$2] = $3 }
	END { for (k in l) if (k in r) printf "%.4f\n", r[k] / l[k] }' "$tmp/p50" >"$tmp/ratio"
echo "io p50 remote/local, round by round: $(median_range 3 <"$tmp/ratio")"
"$LATLAB" compare "$tmp/out/n" --axis numa -o "$tmp/cmp" 2>&1 | grep -v '/index.html:' | sed 's/^/compare: /'
