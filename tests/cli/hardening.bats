#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# Issue 12's reproductions that are fixed: each failed before its fix.

load helper

@test "overflowing durations are out of range, exit 2 (not wrapped)" {
	quick_config
	run "$LATLAB" plan c.ini --set campaign.duration=9223372036854775.9us
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set:1: duration = 9223372036854775.9us is out of range (100ms to 168h)"* ]]
	run "$LATLAB" plan c.ini --set matrix.interval=2562047.99h
	[ "$status" -eq 2 ]
	[[ "$output" == *"interval = 2562047.99h is out of range"* ]]
	run "$LATLAB" plan c.ini --set matrix.threads=9223372036854775808
	[ "$status" -eq 2 ]
	[[ "$output" == *"threads = 9223372036854775808 is out of range (1 to 1024)"* ]]
}

@test "a week-long cell times a thousand: plan says years, not a negative time" {
	quick_config
	run "$LATLAB" plan c.ini --set campaign.duration=168h --set campaign.repeat=1000 --set matrix.threads=1-16
	[ "$status" -eq 0 ]
	[[ "$output" == *"estimated wall time: more than 292 years (168h per cell)"* ]]
}

@test "a 208-character line is read whole (libinih's 200-byte default buffer); a 3000-character command is taken whole" {
	quick_config
	long=$(printf 'x%.0s' $(seq 190))
	printf '[load.e]\ntype = external\ncommand = /bin/echo %s\n' "$long" | ini_merge c.ini
	[ "$(awk 'length > 199' c.ini | wc -l)" -eq 1 ]
	run "$LATLAB" plan c.ini --set matrix.load=e
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# and the value arrived whole
	run "$LATLAB" plan c.ini --set matrix.load=e --set load.e.command=
	[ "$status" -eq 2 ]
	# a 3000-character command (a real stress-ng or build line) is no
	# longer refused for its length: only a line the reader cannot hold is
	long=$(printf 'x%.0s' $(seq 3000))
	sed -i "s|^command = .*|command = /bin/echo $long|" c.ini
	run "$LATLAB" plan c.ini --set matrix.load=e
	[ "$status" -eq 0 ] || { echo "${output:0:300}"; false; }
	long=$(printf 'x%.0s' $(seq 4100))
	sed -i "s|^command = .*|command = /bin/echo $long|" c.ini
	run "$LATLAB" plan c.ini --set matrix.load=e
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(line_of c.ini '^command'): line longer than 4093 characters"* ]] || { echo "${output:0:300}"; false; }
}

@test "a directory, a FIFO or /dev/zero as CONFIG: exit 2 at once" {
	run "$LATLAB" plan /etc
	[ "$status" -eq 2 ]
	[[ "$output" == *"/etc: a directory, not a file"* ]]
	run timeout 10 "$LATLAB" plan /dev/zero
	[ "$status" -eq 2 ]
	[[ "$output" == *"/dev/zero: not a regular file"* ]]
	mkfifo f.ini
	run timeout 10 "$LATLAB" run f.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"f.ini: not a regular file"* ]]
}

@test "a NUL byte is named on its own line" {
	printf '[campaign]\nname = x\n[matrix]\nthreads = 1\0 %05000d\nload = none\n' 0 >nul.ini
	run "$LATLAB" plan nul.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"nul.ini:4: a NUL byte"* ]]
}

@test "campaign names . and .. are refused with file:line" {
	quick_config
	for n in . ..; do
		run "$LATLAB" plan c.ini --set campaign.name=$n
		[ "$status" -eq 2 ]
		[[ "$output" == *"--set:1: campaign name '$n'"*"not . or .."* ]]
	done
}

@test "a newline in a --set value is refused, not written into campaign.ini" {
	quick_config
	run "$LATLAB" run c.ini --set $'kernel.running.reboot=/bin/true\n[thresholds]\nmax = 1ns'
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set:1: reboot: a control character (0x0a) in the value"* ]]
	[ ! -e "$WORK/out" ]
}

@test "a --duration too long to hold is refused, not cut" {
	quick_config
	run "$LATLAB" plan c.ini --duration "$(printf '1%.0s' $(seq 90))s"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a duration (too long)"* ]]
}

