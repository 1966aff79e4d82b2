#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# What a figure can mean (docs/report.md, "What a figure can mean"): for
# each reason a figure cannot be judged, a tree that has it — the readers
# fixture's tree a (tests/fixtures/readers: none and rthog, timer and
# noise, 3 runs each, traced) changed as a guest, an errored or skipped
# cell, missed periods, another tracing would have made it — and what
# compare, report, --deadline and junit.xml say of it.

load helper

FIX=$BATS_TEST_DIRNAME/../fixtures/readers

# tree DIR: a copy of the fixture's tree a
tree() {
	cp -r "$FIX/a" "$1"
}

# cells DIR PATTERN: the directories of DIR's cells whose id matches
# PATTERN (an extended regular expression from the id's start)
cells() {
	ls -d "$1"/vm/*/* | grep -E "/$2[^/]*\$"
}

# guest DIR CLOCK PATTERN: those cells as measured in a qemu guest under
# TCG, on the instruction clock (icount) or the host's (host)
guest() {
	for c in $(cells "$1" "$3"); do
		printf '\n[vm]\nrunner = qemu\naccel = tcg\nclock = %s\n' "$2" >>"$c/sysinfo.ini"
	done
}

# ini_cell DIR PATTERN LINE: LINE added to the cells' cell.ini [cell]
ini_cell() {
	for c in $(cells "$1" "$2"); do
		sed -i "s/^\[cell\]\$/[cell]\n$3/" "$c/cell.ini"
	done
}

# status DIR PATTERN STATUS REASON: the cells' status in cells.csv
status() {
	awk -F, -v OFS=, -v pat="^$2" -v st="$3" -v why="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print; next }
		$h["cell"] ~ pat { $h["status"] = st; $h["reason"] = why } { print }' \
		"$1/cells.csv" >"$1/cells.new" && mv "$1/cells.new" "$1/cells.csv"
}

# overruns DIR PATTERN N: every thread of those cells missed N periods
# (cells.csv and summary.csv, which must agree)
overruns() {
	local f
	for f in "$1/cells.csv" $(for c in $(cells "$1" "$2"); do echo "$c/summary.csv"; done); do
		awk -F, -v OFS=, -v pat="^$2" -v n="$3" -v whole="${f##*/}" '
			NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print; next }
			whole == "summary.csv" || $h["cell"] ~ pat { $h["overruns"] = n } { print }' \
			"$f" >"$f.new" && mv "$f.new" "$f"
	done
}

# the timer cells as a chain's whose response waits for a disk
waits() {
	ini_cell "$1" "$2" 'metric = response\nwaits_device = io,response'
}

