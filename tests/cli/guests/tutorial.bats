#!/usr/bin/env bats
# lane: guests-icount (tests/run.sh: where this file runs, and beside what)
# docs/tutorial.md, run: its commands on its config (configs/tutorial.ini)
# give output of the shape the tutorial pastes — the plan, the run, the
# verdicts, the report, a plugin in place of the sensor, the board's
# plan. The run is the tutorial's loop on both kernels under the net
# load and none, 5 runs of 1 s a cell, the rounds of a kernel sharing its
# boot (two boots, not ten: the tutorial's 4 min would double this lane),
# and the verdict lines are held to the same patterns as the tutorial's
# own pasted lines (what the shared boots add to a line, said after a
# semicolon, is allowed).

load ../helper

ROOT=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
TUT=$ROOT/docs/tutorial.md

# the tutorial's config, its kernels from $KERNELS
tutorial_config() {
	sed "s|kernels/|$KERNELS/|" "$ROOT/configs/tutorial.ini" >t.ini
}

# pasted BLOCK-START: the lines of the tutorial's code block that follow
# the line BLOCK-START, up to the block's end
pasted() {
	awk -v start="$1" '$0 == start { on = 1; next } on && /^```/ { exit } on' "$TUT"
}

# a verdict line of compare's, as the tutorial pastes them
VERDICT='^(none|hackbench|net), loop, threads 1, affinity spread, 1000 µs, priority 90, size 4096, fifo, dma_latency 0: (response|wake-up)( \(response cannot be judged here: [a-z+-]+\))?: (no clear difference \((stock/rt|rt/stock) [0-9.]+x-[0-9.]+x, 5 runs each\)|no practical difference: within 10 %, the instruction clock.s margin \((stock/rt|rt/stock) [0-9.]+x-[0-9.]+x, 5 runs each\)|(stock|rt) lower worst case: [0-9.]+x \[[0-9.]+x, [0-9.]+x\], 5 runs each)(; .*)?$'

@test "tutorial: plan, run, compare and report of configs/tutorial.ini give what docs/tutorial.md shows" {
	vm_setup
	tutorial_config
	# step 3: the plan, as pasted
	run "$LATLAB" plan t.ini -o "$WORK/out"
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"0000-stock-none-loop-t1-aspread-1            stock    qemu"* ]] || run_failed
	[[ "$output" == *"30 cells: 0 run on this kernel ("*"), 30 in qemu, 0 pending"* ]] || run_failed
	[[ "$output" =~ estimated\ wall\ time:\ [0-9]+m\ [0-9]+s\ \(2s\ per\ cell\;\ 10\ guest\ boots ]] || run_failed
	pasted '$ build/latlab plan configs/tutorial.ini' | grep -q '^30 cells: 0 run on this kernel (.*), 30 in qemu, 0 pending$'
	# step 4: the run (two loads, shared boots, 1 s cells)
	run timeout "$(paced 600)" "$LATLAB" run t.ini -o "$WORK/out" --set matrix.load=none,net \
		--set kernel.stock.boots=shared --set kernel.rt.boots=shared --duration 1s
	[ "$status" -eq 0 ] || run_failed
	[[ "$output" == *"latlab: guest stock: [1/"*"] 0000-stock-none-loop-t1-aspread-1: ok, response max "*" us, wakeup max "*" us"* ]] || run_failed
	[[ "$output" =~ 0005-stock-net-loop-t1-aspread-1\ +ok\ +[0-9]+ ]] || run_failed
	# step 5: every verdict line of the shape the tutorial pastes, and
	# the tutorial's own lines of that shape too
	run "$LATLAB" compare "$WORK/out/tutorial"
	[ "$status" -eq 0 ] || run_failed
	grep -E '^(none|net), ' <<<"$output" >lines
	[ "$(wc -l <lines)" -eq 2 ] || run_failed
	while read -r l; do [[ "$l" =~ $VERDICT ]] || { echo "not the tutorial's shape: $l"; false; }; done <lines
	# the flood's direction, as the tutorial says it: on the maxima, or on
	# a busy host on the tail, and on the wake-up where the loop missed
	# periods (the flood's packets and the disk's completions reach the
	# guest at the host's pace; docs/campaigns.md, "What reaches the
	# instruction clock")
	grep -Eq '^net, .*: (response|wake-up \(response cannot be judged here: [a-z+-]+\)): (rt lower worst case: |no clear difference .*; its tail [^:]*: rt lower, )' lines || run_failed
	[[ "$output" == *"$WORK/out/tutorial/compare/index.html: 2 rows compared across 2 kernel variants and hosts (1 trees)"* ]] || run_failed
	pasted '$ build/latlab compare results/tutorial' | grep -E '^(none|hackbench|net), ' >doc
	[ "$(wc -l <doc)" -eq 3 ]
	while read -r l; do [[ "$l" =~ $VERDICT ]] || { echo "the tutorial's line is not compare's shape: $l"; false; }; done <doc
	run "$LATLAB" compare "$WORK/out/tutorial" --metric wakeup
	[ "$status" -eq 0 ] && [[ "$output" == *"net, loop, "*": wake-up: rt lower worst case: "* ]] || run_failed
	# step 6: the report
	run "$LATLAB" report "$WORK/out/tutorial"
	[ "$status" -eq 0 ] && [ "${lines[-1]}" = "$WORK/out/tutorial/report/index.html" ] || run_failed
}

