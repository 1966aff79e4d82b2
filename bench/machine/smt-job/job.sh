#!/bin/sh
# bench/smt.sh's job, in the Debian machine (tools/debian-machine.sh)
# booted with two SMT siblings (-smp 2,sockets=1,cores=1,threads=2) and
# cgroup v2 as systemd sets it up: what latlab says of the measured CPU's
# sibling, at a shell and as a systemd service, and a campaign measured
# as a service. Everything it brings back is under /run/latlab-job/back,
# written to the third disk (vdc) at the end.
back=/run/latlab-job/back
mkdir -p "$back"
{
	echo "siblings: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list) $(cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list)"
	echo "smt active: $(cat /sys/devices/system/cpu/smt/active 2>/dev/null)"
	echo "cgroup fs: $(stat -fc %T /sys/fs/cgroup)"
	echo "controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
	echo "kernel: $(uname -r)"
	echo "rt group sched: $(grep -c CONFIG_RT_GROUP_SCHED=y /boot/config-"$(uname -r)")"
} >"$back/facts.txt" 2>&1
cat >/root/smt.ini <<EOF
[campaign]
name = smt
duration = 2s
housekeeping = 0

[matrix]
threads = 1
affinity = 1
load = none, cpu

[load.cpu]
type = cpu
cpus = 0

[thresholds]
missed = off
EOF
latlab plan /root/smt.ini -o /root/o-plan >"$back/plan.txt" 2>&1
echo "exit $?" >>"$back/plan.txt"
# as a systemd service: a cgroup of its own under system.slice (v2)
systemd-run --wait --collect --quiet --unit latlab-smt-plan \
	-p StandardOutput="file:$back/service-plan.txt" -p StandardError="file:$back/service-plan.txt" \
	latlab plan /root/smt.ini -o /root/o-service-plan
echo "exit $?" >>"$back/service-plan-exit.txt"
systemd-run --wait --collect --quiet --unit latlab-smt-run \
	-p StandardOutput="file:$back/service-run.txt" -p StandardError="file:$back/service-run.txt" \
	latlab run /root/smt.ini -o /root/o-service
echo "exit $?" >>"$back/service-run-exit.txt"
cp -r /root/o-service/smt "$back/tree" 2>/dev/null
tar -C /run/latlab-job -cf /dev/vdc back
systemctl poweroff --no-block
