#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# [workload] type = cyclictest (docs/own-code.md, "Against cyclictest"):
# rt-tests' cyclictest run for a cell with the cell's own settings, its
# histogram (1 ns bins) read back as the cell's wake-up. Here it runs and
# its files are a cell's (this VM's timing is not judged: the equality
# with latlab's thread is held on the instruction clock,
# tests/cli/guests/vs-cyclictest.bats); what cyclictest cannot take is
# refused at plan time at its line, exit 2, nothing written.

load helper

@test "cyclictest: a cell of it on this machine, read back as any cell's; its command line in log.txt" {
	command -v cyclictest >/dev/null || { echo "no cyclictest: make deps installs rt-tests"; false; }
	write_config c.ini <<EOC
[campaign]
name = ct
duration = 1s
output = $WORK/out
[matrix]
workload = cyclictest
threads = 2
interval = 1ms
EOC
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ] || run_failed	# 1: a threshold this VM missed
	c=$(cell_dir "$WORK/out/ct" '0000-*')
	grep -qx 'workload = cyclictest' "$c/cell.ini"
	grep -q "cyclictest: $(command -v cyclictest) -q -m -N -t2 -i1000 -D1 --policy=fifo -p90 -a0,1 -h1000000 --histfile=/tmp/latlab-cyclictest." "$c/log.txt" || { cat "$c/log.txt"; false; }
	# each thread's wake-ups: a second's periods at most, its figures
	# cyclictest's. How many of them a thread had is the machine's pace,
	# not judged here: cyclictest starts its threads one by one from its
	# main thread, an ordinary one, and -D counts from its start, so
	# beside a CPU hog and hackbench its second thread had 888
	# (2026-12-06) and, on CPU 0 with the suite's lanes too, its first
	# had 252 (2026-12-07); what is held is that each was read back
	for t in 0 1; do
		n=$(awk -F, -v t=$t '$1 == t && $3 == "wakeup" { print $4 }' "$c/summary.csv")
		[ "$n" -ge 1 ] && [ "$n" -le 1000 ] || { cat "$c/summary.csv"; false; }
		grep -q "thread $t: cyclictest's, on CPU $t: $n wake-ups, max [0-9]* ns" "$c/log.txt" || { cat "$c/log.txt"; false; }
	done
	# its files are gone from /tmp; nothing of it left running (its process group)
	! grep -o '/tmp/latlab-cyclictest\.[A-Za-z0-9]*' "$c/log.txt" | xargs -r ls -d 2>/dev/null
	# the readers take it as any cell
	run "$LATLAB" report "$WORK/out/ct"
	[ "$status" -eq 0 ] || run_failed
}

@test "cyclictest: what it cannot take is refused at plan time, at its line (exit 2)" {
	base() {
		write_config c.ini <<EOC
[campaign]
name = ct
duration = 1s
output = $WORK/out
[matrix]
workload = cyclictest
affinity = 1
$1
EOC
	}
	base "wakeup = timerfd"
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line_of c.ini "^workload"): workload cyclictest (type = cyclictest): wakeup = timerfd: cyclictest sleeps with clock_nanosleep (abs, rel: -r) or a POSIX timer (-x) only"* ]] || run_failed
	[ ! -e "$WORK/out/ct" ]
	base "policy = deadline"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line_of c.ini "^workload"): workload cyclictest (type = cyclictest): policy = deadline: cyclictest has none"* ]] || run_failed
	base "numa = local"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"numa = local: latlab does that for its own threads, not for cyclictest's"* ]] || run_failed
	base "interval = 1500500ns"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"cyclictest's interval is whole microseconds (-i): 1500500 ns is not"* ]] || run_failed
	base ""
	sed -i 's/^duration = 1s$/duration = 1500ms/' c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"duration = 1500 ms: cyclictest's is whole seconds (-D)"* ]] || run_failed
	# a program that is not there: at its line
	base ""
	printf '[workload.cyclictest]\ntype = cyclictest\nprogram = /nonexistent/cyclictest\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line_of c.ini '^program'): "*"/nonexistent/cyclictest: not found"* ]] || run_failed
}
