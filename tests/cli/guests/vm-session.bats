#!/usr/bin/env bats
# lane: guests-a (tests/run.sh: where this file runs, and beside what)
# Kernel variants in qemu, what the host does while a guest runs: SIGKILL
# and SIGINT of the host latlab, its disk full, a channel that carries
# too much or too little (a fake qemu), a guest stopped mid-cell, and the
# rt guest's spike captures (its timerlat, on the instruction clock:
# vm-icount.bats). With vm.bats, the qemu tests on the host's clock.

load ../helper
load vm

# latlab run c.ini in the background ($pid, its output in run1.log), back
# once the guest's first cell has come back; fails after 90 s
run_until_first_cell() {
	setsid "$LATLAB" run c.ini -q >run1.log 2>&1 &
	pid=$!	# and its session's id
	for _ in $(seq 1 900); do
		grep -q ' = ok$' out/v/state 2>/dev/null && return 0
		sleep 0.1
	done
	cat run1.log
	return 1
}

@test "qemu: SIGKILL of the host latlab takes qemu with it; the next run resumes" {
	vm_setup
	# 5 s: the second cell still runs after status below, on a busy host too
	# (at 1 s it had ended before the kill)
	DURATION=5s vm_config stock "none, hackbench"
	run_until_first_cell
	# the state says which cell the guest measures, as for a cell run here
	for _ in $(seq 1 300); do
		grep -q '^0001-hackbench-timer-tall-aspread-1 = running$' out/v/state && break
		sleep 0.1
	done
	grep -q '^0001-hackbench-timer-tall-aspread-1 = running$' out/v/state
	run "$LATLAB" status out/v
	[[ "$output" == *"stock        qemu             1        0        0        0        1"* ]]
	kill -9 "$pid"
	wait "$pid" || true
	for _ in $(seq 1 50); do
		[ -z "$(in_session "$pid")" ] && break
		sleep 0.1
	done
	[ -z "$(in_session "$pid")" ]
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"resuming campaign v"*": 1 of 2 cells already done"* ]] || { echo "$output" | head -20; false; }
	[[ "$output" == *"for 1 cells"* ]]
	[ "$(grep -c ' = ok$' out/v/state)" -eq 2 ]
	[ -z "$(find out -name '*.incoming' -o -name '*initramfs*')" ]
}

@test "qemu: SIGINT stops the guest at once; its unfinished cells stay pending (exit 130)" {
	vm_setup
	DURATION=3s vm_config stock "none, hackbench"
	run_until_first_cell
	kill -INT "$pid"
	SECONDS=0
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { cat run1.log; false; }
	[ "$SECONDS" -lt 10 ]
	[ -z "$(in_session "$pid")" ]
	grep -q '^0000-none-timer-tall-aspread-1 = ok$' out/v/state
	grep -q '^0001-hackbench-timer-tall-aspread-1 = pending$' out/v/state
}

@test "qemu: the host's disk fills while the guest runs: exit 3, nothing given up, no qemu left" {
	vm_setup
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	mkdir full
	mount -t tmpfs -o size=32m tmpfs full || skip "cannot mount tmpfs"
	# 3 s cells: in the fresh check of a96e19f a 1 s hackbench cell of this
	# guest on the host's clock (TCG, beside the hog and hackbench) gave
	# its thread on CPU 1 no wake-up at all — a cell in error, the resume
	# exit 3; the test is about the full disk and the resume, not the pace
	DURATION=3s vm_config stock "none, hackbench"
	setsid "$LATLAB" run c.ini -o "$WORK/full" -q >run.log 2>&1 &
	pid=$!	# and its session's id
	# once qemu has its initramfs (the console log appears), fill the disk
	for _ in $(seq 1 600); do
		[ -e full/v/vm/stock-1.console.log ] && break
		sleep 0.1
	done
	sleep 1
	dd if=/dev/zero of=full/filler bs=64k 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 3 ] || { cat run.log; false; }
	# what the guest sent, or the state the host writes at each cell
	grep -Eq '(kernel variant stock: writing what the guest sent|writing results under).*: No space left on device' run.log
	[ -z "$(in_session "$pid")" ]
	# the cells are still to run, not given up: free the disk and resume
	! grep -q 'skipped' full/v/state
	rm full/filler
	run timeout 200 "$LATLAB" run c.ini -o "$WORK/full"
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c ' = ok$' full/v/state)" -eq 2 ]
}

