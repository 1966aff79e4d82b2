#!/usr/bin/env bash
# synth-tree.sh SRC-TREE N OUT-TREE: a results tree of N cells made by
# copying SRC-TREE's measured cells round-robin (for report benchmarks
# and tests at scale). Each copy gets its own id, index and repeat; its
# files are the source cell's, so every number in it is real. With
# ROWS=1 in the environment each copy gets a priority of its own too
# (1 + its index mod 98), so the copies are rows, not repeats of one.
set -eu
src=$1 n=$2 out=$3
[ -s "$src/cells.csv" ] || { echo "synth-tree: $src is not a results tree" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
cp "$src/campaign.ini" "$src/state" "$out/" 2>/dev/null || true
awk -F, -v n="$n" -v out="$out" -v src="$src" -v ownrows="${ROWS:-0}" '
	function copyrow(row, newid, i, repeat,    f, k, s) {
		split(row, f, ",")
		f[c["cell"]] = newid; f[c["index"]] = i; f[c["repeat"]] = repeat
		if (ownrows) f[c["priority"]] = 1 + i % 98
		s = f[1]
		for (k = 2; k <= nf; k++) s = s "," f[k]
		return s
	}
	NR == 1 { print > (out "/cells.csv"); nf = NF; for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["status"] == "ok" {
		id = $c["cell"]
		if (!(id in seen)) { seen[id] = ++ncells; ids[ncells] = id; dir[id] = $c["host"] "/" $c["kernel_release"] }
		rows[id] = rows[id] $0 "\n"
	}
	END {
		if (!ncells) { print "synth-tree: no ok cells" > "/dev/stderr"; exit 2 }
		for (i = 0; i < n; i++) {
			id = ids[i % ncells + 1]
			newid = sprintf("%05d-%s", i, substr(id, index(id, "-") + 1))
			m = split(rows[id], r, "\n")
			for (k = 1; k < m; k++) print copyrow(r[k], newid, i, int(i / ncells) + 1) > (out "/cells.csv")
			print src "/" dir[id] "/" id, out "/" dir[id] "/" newid > (out "/.copies")
			if (!(dir[id] in made)) { made[dir[id]] = 1; print out "/" dir[id] > (out "/.dirs") }
		}
	}' "$src/cells.csv"
# one process per copy (a mkdir and a dirname each as well made 1,000
# cells take 16 s of CPU here, the copies 5)
xargs -d '\n' mkdir -p <"$out/.dirs"
while read -r from to; do
	cp -r "$from" "$to"
done <"$out/.copies"
rm -f "$out/.copies" "$out/.dirs"
