# What trace.bats (the captures judged, with the judges) and trace_runs.bats
# (the instance's lifetime and the refusals, in the measuring lane) share:
# the rt-hog config, the top-level tracing state, latlab's pid, its
# instance.
TRACEFS=/sys/kernel/tracing

# hog_config [EXTRA-TRACE-LINES...]: a measured thread at priority 80 on
# CPU 1 and an rt-hog at 95 on the same CPU, busy 20 ms every 200 ms; a
# capture above 15 ms, above this VM's own stalls (the host's steal time
# gave gaps of 4-12 ms on the morning of 2026-12-03, when a 6 ms threshold
# let three of them take every capture before the hog's 10 ms came)
hog_config() {
	write_config c.ini <<EOC
[campaign]
name = t
duration = 2s
output = $WORK/out

[matrix]
load = hog
affinity = 1
priority = 80

[load.hog]
type = rt-hog
cpus = 1
priority = 95
busy = 20ms
every = 200ms

[trace]
mode = spikes
threshold = 15ms
captures = 3
EOC
	printf '[trace]\n%s\n' "$@" | ini_merge c.ini
}

# the top-level tracing state latlab must never change (not the list of
# instances: other programs' come and go; a latlab's own is checked by
# its pid, inst_of), as the kernel prints it
top_state() {
	for f in tracing_on current_tracer trace_clock set_event buffer_size_kb \
		 tracing_cpumask; do
		echo "$f: $(cat $TRACEFS/$f)"
	done
}

# buffer_kb_same BEFORE AFTER SUBBUF-KB: the top-level buffer_size_kb is
# what it was. Until anything traces after boot it reads "7 (expanded:
# 1408)": the buffer is not allocated yet, and the first instance anyone
# makes (latlab's too) allocates it — a kernel's side effect, not a
# setting changed. Allocated, it reads the size rounded up to whole
# sub-buffers less their headers: 1410 for 1408 with 4 KiB sub-buffers
# (354 pages of 4,080 bytes). So an unallocated BEFORE matches itself or
# any size in [expanded, expanded + one sub-buffer); an allocated one
# matches itself only. (The old check mapped "7 (expanded: 1408)" to
# 1408 and failed on every machine that had never traced: issue 56.)
buffer_kb_same() {
	local before=$1 after=$2 sub=$3 want
	[ "$before" = "$after" ] && return 0
	want=$(printf '%s\n' "$before" | sed -n 's/^[0-9]* (expanded: \([0-9]*\))$/\1/p')
	[ -n "$want" ] && [[ "$after" =~ ^[0-9]+$ ]] &&
		[ "$after" -ge "$want" ] && [ "$after" -lt $((want + sub)) ]
}

# top_unchanged BEFORE: the top-level state now is BEFORE's (top_state),
# said line by line where it is not
top_unchanged() {
	local after f b a sub bad=0
	after=$(top_state)
	sub=$(cat $TRACEFS/buffer_subbuf_size_kb 2>/dev/null || echo $(($(getconf PAGESIZE) / 1024)))
	while IFS= read -r b && IFS= read -r a <&3; do
		f=${b%%:*}
		[ "$b" = "$a" ] && continue
		[ "$f" = buffer_size_kb ] &&
			buffer_kb_same "${b#*: }" "${a#*: }" "$sub" && continue
		echo "top-level $f changed: '${b#*: }' before, '${a#*: }' after"
		bad=1
	done < <(printf '%s\n' "$1") 3< <(printf '%s\n' "$after")
	[ "$bad" -eq 0 ] || ls $TRACEFS/instances
	return "$bad"
}

# run_pid SECONDS ARGS...: run latlab ARGS under timeout, as `run` does,
# its pid in LPID (the shell that records it execs latlab)
run_pid() {
	local t=$1
	shift
	run timeout "$t" sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/latlab.pid" "$LATLAB" "$@"
	LPID=$(cat "$WORK/latlab.pid")
}

setup_file() {
	[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
	mount | grep -q " $TRACEFS type tracefs" || mount -t tracefs nodev $TRACEFS
}

# hog_culprits CELL-DIR: every capture complete, the rt-hog's in one at
# least, and each capture one of:
# - the hog's (rt-thread, by name and pid, one process throughout), with
#   80 % of the latency at least where nothing else was seen: no gap in
#   the note and no steal in the poll (seen: 2.6 ms unexplained and 2.2 ms
#   in an IRQ beside the hog where the VM stalled);
# - a gap, a stretch with no event at all, which only the VM's hypervisor
#   makes here and which is unexplained by design (seen: "no event for
#   7341 us (CPU idle)" beside two rt-thread captures);
# - an interrupt handler no longer than the steal beside it: a vCPU
#   stalled inside a handler, shorter than the tick that would make it a
#   gap, cannot be told from the handler's work (seen: 2.8 ms in the
#   tick's handler, 10 ms stolen in the poll; docs/spikes.md)
hog_culprits() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		function bad(why) { printf "capture %d: %s\n", $c["capture"], why; fail = 1 }
		{
			k = $c["culprit_kind"]; cns = $c["culprit_ns"] + 0; lat = $c["latency_ns"] + 0
			steal = $c["steal_ns"] + 0
			if ($c["complete"] != 1)
				bad("incomplete")
			else if (k == "rt-thread") {
				hog++
				if ($c["culprit"] !~ /^latload:[0-9]+ \(SCHED_FIFO 95\)$/)
					bad("another rt-thread")
				names[$c["culprit"]] = 1
				if ($c["note"] !~ /gap/ && steal == 0 && cns * 100 < lat * 80)
					bad("the hog has less than 80 % with no gap and no steal")
			} else if (k == "unexplained") {
				if ($c["culprit"] !~ /^no event for /)
					bad("unexplained, not a gap")
			} else if (k == "irq") {
				if (cns > steal)
					bad("an interrupt longer than the steal beside it")
			} else
				bad("culprit kind " k)
		}
		END {
			n = 0; for (x in names) n++
			if (!hog) bad("no capture names the hog")
			if (n > 1) bad("more than one hog")
			exit fail
		}' "$1/spikes.csv" || { cat "$1/spikes.csv"; false; }
}

# bpf_usable: this latlab has BPF's programs built in and the kernel its BTF
bpf_usable() {
	[ -r /sys/kernel/btf/vmlinux ] && "$LATLAB" --version | grep -q ', bpf ('
}

bpf_or_skip() {
	bpf_usable || skip "no BPF here (this latlab or kernel)"
}

# kill_session PID: SIGKILL to the latlab PID (a session of its own:
# setsid), then until its session has no process left (up to 10 s)
kill_session() {
	kill -KILL "$1"
	wait "$1" || true
	for _ in $(seq 100); do
		[ -z "$(ps -o pid= -s "$1")" ] && break
		sleep 0.1
	done
}

inst_of() {
	compgen -G "$TRACEFS/instances/latlab-$1-*" >/dev/null
}

# wait_instance PID: until latlab-PID-NS exists (up to 20 s)
wait_instance() {
	for _ in $(seq 200); do
		inst_of "$1" && return 0
		sleep 0.1
	done
	echo "no instance latlab-$1-*"
	false
}
