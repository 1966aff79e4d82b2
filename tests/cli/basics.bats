#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# The command line: help, version, list, sysinfo, plan.

load helper

@test "--version prints the version, the git commit it was built from, and the build's features" {
	run "$LATLAB" --version
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^latlab\ [0-9]+\.[0-9]+\.[0-9]+(\ \(git\ [0-9a-f]+\+?\))?$ ]] || run_failed
	[[ "${lines[1]}" =~ ^features:\ numa,\ tracecmd\ \(.*\),\ plugins(\ \(not\ in\ a\ static\ build\))?,\ (bpf\ \(watch\ and\ spike\ captures\ through\ BPF:\ its\ programs\ built\ in\)|no\ bpf\ \(.*\)),\ (dynamic|static)$ ]] || run_failed
	# make deps brings what BPF needs: a build on a kernel with BTF has it
	if [ -r /sys/kernel/btf/vmlinux ] && command -v clang >/dev/null && command -v bpftool >/dev/null; then
		[[ "${lines[1]}" == *", bpf (watch and spike captures through BPF"* ]] || run_failed
	fi
	# from a git tree, a commit of it (the one built from; HEAD when built after the last commit)
	if git -C "$BATS_TEST_DIRNAME" rev-parse HEAD >/dev/null 2>&1; then
		sha=$(sed -n 's/.*(git \([0-9a-f]*\)+\{0,1\})$/\1/p' <<<"${lines[0]}")
		[ -n "$sha" ] && git -C "$BATS_TEST_DIRNAME" cat-file -e "$sha^{commit}" || run_failed
	fi
	run "$(dirname "$LATLAB")/latload" --version
	[ "$status" -eq 0 ] && [[ "$output" =~ ^latload\ [0-9]+\.[0-9]+\.[0-9]+ ]] || run_failed
}

@test "no command and unknown commands are usage errors (exit 2)" {
	run "$LATLAB"
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: latlab COMMAND"* ]]
	run "$LATLAB" frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'frobnicate'"* ]]
}

@test "help lists the commands, help run lists its options" {
	run "$LATLAB" help
	[ "$status" -eq 0 ]
	for c in run plan list sysinfo help; do
		[[ "$output" == *"  $c "* ]]
	done
	run "$LATLAB" help run
	[ "$status" -eq 0 ]
	[[ "$output" == *"--allow-non-rt"* ]]
	[[ "$output" == *"--set"* ]]
	run "$LATLAB" help nosuch
	[ "$status" -eq 2 ]
}

@test "run without a config, or with two, is a usage error" {
	run "$LATLAB" run
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: latlab run CONFIG"* ]]
	run "$LATLAB" run a.ini b.ini
	[ "$status" -eq 2 ]
	run "$LATLAB" plan c.ini -o x
	[ "$status" -eq 2 ]
}

@test "list shows axes, options with types and defaults, workloads and loads" {
	run "$LATLAB" list
	[ "$status" -eq 0 ]
	[[ "$output" == *"[matrix]"* ]]
	[[ "$output" =~ threads\ +integer\ list\ +default\ 1 ]]
	[[ "$output" =~ interval\ +duration\ list\ +default\ 1ms ]]
	[[ "$output" =~ duration\ +duration\ +default\ 60s ]]
	[[ "$output" == *"p99.99"* ]]
	[[ "$output" =~ timer\ +no\ I/O ]]
	[[ "$output" =~ fail_every\ +integer ]]
	[[ "$output" =~ none\ +no\ load ]]
}

