#!/usr/bin/env bats
# lane: guests-a (tests/run.sh: where this file runs, and beside what)
# On the boards: the arm64 and armhf cross builds and the static builds
# (make cross, which make test runs first), those programs measuring under
# qemu-user, and Debian's arm64 stock and rt kernels booted on qemu's virt
# machine under TCG with the arm64 latlab inside ($KERNELS/arm64, from
# make kernels).

load ../helper

ROOT=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
A64=$ROOT/build/aarch64-linux-gnu/static
A32=$ROOT/build/arm-linux-gnueabihf/static

# the cross toolchain of a triplet, or the test fails saying what is missing
need_cross() {
	command -v "$1-gcc" >/dev/null || {
		echo "no $1-gcc: make deps installs the cross toolchains" >&2
		return 1
	}
}

arm64_setup() {
	need_cross aarch64-linux-gnu
	: "${KERNELS:?set KERNELS (make test does)}"
	for f in vmlinuz-stock vmlinuz-rt busybox; do
		[ -s "$KERNELS/arm64/$f" ] || {
			echo "no $KERNELS/arm64/$f: run make kernels" >&2
			return 1
		}
	done
}

# arm_config KERNELS [extra kernel.stock lines]
arm_config() {
	write_config c.ini <<EOC
[campaign]
name = a
duration = ${DURATION:-2s}
output = $WORK/out
boot_attempts = 1

[matrix]
kernel = $1
workload = timer
threads = all
interval = 1ms

[kernel.stock]
runner = qemu
arch = arm64
image = $KERNELS/arm64/vmlinuz-stock
programs = ${PROGRAMS:-$A64}
busybox = $KERNELS/arm64/busybox
match = !preempt:rt
boot_timeout = 90s
$2

[kernel.rt]
runner = qemu
arch = arm64
image = $KERNELS/arm64/vmlinuz-rt
programs = $A64
busybox = $KERNELS/arm64/busybox
match = preempt:rt
boot_timeout = 90s
trace = spikes

[trace]
threshold = 1ms
captures = 1
EOC
}

@test "cross: arm64, armhf and this machine's static builds are what file says, self-contained" {
	need_cross aarch64-linux-gnu
	need_cross arm-linux-gnueabihf
	for p in latlab latload; do
		run file "$A64/$p"
		[[ "$output" == *"ELF 64-bit LSB executable, ARM aarch64"*"statically linked"* ]] ||
			{ echo "$output"; false; }
		run file "$A32/$p"
		[[ "$output" == *"ELF 32-bit LSB executable, ARM, EABI5"*"statically linked"* ]] ||
			{ echo "$output"; false; }
		run file "$ROOT/build/static/$p"
		[[ "$output" == *"ELF 64-bit LSB executable, x86-64"*"statically linked"* ]] ||
			{ echo "$output"; false; }
	done
	# no interpreter, no library: it runs where nothing is installed
	run readelf -d "$ROOT/build/static/latlab"
	[[ "$output" != *"NEEDED"* ]]
	run "$ROOT/build/static/latlab" --version
	[ "$status" -eq 0 ]
	[[ "$output" == latlab* ]]
}

