#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# The map of the code keeps itself true: tools/layers.sh (the floors, in
# one list) fails on a header included from a floor above, and on a
# result file named outside model/ and results/; tools/arch-check.sh on a
# folder or file docs/architecture.md does not name, or names but the tree
# has not; tools/func-length.sh on a function over 120 lines, or more
# than 15 over 80 (issue 76).

load helper

ROOT=$BATS_TEST_DIRNAME/../..

@test "the code keeps its floors: no include from above, no result file opened outside its owner" {
	run "$ROOT/tools/layers.sh" "$ROOT"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
}

@test "layers.sh names an include from a floor above and a result file opened by a reader, and fails" {
	mkdir "$WORK/src"
	cp -r "$ROOT/common" "$ROOT/harness" "$ROOT/workloads" "$ROOT/loadgen" "$ROOT/tools" "$WORK/src/"
	# measure reaching up into report, and report opening cell.ini itself
	sed -i '0,/^#include "/s//#include "verdict.h"\n#include "/' "$WORK/src/harness/measure/cell.c"
	printf 'static const char *p = "%%s/cell.ini";\n' >>"$WORK/src/harness/report/history.c"
	run "$WORK/src/tools/layers.sh" "$WORK/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"harness/measure/cell.c:"*": includes verdict.h from harness/report, a floor above harness/measure"* ]] || { echo "$output"; false; }
	[[ "$output" == *"harness/report/history.c:"*": names a result file (\"%s/cell.ini\")"* ]] || { echo "$output"; false; }
}

@test "layers.sh refuses two headers of one name (the build finds either)" {
	mkdir "$WORK/src"
	cp -r "$ROOT/common" "$ROOT/harness" "$ROOT/workloads" "$ROOT/loadgen" "$ROOT/tools" "$WORK/src/"
	cp "$WORK/src/harness/model/hist.h" "$WORK/src/harness/report/hist.h"
	run "$WORK/src/tools/layers.sh" "$WORK/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"hist.h: a header of this name is also in"* ]] || { echo "$output"; false; }
}

# a copy of the code in $WORK/src, for a test to break
copy_src() {
	mkdir "$WORK/src"
	cp -r "$ROOT/common" "$ROOT/harness" "$ROOT/workloads" "$ROOT/loadgen" "$ROOT/tools" "$WORK/src/"
}

@test "layers.sh names a circle between two files of one folder, and fails" {
	copy_src
	# model/axis.c calling back into model/model.c, which already calls axis.c
	printf 'void axis_circle(void);\nvoid axis_circle(void)\n{\n\tchar b[8];\n\n\tcells_head_columns(b, sizeof(b));\n}\n' \
		>>"$WORK/src/harness/model/axis.c"
	run "$WORK/src/tools/layers.sh" "$WORK/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"harness/model/"*": a circle with harness/model/"*"axis.c calls"*"cells_head_columns of harness/model/model.c"* ||
	   "$output" == *"harness/model/model.c:"*": a circle with harness/model/axis.c"* ]] || { echo "$output"; false; }
}

@test "layers.sh names a folder of code on no floor, an extern reaching a floor above, a result file's name held in a variable, and trace-N.dat" {
	copy_src
	mkdir "$WORK/src/harness/extra"
	printf 'int extra_one(void);\n' >"$WORK/src/harness/extra/extra.h"
	# measure declaring report's table for itself: an include by another name
	printf 'extern const struct axis_def axis_defs_of_report[];\n' >>"$WORK/src/harness/measure/place.c"
	printf 'const int axis_defs_of_report[] = { 0 };\n' >>"$WORK/src/harness/report/words.c"
	# a name in a list, and a capture's .dat, outside model/ and results/
	printf 'static const char *const names[] = { "summary.csv" };\n' >>"$WORK/src/harness/report/history.c"
	printf 'static const char *dat = "%%s/trace-%%d.dat";\n' >>"$WORK/src/harness/campaign/campaign.c"
	run "$WORK/src/tools/layers.sh" "$WORK/src"
	[ "$status" -eq 1 ]
	[[ "$output" == *"harness/extra: a folder of code on no floor"* ]] || { echo "$output"; false; }
	[[ "$output" == *"harness/measure/place.c:"*": declares axis_defs_of_report of harness/report, a floor above harness/measure"* ]] || { echo "$output"; false; }
	[[ "$output" == *"harness/report/history.c:"*": names a result file (\"summary.csv\")"* ]] || { echo "$output"; false; }
	[[ "$output" == *"harness/campaign/campaign.c:"*": names a result file (\"%s/trace-%d.dat\")"* ]] || { echo "$output"; false; }
}

