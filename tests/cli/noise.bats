#!/usr/bin/env bats
# lane: judges (tests/run.sh: where this file runs, and beside what)
# The noise workload (OS noise, as oslat/osnoise): its metrics noise_max
# and noise_total through every file, the report and compare; the busy
# window refused above half the period.

load helper

# noise_config NAME LOAD-TYPE-LINES...: 2 s on CPU 1 at SCHED_FIFO 80, a
# 400 µs window every 1 ms; the load named "bg" so two campaigns' rows match
noise_config() {
	local name=$1
	shift
	write_config "$name.ini" <<EOC
[campaign]
name = $name
duration = 2s
output = $WORK/out

[matrix]
workload = n
load = bg
affinity = 1
priority = 80

[workload.n]
type = noise
busy = 400us

[load.bg]
EOC
	printf '[load.bg]\n%s\n' "$@" | ini_merge "$name.ini"
}

# metric_field CELL-DIR METRIC COLUMN: summary.csv, thread 0
metric_field() {
	awk -F, -v m="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == 0 && $3 == m { print $k }' "$1/summary.csv"
}

setup_file() {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
}

@test "noise: an rt-hog on the measured CPU raises noise_max to its bursts; idle it stays small" {
	noise_config quiet "type = none"
	# a 5 ms burst about every 100 ms at FIFO 95. The window is open 40 % of
	# each period; every = 100.3 ms moves the bursts 0.3 ms along the period
	# each time (a whole multiple would keep them all at one phase, in the
	# windows or never), so about 8 of 20 land in one, each a 5 ms gap
	noise_config hog "type = rt-hog" "cpus = 1" "priority = 95" "busy = 5ms" "every = 100300us"
	run timeout 60 "$LATLAB" run quiet.ini
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"0000-bg-n-t1-a1-1: ok, noise max "*" us, wakeup max "*" us"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" run hog.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	Q=$(cell_dir "$WORK/out/quiet" '0000-*')
	H=$(cell_dir "$WORK/out/hog" '0000-*')
	# every file has both metrics' rows, as for the core three
	for d in "$Q" "$H"; do
		for m in noise_max noise_total; do
			[ "$(metric_field "$d" $m samples)" -ge 1000 ] || { cat "$d/summary.csv"; false; }
			grep -q "^0,1,$m," "$d/hist.csv"
			grep -q ",0,$m," "$d/series.csv"
		done
	done
	[ "$(col "$WORK/out/quiet/cells.csv" metric | tr '\n' ' ')" = "wakeup io response noise_max noise_total " ]
	echo "quiet: noise_max p99 $(metric_field "$Q" noise_max p99_ns) max $(metric_field "$Q" noise_max max_ns);" \
	     "hog: p99 $(metric_field "$H" noise_max p99_ns) max $(metric_field "$H" noise_max max_ns)"
	# idle: the 99th percentile of the windows' largest gaps is small (3 to
	# 110 µs seen on this VM; the host's steal time makes it vary: 1.4 ms
	# in a loaded hour, 2026-12-02, when quiet runs' sixth largest wake-up
	# was 2.3 ms at the median), below half the hog's 5 ms
	[ "$(metric_field "$Q" noise_max p99_ns)" -lt 2500000 ]
	# the hog: gaps of its whole burst, in several windows
	[ "$(metric_field "$H" noise_max max_ns)" -ge 4000000 ]
	big=$(awk -F, '$3 == "noise_max" && $4 >= 4000000 { n += $6 } END { print n + 0 }' "$H/hist.csv")
	[ "$big" -ge 3 ] || { echo "windows with a >= 4 ms gap: $big"; false; }
	# stolen time covers the gap: noise_total >= noise_max in every window
	[ "$(metric_field "$H" noise_total max_ns)" -ge "$(metric_field "$H" noise_max max_ns)" ]
	# the report's OS noise table and the noise_max histogram
	run timeout 120 "$LATLAB" report "$WORK/out/hog" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q '<h2>OS noise</h2>' "$WORK/out/hog/report/index.html"
	grep -q '<td class="l">0000-bg-n-t1-a1-1</td><td class="l">running</td><td class="l">bg</td><td>[0-9]*</td>' \
		"$WORK/out/hog/report/index.html"
	# the cell's histogram is of its workload's own metric; every metric's beside it
	grep -q 'noise_max' "$WORK/out/hog/report/fig/hist-0000-bg-n-t1-a1-1.svg"
	grep -q '</svg>' "$WORK/out/hog/report/fig/metrics-0000-bg-n-t1-a1-1.svg"
	# compare: judged on noise_max, the wake-up's verdict beside it, both in compare.csv
	run timeout 120 "$LATLAB" compare "$WORK/out/quiet" "$WORK/out/hog" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"bg, n, threads 1, affinity 1, 1000 µs, priority 80, fifo, dma_latency 0: noise max: one run each: too few to call ("*"#quiet/"*"#hog "*"x; "* ]] || { echo "$output"; false; }
	C="$WORK/cmp/compare.csv"
	a=$(col "$C" noise_max_median_a_ns | head -1)
	b=$(col "$C" noise_max_median_b_ns | head -1)
	[ "$a" -lt "$b" ] && [ "$(col "$C" verdict_noise_max | sort -u)" = too-few ]
	[ "$(col "$C" metric | sort -u)" = noise_max ]
	[ "$(col "$C" max_median_a_ns | head -1)" = "$a" ]
	[ -n "$(col "$C" wakeup_median_a_ns | head -1)" ]
	grep -q '<td class="l">noise max</td>' "$WORK/cmp/index.html"
	grep -q '<small>wake-up: <span class="too-few">' "$WORK/cmp/index.html"
}

