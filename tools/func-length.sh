#!/usr/bin/env bash
# func-length.sh [ROOT]: the lengths of latlab's functions, held (issue 76):
# a function's body — the lines between its "{" and "}", each alone at the
# start of a line, the kernel's style — over 120 lines is refused, and at
# most 15 may be over 80. Prints every function over 80 as FILE:LINE:
# NAME: N lines, longest first, and the counts; exits 1 when a bound is
# broken, 2 for a bad use. Reads common/, workloads/, loadgen/ and
# harness/ (tests, tools and benches are not held to it).
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
LONG=80 LONGEST=120 MOST=15

list=$(find common workloads loadgen harness -name '*.c' | sort | xargs awk -v long=$LONG '
	FNR == 1 { prev = "" }
	/^\{$/ { start = FNR; name = prev; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n]; next }
	/^\}$/ && start { len = FNR - start - 1; if (len > long) printf "%d %s:%d: %s\n", len, FILENAME, start, name; start = 0; next }
	!start && /\(/ { prev = $0 }
	!start && !/\(/ && !/^\t/ && !/^$/ { prev = $0 }
' | sort -rn)
over=$(printf '%s\n' "$list" | grep -c . || true)
worst=$(printf '%s\n' "$list" | awk 'NR == 1 { print $1 + 0 }')
printf '%s\n' "$list" | awk 'NF { n = $1; $1 = ""; print substr($0, 2) " " n " lines" }'
echo "func-length: $over functions over $LONG lines (at most $MOST), the longest ${worst:-0} (at most $LONGEST)"
[ "$over" -le $MOST ] && [ "${worst:-0}" -le $LONGEST ]
