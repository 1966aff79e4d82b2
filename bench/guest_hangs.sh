#!/bin/bash
# Guests with devices under load, beside a CPU hog: does any hang, or is
# any called hung that was only slow? (issue 69: 3 of 80 cells of the
# my-loop campaign had no word for 122 s with a disk or cards under load
# on the instruction clock; attack-5 guest/07 was a slow guest called hung)
#
#   bench/guest_hangs.sh [KERNELS] [REPEAT]
#
# Debian's stock and rt kernels (KERNELS, default kernels/: make kernels)
# on the instruction clock, each with its virtio disk and two cards: a
# chain that reads sysfs and fdatasyncs a write, and udp-rtt across the
# cards, under the disk load, the net load (TCP across the cards) and
# hackbench — 12 cells a round, REPEAT rounds (default 17: 204 cells) of
# 1 s — while a CPU hog of its own session keeps one of this machine's
# CPUs busy. Prints how many cells ended ok, how many were called hung
# (the guest said nothing past its bound) and how many failed otherwise,
# with a Wilson interval, and each hung cell's console tail. KEEP=DIR
# keeps the tree. Exit 0 when no cell hung, 1 when one did, 2 usage.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/.." && pwd)
kernels=$(cd "${1:-$root/kernels}" 2>/dev/null && pwd) || { echo "no kernels directory: make kernels" >&2; exit 2; }
repeat=${2:-17}
latlab=$root/build/latlab
[ -x "$latlab" ] || { echo "build latlab first (make)" >&2; exit 2; }
[ -s "$kernels/vmlinux-stock" ] && [ -s "$kernels/vmlinux-rt" ] || { echo "no kernel images in $kernels: make kernels" >&2; exit 2; }
bench_dirs
trap 'kill -- -"$hog" 2>/dev/null; rm -rf "$work"; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

cat >"$work/h.ini" <<EOF
[campaign]
name = hangs
duration = 1s
repeat = $repeat
output = $tmp

[matrix]
kernel = stock, rt
load = disk, net, hackbench
workload = loop, udp-rtt
interval = 1ms
priority = 90

[workload.loop]
type = chain
steps = sysfs-read, logger

[workload.logger]
type = file-write
region = 16MiB
sync = fdatasync

[load.disk]
type = disk

[load.net]
type = net
proto = tcp

[load.hackbench]
type = hackbench
groups = 1

[thresholds]
missed = off

[kernel.stock]
runner = qemu
image = $kernels/vmlinux-stock
match = !preempt:rt
clock = icount

[kernel.rt]
runner = qemu
image = $kernels/vmlinux-rt
match = preempt:rt
clock = icount
EOF
# the hog: a session of its own, found by its process group
setsid sh -c 'while :; do :; done' &
hog=$!
start=$(date +%s)
"$latlab" run "$work/h.ini" -q --jobs 2 >"$work/run.log" 2>&1 || true
secs=$(( $(date +%s) - start ))
cells=$tmp/hangs/cells.csv
[ -s "$cells" ] || { echo "no cells.csv: the run said" >&2; tail -5 "$work/run.log" >&2; exit 1; }
# cells.csv has a row per thread and metric: a cell once, by its id
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	!seen[$h["cell"]]++ { print $h["cell"] "\t" $h["status"] "\t" $h["reason"] }' "$cells" >"$work/cells.tsv"
n=$(wc -l <"$work/cells.tsv")
ok=$(awk -F'\t' '$2 == "ok"' "$work/cells.tsv" | wc -l)
hung=$(awk -F'\t' '$2 != "ok" && $3 ~ /the guest hung|no word from it/' "$work/cells.tsv" | wc -l)
echo "guest cells with a disk or cards under load beside a CPU hog: $n in ${secs} s"
echo "  ok:        $(wilson "$ok" "$n")"
echo "  hung:      $(wilson "$hung" "$n")"
echo "  otherwise: $((n - ok - hung)) (their reasons below)"
awk -F'\t' '$2 != "ok" { print "    " $1 ": " $2 ": " $3 }' "$work/cells.tsv"
for c in $(grep -l 'the guest hung' "$tmp"/hangs/*/*/*/cell.ini 2>/dev/null); do
	d=$(dirname "$c")
	echo "  $(basename "$d"): its console's last lines:"
	tail -5 "$d/console.log" 2>/dev/null | sed 's/^/    /'
done
[ "$hung" -eq 0 ]