@test "[thresholds.noise_max]: a cell whose noise exceeds it fails (exit 1); a cell without the metric is not judged" {
	noise_config hog "type = rt-hog" "cpus = 1" "priority = 95" "busy = 5ms" "every = 100300us"
	sed -i 's/^duration = 2s/duration = 1s/; s/^workload = n/workload = n, timer/' hog.ini
	printf '[thresholds.noise_max]\nmax = 2ms\n' | ini_merge hog.ini
	run timeout 60 "$LATLAB" run hog.ini
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"0000-bg-n-t1-a1-1: fail, noise max "*"thread 0 noise_max max = "*" ns > 2000000 ns"* ]] || { echo "$output"; false; }
	[[ "$output" == *"0001-bg-timer-t1-a1-1: ok"* ]] || { echo "$output"; false; }
	# the timer cell has the core three only
	! grep -q noise "$(cell_dir "$WORK/out/hog" '0001-*')/summary.csv"
}

@test "noise: busy above half the period is refused with file:line, for every interval" {
	noise_config t "type = none"
	sed -i 's/^busy = 400us/busy = 600us/' t.ini
	run "$LATLAB" run t.ini
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"t.ini:14: [workload.n] busy = 600000 ns is more than 50 % of the period (1000000 ns): the thread must sleep every period with interval = 1ms"* ]] || { echo "$output"; false; }
	[ ! -e "$WORK/out" ]
	# half is allowed; a second, shorter interval is not
	sed -i 's/^busy = 600us/busy = 500us/; s/^priority = 80/priority = 80\ninterval = 1ms, 800us/' t.ini
	run "$LATLAB" plan t.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"t.ini:15: [workload.n] busy = 500000 ns is more than 50 % of the period (800000 ns)"*"with interval = 800us"* ]] || { echo "$output"; false; }
	sed -i 's/^interval = .*/interval = 1ms/' t.ini
	run "$LATLAB" plan t.ini
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# a busy the option table refuses
	sed -i 's/^busy = .*/busy = 0/' t.ini
	run "$LATLAB" plan t.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"t.ini:15: "*"busy"* ]] || { echo "$output"; false; }
}
