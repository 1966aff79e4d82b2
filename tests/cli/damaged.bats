#!/usr/bin/env bats
# lane: third (tests/run.sh: where this file runs, and beside what)
# The one tree reader trusts nothing it has not checked: a damaged cell is
# named with FILE:LINE, left out of the figures, listed on the page and on
# stderr, and report, compare and export exit 3; the other cells still show.

load helper

setup_file() {
	: "${LATLAB:?set LATLAB to the latlab binary (make test does)}"
	export TREE="$BATS_FILE_TMPDIR/tree"
	cat >"$BATS_FILE_TMPDIR/c.ini" <<EOC
[campaign]
name = t
duration = 300ms
output = $BATS_FILE_TMPDIR/out
[matrix]
workload = timer, null
interval = 1ms
[thresholds]
missed = off
EOC
	timeout 60 "$LATLAB" run "$BATS_FILE_TMPDIR/c.ini" -q
	mv "$BATS_FILE_TMPDIR/out/t" "$TREE"
}

# damage: a copy of the tree in $WORK/t, its first cell's dir in $D
damage() {
	rm -rf "$WORK/t"	# again in one test: a fresh copy, not one inside the old
	cp -a "$TREE" "$WORK/t"
	D=$(cell_dir "$WORK/t" 0000-none-timer-t1-aspread-1)
}

# report_names "MESSAGE": report is exit 3, names the damaged cell and why
# on stderr and on the page, and still shows the other cell
report_names() {
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 3 ] || { echo "status $status: $output"; return 1; }
	[[ "$output" == *"cell 0000-none-timer-t1-aspread-1 left out: "*"$1"* ]] ||
		{ echo "got: $output"; return 1; }
	local page="$WORK/t/report/index.html"
	grep -q 'id="damaged"' "$page"
	grep -q '<li class="damaged">0000-none-timer-t1-aspread-1: ' "$page"
	[ -s "$WORK/t/report/fig/hist-0001-none-null-t1-aspread-1.svg" ]
	[ ! -e "$WORK/t/report/fig/hist-0000-none-timer-t1-aspread-1.svg" ]
}

@test "the undamaged tree reads clean (exit 0)" {
	damage
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	! grep -q 'id="damaged"' "$WORK/t/report/index.html"
}

@test "hist.csv cut mid-line and garbage appended: the line is named" {
	damage
	n=$(wc -l <"$D/hist.csv")
	truncate -s -2 "$D/hist.csv"
	printf '11936garbage\n' >>"$D/hist.csv"
	report_names "$D/hist.csv:$n: count = '"
	[[ "$output" == *"11936garbage' is not an integer"* ]]
}

@test "hist.csv cut short with no newline at the end" {
	damage
	truncate -s -1 "$D/hist.csv"
	report_names "$D/hist.csv:"
	[[ "$output" == *"the last line has no newline: the file was cut short"* ]]
}

@test "a row with fewer fields than the header" {
	damage
	echo 'xx' >>"$D/hist.csv"
	n=$(wc -l <"$D/hist.csv")
	report_names "$D/hist.csv:$n: 1 fields, but the header has 6"
}

@test "counts that do not add up to summary.csv's samples" {
	damage
	awk -F, 'BEGIN { OFS = "," } NR == 2 { $6 = $6 + 1 } { print }' "$D/hist.csv" >"$D/x"
	mv "$D/x" "$D/hist.csv"
	report_names "$D/hist.csv: thread 0's wakeup buckets hold"
	[[ "$output" == *"summary.csv says"* ]]
}

@test "a bucket whose upper edge is below its lower one" {
	damage
	awk -F, 'BEGIN { OFS = "," } NR == 2 { $5 = "-9223372036854775808" } { print }' "$D/hist.csv" >"$D/x"
	mv "$D/x" "$D/hist.csv"
	report_names "$D/hist.csv:2: bucket ["
}

@test "a missing summary.csv" {
	damage
	rm "$D/summary.csv"
	report_names "$D/summary.csv: No such file or directory"
}

