#!/bin/bash
# tools/debian-machine-run.sh IMAGE JOB OUT [SECONDS] — boot the Debian
# machine of tools/debian-machine.sh with a job, until it powers off.
#
# IMAGE stays as built: the machine writes to a copy-on-write overlay
# (OUT/disk.qcow2), kept, so the same machine can be read or booted again.
# JOB, a directory with job.sh, is packed as a tar onto the machine's
# second disk (vdb); the machine's third disk (vdc, OUT/out.img, 256 MiB)
# is for the job to write a tar of what it brings back
# (`tar -cf /dev/vdc ...`), unpacked here into OUT/back. The serial
# console is OUT/console.log.
#
# qemu on TCG (this project's /dev/kvm is a nested KVM that Debian's
# kernels hang under, docs/campaigns.md), SMP ($MACHINE_SMP, default
# "2"; "cores=1,threads=2" gives two SMT siblings), $MACHINE_MEMORY MiB
# (default 2048). The machine reboots inside qemu as a board does;
# the run ends when it powers off, or after SECONDS (default 1800).
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
tar -C "$job" -cf "$out/job.tar" . || exit 2
truncate -s 1M "$out/job.tar"	# a whole number of sectors (and the digest the machine reads)
rm -f "$out/out.img" && truncate -s 256M "$out/out.img" || exit 2

timeout --foreground -k 10 "$limit" qemu-system-x86_64 -machine pc -accel tcg \
	-smp "${MACHINE_SMP:-2}" -m "${MACHINE_MEMORY:-2048}" \
	-drive file="$out/disk.qcow2",if=virtio,format=qcow2 \
	-drive file="$out/job.tar",if=virtio,format=raw \
	-drive file="$out/out.img",if=virtio,format=raw \
	-nic none -display none -monitor none -serial file:"$out/console.log" </dev/null
rc=$?
rm -rf "$out/back" && mkdir "$out/back" && tar -C "$out/back" -xf "$out/out.img" 2>/dev/null
[ $rc -eq 0 ] && exit 0
echo "debian-machine-run: $([ $rc -eq 124 ] && echo "no power-off in $limit s" || echo "qemu exit $rc"); the console: $out/console.log" >&2
exit 1
