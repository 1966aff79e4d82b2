#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# Beyond the runs (docs/report.md): P(latency > D) from a tail fit, in
# compare, report and history, on trees whose wake-ups are drawn from laws
# with known tails (tools/synth-tail.sh over the readers fixture: 3 runs a
# side of 20 000 periods at 1 ms). The truths: rthog's gpd:10us,5us,0.2
# above 300 us, (1 + 0.2 * 290 / 5)^-5 = 3.15e-6 a period; none's
# exp:20us,3us, exp(-280 / 3) = 3e-41. The seeds are fixed: the same
# draws every run.

load helper

FIX="$BATS_TEST_DIRNAME/../fixtures/readers/a"
SYNTH="$BATS_TEST_DIRNAME/../../tools/synth-tail.sh"
# every call of synth-tail.sh draws with the latsynth built beside the
# latlab under test (build/san/ under SANITIZE=1, which has no build/latsynth)
LATSYNTH=$(dirname "$LATLAB")/latsynth
export LATSYNTH

# synth OUT SAMPLES SEED: the fixture with drawn wake-ups
synth() {
	"$SYNTH" "$FIX" "$1" load "$2" "$3" none=exp:20us,3us rthog=gpd:10us,5us,0.2
}

# field FILE SIDE F: beyond.csv's column F on the timer row of side SIDE
# (the row, quoted, holds commas: the other columns follow it)
field() {
	awk -F, -v s="$2" -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ q = index(substr($0, 2), "\""); row = substr($0, 2, q - 1); rest = substr($0, q + 3)
		  split(rest, v, ",")
		  if (row ~ /(^|, )timer,/ && v[1] == s) print v[c[f] - 1] }' "$1"
}

@test "compare --deadline: the truth in each side's interval, extrapolated and said so, in words and in beyond.csv" {
	synth "$WORK/t" 20000 1
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 300us -o "$WORK/c"
	[ "$status" -eq 0 ] || run_failed
	line=$(grep 'timer, .*: wake-up on rthog: ' <<<"$output")
	[[ "$line" == *": wake-up on rthog: none of 60,000 periods was later than 300 µs; estimated beyond the runs from the shape of their tail, not measured (blind to a delay rarer than 1 in 60,000 periods): "*" per 10^9 periods ["*"per hour ["*"] (95 % interval); to show fewer than 1 in 10^9 periods by observation alone, run 832 h (3e+09 periods, none later); were the truth the estimate's upper end ("*" in 10^9), that run would see about "*" later; a run that settles it: 1.75e+03 h (6.3e+09 periods): at most 2 later show fewer than 1 in 10^9 periods, 12 later or more show it missed (were the truth a tenth of the target, it shows the target 95 % of the time or more); the runs' 2 timeline windows each could not show bursts of a few late periods, which would make it fail more often: windows of a tenth of a run would (docs/report.md)" ]] || { echo "$line"; false; }
	# the advice from the estimate: an interval wholly below the target shows it; none is offered a run
	line=$(grep 'timer, .*: wake-up on none: ' <<<"$output")
	[[ "$line" == *"(95 % interval); fewer than 1 in 10^9 periods: shown, the interval lies wholly below it" ]] || { echo "$line"; false; }
	# the statistics behind the words on the page, not on the terminal
	[[ "$line" != *"Pareto"* ]] || { echo "$line"; false; }
	grep -q 'Statistics: extrapolated beyond the runs, not measured (0 of 60,000 periods above the deadline; a generalized Pareto tail above ' "$WORK/c/index.html"
	B="$WORK/c/beyond.csv"
	head -1 "$B" | grep -q '^row,side,metric,interval_ns,deadline_ns,status,runs,periods,observed,threshold_ns,exceedances,shape,scale_ns,gof_p,dispersion,cluster_p,p,p_lo,p_hi,per_hour,per_hour_lo,per_hour_hi,target,need_periods,need_hours,extreme_ns,extreme_seen,extreme_expected,extreme_p,body_dispersion,p_lo_light,missed,burst,burst_p,burst_ns,burst_windows,widen,plan_periods,plan_hours,plan_most,plan_missed$'
	[ "$(field "$B" rthog status)" = fit ]
	[ "$(field "$B" none status)" = fit ]
	awk -v lo="$(field "$B" rthog p_lo)" -v hi="$(field "$B" rthog p_hi)" 'BEGIN { exit !(lo <= 3.15e-6 && 3.15e-6 <= hi && hi < 1e-4) }'
	awk -v lo="$(field "$B" none p_lo)" -v hi="$(field "$B" none p_hi)" 'BEGIN { exit !(lo <= 3e-41 && 3e-41 <= hi && hi < 1e-12) }'
	# per hour: a period a millisecond, 3.6e6 an hour
	awk -v p="$(field "$B" rthog p)" -v h="$(field "$B" rthog per_hour)" 'BEGIN { r = h / p / 3.6e6; exit !(h > 0 && r > 0.9999 && r < 1.0001) }'
	grep -q '<h2 id="beyond">Beyond the runs: a period above 300 µs</h2>' "$WORK/c/index.html"
	# a deadline within the runs is counted, not fitted
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 25us -o "$WORK/c2"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" =~ timer,\ .*wake-up\ on\ none:\ [0-9,]+\ of\ 60,000\ periods\ \([0-9.e+-]+\ %\)\ were\ later\ than\ 25\ µs\;\ counted:\ .*\ per\ 10\^9\ periods\ \[ ]] || run_failed
	[[ "$output" != *"on none: "*"by observation alone"* ]] || run_failed
	# an interval wholly above the target: missed, and no run offered (it was "run 832 h")
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 100us -o "$WORK/c3"
	[ "$status" -eq 0 ] || run_failed
	line=$(grep 'timer, .*: wake-up on rthog: ' <<<"$output")
	[[ "$line" == *"(95 % interval); fewer than 1 in 10^9 periods is missed: the interval lies wholly above it, and a longer run would only narrow it" ]] || { echo "$line"; false; }
	[[ "$line" != *"run 832 h"* ]] || { echo "$line"; false; }
	[ "$(field "$WORK/c2/beyond.csv" none status)" = observed ]
}

