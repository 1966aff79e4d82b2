#!/bin/sh
# bench/smt.sh's job, in the Debian machine (tools/debian-machine.sh)
# booted with two cores of two SMT siblings each (-smp
# 4,sockets=1,cores=2,threads=2: CPUs 0-1 and 2-3) and
# cgroup v2 as systemd sets it up: what latlab says of the measured CPU's
# sibling, at a shell and as a systemd service, and a campaign measured
# as a service; then podman there: plan in a container without and with
# the rights, and a host and a container variant run as a service. Everything it brings back is under /run/latlab-job/back,
# written to the third disk (vdc) at the end.
back=/run/latlab-job/back
mkdir -p "$back"
{
	echo "siblings: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list) $(cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list)"
	echo "siblings 2-3: $(cat /sys/devices/system/cpu/cpu2/topology/thread_siblings_list) $(cat /sys/devices/system/cpu/cpu3/topology/thread_siblings_list)"
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

# [matrix] smt: the measured CPU's sibling offline for a cell, back after
# (CPU 3 measured, CPU 2 its sibling); CPU 1's sibling is CPU 0, which
# x86 cannot take offline: refused at plan time
cat >/root/axis.ini <<EOF
[campaign]
name = axis
duration = 2s
housekeeping = 0

[matrix]
threads = 1
affinity = 3
smt = on, off

[thresholds]
missed = off
EOF
latlab run /root/axis.ini -o /root/o-axis >"$back/axis-run.txt" 2>&1
echo "exit $?" >>"$back/axis-run.txt"
echo "cpu2 online after: $(cat /sys/devices/system/cpu/cpu2/online)" >>"$back/axis-run.txt"
cp -r /root/o-axis/axis "$back/axis-tree" 2>/dev/null
latlab plan /root/axis.ini -o /root/o-axis-plan --set matrix.affinity=1 >"$back/axis-plan-hk.txt" 2>&1
echo "exit $?" >>"$back/axis-plan-hk.txt"
grep -v '^housekeeping' /root/axis.ini >/root/axis-nohk.ini
latlab plan /root/axis-nohk.ini -o /root/o-axis-plan --set matrix.affinity=1 >"$back/axis-plan.txt" 2>&1
echo "exit $?" >>"$back/axis-plan.txt"

# podman in the machine: its .debs came with the job (podman-debs/, one
# dpkg -i so that their order is dpkg's); latlab's image made here from
# the static build, as make image does
ct=$back/ct
mkdir -p "$ct"
dpkg -i /run/latlab-job/podman-debs/*.deb >"$ct/dpkg.log" 2>&1
echo "dpkg exit $?" >>"$ct/dpkg.log"
# (/run is noexec: the programs are copied where they may run)
mkdir -p /root/static && cp /run/latlab-job/static/latlab /run/latlab-job/static/latload /root/static/
image=$(sh /run/latlab-job/container-image.sh /root/static/latlab /root/static/latload 2>"$ct/image.log")
{
	echo "podman: $(podman --version 2>&1)"
	echo "cgroup manager: $(podman info --format '{{.Host.CgroupManager}}' 2>&1)"
	echo "cgroup version: $(podman info --format '{{.Host.CgroupsVersion}}' 2>&1)"
	echo "image: $image"
} >"$ct/facts.txt"
cat >/root/ct.ini <<EOF
[campaign]
name = ct
duration = 2s

[matrix]
threads = 1
affinity = 1
load = none

[thresholds]
missed = off
EOF
# without the rights a measurement needs: the diagnosis
podman run --rm --network none -v /root/ct.ini:/c.ini:ro "$image" plan /c.ini >"$ct/plan-bare.txt" 2>&1
echo "exit $?" >>"$ct/plan-bare.txt"
podman run --rm --network none --cap-add SYS_NICE,IPC_LOCK -v /root/ct.ini:/c.ini:ro "$image" \
	plan /c.ini >"$ct/plan-caps.txt" 2>&1
echo "exit $?" >>"$ct/plan-caps.txt"
# latlab's container runner, as a systemd service: host against container
cat >/root/hc.ini <<EOF
[campaign]
name = hc
duration = 2s
repeat = 2

[matrix]
kernel = host, ct
threads = 1
affinity = 1
load = none

[kernel.host]
match = any

[kernel.ct]
runner = container
image = $image

[thresholds]
missed = off
EOF
systemd-run --wait --collect --quiet --unit latlab-ct-run \
	-p StandardOutput="file:$ct/run.txt" -p StandardError="file:$ct/run.txt" \
	latlab run /root/hc.ini -o /root/o-hc
echo "exit $?" >"$ct/run-exit.txt"
latlab compare /root/o-hc/hc >"$ct/compare.txt" 2>&1
cp -r /root/o-hc/hc "$ct/tree" 2>/dev/null
tar -C /run/latlab-job -cf /dev/vdc back
systemctl poweroff --no-block
