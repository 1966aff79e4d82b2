#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# [matrix] idle (docs/guide.md): which idle states the measured CPUs may
# enter. This VM has no cpuidle driver, so plan says so for each cell that
# asks for one and run refuses the config before writing anything; the
# switching itself is tested on a sysfs made for it (tests/unit/test_idle.c).
# No cell is measured here.

load helper

@test "idle = poll, deepest:N without a cpuidle driver: said per cell at plan time, run refuses (exit 2), nothing written" {
	driver=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)
	[ "$driver" = none ] || skip "this machine has a cpuidle driver ($driver)"
	write_config c.ini <<EOC
[campaign]
name = idle
duration = 200ms
output = $WORK/out
[matrix]
affinity = 1
idle = any, poll, deepest:1
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:7: idle = poll: this machine has no cpuidle driver (/sys/devices/system/cpu/cpuidle/current_driver: none)"* ]] || run_failed
	[[ "$output" == *"c.ini:7: idle = deepest:1: this machine has no cpuidle driver"* ]] || run_failed
	[[ "$output" == *"-epoll-1"* && "$output" == *"-edeepest1-1"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"idle = poll: this machine has no cpuidle driver"* ]] || run_failed
	[ ! -e "$WORK/out/idle" ]
	# any: nothing asked of the machine, the cell id without the axis
	run "$LATLAB" plan c.ini --set matrix.idle=any
	[ "$status" -eq 0 ] && [[ "$output" != *"-eany"* ]] && [[ "$output" != *"cannot run"* ]] || run_failed
}

@test "idle: a value that is not one is refused at its line (exit 2)" {
	for bad in deepest:x deepest:16 deepest: c6 deepest:-1; do
		write_config c.ini <<EOC
[campaign]
name = idle
output = $WORK/out
[matrix]
idle = any, $bad
EOC
		run "$LATLAB" plan c.ini
		[ "$status" -eq 2 ] || run_failed
		[[ "$output" == *"c.ini:5: idle: '$bad' is not one of any|deepest:N|poll (N 0-15)"* ]] || run_failed
	done
}