@test "the instruction clock and a device's wait: the row judged on the wake-up and says why; --metric response, --deadline and --baseline give nothing" {
	tree t
	guest t icount ''
	waits t '[0-9]+-[a-z]+-timer-'
	run "$LATLAB" compare t --axis load -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, threads 1, affinity spread, 1000 µs, priority 80, fifo, dma_latency 0: wake-up (response cannot be judged here: device-wait): 3 runs each: too few to call"* ]] || run_failed
	# the noise workload's own metric holds no wait: its row as before
	[[ "$output" == *"noise, threads 1, affinity spread, 1000 µs, priority 80, fifo, dma_latency 0: noise max: 3 runs each"* ]] || run_failed
	run "$LATLAB" compare t --axis load --metric response -o c2
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*": response: no verdict: either side's response cannot be judged (device-wait; 3 runs each): on the instruction clock a wait for an emulated device is not the device's time"*"--metric wakeup judges the wake-ups"* ]] || run_failed
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["workload"] == "timer" {
		print $h["verdict_max"] "/" $h["verdict_tail"] "/" $h["not_comparable"] "/" $h["verdict_response"] "/" $h["verdict_wakeup"] }' c2/compare.csv | sort -u)" = \
		"not-comparable/not-comparable/device-wait/not-comparable/too-few" ]
	grep -q 'class="not-comparable"' c2/index.html
	run "$LATLAB" compare t --axis load --metric response --deadline 400us -o c3
	[[ "$output" == *"response on none: no count against the deadline: on the instruction clock a wait for an emulated device"* ]] || run_failed
	grep -q '^"[^"]*timer[^"]*",none,response,1000000,400000,not-comparable,' c3/beyond.csv
	# periods the loop missed after its waits: the clock's, not counted on the wake-up either
	overruns t '000[012]-none-timer' 200
	run "$LATLAB" compare t --axis load --deadline 400us -o c5
	[[ "$output" == *"timer, "*": wake-up on none: no count against the deadline: 600 periods were missed after waits for an emulated device on the instruction clock, whose lengths are the clock's, not the device's"* ]] || run_failed
	# the baseline gate: no regression called on it, the testcase skipped with why
	tree b
	guest b icount ''
	waits b '[0-9]+-[a-z]+-timer-'
	run "$LATLAB" compare t --baseline b --metric response -o c4
	[ "$status" -eq 0 ] || run_failed
	grep -q '<skipped message="no verdict: .*device-wait' c4/junit.xml
	# the report: on the wake-up, said; on response, the worst case said to be none to judge
	run "$LATLAB" report t -q
	[ "$status" -eq 0 ] || run_failed
	grep -q '(wake-up (response cannot be judged here: device-wait)): worst case' t/report/index.html
	grep -q 'latency (µs of instruction time)' t/report/fig/summary.svg
	run "$LATLAB" report t --metric response -q
	[ "$status" -eq 0 ] || run_failed
	[ -f t/report-response/index.html ] && [ -f t/report/index.html ]	# one beside the other
	grep -q 'not a figure to judge: on the instruction clock a wait for an emulated device' t/report-response/index.html
}

@test "a tree from before waits_device: its files_note on the instruction clock says the I/O waited; a cell with [figures] says all it waits for" {
	tree t
	guest t icount ''
	ini_cell t '[0-9]+-[a-z]+-timer-' 'metric = response\nfiles_note = the device is emulated and the clock counts instructions: while the guest waits for it, the clock jumps to its next timer, so a wait'"'"'s length is not a device'"'"'s'
	run "$LATLAB" compare t --axis load -o c
	[[ "$output" == *"timer, "*": wake-up (response cannot be judged here: device-wait): "* ]] || run_failed
	# the tutorial's logger: a write that does not sync, on the guest's disk
	for c in $(cells t '[0-9]+-[a-z]+-timer-'); do
		printf '\n[figures]\nwakeup = yes\nio = yes\nresponse = yes\n' >>"$c/cell.ini"
	done
	run "$LATLAB" compare t --axis load -o c2
	[[ "$output" == *"timer, "*": response: "* ]] || run_failed
}

@test "the instruction clock and a device's load: sides apart in time are said to be reached by the host through the guest's cards or disk" {
	tree t
	guest t icount ''
	run "$LATLAB" compare t --axis load -o c
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c "apart in time, on an instruction-counted clock the host's moment does not reach$" <<<"$output")" -eq 2 ] || run_failed
	# the rthog timer runs' traffic across the guest's cards (a net load's
	# cell.ini), the noise runs' files on its disk
	ini_cell t '000[678]-rthog-timer' "net_note = from eth0 to the peer behind eth1 (virtio-net, a hub inside qemu): each packet a card's interrupt"
	ini_cell t '000[345]-none-noise' 'files_on = \/dev\/vda (ext4)'
	run "$LATLAB" compare t --axis load -o c2
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*"; apart in time, on an instruction-counted clock the host's moment reaches through the guest's cards alone: qemu's I/O thread on the host paces what it delivers"* ]] || run_failed
	[[ "$output" == *"noise, "*"; apart in time, on an instruction-counted clock the host's moment reaches through the guest's disk alone: qemu's I/O thread on the host paces what it delivers"* ]] || run_failed
	[[ "$output" != *"does not reach"* ]] || run_failed
	# on the host's own disk a cell is no guest's: nothing said of devices
	tree h
	ini_cell h '000[345]-none-noise' 'files_on = \/dev\/vda (ext4)'
	run "$LATLAB" compare h --axis load -o c3
	[ "$status" -eq 0 ] && [[ "$output" != *"reaches through"* ]] || run_failed
}

