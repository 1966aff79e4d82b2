#!/usr/bin/env bash
# layers.sh [ROOT]: the floors of latlab's code, checked. Each folder is on
# a floor; a file may include headers of its own floor or of floors below,
# never above (docs/architecture.md draws them). And the result files are
# named (opened, written, removed) only by the code that owns their
# format: the other harness files go through it. Prints every breach as
# FILE:LINE: why, and exits 1 if there is one.
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2

# the floors, bottom first; folders on one line share a floor
FLOORS='common
workloads loadgen
harness/model
harness/config
harness/trace
harness/measure
harness/results
harness/vm
harness/report
harness/campaign
harness/cli
harness'

# the files that own a result file's name (model/ and results/ own them all)
OWNERS='harness/model/ harness/results/'
# a result file's name: in a path made of formats ("%s/NAME", a link's
# "%s%s/%s/%s/NAME"), or as a string of its own anywhere (held in a
# variable, a list of names, a call): NAME alone between quotes (but
# "state", a word too common for that: only in a path)
RESULT_FILES='cell\.ini|sysinfo\.ini|log\.txt|samples\.bin|hist\.csv|summary\.csv|series\.csv|load\.csv|spikes\.csv|timeline\.csv|interference\.csv|cells\.csv|campaign\.ini|state|trace-%(ll)?d\.(txt|dat)'

declare -A floor_of
n=0
while read -r line; do
	for d in $line; do
		floor_of[$d]=$n
	done
	n=$((n + 1))
done <<<"$FLOORS"

# every header's folder, by its name (the build puts every folder on the path)
declare -A dir_of
for d in "${!floor_of[@]}"; do
	for h in "$d"/*.h; do
		[ -e "$h" ] || continue
		b=${h##*/}
		if [ -n "${dir_of[$b]:-}" ]; then
			echo "$h: a header of this name is also in ${dir_of[$b]}"
			bad=1
		fi
		dir_of[$b]=$d
	done
done

bad=${bad:-0}
# one grep over every file of every floor (a grep per file made the
# script take 4 s, six times in tests/cli/layers.bats)
code=()
for d in "${!floor_of[@]}"; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -e "$f" ] && code+=("$f")
	done
done
while IFS=: read -r f ln inc; do
	d=${f%/*}
	h=${inc#*\"}
	h=${h%\"*}
	hd=${dir_of[$h]:-}
	[ -n "$hd" ] || continue	# generated, or the build's own
	if [ "${floor_of[$hd]}" -gt "${floor_of[$d]}" ]; then
		echo "$f:$ln: includes $h from $hd, a floor above $d"
		bad=1
	fi
done < <(grep -Hn '^#include "' /dev/null "${code[@]}")

readers=()
for f in harness/*.c harness/*/*.c; do
	own=0
	for o in $OWNERS; do
		case $f in "$o"*) own=1 ;; esac
	done
	[ $own = 1 ] || readers+=("$f")
done
while IFS=: read -r f ln name; do
	echo "$f:$ln: names a result file ($name): only model/ and results/ name them"
	bad=1
done < <(grep -HnoE "\"((%[a-z]+)+/)+($RESULT_FILES)\"|\"(${RESULT_FILES/|state/})\"" /dev/null "${readers[@]}")

