#!/usr/bin/env bats
# lane: third (tests/run.sh: where this file runs, and beside what)
# tools/debian-kernels.sh on a Debian mirror of the test's own (file:,
# unsigned): both package layouts, the versions file, an apt of its own
# (the host's apt left as it was), a suite the mirror lacks (exit 2), a
# mirror that cannot be reached (exit 3), and nothing half-written.

load helper

SCRIPT=$BATS_TEST_DIRNAME/../../tools/debian-kernels.sh

# deb NAME VERSION [DEPENDS] [FILE=CONTENT...]: a package of arm64 in $WORK/pool
deb() {
	local name=$1 version=$2 depends=$3 d
	shift 3
	d=$WORK/build/$name
	mkdir -p "$d/DEBIAN" "$WORK/pool"
	{
		echo "Package: $name"
		echo "Version: $version"
		echo "Architecture: arm64"
		echo "Maintainer: latlab tests <tests@latlab.invalid>"
		[ -z "$depends" ] || echo "Depends: $depends"
		echo "Description: $name for latlab's tests"
	} >"$d/DEBIAN/control"
	for f in "$@"; do
		mkdir -p "$d/$(dirname "${f%%=*}")"
		printf '%s\n' "${f#*=}" >"$d/${f%%=*}"
	done
	dpkg-deb -Zgzip --root-owner-group --build "$d" "$WORK/pool/${name}_${version}_arm64.deb" >/dev/null
}

# mirror SUITE: $WORK/mirror/dists/SUITE with every package of $WORK/pool
mirror() {
	local dir=$WORK/mirror/dists/$1/main/binary-arm64
	mkdir -p "$dir"
	ln -sfn "$WORK/pool" "$WORK/mirror/pool"
	(cd "$WORK/mirror" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$dir/Packages"
	{
		echo "Suite: $1"
		echo "Codename: $1"
		echo "Architectures: arm64"
		echo "Components: main"
		echo "Date: $(date -Ru)"
		echo "SHA256:"
		echo " $(sha256sum <"$dir/Packages" | cut -d' ' -f1) $(stat -c %s "$dir/Packages") main/binary-arm64/Packages"
	} >"$WORK/mirror/dists/$1/Release"
}

# the old layout (stock: the image and config in linux-image-VER), the
# new (rt: linux-image-VER a meta package over linux-binary-VER and
# linux-base-VER), a busybox in /usr/bin
fake_suite() {
	deb linux-image-9.1.0-arm64 9.1.0-1 "" \
		boot/vmlinuz-9.1.0-arm64="stock image" boot/config-9.1.0-arm64="CONFIG_PREEMPT_VOLUNTARY=y"
	deb linux-image-arm64 9.1.0-1 linux-image-9.1.0-arm64
	deb linux-binary-9.2.0-rt-arm64 9.2.0-3 linux-base-9.2.0-rt-arm64 \
		usr/lib/modules/9.2.0-rt-arm64/vmlinuz="rt image"
	deb linux-base-9.2.0-rt-arm64 9.2.0-3 "" \
		usr/lib/modules/9.2.0-rt-arm64/config="CONFIG_PREEMPT_RT=y"
	deb linux-image-9.2.0-rt-arm64 9.2.0-3 "linux-base-9.2.0-rt-arm64, linux-binary-9.2.0-rt-arm64"
	deb linux-image-rt-arm64 9.2.0-3 linux-image-9.2.0-rt-arm64
	deb busybox-static 1:1.38.0-1 "" usr/bin/busybox="busybox"
	mirror "$1"
}

@test "debian-kernels.sh: both package layouts from a mirror's suite, exact versions, the host's apt untouched" {
	command -v dpkg-scanpackages >/dev/null || skip "no dpkg-scanpackages (dpkg-dev: make deps installs it)"
	fake_suite sid
	lists=$(ls -l /var/lib/apt/lists | md5sum)
	arches=$(dpkg --print-foreign-architectures | md5sum)
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(cat "$WORK/k/vmlinuz-stock")" = "stock image" ]
	[ "$(cat "$WORK/k/stock.config")" = "CONFIG_PREEMPT_VOLUNTARY=y" ]
	[ "$(cat "$WORK/k/vmlinuz-rt")" = "rt image" ]
	[ "$(cat "$WORK/k/rt.config")" = "CONFIG_PREEMPT_RT=y" ]
	[ "$(cat "$WORK/k/busybox")" = busybox ]
	grep -qx "suite sid file:$WORK/mirror" "$WORK/k/versions"
	grep -qx 'stock linux-image-9.1.0-arm64 9.1.0-1' "$WORK/k/versions"
	grep -qx 'rt linux-binary-9.2.0-rt-arm64 9.2.0-3' "$WORK/k/versions"
	grep -qx 'rt-config linux-base-9.2.0-rt-arm64 9.2.0-3' "$WORK/k/versions"
	grep -qx 'busybox busybox-static 1:1.38.0-1' "$WORK/k/versions"
	# nothing else left in DIR (its apt went with its work directory)
	[ "$(ls -A "$WORK/k" | tr '\n' ' ')" = "busybox modules rt.config stock.config versions vmlinuz-rt vmlinuz-stock " ]
	# each kernel's disk modules (none here: neither config has virtio_blk)
	[ "$(ls "$WORK/k/modules" | tr '\n' ' ')" = "9.1.0-arm64 9.2.0-rt-arm64 " ]
	[ ! -s "$WORK/k/modules/9.1.0-arm64/disk.list" ]
	[ "$(ls -l /var/lib/apt/lists | md5sum)" = "$lists" ]
	[ "$(dpkg --print-foreign-architectures | md5sum)" = "$arches" ]
	# there already: nothing fetched again
	DEBIAN_MIRROR=file:/nonexistent run "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 0 ]
}

@test "debian-kernels.sh: a relative DIR, as make kernels gives it (apt would read a relative path under /etc/apt)" {
	command -v dpkg-scanpackages >/dev/null || skip "no dpkg-scanpackages (dpkg-dev: make deps installs it)"
	fake_suite sid
	cd "$WORK"
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" rel/k arm64 sid
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(cat "$WORK/rel/k/vmlinuz-rt")" = "rt image" ]
	[ "$(ls -A "$WORK/rel/k" | tr '\n' ' ')" = "busybox modules rt.config stock.config versions vmlinuz-rt vmlinuz-stock " ]
}

@test "debian-kernels.sh: a suite the mirror lacks is exit 2 naming it; no mirror is exit 3; a bad suite or arch is exit 2; nothing written" {
	command -v dpkg-scanpackages >/dev/null || skip "no dpkg-scanpackages (dpkg-dev: make deps installs it)"
	fake_suite sid
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 forky
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"has no suite 'forky'"* ]]
	[ -z "$(ls -A "$WORK/k")" ]
	# a port nothing listens on: what no network looks like to apt
	DEBIAN_MIRROR=http://127.0.0.1:9/debian run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"cannot read suite sid from http://127.0.0.1:9/debian"* ]]
	[ -z "$(ls -A "$WORK/k")" ]
	# a suite whose kernel package is missing: exit 3, nothing half-written
	rm "$WORK"/pool/linux-image-rt-arm64_*.deb
	mirror sid
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"suite sid has no linux-image-rt-arm64 for arm64"* ]]
	[ -z "$(ls -A "$WORK/k")" ]
	run "$SCRIPT" "$WORK/k" arm64 'sid;rm'
	[ "$status" -eq 2 ]
	run "$SCRIPT" "$WORK/k" riscv64 sid
	[ "$status" -eq 2 ]
	[[ "$output" == *"ARCH is amd64 or arm64, not riscv64"* ]]
}

