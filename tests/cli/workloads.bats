#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# Every workload in a short cell; the failure paths of real I/O.

load helper

# wl_config [LINES...]: 1 s cells at 1 ms, with extra config lines
wl_config() {
	quick_config
	printf '%s\n' "$@" | ini_merge c.ini
}

# summary_field CELL-DIR METRIC COLUMN
summary_field() {
	awk -F, -v m="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$3 == m { print $k }' "$1/summary.csv" | head -1
}

@test "every workload runs a short cell: samples, no errors, bytes moved" {
	wl_config "[matrix]" \
		"workload = sysfs-read, file-read, file-write, fw-sync, fw-shm, pipe-rtt, pipe-proc, udp-rtt, udp-proc, dev-read, pi-mutex, pi-none" \
		"[workload.fw-sync]" "type = file-write" "sync = fdatasync" "path = $WORK/fw.dat" \
		"[workload.fw-shm]" "type = file-write" "path = /dev/shm/latlab-bats-$$.dat" \
		"[workload.pipe-proc]" "type = pipe-rtt" "peer = process" "peer_policy = fifo" \
		"[workload.udp-proc]" "type = udp-rtt" "peer = process" \
		"[workload.pi-none]" "type = pi-mutex" "protocol = none"
	run timeout 120 "$LATLAB" run c.ini --duration 500ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$WORK/out/t/cells.csv" status | sort -u)" = ok ]
	for d in "$WORK"/out/t/*/*/*/; do
		n=$(summary_field "$d" wakeup samples)
		e=$(summary_field "$d" wakeup errors)
		b=$(summary_field "$d" wakeup bytes)
		bps=$(summary_field "$d" wakeup bytes_per_s)
		# a floor that says the cell ran its periods, not how fast (the
		# host's timing is the judges' lane's): a SCHED_OTHER peer
		# process waits for a CPU behind the suite's other lanes (123
		# and 173 of 500 seen in a clean clone); an fdatasync waits for
		# the disk, which a busy machine shares (46 of 500 beside a CPU
		# hog and hackbench: 10 ms a write); pipe-rtt's FIFO thread peer
		# made 40 of 500 in a fresh check of 907edeb with a TCG machine
		# beside it
		case $d in *pi-none*) min=1 ;; *) min=10 ;; esac
		[ "$n" -ge "$min" ] && [ "$e" -eq 0 ] && [ "$b" -gt 0 ] && [ "$bps" -gt 0 ] \
			|| { echo "$d: samples $n errors $e bytes $b bps $bps"; cat "$d/log.txt"; false; }
	done
	# the file workloads left nothing behind
	[ ! -e /var/tmp/latlab-io.dat ] && [ ! -e "$WORK/fw.dat" ] && [ ! -e /dev/shm/latlab-bats-$$.dat ]
}

@test "sysfs-read of a value that does not parse counts errors and says so; no sample is an error" {
	printf '12 volts\n' >"$WORK/adc"
	wl_config "[workload.adc]" "type = sysfs-read" "path = $WORK/adc" \
		"[matrix]" "workload = adc"
	run timeout 60 "$LATLAB" run c.ini --duration 500ms
	[ "$status" -eq 3 ]
	[[ "$output" == *"thread 0 measured nothing: 0 samples"* ]] || run_failed
	D=$(cell_dir "$WORK/out/t" 0000-none-adc-t1-aspread-1)
	[ "$(summary_field "$D" wakeup samples)" -eq 0 ]
	[ "$(summary_field "$D" wakeup errors)" -ge 400 ]
	[ "$(summary_field "$D" wakeup first_errno)" -eq 74 ]	# EBADMSG
	grep -q 'thread 0: [0-9]* I/O errors, the first: Bad message' "$D/log.txt"
	[[ "$output" == *"errors"* ]]
}

