# Tail plot: the fraction of samples above x (1 - CDF, log) against latency
# (us, log), several cells on one axis (their threads merged).
#   gnuplot -e "ins='A/hist.csv B/hist.csv'; labels='stock rt'; out='tail.png'" plots/tail.gp
# Optional: metric, xlabel, title, fmt, lib. Labels are blank-separated words.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metric")) metric = 'wakeup'
if (!exists("labels") && exists("ins")) labels = ins
if (!exists("title")) title = 'tail latency'
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
# each curve's metric: the list's metrics[] (latlab's report: each cell's
# workload's own), else `metric` for all
if (!exists("metrics")) {
	array metrics[n]
	do for [i = 1:n] { metrics[i] = metric }
}
# 1 - CDF at each bucket's upper edge, overflow included (hi = max + 1).
# Other metrics' rows weigh 0 rather than being undefined: an undefined
# point would split the data, and cnormal normalises over all pieces.
set table $TAIL
do for [i = 1:n] {
	plot paths[i] every ::1 using ($5 / 1000.0):(strcol(3) eq metrics[i] && $4 >= 0 ? $6 : 0) smooth cnormal
}
unset table
set datafile separator whitespace	# the table is blank-separated
# the metric's own range (the zero-weight rows of other metrics extend it)
stats $TAIL using ($2 < 1 - 1e-12 ? $1 : NaN) nooutput
set xrange [STATS_min * 0.8 : *]
set logscale xy
set format y '10^{%T}'
set title title noenhanced
if (!exists("xlabel")) xlabel = sprintf('%s latency (µs)', metric)
set xlabel xlabel noenhanced
set ylabel 'fraction of samples above'
set yrange [:1.5]
# the legend under the plot: with many curves (a side's threads, several
# sides) the lower left is not empty enough
set key below horizontal noenhanced
plot for [i = 1:n] $TAIL index (i - 1) using 1:(1 - $2 > 1e-12 ? 1 - $2 : NaN) \
	with steps lw 2 lc colors[i] dt dashes[i] title names[i]
