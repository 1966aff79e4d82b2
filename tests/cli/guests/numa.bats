#!/usr/bin/env bats
# lane: guests-a (tests/run.sh: where this file runs, and beside what)
# A qemu guest of two emulated nodes (numa_nodes, issue 29): affinity =
# node:N and a load's cpus = node:N resolved in the guest, the thread's
# memory local or remote (numa.bats: the same on this machine).

load ../helper

@test "qemu: a guest of two emulated nodes: the thread on node 1, its memory local or remote, the memory load on node 0" {
	vm_setup
	write_config c.ini <<EOF
[campaign]
name = n
duration = 500ms
output = $WORK/out

[matrix]
kernel = stock
workload = timer, mem-touch
affinity = node:1
load = near, all
numa = local, remote
size = 256KiB

[load.near]
type = memory
size = 1MiB
node = 0
cpus = node:0

[load.all]
type = cpu

[kernel.stock]
runner = qemu
image = $KERNELS/vmlinux-stock
accel = tcg
cpus = 2
numa_nodes = 2
boot_timeout = 60s
EOF
	run "$LATLAB" plan c.ini
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"affinity node:1: "*"; CPU 1 in the guest of stock"* ]] || { echo "$output"; false; }
	[[ "$output" == *"[load.near] cpus = node:0: "*"; CPU 0 in the guest of stock"* ]]
	run timeout 200 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$(cell_dir "$WORK/out/n" '0000-near-timer-*-anode1-mlocal-1')
	# the guest's shape, as it saw it: two nodes of one CPU and half the memory each
	grep -qx 'nodes = 0-1' "$D/sysinfo.ini"
	grep -qx 'node0_cpus = 0' "$D/sysinfo.ini"
	grep -qx 'node1_cpus = 1' "$D/sysinfo.ini"
	grep -qE '^node1_distance = [0-9]+ 10$' "$D/sysinfo.ini"
	grep -qx 'cpus = 1' "$D/cell.ini"
	[ "$(col "$D/load.csv" cpus)" = 0 ]
	[ "$(col "$D/load.csv" ops)" -gt 0 ]
	# the thread on node 1: its memory local (node 1) or remote (node 0), page by page
	L=$(cell_dir "$WORK/out/n" '0002-*-mem-touch-*-mlocal-1')/cell.ini
	R=$(cell_dir "$WORK/out/n" '0003-*-mem-touch-*-mremote-1')/cell.ini
	grep -qx 'numa_nodes.0 = 1' "$L" && grep -qx 'buffer_nodes.0 = 1:64' "$L" || { cat "$L"; false; }
	grep -qx 'stack_nodes.0 = 1:128' "$L"
	grep -qx 'numa_nodes.0 = 0' "$R" && grep -qx 'buffer_nodes.0 = 0:64' "$R" || { cat "$R"; false; }
	grep -qx 'numa_ok = yes' "$L" && grep -qx 'numa_ok = yes' "$R"
	# the load on node 0 shares no controller with the thread on node 1; on every CPU it does
	! grep -q '^numa_shared' "$L"
	A=$(cell_dir "$WORK/out/n" '0004-all-timer-*-mlocal-1')/cell.ini
	grep -qx 'numa_shared = node 1 (thread 0 on CPU 1, the load on CPUs 1)' "$A" || { cat "$A"; false; }
	# remote where the guest has one node: refused at its line
	sed -i 's/^numa_nodes = 2$/numa_nodes = 1/; s/^cpus = node:0$/cpus = all/; s/^affinity = node:1$/affinity = node:0/' c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" == *"numa = remote: [kernel.stock] numa_nodes = 1: one node in the guest"* ]] || { echo "$output"; false; }
	sed -i 's/^numa_nodes = 1$/numa_nodes = 2/; s/^cpus = all$/cpus = node:0/' c.ini
	# three nodes on two CPUs: refused at its line
	sed -i 's/^numa_nodes = 2$/numa_nodes = 3/' c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"[kernel.stock] numa_nodes = 3: each node needs a CPU of its own (cpus = 2)"* ]] || { echo "$output"; false; }
}
