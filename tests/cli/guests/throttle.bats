#!/usr/bin/env bats
# lane: guests-icount (tests/run.sh: where this file runs, and beside what)
# [matrix] throttle = off where it can be set: in instruction-clock guests
# of sid's 7.x (RT throttling and the fair and ext deadline servers) and
# Debian's 6.1 (RT throttling only, no servers). This machine's kernel
# refuses it (tests/cli/throttle.bats); the journal's undoing after
# SIGKILL is tests/unit/test_throttle.c's.

load ../helper

@test "qemu: throttle = off in guests of sid (throttling and both servers off on the measured CPU) and 6.1 (throttling only), said in cell.ini, undone" {
	vm_setup
	[ -s "$KERNELS/sid/vmlinux-stock" ] ||
		{ echo "no $KERNELS/sid: make kernels fetches it" >&2; false; }
	write_config c.ini <<EOC
[campaign]
name = thr
duration = 500ms
output = $WORK/out
boot_attempts = 1
[matrix]
kernel = sid, bookworm
load = none
workload = timer
throttle = off
[kernel.sid]
runner = qemu
image = $KERNELS/sid/vmlinux-stock
clock = icount
boot_timeout = 120s
[kernel.bookworm]
runner = qemu
image = $KERNELS/vmlinux-stock
clock = icount
boot_timeout = 120s
EOC
	run timeout "$(paced 240)" "$LATLAB" run --jobs 2 c.ini
	[ "$status" -eq 0 ] || run_failed
	D=$WORK/out/thr
	[ "$(grep -c ' = ok$' "$D/state")" -eq 2 ]
	S=$(cell_dir "$D" '0000-sid-none-*-1')/cell.ini
	B=$(cell_dir "$D" '0001-bookworm-none-*-1')/cell.ini
	grep -qx 'throttle_done = sched_rt_runtime_us -1 (was 1000000); fair_server runtime 0 on CPUs 0 (was 50000000 ns); ext_server runtime 0 on CPUs 0 (was 50000000 ns); a real-time thread that runs 1000 ms without blocking gets SIGXCPU (RLIMIT_RTTIME)' "$S" ||
		{ grep throttle "$S"; false; }
	grep -qx 'throttle_done = sched_rt_runtime_us -1 (was 950000); a real-time thread that runs 1000 ms without blocking gets SIGXCPU (RLIMIT_RTTIME)' "$B" ||
		{ grep throttle "$B"; false; }
	# everything set back (a change that could not be is said as not_undone)
	! grep -q '^not_undone' "$S" "$B"
	[ "$(col "$D/cells.csv" throttle | sort -u)" = off ]
}
