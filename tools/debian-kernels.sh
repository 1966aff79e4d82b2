#!/bin/sh
# Fetch Debian's stock and PREEMPT_RT kernels and extract their images:
#   tools/debian-kernels.sh DIR   ->  DIR/vmlinuz-stock, DIR/vmlinuz-rt
# (plus DIR/*.config and DIR/versions). Uses apt-get download: nothing is
# installed, the packages' other files are not kept. Does nothing when both
# images are there already.
set -eu

dir=${1:?usage: tools/debian-kernels.sh DIR}
mkdir -p "$dir"
if [ -s "$dir/vmlinuz-stock" ] && [ -s "$dir/vmlinuz-rt" ]; then
	exit 0
fi
work=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the meta packages name the current kernel packages
real_package() {
	apt-cache depends "$1" 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }'
}
: > "$work/versions"
for variant in stock rt; do
	case $variant in
	stock) meta=linux-image-amd64 ;;
	rt) meta=linux-image-rt-amd64 ;;
	esac
	pkg=$(real_package "$meta")
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(real_package "$meta")
	fi
	if [ -z "$pkg" ]; then
		echo "debian-kernels: apt knows no $meta (is this Debian on amd64?)" >&2
		exit 3
	fi
	# root may download where the _apt user cannot write
	(cd "$work" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null)
	mkdir "$work/$variant"
	dpkg-deb --fsys-tarfile "$work"/"$pkg"_*.deb | tar -x -C "$work/$variant" ./boot
	cp "$work/$variant"/boot/vmlinuz-* "$dir/vmlinuz-$variant.tmp"
	cp "$work/$variant"/boot/config-* "$dir/$variant.config"
	mv "$dir/vmlinuz-$variant.tmp" "$dir/vmlinuz-$variant"
	echo "$variant $pkg $(dpkg-deb -f "$work"/"$pkg"_*.deb Version)" >> "$work/versions"
	rm -f "$work"/"$pkg"_*.deb
done
mv "$work/versions" "$dir/versions"
cat "$dir/versions"