# A qemu that boots nothing: it writes the guest's side of the channel
# from the script in $WORK/stream.sh, to test what the host makes of it.
fake_qemu() {
	mkdir -p bin
	cat >bin/qemu-system-x86_64 <<'EOS'
#!/bin/sh
printf '%s\n' "$@" >"$(dirname "$0")/../qemu.argv"
for a; do
	case $a in file,id=latlab,path=*) out=${a#file,id=latlab,path=} ;; esac
done
exec >"$out"
# blob VERB NAME TEXT: a header with TEXT's length, then TEXT
blob() { printf 'LATLAB %s %s %d\n%s' "$1" "$2" "${#3}" "$3"; }
# the host a guest is given: the campaign's, then -vm (another is refused)
host=$(hostname)-vm
. "$(dirname "$0")/../stream.sh"
EOS
	chmod +x bin/qemu-system-x86_64
	: >vmlinux-stock
}

@test "qemu: a host without room for the guest's initramfs or its disk says so before any boot: exit 3, cells pending (fake qemu)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	fake_qemu
	printf 'echo "LATLAB hello $host 9.9-fake"\n' >stream.sh
	mkdir small
	# busybox and latlab alone are more than 2 MiB: the archive's own
	# write fails, and is said as the archive's (not the file being added)
	mount -t tmpfs -o size=2m tmpfs small || skip "cannot mount tmpfs"
	KERNELS=$WORK vm_config stock none
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/small"
	umount small
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"writing the guest's initramfs $WORK/small/v/vm/stock-"*".initramfs.tmp."*": No space left on device"* ]] || run_failed
	[ ! -e qemu.argv ]
	# a disk of 64 MiB where 48 are: its room reserved, or no boot
	mount -t tmpfs -o size=48m tmpfs small || skip "cannot mount tmpfs"
	: >fake.ko
	WORKLOADS=file-write KERNELS=$WORK vm_config stock none "modules = $WORK/fake.ko
disk_size = 64M"
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/small"
	[ "$status" -eq 3 ] || { umount small; run_failed; }
	[[ "$output" == *"cannot reserve 64MiB for the guest's disk (disk_size) at $WORK/small/v/vm/stock-"*": No space left on device"* ]] || { umount small; run_failed; }
	[ ! -e qemu.argv ]
	grep -q '^0000-none-file-write-tall-aspread-1 = pending$' small/v/state || { cat small/v/state; umount small; false; }
	[ -z "$(find small/v/vm -name '*.tmp.*')" ] || { ls small/v/vm; umount small; false; }
	umount small
}

@test "qemu: the host takes only what the channel may carry (fake guest)" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "SeaBIOS chatter, not ours"
echo "LATLAB hello $host 9.9-fake"
echo "LATLAB log latlab: hello from the fake guest"
echo "LATLAB start 0000-none-timer-tall-aspread-1"
blob file ../escape "outside"
blob file .hidden "hidden"
blob file hist.csv "thread,cpu,metric,lo_ns,hi_ns,count
0,0,wakeup,1000,1002,5
0,0,wakeup,3000,3008,5
"
blob file summary.csv "thread,cpu,metric,samples,min_ns,mean_ns,stddev_ns,p50_ns,p90_ns,p99_ns,p99.9_ns,p99.99_ns,max_ns,overruns,errors,first_errno,utime_ns,stime_ns,bytes,bytes_per_s
0,0,wakeup,10,1000,2000,10,2000,2000,3000,3000,3000,3000,0,0,0,0,0,0,0
"
blob file cell.ini "[cell]
status = ok
"
blob row "" "v,0000-none-timer-tall-aspread-1,0,fakehost,9.9-fake,\"an unclosed quote
"
echo "LATLAB cell 0099-not-started ok"
echo "LATLAB cell 0000-none-timer-tall-aspread-1 ok"
echo "LATLAB done 0"
EOS
	KERNELS=$WORK vm_config stock none 'qemu_args = -name "latlab guest" -rtc base=utc'
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"latlab: guest stock: hello from the fake guest"* ]]
	# qemu's argv: latlab's, then qemu_args' words (no shell)
	grep -qx -- '-nodefaults' qemu.argv
	grep -qx -- '-device' qemu.argv
	grep -qx 'isa-debugcon,chardev=latlab,iobase=0xe9' qemu.argv
	[ "$(tail -4 qemu.argv | tr '\n' '|')" = '-name|latlab guest|-rtc|base=utc|' ]
	# what qemu_args added is said, and the whole command is qemu.log's
	# first line, each word as the shell would take it back
	[[ "$output" == *"kernel variant stock: qemu_args adds -name \"latlab guest\" -rtc base=utc to qemu's command"* ]] || run_failed
	first=$(head -1 out/v/vm/stock-*.qemu.log)
	[[ "$first" == "# qemu command: "*" -nodefaults "*" -name 'latlab guest' -rtc base=utc" ]] || { echo "$first"; false; }
	eval "set -- ${first#\# qemu command: }"; shift	# qemu.argv is without argv[0]
	[ "$(printf '%s\n' "$@")" = "$(cat qemu.argv)" ] || { diff <(printf '%s\n' "$@") qemu.argv; false; }
	c=$WORK/out/v/$(hostname)-vm/9.9-fake/0000-none-timer-tall-aspread-1
	[ -f "$c/hist.csv" ] && [ -f "$c/cell.ini" ]
	# names with a slash or a leading dot are refused
	[ -z "$(find "$WORK" -name escape -o -name .hidden)" ]
	grep -q '^0000-none-timer-tall-aspread-1 = ok$' out/v/state
	grep -q "^v,0000-none-timer-tall-aspread-1,0,$(hostname)-vm,9.9-fake," out/v/cells.csv
	# cells.csv's rows are the host's, from the cell's files: the guest's
	# own text (an unclosed quote) never reaches it
	! grep -q 'unclosed' out/v/cells.csv
	grep -q '^v,0000-none-timer-tall-aspread-1,.*,wakeup,10,1000,' out/v/cells.csv
	run "$LATLAB" report out/v -q
	[ "$status" -eq 0 ] || run_failed
}

