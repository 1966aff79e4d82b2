#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# make run's demo (tools/demo-run.sh): findings end it with 0 and one line;
# a run that could not measure ends it with latlab's status; a second run
# starts over, the first tree kept beside it.

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

demo_config() {	# quick.ini, 1 s cells, its results in $WORK/res
	sed -e 's/^duration .*/duration = 1s/' -e "s|^output .*|output = $WORK/res|" \
		"$ROOT/configs/quick.ini" >q.ini
}

@test "make run: cells past their thresholds are findings, said in one line (exit 0); a second run starts over, the first kept" {
	demo_config
	# wake-ups later than 1 ns: every cell fails, on any machine — and
	# by that limit first: missed periods not judged (beside a fresh
	# check's hog and hackbench a 1 ms cell missed 1.1 % of its periods,
	# and that was the first finding said, 2026-12-08)
	printf '\n[thresholds]\nmax = 1ns\nmissed = off\n' >>q.ini
	run timeout "$(paced 120)" "$ROOT/tools/demo-run.sh" "$LATLAB" q.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"make run: 4 of 4 cells failed their thresholds (at 1ms, 200us; loads: hackbench, none); the first: thread 0 wakeup max = "*" > 1 ns"* ]] || run_failed
	[ "${lines[-1]}" = "report: $WORK/res/quick/report/index.html" ] || run_failed
	[ -s "$WORK/res/quick/report/index.html" ]
	first=$(cat "$WORK/res/quick/campaign.ini")
	run timeout "$(paced 120)" "$ROOT/tools/demo-run.sh" "$LATLAB" q.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" != *"resuming"* ]] || run_failed
	[[ "$output" =~ "kept the previous results as $WORK/res/quick."[0-9]{8}-[0-9]{6} ]] || run_failed
	[ "$(grep -c ' = fail$' "$WORK/res/quick/state")" -eq 4 ]
	old=$(ls -d "$WORK"/res/quick.*)
	[ "$(cat "$old/campaign.ini")" = "$first" ] && [ -s "$old/report/index.html" ]
}

@test "make run: missed periods said as the period this machine did not keep; all kept said too" {
	demo_config
	sed -i 's/^interval .*/interval = 200us/; s/^load .*/load = none/' q.ini
	# any missed period fails (a sleeping thread that misses none passes)
	printf '\n[thresholds]\nmissed = 0%%\n' >>q.ini
	run timeout "$(paced 120)" "$ROOT/tools/demo-run.sh" "$LATLAB" q.ini
	[ "$status" -eq 0 ] || run_failed
	if grep -q ' = fail$' "$WORK/res/quick/state"; then
		[[ "$output" == *"make run: 1 of 1 cells missed more than 0% of their periods at 200us (loads: none): this machine did not keep that period; the report shows how late the wake-ups were"* ]] || run_failed
	else
		[[ "$output" == *"make run: all 1 cells kept their thresholds"* ]] || run_failed
	fi
}

@test "make run: a run that could not measure ends the demo with latlab's status, no finding said" {
	demo_config
	echo 'bogus = 1' >>q.ini
	run timeout 60 "$ROOT/tools/demo-run.sh" "$LATLAB" q.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"q.ini:"*"bogus"* ]] || run_failed
	[[ "$output" == *"make run: latlab run could not measure (exit 2: docs/exit-status.md)"* ]] || run_failed
	[[ "$output" != *"cells failed"* && "$output" != *"report:"* ]]
	[ ! -e "$WORK/res/quick" ]
}
