#!/usr/bin/env bats
# lane: guests-icount (tests/run.sh: where this file runs, and beside what)
# The qemu tests of vm.bats and vm-session.bats whose guests run on the
# instruction clock, apart so that they run where the instruction-clock
# guests do (beside the host's lanes, at idle priority): a plugin in the
# guest, alone and as a chain's step before a disk write; a cell that
# waits for a slow host disk (the host's time, which the guest's clock
# jumps through) and a step that blocks for good; the kernel's timerlat
# beside latlab's thread in the rt guest.

load ../helper
load vm

@test "qemu: a plugin runs in the guest as on the host, alone and as a chain's step before a write to the guest's disk" {
	vm_setup
	PLUGINS=$(cd "$(dirname "$LATLAB")" && pwd)/plugins
	[ -e "$PLUGINS/adc.so" ] || { echo "$PLUGINS/adc.so: not built beside $LATLAB (make)"; false; }
	DURATION=1s WORKLOADS="adc, loop, udp-rtt" vm_config stock none "clock = icount
cpus = 1
settle = off"
	printf '[workload.adc]\ntype = plugin\npath = %s\nfile = /sys/kernel/uevent_seqnum\n' "$PLUGINS/adc.so" | ini_merge c.ini
	printf '[workload.loop]\ntype = chain\nsteps = adc, file-write\n[thresholds]\nmissed = off\n' | ini_merge c.ini
	# the output's path holds a comma, as qemu's option syntax parts
	# options: a value of it, escaped (attack-5 guest/09 made a host file
	# the guest's disk with one)
	O="$WORK/o,file=$WORK/victim,x="
	run timeout 200 "$LATLAB" run c.ini -o "$O"
	[ "$status" -eq 0 ] || run_failed
	[ ! -e "$WORK/victim" ]
	c=$(cell_dir "$O/v" '0000-*')
	# every period's step read the guest's sysfs, without an error
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	[ "$(col "$c/summary.csv" samples | head -1)" -ge 900 ]
	grep -q '^preempt = ' "$c/sysinfo.ini"
	grep -qx "path = $PLUGINS/adc.so" "$c/cell.ini"
	grep -qx 'file = /sys/kernel/uevent_seqnum' "$c/cell.ini"
	# settle = off: measured from the start, nothing waited, said so
	grep -qx 'boot_settled = off' "$c/sysinfo.ini"
	[[ "$output" != *"the boot settled"* ]] || run_failed
	# the chain: the plugin's read, then an fdatasync'ed write on the
	# disk, every period without an error; vda counted the writes
	c=$(cell_dir "$O/v" '0001-*')
	grep -qx 'steps = adc, file-write' "$c/cell.ini"
	grep -qx 'files_on = /dev/vda (ext4)' "$c/cell.ini"
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	samples=$(col "$c/summary.csv" samples | head -1)
	[ "$samples" -ge 1 ] || { cat "$c/summary.csv"; false; }
	chain_steps "$c/summary.csv" 2
	writes=$(sed -n 's/.*latlab init: vda stat *[0-9]* *[0-9]* *[0-9]* *[0-9]* *\([0-9]*\).*/\1/p' "$O/v/vm/stock-1.console.log")
	[ -n "$writes" ] && [ "$writes" -ge "$samples" ] || { echo "vda writes '$writes', samples $samples"; false; }
	# udp-rtt across the guest's two cards: every round trip left eth0
	# and came in on eth1 and back, each card's receive interrupt
	# counting one at least for each sample
	[[ "$output" == *"kernel variant stock: its cells send over IP: two virtio-net cards on a hub inside qemu"* ]] || run_failed
	c=$(cell_dir "$O/v" '0002-*')
	grep -qx 'net = device 10.0.2.2' "$c/cell.ini"
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	samples=$(col "$c/summary.csv" samples | head -1)
	[ "$samples" -ge 100 ] || { cat "$c/summary.csv"; false; }
	grep -q 'latlab init: the network: eth0 10.0.2.1, its peer 10.0.2.2 behind eth1' "$O/v/vm/stock-1.console.log"
	for q in virtio1-input.0 virtio2-input.0; do
		n=$(awk -v q="$q" '{ sub(/\r$/, "") } $0 ~ "latlab init: irq" && $NF == q { print $(NF - 3) }' "$O/v/vm/stock-1.console.log")
		[ -n "$n" ] && [ "$n" -ge "$samples" ] || { echo "$q: '$n' interrupts, $samples samples"; grep 'latlab init' "$O/v/vm/stock-1.console.log"; false; }
	done
}

