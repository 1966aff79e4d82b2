#!/usr/bin/env bash
# Does what a short campaign says beyond its runs hold for a long run?
# A short campaign (RUNS runs of SHORT per row) and then a long one (RUNS
# runs of LONG) of the same cells: idle and under hackbench, a SCHED_FIFO
# 90 thread on CPU 1 (the host) or in an instruction-clock guest. For
# deadlines beyond the short runs — the short campaign's largest maximum
# of a run times 1, 1.5 and 2 — the short campaign's estimate of
# P(latency > D) (latlab report --deadline: extrapolated, or refused with
# its reason) beside the long runs' count above D with its 95 % Poisson
# interval (Wilson-Hilferty), and whether the two intervals meet.
#
#   bench/tail_validation.sh [host|icount]  (LATLAB, KERNELS, RUNS=5,
#                                            SHORT, LONG, INTERVAL, IMAGE)
set -eu
cd "$(dirname "$0")/.."
where=${1:-host}
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
RUNS=${RUNS:-5}
case $where in
host) SHORT=${SHORT:-10s} LONG=${LONG:-60s} INTERVAL=${INTERVAL:-200us} ;;
icount) SHORT=${SHORT:-1s} LONG=${LONG:-6s} INTERVAL=${INTERVAL:-1ms}
	IMAGE=${IMAGE:-$KERNELS/vmlinux-stock}
	[ -s "$IMAGE" ] || { echo "tail_validation: no $IMAGE (make kernels)" >&2; exit 2; } ;;
*) echo "usage: tail_validation.sh [host|icount]" >&2; exit 2 ;;
esac
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
if [ -n "${KEEP:-}" ]; then	# KEEP=DIR: the trees kept there
	echo "tail_validation: the trees are kept in $tmp/out"
else
	trap 'rm -rf "$tmp"' EXIT
fi

# config NAME DURATION
config() {
	cat <<EOC
[campaign]
name = $1
duration = $2
repeat = $RUNS
output = $tmp/out
[matrix]
load = none, hackbench
workload = timer
threads = 1
affinity = $([ "$where" = icount ] && echo 0 || echo 1)
interval = $INTERVAL
priority = 90
[load.hackbench]
type = hackbench
groups = 2
[thresholds]
missed = off
EOC
	if [ "$where" = icount ]; then
		# under hackbench an instruction-clock guest runs many times
		# slower than its clock: 20 s of it took more than 140 s here
		printf '[matrix]\nkernel = g\n[kernel.g]\nrunner = qemu\nimage = %s\nclock = icount\nboot_timeout = 120s\ntimeout = 30m\n' "$IMAGE"
	fi
}
for n in short long; do
	d=$SHORT
	[ $n = long ] && d=$LONG
	config "$n" "$d" >"$tmp/$n.ini"
	echo "== $n: $RUNS runs of $d a row ($where, $INTERVAL)"
	"$LATLAB" run "$tmp/$n.ini" -q >"$tmp/$n.log" 2>&1 || { tail -20 "$tmp/$n.log"; exit 3; }
done
# the short campaign's largest maximum of a run, per load, in ns
maxima=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["metric"] == "wakeup" && $c["max_ns"] > m[$c["load"]] { m[$c["load"]] = $c["max_ns"] }
	END { for (l in m) print l, m[l] }' "$tmp/out/short/cells.csv")
printf '%-10s %-9s %-44s %-40s %s\n' load D "short: P per period [95 %]" "long: seen / periods, rate [95 %]" meet
inside=0 judged=0
while read -r load max; do
	for f in 1 1.5 2; do
		D=$(awk -v m="$max" -v f="$f" 'BEGIN { printf "%d", m * f + 1 }')
		for n in short long; do
			rm -rf "$tmp/out/$n/report"
			"$LATLAB" report "$tmp/out/$n" --deadline "${D}ns" -q -j 1 >"$tmp/report.log" 2>&1 ||
				{ echo "tail_validation: latlab report $tmp/out/$n failed:"; tail -5 "$tmp/report.log"; }
			awk -F, -v l="$load" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ q = index(substr($0, 2), "\""); row = substr($0, 2, q - 1); split(substr($0, q + 3), v, ",")
				  n = split("status p p_lo p_hi observed periods", f, " "); line = ""
				  for (i = 1; i <= n; i++) { x = v[c[f[i]] - 1]; line = line (i > 1 ? " " : "") (x == "" ? "-" : x) }
				  if (row ~ ("(^|, )" l ",")) print line }' \
				"$tmp/out/$n/report/beyond.csv" >"$tmp/$n.fit"
		done
		st= p= lo= hi= k= periods=
		read -r st p lo hi _ _ <"$tmp/short.fit" || true
		read -r _ _ _ _ k periods <"$tmp/long.fit" || true
		if [ -z "$st" ] || [ -z "$periods" ]; then
			printf '%-10s %s: no row in beyond.csv\n' "$load" "$D"
			continue
		fi
		line=$(awk -v st="$st" -v p="$p" -v lo="$lo" -v hi="$hi" -v k="$k" -v n="$periods" 'BEGIN {
			z = 1.959964
			klo = k == 0 ? 0 : k * (1 - 1 / (9 * k) - z / (3 * sqrt(k))) ^ 3
			khi = (k + 1) * (1 - 1 / (9 * (k + 1)) + z / (3 * sqrt(k + 1))) ^ 3
			long = sprintf("%d / %d, %.2g [%.2g, %.2g]", k, n, k / n, klo / n, khi / n)
			if (st != "fit" && st != "observed") { printf "%-44s %-40s -", st ": nothing extrapolated", long; exit }
			meet = (lo <= khi / n && klo / n <= hi) ? "yes" : "no"
			printf "%-44s %-40s %s", sprintf("%s %.2g [%.2g, %.2g]", st, p, lo, hi), long, meet }')
		printf '%-10s %-9s %s\n' "$load" "$(awk -v d="$D" 'BEGIN { printf "%.0f us", d / 1000 }')" "$line"
		case $line in *" yes") inside=$((inside + 1)); judged=$((judged + 1)) ;; *" no") judged=$((judged + 1)) ;; esac
	done
done <<<"$maxima"
echo "the long runs' interval met the short campaign's in $inside of $judged deadlines with an estimate"
