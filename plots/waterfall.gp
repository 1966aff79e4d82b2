# latlab history: OSADL's waterfall — one row's wake-up histograms point
# by point (a kernel variant on a host in one campaign tree), each a line
# in depth: latency (µs, log) across, the point in depth, samples (log) up.
# From history's fig/waterfall-R.dat (blank-separated blocks: point,
# latency_us, count, color: the point's kernel variant's colour).
#   gnuplot -e "in='history/fig/waterfall-0.dat'; out='w.png'" plots/waterfall.gp
# Optional: title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = in
load lib
set datafile separator whitespace
set logscale x
set logscale z
# counts of 1 everywhere (a short run) leave no z range to autoscale: from below 1
set zrange [0.8:*]
set xyplane 0
set view 60, 30
set title title noenhanced
set xlabel 'wake-up latency (µs)'
set ylabel 'point'
set zlabel 'samples' rotate
set ytics 1
set key off
splot in using 2:1:3:4 with lines lw 1.5 lc variable
