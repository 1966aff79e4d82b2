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
# Per setting it prints the comparisons, the confident calls and their
# share with a Wilson 95 % interval (the comparisons of one setting share
# campaigns, so they are not all independent: the interval is a guide),
# on the verdict of the maxima and on that of the tail (verdict.h):
#   A/A in one tree     q1 against q2 with --axis load, one per campaign
#   A/A across trees    every pair of campaigns, row q1 (and q2), the
#                       default axis: the same config run at two times
#   power, hog H        q1 and q2 against the hog H in one tree: calls
#                       that the quiet load is lower
#
#   bench/calibration.sh      (LATLAB=build/latlab CAMPAIGNS=10 REPEAT=5 DURATION=1)
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
LATLOAD=${LATLOAD:-$(dirname "$LATLAB")/latload}
CAMPAIGNS=${CAMPAIGNS:-10}
REPEAT=${REPEAT:-5}
DURATION=${DURATION:-1}
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (the measured one is CPU 1)" >&2; exit 2; }
[ "$CAMPAIGNS" -le 16 ] || { echo "CAMPAIGNS: at most 16 (compare takes 16 trees)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
bg=
trap '[ -n "$bg" ] && kill "$bg" 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/c.ini" <<EOC
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
for h in 300us:h300 1ms:h1ms 3ms:h3ms; do	# the hogs: busy:name
	printf '[load.%s]\ntype = rt-hog\ncpus = 1\npriority = 95\nbusy = %s\nevery = 100ms\njitter = 50ms\n' \
		"${h#*:}" "${h%%:*}" >>"$tmp/c.ini"
done

# wilson K N: "K of N, P % [LO, HI]" with the Wilson 95 % interval
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { if (n == 0) { print "0 of 0"; exit }
		z = 1.96; p = k / n; d = 1 + z * z / n
		c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		lo = c - h < 0 ? 0 : c - h; hi = c + h > 1 ? 1 : c + h
		printf "%d of %d, %.1f %% [%.1f, %.1f]\n", k, n, 100 * p, 100 * lo, 100 * hi }'
}

# verdicts CSV ROW-LOAD: "side_a side_b verdict_max verdict_tail" of compare.csv's first line per pair
verdicts() {
	awk -F, -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		row == "" || $h["load"] == row {
			k = $h["side_a"] " " $h["side_b"]
			if (!(k in seen)) { seen[k] = 1; print $h["side_a"], $h["side_b"], $h["verdict_max"], $h["verdict_tail"] } }' "$1"
}

# calls FILE FIELD AWK-CONDITION: "K N" — lines matching, and of them those called on FIELD (3 max, 4 tail)
calls() {
	awk -v f="$2" "$3"' { n++; if ($f == "lower" || $f == "higher") k++ } END { print k + 0, n + 0 }' "$1"
}

# lower FILE FIELD AWK-CONDITION: "K N W" — called lower (the quiet side), of N, and W the wrong way
lower() {
	awk -v f="$2" "$3"' { n++; if ($f == "lower") k++; if ($f == "higher") w++ } END { print k + 0, n + 0, w + 0 }' "$1"
}

for mode in quiet disturbed; do
	trees=()
	for k in $(seq "$CAMPAIGNS"); do
		out=$tmp/$mode-$k
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
		trees+=("$out/cal")
		"$LATLAB" compare "$out/cal" --axis load -o "$tmp/cmp-$mode-$k" >/dev/null 2>&1 || true
		verdicts "$tmp/cmp-$mode-$k/compare.csv" "" >>"$tmp/within-$mode"
	done
	"$LATLAB" compare "${trees[@]}" -o "$tmp/across-$mode" >/dev/null 2>&1 || true
	verdicts "$tmp/across-$mode/compare.csv" q1 >"$tmp/across-$mode.txt"
	verdicts "$tmp/across-$mode/compare.csv" q2 >>"$tmp/across-$mode.txt"
	echo "== $mode: $CAMPAIGNS campaigns, $REPEAT runs of ${DURATION} s per cell, interleaved"
	printf '%-38s %-34s %s\n' "" "on the maxima" "on the tail"
	for f in 3 4; do
		read -r k n <<<"$(calls "$tmp/within-$mode" "$f" '$1 == "q1" && $2 == "q2"')"
		row[$f]=$(wilson "$k" "$n")
	done
	printf '%-38s %-34s %s\n' "A/A in one tree (q1/q2, --axis load)" "${row[3]}" "${row[4]}"
	for f in 3 4; do
		read -r k n <<<"$(calls "$tmp/across-$mode.txt" "$f" '1')"
		row[$f]=$(wilson "$k" "$n")
	done
	printf '%-38s %-34s %s\n' "A/A across trees (rows q1, q2)" "${row[3]}" "${row[4]}"
	for h in h300 h1ms h3ms; do
		for f in 3 4; do
			read -r k n w <<<"$(lower "$tmp/within-$mode" "$f" '($1 == "q1" || $1 == "q2") && $2 == "'"$h"'"')"
			row[$f]="$(wilson "$k" "$n") wrong $w"
		done
		printf '%-38s %-34s %s\n' "power: quiet below $h, one tree" "${row[3]}" "${row[4]}"
	done
done