@test "sysinfo reports the kernel, CPUs, RT throttling and warnings" {
	mounts=$(grep -c ' debugfs ' /proc/self/mounts || true)
	run "$LATLAB" sysinfo
	[ "$status" -eq 0 ]
	[[ "$output" == *"[kernel]"* ]]
	[[ "$output" == *"release = $(uname -r)"* ]]
	[[ "$output" == *"preempt = "* ]]
	[[ "$output" == *"preempt_from = "* ]]
	# a kernel whose config can be read has a model: never "unknown"
	# (this VM's 6.18: debugfs refuses its sched/ files, /proc/config.gz
	# says PREEMPT_NONE)
	if [ -e /proc/config.gz ] || [ -e "/boot/config-$(uname -r)" ]; then
		! grep -q '^preempt = unknown' <<<"$output" || { grep preempt <<<"$output"; false; }
	fi
	# debugfs read in a mount namespace of latlab's own: nothing left mounted
	[ "$(grep -c ' debugfs ' /proc/self/mounts || true)" = "$mounts" ]
	[[ "$output" == *"rt_runtime_us = $(cat /proc/sys/kernel/sched_rt_runtime_us)"* ]]
	[[ "$output" == *"fair_server = "* ]]
	[[ "$output" == *"runs_long = "* ]]
	[[ "$output" == *"count = $(nproc)"* ]]
	[[ "$output" == *"numa_nodes = "* ]]
	[[ "$output" == *"[warnings]"* ]]
	if [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" != -1 ]; then
		[[ "$output" == *"RT throttling is on"* ]]
	fi
}

@test "plan prints every cell and an estimate, and writes nothing" {
	write_config p.ini <<EOC
[campaign]
name = p
duration = 10s
output = $WORK/out
[matrix]
kernel = running, rt
workload = timer, null
threads = 1, all
EOC
	run "$LATLAB" plan p.ini
	[ "$status" -eq 0 ]
	[[ "$output" == *"0000-running-none-timer-t1-aspread-1"* ]]
	[[ "$output" == *"0007-rt-none-null-tall-aspread-1"* ]]
	[[ "$output" == *"8 cells: "* ]]
	[[ "$output" == *"estimated wall time:"* ]]
	[ ! -e "$WORK/out" ]
	# this machine is not PREEMPT_RT (CI's is not either)
	if ! grep -q PREEMPT_RT /proc/version; then
		[[ "$output" == *"4 run on this kernel"* ]]
		[[ "$output" =~ 0004-rt-none-timer-t1-aspread-1\ +rt\ +pending ]]
		[[ "$output" == *"estimated wall time: 41.2s"* ]]
	fi
}

@test "plan --set and --duration change the plan" {
	quick_config
	run "$LATLAB" plan c.ini --set matrix.priority=80,90 --duration 2m
	[ "$status" -eq 0 ]
	[[ "$output" == *"0001-none-timer-t1-aspread-p90-1"* ]]
	[[ "$output" == *"(2m per cell)"* ]]
}

@test "--jobs: run and plan take 1 to 64 guests side by side; anything else is exit 2, nothing written" {
	quick_config
	for bad in 0 65 -1 two 2x ""; do
		run "$LATLAB" run c.ini --jobs "$bad"
		[ "$status" -eq 2 ] && [[ "$output" == *"--jobs: '$bad' is not a number of guests side by side (1 to 64)"* ]] || run_failed
		run "$LATLAB" plan c.ini --jobs "$bad"
		[ "$status" -eq 2 ] || run_failed
	done
	[ ! -e "$WORK/out" ]
	run "$LATLAB" plan c.ini --jobs 64
	[ "$status" -eq 0 ] || run_failed
}

# the estimate counts boots and what they took here (boots.txt in
# latlab's cache, keyed by the image's content: FNV-1a of its bytes with
# its size folded in), and the guests side by side
@test "plan: a guest's boots and cells as measured here, laid out on --jobs lanes" {
	printf 'x' >img
	h=$(( (0xcbf29ce484222325 ^ 120) * 0x100000001b3 ^ 1 ))
	key=$(printf '%016x' "$h")
	write_config c.ini <<EOC
[campaign]
name = p
duration = 1s
repeat = 2
output = $WORK/out
[matrix]
kernel = a, b
load = none
workload = timer
[kernel.a]
runner = qemu
image = $WORK/img
clock = icount
[kernel.b]
runner = qemu
image = $WORK/img
clock = icount
EOC
	run "$LATLAB" plan c.ini --jobs 2
	[ "$status" -eq 0 ] || run_failed
	# nothing measured: 6 s a boot, an idle cell on the instruction clock
	# 0.3x its duration and 0.3 s; an instruction-clock variant boots once
	# for both rounds, the two variants side by side
	[[ "$output" == *"estimated wall time: 7.2s (1s per cell; 2 guest boots, not measured here yet: 6s each, 4 guest cells not measured here yet: on the instruction clock an idle one 0.3x its duration and a loaded one 8x (as on this project's VM), on the host's its duration; up to 2 instruction-clock guests side by side)"* ]] || run_failed
	# a loaded one 8x: 6 + 2 x (8 + 0.3)
	run "$LATLAB" plan c.ini --jobs 2 --set matrix.load=hackbench --set load.hackbench.type=hackbench
	[[ "$output" == *"estimated wall time: 22.6s"* ]] || run_failed
	[[ "$output" == *"instruction-clock guests boot once for several rounds"* ]] || run_failed
	mkdir -p cache/latlab
	for up in 4000000000 5000000000 9000000000; do
		echo "boot $key icount 1 $up 100000000"
		echo "cell $key icount 1 none 1000000000 500000000"
		echo "cell $key icount 1 hackbench 1000000000 8000000000"
	done >cache/latlab/boots.txt
	echo "boot 0000000000000001 icount 1 60000000000 0" >>cache/latlab/boots.txt
	# a boot 5.1 s (the median of three), an idle cell 0.5 s: a variant's
	# boot 6.1 s, the two on two lanes
	run "$LATLAB" plan c.ini --jobs 2
	[[ "$output" == *"estimated wall time: 6.1s (1s per cell; 2 guest boots as measured here; up to 2 instruction-clock guests side by side)"* ]] || run_failed
	run "$LATLAB" plan c.ini --jobs 1
	[[ "$output" == *"estimated wall time: 12.2s (1s per cell; 2 guest boots as measured here)"* ]] || run_failed
	# one variant and two jobs: two boots of a round each
	run "$LATLAB" plan c.ini --jobs 2 --set matrix.kernel=a
	[[ "$output" == *"estimated wall time: 5.6s (1s per cell; 2 guest boots as measured here; up to 2"* ]] || run_failed
	# boots = round: a boot each round, so four for the two variants
	run "$LATLAB" plan c.ini --jobs 2 --set kernel.a.boots=round --set kernel.b.boots=round
	[[ "$output" == *"4 guest boots as measured here; up to 2"* ]] || run_failed
	run "$LATLAB" plan c.ini --set kernel.a.boots=each
	[ "$status" -eq 2 ] && [[ "$output" == *"boots"*"shared|round"* ]] || run_failed
	# another load: its own cost (8 s a second of hackbench)
	run "$LATLAB" plan c.ini --jobs 2 --set matrix.load=hackbench --set load.hackbench.type=hackbench
	[[ "$output" == *"estimated wall time: 21.1s"* ]] || run_failed
	# a damaged line is no measurement
	echo "boot $key icount 1 nonsense" >>cache/latlab/boots.txt
	run "$LATLAB" plan c.ini --jobs 2
	[[ "$output" == *"estimated wall time: 6.1s"* ]] || run_failed
	# another image, never booted here: this machine's boots and cells of
	# the others booted the same way (the median of 4.1, 5.1, 9.1 and 60 s)
	printf 'y' >img2
	run "$LATLAB" plan c.ini --jobs 2 --set kernel.a.image="$WORK/img2" --set kernel.b.image="$WORK/img2"
	[[ "$output" == *"estimated wall time: 8.1s (1s per cell; 2 guest boots, 2 as this machine's boots of other images, 4 guest cells as other images' cells under their load here; up to 2 instruction-clock guests side by side)"* ]] || run_failed
	# one of each: measured, and like the others
	run "$LATLAB" plan c.ini --jobs 2 --set kernel.b.image="$WORK/img2"
	[[ "$output" == *"(1s per cell; 2 guest boots, 1 as measured here, 1 as this machine's boots of other images, 2 guest cells as other images' cells under their load here;"* ]] || run_failed
	# by default a job per CPU (512 MiB guests fit here); guests of 60 %
	# of MemAvailable each (a quarter more for qemu): one at a time
	[ "$(nproc)" -lt 2 ] || {
		run "$LATLAB" plan c.ini
		[[ "$output" == *"up to $(nproc) instruction-clock guests side by side"* ]] || run_failed
	}
	big=$(awk '/^MemAvailable:/ { print int($2 / 1024 * 0.6) }' /proc/meminfo)
	run "$LATLAB" plan c.ini --set kernel.a.memory="${big}M" --set kernel.b.memory="${big}M"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"estimated wall time: 12.2s (1s per cell; 2 guest boots as measured here)"* ]] || run_failed
	# booted another way (the host's clock, 2 CPUs: a boot a round):
	# nothing measured; a alone on the instruction clock boots once a round
	run "$LATLAB" plan c.ini --jobs 2 --set kernel.b.image="$WORK/img2" --set kernel.b.clock=host --set kernel.b.cpus=2
	[[ "$output" == *"4 guest boots, 2 as measured here, 2 not measured here yet: 6s each, 2 guest cells not measured here yet: on the instruction clock an idle one 0.3x its duration"* ]] || run_failed
	# a load measured nowhere here: as the loads that were (hackbench: 8 s a second)
	run "$LATLAB" plan c.ini --jobs 2 --set matrix.load=cpu --set load.cpu.type=cpu
	[[ "$output" == *"estimated wall time: 21.1s (1s per cell; 2 guest boots as measured here, 4 guest cells under a load not measured here: as the other loads (or idle cells) of guests booted the same way measured here;"* ]] || run_failed
}

