#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# What the readers make of a tree written before a change of the code:
# tests/fixtures/readers/ holds two trees written by latlab 1375b3e (a.ini,
# b.ini: 12 cells each, repeats, the noise workload, an rt-hog load, spike
# captures, samples.bin in a) and, in expected/, every reader's output of
# them. A reorganisation must leave them byte for byte the same; a change of
# output on purpose makes expected/ anew (outputs.sh) in the same commit, so
# its diff shows what users will read differently (last: the smt axis's
# column in compare.csv and history.csv and its row on a cell page, `on`
# in these trees; before: a cell page's
# every axis of the table, wakeup to throttle, one row each, where it
# listed a hand-picked eight; before: compare.csv's
# left_a, left_b and not_comparable, and its rates above a threshold below
# the period counting the runs' missed periods (fxa's rows 0-2 and 6-8
# missed some); before: the throttle
# axis's column in compare.csv and history.csv, `default` in these trees
# (no page changed); before: the tables' row headers "row (its axes)", the overview's rows titled as elsewhere; before:
# a row's size
# left out where its workload moved no byte (the timer, noise), the
# report's "Worst case" paragraph in plain words; before: compare.csv's
# boots_a and boots_b; before: compare.csv's header names the columns of watch_timer and watch_sched, which its rows
# had and it did not, and of the chain's io_step1 .. io_step4; before:
# compare.csv's columns of the metrics watch_timer and watch_sched; before: the pages'
# generator meta and a cell page's "measured by latlab" row; before: the
# isolation and idle axes' columns in compare.csv and history.csv; before: the
# wakeup and clock axes' columns; before: a cell
# page's figures without their PNG link, drawn with --png only; before:
# compare.csv's margin_pct and li.equivalent in the pages' style).

load helper

FIX=$BATS_TEST_DIRNAME/../fixtures/readers

@test "report, compare, history, export and status read trees of 1375b3e byte for byte as then" {
	run timeout 300 "$FIX/outputs.sh" "$LATLAB" "$WORK/now"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run diff -r "$FIX/expected" "$WORK/now"
	[ "$status" -eq 0 ] || { echo "$output" | head -40; false; }
	# compare.csv: a name in the header for every field of every row
	awk -F, 'NR == 1 { n = NF; next } NF != n { print FILENAME ":" NR ": " NF " fields, header " n; bad = 1 }
		END { exit bad || NR < 2 }' "$WORK/now/files/compare/compare.csv"
}

@test "the readers' check fails when an output differs (a cell's summary changed)" {
	cp -r "$FIX" "$WORK/fix"
	f=$(ls "$WORK"/fix/a/*/*/0000-*/summary.csv)
	sed -i '2s/,[0-9]*$/,1/' "$f"
	run timeout 300 "$WORK/fix/outputs.sh" "$LATLAB" "$WORK/now"
	run diff -rq "$FIX/expected" "$WORK/now"
	[ "$status" -ne 0 ]
}