@test "the same value written twice differently is one value: refused" {
	quick_config
	run "$LATLAB" plan c.ini --set matrix.threads=1,01,0x1
	[ "$status" -eq 2 ]
	[[ "$output" == *"threads lists the same value twice: '1' and '01'"* ]]
	run "$LATLAB" plan c.ini --set matrix.interval=1ms,1000us
	[ "$status" -eq 2 ]
	[[ "$output" == *"interval lists the same value twice: '1ms' and '1000us'"* ]]
}

@test "an empty state is never taken for none: exit 2, the tree untouched" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	: >"$WORK/out/t/state"
	before=$(find "$WORK/out" | sort)
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 2 ]
	[[ "$output" == *"the campaign's state cannot be read"* ]]
	[ "$(find "$WORK/out" | sort)" = "$before" ]
}

@test "status: an edited campaign.ini is named, and a file that is not a campaign says why" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	sed -i 's/^interval = .*/interval = 2ms/' "$WORK/out/t/campaign.ini"
	run "$LATLAB" status "$WORK/out/t"
	[ "$status" -eq 2 ]
	[[ "$output" == *"campaign.ini does not match $WORK/out/t/state"* ]]
	run "$LATLAB" status /etc/passwd
	[ "$status" -eq 2 ]
	[[ "$output" == *"/etc/passwd/state: Not a directory"* ]]
}

@test "a kernel release or hostname with / stays one directory inside the output" {
	quick_config
	LATLAB_FAKE_KERNEL_RELEASE=../../../escaped-rel run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ ! -e "$WORK/escaped-rel" ] && [ ! -e "$WORK/out/escaped-rel" ]
	[ -d "$WORK/out/t/$(hostname)/.._.._.._escaped-rel" ]
	if command -v unshare >/dev/null && unshare -u true 2>/dev/null; then
		# hostname(1) refuses the name; the kernel takes it
		run unshare -u sh -c "printf ../../escaped-host >/proc/sys/kernel/hostname && timeout 60 '$LATLAB' run c.ini --duration 200ms -q --restart"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
		[ ! -e "$WORK/escaped-host" ]
		[ -n "$(ls -d "$WORK"/out/t/.._.._escaped-host 2>/dev/null)" ]
	fi
}

@test "run -q still says why a cell is an error" {
	quick_config
	printf '[matrix]\nworkload = w\n[workload.w]\ntype = null\nfail_every = 1\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q --set thresholds.errors=0
	[ "$status" -ne 0 ]
	# a load that cannot be ready in time: the cell errs at run time
	printf '[load.l]\ntype = hackbench\ngroups = 10\nready_timeout = 1ms\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q --set matrix.load=l --restart
	[ "$status" -eq 3 ]
	[[ "$output" == *"error: [1/1] 0000-l-w-t1-aspread-1: error: load l:"* ]]
}

@test "report and compare: 200 cells and a blank in the path (gnuplot lists are files, not words)" {
	D="$WORK/with blank"
	mkdir -p "$D"
	# missed = off: a 100 ms cell misses 10 periods in one VM stall of
	# 10 ms, and this test is about the report's lists, not the periods
	printf '[campaign]\nname = t\nduration = 100ms\noutput = %s/out\n[thresholds]\nmissed = off\n' "$D" >c.ini
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	T="$D/out/t"
	src=$(echo "$T"/*/*/0000-none-timer-t1-aspread-1)
	for i in $(seq 1 199); do
		printf -v id '%04d-none-timer-t1-aspread-%d' "$i" "$((i + 1))"
		cp -r "$src" "${src%/*}/$id"
	done
	# a size each: 200 rows for compare (repeats of one row would be one)
	awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next }
		NR == 2 { for (i = 0; i < 200; i++) { $2 = sprintf("%04d-none-timer-t1-aspread-%d", i, i + 1); $3 = i; $13 = i + 1; print } }' \
		"$T/cells.csv" >"$WORK/cells.csv"
	cp "$WORK/cells.csv" "$T/cells.csv"
	run timeout 300 "$LATLAB" report "$T" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# 200 cells: the tail draws rows (repeats merged), the 24 with the
	# largest maxima, and says so; its data are beside it
	grep -q 'so a curve per row and kernel variant with its repeats merged — the 24 rows with the largest maxima, of 200' "$T/report/index.html"
	[ -s "$T/report/fig/tail-23.csv" ] && [ ! -e "$T/report/fig/tail-24.csv" ]
	# each curve named by what sets it apart, here the size alone
	grep -q 'running · [0-9]* B (1 run)' "$T/report/fig/tail.svg"
	[ ! -e "$T/report/fig/tail.list.gp" ]
	cp -r "$T" "$D/u"
	sed -i 's/^\(t,[^,]*,[^,]*,[^,]*,[^,]*,\)running,/\1other,/' "$D/u/cells.csv"
	run timeout 300 "$LATLAB" compare "$T" "$D/u" -o "$D/cmp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -s "$D/cmp/fig/compare-199.png" ]
}