@test "a directory where hist.csv should be" {
	damage
	rm "$D/hist.csv"
	mkdir "$D/hist.csv"
	report_names "$D/hist.csv: a directory, not a file"
}

@test "a FIFO where hist.csv should be: refused at once, not waited on" {
	damage
	rm "$D/hist.csv"
	mkfifo "$D/hist.csv"
	report_names "$D/hist.csv: not a regular file"
}

@test "cells.csv: a number that is not one, and a host that leaves the tree" {
	damage
	awk -F, 'BEGIN { OFS = "," } NR == 2 { $11 = "1000000x" } { print }' "$WORK/t/cells.csv" >"$WORK/x"
	mv "$WORK/x" "$WORK/t/cells.csv"
	report_names "$WORK/t/cells.csv:2: interval_ns = '1000000x' is not an integer"
	damage_host() {
		awk -F, 'BEGIN { OFS = "," } NR == 2 { $4 = ".." } { print }' "$TREE/cells.csv" >"$WORK/t/cells.csv"
	}
	rm -rf "$WORK/t"
	damage
	damage_host
	report_names "cells.csv:2: cell '0000-none-timer-t1-aspread-1', host '..'"
}

@test "a cells.csv that cannot be parsed is exit 3 with its line; none at all is exit 2" {
	damage
	printf '"unclosed,1\n' >>"$WORK/t/cells.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 3 ]
	[[ "$output" == *"$WORK/t/cells.csv:"* ]]
	rm "$WORK/t/cells.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 2 ]
}

@test "compare and export name the damage too, and exit 3" {
	damage
	truncate -s -2 "$D/hist.csv"
	printf '11936garbage\n' >>"$D/hist.csv"
	cp -a "$TREE" "$WORK/u"
	sed -i 's/^\(t,[^,]*,[^,]*,[^,]*,[^,]*,\)running,/\1other,/' "$WORK/u/cells.csv"
	run timeout 60 "$LATLAB" compare "$WORK/t" "$WORK/u" -o "$WORK/cmp"
	[ "$status" -eq 3 ] || { echo "status $status: $output"; false; }
	[[ "$output" == *"cell 0000-none-timer-t1-aspread-1 left out: $D/hist.csv:"* ]]
	grep -q 'id="damaged"' "$WORK/cmp/index.html"
	run "$LATLAB" export --format cyclictest "$D"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$D/hist.csv:"*"count = '"* ]]
}

@test "spikes.csv damaged (a part that is not a number, a missing column): the line is named" {
	damage
	cat >"$D/spikes.csv" <<EOC
capture,thread,cpu,t_ns,latency_ns,timer_ns,irq_ns,softirq_ns,nmi_ns,rt_threads_ns,blocking_ns,unexplained_ns,return_ns,culprit,culprit_kind,culprit_ns,complete,note
1,0,0,1000,500,100,100,0,0,0,0,300,0,x:1,unexplained,300,1,ok
2,0,0,2000,500,1OO,100,0,0,0,0,300,0,x:1,unexplained,300,1,ok
EOC
	report_names "$D/spikes.csv:3: timer_ns = '1OO' is not an integer"
	damage
	printf 'capture,thread,cpu\n1,0,0\n' >"$D/spikes.csv"
	report_names "$D/spikes.csv:1: no column 't_ns'"
	# an incomplete capture's empty parts are not damage
	damage
	cat >"$D/spikes.csv" <<EOC
capture,thread,cpu,t_ns,latency_ns,timer_ns,irq_ns,softirq_ns,nmi_ns,rt_threads_ns,blocking_ns,unexplained_ns,return_ns,culprit,culprit_kind,culprit_ns,complete,note
1,0,0,1000,500,,,,,,,,,,incomplete,,0,events were lost
EOC
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q '<h2>Spike captures</h2>' "$WORK/t/report/index.html"
	grep -q '>incomplete</td>' "$WORK/t/report/index.html"
}

