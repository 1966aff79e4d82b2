#!/bin/sh
# Fetch Debian's stock and PREEMPT_RT kernels of one suite and extract their images:
#   tools/debian-kernels.sh DIR [ARCH] [SUITE]
#     ->  DIR/vmlinuz-stock, DIR/vmlinuz-rt, DIR/stock.config, DIR/rt.config, DIR/versions,
#         DIR/modules/RELEASE/ (each kernel's modules a guest's disk needs)
# ARCH is amd64 (the default) or arm64; for amd64 also DIR/vmlinux-stock
# and DIR/vmlinux-rt, each bzImage's kernel decompressed (an ELF that qemu
# starts at its PVH entry: under TCG a boot without the decompressor and
# the real-mode setup, docs/campaigns.md); for arm64 DIR/busybox, Debian's
# static busybox for arm64, which a guest of that architecture runs its
# /init with. SUITE is a Debian suite the mirror has (bookworm, trixie,
# forky, sid, ...); by default the host's own.
#
# apt runs with a sources list, lists and cache of its own, in a
# directory this script removes: the host's apt configuration, its lists
# and dpkg's architectures are never touched. DEBIAN_MIRROR names the
# mirror (default http://deb.debian.org/debian; its -security twin for
# a released suite's security updates). Both package layouts are read:
# linux-image-VER holding /boot/vmlinuz-VER and /boot/config-VER (up to
# trixie), or linux-image-VER a meta package over linux-binary-VER
# (/usr/lib/modules/VER/vmlinuz) and linux-base-VER (its config). Nothing
# is installed. Does nothing when the images are there already.
#
# A guest's disk (docs/campaigns.md, [kernel.NAME] disk) needs the
# kernel's virtio_pci, virtio_blk and ext4 where they are modules, a
# modelled disk (disk = modelled) null_blk and ext4, its
# network device ([kernel.NAME] net) virtio_net, a veth pair (net =
# veth) veth: each
# is taken from the kernel's own package with what it depends on (its
# modinfo's depends, resolved here), decompressed, into
# DIR/modules/RELEASE/, and DIR/modules/RELEASE/disk.list, nullb.list,
# net.list and veth.list name them in the order the guest loads them. latlab finds them by the release its
# image says.
#
# Exit status: 0 done, 2 usage or a suite the mirror does not have,
# 3 the mirror cannot be reached or a package cannot be read; on an
# error nothing is left in DIR but what was there before.
set -eu

# vmlinux BZIMAGE OUT: the ELF kernel inside an x86 bzImage — its payload
# (setup header: setup_sects at 0x1f1, payload_offset and payload_length
# at 0x248, counted from the protected-mode code after the setup sectors),
# a compressed stream followed by the 4-byte size the decompressor reads
# (left out: zstd and gzip refuse what follows their stream)
vmlinux() {
	sects=$(od -An -tu1 -j 497 -N1 "$1" | tr -d ' ')
	[ "$sects" -ne 0 ] || sects=4
	set -- "$1" "$2" $(od -An -tu4 -j 584 -N8 "$1")
	start=$(( (sects + 1) * 512 + $3 ))
	# the compressor by its magic: xz (Debian up to 6.12), zstd (7.x), gzip
	case $(od -An -tx1 -j "$start" -N4 "$1" | tr -d ' ') in
	fd377a58) unpack="xz -dc --single-stream" ;;
	28b52ffd) unpack="zstd -dcq" ;;
	1f8b*) unpack="gzip -dc" ;;
	*) echo "debian-kernels: $1: a bzImage payload neither xz, zstd nor gzip" >&2; return 3 ;;
	esac
	tail -c +$((start + 1)) "$1" | head -c $(($4 - 4)) | $unpack >"$2.tmp"
	[ "$(od -An -c -N4 "$2.tmp" | tr -d ' ')" = "177ELF" ] ||
		{ echo "debian-kernels: $1: its payload is not an ELF kernel" >&2; rm -f "$2.tmp"; return 3; }
	mv "$2.tmp" "$2"
}

usage="usage: tools/debian-kernels.sh DIR [amd64|arm64] [SUITE]"
dir=${1:?$usage}
arch=${2:-amd64}
case $arch in
amd64|arm64) ;;
*)
	echo "debian-kernels: ARCH is amd64 or arm64, not $arch" >&2
	exit 2 ;;