@test "tests/run.sh places each bats file in the lane its header declares, and fails on a file that declares none" {
	mkdir -p "$WORK/repo/tests/cli"
	cp "$BATS_TEST_DIRNAME/../run.sh" "$BATS_TEST_DIRNAME/../pace.sh" "$WORK/repo/tests/"
	cp "$BATS_TEST_DIRNAME/helper.bash" "$WORK/repo/tests/cli/"
	printf '#!/usr/bin/env bats\n# lane: readers (here)\n@test "placed" { true; }\n' >"$WORK/repo/tests/cli/placed.bats"
	printf '#!/usr/bin/env bats\n# no lane said\n@test "unplaced" { true; }\n' >"$WORK/repo/tests/cli/unplaced.bats"
	run timeout 120 env LATLAB="$LATLAB" "$WORK/repo/tests/run.sh" cli
	[ "$status" -ne 0 ] || run_failed
	[[ "$output" == *"tests/cli/unplaced.bats declares no lane of judges measures readers third"* ]] || run_failed
	[[ "$output" == *"bats (readers: placed)"* ]] || run_failed
	[[ "$output" != *"unplaced"*"ok 1 unplaced"* ]] || run_failed
	[ "${lines[-1]}" = "1 passed, 1 failed" ] || run_failed
	# the alongside files run in a shell of their own (all): it has what they need (paced)
	mkdir "$WORK/repo/tests/cli/alongside"
	printf '#!/usr/bin/env bats\n# lane: alongside (here)\n@test "along" { true; }\n' >"$WORK/repo/tests/cli/alongside/along.bats"
	rm "$WORK/repo/tests/cli/unplaced.bats"
	run timeout 120 env -u CROSS_BUILD -u CROSS_TRIPLETS LATLAB="$LATLAB" UNIT_DIR="$WORK/none" "$WORK/repo/tests/run.sh" all
	[[ "$output" == *"bats (alongside): 1 passed, 0 failed"* ]] || run_failed
	[ "${lines[-1]}" = "2 passed, 0 failed" ] || run_failed
	# every file of this suite declares one
	for f in "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/*/*.bats; do
		grep -Eq '^# lane: (judges|measures|readers|third|guests-a|guests-icount|alongside) ' "$f" || { echo "$f"; false; }
	done
}

# The instruction-clock guests start beside the host's three lanes at idle
# priority, and are back at normal priority before the host-clock guests
# start: here a guests-icount file reads its own policy at its start and
# again once the guests-a file has run, while a reader holds the host lanes
@test "tests/run.sh starts the instruction-clock guests at SCHED_IDLE beside the host lanes, back to SCHED_OTHER before the host-clock guests" {
	mkdir -p "$WORK/repo/tests/cli/guests"
	cp "$BATS_TEST_DIRNAME/../run.sh" "$BATS_TEST_DIRNAME/../pace.sh" "$WORK/repo/tests/"
	cp "$BATS_TEST_DIRNAME/helper.bash" "$WORK/repo/tests/cli/"
	export MARK=$WORK/host-clock-ran SEEN=$WORK/policies HELD=$WORK/icount-began
	# (each file's @test not at a line's start: bats would take it for this file's)
	{ echo '# lane: readers (here)'; echo '@test "the host lanes, held until the icount lane began" {'
	  echo '	for _ in $(seq 100); do [ -e "$HELD" ] && break; sleep 0.1; done'
	  echo '	[ -e "$HELD" ] && sleep 0.5'; echo '}'; } >"$WORK/repo/tests/cli/held.bats"
	{ echo '# lane: guests-a (here)'; echo '@test "on the host clock" { touch "$MARK"; }'; } \
		>"$WORK/repo/tests/cli/guests/host.bats"
	{ echo '# lane: guests-icount (here)'
	  echo 'policy() { chrt -p "$1" | sed -n "s/.*scheduling policy: //p"; }'
	  echo '@test "on the instruction clock" {'
	  echo '	a=$(policy $BASHPID)'
	  echo '	touch "$HELD"'
	  echo '	for _ in $(seq 200); do [ -e "$MARK" ] && break; sleep 0.1; done'
	  echo '	b=$(policy $BASHPID)'
	  echo '	sleep 0.2 &'
	  echo '	echo "$a|$b|$(policy $!)" >"$SEEN"'
	  echo '}'; } >"$WORK/repo/tests/cli/guests/icount.bats"
	run timeout 120 env LATLAB="$LATLAB" "$WORK/repo/tests/run.sh" cli
	[ "$status" -eq 0 ] || run_failed
	[ "$(cat "$SEEN")" = "SCHED_IDLE|SCHED_OTHER|SCHED_OTHER" ] || { cat "$SEEN"; run_failed; }
	[[ "$output" == *"bats (guests on the instruction clock: icount.bats): 1 passed, 0 failed"* ]] || run_failed
	[[ "$output" == *"bats (guests on the host's clock: host.bats): 1 passed, 0 failed"* ]] || run_failed
	[ "${lines[-1]}" = "3 passed, 0 failed" ] || run_failed
	# `guests` alone: both at once, neither idle
	rm -f "$MARK" "$SEEN" "$HELD"
	run timeout 120 env LATLAB="$LATLAB" "$WORK/repo/tests/run.sh" guests
	[ "$status" -eq 0 ] || run_failed
	[ "$(cat "$SEEN")" = "SCHED_OTHER|SCHED_OTHER|SCHED_OTHER" ] || { cat "$SEEN"; run_failed; }
}

