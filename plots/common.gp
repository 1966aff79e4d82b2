# Shared by every figure script (loaded with `load lib`).
# Variables: out (output path), fmt = 'png' | 'svg' | 'pdf' (default png).
if (!exists("fmt")) fmt = 'png'
if (fmt eq 'png') set terminal pngcairo size 1000,560 enhanced font 'Sans,10'
if (fmt eq 'svg') set terminal svg size 1000,560 dynamic enhanced font 'Sans,10'
if (fmt eq 'pdf') set terminal pdfcairo size 10in,5.6in enhanced font 'Sans,10'
set output out
set datafile separator ","
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key outside right top noenhanced
set border 3
set tics nomirror
# the histogram bucket holding values >= 2^42 ns (hist.csv's overflow row)
OVERFLOW_NS = 4398046511104.0
