#!/bin/sh
# A Debian machine's job (tools/debian-machine-run.sh): the overnight
# campaign as docs/campaigns.md tells a user to run it — two kernel
# variants, `reboot =` scripts that use grub-reboot, `latlab run
# --reboot` started by hand on the first kernel; the resume unit does the
# rest. A unit of the job's own (latlab-machine-collect) waits, at each
# later boot, for the resume unit to finish; once latlab has disarmed it,
# it brings the tree and the boots' record back on the third disk and
# powers the machine off.
set -u
out=/var/lib/latlab
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
mkdir -p /root
cat >/root/overnight.ini <<'INI'
; the overnight campaign of docs/campaigns.md, short: two kernels, a reboot between
[campaign]
name = overnight
duration = 3s
repeat = 2

[matrix]
kernel = stock, rt
threads = 1
interval = 1ms
load = none

[kernel.stock]
match = !preempt:rt
reboot = /usr/local/sbin/boot-stock

[kernel.rt]
match = preempt:rt
reboot = /usr/local/sbin/boot-rt
INI
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
	echo "resume unit: $(systemctl is-enabled latlab-resume.service 2>&1)"
	journalctl --list-boots --no-pager
	for b in $(journalctl --list-boots --no-pager | awk 'NR > 1 { print $1 }'); do
		echo "== boot $b: $(journalctl -b "$b" -k --no-pager -o cat | grep -m1 'Linux version' | cut -d' ' -f3)"
		journalctl -b "$b" -u latlab-resume --no-pager -o cat
		echo "latlab-resume ran: $(journalctl -b "$b" -u latlab-resume --no-pager -o cat | grep -c 'Starting latlab-resume')"
	done
} >/var/lib/latlab/boots.txt 2>&1
tar -C /var/lib -cf /dev/vdc latlab
systemctl poweroff --no-block
SH
chmod 755 /usr/local/sbin/latlab-machine-collect
cat >/etc/systemd/system/latlab-machine-collect.service <<'UNIT'
[Unit]
Description=latlab-machine: bring the campaign back once latlab has disarmed its unit
After=latlab-resume.service multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/latlab-machine-collect

[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$out" /var/log/journal && journalctl --flush
systemctl enable latlab-machine-collect.service
# the first kernel, by hand: the rest is latlab's unit
latlab run /root/overnight.ini -o "$out" --reboot
