#!/bin/bash
# tools/debian-machine.sh [--print-digest] DEB — a whole Debian 12 machine
# on a disk image, for what a board does (reboots, units, the bootloader,
# several CPUs), not for latency figures (docs/campaigns.md, "The
# overnight campaign in a whole Debian machine").
#
# Built from Debian's own packages with mmdebstrap, from the apt sources
# this machine is configured with (nothing else is downloaded): systemd,
# GRUB on the disk (BIOS), Debian 12's stock and PREEMPT_RT kernels as
# installed packages, rt-tests, kexec-tools, and what latlab's .deb (DEB,
# `make deb`) depends on. latlab itself is not in the image: each job
# brings its .deb and the machine installs it with dpkg, as a user's is,
# so a new build of latlab does not cost a new image. The image is cached
# under $LATLAB_MACHINES (default ${XDG_CACHE_HOME:-~/.cache}/latlab/machines)
# by the digest of its inputs — this script, the packages' candidate
# versions, the .deb's Depends — so a second run reuses it.
#
# The machine runs a job at boot: a second disk that holds a tar with
# job.sh (and any *.deb, installed first with dpkg -i) is unpacked into
# /run/latlab-job and job.sh run by latlab-machine-job.service, once per
# job (its digest is kept in /var/lib/latlab-machine); the console says
# "latlab-machine: job started on RELEASE" and "latlab-machine: job exit
# N". tools/debian-machine-run.sh boots it.
#
# Prints the image's path. Exit: 0; 1 when the build fails (its log
# named); 2 for a bad use or a missing tool.
set -u

digest_only=
[ "${1:-}" = --print-digest ] && { digest_only=1; shift; }
[ $# -eq 1 ] && [ -f "$1" ] || {
	echo "usage: tools/debian-machine.sh [--print-digest] LATLAB.deb" >&2
	exit 2
}
deb=$(realpath "$1")
for t in mmdebstrap sfdisk mkfs.ext4 qemu-system-x86_64; do
	command -v "$t" >/dev/null || {
		echo "debian-machine: no $t (apt-get install mmdebstrap fdisk e2fsprogs qemu-system-x86)" >&2
		exit 2
	}
done
[ "$(id -u)" = 0 ] || { echo "debian-machine: run as root (mmdebstrap's root mode)" >&2; exit 2; }

suite=bookworm
# latlab's own dependencies, from its .deb (the first of each alternative)
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | tr '\n' ' ')
packages="systemd-sysv dbus udev kmod e2fsprogs procps linux-image-amd64 linux-image-rt-amd64 grub-pc rt-tests kexec-tools $depends"
size=4G

# the inputs' digest: this script, each package's candidate version
versions=$(apt-cache policy $packages | awk '/^[^ ]/ { p = $1 } /Candidate:/ { print p, $2 }')
digest=$( { cat "$0"; echo "$suite $size"; echo "$versions"; } | sha256sum | cut -c1-16)
[ -n "$digest_only" ] && { echo "$digest"; exit 0; }
cache=${LATLAB_MACHINES:-${XDG_CACHE_HOME:-$HOME/.cache}/latlab/machines}
img=$cache/debian-$suite-$digest.img
[ -f "$img" ] && { echo "$img"; exit 0; }
mkdir -p "$cache" || exit 2

work=$(mktemp -d /tmp/latlab-machine.XXXXXX) || exit 2
log=$cache/debian-$suite-$digest.log
trap 'rm -rf "$work"' EXIT
fail() {
	echo "debian-machine: $1 (the log: $log)" >&2
	exit 1
}
start=$SECONDS
echo "debian-machine: building $img (the log: $log)" >&2

# 1. the root file system, from the host's apt sources; kept beside the
# image until the image is built, so a later step's failure does not cost
# it again. The initramfs holds what qemu's disk needs (MODULES=list):
# with the default (most modules) each of its three builds (each
# kernel's, then the trigger's) took 8-10 min on a loaded 2-CPU host.
r=$cache/debian-$suite-$digest.root
if ! [ -e "$r/.complete" ]; then
	rm -rf "$r" && mkdir "$r" || exit 2
	mmdebstrap --variant=apt --include="$(echo $packages | tr ' ' ',')" \
		--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
		--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" &&
			echo MODULES=list >"$1/etc/initramfs-tools/conf.d/latlab-machine" &&
			printf "virtio_pci\nvirtio_blk\next4\n" >>"$1/etc/initramfs-tools/modules"' \
		--customize-hook='echo latlab-machine >"$1/etc/hostname"' \
		--customize-hook='chroot "$1" passwd -d root >/dev/null' \
		"$suite" "$r" /etc/apt/sources.list.d/debian.sources >"$log" 2>&1 ||
		fail "mmdebstrap failed"
	touch "$r/.complete"
fi