@test "tutorial: a plugin in place of the sensor, and the board's plan (steps 7 and 8)" {
	vm_setup
	tutorial_config
	# step 7: the minimal plugin, built as the tutorial says, named from /
	cc -I"$ROOT/include" -fPIC -shared -o "$WORK/my-step.so" "$ROOT/examples/plugins/minimal.c"
	sed -e "s|^type = sysfs-read|type = plugin|" -e "s|^path = /sys/kernel/uevent_seqnum|path = $WORK/my-step.so|" t.ini >my.ini
	grep -q "^path = $WORK/my-step.so" my.ini
	run "$LATLAB" plan my.ini -o "$WORK/out"
	[ "$status" -eq 0 ] || run_failed
	# not from /: refused at its line, as run would
	sed -i "s|^path = $WORK/my-step.so|path = my-step.so|" my.ini
	run "$LATLAB" plan my.ini -o "$WORK/out"
	[ "$status" -eq 2 ] || run_failed
	# step 8: the same loop on the host, a reboot for each kernel
	sed -e '/^\[kernel.stock\]/,$d' -e 's/^load     = none, hackbench, net/load     = none, hackbench/' \
		"$ROOT/configs/tutorial.ini" >board.ini
	printf '[kernel.stock]\nmatch  = !preempt:rt\nreboot = /usr/local/sbin/boot-stock\n[kernel.rt]\nmatch  = preempt:rt\nreboot = /usr/local/sbin/boot-rt\n' >>board.ini
	run "$LATLAB" plan board.ini -o "$WORK/out"
	[ "$status" -eq 0 ] || run_failed
	here=$(uname -r)
	if grep -q 'preempt = rt' <("$LATLAB" sysinfo); then on=rt; off=stock; else on=stock; off=rt; fi
	[[ "$output" == *"20 cells: 10 run on this kernel ($here, "*"), 0 in qemu, 10 pending"* ]] || run_failed
	[[ "$output" =~ -$off-hackbench-loop-t1-aspread-5\ +$off\ +pending\ \(other\ kernel\) ]] || run_failed
	[[ "$output" =~ -$on-none-loop-t1-aspread-1\ +$on\ +here ]] || run_failed
	pasted '$ latlab plan board.ini' | grep -q '^20 cells: 10 run on this kernel (.*), 0 in qemu, 10 pending$'
}

# the culprits' line under a verdict: "  why: stock: of its N worst
# captures (of M), K KIND: NAME, ...; rt: ..." — the stock side's N, then
# each of its culprits as "K KIND: NAME", a line each
why_stock() {
	awk -v row="$1" '
		index($0, row ", timer,") == 1 { on = 1; next }
		on && /^  why: / {
			s = $0; sub(/^  why: stock: of its /, "", s); sub(/;.*/, "", s)
			split(s, w, " "); print w[1]
			sub(/^[^)]*\), /, "", s)
			n = split(s, c, ", "); for (i = 1; i <= n; i++) print c[i]
			exit }' <<<"$2"
}

@test "configs/why.ini: under each verdict, what made each side late in the runs it judged (docs/spikes.md)" {
	vm_setup
	"$LATLAB" --version | grep -q ', bpf (' || skip "this latlab has no BPF"
	sed "s|kernels/|$KERNELS/|" "$ROOT/configs/why.ini" >w.ini
	run timeout 600 "$LATLAB" run w.ini -q --set campaign.duration=2s --set campaign.output="$WORK/out"
	[ "$status" -eq 0 ] || run_failed
	run "$LATLAB" compare "$WORK/out/why" -o "$WORK/cmp"
	[ "$status" -eq 0 ] || run_failed
	# stock at preempt=none: the storm's TIMER softirq, and the kernel
	# work's two tasks (cat reading kallsyms; the loop's own sh writing
	# drop_caches, whose sections are among the worst since each cell
	# keeps its worst: 8 cat and 2 sh on 2026-12-08), in 9 of its 10 worst
	# captures at least (deterministic on this clock: 10 of 10 when
	# written); rt's verdict lower
	for want in "storm|softirq: TIMER" "kwork|blocking: (cat|sh)"; do
		mapfile -t w < <(why_stock "${want%%|*}" "$output")
		n=$(printf '%s\n' "${w[@]:1}" | awk -v re="^[0-9]+ (${want#*|})\$" '$0 ~ re { s += $1 } END { print s + 0 }')
		[ "${w[0]:-}" = 10 ] && [ "$n" -ge 9 ] || { echo "${want%%|*}: ${w[*]}"; run_failed; }
	done
	grep -Eq '^storm, timer, .*: rt lower worst case: ' <<<"$output" || run_failed
	grep -q '<small class="why">why: stock: of its 10 worst captures' "$WORK/cmp/index.html" || run_failed
}
