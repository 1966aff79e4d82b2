#!/usr/bin/env bash
# How long a run must be for compare to see a hog: power and false calls
# inside one tree against the cells' duration, side by side.
#
# CAMPAIGNS campaigns per duration of DURATIONS, taken in turn (1 s, 3 s,
# 1 s, 3 s, ...: whatever the machine does in the meantime reaches every
# duration alike), each with REPEAT interleaved rounds of a SCHED_FIFO 80
# thread on CPU 1 under three loads: q1 and q2 (none: the same thing
# twice) and an rt-hog at FIFO 95 on that CPU busy HOG every 100 ms, with
# a random phase and 50 ms of jitter (bench/calibration.sh's h1ms).
# Per duration it prints, with a Wilson 95 % interval, the calls of
# `latlab compare --axis load` (the verdict of the maxima, of the tail and
# either: a call by either is a call):
#   A/A in one tree   q1 against q2, one per campaign
#   power in one tree q1 and q2 against the hog (2 per campaign, sharing
#                     the hog's runs): calls that the quiet load is lower
#                     (and wrong: higher)
# and what the runs were: the median over campaigns of the quiet sides'
# and the hog's medians of per-run tails and maxima, and the CPU's steal
# over the campaigns of that duration (/proc/stat).
#
#   bench/power.sh   (LATLAB=build/latlab CAMPAIGNS=12 DURATIONS="1 3" REPEAT=5 HOG=1ms)
#   KEEP=DIR keeps the campaigns; FROM=DIR judges campaigns kept before.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
CAMPAIGNS=${CAMPAIGNS:-12}
DURATIONS=${DURATIONS:-1 3}
REPEAT=${REPEAT:-5}
HOG=${HOG:-1ms}
FROM=${FROM:-}
bench_dirs
trap '[ -n "${KEEP:-}$FROM" ] || rm -rf "$tmp"; rm -rf "$work"' EXIT

# steal1: CPU 1's steal so far, in ticks (/proc/stat's 8th value)
steal1() { awk '$1 == "cpu1" { print $9 }' /proc/stat; }

for d in $DURATIONS; do
	[ -n "$FROM" ] || cat >"$tmp/c$d.ini" <<EOC
[campaign]
name = pw
duration = ${d}s
repeat = $REPEAT
[matrix]
affinity = 1
priority = 80
load = q1, q2, hog
[thresholds]
missed = off
[load.q1]
type = none
[load.q2]
type = none
[load.hog]
type = rt-hog
cpus = 1
priority = 95
busy = $HOG
every = 100ms
jitter = 50ms
EOC
	: >"$work/steal-$d"
done

hz=$(getconf CLK_TCK)
for k in $(seq "$CAMPAIGNS"); do
	for d in $DURATIONS; do
		out=$tmp/d$d-$k
		if [ -z "$FROM" ]; then
			s0=$(steal1) t0=$SECONDS
			"$LATLAB" run "$tmp/c$d.ini" -o "$out" -q >/dev/null 2>&1 || true
			echo "$s0 $(steal1) $((SECONDS - t0))" >>"$work/steal-$d"
		fi
		[ -f "$out/pw/cells.csv" ] || { echo "$out/pw: no campaign" >&2; exit 1; }
		"$LATLAB" compare "$out/pw" --axis load -o "$work/cmp-$d-$k" >/dev/null 2>&1 || true
		# and the hypervisor's share of both sides' runs, the 7th field (%;
		# the sides measured equal times; a side compare leaves empty, from
		# a tree before the steal rows of 0, had none stolen: this VM says)
		verdicts "$work/cmp-$d-$k/compare.csv" steal_pct_a steal_pct_b |
			awk '{ $7 = ($7 + $8) / 2; NF = 7; print }' >>"$work/v-$d"
		# the medians of per-run tails and maxima, quiet (q1's) and the hog's
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$h["side_a"] ~ /^q1/ && $h["side_b"] ~ /^hog/ && !done++ {
				print $h["tail_median_a_ns"], $h["tail_median_b_ns"], $h["max_median_a_ns"], $h["max_median_b_ns"], $h["tail_pct"] }' \
			"$work/cmp-$d-$k/compare.csv" >>"$work/m-$d"
	done
done

us() { awk '{ printf "%.0f\n", $1 / 1000 }'; }
echo "== $CAMPAIGNS campaigns per duration, taken in turn, $REPEAT interleaved runs per cell; hog busy $HOG every 100 ms (jitter 50 ms)"
printf '%-44s %-32s%-32s%s\n' "" "on the maxima" "on the tail" "either"
for d in $DURATIONS; do
	printf '%-44s %s\n' "${d} s: A/A in one tree" "$(tally "$work/v-$d" '$1 == "q1" && $2 == "q2"' any)"
	printf '%-44s %s\n' "${d} s: power, quiet below hog" \
		"$(tally "$work/v-$d" '($1 == "q1" || $1 == "q2") && $2 == "hog"' lower)"
done
# by what the hypervisor took during the pair's runs, against the share
# at which compare says its stalls can hide a difference (verdict.h)
note=$(awk '/define VERDICT_STEAL_NOTE/ { print 100 * $3 }' harness/report/verdict.h)
echo "by the hypervisor's share of the pair's runs (compare.csv steal_pct_a, _b), under and from $note %"
for d in $DURATIONS; do
	for side in under from; do
		cond="\$7 $([ $side = under ] && echo "<" || echo ">=") $note"
		printf '%-44s %s\n' "${d} s, $side $note %: A/A in one tree" \
			"$(tally "$work/v-$d" "$cond"' && $1 == "q1" && $2 == "q2"' any)"
		printf '%-44s %s\n' "${d} s, $side $note %: power, quiet below hog" \
			"$(tally "$work/v-$d" "$cond"' && ($1 == "q1" || $1 == "q2") && $2 == "hog"' lower)"
	done
done
echo "medians over campaigns of the runs' medians (us; [least, most] over campaigns)"
for d in $DURATIONS; do
	printf '%s s (the tail p%s): quiet tail %s; hog tail %s; quiet max %s; hog max %s\n' "$d" \
		"$(awk '{ print $5 }' "$work/m-$d" | head -1)" \
		"$(awk '{ print $1 }' "$work/m-$d" | us | median_range 0)" \
		"$(awk '{ print $2 }' "$work/m-$d" | us | median_range 0)" \
		"$(awk '{ print $3 }' "$work/m-$d" | us | median_range 0)" \
		"$(awk '{ print $4 }' "$work/m-$d" | us | median_range 0)"
	[ -s "$work/steal-$d" ] && awk -v hz="$hz" -v d="$d" '{ t += $2 - $1; w += $3 } END {
		printf "%s s: CPU 1 lost %.0f ms to the hypervisor in the %d s of its %d campaigns\n", d, 1000 * t / hz, w, NR }' "$work/steal-$d"
done
exit 0
