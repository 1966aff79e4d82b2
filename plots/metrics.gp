# A cell's metrics side by side: each metric's histogram with the threads
# merged — samples per µs (log) against the value (µs, log) — so the
# wake-up, the time in the I/O and the response the application sees (and
# a workload's own, as noise_max) read on one axis.
#   gnuplot -e "in='CELL/hist.csv'; metrics='wakeup io response'; out='metrics.png'" plots/metrics.gp
# Optional: title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metrics")) metrics = 'wakeup io response'
if (!exists("title")) title = in
load lib
n = words(metrics)
# Buckets are the same for every thread: smooth frequency adds them up.
# Other rows weigh 0 (not undefined, which would split the data).
set table $MERGED
do for [i = 1:n] {
	plot in every ::1 \
		using ($4 > 0 && $4 < OVERFLOW_NS ? $4 / 1000.0 : 1e-9):(strcol(3) eq word(metrics, i) && $4 >= 0 && $4 < OVERFLOW_NS ? $6 * 1000.0 / ($5 - $4) : 0) \
		smooth frequency
}
unset table
set datafile separator whitespace	# the table is blank-separated
set logscale xy
set format y '10^{%T}'
set title title noenhanced
set xlabel 'value (µs)'
set ylabel 'samples per µs (threads merged)'
plot for [i = 1:n] $MERGED index (i - 1) using 1:($2 > 0 && $1 > 1e-6 ? $2 : NaN) \
	with linespoints pt 7 ps 0.3 lw 1.5 lc i title word(metrics, i) noenhanced
