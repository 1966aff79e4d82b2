#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# NUMA nodes in the matrix (issue 29): affinity = node:N and a load's
# cpus = node:N, resolved on the machine that runs the cell; the machine's
# shape in sysinfo.ini (a qemu guest of two emulated nodes, numa_nodes:
# guests/numa.bats).

load helper

numa_config() {
	write_config c.ini <<EOF
[campaign]
name = n
duration = 200ms
output = $WORK/out

[matrix]
workload = timer
affinity = $1
load = none, near

[load.near]
type = cpu
cpus = ${2:-node:0}
EOF
}

@test "node:N: plan shows what it resolves to; a node this machine lacks cannot run here, run refuses it at its line" {
	# this machine's nodes, as the kernel says (one on a machine without NUMA)
	nodes=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
	n0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null || cat /sys/devices/system/cpu/online)
	numa_config "node:0, node:1000"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"0000-none-timer-t1-anode0-1"*"here"* ]]
	[[ "$output" == *"0001-none-timer-t1-anode1000-1"*"cannot run here"* ]]
	[[ "$output" == *"affinity node:0: CPUs $n0 on this machine"* ]] || { echo "$output"; false; }
	[[ "$output" == *"affinity node:1000: no such node on this machine"* ]]
	[[ "$output" == *"[load.near] cpus = node:0: CPUs $n0 on this machine"* ]]
	[[ "$output" == *"c.ini:8: affinity 'node:1000': this machine has no NUMA node by that number with a CPU online (nodes: $nodes)"* ]] || { echo "$output"; false; }
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:8: affinity 'node:1000': this machine has no NUMA node"* ]]
	[ ! -e "$WORK/out/n/cells.csv" ]
	# a load on a node the machine lacks: at the load's line
	numa_config "node:0" "node:1000"
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:13: [load.near] cpus = 'node:1000': this machine has no NUMA node"* ]] || { echo "$output"; false; }
}

@test "node:N on this machine: the thread and the load on the node's CPUs, recorded; sysinfo has the machine's shape" {
	n0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null || cat /sys/devices/system/cpu/online)
	numa_config "node:0"
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$(cell_dir "$WORK/out/n" '0001-near-timer-t1-anode0-1')
	grep -qx 'affinity = node:0' "$D/cell.ini"
	# the measured thread on the node's first CPU, the load on all of them
	cpu=$(ini_key "$D/cell.ini" cell cpus)
	[ "$cpu" = "${n0%%[-,]*}" ] || { echo "thread on $cpu, node 0 is $n0"; false; }
	[ "$(col "$D/load.csv" cpus)" = "$n0" ]
	# the shape: nodes, each one's CPUs, memory and distances
	grep -q '^\[numa\]$' "$D/sysinfo.ini"
	grep -qx "node0_cpus = $n0" "$D/sysinfo.ini"
	grep -qE '^node0_memory_mib = [0-9]+$' "$D/sysinfo.ini"
	grep -qE '^node0_distance = 10( [0-9]+)*$' "$D/sysinfo.ini"
}

@test "node:N: what is not a node is refused at its line" {
	numa_config "node:x"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:8: affinity: 'node:x' is not one of spread|all|isolated|node:N (N 0-1023) or a CPU list (0-3+6)"* ]] || { echo "$output"; false; }
	numa_config "node:0" "node:01"
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:13: cpus = 'node:01': expected node:N with N a NUMA node number (0-1023)"* ]] || { echo "$output"; false; }
	# numa_nodes is qemu's, and each node needs a CPU
	numa_config "node:0"
	printf '[matrix]\nkernel = k\n[kernel.k]\nmatch = any\nnuma_nodes = 2\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"[kernel.k] numa_nodes = 2 emulates nodes in qemu: it needs runner = qemu"* ]] || { echo "$output"; false; }
}

@test "[matrix] numa: the thread's stack and its buffer where asked, checked page by page; what this machine cannot do is refused at its line" {
	write_config c.ini <<EOF
[campaign]
name = m
duration = 200ms
output = $WORK/out

[matrix]
workload = mem-touch
size = 1MiB
numa = none, local, interleave, node:0
EOF
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	D=$WORK/out/m
	[ "$(col "$D/cells.csv" numa | sort -u | tr '\n' ' ')" = "interleave local node:0 none " ]
	# none: nothing asked, nothing said
	! grep -q '^numa' "$(cell_dir "$D" '0000-*-mnone-1')/cell.ini"
	# bound to node 0 (this machine's one): its 128 stack pages and 256 buffer pages there
	for c in mlocal mnode0; do
		I=$(cell_dir "$D" "*-$c-1")/cell.ini
		grep -qx 'numa_nodes.0 = 0' "$I"
		grep -qx 'stack_nodes.0 = 0:128' "$I" || { cat "$I"; false; }
		grep -qx 'buffer_nodes.0 = 0:256' "$I"
		grep -qx 'numa_ok = yes' "$I"
	done
	I=$(cell_dir "$D" '*-minterleave-1')/cell.ini
	grep -qx 'numa = interleave' "$I" && grep -qx 'numa_nodes.0 = 0' "$I"
	# the axis is one compare can line up
	run timeout 60 "$LATLAB" compare "$D" --axis numa -o "$WORK/cmp"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"1 rows compared across 4 values of numa (1 trees)"* ]]
	[ "$(col "$WORK/cmp/compare.csv" numa | sort -u)" = "" ]
	# remote on a machine of one node: cannot run here, at its line
	printf '[matrix]\nnuma = remote\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" == *"c.ini:9: numa = remote: no node with memory besides node 0"* ]] || { echo "$output"; false; }
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ]
	printf '[matrix]\nnuma = far\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:9: numa: 'far' is not one of none|local|remote|interleave|node:N (N 0-1023)"* ]] || { echo "$output"; false; }
	# a memory load bound to a node the machine lacks: at its line
	write_config c.ini <<EOF
[campaign]
name = l
duration = 200ms
output = $WORK/out

[matrix]
load = far

[load.far]
type = memory
node = 7
EOF
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:11: [load.far] node = 7: this machine has no such NUMA node"* ]] || { echo "$output"; false; }
}
