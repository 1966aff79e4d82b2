#!/usr/bin/env bash
# latlab's timer workload against rt-tests' cyclictest, side by side.
#
# Runs both alternately, ROUNDS times, with the same interval, priority,
# affinity (thread N on CPU N), thread count and duration, first on an
# idle machine and then under rt-tests' hackbench. Prints per round each
# side's samples, min, p50, p99, max and process CPU time per sample, the
# ratios latlab/cyclictest of p50 and p99, and the medians of the ratios.
#
#   bench/vs-cyclictest.sh            (LATLAB=build/latlab ROUNDS=8 DURATION=10;
#                                     the sign test calls nothing from fewer than 6 rounds)
#   COMMITS="1d216d2 HEAD" bench/vs-cyclictest.sh
#       the latlab of each commit (built in a scratch worktree), each
#       round all of them beside cyclictest: what the measuring path
#       gained or lost between commits, side by side in one run
#   MODES="hackbench"                 (default "idle hackbench")
#
# Each ratio latlab/cyclictest (min, p50, p99) is called by a paired sign
# test over the rounds (n, two-sided p): a difference is said only where
# the rounds' split says it, not from a median of ratios alone. latlab's
# exit 1 (a cell missed periods or failed a threshold) or 2 does not stop
# the bench: it says so and goes on (a round with no data is left out).
# Percentiles are taken over all threads' wake-up latencies together.
# cyclictest keeps its histogram in 1 ns bins (-N; the wake-ups past 1 ms
# at its maximum); latlab's percentiles are recomputed the same way from
# hist.csv (a bucket's upper edge: <= 0.39 % high).
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-8}
DURATION=${DURATION:-10}
INTERVAL_US=${INTERVAL_US:-1000}
PRIO=${PRIO:-90}
THREADS=${THREADS:-$(nproc)}
HB_GROUPS=${HB_GROUPS:-2}
MODES=${MODES:-idle hackbench}
COMMITS=${COMMITS:-}

command -v cyclictest >/dev/null || { echo "needs rt-tests (make deps)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO" >&2; exit 2; }

tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
hb_pid=
cleanup() {
	[ -n "$hb_pid" ] && kill -TERM -- "-$hb_pid" 2>/dev/null
	for c in $COMMITS; do git worktree remove --force "$tmp/c-$c" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# the sides: "label path" of each latlab (COMMITS: one built per commit)
sides=()
if [ -z "$COMMITS" ]; then
	sides=("latlab $LATLAB")
else
	for c in $COMMITS; do
		git worktree add -f --detach "$tmp/c-$c" "$c" >/dev/null 2>&1 ||
			{ echo "vs-cyclictest: no commit $c" >&2; exit 2; }
		make -s -C "$tmp/c-$c" -j"$(nproc)" build/latlab >/dev/null 2>&1 ||
			{ echo "vs-cyclictest: $c does not build" >&2; exit 2; }
		sides+=("latlab@$(git rev-parse --short "$c") $tmp/c-$c/build/latlab")
	done
fi

cat >"$tmp/bench.ini" <<EOC
[campaign]
name = bench
duration = ${DURATION}s
output = $tmp/out
[matrix]
workload = timer
threads = $THREADS
affinity = spread
interval = ${INTERVAL_US}us
priority = $PRIO
EOC

# "samples min p50 p99 max" in us from "value_us count" lines
stats() {
	sort -n | awk '{ v[NR] = $1; c[NR] = $2; n += $2 }
	END {
		if (n == 0) { print "0 0 0 0 0"; exit }
		r50 = n * 0.50; r99 = n * 0.99
		for (i = 1; i <= NR; i++) {
			s += c[i]
			if (!p50 && s >= r50) p50 = v[i]
			if (!p99 && s >= r99) p99 = v[i]
		}
		printf "%d %.3f %.3f %.3f %.3f\n", n, v[1], p50, p99, v[NR]
	}'
}

# run_cyclictest: prints "samples min p50 p99 max cpu_ns_per_sample"
run_cyclictest() {
	local t
	TIMEFORMAT='%3U %3S'
	# -N: its histogram in 1 ns bins (1 us bins put a 4.6 us minimum
	# anywhere in [4, 5)), the first 400 us of them (writing the file is in
	# its cpu: 1 ms of bins tripled it, to ~32 us a sample)
	t=$( { time cyclictest -m -q -N -p "$PRIO" -i "$INTERVAL_US" -d 0 \
		-t "$THREADS" -a -D "$DURATION" -h 400000 \
		--histfile="$tmp/ct.hist" >/dev/null 2>&1; } 2>&1 )
	# bucket rows: "004869 000001 000000" -> merged "4.869 1"; the
	# wake-ups past 400 us (its overflows, per thread) at the largest of
	# its maxima: exact for the maximum, and for p50 and p99 unless more
	# than 1 % of them are past 400 us (said)
	local s
	s=$(awk '/^# Total:/ { for (i = 3; i <= NF; i++) all += $i }
		/^# Max Latencies:/ { for (i = 4; i <= NF; i++) if ($i + 0 > mx) mx = $i + 0 }
		/^# Histogram Overflows:/ { for (i = 4; i <= NF; i++) ov += $i }
		!/^#/ { n = 0; for (i = 2; i <= NF; i++) n += $i; if (n) printf "%.3f %d\n", $1 / 1000, n }
		END {
			if (ov) printf "%.3f %d\n", mx / 1000, ov
			if (ov * 100 > all) printf "# cyclictest: %d of %d wake-ups past 400 us: its p99 is placed at its maximum\n", ov, all > "/dev/stderr"
		}' "$tmp/ct.hist" | stats)
	echo "$s $(awk -v t="$t" -v n="${s%% *}" 'BEGIN { split(t, a, " "); printf "%.0f", (a[1] + a[2]) * 1e9 / n }')"
}

# run_latlab BINARY: prints "samples min p50 p99 max cpu_ns_per_sample
# worker_cpu_ns_per_sample", or nothing when latlab measured nothing; its
# exit status when not 0 in $tmp/rc (said by the caller, never fatal)
run_latlab() {
	local t d s
	rm -rf "$tmp/out" "$tmp/rc"
	TIMEFORMAT='%3U %3S'
	t=$( { time "$1" run "$tmp/bench.ini" -q >/dev/null 2>&1 || echo $? >"$tmp/rc"; } 2>&1 )
	d=$(echo "$tmp"/out/bench/*/*/0000-*)
	[ -s "$d/hist.csv" ] || return 0
	s=$(awk -F, 'NR > 1 && $3 == "wakeup" { printf "%.3f %d\n", ($5 - 1) / 1000, $6 }' "$d/hist.csv" | stats)
	local w
	w=$(awk -F, 'NR > 1 && $3 == "wakeup" { n += $4; c += $17 + $18 } END { printf "%.0f", c / n }' "$d/summary.csv")
	echo "$s $(awk -v t="$t" -v n="${s%% *}" 'BEGIN { split(t, a, " "); printf "%.0f", (a[1] + a[2]) * 1e9 / n }') $w"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

start_hackbench() {
	# its own process group, so the whole tree can be stopped at once
	setsid hackbench -g "$HB_GROUPS" -l 100000000 >/dev/null 2>&1 &
	hb_pid=$!
	sleep 1
}

stop_hackbench() {
	kill -TERM -- "-$hb_pid" 2>/dev/null || true
	wait "$hb_pid" 2>/dev/null || true
	hb_pid=
}

echo "# latlab $("$LATLAB" --version | head -1 | cut -d' ' -f2) vs $(cyclictest --help 2>&1 | head -1)"
echo "# $(uname -r), $(nproc) CPUs; $THREADS threads, interval ${INTERVAL_US} us, priority $PRIO, ${DURATION} s per run, $ROUNDS rounds"
echo "# latency in us (wakeup); cpu = process CPU time (user+sys) per sample in ns; wcpu = latlab's measuring threads only"
printf '%-10s %-5s %-16s %8s %8s %8s %8s %9s %7s %7s\n' mode round side samples min p50 p99 max cpu wcpu
for mode in $MODES; do
	for k in "${!sides[@]}"; do
		: >"$tmp/rmin.$k"; : >"$tmp/r50.$k"; : >"$tmp/r99.$k"; : >"$tmp/rcpu.$k"
	done
	for r in $(seq 1 "$ROUNDS"); do
		[ "$mode" = hackbench ] && start_hackbench
		# odd rounds cyclictest first, even rounds last (the latlabs in
		# reverse): no side always runs first into a warming load
		order=()
		for k in "${!sides[@]}"; do order+=("$k"); done
		if [ $((r % 2)) -eq 0 ]; then
			rev=(); for ((k = ${#order[@]} - 1; k >= 0; k--)); do rev+=("${order[k]}"); done
			order=("${rev[@]}" ct)
		else
			order=(ct "${order[@]}")
		fi
		for k in "${order[@]}"; do
			if [ "$k" = ct ]; then
				run_cyclictest >"$tmp/out.ct"
			else
				run_latlab "${sides[k]#* }" >"$tmp/out.$k"
				if [ -e "$tmp/rc" ]; then
					echo "# $mode round $r: ${sides[k]%% *} exited $(cat "$tmp/rc") ($( [ "$(cat "$tmp/rc")" = 1 ] && echo "a cell missed periods or failed a threshold" || echo "see docs/exit-status.md")): carrying on"
				fi
			fi
		done
		read -r cn cmin c50 c99 cmax ccpu <"$tmp/out.ct"
		printf '%-10s %-5s %-16s %8s %8s %8s %8s %9s %7s %7s\n' \
			"$mode" "$r" cyclictest "$cn" "$cmin" "$c50" "$c99" "$cmax" "$ccpu" -
		for k in "${!sides[@]}"; do
			label=${sides[k]%% *}
			if ! [ -s "$tmp/out.$k" ]; then
				echo "# $mode round $r: $label measured nothing: the round is left out of its ratios"
				continue
			fi
			read -r ln lmin l50 l99 lmax lcpu lw <"$tmp/out.$k"
			printf '%-10s %-5s %-16s %8s %8s %8s %8s %9s %7s %7s\n' \
				"$mode" "$r" "$label" "$ln" "$lmin" "$l50" "$l99" "$lmax" "$lcpu" "$lw"
			awk -v a="$lmin" -v b="$cmin" 'BEGIN { printf "%.3f\n", a / b }' >>"$tmp/rmin.$k"
			awk -v a="$l50" -v b="$c50" 'BEGIN { printf "%.3f\n", a / b }' >>"$tmp/r50.$k"
			awk -v a="$l99" -v b="$c99" 'BEGIN { printf "%.3f\n", a / b }' >>"$tmp/r99.$k"
			awk -v a="$lcpu" -v b="$ccpu" 'BEGIN { printf "%.3f\n", a / b }' >>"$tmp/rcpu.$k"
			printf '%-10s %-5s %-16s min %s  p50 %s  p99 %s  cpu %s\n' "$mode" "$r" "ratio" \
				"$(tail -1 "$tmp/rmin.$k")" "$(tail -1 "$tmp/r50.$k")" "$(tail -1 "$tmp/r99.$k")" \
				"$(tail -1 "$tmp/rcpu.$k")"
		done
		[ "$mode" = hackbench ] && stop_hackbench
	done
	for k in "${!sides[@]}"; do
		[ -s "$tmp/r50.$k" ] || { echo "$mode ${sides[k]%% *}: no round measured"; continue; }
		for stat in min 50 99; do
			read -r m lo hi n < <(median_range <"$tmp/r$stat.$k")
			m=$(printf '%.3f' "$m")
			name=$([ "$stat" = min ] && echo min || echo "p$stat")
			st=$(sign_test <"$tmp/r$stat.$k")
			p=${st##*p }
			call="no difference the sign test calls"
			if awk -v p="$p" 'BEGIN { exit !(p < 0.05) }'; then
				call=$(awk -v m="$m" 'BEGIN { print (m > 1 ? "latlab higher" : "latlab lower") }')
			fi
			printf '%-10s %s/cyclictest %-4s ratio median %s [%s, %s], n = %s rounds; latlab %s: %s\n' \
				"$mode" "${sides[k]%% *}" "$name" "$m" "$lo" "$hi" "$n" "$st" "$call"
		done
		printf '%-10s %s/cyclictest cpu/sample ratio median %s\n' "$mode" "${sides[k]%% *}" \
			"$(median <"$tmp/rcpu.$k")"
	done
done