@test "make install puts the binary, configs and man page under DESTDIR/PREFIX" {
	repo=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	run make -s -C "$repo" install DESTDIR="$WORK/root" PREFIX=/opt/ll
	[ "$status" -eq 0 ]
	[ -x "$WORK/root/opt/ll/bin/latlab" ]
	[ -s "$WORK/root/opt/ll/share/latlab/configs/quick.ini" ]
	[ -s "$WORK/root/opt/ll/share/man/man1/latlab.1" ]
	[ -x "$WORK/root/opt/ll/bin/latload" ]
	[ -s "$WORK/root/opt/ll/share/latlab/plots/hist.gp" ]
	grep -q '^ExecStart=/opt/ll/bin/latlab run ${LATLAB_CONFIG} -o ${LATLAB_OUTPUT} --reboot$' \
		"$WORK/root/lib/systemd/system/latlab-resume.service"
	# a campaign whose cells fail their thresholds (exit 1) is not a failed unit
	grep -q '^SuccessExitStatus=1$' "$WORK/root/lib/systemd/system/latlab-resume.service"
	run "$WORK/root/opt/ll/bin/latlab" --version
	[ "$status" -eq 0 ]
}

@test "every config section's key and every workload type in latlab list is in the man page and docs/guide.md" {
	run "$LATLAB" list
	[ "$status" -eq 0 ]
	# every section a config has ([campaign] ... [load.NAME]), not a type's own
	keys=$(awk '/^\[(campaign|matrix|thresholds|trace|kernel\.NAME|load\.NAME)/ { on = 1; next }
		/^\[/ || /^$/ { on = 0 } on { print $1 }' <<<"$output")
	# a type is the first line after a blank one; its options follow under [workload type T]
	types=$(awk '/^Workloads/ { on = 1; next } /^Loads/ { on = 0 }
		on && blank && /^  [a-z]/ { print $1 } { blank = /^$/ }' <<<"$output")
	[ "$(wc -w <<<"$keys")" -ge 20 ] && [ "$(wc -w <<<"$types")" -ge 10 ] || { echo "$output"; false; }
	missing=
	for k in $keys $types; do
		grep -q -- "$(sed 's/-/\\\\-\\|-/g' <<<"$k")" "$BATS_TEST_DIRNAME/../../docs/latlab.1" || missing="$missing man:$k"
		grep -q -- "$k" "$BATS_TEST_DIRNAME/../../docs/guide.md" || missing="$missing guide:$k"
	done
	[ -z "$missing" ] || { echo "not documented:$missing"; false; }
}

@test "every option table of the config is a section latlab list shows (config_sections)" {
	src="$BATS_TEST_DIRNAME/../../harness/config/config_options.c"
	tables=$(sed -n 's/^const struct opt \([a-z_]*\)\[\] = {$/\1/p' "$src")
	listed=$(sed -n '/^const struct config_section config_sections\[\]/,/^};/p' "$src")
	[ "$(wc -w <<<"$tables")" -ge 8 ] || { echo "tables: $tables"; false; }
	for t in $tables; do
		grep -q "[{ ]$t }" <<<"$listed" || { echo "$t is in no section of config_sections: latlab list, reference.md and the man page cannot show its keys"; false; }
	done
	# and its keys with it: [thresholds] missed, once forgotten
	run "$LATLAB" list
	[[ "$output" == *"  missed     string"* ]] || { echo "$output"; false; }
}

@test "every example config in configs/ is accepted by latlab plan" {
	# from the checkout, where their kernels/ paths are. A config is
	# read whole (its plan printed); one for a bigger machine (numa.ini)
	# or whose images are not fetched here (kernels/trixie: make
	# demo-kernels) is refused as run would refuse it, saying why
	cd "$BATS_TEST_DIRNAME/../.."
	for c in configs/*.ini; do
		run "$LATLAB" plan "$c"
		[ "$status" -eq 0 ] && continue
		[ "$status" -eq 2 ] && [[ "$output" == *"estimated wall time"* ]] &&
			[[ "$output" == *"latlab run refuses this config here (exit 2)"* ]] ||
			{ echo "$c: $output"; false; }
		missing=$(grep -o 'image = [^:]*: No such file or directory (make kernels' <<<"$output" |
			awk '{ print $3 }' | sort -u)
		for m in $missing; do
			[ ! -e "$m" ] || { echo "$c: $m is here: $output"; false; }
		done
	done
}

@test "the man page lists every command and every option latlab help shows" {
	MAN="$BATS_TEST_DIRNAME/../../docs/latlab.1"
	run "$LATLAB" help
	cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<<"$output")
	[ -n "$cmds" ]
	for c in $cmds; do
		grep -q "^\.B latlab $c\b" "$MAN" || { echo "no synopsis of $c"; false; }
		usage=$("$LATLAB" help "$c" 2>&1 | sed -n 's/^usage: //p')
		for o in $(grep -oE -- '--[a-z][a-z-]*' <<<"$usage"); do
			esc=$(sed 's/-/\\\\-/g' <<<"$o")
			grep -q -- "$esc" "$MAN" || { echo "$c: $o is not in the man page"; false; }
		done
	done
	for s in '.BR rtla (1)' '.BR stress\-ng (1)' '.BR rteval (8)'; do
		grep -qxF "$s," "$MAN" || grep -qxF "$s" "$MAN" || { echo "SEE ALSO lacks $s"; false; }
	done
}

@test "docs/reference.md is what latlab list --markdown prints, below its marker (make reference)" {
	R="$BATS_TEST_DIRNAME/../../docs/reference.md"
	run "$LATLAB" list --markdown
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == "## Commands"* ]] && [[ "$output" == *'| `repeat` | integer | `1` |'* ]] || run_failed
	# every key of every section is a row
	[[ "$output" == *'### [workload type chain]'* && "$output" == *'| `steps` |'* ]] || run_failed
	sed '1,/^<!-- generated by make reference (latlab list --markdown): do not edit below -->$/d' "$R" >ref
	diff ref <(printf '%s\n' "$output") || { echo "docs/reference.md is stale: make reference"; false; }
	run "$LATLAB" list --bogus
	[ "$status" -eq 2 ]
}

@test "each command's synopsis names exactly the options of its table (latlab help COMMAND lists the rows)" {
	run "$LATLAB" help
	cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<<"$output")
	[ -n "$cmds" ]
	for c in $cmds; do
		run "$LATLAB" help "$c"
		[ "$status" -eq 0 ] || run_failed
		usage=$(sed -n 's/^usage: //p' <<<"$output")
		rows=$(grep -E -- '^  (-[a-z], |    )--[a-z]' <<<"$output" || true)
		[ "$c" != list ] || rows='      --markdown'	# list has no table: its one switch
		# each row in the synopsis, by its long name or its letter
		while read -r row; do
			[ -n "$row" ] || continue
			long=$(grep -oE -- '--[a-z][a-z-]*' <<<"$row" | head -1)
			letter=$(grep -oE -- '^-[a-z],' <<<"$row" | tr -d ,)
			grep -qE -- "(^| |\\[)$long( |\\]|$)" <<<"$usage" ||
				{ [ -n "$letter" ] && grep -qE -- "(^| |\\[)$letter( |\\]|$)" <<<"$usage"; } ||
				{ echo "$c: $long is a row, not in the synopsis: $usage"; false; }
		done <<<"$rows"
		# each option of the synopsis a row
		for o in $(grep -oE -- '--[a-z][a-z-]*' <<<"$usage"); do
			grep -qE -- "$o( |$)" <<<"$rows" || { echo "$c: $o in the synopsis, no row"; false; }
		done
	done
	# every command takes --help, and a row it does not have is refused
	run "$LATLAB" report --help
	[ "$status" -eq 0 ] && [[ "$output" == "usage: latlab report DIR"* ]] || run_failed
	run "$LATLAB" plan -q c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"usage: latlab plan CONFIG"* ]] || run_failed
}
