#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# Failure paths: no RT privilege, interruption, a full or read-only disk.

load helper

# as_nobody CMD...: run as an unprivileged user with no rtprio rights
as_nobody() {
	prlimit --rtprio=0:0 setpriv --reuid=nobody --regid=nogroup \
		--clear-groups --inh-caps=-all -- "$@"
}

nobody_setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to become nobody"
	mkdir -p "$WORK/out"
	chmod 777 "$WORK/out"
	# nobody must reach the binary: it lives under the checkout
	as_nobody test -x "$LATLAB" || skip "nobody cannot execute $LATLAB"
}

@test "no RT privilege: exit 3, says how to fix it, writes nothing" {
	nobody_setup
	quick_config
	run as_nobody timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 3 ]
	[[ "$output" == *"cannot create a SCHED_FIFO thread at priority 90"* ]]
	[[ "$output" == *"ulimit -r 90"* ]]
	[[ "$output" == *"--allow-non-rt"* ]]
	[ -z "$(ls -A "$WORK/out")" ]
}

@test "root in a child cpu cgroup with no real-time budget (RT_GROUP_SCHED, as a container's): plan and run name the cgroup and the fix, exit 3, nothing written" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	top=/sys/fs/cgroup/cpu
	[ -e "$top/cpu.rt_runtime_us" ] || skip "no v1 cpu controller with RT_GROUP_SCHED here"
	cg=$top/latlab-test-$$-$BATS_TEST_NUMBER
	mkdir "$cg"
	[ "$(cat "$cg/cpu.rt_runtime_us")" = 0 ]
	quick_config
	# a shell of its own moved into it, latlab started from there
	run sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" plan c.ini' sh "$cg" "$LATLAB"
	plan_status=$status plan_out=$output
	run sh -c 'echo $$ > "$1/cgroup.procs" && exec timeout 60 "$2" run c.ini --duration 200ms' sh "$cg" "$LATLAB"
	rmdir "$cg" || { sleep 1; rmdir "$cg"; }
	[ "$plan_status" -eq 3 ] || { echo "$plan_out"; false; }
	[[ "$plan_out" == *"no SCHED_FIFO thread at priority 90 here (Operation not permitted): its cgroup has no real-time budget: ${cg}/cpu.rt_runtime_us is 0 (this kernel has CONFIG_RT_GROUP_SCHED"*"each cgroup from $top down to $cg (echo 950000 > cpu.rt_runtime_us in each"* ]] || { echo "$plan_out"; false; }
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"cannot create a SCHED_FIFO thread at priority 90: Operation not permitted"* ]] || run_failed
	[[ "$output" == *"its cgroup has no real-time budget: ${cg}/cpu.rt_runtime_us is 0"*"or pass --allow-non-rt"* ]] || run_failed
	[ ! -e "$WORK/out/t" ]
}

@test "--allow-non-rt as an unprivileged user measures SCHED_OTHER, marked" {
	nobody_setup
	quick_config
	run as_nobody timeout 60 "$LATLAB" run c.ini --duration 500ms --allow-non-rt
	[ "$status" -eq 0 ]
	[[ "$output" == *"SCHED_FIFO refused"* ]]
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	grep -q '^policy = other$' "$D/cell.ini"
	[ "$(col "$WORK/out/t/cells.csv" policy | sort -u)" = other ]
	# measured: at SCHED_OTHER beside a busy machine's load the thread
	# gets what CFS gives it (a fresh check of 03532a0: 100 or fewer of
	# its 500 periods), so some, not most
	[ "$(awk -F, '$3 == "wakeup" { print $4 }' "$D/summary.csv")" -ge 1 ]
}

@test "--allow-non-rt with privilege still measures SCHED_FIFO" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms --allow-non-rt -q
	[ "$status" -eq 0 ]
	grep -q '^policy = fifo$' "$WORK"/out/t/*/*/0000*/cell.ini
}

