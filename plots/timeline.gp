# Latency over time inside a cell: a heatmap of timeline.csv — time (s)
# against latency (µs, log), each box a window x a latency bin, its colour
# the samples in it (log), every thread merged. A disturbance every 60 s
# shows as a column of boxes high up every 60 s.
#   gnuplot -e "in='CELL/timeline.csv'; window=10; out='timeline.png'" plots/timeline.gp
# Optional: metric ('wakeup', 'io', 'response', 'noise_max', 'noise_total'),
# window (s, timeline.csv's: [campaign] timeline), title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("metric")) metric = 'wakeup'
if (!exists("window")) window = 10
window = window + 0	# latlab passes it quoted
if (!exists("title")) title = in
load lib
# sum the threads: one key per window and bin, its counts added
set table $SUM
plot in every ::1 using ($1 * 100 + $4):(strcol(3) eq metric ? $7 : 0) smooth frequency
unset table
set datafile separator whitespace	# the table is blank-separated
t(k) = floor(k / 100)
bin(k) = k - 100 * floor(k / 100)
# a bin's edges in µs: half powers of two from 1 µs; bin 0 drawn from 0.5 µs
lo(b) = b == 0 ? 0.5 : 2 ** ((b - 1) / 2.0)
hi(b) = b == 0 ? 1.0 : 2 ** (b / 2.0)
set logscale y
set logscale cb
set format y '%g'
set title title noenhanced
set xlabel 'time since the start (s)'
set ylabel sprintf('%s latency (µs)', metric) noenhanced
set cblabel 'samples in the window'
set palette defined (0 '#b8c8f0', 1 '#3060c0', 2 '#f0a000', 3 '#c00000')
set key off
stats $SUM using ($2 > 0 ? $1 : NaN) nooutput
set xrange [0 : t(STATS_max) + window]
plot $SUM using (t($1) + window / 2.0):(sqrt(lo(bin($1)) * hi(bin($1)))): \
	(t($1)):(t($1) + window):(lo(bin($1))):(hi(bin($1))):($2 > 0 ? $2 : NaN) \
	with boxxyerror fs solid 1.0 noborder fc palette