# spikes_row ROW: $D/spikes.csv with one capture row
spikes_row() {
	printf '%s\n%s\n' "capture,thread,cpu,t_ns,latency_ns,timer_ns,irq_ns,softirq_ns,nmi_ns,rt_threads_ns,blocking_ns,unexplained_ns,return_ns,culprit,culprit_kind,culprit_ns,complete,note,steal_ns,os_irq_ns,os_softirq_ns,os_thread_ns,os_nmi_ns,os_top" "$1" >"$D/spikes.csv"
}

@test "spikes.csv rows the cell cannot hold (a capture below 1 or twice, a thread or CPU it has not, a time outside it, a latency above its maximum, parts above the latency): each named at its line" {
	damage
	spikes_row '-9223372036854775808,0,0,1000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: capture = -9223372036854775808: captures are numbered from 1"
	damage
	spikes_row '1,99,0,1000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: thread = 99: not one of the cell's threads"
	damage
	spikes_row '1,0,-1,1000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: cpu = -1: not a CPU"
	damage
	spikes_row '1,0,0,-34000000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: t_ns = -34000000: outside the "
	damage
	spikes_row '1,0,0,1000,9223372036854775807,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: latency_ns = 9223372036854775807: above the cell's wake-up maximum"
	damage
	spikes_row '1,0,0,1000,500,400,400,0,0,0,0,0,0,x,timer,400,1,n,0,,,,,'
	report_names "$D/spikes.csv:2: its parts add up to 800 ns, more than its latency_ns 500"
	damage
	spikes_row '1,0,0,1000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,-7,,,,,'
	report_names "$D/spikes.csv:2: steal_ns = -7: below 0"
	damage
	spikes_row '1,0,0,1000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,'
	echo '1,0,0,2000,500,500,0,0,0,0,0,0,0,x,timer,500,1,n,0,,,,,' >>"$D/spikes.csv"
	report_names "$D/spikes.csv:3: capture 1 again (line 2)"
}

@test "interference.csv rows the cell cannot hold: steal above the cell's time (INT64_MAX: no overflow), a CPU's second steal row, a CPU below 0" {
	damage
	printf 'cpu,kind,source,count,note\n0,steal,steal ms,9223372036854775807,\n1,steal,steal ms,9223372036854775807,\n' >"$D/interference.csv"
	report_names "$D/interference.csv:2: count = 9223372036854775807: more than the "
	[[ "$output" != *"9223372036854775807 ms stolen"* ]]
	damage
	printf 'cpu,kind,source,count,note\n0,steal,steal ms,3,\n0,steal,steal ms,4,\n' >"$D/interference.csv"
	report_names "$D/interference.csv:3: a second steal row for CPU 0 (line 2 has one)"
	damage
	printf 'cpu,kind,source,count,note\n-1,irq,LOC,5,\n' >"$D/interference.csv"
	report_names "$D/interference.csv:2: cpu = -1: not a CPU"
	# steal within the cell's time is a figure, said in the report
	damage
	printf 'cpu,kind,source,count,note\n0,steal,steal ms,40,\n' >"$D/interference.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q '40 ms stolen by the hypervisor' "$WORK/t/report/index.html"
}

@test "timeline.csv damaged (a count that is not a number, an unknown metric, a missing column): the line is named" {
	damage
	[ -s "$D/timeline.csv" ]
	sed -i '2s/,[0-9]*$/,12x/' "$D/timeline.csv"
	report_names "$D/timeline.csv:2: count = '12x' is not an integer"
	damage
	sed -i '2s/,wakeup,/,latency,/' "$D/timeline.csv"
	report_names "$D/timeline.csv:2: t_s 0, metric 'latency', bin"
	damage
	printf 't_s,thread\n0,0\n' >"$D/timeline.csv"
	report_names "$D/timeline.csv:1: no column 'metric'"
}