# every folder with code is on a floor
for d in common workloads loadgen harness harness/*/; do
	d=${d%/}
	[ -d "$d" ] || continue
	ls "$d"/*.[ch] >/dev/null 2>&1 || continue
	if [ -z "${floor_of[$d]:-}" ]; then
		echo "$d: a folder of code on no floor (add it to FLOORS in tools/layers.sh and docs/architecture.md)"
		bad=1
	fi
done

# Every code file on a floor, and its folder's floor: FILE FLOOR lines
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for d in "${!floor_of[@]}"; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -e "$f" ] && echo "$f ${floor_of[$d]}"
	done
done >"$tmp/files"
cfiles=$(awk '$1 ~ /\.c$/ { print $1 }' "$tmp/files")

# FILE SYMBOL: the functions and tables each .c file defines for others
# (not static; a definition's '{' or '=' seen before any ';')
# shellcheck disable=SC2086 # a list of files
awk '
	FNR == 1 { cand = "" }
	/^(static|typedef|extern|#|struct [a-z_]* \{|enum|union)/ { next }
	/^[a-z][a-zA-Z0-9_ *]*[ *]\(?[a-z_][a-z0-9_]*(\(|\[[A-Z0-9_]*\] =| =)/ {
		line = $0
		sub(/\(.*/, "", line); sub(/\[[A-Z0-9_]*\] =.*/, "", line); sub(/ =.*/, "", line)
		n = split(line, w, /[ *]+/)
		if (w[n] != "") cand = w[n]
		if ($0 ~ /;$/ && $0 !~ /=/) cand = ""	# a prototype
		else if ($0 ~ /=/) { print FILENAME, cand; cand = "" }
		next
	}
	/^\{/ { if (cand != "") print FILENAME, cand; cand = "" }
	/;$/ && !/^\t/ { cand = "" }
' $cfiles | sort -u >"$tmp/defs"

# FILE WORD: the words each .c file's code uses (comments and includes left out)
# shellcheck disable=SC2086
grep -HvE '^[[:space:]]*(/\*|\*|//)|^#include' $cfiles |
	awk -F: '{ f = $1; sub(/^[^:]*:/, ""); n = split($0, w, /[^a-z0-9_]+/)
		   for (i = 1; i <= n; i++) if (w[i] ~ /^[a-z_]/) print f, w[i] }' |
	sort -u >"$tmp/uses"

# a function or table of one file of a folder used by another, both ways: a circle
while read -r a ab b ba; do
	echo "$a:$(grep -nw "$ab" "$a" | head -1 | cut -d: -f1): a circle with $b: $a calls $ab of $b, which calls $ba of $a (line $(grep -nw "$ba" "$b" | head -1 | cut -d: -f1))"
	bad=1
done < <(awk '
	function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
	FILENAME ~ /defs$/ { owner[dir($1), $2] = $1; next }
	(dir($1), $2) in owner && owner[dir($1), $2] != $1 && !(($1, owner[dir($1), $2]) in edge) {
		edge[$1, owner[dir($1), $2]] = $2
	}
	END {
		for (k in edge) {
			split(k, ab, SUBSEP)
			if (ab[1] < ab[2] && ((ab[2], ab[1]) in edge))
				print ab[1], edge[k], ab[2], edge[ab[2], ab[1]]
		}
	}' "$tmp/defs" "$tmp/uses" | sort)

# an extern, or a prototype in a .c file, of what a floor above defines:
# an include by another name
# shellcheck disable=SC2086
while IFS= read -r hit; do
	echo "$hit"
	bad=1
done < <(grep -nHE '^(extern |[a-z][a-zA-Z0-9_ *]*[ *][a-z_][a-z0-9_]*\([^)]*\);$)|^\textern ' \
		$(awk '{ print $1 }' "$tmp/files") | grep -v ':static' |
	awk -v files="$tmp/files" -v defs="$tmp/defs" '
	function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
	BEGIN {
		while ((getline l < files) > 0) { split(l, w, " "); floor[w[1]] = w[2] }
		while ((getline l < defs) > 0) { split(l, w, " "); where[w[2]] = w[1] }
	}
	{
		f = $0; sub(/:.*/, "", f)
		ln = $0; sub(/^[^:]*:/, "", ln); sub(/:.*/, "", ln)
		decl = $0; sub(/^[^:]*:[^:]*:/, "", decl)
		sub(/\(.*/, "", decl); sub(/\[.*/, "", decl); sub(/[;,].*/, "", decl)
		n = split(decl, w, /[ *\t]+/)
		sym = w[n]
		if (!(sym in where)) next
		d = where[sym]
		if (floor[d] > floor[f])
			printf "%s:%s: declares %s of %s, a floor above %s\n", f, ln, sym, dir(d), dir(f)
	}')
exit $bad