@test "i2c-read without an i2c bus: the cell is skipped, the run goes on" {
	wl_config "[workload.i2c]" "type = i2c-read" "bus = 254" "address = 0x4b" \
		"[matrix]" "workload = i2c, timer"
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 0 ]
	[[ "$output" == *"0000-none-i2c-t1-aspread-1: skipped: no /dev/i2c-254"* ]]
	grep -q '^t,0000-none-i2c-t1-aspread-1,.*,skipped,no /dev/i2c-254,' "$WORK/out/t/cells.csv"
	grep -q 'skipped: no /dev/i2c-254' "$WORK"/out/t/*/*/0000*/log.txt
	grep -q '^0001-none-timer-t1-aspread-1 = ok$' "$WORK/out/t/state"
}

@test "every cell skipped is exit 3" {
	wl_config "[workload.i2c]" "type = i2c-read" "bus = 254" "[matrix]" "workload = i2c"
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 3 ]
	[[ "$output" == *"every cell was skipped"* ]]
}

@test "file-write into a read-only directory: clear error, exit 3, other cells kept" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	mkdir -p "$WORK/ro"
	mount -t tmpfs -o size=1m,ro tmpfs "$WORK/ro" || skip "cannot mount"
	wl_config "[workload.ro]" "type = file-write" "path = $WORK/ro/f.dat" \
		"[matrix]" "workload = timer, ro"
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	umount "$WORK/ro"
	[ "$status" -eq 3 ]
	[[ "$output" == *"cannot create $WORK/ro/f.dat: Read-only file system"* ]]
	grep -q '^0000-none-timer-t1-aspread-1 = ok$' "$WORK/out/t/state"
	grep -q '^0001-none-ro-t1-aspread-1 = error$' "$WORK/out/t/state"
	[ -s "$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)/summary.csv" ]
}

@test "file-write into a full tmpfs: clear error, exit 3, other cells kept" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	mkdir "$WORK/full"
	mount -t tmpfs -o size=1m tmpfs "$WORK/full" || skip "cannot mount"
	wl_config "[workload.full]" "type = file-write" "path = $WORK/full/f.dat" "region = 8MiB" \
		"[matrix]" "workload = timer, full"
	run timeout 60 "$LATLAB" run c.ini --duration 300ms
	[ "$status" -eq 3 ]
	[[ "$output" == *"preparing the 8388608-byte region of $WORK/full/f.dat: No space left on device"* ]]
	[ -z "$(ls -A "$WORK/full")" ]		# and nothing left in it
	grep -q '^0000-none-timer-t1-aspread-1 = ok$' "$WORK/out/t/state"
}

@test "file-write refuses a path that exists, and a symlink" {
	echo precious >"$WORK/precious"
	ln -s "$WORK/precious" "$WORK/link"
	for p in precious link; do
		wl_config "[workload.w]" "type = file-write" "path = $WORK/$p" "[matrix]" "workload = w"
		run timeout 60 "$LATLAB" run c.ini --duration 300ms
		[ "$status" -eq 3 ]
		[[ "$output" == *"$WORK/$p exists: latlab only writes files it creates"* ]]
		rm -rf "$WORK/out"
	done
	[ "$(cat "$WORK/precious")" = precious ]
}

@test "samples = on: samples.bin holds every sample; export --format csv converts it" {
	wl_config "[matrix]" "threads = 2" "affinity = 0"
	run timeout 60 "$LATLAB" run c.ini --set campaign.samples=on --duration 1s -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t2-a0-1)
	[ -s "$D/samples.bin" ]
	grep -q '^samples_dropped = 0$' "$D/cell.ini"
	n=$(awk -F, '$3 == "wakeup" { s += $4 } END { print s }' "$D/summary.csv")
	grep -q "^samples_written = $n\$" "$D/cell.ini"
	run "$LATLAB" export --format csv "$D" -o "$WORK/s.csv"
	[ "$status" -eq 0 ]
	[ "$(head -1 "$WORK/s.csv")" = "t_ns,thread,metric,value_ns" ]
	[ "$(tail -n +2 "$WORK/s.csv" | wc -l)" -eq $((3 * n)) ]
	# the exported maximum is the summary's exact max
	want=$(awk -F, '$1 == 0 && $3 == "wakeup" { print $13 }' "$D/summary.csv")
	got=$(awk -F, '$2 == 0 && $3 == "wakeup" && $4 > m { m = $4 } END { print m }' "$WORK/s.csv")
	[ "$want" = "$got" ]
	# wake times step by the interval
	awk -F, '$2 == 1 && $3 == "io" { if (p && ($1 - p) % 1000000) bad = 1; p = $1 } END { exit bad }' "$WORK/s.csv"
}

