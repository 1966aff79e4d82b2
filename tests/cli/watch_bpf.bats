#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# Watching through BPF (issue 61) on this machine, whose kernel has BTF and
# BPF but no histogram triggers: cyclictest watched from outside, its own
# histogram against the kernel's count of its thread; latlab's own thread
# measured both ways at once ([trace] watch = on); nothing left attached
# after a SIGKILL; the refusals (no BTF, no capabilities, method = hist
# here). Each program measured is the test's own, found by its pid.

load helper

bpf_built() {
	"$LATLAB" --version | grep -q '^features: .*, bpf (' || skip "this latlab was built without BPF"
	[ -r /sys/kernel/btf/vmlinux ] || skip "this kernel has no BTF"
}

# p_of SUMMARY METRIC THREAD FIELD
p_of() {
	awk -F, -v m="$2" -v t="$3" -v f="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == m && $h["thread"] == t { print $h[f] }' "$1"
}

@test "latlab watch through BPF: cyclictest's own histogram against the kernel's count of its thread, at least 95 % of its wake-ups" {
	bpf_built
	command -v cyclictest >/dev/null || skip "no cyclictest (rt-tests)"
	# cyclictest: 2,500 wake-ups at 1 ms, then it ends; latlab watches from
	# 500 ms after starting it (its settle, then the programs' load) until
	# it ends
	run timeout 60 "$LATLAB" watch --method bpf -q --duration 20s -o "$WORK/o" \
		--command "cyclictest -t1 -p80 -i1000 -l 2500 -q -m -h 2000 --histfile=$WORK/ct.hist"
	[ "$status" -le 1 ] || run_failed
	C=$(cell_dir "$WORK/o/watch" '0000-*')
	grep -qx 'watch = on' "$C/cell.ini" && grep -qx 'watch_method = bpf' "$C/cell.ini" || { cat "$C/cell.ini"; false; }
	grep -q 'ended .* into the cell' "$C/log.txt" || { cat "$C/log.txt"; false; }
	# its measuring thread: the one that woke every period
	t=$(awk -F, 'NR > 1 && $3 == "watch_timer" { print $4, $1 }' "$C/summary.csv" | sort -n | tail -1 | cut -d' ' -f2)
	n=$(p_of "$C/summary.csv" watch_timer "$t" samples)
	total=$(awk '/^# Total:/ { print $3 + 0 }' "$WORK/ct.hist")
	[ "$total" -ge 2490 ] && [ "$total" -le 2500 ] || { echo "cyclictest's own count: $total"; false; }	# -l 2500: its histogram holds 2,499
	# the periods before the watch began: the log's ms from starting it to watching (1 a ms at most)
	before=$(( $(log_ms_between "$C/log.txt" 'watch: started ' 'watch: pid .* threads, for ') + 1 ))
	echo "cyclictest: $total wake-ups, $before ms before the watch; watch_timer of thread $t: $n"
	[ "$before" -ge 500 ] && [ "$before" -lt 2500 ] || false
	[ "$n" -ge $(( (total - before) * 95 / 100 )) ] && [ "$n" -le "$total" ] || false
	# cyclictest's own median (1 us buckets)
	ct=$(awk '!/^#/ { n += $2; c[$1 + 0] = $2 } END { s = 0; for (i = 0; i < 2000; i++) { s += c[i]; if (s * 2 >= n) { print i; exit } } }' "$WORK/ct.hist")
	[ -n "$ct" ]
	kp=$(p_of "$C/summary.csv" watch_timer "$t" p50_ns)
	# the kernel's expiry-to-running ends where cyclictest's wake-up reads
	# its clock, so wake-up by wake-up it is the smaller; but the two
	# medians are not of the same wake-ups (cyclictest's has the ~0.5 s
	# before the watch began too), and on this VM's host clock, beside the
	# suite's own load, they part by more than any bound a test can hold:
	# 15 against 16.1 us and 14 against 17.9 (two clean clones, 2026-12-05),
	# 51 against 39.9 on a fresh busy machine (2026-12-06). How close they
	# are is the instruction clock's question (tests/cli/guests/watch.bats:
	# latlab - kernel 1.2 us at every percentile) and the bench's; here
	# only what a wrong pairing or a clock's offset would break: the
	# kernel's median is a wake-up's (1 us or more, under 1 ms) and no
	# more than cyclictest's own half again (the triggers' 154 ms pairs,
	# or an offset, are far outside)
	echo "cyclictest p50 $ct us, watch_timer p50 $kp ns, n $n"
	[ "$kp" -ge 1000 ] && [ "$kp" -le 1000000 ] && [ "$kp" -le $(( (ct + 1) * 1500 )) ]
}

