#!/usr/bin/env bats
# lane: judges (tests/run.sh: where this file runs, and beside what)
# [matrix] throttle (docs/guide.md): off makes RT throttling unlimited and
# gives the deadline servers no runtime on the measured CPUs for the cell.
# This VM's kernel is in lockdown: debugfs's sched/fair_server cannot be
# read even by root, so plan says so for each cell that asks and run
# refuses the config before writing anything. On a machine where the
# servers can be set, a cell sets them and sets them back (judges' lane:
# it changes the machine's scheduler settings for the cell). The writes
# and their undoing, after the cell and after SIGKILL, are tested on files
# made for them (tests/unit/test_throttle.c); in guests of sid and 6.1 by
# tests/cli/guests/throttle.bats.

load helper

@test "throttle = off: refused per cell at plan time where the servers cannot be set, else set for the cell and set back" {
	before=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	write_config c.ini <<EOC
[campaign]
name = thr
duration = 300ms
output = $WORK/out
[matrix]
affinity = 1
throttle = default, off
EOC
	run "$LATLAB" plan c.ini
	# the default asks nothing of the machine: it runs here
	[[ "$output" == *"-Tdefault-1 "*" here"* ]] || run_failed
	if [[ "$output" == *"cannot run here"* ]]; then
		[ "$status" -eq 2 ] || run_failed
		[[ "$output" == *"c.ini:7: throttle = off: the fair_server's runtime cannot be set: debugfs sched/fair_server: "* ]] ||
			[[ "$output" == *"c.ini:7: throttle = off: the ext_server's runtime cannot be set: "* ]] ||
			[[ "$output" == *"c.ini:7: throttle = off: /proc/sys/kernel/sched_rt_runtime_us cannot be written: "* ]] || run_failed
		run "$LATLAB" run c.ini -q
		[ "$status" -eq 2 ] || run_failed
		[[ "$output" == *"throttle = off: "* ]] || run_failed
		[ ! -e "$WORK/out/thr" ]
	else
		[ "$status" -eq 0 ] || run_failed
		run timeout 60 "$LATLAB" run c.ini -q
		[ "$status" -eq 0 ] || run_failed
		C=$(cell_dir "$WORK/out/thr" '0001-*-Toff-1')/cell.ini
		grep -q "^throttle_done = sched_rt_runtime_us -1 (was $before)" "$C" || { cat "$C"; false; }
		! grep -q '^not_undone' "$C"
		! grep -q '^throttle_done' "$(cell_dir "$WORK/out/thr" '0000-*-Tdefault-1')/cell.ini"
	fi
	# the machine as it was
	[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "$before" ]
}

@test "throttle: a value that is not one is refused at its line; an rt-hog whose bursts would not end is refused at every setting (exit 2)" {
	write_config c.ini <<EOC
[campaign]
name = thr
output = $WORK/out
[matrix]
throttle = default, of
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:5: throttle: 'of' is not one of default|off"* ]] || run_failed
	write_config c.ini <<EOC
[campaign]
name = thr
output = $WORK/out
[matrix]
throttle = off
load = hog
[load.hog]
type = rt-hog
busy = 100ms
every = 150ms
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:7: [load.hog]: busy = 100000000 ns is more than half of every = 150000000 ns: the hog must leave the CPU at least half the time"* ]] || run_failed
	# the longest burst rt-hog takes is 100 ms, ten times under the net of 1 s
	run "$LATLAB" plan c.ini --set load.hog.busy=101ms --set load.hog.every=1s
	[ "$status" -eq 2 ] && [[ "$output" == *"busy"* ]] || run_failed
}
