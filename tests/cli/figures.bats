#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# The report's first screen and its figures, checked rather than looked at
# (issue 28): the verdicts before the evidence, a colour per kernel
# variant in every figure, numbers on the axes, no internal keys or
# e-notation in any text, the links between report and compare.

load helper

# svg_texts FILE: every text of an SVG gnuplot wrote, a line each
svg_texts() {
	grep -o '<text[^>]*>[^<]*</text>\|<tspan[^>]*>[^<]*' "$1" | sed 's/<[^>]*>//g'
}

# svg_fills FILE: the distinct rgb() colours areas are filled with
svg_fills() {
	grep -o "fill = 'rgb([^)]*)'" "$1" | sort -u
}

# two_variants: a tree of two kernel variants that both match the running
# kernel (so one latlab run measures both on this machine), two rows, three
# runs each: out/t
two_variants() {
	write_config c.ini <<EOF
[campaign]
name = t
duration = 200ms
repeat = 3
output = $WORK/out

[matrix]
kernel = stock, rt
workload = timer
interval = 1ms, 500us

[kernel.stock]
match = any

[kernel.rt]
match = any
EOF
	run timeout 120 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "report: a tree of two kernel variants opens with the verdicts and the summary figure" {
	two_variants
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	I="$WORK/out/t/report/index.html"
	# the verdict comes before the overview, one line per row in words
	v=$(grep -n '<h2 id="verdict">Verdict</h2>' "$I" | cut -d: -f1)
	o=$(grep -n '<h2 id="overview">Overview</h2>' "$I" | cut -d: -f1)
	[ -n "$v" ] && [ -n "$o" ] && [ "$v" -lt "$o" ]
	[ "$(sed -n '/<ul class="answer">/,/<\/ul>/p' "$I" | grep -c '^<li')" -eq 2 ]
	grep -q '<b>no load · timer · 1 thread, one CPU each · 1 ms · FIFO 90</b> (wake-up): ' "$I"
	grep -q '<b>no load · timer · 1 thread, one CPU each · 500 µs · FIFO 90</b> (wake-up): ' "$I"
	# each line carries n and an interval or says why there is none
	sed -n '/<ul class="answer">/,/<\/ul>/p' "$I" | grep '^<li' | while read -r line; do
		[[ "$line" == *"3 runs each"* ]] || { echo "$line"; false; }
	done
	# no compare page yet: the command that makes one
	grep -q "<code>latlab compare $WORK/out/t</code>, then this report again links to it" "$I"
	# the summary figure leads, and is not repeated among the figures
	[ "$(grep -c 'src="fig/summary.svg"' "$I")" -eq 1 ]
	S="$WORK/out/t/report/fig/summary.svg"
	# a colour per variant: two different fills, and both in the legend
	[ "$(svg_fills "$S" | wc -l)" -ge 2 ] || { svg_fills "$S"; false; }
	svg_texts "$S" | grep -qx 'stock' && svg_texts "$S" | grep -qx 'rt'
	# numbers on the y axis, the rows on the x axis
	[ "$(svg_texts "$S" | grep -cE '^[0-9]+(\.[0-9]+)?$')" -ge 2 ] || { svg_texts "$S"; false; }
	svg_texts "$S" | grep -qx '1 ms' && svg_texts "$S" | grep -qx '500 µs'
	# the data behind it: a bar per row and variant, each with its interval
	[ "$(tail -n +2 "$WORK/out/t/report/fig/summary.csv" | wc -l)" -eq 4 ]
	[ "$(col "$WORK/out/t/report/fig/summary.csv" n | sort -u)" = 3 ]
	[ "$(col "$WORK/out/t/report/fig/summary.csv" coverage | sort -u)" = 0.7500 ]
}

@test "figures: one colour per variant in the tail and compare figures, the same in both" {
	two_variants
	run timeout 120 "$LATLAB" compare "$WORK/out/t" -o "$WORK/out/t/compare"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# tail.list.gp is gone after drawing; the SVG keeps the strokes. A
	# variant's colour: the stroke of its legend line, in both figures
	T="$WORK/out/t/report/fig/tail.svg" C="$WORK/out/t/compare/fig/compare-0.svg"
	strokes() { grep -o "stroke='rgb([^)]*)'\|stroke=\"rgb([^)]*)\"" "$1" | sort -u | grep -v '221, 221, 221'; }
	[ "$(strokes "$T" | wc -l)" -ge 2 ] || { strokes "$T"; false; }
	[ "$(strokes "$C" | wc -l)" -ge 2 ] || { strokes "$C"; false; }
	[ "$(strokes "$T" | sort)" = "$(strokes "$C" | grep -f <(strokes "$T") | sort)" ]
	# the report links to the compare page, which links back
	grep -q 'href="../compare/index.html"' "$WORK/out/t/report/index.html"
	grep -q '<a href="../report/index.html">its report</a>' "$WORK/out/t/compare/index.html"
	# compared before the report was rendered: linked all the same, and said so
	run timeout 120 "$LATLAB" compare "$WORK/out/t" -o "$WORK/cmp2"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q '<a href="../out/t/report/index.html">its report</a>)' "$WORK/cmp2/index.html"
	rm -r "$WORK/out/t/report"
	run timeout 120 "$LATLAB" compare "$WORK/out/t" -o "$WORK/cmp2"
	grep -q "<a href=\"../out/t/report/index.html\">its report</a>, not rendered yet: <code>latlab report $WORK/out/t</code>)" "$WORK/cmp2/index.html"
	# compare's captions in words, not keys
	grep -q '<figcaption>no load · timer · 1 thread, one CPU each · 1 ms · FIFO 90: the wake-up histogram' \
		"$WORK/out/t/compare/index.html"
}

@test "figures: no internal key, no e-notation in any text of any figure" {
	two_variants
	run timeout 120 "$LATLAB" compare "$WORK/out/t" -o "$WORK/out/t/compare"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	n=0
	for f in "$WORK"/out/t/report/fig/*.svg "$WORK"/out/t/compare/fig/*.svg; do
		n=$((n + 1))
		! svg_texts "$f" | grep -n '|' || { echo "$f: a | key"; false; }
		! svg_texts "$f" | grep -nE '[0-9]e[+-]?[0-9]|x10\^' || { echo "$f: e-notation"; false; }
	done
	[ "$n" -ge 10 ]
}

@test "report: one kernel variant: each row's worst case with its interval, no verdict" {
	write_config c.ini <<EOF
[campaign]
name = t
duration = 200ms
repeat = 6
output = $WORK/out

[matrix]
workload = timer
EOF
	run timeout 120 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	I="$WORK/out/t/report/index.html"
	grep -q '<h2 id="verdict">Worst case</h2>' "$I"
	! grep -q '<h2 id="verdict">Verdict</h2>' "$I"
	# six runs: x(1) and x(6) of the maxima, at 1 - 2/64
	line=$(sed -n '/<ul class="answer">/,/<\/ul>/p' "$I" | grep '^<li')
	[[ "$line" == *"(the median of 6 runs' maxima, a 96.9 % interval), p99 "* ]] || { echo "$line"; false; }
	lo=$(printf '%s\n' "$line" | sed -n 's/.*worst case [0-9.]* µs \[\([0-9.]*\), .*/\1/p')
	min=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "metric") m = i; if ($i == "max_ns") x = i }; next }
		$m == "wakeup" && (!n++ || $x < v) { v = $x } END { printf "%.1f", v / 1000 }' "$WORK/out/t/cells.csv")
	[ "$lo" = "$min" ] || { echo "$line / $min"; false; }
}