@test "docs/architecture.md names every folder and file of the tree, and only those (tools/arch-check.sh)" {
	run "$ROOT/tools/arch-check.sh" "$ROOT"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
	# a copy with a file the map does not name, a row naming one that is gone, a folder unnamed
	mkdir "$WORK/src"
	cp -r "$ROOT/docs" "$ROOT/harness" "$ROOT/common" "$WORK/src/"
	mkdir "$WORK/src/.hidden"	# not the map's: hidden
	touch "$WORK/src/harness/report/newpage.c"
	rm "$WORK/src/harness/vm/cpio.h"
	mkdir "$WORK/src/harness/gpu"
	run "$ROOT/tools/arch-check.sh" "$WORK/src"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"report/: harness/report/newpage.c is not named"* ]] || { echo "$output"; false; }
	[[ "$output" == *"vm/: cpio.h is named but not in harness/vm/"* ]] || { echo "$output"; false; }
	[[ "$output" == *"map: harness/gpu/ is not named"* ]] || { echo "$output"; false; }
	# the map's other paths are not in the copy: each said
	[[ "$output" == *"map: loadgen/ does not exist"* ]] || { echo "$output"; false; }
	[[ "$output" != *".hidden"* ]] || { echo "$output"; false; }
	run "$ROOT/tools/arch-check.sh" "$WORK/nothing"
	[ "$status" -eq 2 ] && [[ "$output" == *"has no docs/architecture.md"* ]] || run_failed
}

@test "no function is over 120 lines and at most 15 over 80 (tools/func-length.sh); one grown past either bound fails it, named" {
	run "$ROOT/tools/func-length.sh" "$ROOT"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"func-length: "*" functions over 80 lines (at most 15)"* ]] || { echo "$output"; false; }
	mkdir "$WORK/src"
	cp -r "$ROOT/common" "$ROOT/harness" "$ROOT/workloads" "$ROOT/loadgen" "$ROOT/tools" "$WORK/src/"
	# a function of 121 lines: refused, named at its line
	{ printf 'int grown(void);\nint grown(void)\n{\n'; for i in $(seq 121); do printf '\t(void)%d;\n' "$i"; done; printf '\treturn 0;\n}\n'; } \
		>>"$WORK/src/harness/report/words.c"
	run "$WORK/src/tools/func-length.sh" "$WORK/src"
	[ "$status" -eq 1 ] && [[ "$output" == *"harness/report/words.c:"*": grown 122 lines"* ]] || { echo "$output"; false; }
	[[ "$output" == *"the longest 122 (at most 120)"* ]] || { echo "$output"; false; }
	# and sixteen of 81: the count's bound
	cp "$ROOT/harness/report/words.c" "$WORK/src/harness/report/words.c"
	for f in $(seq 16); do
		{ printf 'int long%d(void);\nint long%d(void)\n{\n' "$f" "$f"; for i in $(seq 80); do printf '\t(void)%d;\n' "$i"; done; printf '\treturn 0;\n}\n'; } \
			>>"$WORK/src/harness/report/words.c"
	done
	run "$WORK/src/tools/func-length.sh" "$WORK/src"
	[ "$status" -eq 1 ] && [[ "$output" == *"harness/report/words.c:"*": long16 81 lines"* ]] || { echo "$output"; false; }
}