@test "export: bad format, missing samples, not a samples file" {
	run "$LATLAB" export --format xml "$WORK"
	[ "$status" -eq 2 ]
	run "$LATLAB" export --format csv "$WORK"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no samples.bin (run with [campaign] samples = on)"* ]]
	echo junk >"$WORK/x.bin"
	run "$LATLAB" export --format csv "$WORK/x.bin"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a latlab samples file"* ]]
	run "$LATLAB" export "$WORK"
	[ "$status" -eq 2 ]
}

@test "mq-rtt, sem-rtt, signal-rtt: round trips to thread and process peers, no errors" {
	wl_config "[matrix]" "threads = all" \
		"workload = mq-thr, mq-proc, sem-thr, sem-proc, signal-thr, signal-proc" \
		"[workload.mq-thr]" "type = mq-rtt" "peer_policy = fifo" \
		"[workload.mq-proc]" "type = mq-rtt" "peer = process" "peer_policy = fifo" \
		"[workload.sem-thr]" "type = sem-rtt" "peer_policy = fifo" \
		"[workload.sem-proc]" "type = sem-rtt" "peer = process" "peer_policy = fifo" \
		"[workload.signal-thr]" "type = signal-rtt" "peer_policy = fifo" \
		"[workload.signal-proc]" "type = signal-rtt" "peer = process" "peer_policy = fifo"
	run timeout 120 "$LATLAB" run c.ini --duration 500ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$WORK/out/t/cells.csv" status | sort -u)" = ok ]
	for d in "$WORK"/out/t/*/*/*/; do
		n=$(summary_field "$d" io samples)
		e=$(summary_field "$d" io errors)
		p50=$(summary_field "$d" io p50_ns)
		# 50 of 500: the cell ran (every peer, thread or process, at
		# FIFO: a SCHED_OTHER one waits behind the suite's other lanes —
		# sem-proc's took 38 round trips of 500 beside a hog and
		# hackbench, sem-rtt's thread peer 47 in a fresh check of 706e2f1)
		[ "$n" -ge 50 ] && [ "$e" -eq 0 ] && [ "$p50" -gt 0 ] \
			|| { echo "$d: samples $n errors $e p50 $p50"; cat "$d/log.txt"; false; }
	done
	# no queue left behind under any name
	! ls /dev/mqueue 2>/dev/null | grep -q '^latlab-'
}

@test "a peer process that dies mid-cell: its round trips time out, counted as errors" {
	for type in mq-rtt sem-rtt signal-rtt; do
		rm -rf "$WORK/out"
		wl_config "[matrix]" "workload = w" "[workload.w]" "type = $type" \
			"peer = process" "timeout = 5ms"
		"$LATLAB" run c.ini --duration 3s -q >"$WORK/log" 2>&1 &
		pid=$!
		peer=""
		for _ in $(seq 100); do
			peer=$(pgrep -P "$pid" -x latlab) && break
			sleep 0.05
		done
		[ -n "$peer" ] || { echo "$type: no peer"; cat "$WORK/log"; false; }
		sleep 0.5
		kill -KILL "$peer"
		wait "$pid" || true
		D=$(cell_dir "$WORK/out/t" '0000-*')
		e=$(summary_field "$D" wakeup errors)
		[ "$e" -ge 10 ] || { echo "$type: errors $e"; cat "$D/log.txt"; false; }
		grep -q 'I/O errors, the first: Connection timed out' "$D/log.txt"
	done
}

