# Summary bars: each cell's max (bar, coloured by kernel variant) with its
# p99.99 and p99 (marks), grouped by load (cells sorted by load).
# Input: report/cells-summary.csv written by `latlab report` (one row per
# cell, threads merged): index,cell,kernel,kernel_index,load,label,
# p50_us,p99_us,p99.99_us,max_us,metric (each cell's: its workload's own)
#   gnuplot -e "in='report/cells-summary.csv'; kernels='stock rt'; out='summary.png'" plots/summary.gp
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("kernels")) kernels = 'kernel'
if (!exists("title")) title = 'latency per cell'
if (!exists("ylabel")) ylabel = 'wakeup latency (µs)'
load lib
set logscale y
set style fill solid 0.6 border -1
set boxwidth 0.6
set xtics rotate by -30 left noenhanced font ',8'
set title title noenhanced
set xlabel 'cell (grouped by load)'
set ylabel ylabel noenhanced
set bmargin 9
set xrange [-0.7:*]
plot for [k = 1:words(kernels)] NaN with boxes lc k title word(kernels, k), \
	in every ::1 using 1:10:4:xticlabels(6) with boxes lc variable notitle, \
	'' every ::1 using 1:9 with points pt 9 ps 1.3 lc rgb 'black' title 'p99.99', \
	'' every ::1 using 1:8 with points pt 7 ps 0.9 lc rgb '#555555' title 'p99'
