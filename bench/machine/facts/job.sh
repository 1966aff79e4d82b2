#!/bin/sh
# A Debian machine's job (tools/debian-machine-run.sh): what the machine
# is, as a board's user would ask it, brought back as facts.txt; then off.
f=/run/latlab-job/facts.txt
{
	echo "kernel: $(uname -r)"
	echo "cmdline: $(cat /proc/cmdline)"
	echo "cpus: $(nproc); threads a core: $(lscpu -p=CORE | grep -v '^#' | sort | uniq -c | awk 'NR == 1 { print $1 }')"
	echo "cgroup: $(stat -fc %T /sys/fs/cgroup)"
	echo "init: $(cat /proc/1/comm)"
	echo "latlab: $(latlab --version | head -1)"
	echo "resume unit: $(systemctl is-enabled latlab-resume.service 2>&1)"
	echo "kernels: $(ls /boot | grep '^vmlinuz-' | tr '\n' ' ')"
	echo "grubenv: $(grub-editenv list | tr '\n' ' ')"
	dpkg-query -W -f 'package: ${Package} ${Version} ${db:Status-Status}\n' latlab rt-tests \
		linux-image-amd64 linux-image-rt-amd64 grub-pc systemd
	echo "plan:"
	latlab plan /usr/share/latlab/configs/quick.ini 2>&1 | head -5
	echo "plan exit: $?"
} >"$f" 2>&1
cat "$f" >/dev/ttyS0
tar -C /run/latlab-job -cf /dev/vdc facts.txt
systemctl poweroff --no-block
