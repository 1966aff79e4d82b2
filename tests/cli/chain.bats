#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# [workload.NAME] type = chain: a period of several steps (a sysfs read,
# then a file write with fdatasync) measured as one workload on the host —
# io the steps together and each step's own (io_stepN), response to the last one's end, the bytes
# theirs — and every way a chain can be wrong refused at its steps line
# before anything is written (exit 2). The chain in a guest, with a
# plugin step and the guest's disk: tests/cli/guests/vm.bats. Timing is
# not judged here.

load helper

# chain_config STEPS [MORE-INI-LINES...]: c.ini with [workload.loop]
# type = chain, steps = STEPS, and the adc and logger steps
chain_config() {
	write_config c.ini <<EOC
[campaign]
name = ch
duration = 500ms
output = $WORK/out
[matrix]
workload = loop
[workload.loop]
type = chain
steps = $1
[workload.adc]
type = sysfs-read
path = /sys/kernel/uevent_seqnum
[workload.logger]
type = file-write
path = $WORK/log.dat
region = 1MiB
sync = fdatasync
[workload.peek]
type = watch
pid = $$
EOC
}

@test "chain: a sysfs read then a file write each period — io both, response to the write's end, the bytes both moved" {
	chain_config "adc, logger"
	sed -i '/^\[workload.peek\]/,$d' c.ini
	printf '[thresholds]\nmissed = off\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || run_failed
	c=$(cell_dir "$WORK/out/ch" '0000-*')
	grep -qx 'steps = adc, logger' "$c/cell.ini"
	grep -qx "files = $WORK/log.dat" "$c/cell.ini"
	grep -q '^files_on = ' "$c/cell.ini"
	[ "$(col "$c/summary.csv" errors | sort -u)" = 0 ]
	# the steps' bytes: the write's 4 KiB and the read's digits, each period
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == "io" { s = $h["samples"]; b = $h["bytes"]; exit !(s >= 50 && b > s * 4096 && b < s * (4096 + 32)) }' "$c/summary.csv" || { cat "$c/summary.csv"; false; }
	# response is the wake-up and both steps: never below io
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		{ m[$h["metric"]] = $h["min_ns"] } END { exit !(m["response"] >= m["io"]) }' "$c/summary.csv"
	# each step's own time: io_step1 the read, io_step2 the write
	chain_steps "$c/summary.csv" 2
	grep -q '^0,.*,io_step2,' "$c/hist.csv"
	# and the file was the write step's own: gone with the cell
	[ ! -e "$WORK/log.dat" ]
}

@test "chain: a step that fails fails its period; one whose device is missing skips the cell" {
	chain_config "adc, bad"
	sed -i '/^\[workload.peek\]/,$d' c.ini
	printf '[workload.bad]\ntype = null\nfail_every = 2\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini -q
	c=$(cell_dir "$WORK/out/ch" '0000-*')
	errors=$(col "$c/summary.csv" errors | head -1)
	samples=$(col "$c/summary.csv" samples | head -1)
	[ "$errors" -ge 100 ] && [ "$samples" -ge 100 ] || { cat "$c/summary.csv"; false; }
	# a sysfs file that is not there: the step's setup skips the cell
	rm -rf "$WORK/out"
	chain_config "adc, logger"
	sed -i '/^\[workload.peek\]/,$d; s|^path = /sys/kernel/uevent_seqnum|path = /sys/no/such/adc|' c.ini
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 3 ] || run_failed
	[[ "$(col "$WORK/out/ch/cells.csv" status)" == skipped ]] || run_failed
	[[ "$(col "$WORK/out/ch/cells.csv" reason)" == *"step 1 (sysfs-read): "* ]] || run_failed
}

@test "chain: no steps, an unknown step, itself, a chain or a watch as a step, too many: exit 2 at the steps line, nothing written" {
	try() {
		chain_config "$1"
		run "$LATLAB" run c.ini -q
		[ "$status" -eq 2 ] || run_failed
		[[ "$output" == *"c.ini:9: $2"* ]] || run_failed
		[ ! -e "$WORK/out" ]
	}
	try "adc, lgger" "[workload.loop] steps: 'lgger' is neither a workload type nor a [workload.lgger] section"
	try "adc, loop" "[workload.loop] steps: 'loop' is this chain itself"
	try "adc, peek" "[workload.loop] steps: 'peek' (type = watch) is a cell of its own, not a step a period runs"
	try "timer, null, timer, null, timer" "[workload.loop] steps: more than 4"
	try " , " "[workload.loop] steps: no workload named"
	chain_config "adc, inner"
	printf '[workload.inner]\ntype = chain\nsteps = adc\n' | ini_merge c.ini
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:9: [workload.loop] steps: 'inner' is a chain: chains do not nest"* ]] || run_failed
	chain_config ""
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"type = chain needs steps = the workloads it runs, in order"* ]] || run_failed
	# a type by its name, with its defaults, is a step too
	chain_config "timer, null"
	sed -i '/^\[workload.peek\]/,$d' c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || run_failed
}
