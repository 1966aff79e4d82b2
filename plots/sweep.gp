# I/O size sweep: bandwidth and p99 I/O latency against size (log x), one
# line per workload. Input: report/sweep.csv written by `latlab report`:
# workload,size,bytes_per_s,io_p99_us,response_p99_us
#   gnuplot -e "in='report/sweep.csv'; workloads='tmpfs disk'; out='sweep.png'" plots/sweep.gp
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = 'I/O size sweep'
load lib
set multiplot layout 2,1 title title noenhanced
set logscale xy
set format x '%.0s%cB'
set xlabel 'I/O size (bytes)'
set ylabel 'bandwidth (MB/s)'
plot for [i = 1:words(workloads)] in every ::1 \
	using (strcol(1) eq word(workloads, i) ? $2 : NaN):($3 / 1e6) \
	with linespoints pt 7 lw 2 lc i title word(workloads, i)
set ylabel 'I/O p99 (µs)'
plot for [i = 1:words(workloads)] in every ::1 \
	using (strcol(1) eq word(workloads, i) ? $2 : NaN):4 \
	with linespoints pt 7 lw 2 lc i title word(workloads, i)
unset multiplot
