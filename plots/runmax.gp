# Is the run long enough? The largest wake-up latency so far, second by
# second, one curve per repeat of a row (threads merged). A curve still
# climbing at the right edge means a longer run would see a larger max.
# Input: report/fig/runmax-N.csv written by `latlab report`:
# t_s, then one column per repeat (empty where that run had ended).
#   gnuplot -e "in='runmax-0.csv'; out='runmax.png'" plots/runmax.gp
# Optional: title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = in
load lib
set datafile missing ''
stats in every ::1 using 1 nooutput
set xrange [0 : STATS_max + 1]
ncol = int(system(sprintf("head -1 '%s' | tr ',' '\\n' | wc -l", in)))
# explicit y range: a flat curve (the max came in the first second) has none
ymin = 1e300
ymax = 0
do for [i = 2:ncol] {
	stats in using (column(i) / 1000.0) nooutput
	if (STATS_min < ymin) { ymin = STATS_min }
	if (STATS_max > ymax) { ymax = STATS_max }
}
tick_lo = ymin / 1.5
tick_hi = ymax * 1.5
set yrange [tick_lo : tick_hi]
set logscale y
eval log_yticks
set title title noenhanced
set xlabel 'time since the start (s)'
set ylabel 'largest wake-up latency so far (µs)'
set key autotitle columnheader
plot for [i = 2:ncol] in using 1:(column(i) / 1000.0) with steps lw 1.5 lc i - 1