@test "qemu: on the instruction clock a cell whose wait jumps the guest's clock past the guard (a slow host disk's) is not taken for a hang; a step that blocks still is" {
	vm_setup
	# While the guest waits with nothing to run, its clock (sleep=off)
	# jumps to its next timer: a fdatasync on a disk qemu held to 4
	# operations a second became 84 s of guest time on CI (the CI failure
	# of 2026-12-05: the old guard, counting guest time alone, killed
	# it). How far a disk's wait jumps depends on the host's CPU — 2.4 s
	# to 96 s of it here (docs/campaigns.md) — so the wait here is the
	# guest's own: a step that sleeps 20 s, which the clock jumps through
	# in a fraction of the host's, past the cell's 16 s of guest time.
	# The guard then waits for the host's clock (the guest's RTC) too,
	# and the step returns first; a step that blocks for good is killed
	# once the host's 15 s have passed (run_apart)
	cat >wait.c <<EOC
#include <time.h>
#include "latlab/plugin.h"
static long long step(struct latlab_step *s)
{
	static int n;
	struct timespec t = { 20, 0 };

	(void)s;
	if (++n == 2)
		nanosleep(&t, NULL);
	return 0;
}
const struct latlab_plugin latlab_plugin = { LATLAB_PLUGIN_ABI, "wait", NULL, NULL, step, NULL };
EOC
	cat >block.c <<EOC
#include <unistd.h>
#include "latlab/plugin.h"
static long long step(struct latlab_step *s) { static int n; (void)s; if (++n > 50) pause(); return 0; }
const struct latlab_plugin latlab_plugin = { LATLAB_PLUGIN_ABI, "block", NULL, NULL, step, NULL };
EOC
	cc -I"$BATS_TEST_DIRNAME/../../../include" -fPIC -shared -o wait.so wait.c
	cc -I"$BATS_TEST_DIRNAME/../../../include" -fPIC -shared -o block.so block.c
	DURATION=1s WORKLOADS="wait, block" vm_config stock none "clock = icount
cpus = 1
settle = off"
	printf '[workload.wait]\ntype = plugin\npath = %s\n[workload.block]\ntype = plugin\npath = %s\n[thresholds]\nmissed = off\n' "$WORK/wait.so" "$WORK/block.so" | ini_merge c.ini
	SECONDS=0
	run timeout "$(paced 200)" "$LATLAB" run c.ini
	[ "$status" -eq 1 ] || run_failed
	c=$(cell_dir "$WORK/out/v" '0000-*')
	grep -qx 'status = ok' "$c/cell.ini" || run_failed
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	# the step's 20 s, longer than the cell's own 16 s of grace in the
	# guest's time: the wait the old guard killed
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["metric"] == "io" && $h["max_ns"] > 16e9 { ok = 1 } END { exit !ok }' "$c/summary.csv" || { cat "$c/summary.csv"; false; }
	[[ "$output" == *"0001-none-block-tall-aspread-1: the cell's code did not return within 16s of the guest's time (its duration and 15s), nor within 15s more of the host's: its process was killed (a plugin that blocks?)"* ]] || run_failed
	# the block's 15 s of the host's time were waited, not skipped
	[ "$SECONDS" -ge 15 ] || { echo "took ${SECONDS}s"; false; }
}

# Debian's rt kernel has the timerlat tracer: [trace] timerlat = on runs
# the kernel's own instrument beside latlab's thread (measured:
# docs/spikes.md, "The kernel's timerlat"). One thread at 2 ms: with
# spike captures beside it, at 1 ms, the TCG guest hung once in a
# clean-clone run (no word for 122 s). On the instruction clock: on the
# host's, a busy CI machine stalled the guest for 1.5 s of its 2 s cell
# (211 timerlat samples, 847 periods missed), and how many samples a
# cell holds is what this test counts.
@test "qemu: [trace] timerlat = on in the Debian rt guest: the kernel's IRQ and thread latencies beside latlab's wake-up" {
	vm_setup
	vm_config "rt" "none"
	sed -i 's/^threads = all/threads = 1/; s/^interval = 1ms/interval = 2ms/' c.ini
	printf '\n[kernel.rt]\nclock = icount\n\n[trace]\ntimerlat = on\n' | ini_merge c.ini
	run timeout 200 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	C=$(cell_dir "$WORK/out/v" '0000-*')
	grep -qx 'timerlat = on' "$C/cell.ini" || { cat "$C/cell.ini" "$C/log.txt"; false; }
	grep -q '^timerlat_sched = SCHED_FIFO [0-9]*$' "$C/cell.ini"
	grep -q '^timerlat_lost = ' "$C/cell.ini"
	m() { awk -F, -v want="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == want && $h["thread"] == 0 { print $h[f] }' "$C/summary.csv"; }
	# one sample a period (2 s at 2 ms) of the one CPU's, and a few more:
	# timerlat starts before latlab's thread and stops after it (1,054 of
	# each in 3 of 3 runs, beside latlab's 1,000 wake-ups)
	for metric in timerlat_irq timerlat_thread; do
		k=$(m "$metric" samples)
		[ -n "$k" ] && [ "$k" -ge 1000 ] && [ "$k" -le 1200 ] || { echo "$metric: ${k:-none} samples"; cat "$C/summary.csv"; false; }
	done
	# the IRQ comes before the thread: its median is the lower
	irq=$(m timerlat_irq p50_ns) thr=$(m timerlat_thread p50_ns)
	[ "$irq" -lt "$thr" ] || { echo "irq p50 $irq, thread p50 $thr"; false; }
	# the readers take them: compare on the kernel's thread latency
	run timeout 60 "$LATLAB" compare "$WORK/out/v" "$WORK/out/v" -o "$WORK/cmp" --metric timerlat_thread
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *": timerlat thread: "* ]] || { echo "$output"; false; }
}