# 2. what the machine does at boot: the job unit, GRUB at the first boot,
# a console that logs in root
install -d "$r/usr/local/sbin" "$r/var/lib/latlab-machine"
cat >"$r/usr/local/sbin/latlab-machine-job" <<'JOB'
#!/bin/sh
# the job on the second disk (a tar with job.sh), once per job
[ -b /dev/vdb ] || exit 0
sum=$(sha256sum </dev/vdb | cut -c1-16)
[ -e "/var/lib/latlab-machine/done-$sum" ] && exit 0
mkdir -p /run/latlab-job && tar -xf /dev/vdb -C /run/latlab-job 2>/dev/null || exit 0
[ -f /run/latlab-job/job.sh ] || exit 0
touch "/var/lib/latlab-machine/done-$sum"
for deb in /run/latlab-job/*.deb; do
	[ -f "$deb" ] || continue
	dpkg -i "$deb" >/run/latlab-job/dpkg.log 2>&1 &&
		echo "latlab-machine: installed $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >/dev/ttyS0 ||
		{ echo "latlab-machine: dpkg -i $(basename "$deb") failed" >/dev/ttyS0; cat /run/latlab-job/dpkg.log >/dev/ttyS0; exit 1; }
done
echo "latlab-machine: job started on $(uname -r)" >/dev/ttyS0
sh /run/latlab-job/job.sh >/run/latlab-job/out.log 2>&1
rc=$?
echo "latlab-machine: job exit $rc" >/dev/ttyS0
JOB
cat >"$r/usr/local/sbin/latlab-machine-firstboot" <<'FIRST'
#!/bin/sh
# the first boot (its kernel given by qemu): GRUB onto the machine's own disk
stock=$(sed -n 's/.*latlab-machine.firstboot=\([^ ]*\).*/\1/p' /proc/cmdline)
grub-install --target=i386-pc /dev/vda && update-grub &&
	grub-set-default "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux $stock" &&
	grep -q "root=UUID=$(findmnt -no UUID /)" /boot/grub/grub.cfg &&
	echo "latlab-machine: GRUB installed" >/dev/ttyS0
systemctl poweroff --no-block
FIRST
chmod 755 "$r/usr/local/sbin/latlab-machine-job" "$r/usr/local/sbin/latlab-machine-firstboot"
# unit NAME DESCRIPTION CONDITION: the machine's own oneshot, enabled,
# after the disks are there
unit() {
	cat >"$r/etc/systemd/system/latlab-machine-$1.service" <<UNIT
[Unit]
Description=latlab-machine: $2
ConditionKernelCommandLine=$3
After=local-fs.target systemd-udev-settle.service
Wants=systemd-udev-settle.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/latlab-machine-$1
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
UNIT
	ln -sf "/etc/systemd/system/latlab-machine-$1.service" \
		"$r/etc/systemd/system/multi-user.target.wants/latlab-machine-$1.service"
}
unit job "the job on the second disk" '!latlab-machine.firstboot'
unit firstboot "GRUB onto the disk, at the first boot" latlab-machine.firstboot
install -d "$r/etc/systemd/system/serial-getty@ttyS0.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200 %%I $TERM\n' \
	>"$r/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"
grep -q '^# latlab-machine' "$r/etc/default/grub" || cat >>"$r/etc/default/grub" <<'GRUB'
# latlab-machine: the serial console, saved entries for grub-reboot
GRUB_DEFAULT=saved
GRUB_TIMEOUT=1
GRUB_TERMINAL=serial
GRUB_SERIAL_COMMAND="serial --speed=115200"
GRUB_CMDLINE_LINUX="console=ttyS0,115200"
GRUB_DISABLE_OS_PROBER=true
GRUB

# 3. the disk: one partition at 1 MiB, its ext4 made from the root
# directory in place (no loop device, no mount)
uuid=$(cat /proc/sys/kernel/random/uuid)
echo "UUID=$uuid / ext4 errors=remount-ro 0 1" >"$r/etc/fstab"
truncate -s "$size" "$work/disk.img"
echo 'start=2048, type=83, bootable' | sfdisk -q "$work/disk.img" >>"$log" 2>&1 || fail "sfdisk failed"
mkfs.ext4 -q -F -L latlab-root -U "$uuid" -E offset=1048576 -d "$r" "$work/disk.img" \
	$(($(stat -c %s "$work/disk.img") / 1024 - 1024))k >>"$log" 2>&1 || fail "mkfs.ext4 failed"

# 4. GRUB, installed by the machine itself at its first boot (the kernel
# booted directly by qemu), as on a disk of its own: grub-install
# /dev/vda, update-grub, the stock kernel the saved default entry (GRUB
# sorts the -rt- release first; grub-reboot boots rt once), then off
stock=$(ls "$r/boot" | sed -n 's/^vmlinuz-\(.*-amd64\)$/\1/p' | grep -v -- -rt- | sort -V | tail -1)
cp "$r/boot/vmlinuz-$stock" "$r/boot/initrd.img-$stock" "$work/" || fail "no stock kernel in the root"
timeout -k 10 1800 qemu-system-x86_64 -machine pc -accel tcg -smp 1 -m 1024 \
	-drive file="$work/disk.img",if=virtio,format=raw -nic none -display none -monitor none \
	-serial file:"$work/firstboot.log" -no-reboot \
	-kernel "$work/vmlinuz-$stock" -initrd "$work/initrd.img-$stock" \
	-append "root=UUID=$uuid rw console=ttyS0,115200 latlab-machine.firstboot=$stock" </dev/null
cat "$work/firstboot.log" >>"$log"
grep -q 'latlab-machine: GRUB installed' "$work/firstboot.log" || fail "the first boot did not install GRUB"

chroot "$r" dpkg-query -W -f '${Package} ${Version}\n' linux-image-amd64 \
	linux-image-rt-amd64 rt-tests kexec-tools systemd grub-pc >"$cache/debian-$suite-$digest.packages"
mv "$work/disk.img" "$img" || fail "could not keep the image"
rm -rf "$r"
echo "debian-machine: built in $((SECONDS - start)) s, $(du -h "$img" | cut -f1) on disk ($size sparse)" >&2
echo "$img"
