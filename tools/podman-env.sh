# tools/podman-env.sh (sourced): podman_env DIR — podman's settings of a
# store of its own under DIR, exported for every podman call after it
# (tests/cli/container.bats, bench/container.sh; docs/containers.md):
# - vfs storage, runroot and tmp_dir under DIR, no event log: the
#   machine's containers and images are never seen or touched;
# - no network (netns = "none"): no bridge, no firewall rule on the host;
# - runc: Debian 12's crun refuses a hybrid cgroup tree ("cgroups in
#   hybrid mode not supported"), which this project's VM has;
# - open files and processes within the caller's hard limits: podman's
#   defaults are above them where the caller lacks CAP_SYS_RESOURCE, and
#   the runtime's setrlimit fails.
podman_env() {
	local d=$1 hn
	hn=$(ulimit -Hn)
	[ "$hn" = unlimited ] && hn=1048576
	export CONTAINERS_STORAGE_CONF=$d/storage.conf CONTAINERS_CONF=$d/containers.conf
	[ -e "$d/containers.conf" ] && return 0
	mkdir -p "$d" || return 1
	printf '[storage]\ndriver = "vfs"\ngraphroot = "%s/storage"\nrunroot = "%s/run"\n' \
		"$d" "$d" >"$d/storage.conf"
	printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=4096:4096"]\nnetns = "none"\n[engine]\nruntime = "runc"\ntmp_dir = "%s/tmp"\nevents_logger = "none"\n' \
		"$hn" "$hn" "$d" >"$d/containers.conf"
}

# podman_rt_parent NAME: where this kernel has RT_GROUP_SCHED, a parent
# cgroup /NAME of the v1 cpu hierarchy with a real-time budget of 200 ms
# a second, for `podman run --cgroup-parent /NAME --cpu-rt-runtime 100000`;
# prints its folder ("" where the kernel has no RT_GROUP_SCHED).
podman_rt_parent() {
	local d
	for d in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		[ -e "$d/cpu.rt_runtime_us" ] || continue
		mkdir -p "$d/$1" && echo 200000 >"$d/$1/cpu.rt_runtime_us" && echo "$d/$1"
		return
	done
}

# podman_parent_remove NAME: a parent cgroup, as podman made it in every
# hierarchy (with its conmon's child, and a pod's, which kube play --down
# leaves in name=systemd's), removed once nothing runs there: rmdir
# removes only an empty cgroup. 0, or 1 when some is left after 5 s.
podman_parent_remove() {
	local d i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for d in /sys/fs/cgroup/*/"$1" /sys/fs/cgroup/"$1"; do
			[ -d "$d" ] || continue
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
		done
		ls -d /sys/fs/cgroup/*/"$1" /sys/fs/cgroup/"$1" >/dev/null 2>&1 || return 0
		sleep 0.5
	done
	return 1
}

# podman_default_parent_before / podman_default_parent_after WAS: podman
# (cgroupfs) makes /libpod_parent, with a conmon child, in every
# hierarchy the first time a container runs outside a --cgroup-parent,
# and leaves it: an empty cpuset of every CPU, beside which no exclusive
# cpuset can be made (isolation = cpuset then fails "another cpuset
# holds it"). _before prints 1 when it is there already (someone's:
# kept), _after removes it when it was not.
podman_default_parent_before() {
	[ -d /sys/fs/cgroup/cpuset/libpod_parent ] || [ -d /sys/fs/cgroup/libpod_parent ] && echo 1
	return 0
}
podman_default_parent_after() {
	[ -n "$1" ] || podman_parent_remove libpod_parent
}
