#!/bin/sh
# Let this machine run arm64 and armhf programs through qemu-user
# (binfmt_misc, with the handlers Debian's qemu-user-binfmt ships): a
# static arm latlab under qemu-user can then start its latload as it does
# on a board. Changes nothing when they are registered already.
set -eu
d=/proc/sys/fs/binfmt_misc
if [ ! -e "$d/register" ]; then
	mount -t binfmt_misc binfmt_misc "$d"
fi
for a in aarch64 arm; do
	[ -e "$d/qemu-$a" ] && continue
	conf=/usr/lib/binfmt.d/qemu-$a.conf
	if [ ! -f "$conf" ]; then
		echo "binfmt: no $conf: install qemu-user-binfmt (make deps)" >&2
		exit 3
	fi
	/lib/systemd/systemd-binfmt "$conf"
done
