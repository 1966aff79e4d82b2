#!/usr/bin/env bash
# Runs the unit tests (cmocka) and the CLI tests (bats), shows each
# runner's own summary, and ends with one line: "N passed, N failed".
#   tests/run.sh [all|unit|cli|guests]  (guests: tests/cli/guests alone)
#                                    (LATLAB, UNIT_DIR, CROSS_TRIPLETS,
#                                     CROSS_BUILD, KERNELS from the Makefile)
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
: "${LATLAB:=$PWD/build/latlab}"
: "${UNIT_DIR:=build/tests}"
export LATLAB
passed=0
failed=0
# each failure again at the end (its first 40 lines), where a log cut to
# its head and tail still shows it: CI kept neither end of one in 3
recap=$(mktemp /tmp/latlab-recap.XXXXXX)
# shellcheck source=pace.sh
. tests/pace.sh

# unit_dir DIR LABEL [RUNNER...]: every test_* of DIR, run by RUNNER
unit_dir() {
	local dir=$1 label=$2 t out rc p f why
	shift 2
	for t in "$dir"/test_*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		case $t in *.d) continue ;; esac
		out=$(timeout 300 "$@" "$t" 2>&1)
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
			why=$(printf '%s\n' "$out" | grep -E '^\[ *(ERROR|LINE|FAILED) *\]' | head -40)
			[ -n "$why" ] || why=$(printf '%s\n' "$out" | tail -10)	# crashed or cut
			printf -- '-- %s (exit %d)\n%s\n' "$label$(basename "$t")" "$rc" "$why" >>"$recap"
		else
			printf '%s\n' "$out" | grep -E '^\[(==========|  PASSED  )\]'
		fi
		echo "   $label$(basename "$t"): $p passed, $f failed"
		passed=$((passed + p))
		failed=$((failed + f))
	done
}

# the qemu-user program for a cross triplet
qemu_user() {
	case $1 in
	aarch64-*) echo qemu-aarch64 ;;
	arm-*) echo qemu-arm ;;
	esac
}

# tap_count LABEL RC OUTPUT: show a bats run's TAP, add its ok and not ok
# lines to the totals (a run that failed with none failed is one failure)
tap_count() {
	local p f
	printf '%s\n' "$3"
	p=$(printf '%s\n' "$3" | grep -c '^ok ')
	f=$(printf '%s\n' "$3" | grep -c '^not ok ')
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		{ echo "-- $1: exit $2 with no test failed"; printf '%s\n' "$3" | tail -20; } >>"$recap"
	fi
	# a not ok line and the # lines under it, each cut at 40 lines
	printf '%s\n' "$3" | awk -v label="$1" '
		/^not ok / { keep = 1; n = 0; print "-- " label ": " $0; next }
		keep && /^#/ { if (++n <= 40) print; next }
		{ keep = 0 }' >>"$recap"
	echo "   $1: $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
}

# lane_of FILE: the lane FILE declares in its header ("# lane: NAME");
# empty when it declares none
lane_of() {
	sed -n '1,20s/^# lane: *\([a-z-]*\).*/\1/p' "$1" | head -1
}

