#!/bin/sh
# Fetch Debian's stock and PREEMPT_RT kernels and extract their images:
#   tools/debian-kernels.sh DIR [ARCH]  ->  DIR/vmlinuz-stock, DIR/vmlinuz-rt
# (plus DIR/*.config and DIR/versions). ARCH is amd64 (the default) or
# arm64; for amd64 also DIR/vmlinux-stock and DIR/vmlinux-rt, each
# bzImage's kernel decompressed (an ELF that qemu starts at its PVH entry:
# under TCG a boot without the decompressor and the real-mode setup,
# docs/campaigns.md); for arm64 DIR/busybox, Debian's static busybox for
# arm64, which a guest of that architecture runs its /init with. Uses
# apt-get download: nothing is installed, the packages' other files are
# not kept. Does nothing when the images are there already.
set -eu

# vmlinux BZIMAGE OUT: the ELF kernel inside an x86 bzImage — its payload
# (setup header: setup_sects at 0x1f1, payload_offset and payload_length
# at 0x248, counted from the protected-mode code after the setup sectors),
# a compressed stream followed by the 4-byte size the decompressor reads
vmlinux() {
	sects=$(od -An -tu1 -j 497 -N1 "$1" | tr -d ' ')
	[ "$sects" -ne 0 ] || sects=4
	set -- "$1" "$2" $(od -An -tu4 -j 584 -N8 "$1")
	start=$(( (sects + 1) * 512 + $3 ))
	case $(od -An -c -j "$start" -N6 "$1" | tr -d ' ') in
	*7zXZ*) unpack="xz -dc --single-stream" ;;
	*) echo "debian-kernels: $1: not an xz-compressed bzImage payload" >&2; return 3 ;;
	esac
	tail -c +$((start + 1)) "$1" | head -c "$4" | $unpack >"$2.tmp"
	[ "$(od -An -c -N4 "$2.tmp" | tr -d ' ')" = "177ELF" ] ||
		{ echo "debian-kernels: $1: its payload is not an ELF kernel" >&2; rm -f "$2.tmp"; return 3; }
	mv "$2.tmp" "$2"
}

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
	# images fetched before the ELF kernels were made from them
	for variant in stock rt; do
		[ "$arch" != amd64 ] || [ -s "$dir/vmlinux-$variant" ] ||
			vmlinux "$dir/vmlinuz-$variant" "$dir/vmlinux-$variant"
	done
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
	[ "$arch" != amd64 ] || vmlinux "$dir/vmlinuz-$variant" "$dir/vmlinux-$variant"
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