@test "sysinfo.ini or log.txt as a FIFO or a link to /dev/zero: report does not wait on it, and says so" {
	for kind in fifo zero; do
		for f in sysinfo.ini log.txt; do
			damage
			rm -f "$D/$f"
			if [ $kind = fifo ]; then mkfifo "$D/$f"; else ln -s /dev/zero "$D/$f"; fi
			run timeout 20 "$LATLAB" report "$WORK/t" -q
			[ "$status" -eq 0 ] || { echo "$f as $kind: status $status: $output"; false; }
			[[ "$output" == *"$D/$f: not a regular file"* ]] ||
				{ echo "$f as $kind: $output"; false; }
		done
	done
}

# edit_col FILE COLUMN ROW EXPR: the field COLUMN (by its header name) of
# line ROW set to EXPR (awk, with v the old value)
edit_col() {
	awk -F, -v col="$2" -v row="$3" 'BEGIN { OFS = "," }
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
		NR == row { v = $c; $c = '"$4"' } { print }' "$1" >"$1.x"
	mv "$1.x" "$1"
}

@test "cells.csv's max_ns written ten times over: the cell is left out, not drawn from it" {
	damage
	edit_col "$WORK/t/cells.csv" max_ns 2 'v * 10'
	report_names "$WORK/t/cells.csv:2: max_ns = '"
	[[ "$output" == *"but $D/summary.csv:2 says"* ]]
}

@test "hist.csv: a bucket off latlab's grid, one moved beyond summary's max, one moved inside it" {
	damage
	edit_col "$D/hist.csv" lo_ns 2 'v + 1'
	report_names "$D/hist.csv:2: bucket ["
	[[ "$output" == *"not a bucket of latlab's histogram"* ]]
	# onto the grid, far above the maximum: 2^31 ns
	damage
	edit_col "$D/hist.csv" lo_ns 2 '2147483648'
	edit_col "$D/hist.csv" hi_ns 2 '2155872256'
	report_names "$D/hist.csv:2: bucket [2147483648, 2155872256) lies outside summary.csv's min"
	# the most-filled bucket moved up to the one that holds the maximum:
	# inside [min, max], but the mean is no longer summary's
	damage
	top=$(awk -F, 'NR > 1 && $3 == "wakeup" && $1 == 0 { if ($6 > c) { c = $6; r = NR } } END { print r }' "$D/hist.csv")
	last=$(awk -F, 'NR > 1 && $3 == "wakeup" && $1 == 0 { r = NR } END { print r }' "$D/hist.csv")
	lo=$(awk -F, -v r="$last" 'NR == r { print $4 }' "$D/hist.csv")
	hi=$(awk -F, -v r="$last" 'NR == r { print $5 }' "$D/hist.csv")
	[ "$top" != "$last" ]
	edit_col "$D/hist.csv" lo_ns "$top" "$lo"
	edit_col "$D/hist.csv" hi_ns "$top" "$hi"
	report_names "$D/hist.csv: thread 0's wakeup buckets have a mean of"
}

@test "a cell's rows again further down cells.csv: left out, not counted twice" {
	damage
	sed -n 2p "$WORK/t/cells.csv" >>"$WORK/t/cells.csv"
	n=$(wc -l <"$WORK/t/cells.csv")
	report_names "cells.csv lists it twice, at lines 2 and $n"
}

@test "a pending cell whose host is '..': left out, nothing outside the tree read into its page" {
	damage
	mkdir -p "$WORK/XCELL"
	echo "SECRET from outside the tree" >"$WORK/XCELL/log.txt"
	# the first cell's first row, made a pending cell XCELL in ../..
	head -2 "$WORK/t/cells.csv" >"$WORK/row"
	edit_col "$WORK/row" cell 2 '"XCELL"'
	edit_col "$WORK/row" index 2 '99'
	edit_col "$WORK/row" host 2 '".."'
	edit_col "$WORK/row" kernel_release 2 '".."'
	edit_col "$WORK/row" status 2 '"pending"'
	tail -1 "$WORK/row" >>"$WORK/t/cells.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"cell XCELL left out: "*"host '..'"* ]] || run_failed
	! grep -rq SECRET "$WORK/t/report"
}

