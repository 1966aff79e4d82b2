#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# latlab watch and `type = watch` on this machine: what it refuses, each
# before anything is written (exit 2). This VM's kernel has no histogram
# triggers, so a watch by them (method = hist) is refused here at plan
# time; by BPF (the default where latlab and the kernel can) it runs
# (tests/cli/watch_bpf.bats); where a kernel has triggers
# (tests/cli/guests/watch.bats measures in a Debian guest) the program's
# absence is. Refuses and reads only: in the readers' lane.

load helper

has_hist() { [ -e /sys/kernel/tracing/synthetic_events ] && [ -e /sys/kernel/tracing/events/sched/sched_switch/hist ]; }

@test "latlab watch: the program named once, its options checked, this kernel's lack said; nothing written" {
	run "$LATLAB" watch -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"name the program by exactly one of --pid, --comm and --command"* ]] || run_failed
	run "$LATLAB" watch --pid 1 --comm init -o "$WORK/o"
	[ "$status" -eq 2 ] || run_failed
	run "$LATLAB" watch --pid 1 --tid 1,x -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: tid: '1,x' is not a comma list of thread ids"* ]] || run_failed
	run "$LATLAB" watch --pid 1 --duration 1y -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: duration = '1y' is not a duration"* ]] || run_failed
	run "$LATLAB" watch --command 'a "b' -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: command: an unclosed quote"* ]] || run_failed
	# a pid that is no process: reaped child's
	sleep 0 & gone=$!
	wait "$gone"
	# the program is checked before the kernel, each said of its option
	run "$LATLAB" watch --pid "$gone" --duration 1s -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: --pid $gone: no such process"* ]] || run_failed
	run "$LATLAB" watch --comm no-such-latlab-program -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"no process is called 'no-such-latlab-program'"* ]] || run_failed
	run "$LATLAB" watch --command 'no-such-latlab-program --flag' -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == "latlab: error: watch: --command no-such-latlab-program --flag: no-such-latlab-program: not found on PATH" ]] || run_failed
	run "$LATLAB" watch --command "$WORK/not-there" -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: --command $WORK/not-there: $WORK/not-there: No such file or directory" ]] || run_failed
	if ! has_hist; then
		# a program that is there: this kernel's lack
		run "$LATLAB" watch --pid $$ --duration 1s --method hist -o "$WORK/o"
		[ "$status" -eq 2 ] || run_failed
		[[ "$output" == *"watch: this kernel has no histogram triggers and synthetic events (CONFIG_HIST_TRIGGERS, CONFIG_SYNTH_EVENTS)"* ]] || run_failed
	fi
	[ ! -e "$WORK/o" ]
	run "$LATLAB" help watch
	[ "$status" -eq 0 ] && [[ "$output" == *"--pid PID | --comm NAME | --command CMD"* ]] || run_failed
}

@test "type = watch: one of command, pid and comm, a tid list, each refused at its line; plan says what this kernel lacks" {
	w() {
		printf '[campaign]\nname = w\nduration = 1s\noutput = %s\n[matrix]\nworkload = app\n[workload.app]\ntype = watch\n%s\n' "$WORK/out" "$1" >c.ini
	}
	w ''
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:"*"type = watch needs exactly one of command, pid and comm (none given)"* ]] || run_failed
	w $'pid = 1\ncomm = init'
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"(more than one given)"* ]] || run_failed
	w $'pid = 1\ntid = 1,,2'
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"tid: '1,,2' is not a comma list of thread ids"* ]] || run_failed
	w 'pid = -3'
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:9: pid"* ]] || run_failed
	w $'command = latload timer --threads 1\nmethod = hist'
	if has_hist; then
		run "$LATLAB" plan c.ini
		[ "$status" -eq 0 ] || run_failed
		sleep 0 & gone=$!
		wait "$gone"
		w $"pid = $gone\nmethod = hist"
		run "$LATLAB" run c.ini
		[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:9: [workload.app] pid $gone: no such process"* ]] || run_failed
		w $'command = no-such-latlab-program --flag\nmethod = hist'
		run "$LATLAB" plan c.ini
		[[ "$output" == *"c.ini:9: [workload.app] command = no-such-latlab-program --flag: no-such-latlab-program: not found on PATH"* ]] || run_failed
	else
		# said per cell by plan, refused by run before anything is written
		run "$LATLAB" plan c.ini
		[ "$status" -eq 2 ] && [[ "$output" == *"1 cell cannot run on this machine: c.ini:10: [workload.app] type = watch: this kernel has no histogram triggers"* ]] || run_failed
		run "$LATLAB" run c.ini
		[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:10: [workload.app] type = watch: this kernel has no histogram triggers"* ]] || run_failed
	fi
	[ ! -e "$WORK/out/w" ]
	# the list shows the type and its options
	run "$LATLAB" list
	[[ "$output" == *"watch"*"a program's own threads, not latlab's"* ]] || run_failed
}

@test "type = watch in a qemu guest: the command's program is given to it, one this machine has not is refused at its line (exit 2)" {
	vm_setup
	write_config c.ini <<EOC
[campaign]
name = wq
duration = 1s
output = $WORK/out
[matrix]
kernel = g
workload = ct, own
[kernel.g]
runner = qemu
image = $KERNELS/vmlinux-stock
clock = icount
[workload.ct]
type = watch
command = cyclictest -t1 -i1000 -q
[workload.own]
type = watch
command = latload timer --threads 1
EOC
	# cyclictest from this machine's PATH; latload is every guest's own
	command -v cyclictest >/dev/null || { echo "no cyclictest: make deps installs rt-tests"; false; }
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c ' g  *qemu$' <<<"$output")" -eq 2 ] || run_failed
	printf '[workload.ct]\ncommand = /nonexistent/loop --fast\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line_of c.ini '^command = /nonexistent'): [workload.ct] command = /nonexistent/loop --fast: /nonexistent/loop: not found on this machine, so a qemu guest (kernel g) cannot be given it"* ]] || run_failed
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [ ! -e "$WORK/out/wq" ] || run_failed
	# a program that lives only in the variant's own initrd = is the guest's (a
	# bare name is left to the guest's PATH and busybox anyway; a path is checked):
	# looked for in that archive (after an uncompressed one, gzip'ed), not refused
	mkdir -p "$WORK/rd1/kernel" "$WORK/rd2/usr/bin"
	: >"$WORK/rd1/kernel/microcode.bin"
	printf '#!/bin/sh\nexec sleep 5\n' >"$WORK/rd2/usr/bin/onlyinrd"
	(cd "$WORK/rd1" && find . | cpio -o -H newc 2>/dev/null) >"$WORK/initrd"
	(cd "$WORK/rd2" && find . | cpio -o -H newc 2>/dev/null) | gzip >>"$WORK/initrd"
	printf '[workload.ct]\ncommand = onlyinrd --fast\n[kernel.g]\ninitrd = %s/initrd\n' "$WORK" | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || run_failed
	printf '[workload.ct]\ncommand = /usr/bin/onlyinrd\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || run_failed
	# a path in neither: refused, the initrd named (a bare name is the guest PATH's and busybox's)
	printf '[workload.ct]\ncommand = /usr/bin/notinrd\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"[workload.ct] command = /usr/bin/notinrd: not found on this machine nor in the variant's initrd =, so a qemu guest (kernel g) cannot be given it"* ]] || run_failed
	# a damaged initrd is no place to find it
	head -c 300 "$WORK/initrd" >"$WORK/initrd.cut" && mv "$WORK/initrd.cut" "$WORK/initrd"
	printf '[workload.ct]\ncommand = /usr/bin/onlyinrd\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
}