# lanes_check DIR LANES...: every bats file of DIR declares one of LANES;
# one that does not is a failure, named, and is not run
lanes_check() {
	local dir=$1 f l
	shift
	for f in "$dir"/*.bats; do
		[ -e "$f" ] || continue	# no file there
		l=$(lane_of "$f")
		case " $* " in
		*" $l "*) [ -n "$l" ] && continue ;;
		esac
		echo "tests/run.sh: $f declares no lane of $* (a \"# lane: NAME\" line in its header): not run"
		printf -- '-- %s: no lane declared (one of: %s)\n' "$f" "$*" >>"$recap"
		failed=$((failed + 1))
	done
}

# lane_start LABEL FILES [PREFIX...]: a bats run of the blank-separated
# FILES in the background, in a session of its own (an interrupted run.sh
# takes it with it), under PREFIX (chrt -i 0: at idle priority); its
# index in $lane_last. lane_wait counts it
lane_n=0
lane_last=
lane_start() {
	local label=$1 files=$2
	shift 2
	lane_last=
	[ -n "${files// /}" ] || return 0	# a lane of no file is no run
	# shellcheck disable=SC2086 # a lane is a list of files
	# a lane's bound for a hang: 30 min on a quiet host, up to 2 h on a busy one
	setsid "$@" timeout "$(paced 1800)" bats --tap --timing $files >"$alongside_out.lane$lane_n" 2>&1 &
	lane_pid[lane_n]=$!	# and its session's id
	lane_label[lane_n]=$label
	lane_pids="$lane_pids $!"
	lane_last=$lane_n
	lane_n=$((lane_n + 1))
}

# lane_wait I...: wait for the lanes started as I..., count each in turn
lane_wait() {
	local i rc
	for i in "$@"; do
		[ -n "$i" ] || continue	# a lane of no file
		wait "${lane_pid[i]}"
		rc=$?
		tap_count "${lane_label[i]}" "$rc" "$(cat "$alongside_out.lane$i")"
		lane_pids=${lane_pids/ ${lane_pid[i]}/}
	done
}

# side_by_side LABEL FILES [LABEL FILES]...: the lanes at once, waited for
side_by_side() {
	local started=()
	while [ $# -ge 2 ]; do
		lane_start "$1" "$2"
		started+=("$lane_last")
		shift 2
	done
	lane_wait "${started[@]}"
}

# unidle SID: every task of session SID at idle priority (SCHED_IDLE,
# policy 5 in /proc's stat) back to SCHED_OTHER; three sweeps, for a task
# forked by one not yet moved is idle too
unidle() {
	local sid=$1 f line tid
	for _ in 1 2 3; do
		for f in /proc/[0-9]*/task/[0-9]*/stat; do
			read -r line 2>/dev/null <"$f" || continue
			# shellcheck disable=SC2086 # the fields after the name
			set -- ${line##*) }
			[ "$4" = "$sid" ] && [ "${39}" = 5 ] || continue
			tid=${f%/stat}
			chrt -o -p 0 "${tid##*/}" 2>/dev/null
		done
	done
}

# tests/cli/alongside: the bats files whose figures must not depend on
# the host's load (the instruction-clock guests). With `all` they run in
# the background while the unit tests run, in a session of their own (so
# an interrupted run.sh takes their qemu with it), and are done before the
# other bats files start
alongside_out=$(mktemp /tmp/latlab-alongside.XXXXXX)
alongside_pid=
lane_pids=
trap 'for p in $alongside_pid $lane_pids; do kill -- -"$p" 2>/dev/null; done; rm -f "$alongside_out"* "$recap"' EXIT
# each file its own bats, one guest and one CPU each: the first at once,
# the others once $alongside_out.built exists (the cross build is done)
alongside() {
	local f pids="" rc=0 first=1
	for f in tests/cli/alongside/*.bats; do
		[ -e "$f" ] && [ "$(lane_of "$f")" = alongside ] || continue	# said by lanes_check
		[ -n "$first" ] || while ! [ -e "$alongside_out.built" ]; do sleep 0.2; done
		first=
		timeout "$(paced 1800)" bats --tap --timing "$f" >"$alongside_out.${f##*/}" 2>&1 &
		pids="$pids $!"
	done
	for f in $pids; do
		wait "$f" || rc=1
	done
	cat "$alongside_out".*.bats >"$alongside_out"
	rm -f "$alongside_out".*.bats "$alongside_out.built"
	return $rc
}
# the first file starts beside the cross build, the others after it: one
# CPU each (two guests and a compile on two CPUs made each 1.5x slower)
if [ "$what" = all ]; then
	setsid bash -c "$(declare -f lane_of alongside paced); alongside_out=$alongside_out; alongside" &
	alongside_pid=$!
fi

# CROSS_BUILD: the command that builds the other architectures' unit
# tests (make test gives "make cross"), run here, beside the alongside files
if [ -n "${CROSS_BUILD:-}" ] && { [ "$what" = all ] || [ "$what" = unit ]; }; then
	echo "== $CROSS_BUILD [at ${SECONDS} s]"
	$CROSS_BUILD || { echo "tests/run.sh: '$CROSS_BUILD' failed"; exit 2; }
fi
: >"$alongside_out.built"	# the alongside files after the first may start

if [ "$what" = all ] || [ "$what" = unit ]; then
	echo "== unit tests (cmocka) [at ${SECONDS} s]"
	unit_dir "$UNIT_DIR" ""
	# the same tests built for other architectures (make cross), under
	# qemu-user: their C library from the cross toolchain (-L), the
	# other libraries from latlab's sysroot (tools/cross-sysroot.sh)
	for triplet in ${CROSS_TRIPLETS:-}; do
		dir=build/$triplet/tests
		if ! [ -d "$dir" ]; then
			echo "   $triplet: no unit tests built (make cross)"
			failed=$((failed + 1))
			continue
		fi
		echo "== unit tests for $triplet, under $(qemu_user "$triplet")"
		# the fuzz test's 3,000 trees take 22 s each under qemu-user; the
		# first 500 of the same sequence check the other architecture (the
		# native and sanitizer builds run them all)
		LATLAB_FUZZ_ITERS=${LATLAB_FUZZ_ITERS:-500} \
		LD_LIBRARY_PATH=$PWD/build/sysroot/$triplet/usr/lib/$triplet \
			unit_dir "$dir" "$triplet/" "$(qemu_user "$triplet")" -L "/usr/$triplet"
	done
fi

if [ "$what" = all ] || [ "$what" = cli ]; then
	if [ -n "$alongside_pid" ]; then
		# waited for before the other bats files, which measure the host
		echo "== command-line tests run beside the unit tests (bats, tests/cli/alongside) [at ${SECONDS} s]"
		wait "$alongside_pid"
		rc=$?
		alongside_pid=
	else
		echo "== command-line tests of tests/cli/alongside (bats)"
		alongside
		rc=$?
	fi
	tap_count "bats (alongside)" "$rc" "$(cat "$alongside_out")"
	lanes_check tests/cli/alongside alongside
