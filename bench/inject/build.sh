#!/usr/bin/env bash
# bench/inject/build.sh RELEASE [OUT]: latlab_inject.ko built for a guest
# kernel RELEASE (6.1.0-57-amd64, 6.1.0-57-rt-amd64: kernels/versions'
# packages without "linux-image-") against Debian's linux-headers-RELEASE,
# installed with apt-get where missing (said). Prints the .ko's path
# (OUT, default build/inject/RELEASE/latlab_inject.ko).
# Exit: 0 built; 1 the build failed; 2 a bad use, or no headers here and
# none apt knows (it installs, never updates its lists: make deps does).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
release=${1:-}
[ -n "$release" ] || { echo "usage: bench/inject/build.sh RELEASE [OUT]" >&2; exit 2; }
out=${2:-$top/build/inject/$release/latlab_inject.ko}
headers=/usr/src/linux-headers-$release
if ! [ -e "$headers/Makefile" ]; then
	# known to apt (make deps ran apt-get update), or not to be had here
	if ! apt-cache policy "linux-headers-$release" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		echo "bench/inject/build.sh: no $headers, and apt knows no linux-headers-$release" >&2
		exit 2
	fi
	echo "bench/inject/build.sh: installing linux-headers-$release (apt-get)" >&2
	apt-get install -y -q "linux-headers-$release" >/dev/null 2>&1
	[ -e "$headers/Makefile" ] || { echo "bench/inject/build.sh: no $headers, and apt-get could not install linux-headers-$release" >&2; exit 2; }
fi
work=$(mktemp -d /tmp/latlab-inject.XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT
cp "$here/latlab_inject.c" "$here/Kbuild" "$work/"
if ! make -s -C "$headers" M="$work" modules >"$work/make.log" 2>&1; then
	echo "bench/inject/build.sh: the module did not build for $release:" >&2
	tail -n 20 "$work/make.log" >&2
	exit 1
fi
mkdir -p "$(dirname "$out")" && cp "$work/latlab_inject.ko" "$out" || exit 1
echo "$out"