esac
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
suite=${3:-$host_suite}
case $suite in
"")
	echo "debian-kernels: this host names no Debian suite (/etc/os-release): give one ($usage)" >&2
	exit 2 ;;
*[!a-z0-9-]*)
	echo "debian-kernels: '$suite' is not a suite's name ($usage)" >&2
	exit 2 ;;
esac
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

mkdir -p "$dir"
if [ -s "$dir/vmlinuz-stock" ] && [ -s "$dir/vmlinuz-rt" ] &&
   { [ "$arch" = amd64 ] || [ -s "$dir/busybox" ]; } &&
   [ "$(ls "$dir"/modules/*/veth.list 2>/dev/null | wc -l)" -ge 2 ]; then
	# images fetched before the ELF kernels were made from them
	for variant in stock rt; do
		[ "$arch" != amd64 ] || [ -s "$dir/vmlinux-$variant" ] ||
			vmlinux "$dir/vmlinuz-$variant" "$dir/vmlinux-$variant"
	done
	exit 0
fi
# absolute: apt reads a relative Dir:: option under /etc/apt (make
# kernels names DIR as kernels/)
work=$(mktemp -d "$(cd "$dir" && pwd)/.fetch.XXXXXX")
# an error leaves nothing half-written: the files land by rename, last
trap 'rm -rf "$work"; rm -f "$dir"/*.tmp' EXIT

# apt of its own: sources, lists, cache and status under $work
apt_dir=$work/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
: >"$apt_dir/status"
# Debian's archive key; DEBIAN_MIRROR_TRUSTED=1 for an unsigned mirror of
# one's own (the tests' file: mirror)
signed="signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
[ "${DEBIAN_MIRROR_TRUSTED:-0}" != 1 ] || signed="trusted=yes"
{
	echo "deb [$signed] $mirror $suite main"
	case $suite in
	sid|unstable|experimental|rc-buggy) ;;
	*)	# a released suite's point and security updates, where the mirror has them
		echo "deb [$signed] $mirror $suite-updates main"
		echo "deb [$signed] $mirror-security $suite-security main" ;;
	esac
} >"$apt_dir/sources.list"
apt_opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=$apt_dir/parts
	-o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache
	-o Dir::State::status=$apt_dir/status -o APT::Architectures::=$arch
	-o APT::Sandbox::User=root -o Acquire::Retries=2"
# shellcheck disable=SC2086 # apt_opts is a list of words
apt_get() { apt-get -q $apt_opts "$@"; }
# shellcheck disable=SC2086
apt_cache() { apt-cache $apt_opts "$@"; }

apt_get update >"$work/update.log" 2>&1 || true
# a suite the mirror lacks: http's 404 on its Release, a file: mirror's missing dists/SUITE
missing=
grep -q "$suite Release' does not have a Release file" "$work/update.log" && missing=1
case $mirror in
file:*) [ ! -d "${mirror#file:}/dists" ] || [ -d "${mirror#file:}/dists/$suite" ] || missing=1 ;;
esac
if [ -n "$missing" ]; then
	echo "debian-kernels: the mirror $mirror has no suite '$suite' (bookworm, trixie, forky, sid ...)" >&2
	exit 2
fi
if ! apt_cache policy 2>/dev/null | grep -q " $suite/main"; then
	echo "debian-kernels: cannot read suite $suite from $mirror (no network, or the mirror is down):" >&2
	grep -E '^(E|W|Err):' "$work/update.log" | head -3 >&2
	exit 3
fi

