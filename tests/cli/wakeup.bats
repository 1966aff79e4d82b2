#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# [matrix] wakeup and clock: how the measured thread is woken, and on
# which clock (docs/guide.md). Every method on every clock measures, a
# combination the kernel refuses is skipped with its reason, the axes
# are columns and id parts, and a value that is not one is refused at its
# line. Timing is not judged here (docs/guide.md has the side-by-side
# measurement).

load helper

@test "wakeup x clock: every method on every clock measures; a timerfd on tai is skipped with the kernel's reason" {
	write_config c.ini <<EOC
[campaign]
name = w
duration = 300ms
output = $WORK/out
[matrix]
wakeup = abs, rel, posix-timer, timerfd, poll, pselect
clock = monotonic, realtime, tai
affinity = 1
EOC
	run timeout 120 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/out/w/cells.csv
	# 18 cells: 17 measured, a timerfd on tai skipped
	[ "$(awk -F, 'NR > 1 { print $2 }' "$C" | sort -u | wc -l)" -eq 18 ]
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "wakeup" || $c["status"] == "skipped" {
			k = $c["wakeup"] "/" $c["clock"]
			if (k == "timerfd/tai") { if ($c["status"] != "skipped") exit 1; next }
			if ($c["status"] != "ok" || $c["samples"] < 200 || $c["errors"] != 0 || $c["min_ns"] < 0) { print k, $c["status"], $c["samples"]; exit 1 }
			n++ }
		END { if (n != 17) { print n " measured"; exit 1 } }' "$C" || { cat "$C"; false; }
	grep -q '^reason = wakeup = timerfd on clock = tai refused by this kernel: Invalid argument$' \
		"$(cell_dir "$WORK/out/w" '*-wtimerfd-ctai-1')/cell.ini"
	# the id parts, as the axis table gives them
	cell_dir "$WORK/out/w" '*-wposix_timer-crealtime-1' >/dev/null
	run "$LATLAB" compare "$WORK/out/w" --axis wakeup -o "$WORK/cmp"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"rows compared across 6 values of wakeup"* ]] || run_failed
}

@test "wakeup and clock: a value that is not one is refused at its line (exit 2)" {
	write_config c.ini <<EOC
[campaign]
name = w
output = $WORK/out
[matrix]
wakeup = abs, sleep
EOC
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:5: wakeup: 'sleep' is not one of abs|rel|posix-timer|timerfd|poll|pselect"* ]] || run_failed
	# a near miss is named
	run "$LATLAB" plan c.ini --set matrix.wakeup=timefd
	[ "$status" -eq 2 ] && [[ "$output" == *"wakeup: 'timefd' is not one of abs|rel|posix-timer|timerfd|poll|pselect (did you mean 'timerfd'?)"* ]] || run_failed
	sed -i 's/^wakeup = abs, sleep$/wakeup = abs/' c.ini
	run "$LATLAB" plan c.ini --set matrix.clock=boottime
	[ "$status" -eq 2 ] && [[ "$output" == *"clock: 'boottime' is not one of monotonic|realtime|tai|auxN (N 0-7)"* ]] || run_failed
	# at their defaults the axes are in no id and no title
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] && [[ "$output" != *"-wabs"* ]] && [[ "$output" != *"-cmonotonic"* ]] || run_failed
}

@test "clock = aux0: an auxiliary clock this kernel lacks (or has not enabled) skips the cell at set-up, with the reason" {
	[ ! -e /sys/kernel/time/aux_clocks/0/enable ] || [ "$(cat /sys/kernel/time/aux_clocks/0/enable)" = 0 ] ||
		skip "aux clock 0 is enabled here"
	write_config c.ini <<EOC
[campaign]
name = w
duration = 300ms
output = $WORK/out
[matrix]
clock = monotonic, aux0
affinity = 1
EOC
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || run_failed
	d=$(cell_dir "$WORK/out/w" '*-caux0-1')
	grep -q '^status = skipped$' "$d/cell.ini"
	grep -q '^reason = wakeup = abs on clock = aux0 refused by this kernel: .* (an auxiliary clock: Linux 6.17 or later with CONFIG_POSIX_AUX_CLOCKS, enabled in /sys/kernel/time/aux_clocks/N/enable)$' "$d/cell.ini"
	grep -q '^status = ok$' "$(cell_dir "$WORK/out/w" '*-cmonotonic-1')/cell.ini"
}
