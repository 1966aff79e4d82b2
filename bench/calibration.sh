#!/usr/bin/env bash
# How often latlab compare calls a difference that is not there, and one
# that is: its false-call rate and its power, measured on this machine.
#
# CAMPAIGNS campaigns of one config, each with REPEAT interleaved rounds
# of DURATION-second cells of a SCHED_FIFO 80 thread on CPU 1 under five
# loads: q1 and q2 (none: the same thing twice) and rt-hogs at FIFO 95 on
# that CPU, busy 300 us, 1 ms and 3 ms every 100 ms with a random phase
# and 50 ms of jitter. Twice: on the machine as it is ("quiet"), and with
# a disturbance that comes and goes between campaigns ("disturbed": in
# every other campaign a background rt-hog, FIFO 95 busy 2 ms every 20 ms
# on CPU 1, that latlab does not know of, as another experiment or a
# cron job on a shared machine would be).
#
# Per setting it prints the comparisons and the confident calls with a
# Wilson 95 % interval (the comparisons of one setting share campaigns,
# so they are not all independent: the interval is a guide), on the
# verdict of the maxima, on that of the tail (verdict.h) and on either
# (the verdict line says both: a call by either is a call):
#   A/A in one tree      q1 against q2 with --axis load, one per campaign
#   A/A, SIDE trees together  q1 against q2 in the SIDE campaigns of one
#                        side of a split (below): the runs are the units
#   A/A, 1 campaign a side   every pair of campaigns, rows q1 and q2: the
#                        same config run at two times (no call is right:
#                        the campaigns are the units, one a side is none)
#   A/A, SIDE campaigns a side   SPLITS random splits of the campaigns
#                        into two sides of SIDE each (A,B,C D,E,F),
#                        rows q1 and q2, judged between campaigns
#   A/A baseline gate    each campaign judged against every earlier one
#                        as --baseline (tolerance 20 %, one campaign a
#                        side: the runs' interval): rows q1, q2 that fail
#   A/A baseline gate, SIDE campaigns against 1   per split, one side's
#                        campaigns as --baseline A,B,C and the first of the
#                        other side tonight's (judged between campaigns)
#   power in one tree    q1 and q2 against each hog in one campaign:
#                        calls that the quiet load is lower (and wrong: higher)
#   power between campaigns  the splits again with --axis load: q1 and q2
#                        of one side's campaigns against a hog of the other's
#
#   bench/calibration.sh   (LATLAB=build/latlab CAMPAIGNS=10 REPEAT=5 DURATION=1 SIDE=3 SPLITS=10)
#   KEEP=DIR keeps the campaigns; FROM=DIR judges campaigns kept before
#   (with today's latlab) without measuring again.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
LATLOAD=${LATLOAD:-$(dirname "$LATLAB")/latload}
CAMPAIGNS=${CAMPAIGNS:-10}
REPEAT=${REPEAT:-5}
DURATION=${DURATION:-1}
SIDE=${SIDE:-3}
SPLITS=${SPLITS:-10}
FROM=${FROM:-}
[ "$((2 * SIDE))" -le "$CAMPAIGNS" ] || { echo "SIDE: two sides of $SIDE need $((2 * SIDE)) campaigns" >&2; exit 2; }
[ "$CAMPAIGNS" -le 16 ] || { echo "CAMPAIGNS: at most 16 (compare takes 16 trees)" >&2; exit 2; }
bench_dirs
bg=
trap '[ -n "$bg" ] && kill "$bg" 2>/dev/null; [ -n "${KEEP:-}$FROM" ] || rm -rf "$tmp"; rm -rf "$work"' EXIT
[ -n "$FROM" ] || cat >"$tmp/c.ini" <<EOC
[campaign]
name = cal
duration = ${DURATION}s
repeat = $REPEAT
output = $tmp/out
[matrix]
affinity = 1
priority = 80
load = q1, q2, h300, h1ms, h3ms
[thresholds]
missed = off
[load.q1]
type = none
[load.q2]
type = none
EOC
[ -n "$FROM" ] || for h in 300us:h300 1ms:h1ms 3ms:h3ms; do	# the hogs: busy:name
	printf '[load.%s]\ntype = rt-hog\ncpus = 1\npriority = 95\nbusy = %s\nevery = 100ms\njitter = 50ms\n' \
		"${h#*:}" "${h%%:*}" >>"$tmp/c.ini"
done

# gate_lines: compare --baseline's stderr to two verdict lines, rows q1
# and q2 ("lower" where the row regressed: a call)
gate_lines() {
	awk '/regression: q1,/ { a = 1 } /regression: q2,/ { b = 1 }
		END { v[0] = a ? "lower" : "no-difference"; v[1] = b ? "lower" : "no-difference"
			for (i = 0; i < 2; i++) print "q", "q", "gate", v[i], v[i], "-" }'
}

