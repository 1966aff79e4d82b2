#!/usr/bin/env bash
# latload hackbench against rt-tests' hackbench, side by side.
#
# Runs both alternately, ROUNDS times, with the same groups, fds, loops
# and message size, in process/socket, process/pipe and thread/socket
# modes, and prints each round's times, their ratio latload/hackbench,
# and the median ratio per mode. latload is meant to load the machine as
# hard as hackbench does: a ratio near 1.
#
#   bench/vs-hackbench.sh        (LATLOAD=build/latload ROUNDS=5 HB_GROUPS=10 LOOPS=1000)
set -eu
cd "$(dirname "$0")/.."
LATLOAD=${LATLOAD:-$PWD/build/latload}
ROUNDS=${ROUNDS:-5}
HB_GROUPS=${HB_GROUPS:-10}
FDS=${FDS:-20}
LOOPS=${LOOPS:-1000}
DATASIZE=${DATASIZE:-100}

command -v hackbench >/dev/null || { echo "needs rt-tests (make deps)" >&2; exit 2; }

# time_of CMD...: the "Time: S.SSS" it prints
time_of() {
	"$@" 2>/dev/null | sed -n 's/^Time: \([0-9.]*\).*/\1/p'
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# latload $("$LATLOAD" --version | cut -d' ' -f2) vs rt-tests hackbench; $(uname -r), $(nproc) CPUs"
echo "# -g $HB_GROUPS -f $FDS -l $LOOPS -s $DATASIZE, $ROUNDS rounds; times in seconds"
printf '%-16s %-5s %10s %10s %8s\n' mode round hackbench latload ratio
for mode in "process/socket" "process/pipe" "thread/socket"; do
	case $mode in
	process/socket) flags="" ;;
	process/pipe) flags="-p" ;;
	thread/socket) flags="-T" ;;
	esac
	ratios=""
	for r in $(seq 1 "$ROUNDS"); do
		h=$(time_of hackbench -g "$HB_GROUPS" -f "$FDS" -l "$LOOPS" -s "$DATASIZE" $flags)
		l=$(time_of "$LATLOAD" hackbench -g "$HB_GROUPS" -f "$FDS" -l "$LOOPS" -s "$DATASIZE" $flags)
		[ -n "$h" ] && [ -n "$l" ] || { echo "a run printed no Time: line" >&2; exit 1; }
		ratio=$(awk -v a="$l" -v b="$h" 'BEGIN { printf "%.3f", a / b }')
		ratios="$ratios $ratio"
		printf '%-16s %-5s %10s %10s %8s\n' "$mode" "$r" "$h" "$l" "$ratio"
	done
	printf '%-16s median ratio latload/hackbench: %s\n' "$mode" \
		"$(printf '%s\n' $ratios | median)"
done
