# The report's first figure: the worst case per row of the matrix, a bar
# per kernel variant in its own colour: the median of the runs' maxima
# with the interval of that median (whiskers), the median of the runs'
# p99 (dot), compare's verdict over a pair of bars.
# Input: report/fig/summary.csv (x,row,side,color,n,max_med_us,max_lo_us,
# max_hi_us,coverage,p99_med_us) and `list`, report/fig/summary.list.gp:
# nsides, side_names[], side_colors[], bar_width, nrows, tick_lo, tick_hi,
# the rows' xtics and the verdicts' labels, all written by `latlab report`.
#   gnuplot -e "in='fig/summary.csv'; list='fig/summary.list.gp'; out='summary.png'" plots/summary.gp
# Optional: title, ylabel, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = 'worst case per row'
if (!exists("ylabel")) ylabel = 'wake-up latency (µs)'
load lib
load list
set logscale y
set yrange [tick_lo : tick_hi]
eval log_yticks
set xrange [-0.6 : nrows - 0.4]
set grid noxtics nomxtics
set xtics nomirror noenhanced
if (nrows > 6) set xtics rotate by -20 left font ',9'
set style fill solid 0.75 border -1
set title title noenhanced
set ylabel ylabel noenhanced
set xlabel ''
set key outside top center horizontal noenhanced
# the legend: a box per variant in its colour, then the marks
plot for [k = 1:nsides] NaN with boxes lc side_colors[k] title side_names[k], \
	in every ::1 using 1:6:(bar_width * 0.9):4 with boxes lc variable notitle, \
	'' every ::1 using 1:7:(0):($8 - $7) with vectors heads size screen 0.008,90 lc rgb '#333333' lw 1.2 title 'interval of the median', \
	'' every ::1 using 1:10 with points pt 7 ps 0.9 lc rgb '#333333' title 'p99 (median of the runs)'
