#!/bin/sh
# A Debian machine's job (tools/debian-machine-run.sh): the overnight
# campaign as docs/campaigns.md tells a user to run it — kernel variants
# with `reboot =` scripts that use grub-reboot, `latlab run --reboot`
# started by hand on the first kernel; the resume unit does the rest —
# and two of the faults a night brings:
# - a variant whose entry does not boot: rt-broken, the rt kernel with a
#   root that is not there (it panics; panic=5 reboots; GRUB boots the
#   default, stock), told from rt by `cmdline:latlab.broken`;
# - the power cut mid-cell: at the first rt boot, once a cell of rt is
#   running and has written its first checkpoint, latlab-machine-cut says
#   "cut the power now" on the console and the host kills qemu
#   (MACHINE_CUT_ON in bench/overnight.sh).
# At the rt boot after the cut, the grub night starts the unit twice and
# latlab by hand beside it (latlab-machine-twice); the kexec night, whose
# campaign has a small filesystem of its own, fills it mid-cell, then
# makes room and starts the unit again (latlab-machine-full).
# A unit of the job's own (latlab-machine-collect) waits, at each later
# boot, for the resume unit to finish; once latlab has disarmed it, it
# brings the tree and the boots' record back on the third disk and
# powers the machine off.
set -u
out=/var/lib/latlab
# the package as dpkg -i left it (the machine installed it before this job)
echo "$(systemctl is-enabled latlab-resume.service 2>&1); resume.env: $(ls /etc/latlab/resume.env 2>&1)" \
	>/var/lib/latlab-machine/at-install
ver_rt=$(ls /boot | sed -n 's/^vmlinuz-\(.*-rt-amd64\)$/\1/p' | sort -V | tail -1)
ver_stock=$(ls /boot | sed -n 's/^vmlinuz-\(.*-amd64\)$/\1/p' | grep -v -- -rt- | sort -V | tail -1)
entry() {
	echo "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux $1"
}
grep -qF "with Linux $ver_rt'" /boot/grub/grub.cfg || { echo "no GRUB entry for $ver_rt"; exit 1; }
for v in stock rt; do
	eval ver=\$ver_$v
	printf '#!/bin/sh\ngrub-reboot '\''%s'\'' && exec reboot\n' "$(entry "$ver")" >/usr/local/sbin/boot-$v
	chmod 755 /usr/local/sbin/boot-$v
done
# the entry that does not boot: GRUB reads custom.cfg (41_custom) as it is
cat >/boot/grub/custom.cfg <<CFG
menuentry 'latlab-machine: rt with a root that is not there' --id latlab-rt-broken {
	insmod part_msdos
	insmod ext2
	search --no-floppy --fs-uuid --set=root $(findmnt -no UUID /)
	linux /boot/vmlinuz-$ver_rt root=/dev/latlab-not-there ro console=ttyS0,115200 panic=5 latlab.broken
}
CFG
printf '#!/bin/sh\ngrub-reboot latlab-rt-broken && exec reboot\n' >/usr/local/sbin/boot-rt-broken
chmod 755 /usr/local/sbin/boot-rt-broken
# the reboot method (the file method beside job.sh): grub (grub-reboot,
# and the variant that does not boot) or kexec (latlab's reboot = kexec)
method=$(cat "$(dirname "$0")/method" 2>/dev/null || echo grub)
if [ "$method" = kexec ]; then
	kernels="stock, rt" reboot_stock=kexec reboot_rt=kexec broken=
	# the campaign on a filesystem of its own (a data partition: a loop
	# file here), small, so that the full disk fills it and not the
	# journal's
	truncate -s 64M /var/lib/latlab.fs && mkfs.ext4 -q -F /var/lib/latlab.fs &&
		mkdir -p "$out" && echo "/var/lib/latlab.fs $out ext4 loop 0 0" >>/etc/fstab &&
		mount "$out" || { echo "no filesystem for the campaign"; exit 1; }
else
	kernels="stock, rt, rt-broken" reboot_stock=/usr/local/sbin/boot-stock
	reboot_rt=/usr/local/sbin/boot-rt
	broken='
; an entry that does not boot: the rt kernel with a root that is not there
[kernel.rt-broken]
match = preempt:rt cmdline:latlab.broken
reboot = /usr/local/sbin/boot-rt-broken'
fi
echo "$method" >/var/lib/latlab-machine/method
# unit NAME TYPE DESCRIPTION AFTER: the job's own unit latlab-machine-NAME
unit() {
	cat >"/etc/systemd/system/latlab-machine-$1.service" <<UNIT
[Unit]
Description=latlab-machine: $3
${4:+After=$4}

[Service]
Type=$2
ExecStart=/usr/local/sbin/latlab-machine-$1

[Install]
WantedBy=multi-user.target
UNIT
}
mkdir -p /root
cat >/root/overnight.ini <<INI
; the overnight campaign of docs/campaigns.md, short: kernels, reboots between
[campaign]
name = overnight
duration = 4s
repeat = 2
; what a cell has measured so far, kept every second (a power cut loses no more)
checkpoint = 1s