@test "qemu: on a modelled disk (null_blk in the guest) an fdatasync loop keeps its period, its io is the model's time and the kernel's path, judged, and two runs agree" {
	vm_setup
	P=$(static_programs)
	# a 4 KiB write fdatasync'ed each 1 ms period, each request of the
	# disk completed by the guest's own timer 200 µs after it is queued:
	# the wait is in the clock's time, so io and response can be judged;
	# two rounds in one boot: the same figures twice (in two boots too:
	# configs/io-modelled.ini's 5 boots a kernel, docs/campaigns.md)
	DURATION=2s WORKLOADS=fw vm_config stock none "clock = icount
disk = modelled
disk_time = 200us
programs = $P"
	printf '[campaign]\nrepeat = 2\n[workload.fw]\ntype = file-write\nsync = fdatasync\n[thresholds]\nmissed = off\n' | ini_merge c.ini
	run timeout "$(paced 300)" "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"kernel variant stock: its cells write files: a modelled disk for this boot (null_blk in the guest's memory, each request completed by a timer 200us after it is queued, in the guest's own clock, queue depth 64; ext4, 128MiB, at /var/tmp)"* ]] || run_failed
	p50=()
	console=$WORK/out/v/vm/stock-1.console.log
	grep -q 'latlab init: the modelled disk /dev/nullb0 (null_blk, ext4; completion_nsec 200000, irqmode 2) is mounted at /var/tmp' "$console" ||
		{ grep 'latlab init' "$console"; false; }
	for r in 1 2; do
		c=$(cell_dir "$WORK/out/v" "000$((r - 1))-*")
		grep -qx 'files_on = /dev/nullb0 (ext4)' "$c/cell.ini"
		grep -qx 'files_model = null_blk, completion_nsec 200000, irqmode 2' "$c/cell.ini"
		! grep -q '^waits_device' "$c/cell.ini"
		grep -qx 'io = yes' "$c/cell.ini"
		grep -qx 'response = yes' "$c/cell.ini"
		# >= 95 % of 2,000 periods kept; each write's wait at least the
		# model's and less than the period
		io=$(grep '^0,[0-9]*,io,' "$c/summary.csv")
		samples=$(echo "$io" | cut -d, -f4) med=$(echo "$io" | cut -d, -f8)
		[ "$samples" -ge 1900 ] && [ "$med" -ge 200000 ] && [ "$med" -lt 1000000 ] ||
			{ echo "samples $samples, io p50 $med ns"; false; }
		p50+=("$med")
		all=$((${all:-0} + samples))
	done
	# the device completed the writes (its stat's fifth field)
	writes=$(sed -n 's/.*latlab init: nullb0 stat *[0-9]* *[0-9]* *[0-9]* *[0-9]* *\([0-9]*\).*/\1/p' "$console")
	[ -n "$writes" ] && [ "$writes" -ge "$all" ] || { echo "nullb0 writes '$writes', samples $all"; false; }
	# two runs, medians within 2 %
	awk -v a="${p50[0]}" -v b="${p50[1]}" 'BEGIN { d = a > b ? a - b : b - a; exit !(d <= 0.02 * a) }' ||
		{ echo "io p50 ${p50[*]}"; false; }
	# the report's cell page says where the files were and what a wait is
	run "$LATLAB" report "$WORK/out/v"
	[ "$status" -eq 0 ] || run_failed
	grep -q '<th class="l">files on</th><td class="l">/dev/nullb0 (ext4)</td>' "$WORK"/out/v/report/cells/0000-*.html
	grep -q 'wait</th><td class="l">a modelled disk (the kernel&#39;s null_blk, in memory)' "$WORK"/out/v/report/cells/0000-*.html
}