@test "workload options are checked when the config is read: pi-mutex nices" {
	quick_config
	printf '[matrix]\nworkload = p\n[workload.p]\ntype = pi-mutex\nnices = -21 abc\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(line_of c.ini '^\[workload.p\]'): [workload.p]: nices = '-21 abc': numbers from -20 to 19"* ]]
}

@test "a matrix too big names its size, its axes and a line; a range names its limit" {
	quick_config
	run "$LATLAB" plan c.ini --set matrix.threads=1-64 --set matrix.priority=1-64 --set matrix.interval=1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms,11ms,12ms,13ms,14ms,15ms,16ms,17ms,18ms,19ms,20ms,21ms,22ms,23ms,24ms,25ms
	[ "$status" -eq 2 ]
	[[ "$output" == *"--set:2: the matrix has 102400 cells (1 kernels x 1 loads x 1 workloads x 64 threads x 1 affinities x 25 intervals x 64 priorities x 1 sizes x "*" x repeat 1): at most 100000"* ]]
	# every axis of the table named with its count (latlab list's), none twice
	sizes=$(echo "$output" | sed -n 's/.*cells (\(.*\) x repeat 1).*/\1/p')
	[ "$(echo "$sizes" | awk -F' x ' '{ print NF }')" -eq "$(matrix_axes | wc -l)" ]
	run "$LATLAB" plan c.ini --set matrix.threads=1-65
	[ "$status" -eq 2 ]
	[[ "$output" == *"threads: bad range '1-65' (at most 64 values on an axis)"* ]]
}

@test "a load that would start millions of processes is refused with file:line" {
	quick_config
	printf '[matrix]\nload = hb\n[load.hb]\ntype = hackbench\ngroups = 1000\nfds = 2\ninstances = 1024\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(line_of c.ini '^instances'): [load.hb] instances = 1024 x 4000 workers each = 4096000: at most 65536 in all"* ]]
}

@test "resume checks the state against the disk: a cell whose files say otherwise runs again" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	sed -i 's/^status = ok$/status = interrupted/' "$D/cell.ini"
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"0000-none-timer-t1-aspread-1: the state says ok, its cell.ini says interrupted: it runs again"* ]]
	[ -d "$D.partial-1" ]
	grep -q '^status = ok$' "$D/cell.ini"
	# cells.csv older than the state (a crash between whole writes): the
	# cell's own files say ok, so its rows are rebuilt from them
	cp "$WORK/out/t/cells.csv" "$WORK/good.csv"
	sed -i 's/,ok,/,pending,/' "$WORK/out/t/cells.csv"
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ]
	[[ "$output" == *"cells.csv says pending, the state and its cell.ini ok: its rows rebuilt from"* ]]
	[ ! -d "$D.partial-2" ]
	cmp "$WORK/out/t/cells.csv" "$WORK/good.csv"
	# and when neither cells.csv nor any directory agrees with the state
	sed -i 's/,ok,/,pending,/' "$WORK/out/t/cells.csv"
	sed -i 's/^status = ok$/status = interrupted/' "$D/cell.ini"
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ]
	[[ "$output" == *"the state says ok, cells.csv says pending, and no directory of it does: it runs again"* ]]
	[ -d "$D.partial-2" ]
}

