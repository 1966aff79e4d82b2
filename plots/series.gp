# Time series: each thread's per-second maximum of a metric over the run
# (the spikes of an overnight run), from series.csv.
#   gnuplot -e "in='CELL/series.csv'; out='series.png'" plots/series.gp
# Optional: metric, title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metric")) metric = 'wakeup'
if (!exists("title")) title = in
load lib
stats in every ::1 using (strcol(3) eq metric ? $2 : NaN) nooutput
nthreads = int(STATS_max) + 1
# explicit ranges: a short run has one second, an empty range to autoscale
stats in every ::1 using (strcol(3) eq metric ? $1 : NaN) nooutput
set xrange [STATS_min - 0.5 : STATS_max + 0.5]
stats in every ::1 using (strcol(3) eq metric ? $4 / 1000.0 : NaN) nooutput
tick_lo = STATS_min > 0 ? STATS_min / 2 : 0.5
tick_hi = STATS_max > 0 ? STATS_max * 2 : 10
set yrange [tick_lo : tick_hi]
set logscale y
eval log_yticks	# numbers at any range, not decades alone
set title title noenhanced
set xlabel 'time since the start (s)'
set ylabel sprintf('%s maximum per second (µs)', metric)
plot for [t = 0:nthreads - 1] in every ::1 \
	using (strcol(3) eq metric && $2 == t ? $1 : NaN):($4 / 1000.0) \
	with linespoints pt 7 ps 0.4 lw 1.5 lc t + 1 title sprintf('thread %d', t)
