#!/usr/bin/env bash
# compare's verdicts on trees whose truth is known (tools/synth-tail.sh):
# REPS trees of RUNS runs a side, --axis load, each side's wake-ups drawn
# from LAW. Per setting the calls (lower or higher, on the maxima or the
# tail) with a Wilson 95 % interval:
#   A/A                       both sides LAW, SAMPLES a run: false calls
#   10 %, --margin 20%        side b drawn 10 % later (LAW10, MEDIAN and
#                             SCALE times 1.1): how many calls reached
#                             inside the margin without saying so
#                             (issue 45's first defect: 271 of 395)
#   unequal runs              a side of 1/60 the periods (1 s against 60
#                             s): maxima not compared (unequal-runs),
#                             calls of the shorter side lower (issue 45's
#                             third defect: 19 of 20)
#   bench/verdict_synth.sh   (LATLAB, REPS=100, RUNS=5, SAMPLES=6000,
#                             LAW="lognormal:20us,0.2,0.02,20us,0.1")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
REPS=${REPS:-100}
RUNS=${RUNS:-5}
SAMPLES=${SAMPLES:-6000}
LAW=${LAW:-lognormal:20us,0.2,0.02,20us,0.1}
LAW10=${LAW10:-lognormal:22us,0.2,0.02,22us,0.1}
SETTINGS=${SETTINGS:-aa margin unequal}
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# the template: RUNS interleaved runs of two loads that do nothing
cat >"$tmp/t.ini" <<EOC
[campaign]
name = t
duration = 100ms
repeat = $RUNS
output = $tmp
[matrix]
load = a, b
workload = null
[load.a]
type = none
[load.b]
type = none
[thresholds]
missed = off
EOC
"$LATLAB" run "$tmp/t.ini" -q >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 3; }
# calls OUT: "max tail margin_silent" counts of a compare's row (0/1 each)
calls() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		!seen++ { m = $c["verdict_max"] ~ /lower|higher/; t = $c["verdict_tail"] ~ /lower|higher/
			  print m, t, $c["verdict_max"] }' "$1/compare.csv"
}
for setting in $SETTINGS; do
	max=0 tail=0 either=0 unequal=0 silent=0 tcalls=0
	for r in $(seq 1 "$REPS"); do
		case $setting in
		unequal) "$PWD/tools/synth-tail.sh" "$tmp/t" "$tmp/s" load "$SAMPLES" "$r" "a@$((SAMPLES / 60))=$LAW" "b=$LAW" ;;
		margin) "$PWD/tools/synth-tail.sh" "$tmp/t" "$tmp/s" load "$SAMPLES" "$((r * 1000))" "a=$LAW" "b=$LAW10" ;;
		*) "$PWD/tools/synth-tail.sh" "$tmp/t" "$tmp/s" load "$SAMPLES" "$((r * 1000))" "a=$LAW" "b=$LAW" ;;
		esac
		opt=()
		[ $setting = margin ] && opt=(--margin 20%)
		"$LATLAB" compare "$tmp/s" --axis load -o "$tmp/c" "${opt[@]}" >"$tmp/c.out" 2>&1 ||
			{ cat "$tmp/c.out"; exit 3; }
		read -r m t v <<<"$(calls "$tmp/c")"
		max=$((max + m)) tail=$((tail + t))
		[ "$m" = 1 ] || [ "$t" = 1 ] && either=$((either + 1))
		[ "$v" = unequal-runs ] && unequal=$((unequal + 1))
		if [ $setting = margin ] && { [ "$m" = 1 ] || [ "$t" = 1 ]; }; then
			tcalls=$((tcalls + 1))
			# a call ("lower, 1.10x [1.02x, 1.43x]") whose lower bound is
			# inside the margin, without the words that say so
			line=$(grep ': wake-up: ' "$tmp/c.out" | head -1)
			lo=$(grep -o 'lower[^[]*\[[0-9.]*x' <<<"$line" | head -1 | sed 's/.*\[//; s/x$//')
			if [ -n "$lo" ] && awk -v l="$lo" 'BEGIN { exit !(l < 1.2) }' &&
				[[ "$line" != *"not shown to exceed the 20 % margin"* ]]; then
				silent=$((silent + 1))
				echo "  silent: $line" >&2
			fi
		fi
	done
	case $setting in
	aa) echo "A/A ($LAW, $RUNS runs of $SAMPLES a side), false calls: max $(wilson $max "$REPS"); tail $(wilson $tail "$REPS"); either $(wilson $either "$REPS")" ;;
	margin) echo "b 10 % later ($LAW10), --margin 20 %: calls $(wilson $either "$REPS"); calls reaching inside the margin without its words: $silent of $tcalls" ;;
	unequal) echo "unequal runs ($((SAMPLES / 60)) against $SAMPLES periods a run): maxima not compared (unequal-runs) in $unequal of $REPS; a side called on the maxima $(wilson $max "$REPS"); on the tail $(wilson $tail "$REPS")" ;;
	esac
done
