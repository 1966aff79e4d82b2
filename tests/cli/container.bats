#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# latlab in a container (docs/containers.md): the image make image builds
# from the static build; why SCHED_FIFO is refused inside podman, named;
# a campaign measured in a container with the rights it needs and where
# it ran said in sysinfo.ini; the Kubernetes Job's pod under podman kube
# play. Every podman call uses a store of this file's own (storage,
# runroot, tmp_dir under BATS_FILE_TMPDIR; no network), so the machine's
# containers and images are never seen or touched.

load helper

# podman_env: a store of this file's own (tools/podman-env.sh)
source "$BATS_TEST_DIRNAME/../../tools/podman-env.sh"
ct_env() {
	podman_env "$BATS_FILE_TMPDIR/podman"
}

setup_file() {
	command -v podman >/dev/null && command -v runc >/dev/null ||
		{ echo "no podman or runc (make deps installs them)" >&3; return 1; }
	ct_env
	LIBPOD_PARENT_WAS=$(podman_default_parent_before)
	export LIBPOD_PARENT_WAS
	# build/static in both modes: make SANITIZE=1 test's latlab is build/san's
	static=$(static_programs) || return 1
	IMAGE=$("$BATS_TEST_DIRNAME/../../tools/container-image.sh" "$static/latlab" "$static/latload")
	export IMAGE
}

teardown_file() {
	ct_env
	podman rm -a -f >/dev/null 2>&1
	podman pod rm -a -f >/dev/null 2>&1
	podman rmi -a -f >/dev/null 2>&1
	rm -rf "$BATS_FILE_TMPDIR/podman" 2>/dev/null || true
	# no cgroup of podman's left behind (it would hold every CPU from isolation)
	podman_default_parent_after "${LIBPOD_PARENT_WAS:-}" ||
		{ echo "teardown_file: /libpod_parent left" >&2; return 1; }
}

setup() {
	: "${LATLAB:?set LATLAB}"
	WORK=$(mktemp -d /tmp/latlab-bats.XXXXXX)
	chmod 755 "$WORK"
	cd "$WORK" || return 1
	ct_env
	printf '[campaign]\nname = ct\nduration = 1s\n\n[matrix]\nthreads = 1\ninterval = 1ms\nload = none\n\n[thresholds]\nmissed = off\n' >c.ini
	mkdir results
}

teardown() {
	cd /
	rm -rf "$WORK"
	[ -n "${CG:-}" ] || return 0
	podman_parent_remove "latlab-bats-$$" || { echo "teardown: cgroups latlab-bats-$$ left" >&2; return 1; }
}

# the v1 cpu hierarchy's folder when this kernel has RT_GROUP_SCHED, else ""
rt_group_sched() {
	local d
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		[ -e "$d/cpu.rt_runtime_us" ] && { echo "$d"; return; }
	done
}

ct_run() {
	podman run --rm --pull never --network none -v "$WORK/c.ini:/c.ini:ro" -v "$WORK/results:/results" "$@"
}

@test "make image: latlab's static build in an image made here, reused for the same build" {
	run podman image inspect --format '{{index .Labels "org.latlab.digest"}} {{.Config.Entrypoint}}' "$IMAGE"
	[ "$status" -eq 0 ]
	[[ "$output" == *" [/usr/bin/latlab]" ]]
	local id
	id=$(podman image inspect --format '{{.Id}}' "$IMAGE")
	static=$(static_programs)
	run "$BATS_TEST_DIRNAME/../../tools/container-image.sh" "$static/latlab" "$static/latload"
	[ "$status" -eq 0 ] && [ "$output" = "$IMAGE" ]
	[ "$(podman image inspect --format '{{.Id}}' "$IMAGE")" = "$id" ]
	run ct_run "$IMAGE" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"static"* ]]
	# a dynamically linked latlab is refused: the image has no libraries
	run "$BATS_TEST_DIRNAME/../../tools/container-image.sh" "$LATLAB" "$(dirname "$LATLAB")/latload"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is dynamically linked: the image has no libraries (make static)"* ]]
}

