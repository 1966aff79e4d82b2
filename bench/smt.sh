#!/bin/bash
# bench/smt.sh [OUT] — SMT siblings and cgroup v2 for real (issue 74,
# item 4): the Debian machine of tools/debian-machine.sh, booted under TCG
# with two cores of two hardware threads each (-smp
# 4,sockets=1,cores=2,threads=2 on an Intel-vendor CPU model: qemu's
# default AMD one has no SMT under TCG; CPUs 0-1 and 2-3 siblings) and
# cgroup v2 as systemd sets it up, runs bench/machine/smt-job: latlab
# plan at a shell and as a systemd service, and a campaign run as a
# service, with the measured thread on CPU 1 and CPU 0 its sibling; and
# the smt axis (issue 76, item 5): CPU 3 measured with smt = off takes
# CPU 2 offline for its cell and back after, and CPU 1's sibling, CPU 0,
# which x86 cannot take offline, is refused at plan time. Each check is
# said either way.
#
# Then podman in the same machine (cgroup v2, systemd's cgroup manager,
# no RT_GROUP_SCHED): latlab plan in a container without the rights (the
# diagnosis) and with them, and a campaign of a host and a container
# variant (runner = container) run as a systemd service. The machine's
# image has no podman: its .debs (and what they need that the image
# lacks, found from the image's own dpkg status) are downloaded here with
# apt-get from this machine's sources and brought with the job, with
# latlab's static build and tools/container-image.sh to make its image
# there as make image does here.
#
# Needs build/deb/latlab_*.deb (make deb) and build/static (make static);
# the machine's image is built once and cached (tools/debian-machine.sh,
# LATLAB_MACHINES). OUT (default build/smt) is replaced.
#
# Exit: 0 when every check held; 1 when one did not; 2 for what is
# missing or a machine that did not run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$here/build/smt}")

deb=$(ls "$here"/build/deb/latlab_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "smt: no build/deb/latlab_*.deb (make deb)" >&2; exit 2; }
img=$("$here/tools/debian-machine.sh" "$deb") || exit 2
for p in latlab latload; do
	[ -x "$here/build/static/$p" ] || { echo "smt: no build/static/$p (make static)" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out" || exit 2
start=$SECONDS
# the job: smt-job, podman's .debs the image lacks, latlab's static build
job=$out/job
cp -r "$here/bench/machine/smt-job" "$job" && mkdir -p "$job/podman-debs/partial" "$job/static" &&
	cp "$here/build/static/latlab" "$here/build/static/latload" "$job/static/" &&
	cp "$here/tools/container-image.sh" "$job/" || exit 2
mnt=$(mktemp -d) || exit 2
mount -o ro,loop,noload,offset=$((2048 * 512)) "$img" "$mnt" &&
	cp "$mnt/var/lib/dpkg/status" "$out/machine-status"
umount "$mnt" 2>/dev/null
rmdir "$mnt"
[ -s "$out/machine-status" ] || { echo "smt: cannot read the machine's dpkg status from $img" >&2; exit 2; }
apt-get -q -o Dir::State::status="$out/machine-status" -o Dir::Cache::archives="$job/podman-debs" \
	-o Debug::NoLocking=1 --download-only --no-install-recommends -y install podman \
	>"$out/apt.log" 2>&1 || { echo "smt: apt-get could not fetch podman's .debs for the machine (its log: $out/apt.log)" >&2; exit 2; }
rm -rf "$job/podman-debs/partial" "$job/podman-debs/lock"
echo "smt: podman and $(($(ls "$job"/podman-debs/*.deb | wc -l) - 1)) packages it needs, for the machine ($(du -sh "$job/podman-debs" | cut -f1))"
echo "smt: booting $img with two cores of two SMT siblings each (TCG; the console: $out/machine/console.log)"
MACHINE_CPU="qemu64,vendor=GenuineIntel" MACHINE_SMP="4,sockets=1,cores=2,threads=2" MACHINE_DEB=$deb \
	"$here/tools/debian-machine-run.sh" "$img" "$job" "$out/machine" \
	"${SMT_SECONDS:-1800}" || { echo "smt: the machine did not power off in time"; exit 2; }
echo "smt: the machine powered off after $((SECONDS - start)) s"
b=$out/machine/back/back
fails=0
check() {	# check WHAT COMMAND...: said either way
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then echo "  ok: $what"; else echo "  FAILED: $what"; fails=$((fails + 1)); fi
}
said="its measured CPU 1 shares a core with CPU 0 (SMT siblings), which it does not measure: latlab's housekeeping runs there (housekeeping = 0) — the two share the core's pipeline and caches (and so in more cells)"
check "the machine has two cores of two threads (CPUs 0-1 and 2-3 siblings, SMT active)" \
	sh -c 'grep -qx "siblings: 0-1 0-1" "$1/facts.txt" && grep -qx "siblings 2-3: 2-3 2-3" "$1/facts.txt"' sh "$b"
check "cgroup v2, as systemd sets it up" grep -qx 'cgroup fs: cgroup2fs' "$b/facts.txt"
check "plan at a shell names the sibling and what runs there, exit 0" \
	sh -c 'grep -qF "warning: 0000-none-timer-t1-a1-1: $1" "$2/plan.txt" && grep -qx "exit 0" "$2/plan.txt"' sh "$said" "$b"
check "plan as a systemd service says the same, exit 0" \
	sh -c 'grep -qF "warning: 0000-none-timer-t1-a1-1: $1" "$2/service-plan.txt" && grep -qx "exit 0" "$2/service-plan-exit.txt"' sh "$said" "$b"
check "run as a systemd service warns the same and measures both cells, exit 0" \
	sh -c 'grep -qF "latlab: warning: 0000-none-timer-t1-a1-1: $1" "$2/service-run.txt" &&
		grep -qx "exit 0" "$2/service-run-exit.txt" && [ "$(grep -c " = ok$" "$2/tree/state")" -eq 2 ]' sh "$said" "$b"
check "the cells name the service's cgroup, and no RT_GROUP_SCHED on Debian's kernel" \
	sh -c 'for s in "$1"/tree/*/*/*/sysinfo.ini; do
		grep -qx "cpu_cgroup = /system.slice/latlab-smt-run.service" "$s" &&
		grep -qx "cpu_rt_runtime_us = none (no RT_GROUP_SCHED)" "$s" || exit 1; done' sh "$b"
check "sysinfo says SMT is active" grep -q '^w[0-9]* = SMT is active' "$b"/tree/*/*/0000-*/sysinfo.ini
# [matrix] smt: CPU 3 measured, its sibling CPU 2 offline for the off cell, online after
check "smt = off: the measured CPU's sibling offline for its cell (cell.ini), both cells ok, exit 0" \
	sh -c 'grep -qx "exit 0" "$1/axis-run.txt" && [ "$(grep -c " = ok$" "$1/axis-tree/state")" -eq 2 ] &&
		grep -qx "smt_done = CPU 2 offline (the measured CPUs'"'"' siblings)" "$1"/axis-tree/*/*/0001-*/cell.ini' sh "$b"
