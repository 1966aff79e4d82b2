#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# latlab run: the results tree and what must hold in it.

load helper

@test "a 1-second run writes every file, with consistent numbers" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --set matrix.threads=2 --set matrix.affinity=0
	[ "$status" -eq 0 ]
	C="$WORK/out/t"
	for f in campaign.ini state cells.csv; do [ -s "$C/$f" ]; done
	D=$(cell_dir "$C" 0000-none-timer-t2-a0-1)
	for f in cell.ini sysinfo.ini hist.csv summary.csv series.csv load.csv log.txt; do
		[ -s "$D/$f" ] || { echo "missing $f"; false; }
	done
	# no temporary file survives
	[ -z "$(find "$WORK/out" -name '*.tmp.*')" ]

	# one row per thread and metric
	[ "$(head -1 "$D/summary.csv")" = "thread,cpu,metric,samples,min_ns,mean_ns,stddev_ns,p50_ns,p90_ns,p99_ns,p99.9_ns,p99.99_ns,max_ns,overruns,errors,first_errno,utime_ns,stime_ns,bytes,bytes_per_s" ]
	[ "$(tail -n +2 "$D/summary.csv" | cut -d, -f1,3 | sort | tr '\n' ' ')" = "0,io 0,response 0,wakeup 1,io 1,response 1,wakeup " ]
	# samples counted: 1 s at 1 ms is 1000 periods, minus overruns
	while IFS=, read -r thread cpu metric samples min mean sd p50 p90 p99 p999 p9999 max over err errno ut st bytes bps; do
		[ "$bytes" -eq 0 ]	# the timer moves no data
		[ "$cpu" -eq 0 ]
		[ "$samples" -gt 500 ] && [ "$((samples + over))" -le 1001 ]
		[ "$min" -le "$p50" ] && [ "$p50" -le "$p90" ] && [ "$p90" -le "$p99" ]
		[ "$p99" -le "$p999" ] && [ "$p999" -le "$p9999" ] && [ "$p9999" -le "$max" ]
		[ "$min" -le "$mean" ] && [ "$mean" -le "$max" ]
		[ "$err" -eq 0 ] && [ "$errno" -eq 0 ]
		[ "$min" -ge 0 ]
	done < <(tail -n +2 "$D/summary.csv")

	# the histogram holds exactly the samples of each thread and metric
	for t in 0 1; do
		for m in wakeup io response; do
			want=$(awk -F, -v t=$t -v m=$m '$1 == t && $3 == m { print $4 }' "$D/summary.csv")
			got=$(awk -F, -v t=$t -v m=$m '$1 == t && $3 == m { s += $6 } END { print s }' "$D/hist.csv")
			[ "$want" = "$got" ] || { echo "$t $m: summary $want, hist $got"; false; }
		done
	done
	# buckets are sane: lo < hi, count > 0
	awk -F, 'NR > 1 && !($4 < $5 && $6 > 0) { bad = 1 } END { exit bad }' "$D/hist.csv"

	# per-second series: the maxima never exceed the cell's max
	[ "$(head -1 "$D/series.csv")" = "t_s,thread,metric,max_ns,samples" ]
	max0=$(awk -F, '$1 == 0 && $3 == "wakeup" { print $13 }' "$D/summary.csv")
	smax=$(awk -F, '$2 == 0 && $3 == "wakeup" && $4 > m { m = $4 } END { print m }' "$D/series.csv")
	[ "$smax" -eq "$max0" ]
	n=$(awk -F, '$2 == 0 && $3 == "wakeup" { s += $5 } END { print s }' "$D/series.csv")
	[ "$n" -eq "$(awk -F, '$1 == 0 && $3 == "wakeup" { print $4 }' "$D/summary.csv")" ]

	grep -q '^status = ok$' "$D/cell.ini"
	grep -q '^policy = fifo$' "$D/cell.ini"
	grep -q '^cpus = 0,0$' "$D/cell.ini"
	grep -q '^\[warnings\]' "$D/sysinfo.ini"
	grep -q "^release = $(uname -r)\$" "$D/sysinfo.ini"
	[ "$(cat "$D/load.csv")" = "load,type,instance,cpus,ops,ops_per_s,restarts" ]

	# cells.csv: the axes, status and summary, one row per thread x metric
	[ "$(tail -n +2 "$C/cells.csv" | wc -l)" -eq 6 ]
	[ "$(col "$C/cells.csv" status | sort -u)" = ok ]
	[ "$(col "$C/cells.csv" workload | sort -u)" = timer ]
	[ "$(col "$C/cells.csv" interval_ns | sort -u)" = 1000000 ]
	[ "$(col "$C/cells.csv" kernel_release | sort -u)" = "$(uname -r)" ]
	grep -q '^0000-none-timer-t2-a0-1 = ok$' "$C/state"
	grep -q '^duration = 1s$' "$C/campaign.ini"
}

@test "every thread of threads = all gets its own CPU under spread" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --set matrix.threads=all --duration 500ms -q
	[ "$status" -eq 0 ]
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-tall-aspread-1)
	[ "$(col "$D/summary.csv" cpu | sort -un | wc -l)" -eq "$(nproc)" ]
}

