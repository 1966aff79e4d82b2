#!/usr/bin/env bash
# How resume scales: a campaign of N cells, every one finished by an
# earlier run (state, cells.csv and each cell's cell.ini say ok), run
# again: nothing is left to measure, so the time is the resume's
# bookkeeping alone (reading state and cells.csv, checking each cell's
# cell.ini, summary.csv and hist.csv, the ledger written back). Prints the wall time per size and
# per 1000 cells: linear in N keeps the latter flat (quadratic grew it
# 4-fold per doubling: 0.3 / 1.1 / 4.7 / 16.3 s at 2k-16k cells).
#
#   bench/resume_scale.sh      (LATLAB=build/latlab SIZES="2000 4000 8000 16000 100000")
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
SIZES=${SIZES:-2000 4000 8000 16000 100000}
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# config N: N timer cells. repeat = 1000 at most and an axis holds 64
# values at most: a priority per thousand cells, and beyond 64000 cells
# 50 priorities x 2 intervals x N/100 repeats.
config() {
	local n=$1 dir=$2 prios=80 intervals=1ms rep=$1

	if [ "$n" -gt 64000 ]; then
		prios=$(seq -s ', ' 1 50)
		intervals="1ms, 2ms"
		rep=$((n / 100))
	elif [ "$n" -ge 1000 ]; then
		prios=$(seq -s ', ' 1 $((n / 1000)))
		rep=1000
	fi
	mkdir -p "$dir"
	printf '[campaign]\nname = s\nduration = 100ms\noutput = %s/out\nrepeat = %d\n[matrix]\naffinity = 1\npriority = %s\ninterval = %s\n' \
		"$dir" "$rep" "$prios" "$intervals" >"$dir/c.ini"
}

# one real cell of the same kind: the rows and cell.ini every cell copies
config 1 "$tmp/one"
"$LATLAB" run "$tmp/one/c.ini" -q >/dev/null 2>&1 || true
one=$tmp/one/out/s

printf '%7s %9s %16s\n' cells resume_s ms_per_1000_cells
for n in $SIZES; do
	d=$tmp/n$n
	config "$n" "$d"
	# the campaign's own state header (its config hash): a run stopped at once
	"$LATLAB" run "$d/c.ini" -q >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		grep -q '^config_hash' "$d/out/s/state" 2>/dev/null && break
		sleep 0.05
	done
	[ -f "$d/out/s/state" ] || { echo "resume_scale: no state from the first run of $n cells" >&2; exit 1; }
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# every cell's id, from that state (one line a cell, the first run's order)
	awk -F' = ' '/^[0-9]+-/ && !seen[$1]++ { print $1 }' "$d/out/s/state" >"$d/ids"
	python3 - "$one" "$d/out/s" "$d/ids" <<'EOP'
import csv, glob, os, sys
one, tree, idsf = sys.argv[1:4]
ids = [l.strip() for l in open(idsf) if l.strip()]
rows = list(csv.reader(open(one + '/cells.csv')))
head, tmpl = rows[0], rows[1:]
cdir = glob.glob(one + '/*/*/' + tmpl[0][1])[0]
host, rel = cdir.split('/')[-3:-1]
ini = open(cdir + '/cell.ini').read()
files = {f: open(cdir + '/' + f).read() for f in ('summary.csv', 'hist.csv')}
hashline = [l for l in open(tree + '/state') if l.startswith('config_hash')][0]
cells, state = [head], ['# latlab campaign state\n', hashline, 'cells = %d\n' % len(ids)]
for i, cid in enumerate(ids):
    for r in tmpl:
        r = r[:]
        r[head.index('cell')], r[head.index('index')] = cid, str(i)
        cells.append(r)
    state.append('%s = ok\n' % cid)
    d = '%s/%s/%s/%s' % (tree, host, rel, cid)
    os.makedirs(d, exist_ok=True)
    for f, text in files.items():
        open(d + '/' + f, 'w').write(text)
    open(d + '/cell.ini', 'w').write(ini.replace(tmpl[0][1], cid))
csv.writer(open(tree + '/cells.csv', 'w'), lineterminator='\n').writerows(cells)
open(tree + '/state', 'w').writelines(state)
EOP
	[ "$(wc -l <"$d/ids")" -eq "$n" ] || { echo "resume_scale: the state lists $(wc -l <"$d/ids") cells, not $n" >&2; exit 1; }
	s=$(date +%s%N)
	"$LATLAB" run "$d/c.ini" -q >/dev/null 2>&1 || { echo "resume_scale: the resume of $n cells failed" >&2; exit 1; }
	e=$(date +%s%N)
	awk -v n="$n" -v ns=$((e - s)) 'BEGIN { printf "%7d %9.2f %16.1f\n", n, ns / 1e9, ns / 1e6 / (n / 1000) }'
	rm -rf "$d"
done
