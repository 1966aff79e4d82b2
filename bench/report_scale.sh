#!/usr/bin/env bash
# How `latlab report` scales: a real campaign of a few 2-second cells
# (timer and noise workloads, 2 repeats), copied round-robin into trees
# of SIZES cells (tools/synth-tree.sh), each reported once. Prints the
# wall time, the time per cell and the figure files per size: it should
# grow linearly. Goal (issue 16): 1 000 cells in under 30 s.
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
printf '%7s %10s %12s %9s\n' cells wall_s ms_per_cell figures
for n in $SIZES; do
	tools/synth-tree.sh "$tmp/src" "$n" "$tmp/t$n"
	start=$(date +%s.%N)
	"$LATLAB" report "$tmp/t$n" -q ${JOBS:+--jobs "$JOBS"} >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err"; exit 1; }
	end=$(date +%s.%N)
	figs=$(ls "$tmp/t$n/report/fig" | grep -c '\.png$')
	awk -v n="$n" -v a="$start" -v b="$end" -v f="$figs" \
		'BEGIN { printf "%7d %10.1f %12.1f %9d\n", n, b - a, (b - a) * 1000 / n, f }'
	rm -rf "$tmp/t$n"
done
