# The kernel-variant config of the qemu tests (vm.bats, vm-session.bats).
# vm_config KERNELS LOADS [extra kernel.stock lines]: c.ini with Debian's
# stock and rt kernels (make kernels: $KERNELS), DURATION, WORKLOADS,
# ACCEL, BOOT_TIMEOUT and TIMEOUT from the environment.
vm_config() {
	write_config c.ini <<EOC
[campaign]
name = v
duration = ${DURATION:-2s}
output = $WORK/out
boot_attempts = 2

[matrix]
kernel = $1
load = $2
workload = ${WORKLOADS:-timer}
threads = all
interval = 1ms

[kernel.stock]
runner = qemu
image = $KERNELS/vmlinux-stock
match = !preempt:rt
accel = ${ACCEL:-tcg}
boot_timeout = ${BOOT_TIMEOUT:-60s}
timeout = ${TIMEOUT:-1m}
$3

[kernel.rt]
runner = qemu
image = $KERNELS/vmlinux-rt
match = preempt:rt
accel = tcg
boot_timeout = 60s

[load.hackbench]
type = hackbench
groups = 1

[load.crash]
type = external
command = /bin/sh -c "sleep 1; echo c > /proc/sysrq-trigger"

[workload.file-write]
type = file-write
path = /var/tmp/latlab.dat
region = 1MiB
sync = fdatasync
EOC
}
