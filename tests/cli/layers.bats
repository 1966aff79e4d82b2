#!/usr/bin/env bats
# The map of the code keeps itself true: tools/layers.sh (the floors, in
# one list) fails on a header included from a floor above, and on a
# result file named outside model/ and results/.

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
