#!/usr/bin/env bats
# lane: alongside (tests/run.sh: where this file runs, and beside what)
# latlab installed as a user installs it (issue 48; docs/install.md):
# the Debian package built by make deb (debhelper, lintian without an
# error) unpacked into a scratch root — the machine's own /usr untouched —
# and run from an empty directory: --version, the quick config, its
# report, the completion and the plugin header where they belong; and
# the static tarballs for boards (tools/dist.sh over make cross's static
# builds), each unpacked and run, the arm ones under qemu-user (binfmt).
# In tests/cli/alongside: it builds, and measures nothing that a guest
# or a unit test beside it could disturb.

load ../helper

SRC=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)

@test "package: make deb builds with debhelper, lintian finds no error, and the unpacked latlab runs the quick config and its report from an empty directory" {
	# the package is latlab's plain build, whatever make test was given
	# (SANITIZE); 44 s alone, more than 900 beside a CPU hog, hackbench and
	# the alongside guests (issue 72): its bound is paced
	run timeout "$(paced 900)" env -u MAKEFLAGS -u MAKELEVEL -u SANITIZE make -s -C "$SRC" deb
	[ "$status" -eq 0 ] || run_failed
	deb=$(ls "$SRC"/build/deb/latlab_*_*.deb)
	! grep -q '^E: ' "$SRC/build/deb/lintian.txt"
	# its dependencies came from the libraries it links (shlibs)
	dpkg-deb -f "$deb" Depends | grep -q 'libtracefs1'
	dpkg-deb -f "$deb" Recommends | grep -q 'gnuplot-nox'
	# where things go
	dpkg-deb -c "$deb" | awk '{ print $6 }' >contents
	for f in ./usr/bin/latlab ./usr/bin/latload ./usr/share/man/man1/latlab.1.gz \
		./usr/share/man/man1/latload.1.gz ./usr/share/latlab/configs/quick.ini \
		./usr/share/latlab/plots/hist.gp ./usr/include/latlab/plugin.h \
		./usr/lib/latlab/plugins/adc.so ./usr/share/bash-completion/completions/latlab \
		./usr/share/doc/latlab/README.md ./usr/share/doc/latlab/docs/tutorial.md \
		./usr/share/doc/latlab/docs/guide.md ./lib/systemd/system/latlab-resume.service; do
		grep -qx "$f" contents || { echo "not in the package: $f"; false; }
	done
	# a tool, not a service that runs: the package neither enables the
	# resume unit on an install nor starts it (latlab run --reboot arms
	# it; an upgrade keeps what the user had: debhelper's was-enabled)
	dpkg-deb -e "$deb" "$WORK/control"
	if [ -e "$WORK/control/postinst" ]; then
		! grep -q 'new installations run enable\|deb-systemd-invoke start\|systemctl.*start' \
			"$WORK/control/postinst" || { cat "$WORK/control/postinst"; false; }
	fi
	dpkg -x "$deb" "$WORK/root"
	mkdir "$WORK/empty"
	cd "$WORK/empty"
	run "$WORK/root/usr/bin/latlab" --version
	[ "$status" -eq 0 ] && [[ "${lines[0]}" == "latlab "[0-9]* ]] && [[ "${lines[1]}" == "features: numa, "* ]] || run_failed
	run timeout 300 "$WORK/root/usr/bin/latlab" run "$WORK/root/usr/share/latlab/configs/quick.ini" \
		--set campaign.duration=1s -q
	# 0, or 1 when this VM's stalls pass quick.ini's thresholds in 1 s cells
	[ "$status" -le 1 ] || run_failed
	[ "$(col results/quick/cells.csv status | grep -c '^ok$\|^fail$')" -ge 4 ]
	grep -q '^; resolved by latlab ' results/quick/campaign.ini
	run timeout 300 "$WORK/root/usr/bin/latlab" report results/quick -q
	[ "$status" -eq 0 ] || run_failed
	grep -q '<meta name="generator" content="latlab ' results/quick/report/index.html
	is_png "$(ls results/quick/report/fig/*.png | head -1)"
	# the plugin header compiles a plugin the packaged latlab loads
	cc -I"$WORK/root/usr/include" -fPIC -shared -o mine.so "$WORK/root/usr/share/latlab/examples/plugins/minimal.c"
	printf '[campaign]\nname = p\nduration = 300ms\n[matrix]\nworkload = mine\naffinity = 1\n[workload.mine]\ntype = plugin\npath = ./mine.so\n[thresholds]\nmissed = off\n' >p.ini
	run timeout 60 "$WORK/root/usr/bin/latlab" run p.ini -q
	[ "$status" -eq 0 ] || run_failed
}

@test "dist: a static tarball for amd64, arm64 and armhf, each unpacked and run (the arm ones under qemu-user)" {
	for d in build/static build/aarch64-linux-gnu/static build/arm-linux-gnueabihf/static; do
		[ -x "$SRC/$d/latlab" ] || { echo "$SRC/$d/latlab: not built (make static; make cross)"; false; }
	done
	run bash -c "cd '$SRC' && tools/dist.sh 0.0-test '$WORK/dist'"
	[ "$status" -eq 0 ] || run_failed
	cd "$WORK"
	for arch in amd64 arm64 armhf; do
		t=dist/latlab-0.0-test-$arch-static.tar.xz
		[ -f "$t" ]
		tar -xJf "$t"
		d=latlab-0.0-test-$arch-static
		grep -q "latlab 0.0-test for $arch, linked statically" "$d/README"
		[ -f "$d/share/man/man1/latlab.1" ] && [ -f "$d/share/latlab/configs/quick.ini" ] &&
			[ -f "$d/share/latlab/plots/hist.gp" ]
		file "$d/bin/latlab" | grep -q 'statically linked'
		run "$d/bin/latlab" --version
		[ "$status" -eq 0 ] && [[ "$output" == *"static"* ]] || run_failed
		run "$d/bin/latlab" plan "$d/share/latlab/configs/quick.ini"
		[ "$status" -eq 0 ] && [[ "$output" == *"4 cells"* ]] || run_failed
	done
	file latlab-0.0-test-arm64-static/bin/latlab | grep -q 'ARM aarch64'
	file latlab-0.0-test-armhf-static/bin/latload | grep -q 'ARM, EABI5'
	# the same tree makes the same bytes
	run bash -c "cd '$SRC' && tools/dist.sh 0.0-test '$WORK/again'"
	cmp dist/latlab-0.0-test-arm64-static.tar.xz again/latlab-0.0-test-arm64-static.tar.xz
}
