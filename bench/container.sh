#!/bin/bash
# bench/container.sh [OUT] [ROUNDS] — what does the container cost the
# loop? The same timer loop (1 ms, one SCHED_FIFO thread at 90, 10 s a
# cell; idle and beside latload's hackbench) on the host and in a podman
# container, as one campaign of two kernel variants: host, and ct
# (runner = container, docs/containers.md: SYS_NICE and IPC_LOCK, a
# real-time budget where the kernel has RT_GROUP_SCHED, the load inside
# the container as the config runs it). ROUNDS (default 8) rounds, each
# in a seeded random order (order = shuffled: which side goes first
# varies); then latlab compare of the campaign, whose verdicts carry n
# and their intervals, and each side's medians and maxima per load.
#
# podman runs with a store of its own under OUT (tools/podman-env.sh);
# the image is made from the static build (make static). OUT (default
# build/bench-container) is replaced. ROUND_SECONDS (default 10) is a
# cell's duration.
#
# SETTINGS=1 asks what the container's settings cost instead: four
# container variants beside each other, the thread pinned to CPU 1 in
# all — ct (latlab's defaults: no cpuset, a 100 ms budget), ct-cpuset
# (--cpuset-cpus 1: the container confined to the measured CPU, its own
# load with it), ct-budget (rt_runtime = 950ms) and ct-out (load_in =
# host: the load on the host, outside the container) — compared pair by
# pair (SETTINGS_KERNELS: a list of some of them).
#
# Exit: 0 when every cell ran and compare read them; 1 when one did not;
# 2 for what is missing (podman, the static build).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$here/build/bench-container}")
rounds=${2:-8}
latlab=$here/build/latlab
static=$here/build/static
# shellcheck source=../tools/podman-env.sh
source "$here/tools/podman-env.sh"

[ -x "$latlab" ] || { echo "bench/container: no $latlab (make)" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out" || exit 2
podman_env "$out/podman"
image=$("$here/tools/container-image.sh" "$static/latlab" "$static/latload") || exit 2
cleanup() {
	podman rm -a -f >/dev/null 2>&1
	podman rmi -a -f >/dev/null 2>&1
	rm -rf "$out/podman"
}
trap 'cleanup; exit 130' INT TERM

kernels="host, ct" affinity=spread variants="[kernel.host]
match = any"
if [ "${SETTINGS:-0}" = 1 ]; then
	kernels=${SETTINGS_KERNELS:-ct, ct-cpuset, ct-budget, ct-out} affinity=1
	variants="[kernel.ct-cpuset]
runner = container
image = $image
container_args = --cpuset-cpus 1

[kernel.ct-budget]
runner = container
image = $image
rt_runtime = 950ms

[kernel.ct-out]
runner = container
image = $image
load_in = host"
fi
cat >"$out/c.ini" <<END
; bench/container.sh: the loop on the host and in a container
[campaign]
name = ct
duration = ${ROUND_SECONDS:-10}s
repeat = $rounds
order = shuffled

[matrix]
kernel = $kernels
load = none, hackbench
workload = timer
threads = 1
affinity = $affinity
interval = 1ms
priority = 90

$variants

[kernel.ct]
runner = container
image = $image

[load.hackbench]
type = hackbench
groups = 4

[thresholds]
missed = off
END

fails=0
start=$SECONDS
"$latlab" run "$out/c.ini" -o "$out" >"$out/run.log" 2>&1
rc=$?
[ $rc -le 1 ] || { echo "bench/container: latlab run: exit $rc (its log: $out/run.log)"; fails=1; }
si=$(ls "$out"/ct/*-ct/*/*/sysinfo.ini 2>/dev/null | head -1)
where=
[ -n "$si" ] && where="$(sed -n 's/^container = //p' "$si"), budget $(sed -n 's/^cpu_rt_runtime_us = //p' "$si") us"
echo "bench/container: $rounds rounds of $kernels, ${ROUND_SECONDS:-10} s a cell, $((SECONDS - start)) s; the container: $where"
"$latlab" compare "$out/ct" -o "$out/compare" >"$out/compare.txt" 2>&1 || fails=1
cat "$out/compare.txt"
# each side's wake-up p50 and maximum of every run, per load (us)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["metric"] == "wakeup" && $h["thread"] == 0 {
		printf "%s %s %.1f %.1f\n", $h["kernel"], $h["load"], $h["p50_ns"] / 1000, $h["max_ns"] / 1000 }' \
	"$out/ct/cells.csv" | sort -k1,2 -k3,3g |
	awk '{ k = $1 " " $2; p[k] = p[k] " " $3; m[k] = m[k] " " $4 }
	END { for (k in p) print k ": p50" p[k] " | max" m[k] }' | sort
cleanup
trap - INT TERM
[ $fails -eq 0 ]
