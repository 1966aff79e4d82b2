# Shared by the bench scripts (sourced).

# median_range [DECIMALS]: numbers on stdin -> "median lo hi n"; with
# DECIMALS, "median [lo, hi], n = N" with that many decimals
median_range() {
	sort -g | awk -v d="${1:-}" '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			if (d == "") { print m, v[1], v[NR], NR; exit }
			f = "%." d "f"
			printf f " [" f ", " f "], n = %d\n", m, v[1], v[NR], NR }'
}