@test "in a container without the rights, plan and run name the cause and podman's flags, exit 3, nothing written" {
	run ct_run "$IMAGE" plan /c.ini
	[ "$status" -eq 3 ]
	[[ "$output" == *"this process has no CAP_SYS_NICE"* ]]
	[[ "$output" == *"it runs in podman (/run/.containerenv) (--cap-add=SYS_NICE"* ]]
	run ct_run "$IMAGE" run /c.ini -o /results
	[ "$status" -eq 3 ]
	[ -z "$(ls results)" ]
	# the container's cpuset: plan says which CPUs latlab has
	if [ "$(nproc --all)" -ge 2 ]; then
		run ct_run --cpuset-cpus 1 "$IMAGE" plan /c.ini
		[[ "$output" == *"latlab may run on CPUs 1 of the online 0-"*"(its affinity: a container's --cpuset-cpus"* ]]
	fi
	# CAP_SYS_NICE given, and a kernel with RT_GROUP_SCHED: the
	# container's cgroup has no budget, named as the host names it
	[ -n "$(rt_group_sched)" ] || return 0
	run ct_run --cap-add SYS_NICE,IPC_LOCK "$IMAGE" plan /c.ini
	[ "$status" -eq 3 ]
	[[ "$output" == *"its cgroup has no real-time budget: "*"/cpu.rt_runtime_us is 0 — the container's own cgroup, /"*"libpod-"*" on the host"* ]]
	[[ "$output" == *"podman run --cpu-rt-runtime=950000 --cap-add=SYS_NICE,IPC_LOCK"* ]]
}

@test "in a container, the axes that need /proc/sys, cgroups or a device are refused or said at plan time, with the reason" {
	printf '[matrix]\nisolation = none, cpuset\nthrottle = default, off\n' | ini_merge c.ini
	run ct_run --cap-add SYS_NICE,IPC_LOCK "$IMAGE" plan /c.ini
	[ "$status" -eq 2 ] || [ "$status" -eq 3 ]
	[[ "$output" == *"throttle = off: /proc/sys/kernel/sched_rt_runtime_us cannot be written: Read-only file system"* ]]
	[[ "$output" == *"isolation = cpuset: /sys/fs/cgroup/cpuset: Read-only file system (a container's cgroups are read-only: isolate from the host)"* ]]
	# the default dma_latency (0) cannot be held without the device: said once
	[[ "$output" == *"dma_latency: /dev/cpu_dma_latency: No such file or directory: C-states not held, each cell.ini says dma_latency = not held (in a container: podman run --device /dev/cpu_dma_latency)"* ]]
	[[ "$output" == *"0000-"*" here"* ]]
}

@test "with the rights and a budget, latlab measures SCHED_FIFO in a container and says where it ran" {
	local budget=()
	# a parent of this test's own, given a budget its container's fits in
	CG=$(podman_rt_parent "latlab-bats-$$")
	[ -z "$CG" ] || budget=(--cgroup-parent "/latlab-bats-$$" --cpu-rt-runtime 100000)
	run ct_run --cap-add SYS_NICE,IPC_LOCK "${budget[@]}" "$IMAGE" run /c.ini -o /results
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	local si
	si=$(ls results/ct/*/*/*/sysinfo.ini)
	grep -qx 'policy = fifo' results/ct/*/*/*/cell.ini
	grep -qx 'container = podman (/run/.containerenv)' "$si"
	grep -qx 'cap_sys_nice = yes' "$si"
	grep -qx 'cap_ipc_lock = yes' "$si"
	if [ -n "${CG:-}" ]; then
		grep -qx 'cpu_rt_runtime_us = 100000' "$si"
		grep -qx "cpu_cgroup = /latlab-bats-$$/libpod-[0-9a-f]*" "$si"
	fi
	# the host's latlab reads the tree as any other
	"$LATLAB" report results/ct >/dev/null
	# and the host's own [rights]: no container, its budget the root's
	"$LATLAB" run c.ini -o host -q >/dev/null 2>&1 || true
	grep -qx 'container = none' host/ct/*/*/*/sysinfo.ini
}

