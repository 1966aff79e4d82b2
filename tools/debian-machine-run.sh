#!/bin/bash
# tools/debian-machine-run.sh IMAGE JOB OUT [SECONDS] — boot the Debian
# machine of tools/debian-machine.sh with a job, until it powers off.
#
# IMAGE stays as built: the machine writes to a copy-on-write overlay
# (OUT/disk.qcow2), kept, so the same machine can be read or booted again.
# JOB, a directory with job.sh, is packed as a tar onto the machine's
# second disk (vdb), with the .deb $MACHINE_DEB names (if set) beside
# job.sh for the machine to install first; the machine's third disk (vdc, OUT/out.img, 256 MiB)
# is for the job to write a tar of what it brings back
# (`tar -cf /dev/vdc ...`), unpacked here into OUT/back. The serial
# console is OUT/console.log.
#
# qemu on TCG (this project's /dev/kvm is a nested KVM that Debian's
# kernels hang under, docs/campaigns.md), SMP ($MACHINE_SMP, default
# "2"; "2,sockets=1,cores=1,threads=2" gives two SMT siblings, with a
# $MACHINE_CPU that has them: qemu's default AMD model under TCG does not
# — "max" does), $MACHINE_MEMORY MiB
# (default 2048). The machine reboots inside qemu as a board does;
# the run ends when it powers off, or after SECONDS (default 1800).
# With MACHINE_CUT_ON=TEXT, the power is cut the first time the console
# says TEXT (qemu killed, as a power cut leaves a board: nothing flushed)
# and the machine powered on again, the console going on in one log.
#
# Exit: 0 when the machine powered off; 1 when the time ran out (qemu
# killed) or qemu failed; 2 for a bad use.
set -u

[ $# -ge 3 ] && [ -f "$1" ] && [ -f "$2/job.sh" ] || {
	echo "usage: tools/debian-machine-run.sh IMAGE JOBDIR OUT [SECONDS]" >&2
	exit 2
}
img=$(realpath "$1") job=$2 out=$3 limit=${4:-1800}
mkdir -p "$out" || exit 2
[ -e "$out/disk.qcow2" ] || qemu-img create -q -f qcow2 -b "$img" -F raw "$out/disk.qcow2" || exit 2
deb=${MACHINE_DEB:-}
tar -C "$job" -cf "$out/job.tar" . || exit 2
if [ -n "$deb" ]; then
	tar -C "$(dirname "$deb")" -rf "$out/job.tar" "$(basename "$deb")" || exit 2
fi
# a whole number of MiB (sectors, and the same digest at every boot)
truncate -s $((($(stat -c %s "$out/job.tar") + 1048575) / 1048576))M "$out/job.tar"
rm -f "$out/out.img" && truncate -s 256M "$out/out.img" || exit 2

# MACHINE_CUT_ON: when the console first says this, the power is cut
# (qemu killed, nothing flushed) and the machine powered on again
cut=${MACHINE_CUT_ON:-}
boot() {
	qemu-system-x86_64 -machine pc -accel tcg ${MACHINE_CPU:+-cpu "$MACHINE_CPU"} \
		-smp "${MACHINE_SMP:-2}" -m "${MACHINE_MEMORY:-2048}" \
		-drive file="$out/disk.qcow2",if=virtio,format=qcow2 \
		-drive file="$out/job.tar",if=virtio,format=raw \
		-drive file="$out/out.img",if=virtio,format=raw \
		-nic none -display none -monitor none \
		-chardev file,id=console,path="$out/console.log",append=on -serial chardev:console </dev/null &
	qemu=$!
}
rm -f "$out/console.log"
trap 'kill -9 $qemu 2>/dev/null' EXIT
deadline=$((SECONDS + limit)) rc=
boot
while kill -0 $qemu 2>/dev/null; do
	if [ $SECONDS -ge $deadline ]; then
		{ kill -9 $qemu; wait $qemu; } 2>/dev/null
		rc=124
		break
	fi
	if [ -n "$cut" ] && grep -qF -- "$cut" "$out/console.log" 2>/dev/null; then
		{ kill -9 $qemu; wait $qemu; } 2>/dev/null
		cut=
		echo "debian-machine-run: the power cut (qemu killed) when the console said: $MACHINE_CUT_ON" >&2
		echo "== debian-machine-run: the power was cut here; the machine powered on again ==" >>"$out/console.log"
		boot
	fi
	sleep 0.5
done
[ -n "$rc" ] || { wait $qemu; rc=$?; }
rm -rf "$out/back" && mkdir "$out/back" && tar -C "$out/back" -xf "$out/out.img" 2>/dev/null
[ $rc -eq 0 ] && exit 0
echo "debian-machine-run: $([ $rc -eq 124 ] && echo "no power-off in $limit s" || echo "qemu exit $rc"); the console: $out/console.log" >&2
exit 1