@test "[trace] watch = on through BPF: latlab's own thread seen both ways, the kernel's timer-to-running below its wake-up at every percentile" {
	bpf_built
	write_config c.ini <<EOC
[campaign]
name = t
duration = 2s
output = $WORK/out
[matrix]
affinity = 1
interval = 1ms
[trace]
watch = on
EOC
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -le 1 ] || run_failed
	C=$(cell_dir "$WORK/out/t" '0000-*')
	grep -qx 'watch_method = bpf' "$C/cell.ini" || { cat "$C/cell.ini"; false; }
	S=$C/summary.csv
	wn=$(p_of "$S" wakeup 0 samples)
	kn=$(p_of "$S" watch_timer 0 samples)
	# every wake-up that slept on its timer counted by the kernel too (a
	# period missed is one neither sees). A thread preempted between its
	# work and its sleep, on a busy machine, finds its next time already
	# past: clock_nanosleep returns at once, no timer is armed, and the
	# kernel has no expiry to count — 34 of 1,993 beside a CPU hog and
	# hackbench (2026-12-06), none on a quiet machine; held to 95 %
	[ "$kn" -ge $(( wn * 95 / 100 )) ] && [ "$kn" -le $(( wn + 2 )) ] || { echo "wakeup $wn, watch_timer $kn"; false; }
	for f in p50_ns p90_ns p99_ns; do
		w=$(p_of "$S" wakeup 0 "$f")
		k=$(p_of "$S" watch_timer 0 "$f")
		echo "$f: wakeup $w, watch_timer $k"
		# the kernel's count ends at the switch-in, before the thread reads its clock;
		# its log-linear buckets put a value at their middle: up to 1/25 of it above
		# (a 4 us bucket at 100 us), latlab's own 1/256 (seen: p99 100.6 / 104.4 us)
		[ "$k" -le $(( w + w / 16 )) ] || false
	done
}

@test "a program of more threads than a watch holds: the first 64 watched, the rest counted and said (stderr, cell.ini)" {
	bpf_built
	command -v cc >/dev/null || skip "no C compiler"
	# 70 threads, each waking every 10 ms for 3 s, and its main thread
	cat >"$WORK/threads.c" <<'EOC'
#include <pthread.h>
#include <unistd.h>
static void *nap(void *arg)
{
	for (int i = 0; i < 300; i++)
		usleep(10000);
	return arg;
}
int main(void)
{
	pthread_t t[70];
	for (int i = 0; i < 70; i++)
		pthread_create(&t[i], NULL, nap, NULL);
	for (int i = 0; i < 70; i++)
		pthread_join(t[i], NULL);
	return 0;
}
EOC
	cc -pthread -o "$WORK/threads" "$WORK/threads.c"
	run timeout 60 "$LATLAB" watch --method bpf --duration 1s -o "$WORK/o" --command "$WORK/threads"
	[ "$status" -le 1 ] || run_failed
	[[ "$output" == *"watch: pid "*" has 7 threads more than the 64 a watch holds: the first 64 are watched, the rest not"* ]] || run_failed
	C=$(cell_dir "$WORK/o/watch" '0000-*')
	grep -qx 'watch_unwatched = 7' "$C/cell.ini" || { cat "$C/cell.ini"; false; }
	# the main thread, which only waits to join, did not wake: 63 named,
	# each whole (the field once cut the list at 1,023 characters)
	grep -q 'watch: tid [0-9]* (threads) did not wake in the cell' "$C/log.txt"
	sed -n 's/^watch_threads = //p' "$C/cell.ini" | tr ',' '\n' >"$WORK/named"
	[ "$(grep -c '^ *[0-9]*:[0-9]*:threads$' "$WORK/named")" -eq 63 ] || { cat "$WORK/named"; false; }
}