@test "the Kubernetes Job's pod under podman kube play: its ConfigMap's campaign, its tree on the hostPath" {
	local job=$BATS_TEST_DIRNAME/../../deploy/kubernetes/latlab-job.yaml
	local pod=latlab-bats-$$
	# the Job's pod as a Pod, this file's image and results folder, short
	"$BATS_TEST_DIRNAME/../../deploy/kubernetes/job-pod.sh" "$job" "$IMAGE" "$WORK/results" |
		sed "s/^  name: latlab$/  name: $pod/; s/duration = 10s/duration = 1s/; s/repeat = 3/repeat = 1/" >pod.yaml
	grep -q '^kind: ConfigMap$' pod.yaml
	grep -q '^kind: Pod$' pod.yaml
	grep -q 'cpu-load-balancing.crio.io: "disable"' pod.yaml
	run podman kube play --network none pod.yaml
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run timeout 120 podman wait "$pod-latlab"
	[ "$status" -eq 0 ]
	local rc=$output
	run podman logs "$pod-latlab"
	if [ -n "$(rt_group_sched)" ]; then
		# the pod's cgroup has no budget here, as under a kubelet: said, exit 3
		[ "$rc" -eq 3 ]
		[[ "$output" == *"its cgroup has no real-time budget"*"the container's own cgroup, /"*"libpod-"*" on the host"* ]]
		[ -z "$(ls results)" ]
		# the same pod measuring SCHED_OTHER: the ConfigMap, the volume and the tree
		podman kube play --down pod.yaml >/dev/null
		sed -i 's|args: \["run", |args: ["run", "--allow-non-rt", |' pod.yaml
		run podman kube play --network none pod.yaml
		[ "$status" -eq 0 ]
		run timeout 120 podman wait "$pod-latlab"
		rc=$output
	fi
	# measured: 0, or 1 where the cell failed the manifest's thresholds
	# (SCHED_OTHER beside a busy machine's load misses periods)
	[ "$rc" -le 1 ] || { podman logs "$pod-latlab"; false; }
	grep -qx 'container = podman (/run/.containerenv)' results/pod/*/*/*/sysinfo.ini
	tail -n 1 results/pod/state | grep -Eq '^0000-.* = (ok|fail)$'
	"$LATLAB" report results/pod >/dev/null
	podman kube play --down pod.yaml >/dev/null
}

@test "job-pod.sh: a file with no Job, or none given, is exit 2" {
	printf 'apiVersion: v1\nkind: Pod\n' >p.yaml
	run "$BATS_TEST_DIRNAME/../../deploy/kubernetes/job-pod.sh" p.yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"has no Job"* ]]
	run "$BATS_TEST_DIRNAME/../../deploy/kubernetes/job-pod.sh"
	[ "$status" -eq 2 ]
}

# a campaign of a host variant and a container variant (runner = container)
ct_campaign() {
	cat >c.ini <<EOC
[campaign]
name = hc
duration = 1s
repeat = ${1:-1}

[matrix]
kernel = host, ct
threads = 1
interval = 1ms
load = none

[kernel.host]
match = any

[kernel.ct]
runner = container
image = $IMAGE

[thresholds]
missed = off
EOC
}

