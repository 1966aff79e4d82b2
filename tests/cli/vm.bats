#!/usr/bin/env bats
# Kernel variants in qemu (runner = qemu): Debian's stock and PREEMPT_RT
# kernels booted under TCG, a guest that panics, one that hangs, one that
# never boots, KVM that does not come up, and the errors before any boot.
# The images come from `make kernels` (tools/debian-kernels.sh): $KERNELS.

load helper

# vm_config KERNELS LOADS [extra kernel.stock lines]
vm_config() {
	write_config c.ini <<EOC
[campaign]
name = v
duration = ${DURATION:-2s}
output = $WORK/out
boot_attempts = 2

[matrix]
kernel = $1
load = $2
workload = ${WORKLOADS:-timer}
threads = all
interval = 1ms

[kernel.stock]
runner = qemu
image = $KERNELS/vmlinuz-stock
match = !preempt:rt
accel = ${ACCEL:-tcg}
boot_timeout = ${BOOT_TIMEOUT:-60s}
timeout = ${TIMEOUT:-1m}
$3

[kernel.rt]
runner = qemu
image = $KERNELS/vmlinuz-rt
match = preempt:rt
accel = tcg
boot_timeout = 60s

[load.hackbench]
type = hackbench
groups = 1

[load.crash]
type = external
command = /bin/sh -c "sleep 1; echo c > /proc/sysrq-trigger"

[workload.file-write]
type = file-write
path = /var/tmp/latlab.dat
region = 1MiB
sync = fdatasync
EOC
}