@test "compare --deadline: a body and rare far spikes are a second regime, counted and said so, never the body's extrapolation" {
	# exp:20us,3us with 1 in 20,000 periods 50 times later: the runs hold
	# three spikes above 1 ms; the body's fit allows none of them
	"$SYNTH" "$FIX" "$WORK/t" load 20000 2 none=exp:20us,3us rthog=exp:20us,3us+spikes:0.00005,50
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 1691us -o "$WORK/c"
	[ "$status" -eq 0 ] || run_failed
	line=$(grep 'timer, .*: wake-up on rthog: ' <<<"$output")
	[[ "$line" == *": wake-up on rthog: none of 60,000 periods was later than 1691 µs; counted, not estimated (the runs' largest values are far above what the rest of the tail allows: a second kind of delay, which only counting can size): 0 per 10^9 periods [0, 6.1e+04], 0 per hour [0, 2.2e+02] (95 % interval);"* ]] || { echo "$line"; false; }
	grep -q 'Statistics: counted, not extrapolated .*: 3 samples at or above 1093.6 µs where a generalized Pareto fit of the tail above .*; 0 of 60,000 periods above the deadline, in 3 runs' "$WORK/c/index.html"
	B="$WORK/c/beyond.csv"
	[ "$(field "$B" rthog status)" = regime ]
	[ "$(field "$B" rthog extreme_seen)" = 3 ]
	awk -v p="$(field "$B" rthog extreme_p)" 'BEGIN { exit !(p < 0.001) }'
	# the side without spikes is extrapolated, and says what it cannot see
	[ "$(field "$B" none status)" = fit ]
	[[ "$output" == *"on none: "*"(blind to a delay rarer than 1 in 60,000 periods)"* ]] || run_failed
}

@test "compare --deadline: late periods in bursts within runs, seen in the runs' timeline.csv, widen the interval and lengthen the run asked for" {
	# each draw repeated 10 times (exp:20us,3us+bursts:10): the same law,
	# its late periods ten at a time; timeline.csv has each run's 2 windows
	"$SYNTH" "$FIX" "$WORK/t" load 20000 4 none=exp:20us,3us rthog=exp:20us,3us+bursts:10
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 60us -o "$WORK/c"
	[ "$status" -eq 0 ] || run_failed
	B="$WORK/c/beyond.csv"
	line=$(grep 'timer, .*: wake-up on rthog: ' <<<"$output")
	[[ "$line" == *"; late periods come in bursts within runs (about "*" at a time): the interval is widened for them, and a run to show none must be as much longer"* ]] || { echo "$line"; false; }
	# the plan counts bursts
	[[ "$line" == *"at most 2 bursts show fewer than 1 in 10^9 periods, 12 bursts or more show it missed"* ]] || { echo "$line"; false; }
	[[ "$(grep 'timer, .*: wake-up on none: ' <<<"$output")" != *burst* ]] || run_failed
	grep -q 'bursts within runs: the runs.* windows.* counts above .* µs have dispersion .*, which widens the interval' "$WORK/c/index.html"
	awk -v p="$(field "$B" rthog burst_p)" -v b="$(field "$B" rthog burst)" -v w="$(field "$B" rthog widen)" \
		'BEGIN { exit !(p < 0.01 && b > 4 && b < 25 && w >= b) }' || { cat "$B"; false; }
	awk -v p="$(field "$B" none burst_p)" 'BEGIN { exit !(p >= 0.01) }' || { cat "$B"; false; }
	# the run asked for counts bursts: longer by their dispersion
	awk -v a="$(field "$B" rthog need_periods)" -v n="$(field "$B" none need_periods)" -v b="$(field "$B" rthog burst)" \
		'BEGIN { r = a / n / b; exit !(r > 0.999 && r < 1.001) }' || { cat "$B"; false; }
	# the truth, exp(-40 / 3) = 1.6e-6 a period, inside the widened interval
	awk -v lo="$(field "$B" rthog p_lo)" -v hi="$(field "$B" rthog p_hi)" 'BEGIN { exit !(lo <= 1.62e-6 && 1.62e-6 <= hi) }' || { cat "$B"; false; }
	# a timeline row that is not one: the cell's files said damaged, where
	f=$(find "$WORK/t" -name timeline.csv | sort | head -1)
	sed -i '2s/,[0-9]*$/,-3/' "$f"
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 60us -o "$WORK/c2"
	[[ "$output" == *"timeline.csv:2: "*"count -3: not a window's bin"* ]] || run_failed
}

