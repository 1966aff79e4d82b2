# Latency histogram, OSADL style: samples per 1-µs bin (log) against
# latency (µs), one curve per thread, for one cell and one metric — the
# layout of cyclictest -h. Each hist.csv bucket counts in the bin of its
# lower edge (above 262 µs latlab's buckets are wider than 1 µs, so some
# bins there stay empty).
#   gnuplot -e "in='CELL/hist.csv'; out='hist.png'" plots/hist.gp
# Optional: metric ('wakeup', 'io', 'response', 'noise_max', 'noise_total'),
# title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metric")) metric = 'wakeup'
if (!exists("title")) title = in
load lib
ok(t) = strcol(3) eq metric && $4 >= 0 && $4 < OVERFLOW_NS && $1 == t
stats in every ::1 using (strcol(3) eq metric ? $1 : NaN) nooutput
nthreads = int(STATS_max) + 1
# Other rows weigh 0 rather than being undefined (which would split the
# data); the empty bins are dropped when plotting.
set table $BINS
do for [t = 0:nthreads - 1] {
	plot in every ::1 using (floor($4 / 1000.0)):(ok(t) ? $6 : 0) smooth frequency
}
unset table
set datafile separator whitespace	# the table is blank-separated
stats $BINS using ($2 > 0 ? $1 : NaN) nooutput
if (STATS_max / (STATS_min > 1 ? STATS_min : 1) > 100) set logscale x
set xrange [(STATS_min > 1 ? STATS_min : 1) * 0.9 : STATS_max * 1.1 + 1]
set logscale y
set format y '10^{%T}'
set title title noenhanced
set xlabel sprintf(metric[1:5] eq 'noise' ? '%s (µs)' : '%s latency (µs)', metric) noenhanced
set ylabel 'samples per 1 µs bin'
plot for [t = 0:nthreads - 1] $BINS index t using 1:($2 > 0 ? $2 : NaN) \
	with linespoints pt 7 ps 0.3 lw 1.5 lc t + 1 title sprintf('thread %d', t)