@test "udp-rtt to = ADDR:PORT: round trips to latload echo on another machine (here: this one's own address), said in cell.ini; nobody there is counted errors; a bad address is exit 2 at its line" {
	LATLOAD=$(dirname "$LATLAB")/latload
	# a free port: the kernel's choice for a socket that then closes
	port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# the responder at SCHED_FIFO 50 (below the measured thread's 90), as
	# on a drive's side: a busy machine's CFS does not starve the answer
	"$LATLOAD" echo --port "$port" --bind 127.0.0.1 --priority 50 --duration 60s >"$WORK/echo.out" 2>&1 &
	echo_pid=$!
	sleep 0.5
	wl_config "[matrix]" "workload = far" "[workload.far]" "type = udp-rtt" "to = 127.0.0.1:$port"
	run timeout 120 "$LATLAB" run c.ini --duration 1s -q
	kill -TERM "$echo_pid"
	wait "$echo_pid" || true
	[ "$status" -eq 0 ] || { echo "$output"; cat "$WORK/echo.out"; false; }
	D=$(cell_dir "$WORK/out/t" '0000-*')
	grep -qx "net = to 127.0.0.1:$port" "$D/cell.ini"
	grep -q '^net_note = to a peer on another machine (latload echo there)' "$D/cell.ini"
	n=$(summary_field "$D" io samples)
	e=$(summary_field "$D" io errors)
	[ "$n" -ge 50 ] && [ "$e" -eq 0 ] || { echo "samples $n errors $e"; cat "$D/log.txt"; false; }
	# the responder answered what latlab sent, and said so on its way out
	ops=$(sed -n 's/^latload-result type=echo ops=\([0-9]*\) .*/\1/p' "$WORK/echo.out")
	[ -n "$ops" ] && [ "$ops" -ge "$n" ] || { cat "$WORK/echo.out"; false; }
	# no echo there any more: every round trip an error, the first said
	rm -rf "$WORK/out"
	wl_config "[matrix]" "workload = far" "[workload.far]" "type = udp-rtt" "to = 127.0.0.1:$port" "timeout = 10ms"
	run timeout 120 "$LATLAB" run c.ini --duration 500ms -q
	D=$(cell_dir "$WORK/out/t" '0000-*')
	e=$(summary_field "$D" wakeup errors)
	[ "$e" -ge 10 ] || { echo "errors $e"; cat "$D/log.txt"; false; }
	grep -Eq 'I/O errors, the first: (Connection refused|Connection timed out)' "$D/log.txt"
	# an address that is not one: exit 2 at the key's line, nothing run
	rm -rf "$WORK/out"
	wl_config "[matrix]" "workload = far" "[workload.far]" "type = udp-rtt" "to = 127.0.0.1"
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	line=$(grep -n '^\[workload.far\]$' c.ini | cut -d: -f1)
	[[ "$output" == *"c.ini:$line: [workload.far]: udp-rtt: to = '127.0.0.1': expected ADDR:PORT"* ]] || { echo "$output"; false; }
	[ ! -e "$WORK/out/t" ]
}

@test "compute: loops = N each period, time = D each period (io at least D), in a chain; neither, both, or D past the period is exit 2" {
	wl_config "[matrix]" "workload = n, d, loop" \
		"[workload.n]" "type = compute" "loops = 20000" \
		"[workload.d]" "type = compute" "time = 100us" \
		"[workload.loop]" "type = chain" "steps = n, d"
	run timeout 120 "$LATLAB" run c.ini --duration 500ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$(cell_dir "$WORK/out/t" '0001-*')
	[ "$(summary_field "$D" io min_ns)" -ge 100000 ]
	D=$(cell_dir "$WORK/out/t" '0002-*')
	[ "$(summary_field "$D" io min_ns)" -ge 100000 ]
	[ "$(summary_field "$D" io_step2 min_ns)" -ge 100000 ]
	rm -rf "$WORK/out"
	# neither; both; a time the 1 ms period cannot hold
	for bad in "loops = 0|give exactly one of loops" "time = 10us|give exactly one of loops" \
		   "time = 1ms|every period would be missed"; do
		key=${bad%%|*} want=${bad#*|}
		first="loops = 10"
		[ "$key" != "time = 1ms" ] || first="loops = 0"
		wl_config "[matrix]" "workload = n" "[workload.n]" "type = compute" "$first" "$key"
		run "$LATLAB" run c.ini
		[ "$status" -eq 2 ] || { echo "$key: $output"; false; }
		[[ "$output" == *"c.ini:"*"$want"* ]] || { echo "$key: $output"; false; }
		[ ! -e "$WORK/out/t" ]
	done
}
