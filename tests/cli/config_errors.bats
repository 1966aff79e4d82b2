#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# Bad input: a clear message naming file:line, exit 2, nothing written.

load helper

# check_bad "ini text" "expected message fragment (after FILE:)"
check_bad() {
	printf '[campaign]\nname = bad\noutput = %s/out\n%b' "$WORK" "$1" >bad.ini
	run "$LATLAB" run bad.ini
	[ "$status" -eq 2 ] || { echo "status $status: $output"; return 1; }
	[[ "$output" == *"bad.ini:$2"* ]] || { echo "got: $output"; return 1; }
	[ ! -e "$WORK/out" ] || { echo "something was written"; return 1; }
}

@test "unknown section" {
	check_bad '[matrx]\nthreads = 1\n' "4: unknown section [matrx]"
}

@test "unknown key" {
	check_bad '[matrix]\nthread = 1\n' "5: unknown key 'thread' in [matrix]"
}

@test "bad unit" {
	check_bad '[matrix]\ninterval = 1000\n' "5: interval = '1000' is not a duration with a unit"
}

@test "empty axis" {
	check_bad '[matrix]\nworkload =\n' "5: workload is empty"
}

@test "out-of-range value" {
	check_bad '[matrix]\npriority = 0\n' "5: priority = 0 is out of range (1 to 99)"
}

@test "unknown workload" {
	check_bad '[matrix]\nworkload = timer, fsync\n' "5: workload 'fsync' is neither a workload type"
}

@test "softirq: every must divide a second, and a batch needs a connection" {
	check_bad '[matrix]\nload = s\n[load.s]\ntype = softirq\nevery = 30ms\n' "6: [load.s]: every = 30000000 ns does not divide 1 s"
	check_bad '[matrix]\nload = s\n[load.s]\ntype = softirq\nconnections = 5\n' "6: [load.s]: connections = 5 is fewer than the 10 batches every = 100000000 ns makes"
	check_bad '[matrix]\nload = s\n[load.s]\ntype = softirq\nevery = 2s\n' "8: every = 2s is out of range (10ms to 1s)"
}

@test "unknown load" {
	check_bad '[matrix]\nload = stress\n' "5: load 'stress' has no [load.stress] section"
}

@test "unknown load type" {
	check_bad '[load.x]\ntype = bogus\n[matrix]\nload = x\n' "5: unknown load type 'bogus'"
}

@test "malformed CPU list" {
	check_bad '[matrix]\naffinity = 0-\n' "5: affinity: '0-' is not one of spread|all|isolated|node:N (N 0-1023) or a CPU list (0-3+6)"
}

@test "offline CPU" {
	check_bad '[matrix]\naffinity = 1000\n' "5: affinity '1000': CPU 1000 is not online"
}

@test "syntax error" {
	check_bad 'just some words\n' "4: syntax error"
}

@test "a bad --set names itself" {
	quick_config
	run "$LATLAB" run c.ini --set matrix.threads=0
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set:1: threads = 0 is out of range"* ]]
	run "$LATLAB" run c.ini --duration 5
	[ "$status" -eq 2 ]
	[[ "$output" == *"duration = '5' is not a duration"* ]]
	[ ! -e "$WORK/out" ]
}

@test "--set reaches [thresholds.METRIC], and thresholds.p99.9 stays a key of [thresholds]" {
	quick_config
	run "$LATLAB" plan c.ini --set thresholds.noise_max.max=100us --set thresholds.p99.9=1ms
	[ "$status" -eq 0 ] || run_failed
	run "$LATLAB" plan c.ini --set thresholds.noise_max.mx=100us
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set:1: unknown key 'mx' in [thresholds.noise_max]"* ]] || run_failed
	run "$LATLAB" plan c.ini --set thresholds.wakeup.max=1ms --set thresholds.wakeup.p99=1s
	[ "$status" -eq 0 ] || run_failed
}

@test "a missing config file is exit 2" {
	run "$LATLAB" run "$WORK/nope.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"nope.ini: No such file or directory"* ]]
}