for mode in quiet disturbed; do
	trees=()
	for k in $(seq "$CAMPAIGNS"); do
		out=$tmp/$mode-$k
		if [ -z "$FROM" ]; then
			if [ "$mode" = disturbed ] && [ $((k % 2)) -eq 1 ]; then
				taskset -c 1 "$LATLOAD" rt-hog --priority=95 --busy=2ms --every=20ms --jitter=10ms \
					--duration=3600s >/dev/null 2>&1 &
				bg=$!
			fi
			"$LATLAB" run "$tmp/c.ini" -o "$out" -q >/dev/null 2>&1 || true
			if [ -n "$bg" ]; then
				kill "$bg" 2>/dev/null || true
				wait "$bg" 2>/dev/null || true
				bg=
			fi
		fi
		[ -f "$out/cal/cells.csv" ] || { echo "$out/cal: no campaign" >&2; exit 1; }
		trees+=("$out/cal")
		"$LATLAB" compare "$out/cal" --axis load -o "$work/in-$mode-$k" >/dev/null 2>&1 || true
		# the 7th field: was the disturbance on in this campaign (d) or not (q)
		verdicts "$work/in-$mode-$k/compare.csv" |
			sed "s/\$/ $([ "$mode" = disturbed ] && [ $((k % 2)) -eq 1 ] && echo d || echo q)/" >>"$work/within-$mode"
	done
	"$LATLAB" compare "${trees[@]}" -o "$work/pairs-$mode" >/dev/null 2>&1 || true
	verdicts "$work/pairs-$mode/compare.csv" >"$work/pairs-$mode.txt"
	: >"$work/gate-$mode.txt"	# every later campaign against every earlier one as its baseline
	for i in $(seq 0 $((CAMPAIGNS - 2))); do
		for j in $(seq $((i + 1)) $((CAMPAIGNS - 1))); do
			"$LATLAB" compare "${trees[$j]}" --baseline "${trees[$i]}" -o "$work/gate" 2>&1 >/dev/null |
				gate_lines >>"$work/gate-$mode.txt"
		done
	done
	: >"$work/split-$mode.txt"
	: >"$work/gates-$mode.txt"
	for s in $(seq "$SPLITS"); do	# a seeded split: SIDE campaigns against SIDE others
		read -r -a pick <<<"$(seq 0 $((CAMPAIGNS - 1)) | awk -v seed="$s" 'BEGIN { srand(seed) }
			{ v[NR] = $1; r[NR] = rand() } END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
			if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t; t = v[i]; v[i] = v[j]; v[j] = t }
			for (i = 1; i <= NR; i++) printf "%s ", v[i] }')"
		a=$(for i in $(seq 0 $((SIDE - 1))); do printf '%s,' "${trees[${pick[$i]}]}"; done)
		b=$(for i in $(seq "$SIDE" $((2 * SIDE - 1))); do printf '%s,' "${trees[${pick[$i]}]}"; done)
		"$LATLAB" compare "${a%,}" "${b%,}" --axis load -o "$work/split-$mode-$s" >/dev/null 2>&1 || true
		verdicts "$work/split-$mode-$s/compare.csv" >>"$work/split-$mode.txt"
		# the gate as the docs advise it: one side's campaigns the baseline,
		# the first of the other side tonight's (judged between campaigns)
		"$LATLAB" compare "${trees[${pick[$SIDE]}]}" --baseline "${a%,}" -o "$work/gate" 2>&1 >/dev/null |
			gate_lines >>"$work/gates-$mode.txt"
	done
	echo "== $mode: $CAMPAIGNS campaigns, $REPEAT runs of ${DURATION} s per cell, interleaved; $SPLITS splits of $SIDE campaigns a side"
	printf '%-44s %-32s%-32s%s\n' "" "on the maxima" "on the tail" "either"
	printf '%-44s %s\n' "A/A in one tree (q1/q2, --axis load)" \
		"$(tally "$work/within-$mode" '$1 == "q1" && $2 == "q2"' any)"
	printf '%-44s %s\n' "A/A, $SIDE trees together (q1/q2, a side's)" \
		"$(tally "$work/split-$mode.txt" '$3 == "runs" && $1 == "q1" && $2 == "q2"' any)"
	printf '%-44s %s\n' "A/A, one campaign a side (rows q1, q2)" \
		"$(tally "$work/pairs-$mode.txt" '($6 == "q1" || $6 == "q2")' any)"
	printf '%-44s %s\n' "A/A, $SIDE campaigns a side (q1/q1, q2/q2)" \
		"$(tally "$work/split-$mode.txt" '$3 == "campaigns" && $1 == $2 && ($1 == "q1" || $1 == "q2")' any)"
	printf '%-44s %s\n' "A/A baseline gate, one campaign a side, 20 %" \
		"$(tally "$work/gate-$mode.txt" '1' any)"
	printf '%-44s %s\n' "A/A baseline gate, $SIDE campaigns against 1" \
		"$(tally "$work/gates-$mode.txt" '1' any)"
	for h in h300 h1ms h3ms; do
		printf '%-44s %s\n' "power in one tree: quiet below $h" \
			"$(tally "$work/within-$mode" '($1 == "q1" || $1 == "q2") && $2 == "'"$h"'"' lower)"
	done
	[ "$mode" = disturbed ] && for h in h300 h1ms h3ms; do
		printf '%-44s %s\n' "  of them in the undisturbed campaigns: $h" \
			"$(tally "$work/within-$mode" '$7 == "q" && ($1 == "q1" || $1 == "q2") && $2 == "'"$h"'"' lower)"
	done
	for h in h300 h1ms h3ms; do
		printf '%-44s %s\n' "power, $SIDE campaigns a side: quiet below $h" \
			"$(tally "$work/split-$mode.txt" '$3 == "campaigns" && ($1 == "q1" || $1 == "q2") && $2 == "'"$h"'"' lower)"
	done
done