@test "runner = container: a host and a container variant in one campaign, rounds alternating; the container's cells come back over the channel, its cgroup and files removed; compare calls or declines with an interval" {
	ct_campaign 5
	run timeout "$(paced 300)" "$LATLAB" run c.ini -o out
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"kernel variant ct: starting $IMAGE in podman (this machine's kernel"*"for 1 cells of round 1 of 5; its log: out/hc/vm/ct-1.console.log"* ]] || run_failed
	[ "$(grep -c ' = ok$' out/hc/state)" -eq 10 ]
	# the container's cells, in the tree under its own host name
	local si
	for si in out/hc/*-ct/*/*-ct-none-*/sysinfo.ini; do
		grep -qx 'runner = container' "$si"
		grep -qx "image = $IMAGE" "$si"
		grep -qx 'container = podman (/run/.containerenv)' "$si"
		grep -qx 'cap_sys_nice = yes' "$si"
		grep -qx 'policy = fifo' "$(dirname "$si")/cell.ini"
		if [ -n "$(rt_group_sched)" ]; then
			grep -qx 'cpu_rt_runtime_us = 100000' "$si"
			grep -Eqx 'cpu_cgroup = /latlab-[0-9]+-[0-9]+/libpod-[0-9a-f]+' "$si"
		fi
	done
	[ "$(ls -d out/hc/*-ct/*/*-ct-none-* | wc -l)" -eq 5 ]
	# what it was given, in its log; nothing of it left behind
	head -n 1 out/hc/vm/ct-1.console.log | grep -q '^# podman command: podman .*run --rm --pull never --network none --cap-add SYS_NICE,IPC_LOCK --preserve-fds 1 '
	local parent stage
	parent=$(head -n 1 out/hc/vm/ct-1.console.log | sed -n 's/.* --name \(latlab-[0-9]*-[0-9]*\) .*/\1/p')
	stage=$(head -n 1 out/hc/vm/ct-1.console.log | sed -n 's/.*source=\([^,]*\),.*/\1/p')
	[ -n "$parent" ] && [ -n "$stage" ]
	! ls -d /sys/fs/cgroup/*/"$parent" /sys/fs/cgroup/"$parent" 2>/dev/null
	[ ! -e "$stage" ]
	[ -z "$(podman ps -a -q)" ]
	# host against container: a verdict with its interval, or none with why
	run "$LATLAB" compare out/hc
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" =~ wake-up:\ (host|ct)\ lower|wake-up:\ no\ clear\ difference\ \(host/ct\ [0-9.]+x-[0-9.]+x,\ 5\ runs\ each\) ]] || run_failed
	# plan names where the cells run
	run "$LATLAB" plan c.ini -o plan
	[[ "$output" =~ [0-9]+-ct-none-timer-t1-aspread-1\ +ct\ +container ]] || run_failed
	[[ "$output" == *"5 in a container"* ]] || run_failed
	[[ "$output" == *"kernel variant ct: in podman, image $IMAGE"* ]] || run_failed
	# the containers' starts were kept for the estimate, as a guest's boots
	[[ "$output" == *"5 guest boots as measured here"* ]] || run_failed
}

@test "runner = container: no image, a podman that refuses, container_args elsewhere: each said, the host's cells kept" {
	ct_campaign
	# latlab never pulls: an image not in the store gives the variant up, said once
	sed -i 's|^image = .*|image = localhost/latlab:none|; s/^repeat = 1/repeat = 2/' c.ini
	run timeout 120 "$LATLAB" run c.ini -o out
	[ "$status" -eq 3 ] || run_failed
	[ "$(grep -c 'error: kernel variant ct: no image localhost/latlab:none in podman.s store: latlab never pulls one (make image builds' <<<"$output")" -eq 1 ] || run_failed
	[ "$(grep -Ec '^[0-9]+-host-.* = ok$' out/hc/state)" -eq 2 ]
	[ "$(grep -Ec '^[0-9]+-ct-.* = skipped$' out/hc/state)" -eq 2 ]
	# and plan says so before any run: exit 3 as run's
	run "$LATLAB" plan c.ini -o plan
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"kernel variant ct: no image localhost/latlab:none in podman's store"*"its cells would be skipped (exit 3)"* ]] || run_failed
	# podman refuses a flag: the container never starts, boot_attempts times
	ct_campaign
	printf '[kernel.ct]\ncontainer_args = --no-such-flag\n' | ini_merge c.ini
	run timeout 120 "$LATLAB" run c.ini -o out2
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"kernel variant ct did not run in a container after 2 containers: the container ended before latlab started in it (podman exit 125): Error: unknown flag: --no-such-flag"* ]] || run_failed
	# container_args on a host variant: the config's error, at its line
	ct_campaign
	printf '[kernel.host]\ncontainer_args = --cpuset-cpus 1\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ]
	[[ "$output" == *"c.ini:$(grep -n '^container_args' c.ini | cut -d: -f1): [kernel.host] container_args are podman's: they need runner = container"* ]] || run_failed
}

@test "runner = container: the container is not trusted: a file it names outside its cell is dropped, the cell an error, nothing written outside the tree" {
	# an image whose latlab is a script saying what it likes on the channel
	local root=$WORK/hroot
	mkdir -p "$root/bin" "$root/usr/bin"
	cp /bin/busybox "$root/bin/busybox"
	cat >"$root/usr/bin/latlab" <<'EOS'
#!/bin/busybox sh
cell=$(/bin/busybox head -n 1 /latlab/cells)
{
	printf 'LATLAB hello %s 6.0.0-hostile\n' "$(/bin/busybox hostname)"
	printf 'LATLAB start %s\n' "$cell"
	printf 'LATLAB file ../../../../../../../../../tmp/latlab-bats-pwned 5\nhello'
	printf 'LATLAB cell %s ok\n' "$cell"
	printf 'LATLAB done 0\n'
} >&3
EOS
	chmod 755 "$root/usr/bin/latlab"
	tar -C "$root" -cf "$WORK/h.tar" .
	podman import -q --change 'ENTRYPOINT ["/usr/bin/latlab"]' "$WORK/h.tar" localhost/latlab-hostile:1 >/dev/null
	ct_campaign
	sed -i 's|^image = .*|image = localhost/latlab-hostile:1|' c.ini
	rm -f /tmp/latlab-bats-pwned
	run timeout 120 "$LATLAB" run c.ini -o out
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"0001-ct-none-timer-t1-aspread-1: the guest said ok, but sent no files"* ]] || run_failed
	[ ! -e /tmp/latlab-bats-pwned ]
	grep -Eq '^0001-ct-.* = error$' out/hc/state
	[ -z "$(find "$WORK" -name latlab-bats-pwned)" ]
	podman rmi -f localhost/latlab-hostile:1 >/dev/null
}

@test "runner = container: SIGINT while a container measures stops it, the cell pending again, nothing of it left; the resume measures it" {
	ct_campaign
	sed -i 's/^kernel = host, ct/kernel = ct/; s/^duration = 1s/duration = 5s/' c.ini
	setsid "$LATLAB" run c.ini -o out >run.out 2>&1 &
	local pid=$! i
	# until the container's latlab has started its cell
	for i in $(seq 300); do grep -q ' = running$' out/hc/state 2>/dev/null && break; sleep 0.1; done
	grep -q ' = running$' out/hc/state || { cat run.out; false; }
	kill -INT $pid
	local rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 130 ] || { cat run.out; false; }
	grep -Eq '^0000-.* = (pending|interrupted)$' out/hc/state || { cat out/hc/state; false; }
	local parent
	parent=$(head -n 1 out/hc/vm/ct-1.console.log | sed -n 's/.* --name \(latlab-[0-9]*-[0-9]*\) .*/\1/p')
	[ -n "$parent" ]
	[ -z "$(podman ps -a -q)" ]
	! ls -d /sys/fs/cgroup/*/"$parent" /sys/fs/cgroup/"$parent" 2>/dev/null
	# the same command resumes it: measured in a new container
	run timeout 120 "$LATLAB" run c.ini -o out
	[ "$status" -eq 0 ] || run_failed
	grep -Eq '^0000-.* = ok$' out/hc/state
}

@test "runner = container, load_in = host: each cell's load runs on this machine outside its container, a container a cell; a load that fails there makes the cell an error" {
	ct_campaign 2
	sed -i 's/^load = none/load = none, hb/' c.ini
	printf '[kernel.ct]\nload_in = host\n\n[load.hb]\ntype = hackbench\n' | ini_merge c.ini
	run "$LATLAB" plan c.ini -o plan
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"kernel variant ct: in podman, image $IMAGE"*"; its cells' loads on this machine, outside the container (load_in = host): a container a cell"* ]] || run_failed
	run timeout "$(paced 300)" "$LATLAB" run c.ini -o out
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c ' = ok$' out/hc/state)" -eq 8 ]
	# a container a cell: four, each of one cell; the loaded ones say their load
	[ "$(grep -c "kernel variant ct: starting $IMAGE in podman (this machine's kernel.*) for 1 cells of round [12] of 2" <<<"$output")" -eq 4 ] || run_failed
	[ "$(grep -c "kernel variant ct: starting .*, load hb on the host outside it) for 1 cells" <<<"$output")" -eq 2 ] || run_failed
	local d log n=0
	for d in out/hc/*-ct/*/*-ct-hb-*; do
		n=$((n + 1))
		grep -qx 'load = hb' "$d/cell.ini"
		grep -q '^load_in = host (outside the container' "$d/cell.ini"
		grep -q 'load hb runs on the host, outside this container (load_in = host): not started here' "$d/log.txt"
	done
	[ "$n" -eq 2 ]
	# the host's cells of hb ran it themselves: no load_in line
	for d in out/hc/*/*/*-host-hb-*; do
		! grep -q '^load_in' "$d/cell.ini"
	done
	# the load's own lines, after the container's, in its log
	n=0
	for log in out/hc/vm/ct-*.console.log; do
		grep -q '^# the load on the host, outside the container (load_in = host):' "$log" || continue
		n=$((n + 1))
		grep -q 'load hb: .*latload hackbench ready and started' "$log"
	done
	[ "$n" -eq 2 ]
	[ -z "$(podman ps -a -q)" ]
	# a load that fails on the host (a program that exits 1 at once, each
	# restart too): the container's cell is an error, said as a cell's own
	# load's failure is
	sed -i 's/^load = none, hb/load = bad/; s/^kernel = host, ct/kernel = ct/; s/^repeat = 2/repeat = 1/' c.ini
	printf '[load.bad]\ntype = external\ncommand = false\n' | ini_merge c.ini
	run timeout "$(paced 120)" "$LATLAB" run c.ini -o out2
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"0000-bad-"*": load bad on the host, outside the container: "* ]] || run_failed
	grep -Eq "^0000-bad-.* = error$" out2/hc/state
	grep -q 'load bad on the host, outside the container' out2/hc/cells.csv
}

