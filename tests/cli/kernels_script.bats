#!/usr/bin/env bats
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
	[ "$(ls -A "$WORK/k" | tr '\n' ' ')" = "busybox rt.config stock.config versions vmlinuz-rt vmlinuz-stock " ]
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
	[ "$(ls -A "$WORK/rel/k" | tr '\n' ' ')" = "busybox rt.config stock.config versions vmlinuz-rt vmlinuz-stock " ]
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
