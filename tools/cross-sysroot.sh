#!/bin/sh
# The libraries latlab links against, for another architecture, unpacked
# into a folder the cross compiler is pointed at:
#   tools/cross-sysroot.sh TRIPLET DIR     (aarch64-linux-gnu, arm-linux-gnueabihf)
# -> DIR/usr/include/..., DIR/usr/lib/TRIPLET/{*.a,*.so*}
#
# The packages are fetched with apt-get download and unpacked with dpkg-deb
# -x: nothing is installed. Installing them as multiarch packages instead
# (apt-get install libinih-dev:arm64) needs every "Multi-Arch: same"
# package at exactly the host's version, which a mirror does not promise
# at every moment (seen here: linux-libc-dev 6.1.187 for amd64, 6.1.176
# for arm64, and no install possible). Does nothing when DIR is complete
# with the packages named here.
set -eu

triplet=${1:?usage: tools/cross-sysroot.sh TRIPLET DIR}
dir=${2:?usage: tools/cross-sysroot.sh TRIPLET DIR}
case $triplet in
aarch64-linux-gnu) arch=arm64 ;;
arm-linux-gnueabihf) arch=armhf ;;
x86_64-linux-gnu) arch=amd64 ;;
*)
	echo "cross-sysroot: no Debian architecture known for $triplet" >&2
	exit 2 ;;
esac
# the static build needs the -dev packages; the unit tests, linked
# dynamically (cmocka ships no static library), the run-time ones too
packages="libinih-dev libinih1 libcsv-dev libcsv3 libnuma-dev libnuma1
	libjansson-dev libjansson4 libtracefs-dev libtracefs1
	libtraceevent-dev libtraceevent1 zlib1g-dev zlib1g libcmocka-dev libcmocka0"

# .complete holds the list it was made with: a sysroot of an older list is made anew
if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$(echo $packages)" ]; then
	touch "$dir/.complete"
	exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_add_arch "$arch"
want=""
for p in $packages; do
	want="$want $p:$arch"
done
mkdir -p "$dir"
work=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086 # $want is a list of words
if ! apt_download "$work" $want 2>/dev/null; then
	# lists older than the mirror's packages: read them again
	apt-get update -qq >/dev/null 2>&1 || true
	if ! apt_download "$work" $want; then
		echo "cross-sysroot: cannot download the $arch libraries (apt-get download$want)" >&2
		exit 3
	fi
fi
for deb in "$work"/*.deb; do
	dpkg-deb -x "$deb" "$dir"
done
echo $packages > "$dir/.complete"
echo "cross-sysroot: $arch libraries in $dir"
