#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# [matrix] smt (docs/guide.md): the measured CPUs' SMT siblings taken
# offline for a cell. This VM has one hardware thread a core, so plan says
# so for each cell that asks and run refuses the config before writing
# anything; the switching itself is tested on a sysfs made for it
# (tests/unit/test_smt.c) and in the Debian machine with siblings
# (bench/smt.sh). No cell is measured and no CPU taken offline here: the
# suite's other lanes run on both CPUs.

load helper

no_siblings() {
	for f in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
		case $(cat "$f") in *,* | *-*) return 1 ;; esac
	done
}

@test "smt = off without siblings: said per cell at plan time, run refuses (exit 2), nothing written" {
	no_siblings || skip "this machine has SMT siblings"
	write_config c.ini <<EOC
[campaign]
name = smt
duration = 200ms
output = $WORK/out
[matrix]
affinity = 1
smt = on, off
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:7: smt = off: no measured CPU (1) has an SMT sibling online on this machine: nothing to take offline"* ]] || run_failed
	[[ "$output" == *"-Soff-1"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"smt = off: no measured CPU (1) has an SMT sibling"* ]] || run_failed
	[ ! -e "$WORK/out/smt" ]
	# on: nothing asked of the machine, the cell id without the axis
	run "$LATLAB" plan c.ini --set matrix.smt=on
	[ "$status" -eq 0 ] && [[ "$output" != *"-Son"* ]] && [[ "$output" != *"cannot run"* ]] || run_failed
	# unpinned threads may run on a CPU and its sibling: refused for that, not for the machine
	run "$LATLAB" plan c.ini --set matrix.smt=off --set matrix.affinity=all
	[ "$status" -eq 2 ] && [[ "$output" == *"smt = off: "* ]] || run_failed
}

@test "smt: a value that is not one is refused at its line; a watched program's cell refuses it (exit 2)" {
	write_config c.ini <<EOC
[campaign]
name = smt
output = $WORK/out
[matrix]
smt = on, nope
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:5: smt: 'nope' is not one of on|off"* ]] || run_failed
	write_config c.ini <<EOC
[campaign]
name = smt
output = $WORK/out
[matrix]
workload = w
smt = off
[workload.w]
type = watch
pid = $$
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:6: smt = off: latlab does that for its own threads, not for a watched program's (workload w, type = watch)"* ]] || run_failed
}