@test "cross: the static arm64 and armhf latlab measure under qemu-user, with latload" {
	need_cross aarch64-linux-gnu
	need_cross arm-linux-gnueabihf
	write_config c.ini <<EOC
[campaign]
name = q
duration = 1s
output = $WORK/out

[matrix]
load = hog
workload = timer
threads = 1
interval = 1ms

[load.hog]
type = cpu
instances = 1
EOC
	for arch in aarch64:A64 arm:A32; do
		dir=${arch#*:}
		# run as on a board (qemu-user through binfmt_misc: make
		# deps-cross), latload found beside latlab
		run timeout 60 "${!dir}/latlab" run c.ini -o "$WORK/$dir"
		[ "$status" -eq 0 ] || run_failed
		[ "$(col "$WORK/$dir/q/cells.csv" status | sort -u)" = ok ]
		c=$(cell_dir "$WORK/$dir/q" '0000-*')
		[ -s "$c/hist.csv" ]
		grep -q "^machine = ${arch%%:*}" "$c/sysinfo.ini" ||
			grep -q '^machine = armv' "$c/sysinfo.ini"
		# latload (arm too) ran and worked
		[ "$(col "$c/load.csv" ops)" -gt 0 ]
	done
}

@test "qemu arm64: Debian's arm64 stock and rt kernels under TCG, a cell each (rt with spike captures), compared" {
	arm64_setup
	arm_config "stock, rt"
	run timeout "$(paced 240)" "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"booting $KERNELS/arm64/vmlinuz-stock in qemu (arm64, tcg"* ]]
	[[ "$output" == *"guest rt: [1/1] "* ]]
	D=$WORK/out/a
	[ "$(col "$D/cells.csv" status | sort -u)" = ok ]
	[ "$(col "$D/cells.csv" cell | sort -u | wc -l)" -eq 2 ]
	s=$(cell_dir "$D" '0000-stock-*')
	r=$(cell_dir "$D" '0001-rt-*')
	# measured inside: an aarch64 machine, the two kernels told apart
	grep -q '^machine = aarch64$' "$s/sysinfo.ini"
	grep -q '^machine = aarch64$' "$r/sysinfo.ini"
	! grep -q '^preempt = rt' "$s/sysinfo.ini"
	grep -q '^preempt = rt$' "$r/sysinfo.ini"
	[[ "$r" == *-rt-arm64/* ]]
	[ -s "$s/hist.csv" ] && [ -s "$r/hist.csv" ]
	grep -q '^accel = tcg' "$r/sysinfo.ini"
	[ -z "$(find "$D" -name '*.incoming' -o -name '*initramfs*')" ]
	# spike forensics inside the arm64 guest (under TCG every cell has
	# wake-ups beyond 1 ms): a capture, explained; x86's events missing
	[ "$(col "$r/spikes.csv" capture | wc -l)" = 1 ]	# the worst kept (keep = worst)
	[ -n "$(col "$r/spikes.csv" culprit_kind)" ]
	[ -s "$r/trace-$(col "$r/spikes.csv" capture).txt" ]
	grep -q 'this kernel cannot trace: .*irq_vectors:local_timer_entry' "$r/log.txt"
	[ ! -e "$s/spikes.csv" ]
	run timeout 60 "$LATLAB" compare "$D" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"1 rows compared across 2 kernel variants and hosts (1 trees)"* ]]
	# TCG on the host's clock: the emulator's pace, no verdict. The units
	# are the runs when the two guests' cells met in time, the campaign's
	# moments when one ended before the other began (a busy host); under
	# TCG a side may miss periods too
	[[ "$output" =~ "no verdict: either side's wake-up cannot be judged (emulated"(\+missed)?"; one "(run|campaign)" each"( \(one run each\))?")" ]] || run_failed
	# the page says which kernels the sides were: their arm64 releases
	grep -q "<li><b>stock</b>: 6.1.0-[0-9]*-arm64" "$WORK/cmp/index.html" && grep -q "<li><b>rt</b>: 6.1.0-[0-9]*-rt-arm64" "$WORK/cmp/index.html"
	[ "$(col "$WORK/cmp/compare.csv" verdict_max | sort -u)" = not-comparable ]
}

@test "qemu arm64: what it needs is checked before any boot, with FILE:LINE" {
	need_cross aarch64-linux-gnu
	KERNELS=${KERNELS:-/nonexistent}
	write_config c.ini <<EOC
[campaign]
name = a
output = $WORK/out
[matrix]
kernel = stock
[kernel.stock]
runner = qemu
image = /dev/null
arch = arm64
busybox = /bin/busybox
EOC
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:9: [kernel.stock] arch = arm64 needs 'programs ='"* ]]
	printf '[kernel.stock]\nprograms = %s\naccel = kvm\n' "$A64" | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:12: [kernel.stock] arch = arm64 runs under TCG here"* ]]
	sed -i '/^busybox/d; /^accel/d' c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:9: [kernel.stock] arch = arm64 needs 'busybox ='"* ]]
	[ ! -e "$WORK/out" ]
	# a program that is missing, or for another machine: exit 2 before
	# anything is written
	printf '[kernel.stock]\nbusybox = %s/none\n' "$WORK" | ini_merge c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:11: [kernel.stock] busybox = $WORK/none: No such file or directory (make kernels puts one in kernels/arm64/busybox)"* ]]
	sed -i "s|^busybox.*|busybox = /bin/busybox|" c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"[kernel.stock] busybox = /bin/busybox: not a program for arm64"* ]]
	sed -i "s|^programs.*|programs = $(dirname "$LATLAB")|" c.ini
	sed -i "s|^busybox.*|busybox = ${KERNELS}/arm64/busybox|" c.ini
	[ -s "$KERNELS/arm64/busybox" ] || skip "no arm64 busybox: make kernels"
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ]
	# named at the key's own line
	[[ "$output" == *"c.ini:10: [kernel.stock] programs = $(dirname "$LATLAB"): latlab is not a program for arm64 (make static CROSS=aarch64-linux-gnu-)"* ]]
	[ ! -e "$WORK/out" ]
}

# The guest is untrusted (docs/boards.md): a bare-metal arm64 "kernel"
# that tries what semihosting would give it, a host file written and a
# host command run, reaches nothing on the host and is given up.
@test "qemu arm64: a guest's semihosting calls reach nothing on the host" {
	need_cross aarch64-linux-gnu
	local fx=$ROOT/tests/fixtures/arm64-evil
	mkdir -p prog
	aarch64-linux-gnu-gcc -O1 -ffreestanding -nostdlib -fno-stack-protector \
		-mgeneral-regs-only -static -T "$fx/link.ld" \
		-DHOST_FILE="\"$WORK/escaped-file\"" -DHOST_CMD="\"id > $WORK/escaped-cmd\"" \
		-o evil.elf "$fx/start.S" "$fx/evil.c"
	write_config c.ini <<EOC
[campaign]
name = a
duration = 200ms
output = $WORK/out
boot_attempts = 1
[matrix]
kernel = evil
[kernel.evil]
runner = qemu
arch = arm64
image = $WORK/evil.elf
programs = $A64
busybox = ${KERNELS:-/nonexistent}/arm64/busybox
match = any
boot_timeout = 4s
timeout = 2s
EOC
	run timeout 120 "$LATLAB" run c.ini
	[ ! -e "$WORK/escaped-file" ]
	[ ! -e "$WORK/escaped-cmd" ]
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"did not start latlab within 4s"* ]] || run_failed
}