@test "qemu: Debian's stock and rt kernels under TCG, each variant's cells done, compared" {
	vm_setup
	WORKLOADS="timer, file-write" DURATION=1s vm_config "stock, rt" "none, hackbench"
	# the default [thresholds] missed (1 %), not written: under TCG the
	# guest misses periods at the emulator's pace (68 % for rt under
	# hackbench was seen), and the default is not applied there
	sed -i '/^missed = off$/d' c.ini
	run timeout 280 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"kernel variant stock runs in qemu under TCG"* ]]
	[[ "$output" == *"guest rt: [4/4] "* ]]
	D=$WORK/out/v
	# every cell ok, eight of them, each with its rows
	[ "$(col "$D/cells.csv" cell | sort -u | wc -l)" -eq 8 ]
	[ -z "$(col "$D/cells.csv" status | grep -v '^ok$')" ]
	[ "$(grep -c ' = ok$' "$D/state")" -eq 8 ]
	# the guest's own machine: its release, its sysinfo
	for c in "$D"/*/*/0000-stock-* "$D"/*/*/0001-stock-*; do
		grep -q '^preempt = ' "$c/sysinfo.ini"
		! grep -q '^preempt = rt' "$c/sysinfo.ini"
		grep -q '^accel = tcg' "$c/sysinfo.ini"
		[ -s "$c/hist.csv" ] && grep -q '^status = ok' "$c/cell.ini"
	done
	for c in "$D"/*/*/000[4-7]-rt-*; do
		grep -q '^preempt = rt$' "$c/sysinfo.ini"
		[[ "$c" == *-rt-amd64/* ]]
	done
	# the rows name the guest: host NAME-vm, the guest kernel's release
	[ "$(col "$D/cells.csv" host | sort -u)" = "$(hostname)-vm" ]
	[ "$(col "$D/cells.csv" kernel_release | sort -u | wc -l)" -eq 2 ]
	# nothing left behind: no initramfs, no half-received cell
	[ -z "$(find "$D" -name '*.incoming' -o -name '*initramfs*')" ]
	ls "$D"/vm/stock-1.console.log "$D"/vm/rt-1.console.log
	run "$LATLAB" status "$D"
	[[ "$output" == *"rt           qemu             4        0"* ]]
	# one tree, two variants: compare lines them up
	run timeout 60 "$LATLAB" compare "$D" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"4 rows compared across 2 kernel variants and hosts (1 trees)"* ]]
	[[ "$output" == *"one run each: too few to call (stock@"* ]]
	grep -q 'id="emulated"' "$WORK/cmp/index.html"
	head -c 8 "$WORK/cmp/fig/compare-0.png" | od -c | grep -q 'P   N   G'
	run timeout 120 "$LATLAB" report "$D" -q
	[ "$status" -eq 0 ]
	grep -q 'id="emulated"' "$D/report/index.html"
	grep -q '<h3>kernel variant rt: ' "$D/report/index.html"
}

@test "qemu: a guest kernel that panics mid-cell fails that cell, keeps its console, and the campaign goes on" {
	vm_setup
	DURATION=3s vm_config stock "crash, none"
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	D=$WORK/out/v
	crash=$(cell_dir "$D" '0000-crash-*')
	grep -q '^status = fail' "$crash/cell.ini"
	grep -q '^reason = the guest stopped' "$crash/cell.ini"
	grep -q 'sysrq: Trigger a crash' "$crash/console.log"
	grep -q 'Kernel panic' "$crash/console.log"
	grep -q '^preempt = ' "$crash/sysinfo.ini"
	# the next cell ran in a second boot
	grep -q '^status = ok' "$(cell_dir "$D" '0001-none-*')/cell.ini"
	ls "$D/vm/stock-2.console.log"
	[ "$(col "$D/cells.csv" status | sort -u | tr '\n' ' ')" = "fail ok " ]
}

@test "qemu: a guest that hangs is stopped after duration + timeout; the cell fails" {
	vm_setup
	# panic=0: the crashed guest waits forever, saying nothing
	DURATION=2s TIMEOUT=1s vm_config stock "crash, none" "append = panic=0"
	SECONDS=0
	run_session timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"the guest hung: no word from it for 3s (duration + timeout)"* ]]
	D=$WORK/out/v
	crash=$(cell_dir "$D" '0000-crash-*')
	grep -q '^reason = the guest hung' "$crash/cell.ini"
	grep -q 'Kernel panic' "$crash/console.log"
	grep -q '^status = ok' "$(cell_dir "$D" '0001-none-*')/cell.ini"
	# qemu was stopped, not left running
	[ -z "$(in_session "$SID")" ]
	[ "$SECONDS" -lt 150 ]
}

@test "qemu: a kernel that never starts latlab is given up after boot_attempts boots" {
	vm_setup
	# no /nothing in the initramfs: the kernel panics looking for a root
	vm_config stock none "append = rdinit=/nothing"
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"the guest stopped before latlab started in it"*"(boot 2 of 2"* ]]
	D=$WORK/out/v
	[ "$(col "$D/cells.csv" status)" = skipped ]
	[[ "$(col "$D/cells.csv" reason)" == *"did not run in qemu after 2 boots"* ]]
	grep -q 'Kernel panic' "$D/vm/stock-2.console.log"
	[ ! -e "$D/vm/stock-3.console.log" ]
}

@test "qemu: accel = auto tries KVM first and falls back to TCG when the guest does not come up" {
	vm_setup
	mkdir bin
	# a qemu whose KVM hangs, as seen on some virtual machines
	cat >bin/qemu-system-x86_64 <<'EOS'
#!/bin/sh
case " $* " in *" kvm "*) exec sleep 600 ;; esac
exec /usr/bin/qemu-system-x86_64 "$@"
EOS
	chmod +x bin/qemu-system-x86_64
	: >fake-kvm
	ACCEL=auto BOOT_TIMEOUT=15s vm_config stock none
	PATH=$WORK/bin:$PATH LATLAB_KVM_DEVICE=$WORK/fake-kvm run_session timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"(x86_64, kvm, probing KVM"* ]]
	[[ "$output" == *"accel = auto: a guest under KVM did not come up (the guest did not start latlab within 15s (boot_timeout)): emulating the CPU (TCG) instead"* ]]
	c=$(cell_dir "$WORK/out/v" '0000-*')
	grep -q '^accel = tcg' "$c/sysinfo.ini"
	[ -z "$(in_session "$SID")" ]	# the hung "KVM" qemu too
}

@test "qemu: errors before any boot: no image, image unreadable, no qemu; --guest outside a guest" {
	KERNELS=/nonexistent
	vm_config stock none
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:"*": [kernel.stock] image = /nonexistent/vmlinuz-stock: No such file or directory (make demo-kernels"* ]]
	[ ! -e "$WORK/out/v" ]
	# qemu missing: the variant's cells are skipped with why, exit 3
	: >vmlinuz
	KERNELS=$WORK
	cp vmlinuz vmlinuz-stock
	vm_config stock none
	mkdir emptybin
	PATH=$WORK/emptybin run "$LATLAB" run c.ini
	[ "$status" -eq 3 ]
	[[ "$output" == *"qemu-system-x86_64 is not on PATH (install qemu-system-x86"* ]]
	[[ "$(col "$WORK/out/v/cells.csv" reason)" == *"not on PATH"* ]]
	# the guest side refuses to write I/O ports from a shell
	echo 0000-none-timer-tall-a0-1 >cells
	run "$LATLAB" run c.ini --guest stock --guest-cells cells -o "$WORK/g"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--guest is for the latlab that the init of a latlab virtual machine starts"* ]]
}

@test "qemu: initrd = and modules = reach the guest" {
	vm_setup
	mkdir -p extra/etc
	echo 42 >extra/etc/latlab-extra
	(cd extra && find . | busybox cpio -o -H newc >../extra.cpio 2>/dev/null)
	echo "not a module" >bogus.ko
	DURATION=1s WORKLOADS=extra vm_config stock none "initrd = $WORK/extra.cpio
modules = $WORK/bogus.ko"
	printf '[workload.extra]\ntype = sysfs-read\npath = /etc/latlab-extra\n' | ini_merge c.ini
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	c=$(cell_dir "$WORK/out/v" '0000-*')
	# the file of the extra archive was read every cycle, without error
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	[ "$(col "$c/summary.csv" samples | head -1)" -gt 100 ]
	# the module was tried (and refused: it is not one), the rest went on
	grep -q 'latlab init: insmod bogus.ko failed' "$WORK/out/v/vm/stock-1.console.log"
}

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
	DURATION=1s vm_config stock "none, hackbench"
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
	DURATION=1s vm_config stock "none, hackbench"
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
. "$(dirname "$0")/../stream.sh"
EOS
	chmod +x bin/qemu-system-x86_64
	: >vmlinuz-stock
}

@test "qemu: the host takes only what the channel may carry (fake guest)" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "SeaBIOS chatter, not ours"
echo "LATLAB hello fakehost 9.9-fake"
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
	c=$WORK/out/v/fakehost/9.9-fake/0000-none-timer-tall-aspread-1
	[ -f "$c/hist.csv" ] && [ -f "$c/cell.ini" ]
	# names with a slash or a leading dot are refused
	[ -z "$(find "$WORK" -name escape -o -name .hidden)" ]
	grep -q '^0000-none-timer-tall-aspread-1 = ok$' out/v/state
	grep -q '^v,0000-none-timer-tall-aspread-1,0,fakehost,9.9-fake,' out/v/cells.csv
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
echo "LATLAB hello fakehost 9.9-fake"
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
echo "LATLAB hello fakehost 9.9-fake"
echo "LATLAB start 0000-none-timer-tall-aspread-1"
printf 'LATLAB file hist.csv 1000\nonly a few bytes'
EOS
	KERNELS=$WORK vm_config stock none
	PATH=$WORK/bin:$PATH run timeout 60 "$LATLAB" run c.ini
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	c=$WORK/out/v/fakehost/9.9-fake/0000-none-timer-tall-aspread-1
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
# 40 ms every 0.64 s once the guest's campaign runs (not during its boot),
# until latlab ends. Not a fixed few: the cell measures only once the
# guest's tracing is armed, seconds later, 18 s when the guest's latlab is
# the sanitizer build (make SANITIZE=1 test). latlab's status.
stalled_run() {
	rm -rf "$WORK/out"
	"$LATLAB" run c.ini -q >"$WORK/log" 2>&1 &
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
		sleep 0.04
		kill -CONT "$q"
		sleep 0.6
	done
	wait "$pid"
}

# Ground truth for a stall the guest cannot see: its qemu stopped with
# SIGSTOP for 40 ms, again and again, in the middle of a cell. (QMP's
# stop/cont would not do: qemu stops the guest's virtual clock with it,
# cpu_disable_ticks, so the guest sees no time pass and no spike.)
@test "qemu: a guest whose qemu is stopped mid-cell: the spike is unexplained, a gap, not the task it interrupted" {
	vm_setup
	DURATION=4s vm_config "stock" "none"
	sed -i 's/^threads = all/threads = 1/' c.ini
	printf '\n[trace]\nmode = spikes\nthreshold = 20ms\ncaptures = 2\n' | ini_merge c.ini
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
	C=$(echo "$WORK"/out/v/*/*/0000-*)
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
	C=$(echo "$WORK"/out/v/*/*/0000-*)
	[ -s "$C/spikes.csv" ] || { cat "$C/log.txt"; false; }
	n=$(col "$C/spikes.csv" capture | wc -l)
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] || { cat "$C/spikes.csv"; false; }
	grep -q 'print: tracing_mark_write: latlab spike' "$C/trace-1.txt"
	grep -q 'sched_switch' "$C/trace-1.txt"
	grep -q '^tracefs = /sys/kernel/tracing' "$C/sysinfo.ini"
	grep -q '^trace = spikes' "$C/cell.ini"
}

