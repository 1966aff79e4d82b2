# Shared by every figure script (loaded with `load lib`).
# Variables: out (output path), fmt = 'png' | 'svg' | 'pdf' (default png).
if (!exists("fmt")) fmt = 'png'
# each format's terminal, by name: latlab draws a figure once, in SVG, and
# then `eval term_png; set output ...; replot` for the other formats
term_png = "set terminal pngcairo size 1000,560 enhanced font 'Sans,10'"
term_svg = "set terminal svg size 1000,560 dynamic enhanced font 'Sans,10'"
term_pdf = "set terminal pdfcairo size 10in,5.6in enhanced font 'Sans,10'"
if (fmt eq 'png') eval term_png
if (fmt eq 'svg') eval term_svg
if (fmt eq 'pdf') eval term_pdf
set output out
set datafile separator ","
# one palette for every figure (Okabe and Ito's, told apart with colour
# blindness): curve i of any figure has the same colour everywhere
set linetype 1 lc rgb '#0072B2' lw 1.5
set linetype 2 lc rgb '#D55E00' lw 1.5
set linetype 3 lc rgb '#009E73' lw 1.5
set linetype 4 lc rgb '#CC79A7' lw 1.5
set linetype 5 lc rgb '#E69F00' lw 1.5
set linetype 6 lc rgb '#56B4E9' lw 1.5
set linetype 7 lc rgb '#000000' lw 1.5
set linetype 8 lc rgb '#F0E442' lw 1.5
set linetype cycle 8
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key outside right top noenhanced
set border 3
set tics nomirror
# the histogram bucket holding values >= 2^42 ns (hist.csv's overflow row)
OVERFLOW_NS = 4398046511104.0
