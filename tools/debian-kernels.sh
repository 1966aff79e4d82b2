#!/bin/sh
# Fetch Debian's stock and PREEMPT_RT kernels and extract their images:
#   tools/debian-kernels.sh DIR [ARCH]  ->  DIR/vmlinuz-stock, DIR/vmlinuz-rt
# (plus DIR/*.config and DIR/versions). ARCH is amd64 (the default) or
# arm64; for arm64 also DIR/busybox, Debian's static busybox for arm64,
# which a guest of that architecture runs its /init with. Uses apt-get
# download: nothing is installed, the packages' other files are not kept.
# Does nothing when the images are there already.
set -eu

dir=${1:?usage: tools/debian-kernels.sh DIR [amd64|arm64]}
arch=${2:-amd64}
case $arch in
amd64|arm64) ;;
*)
	echo "debian-kernels: ARCH is amd64 or arm64, not $arch" >&2
	exit 2 ;;
esac
mkdir -p "$dir"
if [ -s "$dir/vmlinuz-stock" ] && [ -s "$dir/vmlinuz-rt" ] &&
   { [ "$arch" = amd64 ] || [ -s "$dir/busybox" ]; }; then
	exit 0
fi
work=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/apt.sh"
apt_add_arch "$arch"

# the meta packages name the current kernel packages
real_package() {
	apt-cache depends "$1" 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }'
}
: > "$work/versions"
for variant in stock rt; do
	case $variant in
	stock) meta=linux-image-$arch:$arch ;;
	rt) meta=linux-image-rt-$arch:$arch ;;
	esac
	pkg=$(real_package "$meta")
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(real_package "$meta")
	fi
	if [ -z "$pkg" ]; then
		echo "debian-kernels: apt knows no $meta (is this Debian?)" >&2
		exit 3
	fi
	pkg=${pkg%:"$arch"}
	apt_download "$work" "$pkg:$arch"
	mkdir "$work/$variant"
	dpkg-deb --fsys-tarfile "$work"/"$pkg"_*.deb | tar -x -C "$work/$variant" ./boot
	cp "$work/$variant"/boot/vmlinuz-* "$dir/vmlinuz-$variant.tmp"
	cp "$work/$variant"/boot/config-* "$dir/$variant.config"
	mv "$dir/vmlinuz-$variant.tmp" "$dir/vmlinuz-$variant"
	echo "$variant $pkg $(dpkg-deb -f "$work"/"$pkg"_*.deb Version)" >> "$work/versions"
	rm -f "$work"/"$pkg"_*.deb
done
if [ "$arch" != amd64 ]; then
	apt_download "$work" "busybox-static:$arch"
	mkdir "$work/busybox"
	dpkg-deb -x "$work"/busybox-static_*.deb "$work/busybox"
	cp "$work/busybox/bin/busybox" "$dir/busybox.tmp"
	mv "$dir/busybox.tmp" "$dir/busybox"
	echo "busybox busybox-static $(dpkg-deb -f "$work"/busybox-static_*.deb Version)" >> "$work/versions"
fi
mv "$work/versions" "$dir/versions"
cat "$dir/versions"
