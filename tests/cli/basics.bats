#!/usr/bin/env bats
# The command line: help, version, list, sysinfo, plan.

load helper

@test "--version prints the version" {
	run "$LATLAB" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^latlab\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "no command and unknown commands are usage errors (exit 2)" {
	run "$LATLAB"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: latlab COMMAND"* ]]
	run "$LATLAB" frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'frobnicate'"* ]]
}

@test "help lists the commands, help run lists its options" {
	run "$LATLAB" help
	[ "$status" -eq 0 ]
	for c in run plan list sysinfo help; do
		[[ "$output" == *"  $c "* ]]
	done
	run "$LATLAB" help run
	[ "$status" -eq 0 ]
	[[ "$output" == *"--allow-non-rt"* ]]
	[[ "$output" == *"--set"* ]]
	run "$LATLAB" help nosuch
	[ "$status" -eq 2 ]
}

@test "run without a config, or with two, is a usage error" {
	run "$LATLAB" run
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: latlab run CONFIG"* ]]
	run "$LATLAB" run a.ini b.ini
	[ "$status" -eq 2 ]
	run "$LATLAB" plan c.ini -o x
	[ "$status" -eq 2 ]
}

@test "list shows axes, options with types and defaults, workloads and loads" {
	run "$LATLAB" list
	[ "$status" -eq 0 ]
	[[ "$output" == *"[matrix]"* ]]
	[[ "$output" =~ threads\ +integer\ list\ +default\ 1 ]]
	[[ "$output" =~ interval\ +duration\ list\ +default\ 1ms ]]
	[[ "$output" =~ duration\ +duration\ +default\ 60s ]]
	[[ "$output" == *"p99.99"* ]]
	[[ "$output" =~ timer\ +no\ I/O ]]
	[[ "$output" =~ fail_every\ +integer ]]
	[[ "$output" =~ none\ +no\ load ]]
}

@test "sysinfo reports the kernel, CPUs, RT throttling and warnings" {
	mounts=$(grep -c ' debugfs ' /proc/self/mounts || true)
	run "$LATLAB" sysinfo
	[ "$status" -eq 0 ]
	[[ "$output" == *"[kernel]"* ]]
	[[ "$output" == *"release = $(uname -r)"* ]]
	[[ "$output" == *"preempt = "* ]]
	[[ "$output" == *"preempt_from = "* ]]
	# a kernel whose config can be read has a model: never "unknown"
	# (this VM's 6.18: debugfs refuses its sched/ files, /proc/config.gz
	# says PREEMPT_NONE)
	if [ -e /proc/config.gz ] || [ -e "/boot/config-$(uname -r)" ]; then
		! grep -q '^preempt = unknown' <<<"$output" || { grep preempt <<<"$output"; false; }
	fi
	# debugfs read in a mount namespace of latlab's own: nothing left mounted
	[ "$(grep -c ' debugfs ' /proc/self/mounts || true)" = "$mounts" ]
	[[ "$output" == *"rt_runtime_us = $(cat /proc/sys/kernel/sched_rt_runtime_us)"* ]]
	[[ "$output" == *"fair_server = "* ]]
	[[ "$output" == *"runs_long = "* ]]
	[[ "$output" == *"count = $(nproc)"* ]]
	[[ "$output" == *"numa_nodes = "* ]]
	[[ "$output" == *"[warnings]"* ]]
	if [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != -1 ]; then
		[[ "$output" == *"RT throttling is on"* ]]
	fi
}

@test "plan prints every cell and an estimate, and writes nothing" {
	write_config p.ini <<EOC
[campaign]
name = p
duration = 10s
output = $WORK/out
[matrix]
kernel = running, rt
workload = timer, null
threads = 1, all
EOC
	run "$LATLAB" plan p.ini
	[ "$status" -eq 0 ]
	[[ "$output" == *"0000-running-none-timer-t1-aspread-1"* ]]
	[[ "$output" == *"0007-rt-none-null-tall-aspread-1"* ]]
	[[ "$output" == *"8 cells: "* ]]
	[[ "$output" == *"estimated wall time:"* ]]
	[ ! -e "$WORK/out" ]
	# this machine is not PREEMPT_RT (CI's is not either)
	if ! grep -q PREEMPT_RT /proc/version; then
		[[ "$output" == *"4 run on this kernel"* ]]
		[[ "$output" =~ 0004-rt-none-timer-t1-aspread-1\ +rt\ +pending ]]
		[[ "$output" == *"estimated wall time: 41.2s"* ]]
	fi
}

@test "plan --set and --duration change the plan" {
	quick_config
	run "$LATLAB" plan c.ini --set matrix.priority=80,90 --duration 2m
	[ "$status" -eq 0 ]
	[[ "$output" == *"0001-none-timer-t1-aspread-p90-1"* ]]
	[[ "$output" == *"(2m per cell)"* ]]
}

@test "make install puts the binary, configs and man page under DESTDIR/PREFIX" {
	repo=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	run make -s -C "$repo" install DESTDIR="$WORK/root" PREFIX=/opt/ll
	[ "$status" -eq 0 ]
	[ -x "$WORK/root/opt/ll/bin/latlab" ]
	[ -s "$WORK/root/opt/ll/share/latlab/configs/quick.ini" ]
	[ -s "$WORK/root/opt/ll/share/man/man1/latlab.1" ]
	[ -x "$WORK/root/opt/ll/bin/latload" ]
	[ -s "$WORK/root/opt/ll/share/latlab/plots/hist.gp" ]
	grep -q '^ExecStart=/opt/ll/bin/latlab run ${LATLAB_CONFIG} -o ${LATLAB_OUTPUT} --reboot -q$' \
		"$WORK/root/lib/systemd/system/latlab-resume.service"
	run "$WORK/root/opt/ll/bin/latlab" --version
	[ "$status" -eq 0 ]
}

@test "every [campaign] and [matrix] key and every workload type in latlab list is in the man page and docs/guide.md" {
	run "$LATLAB" list
	[ "$status" -eq 0 ]
	keys=$(awk '/^\[campaign\]|^\[matrix\]/ { on = 1; next } /^\[/ || /^$/ { on = 0 } on { print $1 }' <<<"$output")
	# a type is the first line after a blank one; its options follow under [workload type T]
	types=$(awk '/^Workloads/ { on = 1; next } /^Loads/ { on = 0 }
		on && blank && /^  [a-z]/ { print $1 } { blank = /^$/ }' <<<"$output")
	[ "$(wc -w <<<"$keys")" -ge 20 ] && [ "$(wc -w <<<"$types")" -ge 10 ] || { echo "$output"; false; }
	missing=
	for k in $keys $types; do
		grep -q -- "$(sed 's/-/\\\\-\\|-/g' <<<"$k")" "$BATS_TEST_DIRNAME/../../docs/latlab.1" || missing="$missing man:$k"
		grep -q -- "$k" "$BATS_TEST_DIRNAME/../../docs/guide.md" || missing="$missing guide:$k"
	done
	[ -z "$missing" ] || { echo "not documented:$missing"; false; }
}

@test "every example config in configs/ is accepted by latlab plan" {
	for c in "$BATS_TEST_DIRNAME"/../../configs/*.ini; do
		run "$LATLAB" plan "$c"
		[ "$status" -eq 0 ] || { echo "$c: $output"; false; }
	done
}

@test "the man page lists every command and every option latlab help shows" {
	MAN="$BATS_TEST_DIRNAME/../../docs/latlab.1"
	run "$LATLAB" help
	cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<<"$output")
	[ -n "$cmds" ]
	for c in $cmds; do
		grep -q "^\.B latlab $c\b" "$MAN" || { echo "no synopsis of $c"; false; }
		usage=$("$LATLAB" help "$c" 2>&1 | sed -n 's/^usage: //p')
		for o in $(grep -oE -- '--[a-z][a-z-]*' <<<"$usage"); do
			esc=$(sed 's/-/\\\\-/g' <<<"$o")
			grep -q -- "$esc" "$MAN" || { echo "$c: $o is not in the man page"; false; }
		done
	done
	for s in '.BR rtla (1)' '.BR stress\-ng (1)' '.BR rteval (8)'; do
		grep -qxF "$s," "$MAN" || grep -qxF "$s" "$MAN" || { echo "SEE ALSO lacks $s"; false; }
	done
}