# depends PACKAGE PREFIX: the first package PACKAGE depends on named PREFIX...
depends() {
	apt_cache depends "$1:$arch" 2>/dev/null |
		awk -v p="$2" '$1 == "Depends:" && index($2, p) == 1 { sub(/:.*/, "", $2); print $2; exit }'
}
# download PACKAGE: its .deb into $work/PACKAGE.deb, and $work/PACKAGE/ made
download() {
	(cd "$work" && apt_get download "$1:$arch" >/dev/null 2>"$work/download.log") || {
		echo "debian-kernels: cannot download $1 ($suite, $arch):" >&2
		tail -3 "$work/download.log" >&2
		exit 3
	}
	mv "$work/$1"_*.deb "$work/$1.deb"
	mkdir "$work/$1"
}
# fetch PACKAGE: downloaded, its files under $work/PACKAGE/
fetch() {
	download "$1"
	dpkg-deb -x "$work/$1.deb" "$work/$1"
}
version_of() { dpkg-deb -f "$work/$1.deb" Version; }
# fetch_modules PACKAGE: downloaded, and of its files only the folders
# the disk's modules and what they need live in (a whole linux-modules
# is 110 MB of .deb: this takes 3 s where all of it took far longer)
fetch_modules() {
	download "$1"
	# a folder a kernel lacks is no error here (keep_modules says what is missing)
	dpkg-deb --fsys-tarfile "$work/$1.deb" | tar -x -C "$work/$1" --wildcards \
		'*/kernel/drivers/virtio/*' '*/kernel/drivers/block/*' '*/kernel/fs/ext4/*' \
		'*/kernel/fs/jbd2/*' '*/kernel/fs/mbcache*' '*/kernel/fs/configfs/*' '*/kernel/lib/*' \
		'*/kernel/crypto/*' '*/kernel/drivers/net/*' '*/kernel/net/core/*' 2>/dev/null || true
}

# keep_modules TREE CONFIG OUT LIST WANT...: the modules a guest's
# device needs, each WANT a NAME:SYMBOL, from TREE (a package's
# lib/modules/RELEASE) into OUT, and OUT/LIST naming them in load order
# (a module after what it depends on). One built in (=y in CONFIG), or
# not in the kernel at all, needs nothing (the guest says what it lacks);
# a WANT with no SYMBOL is kept where the kernel has it: crc32c_generic
# (6.1's ext4 asks the crypto API for crc32c, which no modprobe in the
# guest loads).
keep_modules() {
	tree=$1 config=$2 out=$3 list=$4
	shift 4
	mkdir -p "$out"
	: >"$out/$list"
	for want in "$@"; do
		name=${want%%:*} sym=${want#*:}
		if [ -n "$sym" ] && ! grep -q "^CONFIG_$sym=m" "$config"; then
			continue
		fi
		if ! keep_module "$tree" "$name" "$out" "$list"; then
			[ -z "$sym" ] && continue
			echo "debian-kernels: $name is a module (CONFIG_$sym=m) but not in ${tree#"$work"/}" >&2
			return 3
		fi
	done
}
# keep_module TREE NAME OUT LIST: NAME after what it depends on (see above);
# a module met again on its own way down (LIST.path: the chain being
# resolved) is a dependency cycle, which no kernel loads: an error, not an
# endless recursion
keep_module() {
	local f dep
	grep -qx "$2" "$3/$4" && return 0
	[ -d "$1" ] || return 1
	f=$(find "$1" \( -name "$2.ko" -o -name "$2.ko.xz" -o -name "$2.ko.zst" \
		-o -name "$(echo "$2" | tr _ -).ko*" \) | head -1)
	[ -n "$f" ] || return 1
	if grep -qx "$2" "$3/$4.path" 2>/dev/null; then
		echo "debian-kernels: $2 depends on itself through $(tr '\n' ' ' <"$3/$4.path")(a dependency cycle: a damaged package)" >&2
		exit 3
	fi
	echo "$2" >>"$3/$4.path"
	for dep in $(modinfo -F depends "$f" | tr , ' '); do
		keep_module "$1" "$dep" "$3" "$4" || {
			echo "debian-kernels: $2 depends on $dep, which ${1#"$work"/} lacks" >&2
			exit 3
		}
	done
	case $f in
	*.xz) xz -dc "$f" >"$3/$2.ko" ;;
	*.zst) zstd -dcq "$f" >"$3/$2.ko" ;;
	*) cp "$f" "$3/$2.ko" ;;
	esac
	echo "$2" >>"$3/$4"
	grep -vx "$2" "$3/$4.path" >"$3/$4.path.new" || true
	mv "$3/$4.path.new" "$3/$4.path"
	[ -s "$3/$4.path" ] || rm -f "$3/$4.path"
}