[matrix]
kernel = $kernels
threads = 1
interval = 1ms
load = none

[kernel.stock]
match = !preempt:rt
reboot = $reboot_stock

[kernel.rt]
match = preempt:rt
reboot = $reboot_rt
$broken
INI
cat >/usr/local/sbin/latlab-machine-cut <<'SH'
#!/bin/sh
# at the first boot of rt: once a cell of rt is running, the power is cut
# (by the host, which reads the console)
case $(uname -r) in *-rt-*) ;; *) exit 0 ;; esac
grep -qw latlab.broken /proc/cmdline && exit 0
[ -e /var/lib/latlab-machine/cut ] && exit 0
for i in $(seq 3000); do
	last=$(tail -n 1 /var/lib/latlab/overnight/state 2>/dev/null)
	case $last in
	[0-9]*-rt-none-*" = running")
		cell=${last%% = running}
		# once its first checkpoint is written: data a power cut must not lose
		if grep -qs '^status = partial' /var/lib/latlab/overnight/*/*-rt-amd64/"$cell"/cell.ini; then
			echo "$cell" >/var/lib/latlab-machine/cut
			sync
			echo "latlab-machine: cut the power now (cell $cell, after its checkpoint)" >/dev/ttyS0
			exit 0
		fi
	esac
	sleep 0.2
done
SH
chmod 755 /usr/local/sbin/latlab-machine-cut
unit cut simple "the power cut, once, mid-cell" ""
# what the faults after the cut share (sourced)
mkdir -p /usr/local/lib
cat >/usr/local/lib/latlab-machine.sh <<'SH'
# after_cut NIGHT FAULT: is this night NIGHT's rt boot after the power
# cut, with FAULT not done yet?
after_cut() {
	[ "$(cat /var/lib/latlab-machine/method)" = "$1" ] || return 1
	case $(uname -r) in *-rt-*) ;; *) return 1 ;; esac
	[ -e /var/lib/latlab-machine/cut ] && ! [ -e "/var/lib/latlab-machine/$2" ]
}
# wait_running: until the campaign's state says a cell runs (10 min at most)
wait_running() {
	for i in $(seq 3000); do
		tail -n 1 /var/lib/latlab/overnight/state 2>/dev/null | grep -q ' = running$' && return 0
		sleep 0.2
	done
	return 1
}
SH
cat >/usr/local/sbin/latlab-machine-twice <<'SH'
#!/bin/sh
# grub night, at the rt boot after the power cut, once a cell runs: the
# unit started again, and latlab run by hand on the same campaign, as a
# user might
. /usr/local/lib/latlab-machine.sh
after_cut grub twice || exit 0
wait_running
{
	echo "the unit, started again: $(systemctl start --no-block latlab-resume.service 2>&1; echo "exit $?")"
	latlab run /root/overnight.ini -o /var/lib/latlab --reboot -q 2>&1
	echo "latlab by hand: exit $?"
} >/var/lib/latlab-machine/twice
SH
chmod 755 /usr/local/sbin/latlab-machine-twice
unit twice simple "the unit started twice, and latlab by hand beside it" ""
cat >/usr/local/sbin/latlab-machine-full <<'SH'
#!/bin/sh
# kexec night, at the rt boot after the power cut, once a cell of the
# unit's latlab runs: the campaign's filesystem filled to the last block;
# once the unit has ended, room made (the ballast removed) and the unit
# started again, as a user who finds it in the morning does
. /usr/local/lib/latlab-machine.sh
after_cut kexec full || exit 0
wait_running
state() { systemctl show -p ActiveState --value latlab-resume.service; }
{
	echo "filled during: $(tail -n 1 /var/lib/latlab/overnight/state)"
	dd if=/dev/zero of=/var/lib/latlab/ballast bs=64k 2>&1 | tail -n 1
	sync
	echo "free: $(df --output=avail -k /var/lib/latlab | tail -n 1) KiB"
	for i in $(seq 3000); do
		case $(state) in active | activating | deactivating) sleep 0.2 ;; *) break ;; esac
	done
	echo "latlab-resume: $(state), $(systemctl show -p Result --value latlab-resume.service), exit $(systemctl show -p ExecMainStatus --value latlab-resume.service)"
	echo "half-written files: $(find /var/lib/latlab -name '*.tmp.*' | wc -l)"
	rm -f /var/lib/latlab/ballast
	sync
	echo "room made: $(df --output=avail -k /var/lib/latlab | tail -n 1) KiB free; the unit started again"
	systemctl start latlab-resume.service
	echo "latlab-resume again: $(systemctl show -p Result --value latlab-resume.service), exit $(systemctl show -p ExecMainStatus --value latlab-resume.service)"
} >/var/lib/latlab-machine/full 2>&1
# the collector ran when the unit first ended (still armed: nothing to do)
systemctl start --no-block latlab-machine-collect.service
SH
chmod 755 /usr/local/sbin/latlab-machine-full
unit full simple "the campaign's disk full mid-cell, then room made" ""
cat >/usr/local/sbin/latlab-machine-collect <<'SH'
#!/bin/sh
# at each boot after the first: once latlab has disarmed its resume unit,
# boot once more (a later boot must run nothing), then bring the tree back
[ -e /etc/latlab/resume.env ] && exit 0
if ! [ -e /var/lib/latlab-machine/disarmed ]; then
	uname -r >/var/lib/latlab-machine/disarmed
	systemctl reboot --no-block
	exit 0
fi
{
	echo "collected on: $(uname -r)"
	echo "resume unit at install: $(cat /var/lib/latlab-machine/at-install)"
	echo "power cut during: $(cat /var/lib/latlab-machine/cut 2>/dev/null)"
	sed 's/^/started twice: /' /var/lib/latlab-machine/twice 2>/dev/null
	sed 's/^/disk full: /' /var/lib/latlab-machine/full 2>/dev/null
	echo "resume unit: $(systemctl is-enabled latlab-resume.service 2>&1)"
	journalctl --list-boots --no-pager
	asked= at= method=$(cat /var/lib/latlab-machine/method)
	# span BOOT [FILTER]: the first and last moments of its journal's lines
	span() {
		which=$1
		shift
		journalctl -b "$which" "$@" --no-pager -o short-unix | grep '^[0-9]' |
			awk 'NR == 1 { a = $1 } { z = $1 } END { if (NR) printf "%.1f to %.1f s", a, z; else printf "none" }'
	}
	for b in $(journalctl --list-boots --no-pager | awk 'NR > 1 { print $1 }'); do
		echo "== boot $b: $(journalctl -b "$b" -k --no-pager -o cat | grep -m1 'Linux version' | cut -d' ' -f3)"
		# its journal's first and last moments, the unit's start and end (the host's time: TCG's RTC)
		echo "journal: $(span "$b"); latlab-resume: $(span "$b" -u latlab-resume)"
		journalctl -b "$b" -t latlab-job --no-pager -o cat | sed 's/^/(by hand) /'
		journalctl -b "$b" -u latlab-resume --no-pager -o cat
		echo "latlab-resume ran: $(journalctl -b "$b" -u latlab-resume --no-pager -o cat | grep -c 'Starting latlab-resume')"
		# a reboot latlab asked for, from its words to the next boot's, as planned
		came=$(journalctl -b "$b" --no-pager -o short-unix | grep -m1 "booted into kernel variant $asked (.*), as planned")
		[ -n "$asked" ] && [ -n "$came" ] &&
			echo "$came $at $asked" | awk -v m="$method" '{ printf "reboot into %s by %s: %.1f s\n", $NF, m, $1 - $(NF - 1) }' >>/var/lib/latlab/reboots.txt
		last=$(journalctl -b "$b" --no-pager -o short-unix | grep 'rebooting into kernel variant' | tail -n 1)
		asked=$(echo "$last" | sed -n 's/.*rebooting into kernel variant \([^ ]*\) .*/\1/p')
		at=${last%% *}
	done
} >/var/lib/latlab/boots.txt 2>&1
tar -C /var/lib -cf /dev/vdc latlab
systemctl poweroff --no-block
SH
chmod 755 /usr/local/sbin/latlab-machine-collect
unit collect oneshot "bring the campaign back once latlab has disarmed its unit" \
	"latlab-resume.service multi-user.target"
mkdir -p "$out" /var/log/journal && journalctl --flush
systemctl enable latlab-machine-collect.service latlab-machine-cut.service \
	latlab-machine-twice.service latlab-machine-full.service
# the first kernel, by hand (its words to the journal, as the unit's): the
# rest is latlab's unit
latlab run /root/overnight.ini -o "$out" --reboot 2>&1 | systemd-cat -t latlab-job
