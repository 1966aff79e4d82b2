# Shared by the bench scripts (sourced).

# median_range [DECIMALS]: numbers on stdin -> "median lo hi n"; with
# DECIMALS, "median [lo, hi], n = N" with that many decimals
median_range() {
	sort -g | awk -v d="${1:-}" '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			if (d == "") { print m, v[1], v[NR], NR; exit }
			f = "%." d "f"
			printf f " [" f ", " f "], n = %d\n", m, v[1], v[NR], NR }'
}

# wilson K N: "K of N, P % [LO, HI]" with the Wilson 95 % interval
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { if (n == 0) { print "0 of 0"; exit }
		z = 1.96; p = k / n; d = 1 + z * z / n
		c = (p + z * z / (2 * n)) / d; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
		lo = c - h < 0 ? 0 : c - h; hi = c + h > 1 ? 1 : c + h
		printf "%d of %d, %.1f %% [%.1f, %.1f]", k, n, 100 * p, 100 * lo, 100 * hi }'
}

# verdicts CSV [COLUMN...]: "a b design verdict_max verdict_tail load" of
# compare.csv's first line per pair, then each COLUMN's value ("-" when
# empty); a and b without their "#..." (along --axis load they are loads,
# along the kernel the row's load is the 6th field)
verdicts() {
	local csv=$1
	shift
	awk -F, -v more="$*" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; n = split(more, col, " "); next }
		{ k = $h["side_a"] " " $h["side_b"] " " $h["load"]
		  if (k in seen) next; seen[k] = 1
		  a = $h["side_a"]; b = $h["side_b"]; sub(/#.*/, "", a); sub(/#.*/, "", b)
		  line = a " " b " " $h["design"] " " $h["verdict_max"] " " $h["verdict_tail"] " " ($h["load"] == "" ? "-" : $h["load"])
		  for (i = 1; i <= n; i++) line = line " " ($h[col[i]] == "" ? "-" : $h[col[i]])
		  print line }' "$csv"
}

# tally FILE AWK-CONDITION WANT: a row "max | tail | either" of calls among
# the lines matching; WANT "any" counts lower and higher, "lower" counts
# lower and says how many were higher (the wrong way)
tally() {
	local out="" f k n w
	for f in 4 5 0; do
		read -r k n w <<<"$(awk -v f="$f" -v want="$3" "$2"' {
			n++; v = f ? $f : ($4 == "lower" || $4 == "higher" ? $4 : $5)
			if (f == 0 && $4 == "lower") v = "lower"
			if (v == "lower" || (want == "any" && v == "higher")) k++
			else if (v == "higher") w++ } END { print k + 0, n + 0, w + 0 }' "$1")"
		out+="$(printf '%-30s' "$(wilson "$k" "$n")$([ "$3" = lower ] && [ "$w" -gt 0 ] && echo " ($w wrong)")")  "
	done
	echo "$out"
}

# bench_dirs: the campaigns' directory into $tmp — FROM's (campaigns kept
# before, judged again), KEEP's (kept after) or a new one — and a scratch
# directory into $work; measuring (no FROM) needs root for SCHED_FIFO and
# 2 CPUs (the measured one is CPU 1)
bench_dirs() {
	if [ -z "${FROM:-}" ]; then
		[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO" >&2; exit 2; }
		[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (the measured one is CPU 1)" >&2; exit 2; }
	fi
	if [ -n "${FROM:-}" ]; then
		tmp=$(cd "$FROM" 2>/dev/null && pwd) || { echo "FROM: $FROM is not a directory" >&2; exit 2; }
	elif [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP" && tmp=$(cd "$KEEP" && pwd)
	else
		tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
	fi
	work=$(mktemp -d /tmp/latlab-bench-cmp.XXXXXX)
}

# sign_test: ratios on stdin (one a round, side by side) -> "above K of N
# (T tied), p P": how many rounds had the ratio above 1 among those not
# equal to it, and the exact two-sided binomial (sign test) p of so
# lopsided a split were the two sides the same
sign_test() {
	awk '{ if ($1 > 1) k++; else if ($1 < 1) m++; else t++ }
		END { n = k + m; lo = k < m ? k : m; p = 0
			for (i = 0; i <= lo; i++) { c = 1; for (j = 1; j <= i; j++) c = c * (n - j + 1) / j; p += c }
			p = n ? 2 * p / 2 ^ n : 1; if (p > 1) p = 1
			printf "above %d of %d (%d tied), p %.3g\n", k, n, t + 0, p }'
}

# campaign NAME [SECTION.KEY=VALUE...]: `latlab run $tmp/base.ini` quiet
# as campaign NAME with those --set (and $CAMPAIGN_ARGS, e.g. --jobs 2),
# its output in $tmp/NAME.log; an exit other than 0 said, and carried
# on (the rows it wrote are read as they are). Uses $LATLAB and $tmp.
campaign() {
	local name=$1 sets=() s
	shift
	for s in "$@"; do sets+=(--set "$s"); done
	# shellcheck disable=SC2086 # CAMPAIGN_ARGS: words
	"$LATLAB" run "$tmp/base.ini" -q ${CAMPAIGN_ARGS:-} --set campaign.name="$name" "${sets[@]}" \
		>"$tmp/$name.log" 2>&1 ||
		echo "# $name: latlab exited $? (see below): carrying on" >&2
}