# Debian's rt kernel has the timerlat tracer: [trace] timerlat = on runs
# the kernel's own instrument beside latlab's thread (measured:
# docs/spikes.md, "The kernel's timerlat"). One thread at 2 ms: with
# spike captures beside it, at 1 ms, the TCG guest hung once in a
# clean-clone run (no word for 122 s).
@test "qemu: [trace] timerlat = on in the Debian rt guest: the kernel's IRQ and thread latencies beside latlab's wake-up" {
	vm_setup
	vm_config "rt" "none"
	sed -i 's/^threads = all/threads = 1/; s/^interval = 1ms/interval = 2ms/' c.ini
	printf '\n[trace]\ntimerlat = on\n' | ini_merge c.ini
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	C=$(echo "$WORK"/out/v/*/*/0000-*)
	grep -qx 'timerlat = on' "$C/cell.ini" || { cat "$C/cell.ini" "$C/log.txt"; false; }
	grep -q '^timerlat_sched = SCHED_FIFO [0-9]*$' "$C/cell.ini"
	grep -q '^timerlat_lost = ' "$C/cell.ini"
	m() { awk -F, -v want="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == want && $h["thread"] == 0 { print $h[f] }' "$C/summary.csv"; }
	# about one sample a period (2 s at 2 ms), one CPU's: timerlat runs
	# for the whole cell, its start and end under TCG too (1,101 seen);
	# two CPUs' would be 2,000
	for metric in timerlat_irq timerlat_thread; do
		k=$(m "$metric" samples)
		[ -n "$k" ] && [ "$k" -ge 500 ] && [ "$k" -le 1400 ] || { echo "$metric: ${k:-none} samples"; cat "$C/summary.csv"; false; }
	done
	# the IRQ comes before the thread: its median is the lower
	irq=$(m timerlat_irq p50_ns) thr=$(m timerlat_thread p50_ns)
	[ "$irq" -lt "$thr" ] || { echo "irq p50 $irq, thread p50 $thr"; false; }
	# the readers take them: compare on the kernel's thread latency
	run timeout 60 "$LATLAB" compare "$WORK/out/v" "$WORK/out/v" -o "$WORK/cmp" --metric timerlat_thread
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *": timerlat thread: "* ]] || { echo "$output"; false; }
}

@test "qemu: clock = icount asks qemu for instruction time, under TCG, on one CPU (fake guest)" {
	fake_qemu
	cat >stream.sh <<'EOS'
echo "LATLAB hello fakehost 9.9-fake"
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