@test "qemu: a guest cell whose files do not say what the guest said is an error (fake guest)" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "LATLAB hello $host 9.9-fake"
echo "LATLAB start 0000-none-timer-tall-aspread-1"
blob file cell.ini "[cell]
status = ok
"
echo "LATLAB cell 0000-none-timer-tall-aspread-1 ok"
echo "LATLAB done 0"
EOS
	KERNELS=$WORK vm_config stock none
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"the guest said ok, but its cell.ini or summary.csv is missing or damaged"* ]]
	grep -q '^0000-none-timer-tall-aspread-1 = error$' out/v/state
}

@test "qemu: a stream cut in the middle of a file fails the cell, keeps nothing half-written" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "LATLAB hello $host 9.9-fake"
echo "LATLAB start 0000-none-timer-tall-aspread-1"
printf 'LATLAB file hist.csv 1000\nonly a few bytes'
EOS
	KERNELS=$WORK vm_config stock none
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	c=$WORK/out/v/$(hostname)-vm/9.9-fake/0000-none-timer-tall-aspread-1
	grep -q '^status = fail' "$c/cell.ini"
	grep -q '^reason = the guest stopped' "$c/cell.ini"
	# the cell's files are latlab's own, complete: none of the cut one
	! grep -q 'only a few' "$c/hist.csv"
	[ -z "$(find "$WORK/out" -name '*.incoming')" ]
}

# qemu_of PID: the qemu among PID's descendants (found by our pid, never by a name alone)
qemu_of() {
	local k
	for k in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		case "$(cat "/proc/$k/comm" 2>/dev/null)" in qemu*) echo "$k"; return 0 ;; esac
		qemu_of "$k"
	done
}

# stalled_run: latlab run c.ini in the background, its qemu stopped for
# 60 ms every 0.66 s once the guest's campaign runs (not during its boot),
# until latlab ends. Not a fixed few: the cell measures only once the
# guest's tracing is armed, seconds later, 18 s when the guest's latlab is
# the sanitizer build (make SANITIZE=1 test). latlab's status. Not -q:
# the guest's "campaign v" line is what it waits for, and -q keeps only
# a guest's warnings and errors.
stalled_run() {
	rm -rf "$WORK/out"
	"$LATLAB" run c.ini >"$WORK/log" 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		grep -q 'guest stock: campaign v' "$WORK/log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	sleep 0.5
	for _ in $(seq 300); do
		kill -0 "$pid" 2>/dev/null || break
		q=$(qemu_of "$pid" | head -1)
		[ -n "$q" ] || break
		kill -STOP "$q" 2>/dev/null || break
		sleep 0.06
		kill -CONT "$q"
		sleep 0.6
	done
	wait "$pid"
}