@test "report and history --deadline; the campaign's [thresholds] max is the deadline when none is given" {
	synth "$WORK/t" 20000 1
	synth "$WORK/t2" 20000 77
	run "$LATLAB" report "$WORK/t" --axis load --deadline 300us -j 1
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"wake-up on rthog: none of 60,000 periods was later than 300 µs; estimated beyond the runs"* ]] || run_failed
	[ "$(field "$WORK/t/report/beyond.csv" rthog status)" = fit ]
	grep -q '<h2 id="beyond">' "$WORK/t/report/index.html"
	run "$LATLAB" history "$WORK/t" "$WORK/t2" --deadline 300us -o "$WORK/h" -j 1
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c '^"rthog, timer,.*,fit,3,60000,' "$WORK/h/beyond.csv")" -eq 2 ] || { cat "$WORK/h/beyond.csv"; false; }
	# without --deadline: none asked, none fitted, no file
	run "$LATLAB" compare "$WORK/t" --axis load -o "$WORK/c0"
	[ "$status" -eq 0 ] && [[ "$output" != *"periods was later than"* ]] && ! [ -e "$WORK/c0/beyond.csv" ] || run_failed
	# the campaign's own deadline
	printf '\n[thresholds]\nmax = 400us\n' >>"$WORK/t/campaign.ini"
	run "$LATLAB" compare "$WORK/t" --axis load -o "$WORK/c1"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"wake-up on rthog: none of 60,000 periods was later than 400 µs"* ]] || run_failed
}

@test "beyond the runs, refused: too few samples for a fit, a deadline or target that is not one, a law that is not one" {
	synth "$WORK/t" 150 1
	run "$LATLAB" compare "$WORK/t" --axis load --deadline 300us -o "$WORK/c"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"wake-up on rthog: none of 450 periods was later than 300 µs; no estimate beyond the runs: too few periods came near it to estimate the tail;"* ]] || run_failed
	[ "$(field "$WORK/c/beyond.csv" rthog status)" = few ]
	[ -z "$(field "$WORK/c/beyond.csv" rthog p)" ]
	for bad in "--deadline abc" "--deadline 0" "--deadline -5us" "--target 2" "--target x" "--target 0"; do
		# shellcheck disable=SC2086 # an option and its value
		run "$LATLAB" compare "$WORK/t" --axis load $bad -o "$WORK/c3"
		[ "$status" -eq 2 ] || { echo "$bad"; run_failed; }
		[[ "$output" == *"${bad%% *}: '${bad#* }' is not a"* ]] || { echo "$bad"; run_failed; }
		! [ -e "$WORK/c3" ] || { echo "$bad wrote"; false; }
	done
	run "$LATLAB" report "$WORK/t" --deadline 1h5
	[ "$status" -eq 2 ] || run_failed
	run "$LATLAB" history "$WORK/t" "$WORK/t" --target 1.5
	[ "$status" -eq 2 ] || run_failed
	run "$SYNTH" "$FIX" "$WORK/u" load 100 1 none=pareto:1us rthog=exp:1us,1us
	[ "$status" -eq 2 ] && [[ "$output" == *"'pareto:1us': not a law"* ]] || run_failed
	run "$SYNTH" "$FIX" "$WORK/u" load 100 1 none=exp:1us,1us
	[ "$status" -eq 2 ] && [[ "$output" == *"no law for load = rthog"* ]] || run_failed
	run "$SYNTH" "$FIX" "$WORK/u" nosuch 100 1 none=exp:1us,1us
	[ "$status" -eq 2 ] && [[ "$output" == *"cells.csv has no column 'nosuch'"* ]] || run_failed
}
