#!/bin/bash
# tools/arch-check.sh [ROOT]: docs/architecture.md true to the tree.
# - the map (its first fenced block): every path a line starts with
#   exists, and every folder of the checkout (and of harness/) is named,
#   itself or by a path under it — but for what the build and runs make
#   (build/, results/, kernels/) and hidden folders other than .ci/;
# - each "### NAME/ —" section's table: every file its rows name
#   (axis.c/h for both) is in harness/NAME, and every file of
#   harness/NAME is named in it.
# Prints each that is not, "map: ..." or "NAME/: ...". Exit 0 when none,
# 1 when some, 2 for a ROOT without the document.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" 2>/dev/null && [ -f docs/architecture.md ] ||
	{ echo "arch-check: $root has no docs/architecture.md" >&2; exit 2; }
doc=docs/architecture.md
bad=0
# the map's first column: the paths its lines start with ("debian/, systemd/")
map=$(awk '/^## The map/ { m = 1 } m && /^```$/ { if (f) exit; f = 1; next } f' "$doc" |
	grep -E '^[a-z.]' | sed 's/  .*//' | tr ',' '\n' | sed 's/^ *//; s/ *$//')
for p in $map; do
	[ -e "$p" ] || { echo "map: $p does not exist"; bad=1; }
done
# each named path and the folders above it
named=$(for p in $map; do
	while :; do
		echo "$p"
		q=$(dirname "${p%/}")
		[ "$q" != . ] || break
		p=$q/
	done
done | sort -u)
for d in $( (find . -mindepth 1 -maxdepth 1 -type d; find harness -mindepth 1 -maxdepth 1 -type d) |
	sed 's|^\./||' | awk '(!/^\./ || $0 == ".ci") && !/^(build|results|kernels)$/' | sort); do
	grep -qxF "$d/" <<<"$named" || { echo "map: $d/ is not named"; bad=1; }
done
# each "### NAME/ —" section's table against harness/NAME
for sec in $(grep -o '^### [a-z]*/' "$doc" | awk '{ print $2 }'); do
	names=$(awk -v s="### $sec" 'index($0, s) == 1 { f = 1; next } /^##/ { f = 0 } f && /^\| / { print $2 }' FS='|' "$doc" |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -E '^[a-z_0-9]+\.(c|h|c/h|js)$' |
		awk '/\.c\/h$/ { b = substr($0, 1, length($0) - 4); print b ".c"; print b ".h"; next } { print }')
	for f in $names; do
		[ -e "harness/$sec$f" ] || { echo "$sec: $f is named but not in harness/$sec"; bad=1; }
	done
	for f in $(ls "harness/$sec"); do
		grep -qxF "$f" <<<"$names" || { echo "$sec: harness/$sec$f is not named"; bad=1; }
	done
done
exit $bad
