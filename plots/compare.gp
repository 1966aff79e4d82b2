# Kernel comparison: the same cell's histogram (threads merged) from two
# or more kernel variants, hosts or campaigns, overlaid: samples per
# microsecond (log) against latency (us).
#   gnuplot -e "ins='stock/CELL/hist.csv rt/CELL/hist.csv'; labels='stock rt'; out='cmp.png'" plots/compare.gp
# Optional: metric, title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metric")) metric = 'wakeup'
if (!exists("labels") && exists("ins")) labels = ins
if (!exists("title")) title = 'kernel comparison'
load lib
# latlab passes `list`, a script defining n, paths[] and names[] (any
# number of curves, blanks in paths, each with its colour and dash type:
# colors[], dashes[]); by hand, blank-separated ins/labels
if (exists("list")) {
	load list
} else {
	n = words(ins)
	array paths[n]
	array names[n]
	array colors[n]
	array dashes[n]
	do for [i = 1:n] {
		paths[i] = word(ins, i)
		names[i] = word(labels, i)
		colors[i] = i
		dashes[i] = 1
	}
}
set title title noenhanced
set xlabel sprintf('%s latency (µs)', metric)
set ylabel 'samples per µs (threads merged)'
# Buckets are the same for every thread: smooth frequency adds them up.
# Other rows weigh 0 (not undefined, which would split the data).
set table $MERGED
do for [i = 1:n] {
	plot paths[i] every ::1 \
		using ($4 > 0 && $4 < OVERFLOW_NS ? $4 / 1000.0 : 1e-9):(strcol(3) eq metric && $4 >= 0 && $4 < OVERFLOW_NS ? $6 * 1000.0 / ($5 - $4) : 0) \
		smooth frequency
}
unset table
set datafile separator whitespace	# the table is blank-separated
# the axis is the data's own range: a log axis only where it spans more
# than a decade (7-16 µs of data is not drawn on 1-100 µs)
stats $MERGED using ($2 > 0 && $1 > 1e-6 ? $1 : NaN) nooutput
if (STATS_max / STATS_min > 10) {
	set logscale x
	set xrange [STATS_min / 1.15 : STATS_max * 1.15]
} else {
	pad = (STATS_max - STATS_min) * 0.05 + 0.05
	set xrange [STATS_min - pad : STATS_max + pad]
}
set logscale y
set format y '10^{%T}'
# the legend under the plot, off the curves and out of the width
set key below horizontal noenhanced
plot for [i = 1:n] $MERGED index (i - 1) using 1:($2 > 0 && $1 > 1e-6 ? $2 : NaN) \
	with linespoints pt 7 ps 0.3 lw 1.5 lc colors[i] dt dashes[i] title names[i]
