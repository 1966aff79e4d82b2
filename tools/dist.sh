#!/bin/sh
# tools/dist.sh VERSION OUTDIR: latlab-VERSION-ARCH-static.tar.xz for each
# architecture whose static build exists (make static; make cross: amd64
# in build/static, arm64 and armhf in build/TRIPLET/static) — latlab and
# latload linked statically, the man page, the configs, the plots and a
# README for the board. Unpacked anywhere, bin/latlab finds latload beside
# it and the plots in ../share/latlab/plots.
set -eu
version=$1
out=$2
mkdir -p "$out"
made=0
for pair in amd64:build/static arm64:build/aarch64-linux-gnu/static armhf:build/arm-linux-gnueabihf/static; do
	arch=${pair%%:*}
	bin=${pair#*:}
	if ! [ -x "$bin/latlab" ] || ! [ -x "$bin/latload" ]; then
		echo "tools/dist.sh: no static build for $arch in $bin (make static, make cross)" >&2
		exit 1
	fi
	name=latlab-$version-$arch-static
	stage=$out/$name
	rm -rf "$stage"
	mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/latlab/configs" "$stage/share/latlab/plots"
	cp "$bin/latlab" "$bin/latload" "$stage/bin/"
	cp docs/latlab.1 docs/latload.1 "$stage/share/man/man1/"
	cp configs/*.ini "$stage/share/latlab/configs/"
	cp plots/*.gp "$stage/share/latlab/plots/"
	sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" tools/README.board >"$stage/README"
	# the same bytes from the same tree: owner, order and times fixed
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-C "$out" -cJf "$out/$name.tar.xz" "$name"
	rm -rf "$stage"
	echo "$out/$name.tar.xz"
	made=$((made + 1))
done
[ "$made" -eq 3 ]