@test "a latlab killed while it watches through BPF leaves no program attached" {
	bpf_built
	command -v bpftool >/dev/null || skip "no bpftool"
	"$LATLAB" watch --method bpf -q --duration 30s -o "$WORK/o" \
		--command "cyclictest -t1 -p80 -i1000 -D 40 -q" >"$WORK/log" 2>&1 &
	pid=$!
	# its programs, by the descriptors its pid holds (fdinfo's prog_id)
	ids=""
	for _ in $(seq 1 100); do
		ids=$(cat /proc/"$pid"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -u)
		[ "$(wc -w <<<"$ids")" -ge 4 ] && break
		sleep 0.1
	done
	[ "$(wc -w <<<"$ids")" -eq 4 ] || { echo "programs of latlab $pid: '$ids'"; kill -9 "$pid"; false; }
	for id in $ids; do
		bpftool prog show id "$id" | grep -q 'name ll_watch_' || { echo "program $id is not latlab's"; kill -9 "$pid"; false; }
	done
	kill -9 "$pid"
	wait "$pid" || true
	# the kernel frees a program once its last descriptor is closed (after an RCU grace period)
	for id in $ids; do
		for _ in $(seq 1 50); do
			bpftool prog show id "$id" >/dev/null 2>&1 || break
			sleep 0.1
		done
		! bpftool prog show id "$id" >/dev/null 2>&1 || { echo "program $id still loaded after 5 s"; false; }
	done
	# the program latlab started goes with it (its parent-death signal)
	for _ in $(seq 1 50); do pgrep -P "$pid" >/dev/null || break; sleep 0.1; done
}

@test "[trace] watch through BPF at a checkpoint: a killed cell's partial files hold the kernel's histograms so far" {
	bpf_built
	write_config c.ini <<EOC
[campaign]
name = ck
duration = 30s
checkpoint = 1s
output = $WORK/out
[matrix]
affinity = 1
[trace]
watch = bpf
EOC
	"$LATLAB" run c.ini -q >"$WORK/log" 2>&1 &
	pid=$!
	C=""
	for _ in $(seq 1 100); do
		C=$(echo "$WORK"/out/ck/*/*/0000-*)
		grep -qs '^status = partial' "$C/cell.ini" && [ -s "$C/summary.csv" ] && break
		sleep 0.1
	done
	sleep 1.2	# a second checkpoint: a whole second's wake-ups in it
	kill -KILL "$pid"
	wait "$pid" || true
	grep -q '^status = partial' "$C/cell.ini" || { cat "$WORK/log"; false; }
	w=$(p_of "$C/summary.csv" wakeup 0 samples)
	k=$(p_of "$C/summary.csv" watch_timer 0 samples)
	echo "partial: wakeup $w, watch_timer $k"
	[ -n "$k" ] && [ "$k" -ge 900 ] && [ "$k" -ge $(( w * 9 / 10 )) ]
}

@test "watch through BPF refused where it cannot be: no BTF, no capabilities; method = hist where the kernel has no triggers (exit 2, nothing written)" {
	bpf_built
	write_config c.ini <<EOC
[campaign]
name = w
duration = 1s
output = $WORK/out
[matrix]
workload = app
[workload.app]
type = watch
pid = $$
method = bpf
EOC
	run env LATLAB_FAKE_BTF=/nonexistent/vmlinux "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:10: [workload.app] type = watch: method = bpf: this kernel has no BTF (/nonexistent/vmlinux: No such file or directory; CONFIG_DEBUG_INFO_BTF)"* ]] || run_failed
	command -v setpriv >/dev/null || skip "no setpriv"
	run setpriv --inh-caps=-all --bounding-set=-all "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:10: [workload.app] type = watch: method = bpf: watching through BPF needs CAP_BPF and CAP_PERFMON (or root)"* ]] || run_failed
	run setpriv --inh-caps=-all --bounding-set=-all "$LATLAB" watch --pid $$ --method bpf -o "$WORK/o"
	[ "$status" -eq 2 ] && [[ "$output" == *"watch: method = bpf: watching through BPF needs CAP_BPF"* ]] || run_failed
	if [ ! -e /sys/kernel/tracing/synthetic_events ]; then
		sed -i 's/^method = bpf$/method = hist/' "$WORK/c.ini"
		run "$LATLAB" plan c.ini
		[ "$status" -eq 2 ] && [[ "$output" == *"c.ini:10: [workload.app] type = watch: this kernel has no histogram triggers"* ]] || run_failed
		# auto: BPF here, and plan says so
		sed -i '/^method = /d' "$WORK/c.ini"
		run "$LATLAB" plan c.ini
		[ "$status" -eq 0 ] && [[ "$output" == *"[workload.app] type = watch: through BPF on this machine (method = auto)"* ]] || run_failed
		# [trace] watch = hist here: the cells run without it, said
		run "$LATLAB" plan c.ini --set trace.watch=hist --set matrix.workload=timer
		[ "$status" -eq 0 ] && [[ "$output" == *"[trace] watch: off on this machine, the cells run without it: this kernel has no histogram triggers"* ]] || run_failed
	fi
	[ ! -e "$WORK/out" ] && [ ! -e "$WORK/o" ]
}
