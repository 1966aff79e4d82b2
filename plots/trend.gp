# latlab history: one row's wake-up latency point by point (a kernel
# variant on a host in one campaign tree, in time or release order): the
# median of the runs' maxima with their range (bars) and the median of
# their p99.99, from history's fig/trend-R.csv; each point named on the x
# axis by its last column (when it ran, or its release: --by).
#   gnuplot -e "in='history/fig/trend-0.csv'; out='trend.png'" plots/trend.gp
# Optional: title, xlabel, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = in
if (!exists("xlabel")) xlabel = 'point (the trees, in order)'
load lib
stats in every ::1 using 1 nooutput
set xrange [STATS_min - 0.5 : STATS_max + 0.5]
# the y range from the data, with numbers at any range (common.gp's log_yticks)
stats in every ::1 using 5 nooutput
tick_lo = STATS_min > 0 ? STATS_min / 1.5 : 0.5
stats in every ::1 using 6 nooutput
tick_hi = STATS_max > 0 ? STATS_max * 1.5 : 10
set yrange [tick_lo : tick_hi]
set logscale y
eval log_yticks
set title title noenhanced
set xlabel xlabel noenhanced
set ylabel 'wake-up latency (µs)'
set xtics 1 rotate by -20 left noenhanced
plot in every ::1 using 1:4:5:6:xticlabels(8) with yerrorlines lw 2 pt 7 title 'max (median of the runs, range)', \
	'' every ::1 using 1:7 with linespoints lw 1.5 pt 5 title 'p99.99 (median of the runs)'
