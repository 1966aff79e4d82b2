#!/usr/bin/env bash
# How `latlab report` scales: a real campaign of a few 2-second cells
# (timer and noise workloads, 2 repeats), copied round-robin into trees
# of SIZES cells (tools/synth-tree.sh), each reported by default (the
# cells' figures in SVG) and then with --png. Prints the wall time, the
# time per cell and the figures per size (it should grow linearly), and
# the --png report's time beside it. Goal (issue 16): 1 000 cells in
# under 30 s.
#
#   bench/report_scale.sh      (LATLAB=build/latlab SIZES="100 1000 5000" JOBS=)
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
SIZES=${SIZES:-100 1000 5000}
JOBS=${JOBS:-}
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/src.ini" <<EOC
[campaign]
name = src
duration = 2s
repeat = 2
output = $tmp
[matrix]
workload = timer, noise
affinity = 1
[thresholds]
; a loaded VM's missed periods would fail the cells, which synth-tree
; does not copy: the figures are what is measured here
missed = off
EOC
"$LATLAB" run "$tmp/src.ini" -q >/dev/null 2>&1 || true
# report_time TREE [OPTION]: one report of TREE, its wall time in s
report_time() {
	local start end
	rm -rf "$1/report"
	start=$(date +%s.%N)
	"$LATLAB" report "$1" -q ${JOBS:+--jobs "$JOBS"} ${2:+"$2"} >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; return 1; }
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
# the default (each cell's figures in SVG) and --png (in PNG too), one
# after the other on the same tree: their ratio is this machine's cost
# of the PNGs at that moment
printf '%7s %10s %12s %9s %10s %9s\n' cells wall_s ms_per_cell figures png_wall_s png/svg
for n in $SIZES; do
	tools/synth-tree.sh "$tmp/src" "$n" "$tmp/t$n"
	svg=$(report_time "$tmp/t$n")
	figs=$(ls "$tmp/t$n/report/fig" | grep -c '\.svg$')
	png=$(report_time "$tmp/t$n" --png)
	awk -v n="$n" -v s="$svg" -v p="$png" -v f="$figs" \
		'BEGIN { printf "%7d %10.1f %12.1f %9d %10.1f %9.2f\n", n, s, s * 1000 / n, f, p, p / s }'
	rm -rf "$tmp/t$n"
done
