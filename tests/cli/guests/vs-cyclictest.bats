#!/usr/bin/env bats
# lane: guests-icount (tests/run.sh: where this file runs, and beside what)
# latlab's wake-up against cyclictest's on the instruction clock (issue
# 60): in one icount guest each of Debian 6.1 stock and rt and sid's 7.2,
# workload = timer (latlab's thread) and type = cyclictest (rt-tests'
# cyclictest, carried into the guest with its libraries) at the same
# interval, priority, policy, CPU and duration. The body of the
# distribution is the same to within 0.1 us of instruction time: p10 and
# the median (measured: 0-2 ns apart once latlab's two calls between the
# kernel's return and the clock read were inlined; 15-16 ns before). On
# 6.1 stock the minimum, one sample, takes one of two values about 220 ns
# apart in either program (3,434-3,436 or 3,655-3,656 ns): 2-4 ns apart
# in 12 of 12 runs, and 0 ns in 20 of 20 (2026-12-06, 20 boots beside a
# CPU hog, hackbench and make test: both 3,655-3,656), but 221 ns on a
# newcomer's machine (latlab 3,434, cyclictest 3,655) and 262 ns in a
# sanitizer build (3,698 against 3,436): so it is held within 300 ns, a
# path that adds more than the two values' gap; p10 and p50 hold the
# fine bound. On rt and sid
# the minimum, one sample, moves by 0-200 ns run to run in each program
# against itself, and the tail (p90 up) is each program's, not its
# measuring path's: the 4 ms tick meets every fourth period in both, and
# what it costs there moves with each program's side thread (latlab's
# 100 ms wait, cyclictest's 10 ms sleeps): latlab built with its wait at
# 10 ms or never puts its p99 at -688 or +112 ns of cyclictest's on 6.1
# stock, where each program repeats its own p99 to the bucket
# (docs/own-code.md, "Against cyclictest"; bench/cyclictest_icount.sh).

load ../helper

@test "cyclictest in icount guests of 6.1 stock, rt and sid 7.2: p10 and the median of its wake-ups are latlab's to 0.1 us, and 6.1's minimum" {
	vm_setup
	[ -s "$KERNELS/sid/vmlinux-stock" ] || { echo "no $KERNELS/sid/vmlinux-stock: make kernels"; false; }
	command -v cyclictest >/dev/null || { echo "no cyclictest: make deps installs rt-tests"; false; }
	write_config c.ini <<EOC
[campaign]
name = ct
duration = 3s
output = $WORK/out
boot_attempts = 1
[matrix]
kernel = stock, rt, sid
workload = timer, cyclictest
threads = 1
interval = 1ms
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinux-stock
clock = icount
boot_timeout = 120s
[kernel.rt]
runner = qemu
image = $KERNELS/vmlinux-rt
clock = icount
boot_timeout = 120s
[kernel.sid]
runner = qemu
image = $KERNELS/sid/vmlinux-stock
clock = icount
boot_timeout = 120s
EOC
	# the guests run build/static (static_programs), unsanitized in both
	# modes: the sanitizer build's path from the wake-up to the clock read
	# is instrumented (SANITIZE, 2026-12-05: 6.1 stock's min 3,698 ns
	# against cyclictest's 3,436), and it skips mlockall
	P=$(static_programs)
	run timeout "$(paced 600)" "$LATLAB" run c.ini --set kernel.stock.programs="$P" \
		--set kernel.rt.programs="$P" --set kernel.sid.programs="$P"
	[ "$status" -eq 0 ] || run_failed
	# stat CELL COLUMN: the wake-up's figure in summary.csv
	stat() { col "$(cell_dir "$WORK/out/ct" "$1-*")/summary.csv" "$2" | head -1; }
	# pct CELL Q: the lower edge of the hist.csv bucket holding the
	# wake-up's Q-th percentile (16 ns buckets at 4 us)
	pct() {
		awk -F, -v q="$2" 'NR > 1 && $3 == "wakeup" { lo[n] = $4; c[n++] = $6; all += $6 }
			END { for (i = 0; i < n; i++) { s += c[i]; if (s >= all * q / 100) { print lo[i]; exit } } }' \
			"$(cell_dir "$WORK/out/ct" "$1-*")/hist.csv"
	}
	for k in 0 2 4; do
		t=$(printf '%04d' $k) c=$(printf '%04d' $((k + 1)))
		grep -qx 'measured_by = cyclictest' "$(cell_dir "$WORK/out/ct" "$c-*")/cell.ini"
		grep -q "cyclictest: /usr/bin/cyclictest -q -m -N -t1 -i1000 -D3 --policy=fifo -p90 -a0 " "$(cell_dir "$WORK/out/ct" "$c-*")/log.txt"
		[ "$(stat $t samples)" -eq 3000 ] && [ "$(stat $c samples)" -ge 2990 ] || { cat "$(cell_dir "$WORK/out/ct" "$c-*")/summary.csv"; false; }
		for q in 10 50; do
			a=$(pct $t $q) b=$(pct $c $q)
			d=$((a > b ? a - b : b - a))
			[ "$d" -le 100 ] || { echo "p$q: latlab $a ns, cyclictest $b ns: $d ns apart"; false; }
		done
		[ "$k" -eq 0 ] || continue
		a=$(stat $t min_ns) b=$(stat $c min_ns)
		d=$((a > b ? a - b : b - a))
		[ "$d" -le 300 ] || { echo "6.1 stock's min: latlab $a ns, cyclictest $b ns: $d ns apart"; false; }
	done
}
