#!/usr/bin/env bats
# The instruction-counted clock with Debian's kernels: the one test whose
# figures must not depend on what the host does. tests/run.sh runs the
# files of this folder beside the unit tests, not after them (the test
# takes 2-3 minutes of one CPU; the unit tests are deterministic and do
# not mind it): that saves those minutes of the suite and shows, every
# run, that the host's load does not reach the instruction clock.

load ../helper

# The instruction-counted clock (clock = icount): the kernels' own code
# paths, in instruction time, whatever the host does. Measured here (1 s
# cells, 5 runs each, docs/campaigns.md): under hackbench stock/rt 1.63x
# [1.29x, 1.78x]; idle 1.03x [1.02x, 1.03x] (a path 3 % longer: the clock
# is deterministic, so even that is called without a margin; with
# --margin 20% it is "no practical difference"); an rt cell's maximum idle
# 4.8 us in 5 of 5 runs, under hackbench 6.2-8.0 us.
@test "qemu, clock = icount: rt's worst case is lower than stock's under hackbench, idle no practical difference within 20 %, and an idle cell repeats its maximum" {
	vm_setup
	write_config c.ini <<EOC
[campaign]
name = ic
; 1 s: at 500 ms (73 s in place of 177 s here) an idle rt cell's maximum
; no longer repeated (spread 1.51 over five runs): too few wake-ups for
; the longest path to come up every time
duration = 1s
repeat = 5
; one boot per variant: this test is about icount's determinism, not
; the run order (interleaved would boot each variant five times)
order = blocked
output = $WORK/out
boot_attempts = 1
[matrix]
kernel = stock, rt
load = none, hackbench
workload = timer
interval = 1ms
[kernel.stock]
runner = qemu
image = $KERNELS/vmlinuz-stock
match = preempt:voluntary
clock = icount
boot_timeout = 120s
[kernel.rt]
runner = qemu
image = $KERNELS/vmlinuz-rt
match = preempt:rt
clock = icount
boot_timeout = 120s
[load.hackbench]
type = hackbench
groups = 1
EOC
	run timeout 400 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || run_failed
	D=$WORK/out/ic
	[ "$(grep -c ' = ok$' "$D/state")" -eq 20 ]
	for c in "$D"/*/*/0*; do
		grep -q '^clock = icount$' "$c/sysinfo.ini"
		grep -q '^clock = icount$' "$c/cell.ini"
	done
	grep -q '^preempt = voluntary (dynamic)$' "$D"/*/*/0000-*/sysinfo.ini
	[ "$(col "$D/cells.csv" preempt | sort -u | tr '\n' ' ')" = "rt voluntary " ]
	run timeout 60 "$LATLAB" compare "$D" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/cmp/compare.csv
	# stock against rt: [load, verdict, ratio, lo, hi] of each row's first line
	row() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["load"] == want { print $h["verdict_max"], $h["max_ratio"], $h["max_ratio_lo"], $h["max_ratio_hi"]; exit }' "$C"; }
	read -r v r lo hi <<<"$(row hackbench)"
	[ "$(col "$C" side_a | head -1 | cut -d@ -f1)" = stock ]
	[ "$v" = higher ] && awk -v lo="$lo" 'BEGIN { exit !(lo >= 1.15) }' || { echo "hackbench: $v $r [$lo, $hi]"; false; }
	read -r v r lo hi <<<"$(row none)"
	awk -v r="$r" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }' || { echo "idle: $v $r [$lo, $hi]"; false; }
	# with an equivalence margin named before the data: idle, no call
	# either way — most often no practical difference (its interval wholly
	# within the margin), but not always: idle intervals reached 0.88x once
	# (stock/rt 0.98x [0.88x, 0.98x]: one run's maximum 10 % off) and 1.23x
	# once in CI (0.97x [0.97x, 1.23x]), most often 0.97-1.03x; hackbench
	# still a call (measured 1.29x at its lower end). 20 %, compare's
	# default tolerance for a baseline. The margin's words are checked where
	# the idle pair is within it (test_verdict.c checks the rule itself)
	run timeout 60 "$LATLAB" compare "$D" -o "$WORK/cmpm" --margin 20%
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/cmpm/compare.csv
	[ "$(col "$C" margin_pct | sort -u)" = 20 ]
	read -r v r lo hi <<<"$(row none)"
	[ "$v" = equivalent ] || [ "$v" = no-difference ] || { echo "idle, margin 20 %: $v $r [$lo, $hi]"; false; }
	idle=$v
	[ "$idle" != equivalent ] || [[ "$output" == *"none, timer"*": wake-up: no practical difference: within 20 % (stock@"* ]] || { echo "$output"; false; }
	read -r v r lo hi <<<"$(row hackbench)"
	[ "$v" = higher ] || { echo "hackbench, margin 20 %: $v $r [$lo, $hi]"; false; }
	run timeout 120 "$LATLAB" report "$D" -q --margin 20%
	[ "$status" -eq 0 ] || run_failed
	[ "$idle" != equivalent ] || grep -q '<li class="equivalent"><b>no load · ' "$D/report/index.html"
	grep -q '<li class="higher"><b>hackbench · ' "$D/report/index.html"
	# deterministic: an idle rt cell's maximum is about the same run after
	# run (measured: 0 % over 1 s cells, 4 % over 2 s, 11 % with the
	# sanitizer build's latlab in the guest; asserted: 25 %); under
	# hackbench the load's own order varies it more (29 %; 50 %)
	spread() { for c in "$D"/*/*/*-rt-"$1"-timer-*; do awk -F, '$3 == "wakeup" { print $13 }' "$c/summary.csv"; done |
		sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print hi / lo, NR }'; }
	read -r s n <<<"$(spread none)"
	[ "$n" -eq 5 ] && awk -v s="$s" 'BEGIN { exit !(s <= 1.25) }' || { echo "idle rt maxima spread $s over $n"; false; }
	read -r s n <<<"$(spread hackbench)"
	[ "$n" -eq 5 ] && awk -v s="$s" 'BEGIN { exit !(s <= 1.5) }' || { echo "hackbench rt maxima spread $s over $n"; false; }
	grep -q 'id="icount"' "$WORK/cmp/index.html"
	! grep -q 'id="emulated"' "$WORK/cmp/index.html"
}
