#!/usr/bin/env bash
# Time to a verdict on PREEMPT_RT, plain TCG against the instruction-counted
# clock: the same campaign (Debian's stock and rt kernels in qemu, 1 vCPU,
# hackbench, RUNS runs of DURATION each) once on the host's clock and once
# with clock = icount, one after the other in one run. Prints, for each,
# the campaign's wall time and the verdict latlab compare reached on the
# worst case, with its interval and n.
#
#   bench/time_to_verdict.sh   (LATLAB=build/latlab KERNELS=kernels RUNS=5 DURATION=1s)
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-5}
DURATION=${DURATION:-1s}
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for f in vmlinuz-stock vmlinuz-rt; do
	[ -s "$KERNELS/$f" ] || { echo "time_to_verdict: no $KERNELS/$f (make kernels)" >&2; exit 2; }
done

# config CLOCK: the campaign on that clock (host: plain TCG)
config() {
	cat <<EOC
[campaign]
name = $1
duration = $DURATION
repeat = $RUNS
output = $tmp
boot_attempts = 1
[matrix]
kernel = stock, rt
load = hackbench
workload = timer
interval = 1ms
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinuz-stock
match = !preempt:rt
accel = tcg
cpus = 1
clock = $1
boot_timeout = 180s
[kernel.rt]
runner = qemu
image = $KERNELS/vmlinuz-rt
match = preempt:rt
accel = tcg
cpus = 1
clock = $1
boot_timeout = 180s
[load.hackbench]
type = hackbench
groups = 1
EOC
}

printf '%-8s %8s  %s\n' clock wall_s "verdict on the worst case (stock against rt)"
for clock in host icount; do
	config "$clock" >"$tmp/$clock.ini"
	s=$(date +%s%N)
	"$LATLAB" run "$tmp/$clock.ini" -q >"$tmp/$clock.log" 2>&1 || true
	e=$(date +%s%N)
	verdict=$("$LATLAB" compare "$tmp/$clock" -o "$tmp/cmp-$clock" 2>/dev/null |
		sed -n 's/^hackbench, [^:]*: //p' | head -1)
	awk -v c="$clock" -v ns=$((e - s)) -v v="${verdict:-no verdict (see $tmp/$clock.log)}" \
		'BEGIN { printf "%-8s %8.1f  %s\n", c, ns / 1e9, v }'
done
