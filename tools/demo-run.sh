#!/bin/sh
# tools/demo-run.sh LATLAB [CONFIG] — what `make run` does after the build:
# runs CONFIG (configs/quick.ini) anew, renders its report and says in one
# line what the run found.
#
# A demo ends as a demo: cells that fail their thresholds are findings of
# the run (latlab run's exit 1), said here, and the demo exits 0. It exits
# non-zero only when latlab could not measure or draw: latlab run's own
# status 2, 3 or 130 (docs/exit-status.md), or report's. Every run starts
# over (--restart): an earlier tree of the same campaign is kept beside
# it, under a dated name, and latlab says where.
set -u

latlab=${1:?usage: tools/demo-run.sh LATLAB [CONFIG]}
config=${2:-configs/quick.ini}

ini_get() {	# FILE KEY: the first "KEY = value" of FILE
	sed -n "s/^$2 = //p" "$1" | head -n 1
}

"$latlab" run "$config" --restart
rc=$?
case $rc in
0 | 1) ;;
*) echo "make run: latlab run could not measure (exit $rc: docs/exit-status.md)" >&2
   exit "$rc" ;;
esac

name=$(sed -n 's/^name *= *\([^ ;]*\).*/\1/p' "$config" | head -n 1)
out=$(sed -n 's/^output *= *\([^ ;]*\).*/\1/p' "$config" | head -n 1)
tree=${out:-results}/$name
"$latlab" report "$tree" -q || {
	rep=$?
	echo "make run: latlab report could not draw $tree (exit $rep: docs/exit-status.md)" >&2
	exit "$rep"
}

# what the run found: the failed cells, their periods and loads, and why
cells=$(sed -n 's/^cells = //p' "$tree/state")
failed=$(sed -n 's/ = fail$//p' "$tree/state" | sort -u)
nfail=$(printf '%s\n' "$failed" | grep -c .)
if [ "$rc" -eq 0 ] || [ "$nfail" -eq 0 ]; then
	echo "make run: all $cells cells kept their thresholds"
else
	periods='' loads='' why='' missed_only=1 limit=''
	for id in $failed; do
		ini=$(find "$tree" -path "*/$id/cell.ini" | head -n 1)
		[ -n "$ini" ] || continue
		periods="$periods $(ini_get "$ini" interval)"
		loads="$loads $(ini_get "$ini" load)"
		reason=$(ini_get "$ini" reason)
		[ -n "$why" ] || why=$reason
		# "thread N missed X % of its periods (...) > missed = L" and nothing else
		rest=$(printf '%s\n' "$reason" | tr ';' '\n' |
			grep -v '^ *thread [0-9]* missed .* of its periods .*> missed = ')
		[ -z "$rest" ] || missed_only=0
		[ -n "$limit" ] || limit=$(printf '%s\n' "$reason" | sed -n 's/.*> missed = \([^;]*\).*/\1/p')
	done
	# shellcheck disable=SC2086 # split on purpose: one per line
	periods=$(printf '%s\n' $periods | sort -u | paste -sd, - | sed 's/,/, /g')
	# shellcheck disable=SC2086 # split on purpose: one per line
	loads=$(printf '%s\n' $loads | sort -u | paste -sd, - | sed 's/,/, /g')
	if [ "$missed_only" -eq 1 ] && [ -n "$limit" ]; then
		case $periods in *,*) that='those periods' ;; *) that='that period' ;; esac
		echo "make run: $nfail of $cells cells missed more than $limit of their periods at $periods (loads: $loads): this machine did not keep $that; the report shows how late the wake-ups were"
	else
		echo "make run: $nfail of $cells cells failed their thresholds (at $periods; loads: $loads); the first: $why"
	fi
fi
echo "report: $(cd "$tree" && pwd)/report/index.html"
exit 0