fi

# The host's own bats files: first JUDGES alone — the files whose tests
# judge what the host measured (a verdict, a culprit, a burst in the
# right window, noise under a hog), which nothing else may disturb; then
# three lanes side by side: the other files that measure (they check what
# was written, not how late it was), READERS, which render, read, refuse
# and recover and run no real-time or busy load that could delay the
# other lanes' threads, and THIRD, whose time is short cells of sleeping
# threads (killed and resumed), a fake Debian mirror, not CPU. Each file
# says its lane in its header (# lane: judges, measures, readers or
# third); a file that says none is not run and fails the suite: a new
# file never lands in a lane by default. Why each file is where it is:
# docs/performance.md, "Where the suite's time goes".
#
# tests/cli/guests: the files that boot qemu guests under TCG (none of
# them measures the host), in two lanes: GUESTS-ICOUNT, whose guests run
# on the instruction clock (their figures are instruction time, which
# the host's load does not reach), starts beside the three host lanes at
# idle priority (SCHED_IDLE: any other task of the machine runs first,
# so the host lanes keep their CPU, and the guests take what they leave,
# half of two CPUs) and goes back to normal priority when those end;
# GUESTS-A, on the host's clock (hangs, kills, boots, the disk filling:
# their bounds are the host's time), starts then, beside what is left of
# the other. `tests/run.sh guests` runs the two side by side.
guests=("" "")
if [ "$what" = all ] || [ "$what" = cli ] || [ "$what" = guests ]; then
	lanes_check tests/cli/guests guests-a guests-icount
	for f in tests/cli/guests/*.bats; do
		case $(lane_of "$f") in
		guests-a) guests[0]="${guests[0]} $f" ;;
		guests-icount) guests[1]="${guests[1]} $f" ;;
		esac
	done
fi
gnames() { local f; for f in $1; do printf ' %s' "${f##*/}"; done; }
icount_label="bats (guests on the instruction clock:$(gnames "${guests[1]}"))"
icount_lane=
if [ "$what" = all ] || [ "$what" = cli ]; then
	judges=() measures=() reads=() thirds=()
	lanes_check tests/cli judges measures readers third
	for f in tests/cli/*.bats; do
		case $(lane_of "$f") in
		judges) judges+=("$f") ;;
		third) thirds+=("$f") ;;
		readers) reads+=("$f") ;;
		measures) measures+=("$f") ;;
		esac
	done
	names() { local f; for f in "$@"; do f=${f##*/}; printf '%s ' "${f%.bats}"; done; }
	JUDGES=$(names "${judges[@]}")
	JUDGES=${JUDGES% }
	THIRD=$(names "${thirds[@]}")
	THIRD=${THIRD% }
	READERS=$(names "${reads[@]}")
	READERS=${READERS% }
	echo "== command-line tests that judge the host's figures, alone (bats: ${JUDGES// /, }) [at ${SECONDS} s]"
	# a guard against a hang, not a pace: the sanitizer build's run took
	# 14 min 51 s here on 2026-12-01 and was cut at the old 900 s;
	# --timing: each test's time on its line, to see where the suite goes
	if [ ${#judges[@]} -gt 0 ]; then
		out=$(timeout "$(paced 1800)" bats --tap --timing "${judges[@]}" 2>&1)
		tap_count "bats (judges)" $? "$out"
	fi
	echo "== command-line tests (bats), three lanes: the host's other measurements, its readers, and ${THIRD// /, } beside them; the instruction-clock guests at idle priority [at ${SECONDS} s]"
	lane_start "$icount_label" "${guests[1]}" chrt -i 0
	icount_lane=$lane_last
	side_by_side "bats (the host's other measurements)" "${measures[*]}" \
		"bats (${THIRD// /, })" "${thirds[*]}" \
		"bats (readers: ${READERS// /, })" "${reads[*]}"
	[ -z "$icount_lane" ] || unidle "${lane_pid[icount_lane]}"
fi

if [ "$what" = all ] || [ "$what" = cli ] || [ "$what" = guests ]; then
	if [ -n "$icount_lane" ]; then
		echo "== command-line tests that boot guests on the host's clock, beside the rest of those on the instruction clock (bats, tests/cli/guests) [at ${SECONDS} s]"
	else
		echo "== command-line tests that boot guests, two lanes side by side (bats, tests/cli/guests) [at ${SECONDS} s]"
		lane_start "$icount_label" "${guests[1]}"
		icount_lane=$lane_last
	fi
	lane_start "bats (guests on the host's clock:$(gnames "${guests[0]}"))" "${guests[0]}"
	lane_wait "$lane_last" "$icount_lane"
fi

if [ -s "$recap" ]; then
	echo "== the failures again"
	cat "$recap"
fi
echo "(tests/run.sh took ${SECONDS} s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
