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
harness'

# the files that own a result file's name (model/ and results/ own them all)
OWNERS='harness/model/ harness/results/'
# a result file named in a path or a write: "%s/NAME", "NAME" to
# afile_write/csv_table_read/file_*, or the name alone as a string
RESULT_FILES='cell\.ini|sysinfo\.ini|log\.txt|samples\.bin|hist\.csv|summary\.csv|series\.csv|load\.csv|spikes\.csv|timeline\.csv|interference\.csv|cells\.csv|campaign\.ini|state|trace-%d\.txt'

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
for d in "${!floor_of[@]}"; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -e "$f" ] || continue
		while IFS=: read -r ln inc; do
			h=${inc#*\"}
			h=${h%\"*}
			hd=${dir_of[$h]:-}
			[ -n "$hd" ] || continue	# generated, or the build's own
			if [ "${floor_of[$hd]}" -gt "${floor_of[$d]}" ]; then
				echo "$f:$ln: includes $h from $hd, a floor above $d"
				bad=1
			fi
		done < <(grep -n '^#include "' "$f" | sed 's/^\([0-9]*\):/\1:/')
	done
done

for f in harness/*.c harness/*/*.c; do
	own=0
	for o in $OWNERS; do
		case $f in "$o"*) own=1 ;; esac
	done
	[ $own = 1 ] && continue
	while IFS= read -r hit; do
		echo "$f:${hit%%:*}: names a result file (${hit#*:}): only model/ and results/ open them"
		bad=1
	done < <(grep -noE "\"%s/($RESULT_FILES)\"|(afile_write(_derived)?|csv_table_read|file_[a-z_]+|fopen|open)\([^;]*\"($RESULT_FILES)\"" "$f")
done
exit $bad
