#!/bin/bash
# bench/overnight.sh [OUT] — the overnight campaign, for real (make
# overnight): a whole Debian 12 machine (tools/debian-machine.sh: systemd,
# GRUB, the stock and PREEMPT_RT kernels, latlab's .deb) boots in qemu;
# its job (bench/machine/overnight.sh) starts `latlab run --reboot` on
# the stock kernel; the resume unit under systemd, grub-reboot and real
# reboots do the rest; the tree comes back on a disk of its own. Then
# this script checks what a user would: each variant's cells ran on its
# kernel, the boots, the unit disarmed, and `latlab report` and `latlab
# compare` read the tree. These are the machine's reboots, units and bootloader under test:
# the figures are TCG's, not a board's latency (said in OUT/README).
#
# OUT (default build/overnight) is replaced. Exit: 0 when every check
# holds; 1 when one does not (said); 2 when the machine could not be
# built or run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$here/build/overnight}")
latlab=$here/build/latlab

deb=$(ls "$here"/build/deb/latlab_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "overnight: no build/deb/latlab_*.deb (make deb)" >&2; exit 2; }
img=$("$here/tools/debian-machine.sh" "$deb") || exit 2
rm -rf "$out" && mkdir -p "$out" || exit 2
echo "overnight: booting $img (TCG; the console: $out/machine/console.log)"
start=$SECONDS
"$here/tools/debian-machine-run.sh" "$img" "$here/bench/machine/overnight-job" "$out/machine" \
	"${OVERNIGHT_SECONDS:-5400}" || exit 2
echo "overnight: the machine powered off after $((SECONDS - start)) s"
tree=$out/machine/back/latlab/overnight
fails=0
check() {	# check WHAT COMMAND...: said either way
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then echo "  ok: $what"; else echo "  FAILED: $what"; fails=$((fails + 1)); fi
}
check "the tree came back" test -f "$tree/cells.csv"
# cells.csv's column NAME of each row, as "cell kernel kernel_release status"
rows() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { print $c["cell"], $c["kernel"], $c["kernel_release"], $c["status"] }' "$tree/cells.csv" | sort -u
}
check "stock's cells ran on a kernel without PREEMPT_RT" \
	test "$(rows | awk '$2 == "stock" && $3 !~ /-rt-/ && ($4 == "ok" || $4 == "fail")' | wc -l)" -eq 2
check "rt's cells ran on the PREEMPT_RT kernel" \
	test "$(rows | awk '$2 == "rt" && $3 ~ /-rt-amd64$/ && ($4 == "ok" || $4 == "fail")' | wc -l)" -eq 2
check "the unit disarmed" grep -q '^resume unit: disabled' "$out/machine/back/latlab/boots.txt"
# the boots in order, by their kernels' kinds: the last three stock (the
# job's), rt (grub-reboot's, once), stock again (the default: after the
# unit disarmed, a boot that runs nothing)
boots() {
	sed -n 's/^== boot [-0-9]*: //p' "$out/machine/back/latlab/boots.txt" |
		awk '{ print ($0 ~ /-rt-/ ? "rt" : "stock") }' | tail -n 3 | tr '\n' ' '
}
check "the machine booted stock, rt, then stock again" eval '[ "$(boots)" = "stock rt stock " ]'
check "the last boot started no latlab" eval '[ "$(tail -n 1 "$out/machine/back/latlab/boots.txt")" = "latlab-resume ran: 0" ]'
check "the unit's runs succeeded (cells that fail thresholds are findings: SuccessExitStatus=1)" \
	eval '! grep -q "Failed with result" "$out/machine/back/latlab/boots.txt"' 
check "latlab report reads the tree" "$latlab" report "$tree"
check "latlab compare reads it, stock against rt" eval '"$latlab" compare "$tree" >"$out/compare.txt" 2>&1 && grep -q "across 2 kernel variants" "$out/compare.txt"'
cp "$out/machine/back/latlab/boots.txt" "$out/" 2>/dev/null
cat >"$out/README" <<EOF
The overnight campaign in a whole Debian machine under qemu TCG
(bench/overnight.sh, $(date -u +%F)): its reboots, systemd unit, GRUB and
package are what was tested. Its latency figures are an emulator's on a
shared host, not a board's: do not read them as one.
EOF
echo "overnight: $fails check(s) failed; the tree: $tree; the boots: $out/boots.txt"
[ $fails -eq 0 ]
