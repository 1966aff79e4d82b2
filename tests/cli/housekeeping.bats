#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# [campaign] housekeeping (docs/guide.md): latlab's own threads on the
# CPUs it names while a cell measures (cyclictest --mainaffinity), the
# measured thread on its own; as before after the cell; a CPU that is not
# online, or one isolation keeps for a measured thread, refused at plan
# time. Timing is not judged here.

load helper

@test "housekeeping = 0: latlab's main and helper threads on CPU 0 while the measured thread runs on CPU 1" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU"
	write_config c.ini <<EOC
[campaign]
name = hk
duration = 4s
output = $WORK/out
housekeeping = 0
[matrix]
affinity = 1
EOC
	"$LATLAB" run c.ini -q >run.out 2>&1 &
	pid=$!
	# the measured thread: SCHED_FIFO (policy 1, /proc/PID/task/TID/stat's 41st field)
	for ((i = 0; i < 300; i++)); do
		# (a thread that ends between the listing and its read is no error)
		fifo=$(for t in /proc/$pid/task/*; do awk -v t="${t##*/}" '$41 == 1 { print t }' $t/stat 2>/dev/null || true; done)
		[ -n "$fifo" ] && break
		sleep 0.1
	done
	[ -n "$fifo" ] || { kill -TERM $pid; wait $pid; false; }
	for t in /proc/$pid/task/*; do
		cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' $t/status)
		if [ "${t##*/}" = "$fifo" ]; then
			[ "$cpus" = 1 ] || { echo "measured thread on $cpus"; false; }
		else
			[ "$cpus" = 0 ] || { echo "thread ${t##*/} on $cpus"; false; }
		fi
	done
	wait $pid || { cat run.out; false; }
	grep -q '^housekeeping = 0$' "$(cell_dir "$WORK/out/hk" '*-1')/cell.ini"
	grep -q "latlab's own threads on CPUs 0" "$(cell_dir "$WORK/out/hk" '*-1')/log.txt"
}

@test "housekeeping: not a CPU list (exit 2 at its line); a CPU not online, or one isolation keeps, said at plan time" {
	write_config c.ini <<EOC
[campaign]
name = hk
output = $WORK/out
housekeeping = 0-x
[matrix]
affinity = 1
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:4: housekeeping = '0-x': expected a CPU list (0, 0-1, 0+2), or nothing"* ]] || run_failed
	run "$LATLAB" plan c.ini --set campaign.housekeeping=1000
	[ "$status" -eq 2 ] && [[ "$output" == *"--set:1: housekeeping = '1000': CPU 1000 is not online"* ]] || run_failed
	run "$LATLAB" run c.ini --set campaign.housekeeping=1000 -q
	[ "$status" -eq 2 ] || run_failed
	mountpoint -q /sys/fs/cgroup/cpuset || skip "no cgroup v1 cpuset hierarchy here"
	run "$LATLAB" plan c.ini --set campaign.housekeeping=1 --set matrix.isolation=cpuset
	[ "$status" -eq 2 ] && [[ "$output" == *"--set:2: isolation = cpuset: housekeeping = '1' names CPU 1, which it keeps for a measured thread"* ]] || run_failed
}
