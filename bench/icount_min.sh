#!/usr/bin/env bash
# The minimum wake-up of latlab's timer and of rt-tests' cyclictest on the
# instruction clock, run after run (issue 72): Debian 6.1 stock in an icount
# guest, a boot a run (boots = round), both programs in each boot, 1 ms,
# FIFO 90, one thread, DURATION each. Prints each run's two minima and
# their difference, then n, the values each program took and the range of
# the differences: what tests/cli/guests/vs-cyclictest.bats may hold.
#
#   KERNELS=kernels bench/icount_min.sh         (RUNS=20 DURATION=3s)
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-20}
DURATION=${DURATION:-3s}
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO)" >&2; exit 2; }
[ -s "$KERNELS/vmlinux-stock" ] || { echo "no $KERNELS/vmlinux-stock: make kernels" >&2; exit 2; }
[ -x build/static/latlab ] || { echo "no build/static/latlab: make static" >&2; exit 2; }
command -v cyclictest >/dev/null || { echo "no cyclictest: make deps (rt-tests)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/latlab-icountmin.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/c.ini" <<EOC
[campaign]
name = m
duration = $DURATION
repeat = $RUNS
output = $tmp/out
[matrix]
kernel = stock
workload = timer, cyclictest
threads = 1
interval = 1ms
[thresholds]
missed = off
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinux-stock
clock = icount
boots = round
programs = $PWD/build/static
EOC
"$LATLAB" run "$tmp/c.ini" -q >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }

min_of() {	# the wake-up's min_ns of run $2's cell of workload $1
	local d
	d=$(find "$tmp/out/m" -type d -name "*-$1-*-$2" | head -n 1)
	awk -F, '$3 == "wakeup" { print $5; exit }' "$d/summary.csv"
}
echo "run latlab_ns cyclictest_ns latlab-cyclictest"
for r in $(seq 1 "$RUNS"); do
	echo "$r $(min_of timer "$r") $(min_of cyclictest "$r")"
done | awk '{ print $0, $2 - $3 }' | tee "$tmp/mins"
awk -v n="$RUNS" '
	{ d = $4; if (NR == 1 || d < lo) lo = d; if (NR == 1 || d > hi) hi = d
	  l[$2]++; c[$3]++ }
	END {
		printf "n = %d runs (a boot each): latlab - cyclictest from %d to %d ns\n", NR, lo, hi
		printf "latlab, its minima:"; for (v in l) printf " %s ns (%d)", v, l[v]; print ""
		printf "cyclictest, its minima:"; for (v in c) printf " %s ns (%d)", v, c[v]; print ""
	}' "$tmp/mins"
