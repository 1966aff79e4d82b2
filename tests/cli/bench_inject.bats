#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# bench/inject/build.sh: bench/forensics.sh's test module
# (bench/inject/latlab_inject.c: preemption off, a spinning hard
# interrupt handler, a flood of short ones) builds against a Debian
# kernel's headers, for that kernel; a bad use and a kernel without
# headers are refused, said; a source that does not build is exit 1,
# the compiler's words shown, nothing left at the output's path.
# The module itself runs only in the bench's guests (docs/spikes.md).

load helper

@test "bench/inject/build.sh: the test module for a kernel whose headers are here; a bad use and no headers refused (exit 2); a failed build exit 1" {
	run bench_inject
	[ "$status" -eq 2 ] && [[ "$output" == *"usage: bench/inject/build.sh RELEASE [OUT]"* ]] || run_failed
	# headers for no kernel: refused, apt asked and nothing installed
	run bench_inject 0.0.0-latlab-none "$WORK/none.ko"
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"no /usr/src/linux-headers-0.0.0-latlab-none, and apt knows no linux-headers-0.0.0-latlab-none"* ]] || run_failed
	[ ! -e "$WORK/none.ko" ]
	# the headers make deps brings (linux-headers-amd64, through
	# lava-dispatcher-host): a module for exactly that kernel
	h=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | grep -v -- '-rt-' | head -1)
	[ -n "$h" ] && [ -e "$h/Makefile" ] || skip "no Debian amd64 kernel headers in /usr/src"
	release=${h#/usr/src/linux-headers-}
	run bench_inject "$release" "$WORK/m/latlab_inject.ko"
	[ "$status" -eq 0 ] && [ "$output" = "$WORK/m/latlab_inject.ko" ] || run_failed
	modinfo -F vermagic "$WORK/m/latlab_inject.ko" | grep -q "^$release "
	modinfo -F description "$WORK/m/latlab_inject.ko" | grep -q 'bench/forensics.sh'
	# a source that does not compile (a copy of the directory, broken):
	# exit 1, the compiler's error shown, no module left behind
	cp -r "$BATS_TEST_DIRNAME/../../bench/inject" "$WORK/broken"
	echo 'static int latlab_broken = ;' >>"$WORK/broken/latlab_inject.c"
	run "$WORK/broken/build.sh" "$release" "$WORK/b/latlab_inject.ko"
	[ "$status" -eq 1 ] || run_failed
	[[ "$output" == *"the module did not build for $release:"* ]] || run_failed
	[[ "$output" == *"latlab_broken"* ]] || run_failed
	[ ! -e "$WORK/b/latlab_inject.ko" ] || run_failed
}

bench_inject() {
	"$BATS_TEST_DIRNAME/../../bench/inject/build.sh" "$@"
}