@test "a failed threshold is exit 1 and status fail" {
	quick_config
	printf '[thresholds]\nmetric = wakeup\nmax = 1ns\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 1 ]
	[[ "$output" == *"fail"*"wakeup max"*"> 1 ns"* ]]
	[ "$(col "$WORK/out/t/cells.csv" status | sort -u)" = fail ]
	grep -q '^reason = thread 0 wakeup max' "$WORK"/out/t/*/*/0000*/cell.ini
}

@test "thresholds per metric: [thresholds.io] fails a cell the wakeup limits pass" {
	quick_config
	printf '[thresholds]\nmetric = wakeup\nmax = 10s\n[thresholds.io]\nmax = 1ns\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 1 ]
	[[ "$output" == *"fail"*"thread 0 io max = "*"> 1 ns"* ]]
	grep -q '^\[thresholds.io\]$' "$WORK/out/t/campaign.ini"
}

@test "a passing threshold is exit 0" {
	quick_config
	printf '[thresholds]\nmax = 10s\nerrors = 0\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 0 ]
}

@test "I/O errors are counted with the first errno, never as fast samples" {
	quick_config
	printf '[workload.flaky]\ntype = null\nfail_every = 4\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --set matrix.workload=flaky --duration 1s
	[ "$status" -eq 0 ]
	D=$(cell_dir "$WORK/out/t" 0000-none-flaky-t1-aspread-1)
	IFS=, read -r _ _ _ samples _ _ _ _ _ _ _ _ _ over err errno _ < <(grep ',wakeup,' "$D/summary.csv")
	[ "$errno" -eq 5 ]			# EIO
	[ "$err" -ge 200 ]
	# a quarter of the cycles failed and left no sample
	total=$((samples + err))
	[ "$((err * 4))" -ge "$((total - 4))" ] && [ "$((err * 4))" -le "$((total + 4))" ]
	grep -q '^fail_every = 4$' "$D/cell.ini"
}

@test "the errors threshold fails a cell with errors" {
	quick_config
	printf '[workload.flaky]\ntype = null\nfail_every = 2\n[thresholds]\nerrors = 0\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --set matrix.workload=flaky --duration 300ms
	[ "$status" -eq 1 ]
	[[ "$output" == *"errors = "*"> 0"* ]]
}

@test "a cell of another kernel variant stays pending" {
	quick_config
	printf '[kernel.other]\nmatch = release:not-this-kernel\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --set matrix.kernel=running,other --duration 300ms
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 cells pending for other kernel variants"* ]]
	grep -q '^0000-running-none-timer-t1-aspread-1 = ok$' "$WORK/out/t/state"
	grep -q '^0001-other-none-timer-t1-aspread-1 = pending$' "$WORK/out/t/state"
	grep -q '^t,0001-other-none-timer-t1-aspread-1,1,,,other,.*,pending,' "$WORK/out/t/cells.csv"
	! ls -d "$WORK"/out/t/*/*/0001-other* 2>/dev/null
}

@test "a second run of a finished campaign resumes it: nothing to rerun" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	before=$(stat -c %Y "$WORK"/out/t/*/*/0000*/summary.csv)
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ]
	[[ "$output" == *"resuming campaign t in $WORK/out/t: 1 of 1 cells already done"* ]]
	[ "$(stat -c %Y "$WORK"/out/t/*/*/0000*/summary.csv)" = "$before" ]
	[ "$(tail -n +2 "$WORK/out/t/cells.csv" | wc -l)" -eq 3 ]
}

@test "-o overrides the output directory" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/elsewhere" --duration 200ms -q
	[ "$status" -eq 0 ]
	[ -s "$WORK/elsewhere/t/cells.csv" ]
	[ ! -e "$WORK/out" ]
}

@test "real-time threads stacked on one CPU: a warning in plan and run naming the line; spread, none" {
	quick_config
	printf '[matrix]\nthreads = 3\naffinity = 1\n' | ini_merge c.ini
	line=$(grep -n '^threads = 3' c.ini | cut -d: -f1)
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: c.ini:$line: 3 real-time threads of 0000-none-timer-t3-a1-1 share CPU 1 (threads = 3, affinity = 1): they delay each other"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" run c.ini --duration 300ms -q
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: c.ini:$line: 3 real-time threads"*"share CPU 1"* ]] || { echo "$output"; false; }
	run "$LATLAB" plan c.ini --set matrix.affinity=spread --set matrix.threads=1
	[[ "$output" != *"share CPU"* ]] || { echo "$output"; false; }
}

# hog_config: a cell whose thread an rt-hog on its CPU holds off 4 ms in 10
hog_config() {
	quick_config
	printf '[matrix]\naffinity = 1\npriority = 80\nload = hog\n[load.hog]\ntype = rt-hog\ncpus = 1\nbusy = 4ms\nevery = 10ms\n' | ini_merge c.ini
}