@test "errored runs are left out and said: n counts the rest; a side with none left has no verdict" {
	tree t
	status t '000[67]-rthog-timer' error 'load disk: instance 0 did no work over the cell (ops = 0)'
	run "$LATLAB" compare t --axis load -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*": wake-up: 3 and 1 runs: too few to call "*"; rthog: 2 errored, left out (load disk: instance 0 did no work over the cell (ops = 0))"* ]] || run_failed
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["workload"] == "timer" {
		print $h["n_a"] "/" $h["n_b"] "/" $h["left_a"] "/" $h["left_b"] }' c/compare.csv | sort -u)" = "3/1/0/2" ]
	status t '0008-rthog-timer' interrupted ''
	run "$LATLAB" compare t --axis load -o c
	[[ "$output" == *"timer, "*": wake-up: no verdict: rthog has no run to judge (3 and 0 runs); rthog: 2 errored, 1 interrupted, left out (load disk: instance 0 did no work over the cell (ops = 0))"* ]] || run_failed
	run "$LATLAB" report t -q
	[ "$status" -eq 0 ] || run_failed
}

@test "TCG on the host's clock: no verdict, no deadline count, said on every page" {
	tree t
	guest t host ''
	run "$LATLAB" compare t --axis load --deadline 100us -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*": wake-up: no verdict: either side's wake-up cannot be judged (emulated; one campaign each (3 runs each)): measured in qemu without the instruction clock (TCG on the host's clock): the figures are the emulator's pace"* ]] || run_failed
	[[ "$output" == *"wake-up on none: no count against the deadline: measured in qemu without the instruction clock"* ]] || run_failed
	grep -q 'no verdict, deadline count or gate is given on them' c/index.html
	# one side on the instruction clock, the other the host's: other kinds of figure
	rm -rf t c
	tree t
	guest t icount '[0-9]+-rthog-'
	run "$LATLAB" compare t --axis load -o c
	[[ "$output" == *"timer, "*": wake-up: no verdict: none and rthog were measured on different clocks"* ]] || run_failed
	[ "$(col c/compare.csv not_comparable | sort -u)" = clock ]
}

@test "missed periods: past the bound no verdict on the I/O, and --deadline and the rates count them as late" {
	tree t
	# 5,000 missed beside 1,000 kept: 83 % of the periods
	overruns t '000[678]-rthog-timer' 5000
	run "$LATLAB" compare t --axis load --metric response -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*": response: no verdict: rthog's response cannot be judged (missed; one campaign each (3 runs each)): it missed 83 % of its periods (more than 10 %): its figures are of the periods that ran"* ]] || run_failed
	# the wake-up: its own were on time, the work made them late: judged
	# (here on the runs' lengths, which the missed periods count in)
	run "$LATLAB" compare t --axis load -o c2
	[[ "$output" == *"timer, "*": wake-up: runs of different lengths, maxima not compared"* ]] || run_failed
	# a deadline below the period counts them, one past it cannot
	run "$LATLAB" compare t --axis load --deadline 400us -o c3
	[[ "$output" == *"wake-up on rthog: 15,003 of 17,994 periods (83 %) were later than 400 µs, 15,000 of them missed (they never ran: a missed period is later than any deadline below its period); counted, not estimated"* ]] || run_failed
	grep -q '^"[^"]*timer[^"]*",rthog,wakeup,1000000,400000,missed,3,17994,15003,.*,15000,[^,]*,[^,]*,[0-9]*,[0-9]*,[^,]*,[^,]*,[^,]*,2,12$' c3/beyond.csv
	run "$LATLAB" compare t --axis load --deadline 2ms -o c4
	[[ "$output" == *"wake-up on rthog: "*" periods that ran were later than 2000 µs, and 15,000 periods were missed: later than the period, how much later not known; no estimate beyond the runs"* ]] || run_failed
	# compare.csv's rates above a threshold below the period hold them
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["workload"] == "timer" && $h["over_ns"] < 1000000 { print ($h["count_b"] >= 15000) }' c2/compare.csv | sort -u)" = 1 ]
}

