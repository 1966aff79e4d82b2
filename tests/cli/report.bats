#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# latlab report, compare and export: figures, HTML, formats.

load helper

setup_file() {
	export FIXTURES="$BATS_TEST_DIRNAME/../fixtures"
}

@test "report of a real short run: every figure in SVG, the index's in PNG too, the cells' with --png; no gnuplot warning" {
	quick_config
	printf '[matrix]\nworkload = timer, null\nthreads = 2\naffinity = 0\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 500ms -q
	[ "$status" -eq 0 ]
	run timeout 120 "$LATLAB" report "$WORK/out/t"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == "$WORK/out/t/report/index.html" ]] || { echo "$output"; false; }
	R="$WORK/out/t/report"
	cellfigs="hist-0000-none-timer-t2-a0-1 series-0000-none-timer-t2-a0-1 hist-0001-none-null-t2-a0-1 series-0001-none-null-t2-a0-1"
	for f in summary tail $cellfigs; do
		is_svg "$R/fig/$f.svg" || { echo "bad $f.svg"; false; }
	done
	# PNG: the index's figures; a cell's only with --png (3/4 of the time
	# of a 300-cell report went to them), its link on the page then
	for f in summary tail; do
		is_png "$R/fig/$f.png" || { echo "bad $f.png"; false; }
	done
	[ "$(ls "$R/fig" | grep -c '\.png$')" -eq 2 ] || { ls "$R/fig"; false; }
	[ "$(grep -c '\.png">PNG</a>' "$R/index.html")" -eq 2 ]
	! grep -q '\.png' "$R/cells/0000-none-timer-t2-a0-1.html"
	run timeout 120 "$LATLAB" report "$WORK/out/t" --png -q
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
	for f in summary tail $cellfigs; do
		is_png "$R/fig/$f.png" || { echo "bad $f.png"; false; }
	done
	grep -q '<a href="../fig/hist-0000-none-timer-t2-a0-1.png">PNG</a>' "$R/cells/0000-none-timer-t2-a0-1.html"
	# and again without: the cells' PNGs of the run before are gone, not stale
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(ls "$R/fig" | grep -c '\.png$')" -eq 2 ] || { ls "$R/fig"; false; }
	[ ! -e "$R/fig/sweep.png" ]		# one size: no sweep to draw
	[ -s "$R/fig/summary.csv" ]
	# the page: the table, the figures, links to the CSVs, escaped text
	grep -q '<td class="l"><a href="cells/0000-none-timer-t2-a0-1.html">0000-none-timer-t2-a0-1</a></td>' "$R/index.html"
	# the index: the campaign-wide figures; each cell's page: its own, its files, its log
	[ "$(grep -c '<img src="fig/' "$R/index.html")" -eq 2 ]
	grep -q "href=\"../$(hostname)/$(uname -r)/0000-none-timer-t2-a0-1/summary.csv\"" "$R/index.html"
	P="$R/cells/0000-none-timer-t2-a0-1.html"
	[ "$(grep -c '<img src="../fig/' "$P")" -eq 3 ]
	grep -q '<img src="../fig/hist-0000-none-timer-t2-a0-1.svg"' "$P"
	grep -q '<img src="../fig/metrics-0000-none-timer-t2-a0-1.svg"' "$P"
	grep -q "href=\"../../$(hostname)/$(uname -r)/0000-none-timer-t2-a0-1/log.txt\"" "$P"
	grep -q '<h2>log.txt</h2>' "$P" && grep -q 'href="../index.html"' "$P"
	[ "$(ls "$R/cells" | wc -l)" -eq 2 ]
	! grep -q 'http' "$R/index.html" "$P"	# nothing from the network
}

@test "report: user text is escaped in the HTML" {
	quick_config
	mkdir -p "$WORK/a<b>&c"
	run timeout 60 "$LATLAB" run c.ini -o "$WORK/a<b>&c" --duration 300ms -q
	[ "$status" -eq 0 ]
	run timeout 60 "$LATLAB" report "$WORK/a<b>&c/t" -q
	[ "$status" -eq 0 ]
	# the command line (in sysinfo) holds the path: escaped, never raw
	grep -q 'a&lt;b&gt;&amp;c' "$WORK/a<b>&c/t/report/index.html"
	! grep -q 'a<b>&c' "$WORK/a<b>&c/t/report/index.html"
}

@test "report from checked-in fixture CSVs; --pdf adds PDFs" {
	cp -r "$FIXTURES/compare/stock" "$WORK/stock"
	run timeout 60 "$LATLAB" report "$WORK/stock" --pdf -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	is_svg "$WORK/stock/report/fig/hist-0000-none-timer-t1-aspread-1.svg"
	[ "$(head -c 4 "$WORK/stock/report/fig/hist-0000-none-timer-t1-aspread-1.pdf")" = "%PDF" ]
	[ "$(head -c 4 "$WORK/stock/report/fig/summary.pdf")" = "%PDF" ]
	grep -q 'href="fig/summary.pdf"' "$WORK/stock/report/index.html"
	# and the whole report in one PDF: a page per figure, the index's first
	[ "$(head -c 4 "$WORK/stock/report/report.pdf")" = "%PDF" ]
	n=$(ls "$WORK/stock/report/fig/"*.pdf | wc -l)
	[ "$(pdfinfo "$WORK/stock/report/report.pdf" | awk '/^Pages:/ { print $2 }')" -eq "$n" ]
	grep -q 'href="report.pdf"' "$WORK/stock/report/index.html"
}

@test "report in headless Chromium: every image loads, no console error" {
	command -v chromium >/dev/null || skip "chromium not installed (make deps)"
	cp -r "$FIXTURES/compare/stock" "$WORK/stock"
	run timeout 60 "$LATLAB" report "$WORK/stock" -q
	[ "$status" -eq 0 ]
	dom=$(timeout 60 chromium --version >/dev/null && browse "$WORK/stock/report/index.html")
	n=$(sed -n 's/.*data-figures="\([0-9]*\)".*/\1/p' <<<"$dom")
	ok=$(sed -n 's/.*data-figures-loaded="\([0-9]*\)".*/\1/p' <<<"$dom")
	[ -n "$n" ] && [ "$n" -eq 2 ] && [ "$ok" -eq "$n" ] || { echo "figures $n loaded $ok"; cat "$WORK/console"; false; }
	! grep -i 'CONSOLE.*\(error\|uncaught\)' "$WORK/console"
	dom=$(browse "$WORK/stock/report/cells/0000-none-timer-t1-aspread-1.html")
	n=$(sed -n 's/.*data-figures="\([0-9]*\)".*/\1/p' <<<"$dom")
	ok=$(sed -n 's/.*data-figures-loaded="\([0-9]*\)".*/\1/p' <<<"$dom")
	[ -n "$n" ] && [ "$n" -eq 3 ] && [ "$ok" -eq "$n" ] || { echo "cell page: figures $n loaded $ok"; false; }
	# a missing figure is noticed
	rm "$WORK/stock/report/fig/tail.svg"
	dom=$(browse "$WORK/stock/report/index.html")
	ok=$(sed -n 's/.*data-figures-loaded="\([0-9]*\)".*/\1/p' <<<"$dom")
	[ "$ok" -eq 1 ]
}

@test "report: a gnuplot error is exit 3 with gnuplot's message" {
	cp -r "$FIXTURES/compare/stock" "$WORK/stock"
	mkdir "$WORK/plots"
	cp "$BATS_TEST_DIRNAME/../../plots/"*.gp "$WORK/plots/"
	echo 'plot this is not gnuplot' >>"$WORK/plots/summary.gp"
	LATLAB_PLOTS="$WORK/plots" run timeout 60 "$LATLAB" report "$WORK/stock"
	[ "$status" -eq 3 ]
	[[ "$output" == *"gnuplot summary.gp failed for $WORK/stock/report/fig/summary: "*"summary.gp\" line "*": "* ]] || { echo "$output"; false; }
	# the figure is lost, not the page: nothing links it, the others are drawn
	[ -s "$WORK/stock/report/index.html" ]
	! grep -q 'fig/summary\.' "$WORK/stock/report/index.html"
	[ ! -e "$WORK/stock/report/fig/summary.svg" ]
	grep -q 'fig/hist-' "$WORK/stock/report/cells/"*.html
}

@test "report and compare without gnuplot on PATH: exit 3 that says so once; the pages and the verdicts without figures, none of an earlier run's linked" {
	cp -r "$FIXTURES/compare/stock" "$FIXTURES/compare/rt" "$WORK/"
	# an earlier report's figures, which must not be linked from the new page
	run timeout 60 "$LATLAB" report "$WORK/stock"
	[ "$status" -eq 0 ] || run_failed
	ls "$WORK"/stock/report/fig/*.svg >/dev/null
	mkdir "$WORK/bin"
	PATH="$WORK/bin" run "$LATLAB" report "$WORK/stock"
	[ "$status" -eq 3 ] || run_failed
	[ "$(grep -c 'cannot run gnuplot: No such file or directory (install gnuplot-nox): no figure is drawn; the pages are written without them' <<<"$output")" -eq 1 ] || run_failed
	[ -s "$WORK/stock/report/index.html" ]
	! grep -q 'fig/[^"]*\.svg' "$WORK/stock/report/index.html"
	! ls "$WORK"/stock/report/fig/*.svg 2>/dev/null
	grep -l 'stock' "$WORK"/stock/report/cells/*.html >/dev/null
	# compare: its verdicts printed and written, as with gnuplot
	run timeout 60 "$LATLAB" compare "$WORK/stock" "$WORK/rt" -o "$WORK/cmp-with"
	[ "$status" -eq 0 ] || run_failed
	with=$(grep -E 'wake-up: ' <<<"$output")
	PATH="$WORK/bin" run "$LATLAB" compare "$WORK/stock" "$WORK/rt" -o "$WORK/cmp"
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"cannot run gnuplot: No such file or directory (install gnuplot-nox): no figure is drawn"* ]] || run_failed
	[ -n "$with" ] && [ "$(grep -E 'wake-up: ' <<<"$output")" = "$with" ] || run_failed
	[ -s "$WORK/cmp/compare.csv" ] && [ -s "$WORK/cmp/index.html" ]
	! grep -q 'fig/compare-[0-9]*\.svg' "$WORK/cmp/index.html"
}

@test "report of something that is not a results tree is exit 2" {
	run "$LATLAB" report "$WORK"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cells.csv: No such file or directory (not a latlab results directory)"* ]]
	run "$LATLAB" report
	[ "$status" -eq 2 ]
}

@test "report of an output root names the campaigns in it (exit 2)" {
	mkdir -p "$WORK/root/night1" "$WORK/root/night2" "$WORK/root/other"
	printf 'campaign\n' >"$WORK/root/night1/cells.csv"
	printf 'campaign\n' >"$WORK/root/night2/cells.csv"
	run "$LATLAB" report "$WORK/root"
	[ "$status" -eq 2 ]
	[[ "$output" == *"not a latlab results directory: it holds the campaigns night"[12]", night"[12]"; name one, as $WORK/root/night"* ]] || { echo "$output"; false; }
	[[ "$output" != *"other"* ]]
}

@test "compare stock against rt: the runs table, a verdict that will not call one run, the overlay" {
	run timeout 60 "$LATLAB" compare "$FIXTURES/compare/stock" "$FIXTURES/compare/rt" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"1 rows compared across 2 kernel variants and hosts (2 trees)"* ]]
	# one run each: the figures, never a verdict word
	[[ "$output" == *"none, timer, threads 1, affinity spread, 1000 µs, priority 90, fifo, dma_latency 0: wake-up: one run each: too few to call (stock/rt 1.74x; 3 runs each at least: 3 and 6 runs give one, or 4 and 5)"* ]] || { echo "$output"; false; }
	[[ "$output" != *"lower worst case"* ]]
	H="$WORK/cmp/index.html"
	grep -q '<th>stock n</th><th>max (median \[range\])</th><th>p99.99</th><th>p99</th><th>rt n</th>' "$H"
	# a side is named by its variant; the page says the rest
	grep -q '<li><b>stock</b>: 6.1.0-stock' "$H" && grep -q '<li><b>rt</b>: 6.6.0-rt15' "$H"
	# the numbers: max 1403.3 and 806.6 us (from the fixtures' summary)
	row=$(grep '<tr><td class="l">none, timer' "$H" | head -1)
	[[ "$row" == *"<td>1</td><td>1403.3 [1403.3, 1403.3]</td>"* ]]
	[[ "$row" == *"<td>1</td><td>806.6 [806.6, 806.6]</td>"* ]]
	[[ "$row" == *'<span class="too-few">one run each: too few to call'* ]]
	# compare.csv: the same numbers, a line per threshold, judged on the
	# timer's own metric; every metric's verdict beside it
	C="$WORK/cmp/compare.csv"
	# the row axes (from latlab list), then the figures: 135 columns
	[ "$(head -1 "$C" | cut -d, -f1-"$(row_axes | wc -l)")" = "$(row_columns)" ]
	[ "$(head -1 "$C" | tr "," "\n" | wc -l)" -eq $(($(row_axes | wc -l) + 135)) ]
	[ "$(col "$C" metric | sort -u)" = wakeup ]
	[ "$(col "$C" wakeup_median_a_ns | sort -u)" = 1403254 ]
	[ -n "$(col "$C" response_median_a_ns | sort -u)" ] && [ -n "$(col "$C" io_ratio | sort -u)" ]
	# a timer row has no noise_max: its six columns are empty
	[ -z "$(col "$C" noise_max_ratio | sort -u)" ] && [ -z "$(col "$C" verdict_noise_max | sort -u)" ]
	[ "$(col "$C" verdict_max | sort -u)" = too-few ]
	[ "$(col "$C" max_median_a_ns | sort -u)" = 1403254 ]
	[ "$(col "$C" max_median_b_ns | sort -u)" = 806649 ]
	[ -z "$(col "$C" max_ratio_lo | sort -u)" ]
	is_png "$WORK/cmp/fig/compare-0.png"
	is_svg "$WORK/cmp/fig/compare-0.svg"
}

@test "compare: one tree that holds two kernel variants gives a column each" {
	# what a campaign with kernel = stock, rt leaves (qemu runner, reboots)
	cp -r "$FIXTURES/compare/stock" "$WORK/both"
	cp -r "$FIXTURES/compare/rt/vm/6.6.0-rt15" "$WORK/both/vm/"
	mv "$WORK/both/vm/6.6.0-rt15/0000-none-timer-t1-aspread-1" \
		"$WORK/both/vm/6.6.0-rt15/0001-rt-none-timer-t1-aspread-1"
	tail -n +2 "$FIXTURES/compare/rt/cells.csv" |
		sed 's/,0000-none-timer-t1-aspread-1,0,/,0001-rt-none-timer-t1-aspread-1,1,/' >>"$WORK/both/cells.csv"
	run timeout 60 "$LATLAB" compare "$WORK/both" -o "$WORK/cmp1"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"1 rows compared across 2 kernel variants and hosts (1 trees)"* ]]
	row=$(grep '<tr><td class="l">none, timer' "$WORK/cmp1/index.html" | head -1)
	[[ "$row" == *"<td>806.6 [806.6, 806.6]</td>"* ]]
	[[ "$row" == *"one run each: too few to call"* ]]
}

@test "compare refuses trees that share no cell, and a single tree" {
	quick_config
	printf '[matrix]\nworkload = null\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms -q
	run "$LATLAB" compare "$FIXTURES/compare/stock" "$WORK/out/t"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no cell was measured on two kernel variants or hosts"* ]]
	run "$LATLAB" compare "$FIXTURES/compare/stock"
	[ "$status" -eq 2 ]
}

@test "export of a campaign's tree instead of a cell says so, in every format (exit 2)" {
	T="$BATS_TEST_DIRNAME/../fixtures/readers/b"
	for f in csv cyclictest json; do
		run "$LATLAB" export --format $f "$T"
		[ "$status" -eq 2 ] || { echo "$f: $output"; false; }
		[[ "$output" == *"$T is a campaign's tree, not a cell: export one cell's directory ($T/HOST/RELEASE/CELL)"* ]] || { echo "$output"; false; }
		[[ "$output" != *"No such file"* ]]
	done
}

@test "export --format cyclictest: the --histfile layout, line by line" {
	run "$LATLAB" export --format cyclictest "$FIXTURES/export/cell" --hist-us 5 -o "$WORK/h.txt"
	[ "$status" -eq 0 ]
	diff "$FIXTURES/export/expected-h5.txt" "$WORK/h.txt"
	# by default up to the largest max: 8 rows for a 7 us max
	run "$LATLAB" export --format cyclictest "$FIXTURES/export/cell"
	[ "$(grep -c '^0000' <<<"$output")" -eq 8 ]
	[[ "$output" == *"# Histogram Overflows: 00000 00000"* ]]
}

@test "export --format json: cyclictest --json's keys, line by line" {
	run "$LATLAB" export --format json "$FIXTURES/export/cell" -o "$WORK/j.json"
	[ "$status" -eq 0 ]
	diff "$FIXTURES/export/expected.json" "$WORK/j.json"
}

@test "export: a real cell in every format; errors" {
	quick_config
	run timeout 60 "$LATLAB" run c.ini --duration 300ms -q
	D=$(cell_dir "$WORK/out/t" 0000-none-timer-t1-aspread-1)
	run "$LATLAB" export --format cyclictest "$D"
	[ "$status" -eq 0 ]
	total=$(sed -n 's/^# Total: 0*\([0-9]*\)$/\1/p' <<<"$output")
	[ "$total" -eq "$(awk -F, '$3 == "wakeup" { print $4 }' "$D/summary.csv")" ]
	run "$LATLAB" export --format json --metric response "$D"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"num_threads": 1'* ]]
	run "$LATLAB" export --format json --metric latency "$D"
	[ "$status" -eq 2 ]
	run "$LATLAB" export --format cyclictest "$D" --hist-us 0
	[ "$status" -eq 2 ]
	run "$LATLAB" export --format cyclictest "$WORK"
	[ "$status" -eq 2 ]
}

@test "report: is the run long enough? a max in the last tenth is flagged" {
	cp -r "$FIXTURES/compare/stock" "$WORK/t"
	D=$(echo "$WORK"/t/*/*/0000-*)
	# 20 seconds; the cell's max (1403.3 us) first reached in the last one
	{ echo "t_s,thread,metric,max_ns,samples"
	  for s in $(seq 0 19); do
		v=$([ "$s" -eq 19 ] && echo 1403254 || echo 40000)
		echo "$s,0,wakeup,$v,1000"; echo "$s,0,io,100,1000"; echo "$s,0,response,$v,1000"
	  done; } >"$D/series.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	H="$WORK/t/report/index.html"
	grep -q '<p class="warn">The worst case was still growing' "$H"
	grep -q '<li>0000-none-timer-t1-aspread-1: max 1403.3 µs first reached at 19 s of 20 s</li>' "$H"
	grep -q '<td class="warn">19 of 20</td>' "$H"
	# the running maximum, second by second
	[ "$(sed -n 2p "$WORK/t/report/fig/runmax-0.csv")" = "0,40000" ]
	[ "$(tail -1 "$WORK/t/report/fig/runmax-0.csv")" = "19,1403254" ]
	is_png "$WORK/t/report/fig/runmax-0.png"
	# reached early: no warning
	sed -i 's/^0,0,wakeup,40000,/0,0,wakeup,1403254,/' "$D/series.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	grep -q 'Every cell of 10 s or more (1) reached its maximum before the last tenth' "$H"
	# a running maximum inside one decade (400 us throughout: no power of
	# ten on its axis) still has numbers on its y axis
	sed -i 's/^\([0-9]*\),0,wakeup,[0-9]*,/\1,0,wakeup,400000,/' "$D/series.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	S="$WORK/t/report/fig/runmax-0.svg"
	for v in 300 400 500; do
		grep -q ">$v</tspan>" "$S" || { grep -o '<tspan[^>]*>[^<]*</tspan>' "$S"; false; }
	done
	# a series.csv that is not numbers is named
	echo "x,0,wakeup,1,1" >>"$D/series.csv"
	run timeout 60 "$LATLAB" report "$WORK/t" -q
	[ "$status" -eq 3 ] && [[ "$output" == *"$D/series.csv:62: t_s = 'x'"* ]] || { echo "$output"; false; }
}

@test "report of 30 repeats: runmax draws the 20 whose max came latest, the tail one merged row; each says so" {
	quick_config
	sed -i 's/^duration = 1s/duration = 2s/' c.ini
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	"$BATS_TEST_DIRNAME/../../tools/synth-tree.sh" "$WORK/out/t" 30 "$WORK/big"
	[ "$(col "$WORK/big/cells.csv" cell | sort -u | wc -l)" -eq 30 ]
	run timeout 120 "$LATLAB" report "$WORK/big" -q --jobs 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	H="$WORK/big/report/index.html"
	grep -q 'each repeat a curve (the 20 whose maximum came latest, of 30)' "$H"
	[ "$(head -1 "$WORK/big/report/fig/runmax-0.csv" | tr ',' '\n' | wc -l)" -eq 21 ]
	grep -q '30 cells, so a curve per row and kernel variant with its repeats merged, all 1 ' "$H"
	# the merged row holds every run's wake-ups
	n=$(awk -F, 'NR > 1 { n += $6 } END { print n }' "$WORK/big/report/fig/tail-0.csv")
	[ "$n" -eq "$(( $(col "$WORK/big/cells.csv" samples | head -1) * 30 ))" ]
	# --jobs: a number of gnuplot processes
	run "$LATLAB" report "$WORK/big" --jobs 0
	[ "$status" -eq 2 ] && [[ "$output" == *"--jobs: '0' is not a number of gnuplot processes (1 to 64)"* ]]
}

@test "report of 1 000 cells in headless Chromium: the overview, every cell page's files there, two whose images all load, the table sorted and filtered, the first screen 24 rows" {
	command -v chromium >/dev/null || skip "chromium not installed (make deps)"
	quick_config
	printf '[matrix]\nworkload = timer, null\naffinity = 1\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 500ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	ROWS=1 "$BATS_TEST_DIRNAME/../../tools/synth-tree.sh" "$WORK/out/t" 1000 "$WORK/big"
	run timeout 300 "$LATLAB" report "$WORK/big" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	R="$WORK/big/report"
	[ "$(ls "$R/cells" | wc -l)" -eq 1000 ]
	dom=$(browse "$R/index.html")
	[ "$(sed -n 's/.*data-figures="\([0-9]*\)".*/\1/p' <<<"$dom")" -ge 2 ]
	! grep -i 'CONSOLE.*\(error\|uncaught\)' "$WORK/console" || { cat "$WORK/console"; false; }
	grep -q '<h2 id="overview">Overview</h2>' <<<"$dom"
	# the overview links to cell pages; so does every row of the cells table
	grep -q '<a href="cells/[0-9]*-none-timer-t1-a1-[0-9]*.html">' <<<"$dom"
	# every cell page: the overview links to it, and every file it
	# links to or shows is there (all 1,000, read by awk)
	for i in 0 999; do
		id=$(printf '%05d' "$i")
		p=$(echo "$R"/cells/$id-*.html)
		[ -f "$p" ] && grep -q "href=\"cells/$(basename "$p")\"" "$R/index.html" || { echo "no page for $id"; false; }
	done
	[ "$(grep -o 'href="cells/[0-9]*-[^"]*\.html"' "$R/index.html" | sort -u | wc -l)" -eq 1000 ]
	missing=$(awk 'FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir); pages++ }
		{ s = $0
		  while (match(s, /(src|href)="[^"#:]+"/)) {
			ref = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/^[a-z]*="/, "", ref); sub(/"$/, "", ref)
			f = dir "/" ref; refs++
			if ((getline line < f) < 0) print FILENAME ": " ref
			close(f)
		  } }
		END { print pages " pages, " refs " references" > "/dev/stderr" }' "$R"/cells/*.html 2>"$WORK/refs")
	[ -z "$missing" ] || { echo "$missing" | head; false; }
	[[ "$(cat "$WORK/refs")" == "1000 pages, "* ]] || { cat "$WORK/refs"; false; }
	# the first and the last in the browser: every image loads (the
	# chromium test above opens one of each kind; three more took 15 s)
	for i in 0 999; do
		p=$(echo "$R"/cells/$(printf '%05d' "$i")-*.html)
		d=$(browse "$p")
		n=$(sed -n 's/.*data-figures="\([0-9]*\)".*/\1/p' <<<"$d")
		ok=$(sed -n 's/.*data-figures-loaded="\([0-9]*\)".*/\1/p' <<<"$d")
		[ -n "$n" ] && [ "$n" -ge 2 ] && [ "$ok" -eq "$n" ] || { echo "$p: figures $n loaded $ok"; false; }
	done
	# sorted by the id column descending and filtered to the null cells, from the address
	dom=$(browse "$R/index.html#sort=-1&filter=null")
	[ "$(grep -o '<table id="cells"[^>]* data-shown="[0-9]*"' <<<"$dom" | grep -o 'data-shown="[0-9]*"')" = 'data-shown="500"' ] || { grep -o 'data-shown="[0-9]*"' <<<"$dom"; false; }
	first=$(grep -o '<tr class="ok"><td class="l"><a href="cells/[^"]*"' <<<"$dom" | head -1)
	[[ "$first" == *'cells/00999-none-null-t1-a1-'* ]] || { echo "first row: $first"; false; }
	# the hidden rows are the timer cells
	[ "$(grep -o '<tr class="ok" hidden=""><td class="l"><a href="cells/[0-9]*-none-timer-' <<<"$dom" | wc -l)" -eq 500 ]
	# the first screen: the 24 rows with the largest worst cases, and says so
	[ "$(sed -n '/<ul class="answer">/,/<\/ul>/p' "$R/index.html" | grep -c '^<li')" -eq 24 ]
	grep -q '<p>The 24 rows with the largest worst cases, of [0-9]*; every row is in the tables below.</p>' "$R/index.html"
	[ "$(tail -n +2 "$R/fig/summary.csv" | wc -l)" -eq 24 ]
}

@test "report: a size sweep of two workloads, one's name inside the other's: both drawn" {
	quick_config
	printf '[matrix]\nworkload = dev-read, dev-read-2\nsize = 512, 4096\n[workload.dev-read-2]\ntype = dev-read\n' | ini_merge c.ini
	run timeout 60 "$LATLAB" run c.ini --duration 300ms -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 60 "$LATLAB" report "$WORK/out/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	S="$WORK/out/t/report/sweep.csv"
	[ "$(col "$S" workload | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')" = "dev-read:2 dev-read-2:2 " ] || { cat "$S"; false; }
	is_png "$WORK/out/t/report/fig/sweep.png"
}

@test "cell ids over 150 characters: every link of the overview leads to its page" {
	K=$(printf 'k%.0s' $(seq 41)); LD=$(printf 'l%.0s' $(seq 43)); WL=$(printf 'w%.0s' $(seq 39))
	write_config c.ini <<EOC
[campaign]
name = lid
duration = 200ms
output = $WORK/out
[matrix]
kernel = $K, running
load = $LD
workload = $WL
interval = 1ms, 2ms
policy = fifo, rr
[kernel.$K]
match = any
[load.$LD]
type = none
[workload.$WL]
type = timer
EOC
	run timeout 100 "$LATLAB" run c.ini -q
	run timeout 60 "$LATLAB" report out/lid -q
	[ "$status" -eq 0 ] || run_failed
	cd out/lid/report
	long=0
	for h in $(grep -o 'href="cells/[^"]*"' index.html | sed 's/href="//; s/"$//' | sort -u); do
		[ -e "$h" ] || { echo "dead link: $h"; false; }
		[ ${#h} -gt 160 ] && long=$((long + 1))
	done
	[ "$long" -gt 0 ]
}

@test "export --format json: a sysinfo.ini that is damaged, missing or a FIFO is named (exit 3), not written as an empty sysinfo" {
	cp -a "$FIXTURES/export/cell" c
	sed -i '/^release = /d' c/sysinfo.ini
	run "$LATLAB" export --format json c -o j.json
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"c/sysinfo.ini: no [kernel] release: damaged, or not latlab's"* ]] || run_failed
	[ ! -e j.json ]
	rm c/sysinfo.ini
	mkfifo c/sysinfo.ini
	run timeout 10 "$LATLAB" export --format json c -o j.json
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"c/sysinfo.ini: not a regular file"* ]] || run_failed
	rm c/sysinfo.ini
	run "$LATLAB" export --format json c -o j.json
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"c/sysinfo.ini: No such file or directory"* ]] || run_failed
	# the histfile needs no sysinfo
	run "$LATLAB" export --format cyclictest c -o h.txt
	[ "$status" -eq 0 ] || run_failed
}

@test "each workload is judged on its own metric: console, overview, figures and compare; --metric picks another" {
	write_config c.ini <<EOC
[campaign]
name = t
duration = 1s
output = $WORK/out

[matrix]
workload = timer, fw
threads = 1
affinity = 0
interval = 1ms

[workload.fw]
type = file-write
path = $WORK/io.dat
region = 4MiB
EOC
	run timeout 60 "$LATLAB" run c.ini
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# the console leads with the workload's metric: response for I/O
	[[ "$output" == *"0000-none-timer-t1-a0-1: ok, wakeup max "*" us"* ]] || { echo "$output"; false; }
	[[ "$output" == *"0001-none-fw-t1-a0-1: ok, response max "*" us, wakeup max "*" us"* ]] || { echo "$output"; false; }
	grep -qx "metric = response" "$(cell_dir "$WORK/out/t" 0001-none-fw-t1-a0-1)/cell.ini"
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	S="$WORK/out/t/report/fig/summary.csv"
	[ "$(col "$S" metric | tr '\n' ' ')" = "wakeup response " ] || { cat "$S"; grep -h "missed\|^\[figures\]" -A4 "$WORK"/out/t/*/*/*/cell.ini; false; }
	# the summary bar of the fw cell is its response max, not its wake-up's
	D=$(cell_dir "$WORK/out/t" 0001-none-fw-t1-a0-1)
	resp=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["metric"] == "response" { print $h["max_ns"] }' "$D/summary.csv")
	[ "$(col "$S" max_med_us | tail -1)" = "$(awk -v n="$resp" 'BEGIN { printf "%.3f", n / 1000 }')" ]
	H="$WORK/out/t/report/index.html"
	grep -q '<td class="l">none, fw, threads 1, affinity 0, 1000 µs, priority 90, size 4096, fifo, dma_latency 0</td><td class="l">response</td>' "$H"
	grep -q '<td class="l">none, timer, threads 1, affinity 0, 1000 µs, priority 90, fifo, dma_latency 0</td><td class="l">wake-up</td>' "$H"
	# the cell page: its metric per thread, and every metric's histogram
	grep -q '>response latency (µs)<' "$WORK/out/t/report/fig/hist-0001-none-fw-t1-a0-1.svg"
	for m in wakeup io response; do
		grep -q ">$m<" "$WORK/out/t/report/fig/metrics-0001-none-fw-t1-a0-1.svg"
	done
	grep -q 'fig/metrics-0001-none-fw-t1-a0-1.svg' "$WORK/out/t/report/cells/0001-none-fw-t1-a0-1.html"
	# --metric wakeup: every row on the wake-up, in a report of its own beside the first
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q --metric wakeup
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$WORK/out/t/report-wakeup/fig/summary.csv" metric | tr '\n' ' ')" = "wakeup wakeup " ]
	[ "$(col "$S" metric | tr '\n' ' ')" = "wakeup response " ]
	# --metric noise_max: no cell has it, all left out and said
	run timeout 120 "$LATLAB" report "$WORK/out/t" -q --metric noise_max
	[[ "$output" == *"2 measured cells have no noise_max: left out"* ]] || { echo "$output"; false; }
	run "$LATLAB" report "$WORK/out/t" --metric latency
	[ "$status" -eq 2 ]
	[[ "$output" == *"--metric: 'latency' is not a metric (wakeup|io|response|noise_max|noise_total|wakeup_corrected|timerlat_irq|timerlat_thread|watch_timer|watch_sched|io_step1|io_step2|io_step3|io_step4)"* ]]
	# compare: the fw row judged on the response, every metric in compare.csv
	cp -r "$WORK/out/t" "$WORK/t2"
	run timeout 120 "$LATLAB" compare "$WORK/out/t" "$WORK/t2" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"none, fw, threads 1, affinity 0, 1000 µs, priority 90, size 4096, fifo, dma_latency 0: response: one run each"* ]] || { echo "$output"; false; }
	[[ "$output" == *"none, timer, threads 1, affinity 0, 1000 µs, priority 90, fifo, dma_latency 0: wake-up: one run each"* ]]
	C="$WORK/cmp/compare.csv"
	fw=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["workload"] == "fw" { print $h["metric"], $h["max_median_a_ns"] == $h["response_median_a_ns"], $h["verdict_io"]; exit }' "$C")
	[ "$fw" = "response 1 too-few" ] || { echo "$fw"; false; }
	run timeout 120 "$LATLAB" compare "$WORK/out/t" "$WORK/t2" -o "$WORK/cmp" --metric wakeup
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$C" metric | sort -u)" = wakeup ]
	run timeout 60 "$LATLAB" compare "$WORK/out/t" "$WORK/t2" -o "$WORK/cmp" --metric noise_total
	[ "$status" -eq 2 ]
	[[ "$output" == *"no measured cell has noise_total (--metric): nothing to compare"* ]]
}

@test "compare without -o writes next to the trees: TREE/compare for one, PARENT/compare-A+B for several, never the current directory" {
	mkdir -p "$WORK/trees" "$WORK/elsewhere"
	cp -r "$FIXTURES/compare/stock" "$FIXTURES/compare/rt" "$WORK/trees/"
	cd "$WORK/elsewhere"
	run timeout 60 "$LATLAB" compare "$WORK/trees/stock" "$WORK/trees/rt/"
	[ "$status" -eq 0 ] || run_failed
	[ -s "$WORK/trees/compare-stock+rt/index.html" ] && [ -s "$WORK/trees/compare-stock+rt/compare.csv" ]
	[[ "$output" == *"$WORK/trees/compare-stock+rt/index.html: "* ]] || run_failed
	[ -z "$(ls -A "$WORK/elsewhere")" ]
	# one tree, along an axis: into the tree, where its report links it
	cp -r "$BATS_TEST_DIRNAME/../fixtures/readers/a" "$WORK/one"
	run timeout 60 "$LATLAB" compare "$WORK/one" --axis load
	[ "$status" -eq 0 ] || run_failed
	[ -s "$WORK/one/compare/index.html" ] && [ -z "$(ls -A "$WORK/elsewhere")" ]
}