@test "missed periods: said on the console, in cells.csv, the report and the cell page; above the default missed = 1% the cell fails" {
	hog_config
	sed -i '/^missed = off$/d' c.ini	# the default, as a user has it
	run timeout 60 "$LATLAB" run c.ini --duration 2s
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" =~ 0000-hog-timer-t1-a1-1:\ fail,\ wakeup\ max\ [0-9.]+\ us,\ missed\ [0-9.]+\ %\ of\ periods:\ thread\ 0\ missed\ [0-9.]+\ %\ of\ its\ periods\ \(([0-9]+)\ of\ ([0-9]+)\)\ \>\ missed\ =\ 1% ]] || { echo "$output"; false; }
	n=${BASH_REMATCH[1]} of=${BASH_REMATCH[2]}
	pct=$(col "$WORK/out/t/cells.csv" missed_pct | head -1)
	# cells.csv's share is the console's count: missed of all periods
	awk -v p="$pct" -v n="$n" -v of="$of" 'BEGIN { d = p - 100 * n / of; exit !(d < 0.01 && d > -0.01) }' ||
		{ echo "missed_pct $pct, console $n of $of"; false; }
	# 4 ms of every 10 held: about 30 % of the 1 ms periods (29.9 % here; a
	# loaded VM's stalls move it, so only a share that is not a percent's
	# fraction, nor the hog's absence, nor every period)
	awk -v p="$pct" 'BEGIN { exit !(p > 10 && p < 80) }' || { echo "missed_pct $pct, console $n of $of"; false; }
	run "$LATLAB" report "$WORK/out/t" -q
	grep -q '<th>missed %</th>' "$WORK/out/t/report/index.html"
	grep -q 'missed [0-9.]* % of periods</small>' "$WORK/out/t/report/index.html"
	grep -q 'Missed periods: thread 0 missed' "$WORK"/out/t/report/cells/0000-*.html
}

@test "[campaign] corrected = on: wakeup_corrected counts every missed period at the latency it would have had; the wake-up is unchanged" {
	hog_config
	run timeout 60 "$LATLAB" run c.ini --duration 2s -q --set campaign.corrected=on
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$(cell_dir "$WORK/out/t" 0000-hog-timer-t1-a1-1)
	field() { awk -F, -v m="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == m { print $h[c] }' "$D/summary.csv"; }
	over=$(field wakeup overruns)
	echo "wakeup samples $(field wakeup samples), overruns $over, corrected samples $(field wakeup_corrected samples)"
	[ "$over" -gt 100 ]	# 4 ms of every 10 held: about 600 of 2000
	# one sample per period kept, plus one per period missed
	[ "$(field wakeup_corrected samples)" -eq $(( $(field wakeup samples) + over )) ]
	# the missed ones were late by less than the late cycle that hid them:
	# the max stays, the mean and the samples above 1 ms grow
	[ "$(field wakeup_corrected max_ns)" -eq "$(field wakeup max_ns)" ]
	[ "$(field wakeup_corrected mean_ns)" -gt "$(field wakeup mean_ns)" ]
	above() { awk -F, -v m="$1" '$3 == m && $4 >= 1000000 { n += $6 } END { print n + 0 }' "$D/hist.csv"; }
	[ "$(above wakeup_corrected)" -gt "$(above wakeup)" ]
	grep -q '^corrected = on$' "$WORK/out/t/campaign.ini"
	# off (the default): no such rows, and the other numbers are the same kind
	run timeout 60 "$LATLAB" run c.ini --duration 1s -q --restart
	[ "$status" -eq 0 ]
	D=$(cell_dir "$WORK/out/t" 0000-hog-timer-t1-a1-1)
	! grep -q wakeup_corrected "$D/summary.csv" "$D/hist.csv"
	# report and compare judge on it when asked
	run timeout 60 "$LATLAB" run c.ini --duration 1s -q --restart --set campaign.corrected=on
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q --metric wakeup_corrected
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$WORK/out/t/report-wakeup_corrected/fig/summary.csv" metric)" = wakeup_corrected ]
}

@test "[thresholds] missed: off, or a larger share, lets the cell pass; the default is not echoed; a bad value is refused at its line" {
	hog_config
	sed -i '/^missed = off$/d' c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 1s -q
	[ "$status" -eq 1 ] || { echo "$output"; false; }	# 30 % missed > 1 %
	[ -n "$(col "$WORK/out/t/cells.csv" missed_pct | head -1)" ]
	! grep -q '^missed' "$WORK/out/t/campaign.ini"	# the default is not echoed
	run timeout 60 "$LATLAB" run c.ini --duration 1s -q --restart --set thresholds.missed=off
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	printf '[thresholds]\nmissed = 90%%\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 1s -q --restart
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q '^missed = 90%$' "$WORK/out/t/campaign.ini"
	printf '[thresholds]\nmissed = lots\n' | ini_merge c.ini
	line=$(grep -n '^missed = lots' c.ini | cut -d: -f1)
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$line: missed = 'lots': a share of the periods from 0% to 100% (as 1% or 0.5%), or off"* ]] || { echo "$output"; false; }
}
