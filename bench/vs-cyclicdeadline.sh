#!/usr/bin/env bash
# latlab's SCHED_DEADLINE cell against rt-tests' cyclicdeadline, side by
# side: one thread, period 4 ms (cyclicdeadline refuses runtimes under
# 2 ms unless HRTICK is switched on in debugfs, which latlab will not do
# to a machine), runtime 60 % (2.4 ms, cyclicdeadline's own choice),
# deadline = period, unpinned; ROUNDS runs of DURATION s each of
# cyclicdeadline, latlab with dl_wait = yield and latlab with dl_wait =
# sleep, in turn, on an idle machine. Prints per round each side's min,
# mean and max wake-up latency (µs) and the ratios, then the median
# ratios with their range over the rounds.
#
# Two ways to wait: an absolute clock_nanosleep to the next period (latlab's
# default, one loop for every policy: docs/guide.md), or ending each job
# with sched_yield to be woken by the deadline scheduler's replenishment
# (cyclicdeadline; latlab's dl_wait = yield). All three measure from the
# period's start, so yield/cyclicdeadline says whether latlab measures
# the same path as cyclicdeadline, and sleep/yield what the choice costs.
#
#   bench/vs-cyclicdeadline.sh      (LATLAB=build/latlab ROUNDS=3 DURATION=10)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
LATLAB=${LATLAB:-$PWD/build/latlab}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
command -v cyclicdeadline >/dev/null || { echo "needs rt-tests (make deps)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_DEADLINE" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT


# latlab_dl NAME WAIT: one latlab deadline cell; prints min mean max (µs)
latlab_dl() {
	cat >"$tmp/c.ini" <<EOC
[campaign]
name = $1
duration = ${DURATION}s
output = $tmp/out
dl_runtime = 60%
dl_wait = $2
[matrix]
policy = deadline
affinity = all
interval = 4ms
EOC
	"$LATLAB" run "$tmp/c.ini" -q >/dev/null 2>&1
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["metric"] == "wakeup" { printf "%.1f %.1f %.1f\n", $c["min_ns"] / 1000, $c["mean_ns"] / 1000, $c["max_ns"] / 1000 }' \
		"$tmp/out/$1/cells.csv"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'; }

printf '%5s %22s %22s %22s %9s %9s %9s\n' round "cyclicdeadline" "latlab yield" "latlab sleep" \
	y/cd_avg y/cd_max s/y_avg
echo "      (min/avg/max µs each)"
: >"$tmp/ycd_avg"; : >"$tmp/ycd_max"; : >"$tmp/sy_avg"; : >"$tmp/scd_avg"
for r in $(seq "$ROUNDS"); do
	line=$(timeout $((DURATION + 30)) cyclicdeadline -i 4000 -t 1 -D "$DURATION" -q 2>/dev/null | grep '^T:' | tail -1)
	read -r cmin cavg cmax < <(sed -E 's/.*Min: *([0-9]+).*Avg: *([0-9]+).*Max: *([0-9]+).*/\1 \2 \3/' <<<"$line")
	read -r ymin ymean ymax < <(latlab_dl yield$r yield)
	read -r smin smean smax < <(latlab_dl sleep$r sleep)
	ratio "$ymean" "$cavg" >>"$tmp/ycd_avg"
	ratio "$ymax" "$cmax" >>"$tmp/ycd_max"
	ratio "$smean" "$ymean" >>"$tmp/sy_avg"
	ratio "$smean" "$cavg" >>"$tmp/scd_avg"
	printf '%5d %22s %22s %22s %9s %9s %9s\n' "$r" "$cmin/$cavg/$cmax" "$ymin/$ymean/$ymax" \
		"$smin/$smean/$smax" "$(tail -1 "$tmp/ycd_avg")" "$(tail -1 "$tmp/ycd_max")" "$(tail -1 "$tmp/sy_avg")"
done
echo "mean latency, latlab yield / cyclicdeadline: $(median_range 2 <"$tmp/ycd_avg")"
echo "max latency,  latlab yield / cyclicdeadline: $(median_range 2 <"$tmp/ycd_max")"
echo "mean latency, latlab sleep / latlab yield:   $(median_range 2 <"$tmp/sy_avg")"
echo "mean latency, latlab sleep / cyclicdeadline: $(median_range 2 <"$tmp/scd_avg")"
