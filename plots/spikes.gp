# Spike captures of one cell: each capture's wake-up latency as a stacked
# bar of its parts (timer, irq, softirq, nmi, rt-thread, blocking,
# unexplained, return), from the cell's spikes.csv (docs/spikes.md). An
# incomplete capture has no parts: its bar is empty, never guessed.
#   gnuplot -e "in='CELL/spikes.csv'; out='spikes.png'" plots/spikes.gp
# Optional: title, fmt, lib.
if (!exists("lib")) lib = 'plots/common.gp'
if (!exists("title")) title = in
load lib
parts = 'timer irq softirq nmi rt-thread blocking unexplained return'
colours = '#4477aa #ee6677 #ccbb44 #aa3377 #228833 #66ccee #bbbbbb #222222'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set title title noenhanced
set xlabel 'capture'
set ylabel 'wake-up latency (µs)'
set yrange [0:*]
plot for [c = 6:13] in every ::1 using (column(c) / 1000.0):xtic(1) \
	lc rgb word(colours, c - 5) title word(parts, c - 5)