# Ground truth for a stall the guest cannot see: its qemu stopped with
# SIGSTOP for 60 ms, again and again, in the middle of a cell: the first
# wake-up due in each is about 60 ms late, above a 40 ms threshold that
# the guest's other spikes stay under (a clean run of 2026-12-03, beside
# the other lane's guest: a 24 ms spike, 10 ms of it a TIMER softirq the
# vCPU's thread was preempted in, took a capture of a 20 ms threshold
# and failed the test on a stall it did not make). (QMP's
# stop/cont would not do: qemu stops the guest's virtual clock with it,
# cpu_disable_ticks, so the guest sees no time pass and no spike.)
@test "qemu: a guest whose qemu is stopped mid-cell: the spike is unexplained, a gap, not the task it interrupted" {
	vm_setup
	DURATION=4s vm_config "stock" "none"
	sed -i 's/^threads = all/threads = 1/' c.ini
	printf '\n[trace]\nmode = spikes\nthreshold = 40ms\ncaptures = 2\n' | ini_merge c.ini
	# Once in CI (2026-12-02, one run of some thirty here and there) the
	# stalled guest fell silent mid-cell for 64 s (duration + timeout)
	# where its cell takes 8 s; not seen again here in 10 runs. A second
	# try then, the first's console in the TAP output: it is what this
	# test is not about, and what to read when it happens again.
	stalled_run && rc=0 || rc=$?
	if [ "$rc" -ne 0 ] && grep -q 'the guest hung' "$WORK/log"; then
		{ echo "# first try: the guest hung; its console's end:"
		  tail -40 "$WORK"/out/v/vm/stock-*.console.log | sed 's/^/#   /'; } >&3
		stalled_run && rc=0 || rc=$?
	fi
	[ "$rc" -eq 0 ] || { cat "$WORK/log"; tail -40 "$WORK"/out/v/vm/stock-*.console.log; false; }
	C=$(cell_dir "$WORK/out/v" '0000-*')
	[ -s "$C/spikes.csv" ] || { cat "$WORK/log" "$C/log.txt"; false; }
	n=$(col "$C/spikes.csv" capture | wc -l)
	[ "$n" -ge 1 ] || { cat "$C/spikes.csv"; false; }
	[ "$(col "$C/spikes.csv" culprit_kind | sort -u)" = unexplained ] || { cat "$C/spikes.csv"; false; }
	col "$C/spikes.csv" culprit | grep -q '^no event for [0-9]* us (' || { cat "$C/spikes.csv"; false; }
}

@test "qemu: [trace] mode = spikes in the Debian rt guest brings back spikes.csv and trace-N.txt" {
	vm_setup
	vm_config "rt" "none"
	sed -i 's/^threads = all/threads = 1/' c.ini
	# TCG's own spikes are hundreds of µs: a low threshold always fires
	printf '\n[trace]\nmode = spikes\nthreshold = 50us\ncaptures = 2\n' | ini_merge c.ini
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	C=$(cell_dir "$WORK/out/v" '0000-*')
	[ -s "$C/spikes.csv" ] || { cat "$C/log.txt"; false; }
	n=$(col "$C/spikes.csv" capture | wc -l)
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] || { cat "$C/spikes.csv"; false; }
	t=$C/trace-$(col "$C/spikes.csv" capture | head -1).txt	# the first kept
	grep -q 'print: tracing_mark_write: latlab spike' "$t"
	grep -q 'sched_switch' "$t"
	grep -q '^tracefs = /sys/kernel/tracing' "$C/sysinfo.ini"
	grep -q '^trace = spikes' "$C/cell.ini"
}

@test "qemu: clock = icount asks qemu for instruction time, under TCG, on one CPU (fake guest)" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "LATLAB hello $host 9.9-fake"
echo "LATLAB done 0"
EOS
	ACCEL=auto KERNELS=$WORK vm_config stock none 'clock = icount
icount_shift = 2'
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini
	grep -qx -- '-icount' qemu.argv
	grep -qx -- 'shift=2,sleep=off,align=off' qemu.argv
	[ "$(grep -A1 -x -- '-accel' qemu.argv | tail -1)" = tcg ]
	[ "$(grep -A1 -x -- '-smp' qemu.argv | tail -1)" = 1 ]
	grep -q '^clock = icount$' out/v/campaign.ini
	# a variant without it: no -icount, and its config's echo says nothing of it
	KERNELS=$WORK vm_config stock none
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini --restart
	! grep -qx -- '-icount' qemu.argv
	! grep -q '^clock' out/v/campaign.ini
}
