#!/usr/bin/env bash
# Runs the unit tests (cmocka) and the CLI tests (bats), shows each
# runner's own summary, and ends with one line: "N passed, N failed".
#   tests/run.sh [all|unit|cli]      (LATLAB and UNIT_DIR from the Makefile)
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
: "${LATLAB:=$PWD/build/latlab}"
: "${UNIT_DIR:=build/tests}"
export LATLAB
passed=0
failed=0

if [ "$what" = all ] || [ "$what" = unit ]; then
	echo "== unit tests (cmocka)"
	for t in "$UNIT_DIR"/test_*; do
		[ -x "$t" ] || continue
		out=$(timeout 120 "$t" 2>&1)
		rc=$?
		p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
		f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
		p=${p:-0}
		f=${f:-0}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1	# crashed or timed out before its summary
		fi
		if [ "$f" -ne 0 ]; then
			printf '%s\n' "$out"
		else
			printf '%s\n' "$out" | grep -E '^\[(==========|  PASSED  )\]'
		fi
		echo "   $(basename "$t"): $p passed, $f failed"
		passed=$((passed + p))
		failed=$((failed + f))
	done
fi

if [ "$what" = all ] || [ "$what" = cli ]; then
	echo "== command-line tests (bats)"
	out=$(timeout 900 bats --tap tests/cli 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	echo "   bats: $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