@test "traced differently: no verdict, each side's tracing said" {
	tree t
	for c in $(cells t '[0-9]+-rthog-'); do
		sed -i '/^trace = spikes$/d' "$c/cell.ini"
	done
	run "$LATLAB" compare t --axis load -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"timer, "*": wake-up: no verdict: none and rthog were traced differently (none: spikes tracing; rthog: untraced): the tracing's cost is in their figures unequally"* ]] || run_failed
	[ "$(col c/compare.csv not_comparable | sort -u)" = trace ]
}

@test "a half of the matrix that measured nothing is named by compare and report" {
	tree t
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print; next }
		$h["cell"] ~ /^00(09|10|11)-/ {
			if (seen[$h["cell"]]++) next
			$h["status"] = "skipped"; $h["reason"] = "isolation = cpuset: no CPU left for housekeeping"
			for (i = h["thread"]; i <= NF; i++) $i = ""
		} { print }' t/cells.csv >t/cells.new && mv t/cells.new t/cells.csv
	rm -rf t/vm/*/0009-* t/vm/*/0010-* t/vm/*/0011-*
	run "$LATLAB" compare t --axis load -o c
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"t: 3 of 12 cells measured nothing: 3 skipped (the first, 0009-rthog-noise-t1-aspread-1: isolation = cpuset: no CPU left for housekeeping)"* ]] || run_failed
	grep -q 'id="unmeasured"' c/index.html
	run "$LATLAB" report t
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"3 of 12 cells measured nothing: 3 skipped"* ]] || run_failed
	grep -q 'id="unmeasured"' t/report/index.html
}

# load_section TREE TEXT: TEXT as the [load.NAME] section of every cell's
# cell.ini in TREE (as latlab writes it since 2026-12-06), NAME the cell's load
load_section() {
	local f
	for f in "$1"/vm/*/*/cell.ini; do
		printf '\n[load.%s]\n%s\n' "$(awk -F' = ' '$1 == "load" { print $2; exit }' "$f")" "$2" >>"$f"
	done
}

@test "compare across trees: the same load run with other settings is said, with both; the same settings, or none recorded, say nothing" {
	tree t1
	tree t2
	run "$LATLAB" compare t1 t2 -o c0
	[ "$status" -eq 0 ] && [[ "$output" != *"other settings"* ]] || run_failed
	load_section t1 $'cpus = all\ninstances = 1'
	load_section t2 $'cpus = all\ninstances = 1'
	run "$LATLAB" compare t1 t2 -o c1
	[ "$status" -eq 0 ] && [[ "$output" != *"other settings"* ]] || run_failed
	tree t3
	load_section t3 $'cpus = all\ninstances = 2'
	run "$LATLAB" compare t1 t3 -o c2
	[ "$status" -eq 0 ] || run_failed
	line=$(grep '^rthog, timer' <<<"$output")
	[[ "$line" == *"; under the same load with other settings (running@vm:6.18.44-fc-v669#1: cpus = all, instances = 1; running@vm:6.18.44-fc-v669#2: cpus = all, instances = 2): a difference may be the load's, not the kernels'"* ]] || { echo "$line"; false; }
}