# interrupt SIGNAL: a 30 s cell stopped 1.5 s after it started
interrupt() {
	quick_config
	printf '[matrix]\nworkload = timer, null\n' | ini_merge c.ini
	"$LATLAB" run c.ini --duration 30s -q >"$WORK/log" 2>&1 &
	pid=$!
	state_says "$WORK/out/t/state" "0000-none-timer-t1-aspread-1 = running"
	sleep 1.5
	kill -"$1" "$pid"
	local t0=$SECONDS
	wait "$pid" && st=0 || st=$?
	[ "$st" -eq 130 ] || { cat "$WORK/log"; echo "status $st"; return 1; }
	# it stopped promptly, not at the end of the cell
	[ $((SECONDS - t0)) -le 5 ]
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	grep -q '^status = interrupted$' "$D/cell.ini"
	n=$(awk -F, '$3 == "wakeup" { print $4 }' "$D/summary.csv")
	# what it measured is kept: about 1.4 s of 1 ms periods
	[ "$n" -gt 500 ] && [ "$n" -lt 5000 ]
	grep -q "^0000-none-timer-t1-aspread-1 = interrupted$" "$WORK/out/t/state"
	grep -q "^0001-none-null-t1-aspread-1 = pending$" "$WORK/out/t/state"
	[ -z "$(find "$WORK/out" -name '*.tmp.*')" ]
}

@test "SIGINT stops the cell, keeps what it measured, exit 130" {
	interrupt INT
}

@test "SIGTERM does the same" {
	interrupt TERM
}

# small_disk SIZE: $WORK/full, a tmpfs of SIZE (teardown unmounts it)
small_disk() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	mkdir "$WORK/full"
	mount -t tmpfs -o size="$1" tmpfs "$WORK/full" || skip "cannot mount tmpfs"
}

@test "a full disk is exit 3 with a clear message, earlier files intact; room made, the same command finishes the campaign" {
	small_disk 96k
	quick_config
	printf '[matrix]\nworkload = timer, null\nthreads = 1, 2\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/full" --duration 300ms
	[ "$status" -eq 3 ]
	# caught by the space check before a cell, or by ENOSPC while writing
	[[ "$output" == *"No space left on device"* || "$output" == *"MiB free under $WORK/full/t"* ]]
	# every file that is there is whole: no temporaries, state parses
	[ -z "$(find "$WORK/full" -name '*.tmp.*')" ]
	grep -q '^config_hash = ' "$WORK/full/t/state"
	for f in "$WORK"/full/t/*/*/*/summary.csv; do
		[ -e "$f" ] || continue
		[ "$(head -1 "$f" | cut -d, -f1)" = thread ]
	done
	# room made (as a user deletes what filled the disk): the same
	# command finishes the campaign, the cells done before kept
	done_before=$(grep -c ' = ok$' "$WORK/full/t/state" || true)
	mount -o remount,size=16m "$WORK/full"
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/full" --duration 300ms
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$done_before" -eq 0 ] || [[ "$output" == *"resuming campaign t in $WORK/full/t: $done_before of 4 cells already done"* ]]
	[ "$(grep -c ' = ok$' "$WORK/full/t/state")" -eq 4 ]
	umount "$WORK/full"	# (teardown's too, when a line above fails)
}

@test "the disk filled while a cell measures: the cell is not called done, exit 3; room made, it runs anew" {
	small_disk 16m
	quick_config
	printf '[campaign]\nduration = 3s\n' | ini_merge c.ini
	"$LATLAB" run c.ini -o "$WORK/full" >"$WORK/run.log" 2>&1 &
	local pid=$! id= i=0 rc=0
	while [ -z "$id" ] && [ $((i++)) -lt 600 ]; do
		id=$(sed -n 's/ = running$//p' "$WORK/full/t/state" 2>/dev/null | head -1)
		[ -n "$id" ] || sleep 0.1
	done
	[ -n "$id" ]
	# the disk fills to its last block while the cell measures
	dd if=/dev/zero of="$WORK/full/ballast" bs=64k 2>/dev/null || true
	wait $pid || rc=$?
	[ $rc -eq 3 ] || { cat "$WORK/run.log"; false; }
	grep -q "\] $id: measured, but its files could not all be written (No space left on device): it runs anew when the campaign resumes" "$WORK/run.log"
	# not said done: not ok in the console, not in the state
	! grep -q "\] $id: ok" "$WORK/run.log"
	[ "$(grep "^$id = " "$WORK/full/t/state" | tail -1)" = "$id = running" ]
	[ -z "$(find "$WORK/full" -name '*.tmp.*')" ]
	rm "$WORK/full/ballast"
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/full"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(grep "^$id = " "$WORK/full/t/state" | tail -1)" = "$id = ok" ]
	umount "$WORK/full"
}

@test "a read-only output directory is exit 3 before measuring" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	mkdir -p "$WORK/ro"
	mount -t tmpfs -o size=1m,ro tmpfs "$WORK/ro" || skip "cannot mount"
	quick_config
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/ro" --duration 200ms
	umount "$WORK/ro"
	[ "$status" -eq 3 ]
	[[ "$output" == *"Read-only file system"* ]]
	[[ "$output" != *"[1/1]"* ]]
}