@test "series.csv with its header only: the cell is left out, the report still written" {
	damage
	head -1 "$D/series.csv" >"$D/x"
	mv "$D/x" "$D/series.csv"
	report_names "$D/series.csv: no rows, though the cell measured"
	[ -s "$WORK/t/report/index.html" ]
}

# zero_tree DIR: the tree's every latency made 0 ns, consistently (summary,
# hist, cells.csv, series agree): a tree the reader cannot fault
zero_tree() {
	python3 - "$1" <<'EOP'
import csv, glob, os, sys
T = sys.argv[1]
ns = ['min_ns', 'mean_ns', 'stddev_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'p99.9_ns', 'p99.99_ns', 'max_ns']
def rewrite(path, rows, head):
    w = csv.DictWriter(open(path, 'w'), fieldnames=head, lineterminator='\n')
    w.writeheader(); w.writerows(rows)
for d in glob.glob(T + '/*/*/0*'):
    rows = list(csv.DictReader(open(d + '/summary.csv')))
    for r in rows:
        for k in ns: r[k] = '0'
    rewrite(d + '/summary.csv', rows, list(rows[0].keys()))
    h = csv.writer(open(d + '/hist.csv', 'w'), lineterminator='\n')
    h.writerow(['thread', 'cpu', 'metric', 'lo_ns', 'hi_ns', 'count'])
    for r in rows: h.writerow([r['thread'], r['cpu'], r['metric'], 0, 1, r['samples']])
    s = list(csv.DictReader(open(d + '/series.csv')))
    for r in s: r['max_ns'] = '0'
    if s: rewrite(d + '/series.csv', s, list(s[0].keys()))
cs = list(csv.DictReader(open(T + '/cells.csv')))
for r in cs:
    if r['samples']:
        for k in ns: r[k] = '0'
rewrite(T + '/cells.csv', cs, list(cs[0].keys()))
EOP
}

@test "a tree of 0 ns latencies: no ratio in compare, and a figure gnuplot cannot draw costs that figure, not the page (exit 3)" {
	damage
	cp -a "$WORK/t" "$WORK/z"
	zero_tree "$WORK/z"
	run timeout 60 "$LATLAB" report "$WORK/z" -q
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"gnuplot "*" failed for "* ]] || run_failed
	[ -s "$WORK/z/report/index.html" ]
	# no page links a figure that is not there
	for f in $(grep -oh 'src="[^"]*"' "$WORK/z/report/index.html" "$WORK/z/report/cells/"*.html | sed 's/src="//; s/"$//; s|^\.\./||'); do
		[ -s "$WORK/z/report/$f" ] || { echo "missing $f"; false; }
	done
	run timeout 60 "$LATLAB" compare "$WORK/t" "$WORK/z" -o "$WORK/cmp"
	[[ "$output" == *"no ratio ("*"): a run's maximum is 0 ns, nothing above zero to compare"* ]] || run_failed
	[[ "$output" != *"x ["* ]]
	run timeout 60 "$LATLAB" compare "$WORK/z" "$WORK/z" -o "$WORK/cmp2"
	[ "$status" -eq 3 ] || run_failed
	[ -s "$WORK/cmp2/index.html" ]
}

@test "a report whose disk fills: exit 3, and no page shows an empty figure" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	damage
	mkdir "$WORK/small"
	# room for the tree and a few figures, not for all of them
	kb=$(( $(du -sk "$WORK/t" | cut -f1) + 120 ))
	mount -t tmpfs -o size=${kb}k tmpfs "$WORK/small" || skip "cannot mount tmpfs"
	cp -a "$WORK/t" "$WORK/small/t"
	run timeout 60 "$LATLAB" report "$WORK/small/t" -q
	st=$status
	empty=$(find "$WORK/small/t/report" \( -name '*.svg' -o -name '*.png' \) -size 0 | head -3)
	umount "$WORK/small"
	[ "$st" -eq 3 ] || { echo "status $st: $output"; false; }
	[ -z "$empty" ] || { echo "empty figures: $empty"; false; }
}