@test "qemu: a modelled disk whose modules are not beside the image is refused, the way out said" {
	vm_setup
	ln -s "$KERNELS/vmlinux-stock" vmlinux-stock
	ln -s "$KERNELS/vmlinux-rt" vmlinux-rt
	rel=$(ls "$KERNELS/modules" | grep -v rt | head -1)
	# the virtio disk's list is there, the modelled one's not
	mkdir -p "modules/$rel"
	cp "$KERNELS/modules/$rel/disk.list" "modules/$rel/"
	KERNELS=$WORK DURATION=1s WORKLOADS=file-write vm_config stock none "clock = icount
disk = modelled"
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	line=$(grep -n '^disk = modelled$' c.ini | cut -d: -f1)
	[[ "$output" == *"c.ini:$line: [kernel.stock] disk = modelled: no $WORK/modules/$rel/nullb.list: the modules of $rel that its disk needs (null_blk, ext4; make kernels fetches them beside Debian's images); or name them in modules =, or disk = ram"* ]] || run_failed
	[ ! -e "$WORK/out/v" ]
}

@test "qemu: net = veth: a round trip across a veth pair into the peer's namespace is the kernel's own path, judged, the same in two runs" {
	vm_setup
	P=$(static_programs)
	DURATION=2s WORKLOADS=udp-rtt vm_config stock none "clock = icount
net = veth
programs = $P"
	printf '[campaign]\nrepeat = 2\n[thresholds]\nmissed = off\n' | ini_merge c.ini
	run timeout "$(paced 300)" "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"kernel variant stock: its cells send over IP: a veth pair, the peer behind its twin (10.0.2.2) in a network namespace of its own (softirqs, no device or its interrupt)"* ]] || run_failed
	p50=()
	console=$WORK/out/v/vm/stock-1.console.log
	grep -q 'latlab init: the network: a veth pair, lv0 10.0.2.1, its peer 10.0.2.2 behind veth[0-9]* in the namespace of pid' "$console" ||
		{ grep 'latlab init' "$console"; false; }
	# no card: qemu was given none
	! grep -q 'virtio-net' "$WORK/out/v/vm/stock-1.qemu.log"
	for r in 1 2; do
		c=$(cell_dir "$WORK/out/v" "000$((r - 1))-*")
		grep -qx 'net = veth 10.0.2.2' "$c/cell.ini"
		grep -q '^net_note = from lv0 to the peer behind its veth twin' "$c/cell.ini"
		! grep -q '^waits_device' "$c/cell.ini"
		grep -qx 'response = yes' "$c/cell.ini"
		io=$(grep '^0,[0-9]*,io,' "$c/summary.csv")
		samples=$(echo "$io" | cut -d, -f4) med=$(echo "$io" | cut -d, -f8)
		[ "$samples" -ge 1900 ] && [ "$med" -gt 0 ] && [ "$med" -lt 1000000 ] ||
			{ echo "samples $samples, io p50 $med ns"; false; }
		p50+=("$med")
	done
	awk -v a="${p50[0]}" -v b="${p50[1]}" 'BEGIN { d = a > b ? a - b : b - a; exit !(d <= 0.02 * a) }' ||
		{ echo "io p50 ${p50[*]}"; false; }
	# its modules not beside the image: refused at net's line
	ln -s "$KERNELS/vmlinux-stock" vmlinux-stock
	ln -s "$KERNELS/vmlinux-rt" vmlinux-rt
	rel=$(ls "$KERNELS/modules" | grep -v rt | head -1)
	mkdir -p "modules/$rel"
	KERNELS=$WORK DURATION=1s WORKLOADS=udp-rtt vm_config stock none "clock = icount
net = veth"
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	line=$(grep -n '^net = veth$' c.ini | cut -d: -f1)
	[[ "$output" == *"c.ini:$line: [kernel.stock] net = veth: no $WORK/modules/$rel/veth.list: the modules of $rel that its veth pair needs (veth; make kernels fetches them beside Debian's images); or name them in modules =, or net = loopback"* ]] || run_failed
}

@test "qemu: udp-rtt to a peer on another machine is refused in a guest, whose traffic does not leave qemu, at the key's line" {
	vm_setup
	DURATION=1s WORKLOADS=far vm_config stock none "clock = icount"
	printf '[workload.far]\ntype = udp-rtt\nto = 192.0.2.1:7777\n' | ini_merge c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	line=$(grep -n '^to = 192.0.2.1:7777$' c.ini | cut -d: -f1)
	[[ "$output" == *"c.ini:$line: [workload.far] to = 192.0.2.1:7777: a qemu guest's traffic does not leave qemu (kernel stock): a peer on another machine is measured from the machine itself (runner = host)"* ]] || run_failed
	[ ! -e "$WORK/out/v" ]
}