@test "report: the cells table fits a 1,400 px page, the secondary columns behind a box" {
	two_variants
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	I="$WORK/out/t/report/index.html"
	# the columns a reader needs first stay; the rest are marked
	head=$(grep -m1 '<th class="l">cell</th>' "$I")
	for c in 'missed %' 'load ops/s' p99 max 'max at s'; do
		[[ "$head" == *"<th>$c</th>"* ]] || { echo "no $c: $head"; false; }
	done
	[ "$(grep -o '<th class="[^"]*more[^"]*">' <<<"$head" | wc -l)" -eq 10 ]
	dom=$(browse "$I")
	w=$(sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' <<<"$dom")
	[ -n "$w" ] && [ "$w" -le 1400 ] || { echo "width $w"; false; }
	grep -q '<table id="cells" class="compact"' <<<"$dom"
	! grep -i 'CONSOLE.*\(error\|uncaught\)' "$WORK/console"
	# every column, asked for in the address
	dom=$(browse "$I#all=1")
	grep -q '<table id="cells"' <<<"$dom"
	! grep -q '<table id="cells" class="compact"' <<<"$dom"
	# which is what would not fit (measured: 1,838 px here)
	w=$(sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' <<<"$dom")
	[ "$w" -gt 1400 ] || { echo "every column: width $w"; false; }
}

@test "report --pdf: vector figures at one column of a two-column paper, fonts embedded" {
	two_variants
	run timeout 180 "$LATLAB" report "$WORK/out/t" -q -j 1 --pdf
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	for f in summary tail; do
		P="$WORK/out/t/report/fig/$f.pdf"
		# 3.5 in wide (252 pt), 2.45 in high (176 pt)
		pdfinfo "$P" | grep -q '^Page size: *252 x 176 pts' || { pdfinfo "$P"; false; }
		# every font embedded, no bitmap inside
		fonts=$(pdffonts "$P" | tail -n +3)
		[ -n "$fonts" ]
		! awk '$(NF - 4) != "yes"' <<<"$fonts" | grep . || { echo "$fonts"; false; }
		[ "$(pdfimages -list "$P" | tail -n +3 | wc -l)" -eq 0 ]
	done
}

@test "report --axis: the first screen compares the values of another axis" {
	two_variants
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q -j 1 --axis interval
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	I="$WORK/out/t/report/index.html"
	grep -q 'its values of interval (<code>--axis interval</code>) against each other' "$I"
	# a row per kernel variant now, the interval the sides
	for k in stock rt; do
		line=$(grep "^<li[^>]*><b>$k · no load · timer · 1 thread, one CPU each · FIFO 90</b> (wake-up): " "$I")
		[[ "$line" == *"1000us/500us"* && "$line" == *"3 runs each"* ]] || { echo "$line"; false; }
	done
	svg_texts "$WORK/out/t/report/fig/summary.svg" | grep -qx '1000us'
	# the rest of the report stays by kernel variant
	grep -q '<h2 id="overview">Overview</h2>' "$I"
	run "$LATLAB" report "$WORK/out/t" --axis colour
	[ "$status" -eq 2 ]
	[[ "$output" == *"--axis: 'colour' is not an axis (kernel|host|load|"* ]]
}
