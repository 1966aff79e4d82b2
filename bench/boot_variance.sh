#!/usr/bin/env bash
# Do runs within one boot of an instruction-clock guest vary as much as
# runs in different boots? Runs in one boot share what a boot decides
# (memory layout, KASLR, the random seed, the timer's phase); if that
# mattered, runs of one boot would sit closer together than runs of
# different boots, and a verdict's units would have to be the boots.
#
# And a load can carry history within a boot (compaction's first run has
# the boot's page cache to move): then a run's position in its boot
# matters, and runs of one boot are not exchangeable either.
#
# BOOTS campaigns, each booting STOCK and RT once (order = blocked) for
# RUNS runs of DURATION under each of LOADS (configs/models.ini's loads,
# their definitions taken from it); then per kernel and load two
# one-way analyses of variance of log(max wake-up): with the boot as the
# factor (the spread within boots and of the boots' means, F, a
# permutation p-value of 2,000 shuffles of the runs among the boots, and
# the intra-class correlation: 0, a boot adds nothing), and with the
# run's position in its boot (1..RUNS) as the factor (F, and its
# permutation p-value of 2,000 shuffles of the positions within each
# boot). Prints the maxima boot by boot first.
#
#   bench/boot_variance.sh   (LATLAB=build/latlab KERNELS=kernels BOOTS=8
#                             RUNS=5 DURATION=1s STOCK=... RT=...
#                             LOADS="none hackbench softirq net kwork console compact")
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
KERNELS=${KERNELS:-$PWD/kernels}
BOOTS=${BOOTS:-8}
RUNS=${RUNS:-5}
DURATION=${DURATION:-1s}
LOADS=${LOADS:-none hackbench softirq net kwork console compact}
STOCK=${STOCK:-$KERNELS/vmlinuz-stock}
RT=${RT:-$KERNELS/vmlinuz-rt}
for f in "$STOCK" "$RT"; do
	[ -s "$f" ] || { echo "boot_variance: no $f (make kernels)" >&2; exit 2; }
done
tmp=$(mktemp -d /tmp/latlab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/n.ini" <<EOC
[campaign]
name = n
duration = $DURATION
repeat = $RUNS
order = blocked
output = $tmp/out
boot_attempts = 1
[matrix]
kernel = stock, rt
load = $(echo $LOADS | sed 's/ /, /g')
workload = timer
interval = 1ms
[kernel.stock]
runner = qemu
image = $STOCK
match = !preempt:rt
clock = icount
[kernel.rt]
runner = qemu
image = $RT
match = preempt:rt
clock = icount
EOC
# the loads as configs/models.ini defines them
awk '/^\[/ { keep = /^\[load\./ } keep' configs/models.ini >>"$tmp/n.ini"

for b in $(seq 1 "$BOOTS"); do
	"$LATLAB" run "$tmp/n.ini" -q --set "campaign.name=boot$b" >"$tmp/log$b" 2>&1 ||
		{ echo "boot_variance: campaign $b failed (see below)" >&2; tail -20 "$tmp/log$b" >&2; exit 1; }
done

# "GROUP BOOT MAX_NS" per run
for k in stock rt; do
	for l in $LOADS; do
		for b in $(seq 1 "$BOOTS"); do
			for c in "$tmp"/out/boot"$b"/*/*/*-"$k"-"$l"-*; do
				r=${c##*-}
				awk -F, -v g="$k-$l" -v b="$b" -v r="$r" '$3 == "wakeup" { print g, b, $13, r }' "$c/summary.csv"
			done
		done
	done
done >"$tmp/runs"

echo "# $(basename "$STOCK") and $(basename "$RT"), $BOOTS boots x $RUNS runs of $DURATION, clock = icount"
echo "# max wake-up (us) of each run, a boot a line"
awk '{ k = $1 " boot" $2; if (!(k in v)) o[++n] = k; v[k] = v[k] sprintf(" %.1f", $3 / 1000) }
	END { for (i = 1; i <= n; i++) printf "%-24s%s\n", o[i], v[o[i]] }' "$tmp/runs"
echo "# log(max): by boot (the spread within boots, of the boots' means, F, permutation p, ICC); by position in the boot (F, permutation p within boots)"
awk '
# F of the factor f[] (levels in lv[]) over y[1..n]; MSB and MSW as side results
function fstat(f, n,    i, b, nl, gm, ssb, ssw, sum, cn, m) {
	gm = 0; nl = 0
	for (i = 1; i <= n; i++) { sum[f[i]] += y[i]; cn[f[i]]++; gm += y[i] }
	gm /= n; ssb = 0; ssw = 0
	for (b in cn) { nl++; m[b] = sum[b] / cn[b]; ssb += cn[b] * (m[b] - gm) ^ 2 }
	for (i = 1; i <= n; i++) ssw += (y[i] - m[f[i]]) ^ 2
	MSB = ssb / (nl - 1); MSW = ssw / (n - nl)
	return MSW > 0 ? MSB / MSW : (MSB > 0 ? 1e9 : 0)
}
{ if (!($1 in g)) o[++ng] = $1; g[$1] = 1; rows[$1] = rows[$1] " " $2 ":" $3 ":" $4 }
END {
	srand(1)
	for (q = 1; q <= ng; q++) {
		grp = o[q]
		delete cnt; delete bt; delete ps; delete y; n = 0
		k = split(rows[grp], a, " ")
		for (j = 1; j <= k; j++) {
			split(a[j], p, ":"); n++; bt[n] = p[1]; y[n] = log(p[2]); ps[n] = p[3]; cnt[p[1]]++
		}
		nb = 0; for (b in cnt) nb++
		f0 = fstat(bt, n); msb = MSB; msw = MSW; r = n / nb
		icc = msb + (r - 1) * msw > 0 ? (msb - msw) / (msb + (r - 1) * msw) : 0
		fp0 = fstat(ps, n)
		for (i = 1; i <= n; i++) yo[i] = y[i]
		ge = 0; gp = 0; P = 2000
		for (t = 1; t <= P; t++) {
			# the boot: runs shuffled among all boots
			for (i = n; i > 1; i--) { j = int(rand() * i) + 1; x = y[i]; y[i] = y[j]; y[j] = x }
			if (fstat(bt, n) >= f0 - 1e-12) ge++
		}
		for (i = 1; i <= n; i++) y[i] = yo[i]
		# the position: shuffled within each boot (Fisher-Yates over its runs)
		delete nin; delete idx
		for (i = 1; i <= n; i++) idx[bt[i], ++nin[bt[i]]] = i
		for (t = 1; t <= P; t++) {
			for (i = 1; i <= n; i++) perm[i] = ps[i]
			for (b in nin)
				for (m = nin[b]; m > 1; m--) {
					j = int(rand() * m) + 1
					x = perm[idx[b, m]]; perm[idx[b, m]] = perm[idx[b, j]]; perm[idx[b, j]] = x
				}
			if (fstat(perm, n) >= fp0 - 1e-12) gp++
		}
		printf "%-20s boots %d runs %d  sd within %.3f  sd of boot means %.3f  F %.2f  p %.3f  ICC %.2f  |  position F %.2f  p %.3f\n",
			grp, nb, n, sqrt(msw), sqrt(msb / r), f0, (ge + 1) / (P + 1), icc, fp0, (gp + 1) / (P + 1)
	}
}' "$tmp/runs"