@test "latlab given fewer CPUs than are online (taskset, a container's cpuset): plan says so, a CPU outside them is refused, spread places threads within" {
	[ "$(nproc --all)" -ge 2 ] || skip "needs two CPUs"
	printf '[campaign]\nname = few\nduration = 200ms\noutput = %s/out\n[matrix]\naffinity = 0, 1\n' "$WORK" >few.ini
	run taskset -c 1 "$LATLAB" plan few.ini
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"latlab may run on CPUs 1 of the online 0-"* ]]
	[[ "$output" == *"few.ini:6: affinity '0': CPU 0 is online but latlab may not run there: it may run on CPUs 1 only (its affinity: a container's --cpuset-cpus, taskset, or a cgroup's cpuset.cpus)"* ]]
	[[ "$output" == *"0001-none-timer-t1-a1-1"*" here"* ]]
	# spread, on the one CPU it has: measured there, not refused at run
	printf '[campaign]\nname = few\nduration = 200ms\noutput = %s/out\n[matrix]\naffinity = spread\n[thresholds]\nmissed = off\n' "$WORK" >spread.ini
	run taskset -c 1 "$LATLAB" run spread.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -qx 'cpus = 1' out/few/*/*/*/cell.ini
	# unrestricted, no such line
	run "$LATLAB" plan spread.ini
	[[ "$output" != *"latlab may run on CPUs"* ]]
}

@test "a config for a bigger machine: plan prints it, marks what cannot run here and exits 2 as run does; status reads its tree" {
	printf '[campaign]\nname = big\nduration = 100ms\noutput = %s/out\n[matrix]\naffinity = 0, 7\n' "$WORK" >big.ini
	run "$LATLAB" plan big.ini
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"0000-none-timer-t1-a0-1"*" here"* ]]
	[[ "$output" == *"0001-none-timer-t1-a7-1"*"cannot run here"* ]]
	[[ "$output" == *"1 cell cannot run on this machine: big.ini:6: affinity '7': CPU 7 is not online (online: "* ]]
	[[ "$output" == *"latlab run refuses this config here (exit 2): see above"* ]]
	run "$LATLAB" run big.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"big.ini:6: affinity '7': CPU 7 is not online"* ]]
	[ ! -e "$WORK/out" ]
	# a tree measured on the bigger machine, copied here: status reads it
	# missed = off: this VM's stalls miss 1 % of a 100 ms cell's periods
	# now and then (failed the sanitizer build's run once)
	printf '[campaign]\nname = big\nduration = 100ms\noutput = %s/out\n[matrix]\naffinity = 0\n[thresholds]\nmissed = off\n' "$WORK" >small.ini
	run "$LATLAB" run small.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	sed -i 's/^affinity = 0$/affinity = 0, 7/' "$WORK/out/big/campaign.ini"
	grep -q '^affinity = 0, 7$' "$WORK/out/big/campaign.ini"
	# as the bigger machine's state would say: its config's hash
	h=$(fnv1a64 "$WORK/out/big/campaign.ini")
	sed -i "s/^config_hash = .*/config_hash = $h/" "$WORK/out/big/state"
	run "$LATLAB" status "$WORK/out/big"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"campaign big in $WORK/out/big: 2 cells"* ]]
}

@test "a load's CPUs this machine lacks: run is exit 2 naming cpus =" {
	check_bad '[matrix]\nload = l\n[load.l]\ntype = cpu\ncpus = 0-1000\n' "8: [load.l] cpus = '0-1000': CPU "
}

@test "a [section] name the INI reader would cut is refused at its line, not taken for another" {
	for n in 42 47; do
		K=$(printf 'k%.0s' $(seq $n))
		printf '[matrix]\nkernel = %s\n\n[kernel.%s]\nmatch = any\n' "$K" "$K" >c.ini
		run "$LATLAB" plan c.ini
		[ "$status" -eq 2 ]
		[[ "$output" == *"c.ini:4: a [section] name is at most 48 characters"* ]] || run_failed
	done
	K=$(printf 'k%.0s' $(seq 41))
	printf '[matrix]\nkernel = %s\n\n[kernel.%s]\nmatch = any\n' "$K" "$K" >c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || run_failed
}