@test "resume: a finished cell whose summary.csv or hist.csv is damaged runs again; rows in two places are rebuilt" {
	quick_config
	printf '[matrix]\nworkload = timer, null\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	echo 'xx' >>"$D/hist.csv"
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"0000-none-timer-t1-aspread-1: its files are damaged ($D/hist.csv:"* ]] || run_failed
	[ -d "$D.partial-1" ]
	run "$LATLAB" report out/t -q
	[ "$status" -eq 0 ] || run_failed
	# the first cell's row again after the second cell's: one copy, from its files
	cp out/t/cells.csv good.csv
	sed -n 2p out/t/cells.csv >>out/t/cells.csv
	run timeout 60 "$LATLAB" run c.ini --duration 200ms
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"0000-none-timer-t1-aspread-1: cells.csv holds its rows in more than one place: rebuilt from $D"* ]] || run_failed
	cmp out/t/cells.csv good.csv
}

@test "a killed writer's temporary files are not carried into .partial-N" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	: >"$D/summary.csv.tmp.999999"
	: >"$D/samples.bin.tmp.999999"
	sed -i 's/ = ok$/ = running/' "$WORK/out/t/state"
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	[ "$status" -eq 0 ]
	[ -d "$D.partial-1" ]
	[ -z "$(find "$WORK/out" -name '*.tmp.*')" ]
}

@test "empty type = and image = are named on their own line" {
	quick_config
	printf '[matrix]\nload = l\n[load.l]\n\ntype =\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(line_of c.ini '^type =$'): [load.l] type is empty"* ]]
	quick_config
	printf '[matrix]\nkernel = v\n[kernel.v]\nrunner = qemu\nimage =\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(line_of c.ini '^image'): [kernel.v] runner = qemu needs 'image =' (a bzImage or vmlinuz): it is empty"* ]]
}

@test "export of a FIFO in place of samples.bin is refused at once" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 200ms -q
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	mkfifo "$D/samples.bin"
	run timeout 10 "$LATLAB" export --format csv "$D"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a latlab samples file"* ]]
}

@test "Ctrl-C stops a command other than run at once (signals are blocked only in run)" {
	cp -r "$BATS_TEST_DIRNAME/../fixtures/compare/stock" "$WORK/t"
	# a session of its own, as a terminal's job: Ctrl-C reaches the
	# group, gnuplot too (signalled alone, latlab ended and its gnuplot
	# went on writing into the tree while the test removed it)
	setsid "$LATLAB" report "$WORK/t" -q &
	pid=$!
	blk=""
	for _ in $(seq 200); do
		blk=$(awk '/^SigBlk/ { print $2 }' /proc/$pid/status 2>/dev/null) && [ -n "$blk" ] && break
		sleep 0.01
	done
	[ -n "$blk" ] || skip "report ended before it could be looked at"
	# SIGINT (bit 2) and SIGTERM (bit 15) are not blocked
	[ $(( 0x$blk & 0x4002 )) -eq 0 ]
	kill -INT -- -$pid 2>/dev/null || true
	wait $pid || rc=$?
	[ "${rc:-0}" -eq 130 ] || [ "${rc:-0}" -eq 0 ]	# 0: it had finished
	for _ in $(seq 50); do [ -z "$(in_session $pid)" ] && break; sleep 0.1; done
	[ -z "$(in_session $pid)" ] || { ps -o pid,args -s $pid; false; }
}

@test "a disk that fills during a cell: the message names the file that failed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	mkdir "$WORK/full"
	mount -t tmpfs -o size=4m tmpfs "$WORK/full" || skip "cannot mount tmpfs"
	quick_config
	"$LATLAB" run c.ini -o "$WORK/full" --duration 3s -q >"$WORK/log" 2>&1 &
	pid=$!
	sleep 1.5
	# the space check passed before the cell; now nothing is left
	dd if=/dev/zero of="$WORK/full/filler" bs=64k 2>/dev/null || true
	wait $pid && st=0 || st=$?
	[ "$st" -eq 3 ] || { cat "$WORK/log"; false; }
	grep -q "writing $WORK/full/t/.*/0000-none-timer-t1-aspread-1/[a-z.]*: No space left on device" "$WORK/log" ||
		{ cat "$WORK/log"; false; }
}

