#!/bin/bash
# bench/container.sh [OUT] [ROUNDS] — what does the container cost the
# loop? The same timer loop (1 ms, one SCHED_FIFO thread at 90, 10 s a
# cell; idle and beside latload's hackbench) on the host and in a podman
# container with the rights it needs (CAP_SYS_NICE and CAP_IPC_LOCK, a
# real-time budget where the kernel has RT_GROUP_SCHED; the load inside
# it, as the config runs it), ROUNDS (default 8) rounds alternating
# which side goes first; each side's round a campaign of its own; then
# latlab compare of the ROUNDS host campaigns against the ROUNDS
# container ones, whose verdicts carry n and their intervals.
#
# podman runs with a store of its own under OUT (tools/podman-env.sh);
# the image is made from the static build (make static). OUT (default
# build/bench-container) is replaced. ROUND_SECONDS (default 10) is a
# cell's duration.
#
# Exit: 0 when every campaign ran and compare read them; 1 when one did
# not; 2 for what is missing (podman, the static build).
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
parent=latlab-bench-$$
libpod_was=$(podman_default_parent_before)
budget=()
[ -n "$(podman_rt_parent "$parent")" ] && budget=(--cgroup-parent "/$parent" --cpu-rt-runtime 100000)
cleanup() {
	podman rm -a -f >/dev/null 2>&1
	podman rmi -a -f >/dev/null 2>&1
	podman_parent_remove "$parent"
	podman_default_parent_after "$libpod_was"
	rm -rf "$out/podman"
}
trap 'cleanup; exit 130' INT TERM

cat >"$out/c.ini" <<EOF
; bench/container.sh: the loop on the host and in a container
[campaign]
name = ct
duration = ${ROUND_SECONDS:-10}s

[matrix]
load = none, hackbench
workload = timer
threads = 1
interval = 1ms
priority = 90

[load.hackbench]
type = hackbench
groups = 4

[thresholds]
missed = off
EOF

fails=0
side() {	# side host|container ROUND
	local dir=$out/$1-$2 rc
	mkdir -p "$dir"
	if [ "$1" = host ]; then
		"$latlab" run "$out/c.ini" -o "$dir" -q >"$dir.log" 2>&1
	else
		podman run --rm --pull never --hostname latlab-container --cap-add SYS_NICE,IPC_LOCK "${budget[@]}" \
			-v "$out/c.ini:/c.ini:ro" -v "$dir:/results" "$image" run /c.ini -o /results -q \
			>"$dir.log" 2>&1
	fi
	rc=$?
	[ $rc -le 1 ] || { echo "bench/container: $1, round $2: exit $rc (its log: $dir.log)"; fails=$((fails + 1)); }
}
start=$SECONDS
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then side host "$r"; side container "$r"; else side container "$r"; side host "$r"; fi
	echo "bench/container: round $r of $rounds done ($((SECONDS - start)) s)"
done
hosts=$(ls -d "$out"/host-*/ct | paste -sd,)
cts=$(ls -d "$out"/container-*/ct | paste -sd,)
echo "bench/container: $rounds rounds of host and container, ${ROUND_SECONDS:-10} s a cell; where each ran: $(sed -n 's/^container = //p' "$out"/container-1/ct/*/*/*/sysinfo.ini | head -1), budget $(sed -n 's/^cpu_rt_runtime_us = //p' "$out"/container-1/ct/*/*/*/sysinfo.ini | head -1) us"
"$latlab" compare "$hosts" "$cts" -o "$out/compare" >"$out/compare.txt" 2>&1 || fails=$((fails + 1))
cat "$out/compare.txt"
cleanup
trap - INT TERM
[ $fails -eq 0 ]