: >"$work/versions"
echo "suite $suite $mirror" >>"$work/versions"
for variant in stock rt; do
	case $variant in
	stock) meta=linux-image-$arch ;;
	rt) meta=linux-image-rt-$arch ;;
	esac
	pkg=$(depends "$meta" linux-image-)
	if [ -z "$pkg" ]; then
		echo "debian-kernels: suite $suite has no $meta for $arch" >&2
		exit 3
	fi
	ver=${pkg#linux-image-}
	binary=$(depends "$pkg" "linux-binary-$ver")
	if [ -n "$binary" ]; then
		# the layout since forky: the image and its config in two packages
		base=$(depends "$binary" "linux-base-$ver")
		[ -n "$base" ] || base=linux-base-$ver
		fetch "$binary"
		fetch "$base"
		image=$work/$binary/usr/lib/modules/$ver/vmlinuz
		config=$work/$base/usr/lib/modules/$ver/config
		modtree=$work/$binary/usr/lib/modules/$ver
		echo "$variant $binary $(version_of "$binary")" >>"$work/versions"
		echo "$variant-config $base $(version_of "$base")" >>"$work/versions"
		# the modules in a package of their own since forky
		mods=$(depends "$pkg" "linux-modules-$ver")
		if [ -n "$mods" ]; then
			fetch_modules "$mods"
			modtree=$work/$mods/usr/lib/modules/$ver
			echo "$variant-modules $mods $(version_of "$mods")" >>"$work/versions"
		fi
	else
		fetch "$pkg"
		image=$work/$pkg/boot/vmlinuz-$ver
		config=$work/$pkg/boot/config-$ver
		modtree=$work/$pkg/lib/modules/$ver
		[ -d "$modtree" ] || modtree=$work/$pkg/usr/lib/modules/$ver
		echo "$variant $pkg $(version_of "$pkg")" >>"$work/versions"
	fi
	for f in "$image" "$config"; do
		[ -s "$f" ] || { echo "debian-kernels: $pkg: no ${f#"$work"/} in its packages" >&2; exit 3; }
	done
	cp "$image" "$dir/vmlinuz-$variant.tmp"
	cp "$config" "$dir/$variant.config.tmp"
	rm -rf "$work/modules/$ver"
	keep_modules "$modtree" "$config" "$work/modules/$ver" disk.list \
		virtio_pci:VIRTIO_PCI virtio_blk:VIRTIO_BLK crc32c_generic: ext4:EXT4_FS || exit 3
	keep_modules "$modtree" "$config" "$work/modules/$ver" nullb.list \
		null_blk:BLK_DEV_NULL_BLK crc32c_generic: ext4:EXT4_FS || exit 3
	keep_modules "$modtree" "$config" "$work/modules/$ver" net.list \
		virtio_pci:VIRTIO_PCI virtio_net:VIRTIO_NET || exit 3
	keep_modules "$modtree" "$config" "$work/modules/$ver" veth.list veth:VETH || exit 3
	[ "$arch" != amd64 ] || vmlinux "$dir/vmlinuz-$variant.tmp" "$dir/vmlinux-$variant.tmp"
	rm -rf "$work"/linux-*
done
if [ "$arch" != amd64 ]; then
	fetch busybox-static
	# /bin up to trixie, /usr/bin since (merged /usr)
	for bb in "$work/busybox-static/usr/bin/busybox" "$work/busybox-static/bin/busybox" ""; do
		[ -z "$bb" ] || [ -f "$bb" ] && break
	done
	[ -n "$bb" ] || { echo "debian-kernels: busybox-static ($suite, $arch) holds no busybox" >&2; exit 3; }
	cp "$bb" "$dir/busybox.tmp"
	echo "busybox busybox-static $(version_of busybox-static)" >>"$work/versions"
fi
# every file whole: now in place, the versions last
for f in "$dir"/*.tmp; do
	[ -e "$f" ] && mv "$f" "${f%.tmp}"
done
mkdir -p "$dir/modules"
for m in "$work"/modules/*/; do
	rel=$(basename "$m")
	rm -rf "$dir/modules/$rel"
	mv "$m" "$dir/modules/$rel"
done
mv "$work/versions" "$dir/versions"
cat "$dir/versions"
