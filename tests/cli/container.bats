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
	static=$(dirname "$LATLAB")/static
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
	static=$(dirname "$LATLAB")/static
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
