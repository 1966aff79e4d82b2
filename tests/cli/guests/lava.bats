#!/usr/bin/env bats
# lane: guests-a (tests/run.sh: where this file runs, and beside what)
# LAVA, really: configs/lava/latlab.yaml, a job and a qemu device checked
# against lava-common's schemas, then run by LAVA's own lava-run with no
# server (tools/lava-local.sh): Debian's stock kernel in qemu (TCG), a
# ramdisk with the static latlab, and every cell back as a LAVA test case.

load ../helper

ROOT=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)

@test "lava-run: the job boots, runs latlab.yaml, and every cell and metric is a LAVA test case" {
	command -v lava-run || { echo "no lava-run: make deps installs lava-dispatcher" >&2; false; }
	run timeout "$(paced 600)" "$ROOT/tools/lava-local.sh" "$WORK/lava" "$KERNELS/vmlinuz-stock"
	[ "$status" -eq 0 ] || { echo "$output"; tail -40 "$WORK/lava/job.log"; false; }
	[[ "$output" == *"latlab.yaml, job and device valid against lava-common's schemas"* ]]
	[[ "$output" == *"result: lava login-action pass"* ]]
	[[ "$output" == *"result: lava job pass"* ]]
	# quick.ini: 4 cells of the timer workload, 3 metrics each, each a test
	# case with its measurement; pass or fail is the TCG guest's timing on
	# this host (a busy one missed quick.ini's thresholds: the fresh check
	# of 3bb5339), not what this test judges
	# A cell latlab could not measure is one test case that fails, with no
	# measurement: the fresh check of 8d63c34 had its hackbench cell so
	# (the TCG guest on a host busy with a hog, hackbench and other
	# guests); what this test holds is that every cell reached LAVA
	local n m
	for n in 0 1 2 3; do
		m=$(grep -c "^result: 0_latlab 000$n-.*-\(wakeup\|io\|response\)-max \(pass\|fail\) [0-9.]* us$" <<<"$output") || true
		[ "$m" -eq 3 ] || { [ "$m" -eq 0 ] && grep -q "^result: 0_latlab 000$n-[^ ]* fail$" <<<"$output"; } ||
			run_failed
	done
	# what LAVA saw was what latlab printed, in the guest
	grep -q '"hostname = latlab-lava"' "$WORK/lava/job.log"
	grep -q 'LAVA_SIGNAL_TESTCASE TEST_CASE_ID=0000-none-timer-' "$WORK/lava/job.log"
}

@test "lava-run: a test definition LAVA would refuse, and a missing build, stop before any boot" {
	command -v lava-run || { echo "no lava-run: make deps installs lava-dispatcher" >&2; false; }
	sed 's/^  format: .*/  format: Lava-Test Test Definition 2.0/' \
		"$ROOT/configs/lava/latlab.yaml" > bad.yaml
	LAVA_TESTDEF=$WORK/bad.yaml run timeout 60 "$ROOT/tools/lava-local.sh" "$WORK/lava" "$KERNELS/vmlinuz-stock"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not valid for LAVA: "*"metadata"*"format"* ]]
	[ ! -e "$WORK/lava/job.log" ]
	run timeout 60 "$ROOT/tools/lava-local.sh" "$WORK/lava" "$WORK/no-kernel"
	[ "$status" -eq 3 ]
	[[ "$output" == *"lava-local: no $WORK/no-kernel (make static; make kernels)"* ]]
}