# ko DIR NAME [DEPENDS]: a module file whose modinfo says NAME and DEPENDS
ko() {
	mkdir -p "$1"
	printf 'depends=%s\0name=%s\0' "${3:-}" "$2" >"$WORK/modinfo"
	gcc -c -x c /dev/null -o "$WORK/empty.o"
	objcopy --add-section .modinfo="$WORK/modinfo" "$WORK/empty.o" "$1/$2.ko"
}

# the stock image again, its modules from $WORK/build's tree, its config
# naming them as modules; the mirror made again
stock_with_modules() {
	deb linux-image-9.1.0-arm64 9.1.0-1 "" \
		boot/vmlinuz-9.1.0-arm64="stock image" \
		boot/config-9.1.0-arm64="$(printf 'CONFIG_VIRTIO_PCI=m\nCONFIG_VIRTIO_BLK=m\nCONFIG_EXT4_FS=m')"
	mirror sid
}

@test "debian-kernels.sh: a guest disk's modules kept with what they depend on, in load order; one a config has as a module but the package lacks is exit 3" {
	command -v dpkg-scanpackages >/dev/null || skip "no dpkg-scanpackages (dpkg-dev: make deps installs it)"
	m=$WORK/build/linux-image-9.1.0-arm64/lib/modules/9.1.0-arm64/kernel
	ko "$m/drivers/virtio" virtio_ring
	ko "$m/drivers/virtio" virtio_pci virtio_ring
	ko "$m/drivers/block" virtio_blk virtio_ring
	ko "$m/lib" crc16
	ko "$m/fs/jbd2" jbd2
	ko "$m/fs/ext4" ext4 crc16,jbd2
	ko "$m/drivers/net" unrelated
	fake_suite sid
	stock_with_modules
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# each after what it needs; crc32c_generic, which the kernel lacks, left out
	[ "$(tr '\n' ' ' <"$WORK/k/modules/9.1.0-arm64/disk.list")" = "virtio_ring virtio_pci virtio_blk crc16 jbd2 ext4 " ]
	[ "$(ls "$WORK/k/modules/9.1.0-arm64" | tr '\n' ' ')" = "crc16.ko disk.list ext4.ko jbd2.ko net.list nullb.list veth.list virtio_blk.ko virtio_pci.ko virtio_ring.ko " ]
	# the modelled disk's: null_blk, which this config does not have as a module, left out
	[ "$(tr '\n' ' ' <"$WORK/k/modules/9.1.0-arm64/nullb.list")" = "crc16 jbd2 ext4 " ]
	# ext4 a module, but not in the package: refused, nothing written
	rm -rf "$WORK/k" "$m/fs/ext4"
	stock_with_modules
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"debian-kernels: ext4 is a module (CONFIG_EXT4_FS=m) but not in linux-image-9.1.0-arm64/lib/modules/9.1.0-arm64"* ]] || { echo "$output"; false; }
	[ -z "$(ls -A "$WORK/k" 2>/dev/null)" ]
	# two modules that depend on each other (a damaged package): exit 3,
	# said, not a recursion without end (issue 70: guest 10)
	rm -rf "$WORK/k"
	ko "$m/fs/ext4" ext4 crc16,jbd2
	ko "$m/fs/jbd2" jbd2 ext4
	stock_with_modules
	DEBIAN_MIRROR=file:$WORK/mirror DEBIAN_MIRROR_TRUSTED=1 run timeout 120 "$SCRIPT" "$WORK/k" arm64 sid
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "$output" == *"debian-kernels: ext4 depends on itself through "*"(a dependency cycle: a damaged package)"* ]] || { echo "$output"; false; }
}
