#!/bin/bash
# tools/fresh-check.sh [DIR] — the before-stop check (docs/performance.md,
# "The test suite on a fresh, busy machine"): make test as a newcomer's
# machine runs it, so that its failures are found on this one.
#
# - clones this checkout's HEAD into DIR (default: a new /tmp/latlab-fresh.XXXXXX):
#   no build, no kernels/, no results of this tree;
# - latlab's own cache empty: XDG_CACHE_HOME is a new directory under DIR
#   (the developer's ~/.cache/latlab is not touched); latlab removes the
#   tracefs instances of latlabs that are gone when it starts, and no
#   top-level tracing setting is latlab's to reset;
# - a CPU hog and hackbench beside it, each in a session of its own (a hog
#   alone is not enough: issue 72), stopped by their session ids at the end;
# - make test, timed; its last lines and the time printed, its whole
#   output in DIR/make-test.log.
#
# Exit: make test's status; 2 for a bad use or no hackbench. Packages make deps installs
# stay installed (a fresh machine would install them: apt's own time).
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d /tmp/latlab-fresh.XXXXXX) || exit 2
	rmdir "$dir"
elif [ -e "$dir" ]; then
	echo "fresh-check: $dir exists: name a new directory" >&2
	exit 2
fi
# hackbench beside it comes from rt-tests, which make deps would install
# (timed) — on a machine that has none, it alone is installed first
command -v hackbench >/dev/null || {
	echo "fresh-check: no hackbench: installing rt-tests alone (apt-get) before the clock starts"
	{ apt-get update -q && apt-get install -y -q rt-tests; } >/dev/null 2>&1 &&
		command -v hackbench >/dev/null || {
		echo "fresh-check: no hackbench, and apt-get install rt-tests failed" >&2
		exit 2
	}
}
git clone -q "$here" "$dir" || exit 2
mkdir -p "$dir/.fresh-cache"
echo "fresh-check: $(git -C "$dir" log -1 --format='%h %<(60,trunc)%s') in $dir, beside a CPU hog and hackbench"

setsid bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
hog=$!
setsid bash -c 'while :; do hackbench -g 2 -l 2000 || sleep 1; done' </dev/null >/dev/null 2>&1 &
hb=$!
stop() { kill -- "-$hog" "-$hb" 2>/dev/null; }
trap 'stop; exit 130' INT TERM

start=$(date +%s)
XDG_CACHE_HOME=$dir/.fresh-cache make -C "$dir" test >"$dir/make-test.log" 2>&1
rc=$?
end=$(date +%s)
stop
trap - INT TERM

tail -n 3 "$dir/make-test.log"
grep -E '^(not ok|-- bats .*: not ok)' "$dir/make-test.log" | sort -u | head -n 40
printf 'fresh-check: make test exit %d in %d min %02d s (goal: 15 min); log %s\n' \
	"$rc" $(((end - start) / 60)) $(((end - start) % 60)) "$dir/make-test.log"
exit "$rc"
