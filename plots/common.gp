# Shared by every figure script (loaded with `load lib`).
# Variables: out (output path), fmt = 'png' | 'svg' | 'pdf' (default png).
if (!exists("fmt")) fmt = 'png'
# each format's terminal, by name: latlab draws a figure once, in SVG, and
# then `eval term_png; set output ...; replot` for the other formats
term_png = "set terminal pngcairo size 1000,560 enhanced font 'Sans,10'"
term_svg = "set terminal svg size 1000,560 dynamic enhanced font 'Sans,10'"
# PDF is for papers: one column of a two-column paper (3.5 in, IEEE's and
# near ACM's 3.33 in) at 1:1, vector, its fonts embedded (cairo subsets
# them), 6 pt text; no title (the paper's caption carries it)
term_pdf = "set terminal pdfcairo size 3.5in,2.45in enhanced font 'Sans,6' linewidth 0.7; unset title"
if (fmt eq 'png') eval term_png
if (fmt eq 'svg') eval term_svg
if (fmt eq 'pdf') eval term_pdf
set output out
set datafile separator ","
# one palette for every figure (Okabe and Ito's, told apart with colour
# blindness; their yellow left out, too pale for a line on white). latlab
# gives each side (a kernel variant, a host, a value of the compared axis)
# its colour by its name (plot_colors in harness/report/plot.c), so rt is
# one colour in every figure of the report, compare and history.
set linetype 1 lc rgb '#0072B2' lw 1.5
set linetype 2 lc rgb '#D55E00' lw 1.5
set linetype 3 lc rgb '#009E73' lw 1.5
set linetype 4 lc rgb '#CC79A7' lw 1.5
set linetype 5 lc rgb '#E69F00' lw 1.5
set linetype 6 lc rgb '#56B4E9' lw 1.5
set linetype 7 lc rgb '#000000' lw 1.5
set linetype cycle 7
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key outside right top noenhanced
set border 3
set tics nomirror
# the histogram bucket holding values >= 2^42 ns (hist.csv's overflow row)
OVERFLOW_NS = 4398046511104.0
# Ticks on a log y axis from tick_lo to tick_hi (> 0), labelled in plain
# numbers: gnuplot's own ticks are decades, and a range inside one decade
# got no label at all. 1-2-5 per decade; within a decade, finer (1, 1.5,
# 2, 3, 4, 5, 7); over more than three decades, the decades. Use:
#   tick_lo = ...; tick_hi = ...; eval log_yticks
log_yticks = "tick_m = tick_hi / tick_lo < 10 ? '1 1.5 2 3 4 5 7' : (tick_hi / tick_lo > 1000 ? '1' : '1 2 5'); " . \
	"set ytics ('' 1e300); " . \
	"do for [tick_e = floor(log10(tick_lo)) : ceil(log10(tick_hi))] { " . \
	"do for [tick_s in tick_m] { tick_v = real(tick_s) * 10.0**tick_e; " . \
	"if (tick_v >= tick_lo && tick_v <= tick_hi) { set ytics add (sprintf('%g', tick_v) tick_v) } } }"