@test "runner = container: a budget the kernel gives back a moment after the last container's parent is removed is waited for, not refused" {
	[ -n "$(rt_group_sched)" ] || skip "no RT_GROUP_SCHED: no budget to give"
	# 100 ms, then 950 ms: the root's whole budget, free only once the
	# first parent's is given back (RCU, after its rmdir: 20-30 ms here)
	ct_campaign
	sed -i 's/^kernel = host, ct/kernel = ct, big/' c.ini
	printf '[kernel.big]\nrunner = container\nimage = %s\nrt_runtime = 950ms\n' "$IMAGE" | ini_merge c.ini
	run timeout "$(paced 120)" "$LATLAB" run c.ini -o out
	[ "$status" -eq 0 ] || run_failed
	[ "$(grep -c ' = ok$' out/hc/state)" -eq 2 ]
	grep -qx 'cpu_rt_runtime_us = 950000' out/hc/*-ct/*/*-big-*/sysinfo.ini
}

@test "runner = container, load_in = host: a load that cannot start on the host makes each such cell an error, said, and no container is started for it" {
	ct_campaign 2
	sed -i 's/^kernel = host, ct/kernel = ct/' c.ini
	printf '[kernel.ct]\nload_in = host\n\n[load.hb]\ntype = hackbench\n' | ini_merge c.ini
	sed -i 's/^load = none/load = hb/' c.ini
	# a latlab with no latload beside it or on PATH: the host cannot start the load
	mkdir bin
	cp "$LATLAB" bin/latlab
	run timeout "$(paced 120)" env PATH=/usr/sbin:/usr/bin:/sbin:/bin bin/latlab run c.ini -o out
	[ "$status" -eq 3 ] || run_failed
	[[ "$output" == *"0000-hb-"*": load hb on the host, outside the container (load_in = host): latload not found beside latlab or on PATH"* ]] || run_failed
	[ "$(grep -c ' = error$' out/hc/state)" -eq 2 ]
	# no container was started for a cell whose load could not run
	[ ! -e out/hc/vm/ct-1.console.log ]
	grep -q 'load hb on the host, outside the container (load_in = host): latload not found' out/hc/cells.csv
}