@test "a key given twice is an error at both lines; --set overrides without one" {
	check_bad '[matrix]\ninterval = 1ms\nthreads = 1\ninterval = 2ms\n' \
		"7: interval is set twice in [matrix]: here and at line 5 (one would win in silence; --set matrix.interval=VALUE overrides a value)"
	printf '[campaign]\nname = ok\noutput = %s/out\n[matrix]\ninterval = 1ms\n' "$WORK" >ok.ini
	run "$LATLAB" plan ok.ini --set matrix.interval=2ms
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "every mistake of a config in one run, each at its line, then exit 2; at most 20" {
	printf '[campaign]\nname = bad\noutput = %s/out\nduraton = 1s\n[matrix]\npriorty = 90\nthreads = 0\ninterval = 1 ms\n[workload.w]\ntype = null\nfail_evry = 2\n' "$WORK" >bad.ini
	run "$LATLAB" run bad.ini
	[ "$status" -eq 2 ]
	[ "$(grep -c '^latlab: error: bad.ini:' <<<"$output")" -eq 5 ] || { echo "$output"; false; }
	[[ "$output" == *"bad.ini:4: unknown key 'duraton' in [campaign] (did you mean 'duration'?)"* ]]
	[[ "$output" == *"bad.ini:6: unknown key 'priorty' in [matrix] (did you mean 'priority'?)"* ]]
	[[ "$output" == *"bad.ini:7: threads = 0 is out of range"* ]]
	[[ "$output" == *"bad.ini:8: interval = '1 ms' has a blank between the number and its unit"* ]]
	[[ "$output" == *"bad.ini:11: unknown key 'fail_evry' for workload type 'null'"* ]]
	[ ! -e "$WORK/out" ]
	{ printf '[campaign]\n'; for i in $(seq 1 30); do echo "key$i = 1"; done; } >many.ini
	run "$LATLAB" plan many.ini
	[ "$status" -eq 2 ]
	[ "$(grep -c "^latlab: error: many.ini:[0-9]*: unknown key" <<<"$output")" -eq 20 ]
	[[ "$output" == *"latlab: error: 10 more errors not shown: fix these and run again"* ]] || { echo "$output"; false; }
}

@test "a misspelt section is named as the orphan it is, at the line that missed it and its own; plan lists the sections no cell uses" {
	write_config c.ini <<EOC
[campaign]
name = t
duration = 200ms
output = $WORK/out
[matrix]
workload = logger
load = hackbench
[workload.loger]
type = file-write
[load.hackbench]
type = hackbench
groups = 1
[load.spare]
type = cpu
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:6: workload 'logger' is neither a workload type nor a [workload.logger] section (latlab list shows the types); did you mean [workload.loger] (c.ini:8), which the matrix does not name?"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [[ "$output" == *"did you mean [workload.loger] (c.ini:8)"* ]] || run_failed
	[ ! -e "$WORK/out" ]
	# a load misspelt in the matrix: the nearest unused [load.*]
	run "$LATLAB" plan c.ini --set matrix.workload=loger --set matrix.load=hackbnch
	[ "$status" -eq 2 ] && [[ "$output" == *"load 'hackbnch' has no [load.hackbnch] section (built in: none); did you mean [load.hackbench] (c.ini:10), which the matrix does not name?"* ]] || run_failed
	# nothing near: no guess
	run "$LATLAB" plan c.ini --set matrix.workload=zzzzzz
	[ "$status" -eq 2 ] && [[ "$output" != *"did you mean"* ]] || run_failed
	# a config that loads: the unused sections named, with their lines
	run "$LATLAB" plan c.ini --set matrix.workload=loger
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"[load.spare] (c.ini:13) is in no cell: the matrix does not name it"* ]] || run_failed
	[[ "$output" != *"[workload.loger] (c.ini"* && "$output" != *"[load.hackbench] (c.ini"* ]] || run_failed
	# a chain's steps are used, though the matrix names only the chain
	printf '[matrix]\nworkload = loop\n[workload.loop]\ntype = chain\nsteps = loger, timer\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] && [[ "$output" != *"[workload.loger] (c.ini"* ]] || run_failed
}