@test "export of a samples.bin cut short, inside a record or on a record's edge, is refused: not whole" {
	quick_config
	printf '[campaign]\nsamples = on\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms -q
	[ "$status" -eq 0 ] || run_failed
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	run "$LATLAB" export --format csv "$D" -o whole.csv
	[ "$status" -eq 0 ] || run_failed
	# a 32-byte header, then 40-byte records
	sz=$(stat -c %s "$D/samples.bin")
	n=$(((sz - 32) / 40))
	grep -q "^samples_written = $n\$" "$D/cell.ini"
	cp "$D/samples.bin" whole.bin
	truncate -s $((sz / 2 + 7)) "$D/samples.bin"
	run "$LATLAB" export --format csv "$D" -o cut.csv
	[ "$status" -eq 3 ]
	[[ "$output" == *"samples.bin: cut short: it ends inside a record"* ]] || run_failed
	# whole records, but fewer than the cell wrote
	head -c $((sz - 40 * 10)) whole.bin >"$D/samples.bin"
	run "$LATLAB" export --format csv "$D" -o cut.csv
	[ "$status" -eq 3 ]
	[[ "$output" == *"records, but $D/cell.ini says samples_written = $n: the file is not whole"* ]] || run_failed
}

# Round three (issue 42): sides and baselines are sets of trees by what
# their paths lead to; every list refuses an empty item.
fixture_trees() {
	for t in stock rt; do
		cp -r "$BATS_TEST_DIRNAME/../fixtures/compare/$t" "$WORK/$t"
		cp -r "$BATS_TEST_DIRNAME/../fixtures/compare/$t" "$WORK/$t-2"
	done
	cd "$WORK"
}

@test "one tree named twice, however spelled, is refused (exit 2, both spellings): in one side, on a side and in its baseline, twice in history; a tree against itself alone stays allowed" {
	fixture_trees
	run timeout 60 "$LATLAB" compare stock,./stock,stock/ rt,./rt,rt/ -o cmp
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"'stock' and './stock' are one tree, named twice in one list: a campaign counts once"* ]]
	[ ! -e cmp/compare.csv ]
	run timeout 60 "$LATLAB" compare stock,stock-2 rt --baseline rt-2,./stock -o cmp
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"'./stock' and 'stock' are one tree, named twice: its runs would count twice"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" history stock ./stock/ -o hist
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"'stock' and './stock/' are one tree, named twice"* ]]
	# a link to a tree is that tree
	ln -s stock stock-link
	run timeout 60 "$LATLAB" compare stock,stock-link rt -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"'stock' and 'stock-link' are one tree"* ]] || { echo "$output"; false; }
	# two copies are two trees; a tree against itself is one campaign a side
	run timeout 60 "$LATLAB" compare stock,stock-2 rt,rt-2 -o cmp
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" compare stock ./stock -o cmp2
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "an empty list or an empty item is exit 2 naming the option: --baseline '', ',', 'a,,b'; a side 'a,'; --over '50us,'; [thresholds] baseline = , before anything runs" {
	fixture_trees
	run timeout 60 "$LATLAB" compare stock --baseline "" -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"--baseline is empty: it names no tree"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" compare stock --baseline , -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"--baseline ',' has an empty item (1 of 2)"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" compare stock --baseline rt,,rt-2 -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"--baseline 'rt,,rt-2' has an empty item (2 of 3)"* ]] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" compare stock, rt -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"a side's list 'stock,' has an empty item (2 of 2)"* ]] || { echo "$output"; false; }
	[ ! -e cmp ]
	run timeout 60 "$LATLAB" compare stock rt --over 50us, -o cmp
	[ "$status" -eq 2 ] && [[ "$output" == *"--over '50us,' has an empty item (2 of 2)"* ]] || { echo "$output"; false; }
	# the campaign's gate: refused with its line, before any cell
	quick_config
	printf '[thresholds]\nbaseline = ,\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini -o out
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"c.ini:$(line_of c.ini baseline): baseline ',' has an empty item (1 of 2)"* ]] || { echo "$output"; false; }
	[ ! -e out ]
	# a baseline that names the campaign itself: refused before any cell
	printf '[thresholds]\nbaseline = stock,out/t\n' | ini_merge c.ini
	mkdir -p out/t
	run timeout 60 "$LATLAB" run c.ini -o out
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"baseline = stock,out/t: 'out/t' is this campaign's own tree (out/t): not a baseline of itself"* ]] || { echo "$output"; false; }
	[ -z "$(ls -A out/t)" ]
	# --margin 10 without '%': taken as 10 %, and said so
	run timeout 60 "$LATLAB" compare stock rt --margin 10 -o cmp
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"--margin 10: read as 10 %"* ]]
}
