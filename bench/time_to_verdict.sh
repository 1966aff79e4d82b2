#!/usr/bin/env bash
# Time to a verdict on kernels in instruction-clock guests, before and
# after: the latlab of commit BEFORE (built in a scratch worktree) and
# this one (LATLAB), each running the same campaign from the bzImages a
# user gives it — hackbench, RUNS runs of DURATION each — then latlab
# compare; the time from the run's start to compare's verdict on the
# hackbench row, for 2 variants (Debian's stock and rt) and for 4
# (Debian stable's 6.12 and sid's 7.x, stock and rt). Each measured
# REPEATS times, before and after alternating; prints each time, then
# per case the median and range and the verdict compare reached.
#
#   bench/time_to_verdict.sh   (LATLAB=build/latlab KERNELS=kernels
#                               BEFORE=624a958 REPEATS=3 RUNS=5 DURATION=1s
#                               CASES="2 4")
#
# make kernels fetches the host suite's and sid's images; the 4-variant
# case also needs trixie's (tools/debian-kernels.sh kernels/trixie amd64
# trixie, as make demo-kernels does).
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
BEFORE=${BEFORE:-624a958}
REPEATS=${REPEATS:-3}
RUNS=${RUNS:-5}
DURATION=${DURATION:-1s}
CASES=${CASES:-2 4}
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
cleanup() {
	git worktree remove --force "$tmp/before" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

images_2="stock:$KERNELS/vmlinuz-stock:!preempt:rt rt:$KERNELS/vmlinuz-rt:preempt:rt"
images_4="s612:$KERNELS/trixie/vmlinuz-stock:!preempt:rt r612:$KERNELS/trixie/vmlinuz-rt:preempt:rt s7:$KERNELS/sid/vmlinuz-stock:!preempt:rt r7:$KERNELS/sid/vmlinuz-rt:preempt:rt"
for c in $CASES; do
	eval "list=\$images_$c"
	for v in $list; do
		f=${v#*:}
		f=${f%%:*}
		[ -s "$f" ] || { echo "time_to_verdict: no $f (make kernels; trixie: see the header)" >&2; exit 2; }
	done
done

git worktree add -f --detach "$tmp/before" "$BEFORE" >/dev/null 2>&1 ||
	{ echo "time_to_verdict: no commit $BEFORE" >&2; exit 2; }
make -s -C "$tmp/before" -j"$(nproc)" build/latlab build/latload >/dev/null 2>&1 &&
	make -s -C "$tmp/before" -j"$(nproc)" static >/dev/null 2>&1 ||
	{ echo "time_to_verdict: $BEFORE does not build" >&2; exit 2; }

# config CASE NAME: the campaign of CASE's variants
config() {
	local names="" v
	eval "list=\$images_$1"
	for v in $list; do names="$names${names:+, }${v%%:*}"; done
	cat <<EOC
[campaign]
name = $2
duration = $DURATION
repeat = $RUNS
output = $tmp/out
boot_attempts = 1
[matrix]
kernel = $names
load = hackbench
workload = timer
interval = 1ms
[load.hackbench]
type = hackbench
groups = 1
[thresholds]
missed = off
EOC
	for v in $list; do
		local rest=${v#*:}
		printf '[kernel.%s]\nrunner = qemu\nimage = %s\nmatch = %s\nclock = icount\nboot_timeout = 180s\n' \
			"${v%%:*}" "${rest%%:*}" "${rest#*:}"
	done
}

# measure WHO CASE N: "seconds verdict" of one run and its compare
measure() {
	local bin name=$1-$2-$3 s e
	[ "$1" = before ] && bin=$tmp/before/build/latlab || bin=$LATLAB
	config "$2" "$name" >"$tmp/$name.ini"
	s=$(date +%s%N)
	XDG_CACHE_HOME=$tmp/cache "$bin" run "$tmp/$name.ini" -q >"$tmp/$name.log" 2>&1 || true
	"$bin" compare "$tmp/out/$name" -o "$tmp/cmp-$name" >"$tmp/$name.cmp" 2>&1 || true
	e=$(date +%s%N)
	local verdict
	verdict=$(sed -n 's/^hackbench, [^:]*: //p' "$tmp/$name.cmp" | head -1)
	awk -v ns=$((e - s)) -v v="${verdict:-no verdict}" 'BEGIN { printf "%.1f %s\n", ns / 1e9, v }'
}

echo "# before: latlab at $(git rev-parse --short "$BEFORE") (one guest at a time, a boot per round, the image as given)"
echo "# after: $("$LATLAB" --version) of $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- harness common || echo ' (and uncommitted changes)')"
echo "# $(uname -r), $(nproc) CPUs; hackbench, $RUNS runs of $DURATION each, clock = icount, from bzImages"
printf '%-8s %-7s %-3s %8s  %s\n' variants who n seconds "verdict on hackbench"
for c in $CASES; do
	for n in $(seq 1 "$REPEATS"); do
		for who in before after; do
			read -r sec verdict < <(measure "$who" "$c" "$n")
			printf '%-8s %-7s %-3s %8s  %s\n' "$c" "$who" "$n" "$sec" "$verdict"
			echo "$c $who $sec" >>"$tmp/times"
		done
	done
done
echo "# median (range) of $REPEATS, seconds to the verdict"
for c in $CASES; do
	for who in before after; do
		read -r m lo hi n < <(awk -v c="$c" -v w="$who" '$1 == c && $2 == w { print $3 }' \
			"$tmp/times" | median_range)
		printf '%s variants, %-6s %6.1f (%.1f-%.1f), n = %d\n' "$c" "$who" "$m" "$lo" "$hi" "$n"
	done
done