@test "plan says when repeat is below what a verdict needs, and exits as run would: an image that is not there is exit 2" {
	quick_config
	printf '[matrix]\ninterval = 1ms, 2ms\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] && [[ "$output" == *"repeat = 1: one run a cell gives figures, not a verdict: set repeat = 5 for compare's 97.5 % interval between two cells"* ]] || run_failed
	run "$LATLAB" plan c.ini --set campaign.repeat=4
	[ "$status" -eq 0 ] && [[ "$output" == *"repeat = 4: with 4 and 4 runs compare cannot give a 97.5 % interval: set repeat = 5"* ]] || run_failed
	run "$LATLAB" plan c.ini --set campaign.repeat=5
	[ "$status" -eq 0 ] && [[ "$output" != *"repeat = 5:"* ]] || run_failed
	# one cell: nothing to compare, nothing said
	run "$LATLAB" plan c.ini --set matrix.interval=1ms
	[ "$status" -eq 0 ] && [[ "$output" != *"repeat = 1:"* ]] || run_failed
	# a qemu variant whose image is not there: plan says it and exits 2, as run does
	printf '[matrix]\nkernel = vm\n[kernel.vm]\nrunner = qemu\nimage = %s/no-such-image\nclock = icount\n' "$WORK" | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"image = $WORK/no-such-image: No such file or directory (make kernels fetches Debian's stock and rt images into kernels/)"* ]] || run_failed
	[[ "$output" == *"latlab run refuses this config here (exit 2): see above"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [[ "$output" == *"image = $WORK/no-such-image: No such file or directory"* ]] || run_failed
	# a baseline that is not a tree: the same
	run "$LATLAB" plan c.ini --set matrix.kernel=running --set thresholds.baseline="$WORK/nothing"
	[ "$status" -eq 2 ] && [[ "$output" == *"baseline = $WORK/nothing: "* ]] || run_failed
}

@test "plan is run's judge: isolation or housekeeping a guest's CPUs cannot keep is refused at the user's line, exit 2 as run, before a boot" {
	quick_config
	# the image is a file (run checks that it is there; nothing boots: it refuses first)
	: >"$WORK/image"
	printf '[matrix]\nkernel = vm\nisolation = none, cpuset\n[kernel.vm]\nrunner = qemu\nimage = %s/image\nclock = icount\n' "$WORK" | ini_merge c.ini
	line=$(line_of c.ini '^isolation')
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$line: isolation = cpuset: the guest of kernel vm has 1 CPU ([kernel.vm] cpus = 1), and the measured threads take CPU 0: none is left for housekeeping (cpus = 2 at least) in the guest"* ]] || run_failed
	[[ "$output" == *"latlab run refuses this config here (exit 2): see above"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:$line: isolation = cpuset: the guest of kernel vm has 1 CPU"* ]] || run_failed
	[ ! -e "$WORK/out/t/cells.csv" ]
	# two CPUs (the host's clock): one measured, one for housekeeping; the guest checks the rest
	sed -i '/^clock = icount$/d' c.ini
	printf '[kernel.vm]\ncpus = 2\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" != *"isolation = cpuset:"* ]] || run_failed
	# but threads = 2 takes both
	printf '[matrix]\nthreads = 2\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"isolation = cpuset: the guest of kernel vm has 2 CPUs ([kernel.vm] cpus = 2), and the measured threads take CPU 0-1"* ]] || run_failed
	# housekeeping on a CPU the guest has not
	printf '[matrix]\nthreads = 1\nisolation = none\n[campaign]\nhousekeeping = 3\n' | ini_merge c.ini
	line=$(line_of c.ini '^housekeeping')
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:$line: housekeeping = '3': CPU 3 is not online in the guest (online: 0-1)"* ]] || run_failed
}

@test "a cell of another program's threads never runs without what the matrix names: a chain's cyclictest step and a watch under isolation are refused at their lines (issue 70: host 10, 11)" {
	quick_config
	printf '[matrix]\nworkload = loop\n[workload.loop]\ntype = chain\nsteps = timer, cyclictest\n' | ini_merge c.ini
	line=$(line_of c.ini '^steps')
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:$line: [workload.loop] steps: 'cyclictest' (type = cyclictest) is a cell of its own, not a step a period runs"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [ ! -e "$WORK/out/t" ] || run_failed
	quick_config
	printf '[matrix]\nworkload = w\naffinity = 1\nisolation = cpuset\n[workload.w]\ntype = watch\ncommand = latload timer --threads 1\n' | ini_merge c.ini
	line=$(line_of c.ini '^isolation')
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:$line: isolation = cpuset: latlab does that for its own threads, not for a watched program's (workload w, type = watch)"* ]] || run_failed
}
