#!/usr/bin/env bats
# lane: alongside (tests/run.sh: where this file runs, and beside what)
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
# [1.29x, 1.78x] and 1.81x [1.60x, 2.16x]; idle stock 1.03x lower [1.02x,
# 1.03x] (rt's path 3-4 % longer: the clock is deterministic, so even
# that is called without a margin; with --margin 20% it is "no practical
# difference"); an rt cell's maximum idle 4.8 us in 5 of 5 runs, under
# hackbench 6.2-8.0 us.
@test "qemu, clock = icount: rt's worst case is lower than stock's under hackbench, idle no difference shown to matter within 20 %, and an idle cell repeats its maximum" {
	vm_setup
	# the guests run build/static (static_programs: SANITIZE once gave an
	# idle rt maximum 1.66x its median without it)
	P=$(static_programs)
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
image = $KERNELS/vmlinux-stock
programs = $P
match = preempt:voluntary
clock = icount
boot_timeout = 120s
[kernel.rt]
runner = qemu
image = $KERNELS/vmlinux-rt
programs = $P
match = preempt:rt
clock = icount
boot_timeout = 120s
[load.hackbench]
type = hackbench
groups = 1
EOC
	# stock against rt: [load, verdict, ratio, lo, hi] of each row's first line
	row() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["load"] == want { print $h["verdict_max"], $h["max_ratio"], $h["max_ratio_lo"], $h["max_ratio_hi"]; exit }' "$C"; }
	# an rt row's wake-up maxima: how many of the runs within a factor of
	# (1 + $2) of their median, the largest over the median, the runs
	near() { for c in "$D"/*/*/*-rt-"$1"-timer-*/; do awk -F, '$3 == "wakeup" { print $13 }' "$c/summary.csv"; done |
		sort -n | awk -v f="$2" '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; for (i = 1; i <= NR; i++) k += v[i] <= m * (1 + f) && v[i] >= m / (1 + f); print k, v[NR] / m, NR }'; }
	# one guest at a time (--jobs 1) first, hackbench alone: the same
	# verdict as side by side below, rt's maxima in the same place (alone
	# and side by side, 20 runs each: medians 6.3 and 6.3 us,
	# docs/campaigns.md). First, beside make cross (one CPU each); the
	# two guests side by side last, where they have both CPUs (the other
	# way round one guest ran alone for the phase's last 88 s, 19 % idle)
	run timeout "$(paced 900)" "$LATLAB" run c.ini --jobs 1 --set campaign.name=ic1 --set matrix.load=hackbench
	[ "$status" -eq 0 ] || run_failed
	# one at a time: rt's guest booted after stock's ended
	first_end=$(grep -n 'kernel variant stock: its boot took' <<<"$output" | cut -d: -f1)
	rt_boot=$(grep -n 'kernel variant rt: booting' <<<"$output" | cut -d: -f1)
	[ -n "$first_end" ] && [ -n "$rt_boot" ] && [ "$rt_boot" -gt "$first_end" ] || run_failed
	run timeout 60 "$LATLAB" compare "$WORK/out/ic1" -o "$WORK/cmp1"
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/cmp1/compare.csv
	read -r v r lo hi <<<"$(row hackbench)"
	[ "$v" = higher ] || { echo "hackbench, --jobs 1: $v $r [$lo, $hi]"; false; }
	D=$WORK/out/ic1
	read -r k top n <<<"$(near hackbench 0.5)"
	[ "$n" -eq 5 ] && [ "$k" -ge 4 ] || { echo "hackbench rt maxima, --jobs 1: $k of $n within 50 % of the median"; false; }
	# the bound is for a hang: 106-380 s seen (the sanitizer build, on a
	# slow evening, beside the other guest and the cross build: over 400;
	# 904, cut short, beside a CPU hog and hackbench: paced stretches it);
	# the two variants' guests side by side (--jobs 2)
	run timeout "$(paced 900)" "$LATLAB" run c.ini --jobs 2
	[ "$status" -eq 0 ] || run_failed
	# side by side: rt's guest booted before stock's ended
	first_end=$(grep -n 'kernel variant stock: its boot took' <<<"$output" | cut -d: -f1)
	rt_boot=$(grep -n 'kernel variant rt: booting' <<<"$output" | cut -d: -f1)
	[ -n "$first_end" ] && [ -n "$rt_boot" ] && [ "$rt_boot" -lt "$first_end" ] || run_failed
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
	read -r v r lo hi <<<"$(row hackbench)"
	[ "$(col "$C" side_a | head -1 | cut -d@ -f1)" = stock ]
	# a call, its interval's lower end not held: it was 1.29x here, 1.10x
	# in a fresh check of 907edeb with a TCG machine beside it (the
	# load's order varies its maxima: five runs a side, 29 % spread)
	[ "$v" = higher ] || { echo "hackbench: $v $r [$lo, $hi]"; false; }
	read -r v r lo hi <<<"$(row none)"
	awk -v r="$r" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }' || { echo "idle: $v $r [$lo, $hi]"; false; }
	# with an equivalence margin named before the data: idle, no
	# difference shown to matter. The kernels do differ there (stock's
	# idle path is 4 % shorter: 4.6-4.7 us against rt's 4.8-5.0 us in 15
	# of 15 runs here, with the host idle and with three busy loops on
	# its two CPUs), so the verdict may be a call, but its interval must
	# reach into the margin and its words say so: most often "no
	# practical difference" (0.97x-0.98x); with one run of five off, a
	# call (CI: stock/rt 0.97x [0.69x, 0.99x], an rt run at about 6.7 us)
	# or no clear difference (CI once: [0.97x, 1.23x]). hackbench is
	# still a call (past the margin at a lower end of 1.29x; at 1.10x,
	# a call not shown to exceed it, its words say). 20 %:
	# compare's default tolerance for a baseline; test_verdict.c checks
	# the rule itself
	run timeout 60 "$LATLAB" compare "$D" -o "$WORK/cmpm" --margin 20%
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/cmpm/compare.csv
	[ "$(col "$C" margin_pct | sort -u)" = 20 ]
	read -r v r lo hi <<<"$(row none)"
	idle=$v
	awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(hi >= 1 / 1.2 && lo <= 1.2) }' &&
	case $v in
	equivalent) [[ "$output" == *"none, timer"*": wake-up: no practical difference: within 20 % (stock/rt "* ]] ;;
	lower | higher) [[ "$output" == *"none, timer"*"; not shown to exceed the 20 % margin"* ]] ;;
	no-difference) true ;;
	*) false ;;
	esac || { echo "idle, margin 20 %: $v $r [$lo, $hi]"; echo "$output"; false; }
	read -r v r lo hi <<<"$(row hackbench)"
	[ "$v" = higher ] || { echo "hackbench, margin 20 %: $v $r [$lo, $hi]"; false; }
	run timeout 120 "$LATLAB" report "$D" -q --margin 20%
	[ "$status" -eq 0 ] || run_failed
	[ "$idle" != equivalent ] || grep -q '<li class="equivalent"><b>no load · ' "$D/report/index.html"
	grep -q '<li class="higher"><b>hackbench · ' "$D/report/index.html"
	# deterministic: an idle rt cell's maximum is about the same run after
	# run (measured: 4.8-5.0 us in 15 of 15 runs of 1 s here, 4 % over 2 s
	# cells, 11 % with the sanitizer build's latlab in the guest), but not
	# a replay: CI once had one run of five about 40 % off. Asserted: four
	# runs of five within 10 % of their median, none past 1.5x of it;
	# under hackbench the load's own order varies it more (29 %
	# measured): four of five within 50 %
	read -r k top n <<<"$(near none 0.1)"
	[ "$n" -eq 5 ] && [ "$k" -ge 4 ] && awk -v t="$top" 'BEGIN { exit !(t <= 1.5) }' || { echo "idle rt maxima: $k of $n within 10 % of the median, the largest $top x it"; false; }
	read -r k top n <<<"$(near hackbench 0.5)"
	[ "$n" -eq 5 ] && [ "$k" -ge 4 ] || { echo "hackbench rt maxima: $k of $n within 50 % of the median"; false; }
	grep -q 'id="icount"' "$WORK/cmp/index.html"
	! grep -q 'id="emulated"' "$WORK/cmp/index.html"
}
