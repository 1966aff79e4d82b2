#!/usr/bin/env bash
# synth-tail.sh TEMPLATE OUT AXIS SAMPLES SEED VALUE[@N]=LAW...: a results
# tree whose wake-ups are drawn from laws with known tails, for tailfit's
# tests and benchmarks (docs/report.md, "Beyond the run"). OUT is a copy
# of TEMPLATE (a tree of one thread per cell) in which every measured
# cell whose AXIS column (cells.csv: load, workload, kernel...) is VALUE
# gets SAMPLES wake-ups drawn from LAW (harness/report/synth.h:
# exp:20us,3us, gpd:10us,5us,0.2, ...), seeded SEED + the cell's index:
# its hist.csv rows, summary.csv row and cells.csv row of the wake-up,
# computed as a cell computes them (build/latsynth), no missed period.
# VALUE@N=LAW draws N wake-ups a run for that value instead of SAMPLES
# (runs of different lengths). Each run's draws are also counted in
# SYNTH_WINDOWS windows of 10 s (default 2), its timeline.csv's wake-up
# rows replaced by them (for the within-run test of bursts).
# The other metrics stay the template's; samples.bin and the spike
# captures (spikes.csv, trace-N.*), which no longer match, are removed. Exit 2 on bad input, the reason on stderr.
set -eu
[ $# -ge 6 ] || { echo "usage: synth-tail.sh TEMPLATE OUT AXIS SAMPLES SEED VALUE[@N]=LAW..." >&2; exit 2; }
src=$1 out=$2 axis=$3 samples=$4 seed=$5
shift 5
here=$(cd "$(dirname "$0")/.." && pwd)
synth=${LATSYNTH:-$here/build/latsynth}
[ -x "$synth" ] || { echo "synth-tail: $synth is not built (make unit-bins)" >&2; exit 2; }
[ -s "$src/cells.csv" ] || { echo "synth-tail: $src is not a results tree" >&2; exit 2; }
declare -A law count
for a in "$@"; do
	case $a in *=*) ;; *) echo "synth-tail: '$a' is not VALUE=LAW" >&2; exit 2 ;; esac
	key=${a%%=*}
	value=${key%%@*}
	law[$value]=${a#*=}
	count[$value]=$samples
	if [ "$key" != "$value" ]; then
		count[$value]=${key#*@}
		case ${count[$value]} in ''|*[!0-9]*) echo "synth-tail: '$key': N is not a count" >&2; exit 2 ;; esac
	fi
done
head -1 "$src/cells.csv" | tr , '\n' | grep -qx "$axis" ||
	{ echo "synth-tail: cells.csv has no column '$axis'" >&2; exit 2; }
rm -rf "$out"
cp -r "$src" "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# each measured cell's wake-up row: its directory, axis value, index, thread and CPU
awk -F, -v axis="$axis" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["status"] == "ok" && $c["metric"] == "wakeup" {
		if ($c["thread"] != 0) { print "synth-tail: cell " $c["cell"] " has more than one thread" > "/dev/stderr"; exit 2 }
		print $c["host"] "/" $c["kernel_release"] "/" $c["cell"], $c[axis], $c["index"], $c["cpu"], $c["cell"] }' \
	"$out/cells.csv" >"$tmp/cells"
: >"$tmp/new"
while read -r dir value index cpu cell; do
	[ -n "${law[$value]+x}" ] || { echo "synth-tail: no law for $axis = $value (cell $cell)" >&2; exit 2; }
	"$synth" "${law[$value]}" "${count[$value]}" "$((seed + index))" "${SYNTH_WINDOWS:-2}" >"$tmp/draw"
	d=$out/$dir
	# timeline.csv: the wake-up's windows replaced
	{
		echo t_s,thread,metric,bin,lo_ns,hi_ns,count
		[ ! -f "$d/timeline.csv" ] || awk -F, 'NR > 1 && $3 != "wakeup"' "$d/timeline.csv"
		sed -n 's/^timeline,//p' "$tmp/draw"
	} >"$tmp/t"
	mv "$tmp/t" "$d/timeline.csv"
	# hist.csv: the wake-up's buckets replaced
	awk -F, -v OFS=, -v cpu="$cpu" 'NR == FNR { if ($1 == "timeline") next; if ($1 != "summary") { $2 = cpu; b[++n] = $0 }; next }
		FNR == 1 || $3 != "wakeup" { print }
		END { for (i = 1; i <= n; i++) print b[i] }' "$tmp/draw" "$d/hist.csv" >"$tmp/h"
	mv "$tmp/h" "$d/hist.csv"
	sum=$(sed -n 's/^summary,//p' "$tmp/draw")
	# summary.csv: samples .. max_ns of the wake-up row, no overruns
	awk -F, -v OFS=, -v s="$sum" 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["metric"] == "wakeup" { n = split(s, v, ","); for (i = 0; i < n; i++) $(c["samples"] + i) = v[i + 1]
			$c["overruns"] = 0 }
		{ print }' "$d/summary.csv" >"$tmp/s"
	mv "$tmp/s" "$d/summary.csv"
	printf '%s %s\n' "$cell" "$sum" >>"$tmp/new"
	rm -f "$d/samples.bin" "$d/spikes.csv" "$d"/trace-*
done <"$tmp/cells"
# cells.csv: each cell's wake-up row the same way
awk -F, -v OFS=, 'NR == FNR { split($0, p, " "); s[p[1]] = p[2]; next }
	FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["metric"] == "wakeup" && ($c["cell"] in s) {
		n = split(s[$c["cell"]], v, ","); for (i = 0; i < n; i++) $(c["samples"] + i) = v[i + 1]
		$c["overruns"] = 0; if ("missed_pct" in c) $c["missed_pct"] = "0.00" }
	{ print }' "$tmp/new" "$out/cells.csv" >"$tmp/c"
mv "$tmp/c" "$out/cells.csv"