check "smt = off: the sibling online again after the cell" grep -qx "cpu2 online after: 1" "$b/axis-run.txt"
check "smt = off with CPU 1 measured and housekeeping = 0: its sibling is latlab's, refused at plan time (exit 2)" \
	sh -c 'grep -q "smt = off: CPU 0, a sibling of measured CPU 1, is one of \[campaign\] housekeeping" "$1/axis-plan-hk.txt" &&
		grep -qx "exit 2" "$1/axis-plan-hk.txt"' sh "$b"
check "smt = off with CPU 1 measured: CPU 0, its sibling, cannot go offline, refused at plan time (exit 2)" \
	sh -c 'grep -q "smt = off: CPU 0, a sibling of measured CPU 1, cannot be taken offline" "$1/axis-plan.txt" &&
		grep -qx "exit 2" "$1/axis-plan.txt"' sh "$b"
# podman in the machine
c=$b/ct
check "podman in the machine: cgroup v2, systemd's cgroup manager, latlab's image made there" \
	sh -c 'grep -qx "cgroup version: v2" "$1/facts.txt" && grep -qx "cgroup manager: systemd" "$1/facts.txt" &&
		grep -q "^image: localhost/latlab:" "$1/facts.txt"' sh "$c"
check "plan in a container without the rights names podman and CAP_SYS_NICE, exit 3" \
	sh -c 'grep -q "runs in podman (/run/.containerenv)" "$1/plan-bare.txt" && grep -q "CAP_SYS_NICE" "$1/plan-bare.txt" &&
		grep -qx "exit 3" "$1/plan-bare.txt"' sh "$c"
check "plan in a container with SYS_NICE and IPC_LOCK, exit 0" grep -qx "exit 0" "$c/plan-caps.txt"
check "a host and a container variant as a systemd service: every cell ok, exit 0" \
	sh -c 'grep -qx "exit 0" "$1/run-exit.txt" && [ "$(grep -c " = ok$" "$1/tree/state")" -eq 4 ]' sh "$c"
check "the container's cells: runner = container, its cgroup its own namespace's root (v2), SCHED_FIFO" \
	sh -c 'n=0; for s in "$1"/tree/*-ct/*/*/sysinfo.ini; do n=$((n + 1))
		grep -qx "runner = container" "$s" &&
		grep -qx "cpu_cgroup = / (the root of the container.s own cgroup namespace: the host names it otherwise)" "$s" &&
		grep -qx "cap_sys_nice = yes" "$s" && grep -qx "policy = fifo" "$(dirname "$s")/cell.ini" || exit 1
		done; [ $n -eq 2 ]' sh "$c"
check "latlab compare reads the campaign: host against ct" grep -q "wake-up:" "$c/compare.txt"
echo "smt: $((SECONDS - start)) s; $fails check(s) failed"
[ $fails -eq 0 ]
