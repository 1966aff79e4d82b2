#!/bin/bash
# bench/overnight.sh [OUT] — the overnight campaign, for real (make
# overnight): a whole Debian 12 machine (tools/debian-machine.sh: systemd,
# GRUB, the stock and PREEMPT_RT kernels) boots in qemu, installs
# latlab's .deb with dpkg, and its job (bench/machine/overnight-job)
# starts `latlab run --reboot` on the stock kernel; the resume unit under
# systemd and real reboots do the rest; the tree comes back on a disk of
# its own. Two nights, each a machine of its own:
#
# - grub: `reboot =` scripts that call grub-reboot, and two faults on the
#   way: a variant whose GRUB entry does not boot (rt-broken: it panics,
#   GRUB boots the default) and the power cut in the middle of an rt cell
#   (qemu killed, then powered on again);
# - kexec: `reboot = kexec` (latlab loads the variant's kernel from /boot
#   and asks systemd to kexec it), the same power cut on the way, and the
#   campaign's disk full.
#
# At the rt boot after the cut, the grub night starts the unit again
# while it runs and latlab run by hand on the same campaign; the kexec
# night, whose campaign has a 64 MiB filesystem of its own, fills it in
# the middle of a cell (latlab stops, exit 3), then makes room and starts
# the unit again, as a user would in the morning. Then this script checks
# what a user would: each variant's cells ran on its kernel, or were given
# up with the reason; the cut cell was rerun, its partial data kept; the
# second latlab refused (grub), the full disk survived (kexec); the boots; the unit disabled at install and
# disarmed at the end; and `latlab report` and `latlab compare` read the
# tree. Last, the time of each reboot latlab asked for (its "rebooting
# into" to the next boot's "booted into", on the machine's journal), by
# method. These are the machine's reboots, units and bootloader under
# test: the figures are TCG's, not a board's latency (said in OUT/README).
#
# OVERNIGHT_NIGHTS (default "grub kexec") chooses the nights; a night that
# has not powered off after OVERNIGHT_SECONDS (default 3600: a night took
# 5.5-7 min alone, more than 30 beside make test, a hog and hackbench) is killed and
# the run fails (exit 2). OUT (default
# build/overnight) is replaced. Exit: 0 when every check holds; 1 when one
# does not (said); 2 when the machine could not be built or run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$here/build/overnight}")
latlab=$here/build/latlab

deb=$(ls "$here"/build/deb/latlab_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "overnight: no build/deb/latlab_*.deb (make deb)" >&2; exit 2; }
img=$("$here/tools/debian-machine.sh" "$deb") || exit 2
rm -rf "$out" && mkdir -p "$out" || exit 2
fails=0
check() {	# check WHAT COMMAND...: said either way
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then echo "  ok: $what"; else echo "  FAILED: $what"; fails=$((fails + 1)); fi
}

# night METHOD: one machine, one campaign, its checks; OUT/METHOD/
night() {
	local method=$1 n=$out/$1 start=$SECONDS
	mkdir -p "$n/job" && cp "$here"/bench/machine/overnight-job/* "$n/job/" &&
		echo "$method" >"$n/job/method" || exit 2
	echo "overnight ($method): booting $img (TCG; the console: $n/machine/console.log)"
	MACHINE_DEB=$deb MACHINE_CUT_ON="latlab-machine: cut the power now" \
		"$here/tools/debian-machine-run.sh" "$img" "$n/job" "$n/machine" \
		"${OVERNIGHT_SECONDS:-3600}" || exit 2
	echo "overnight ($method): the machine powered off after $((SECONDS - start)) s"
	tree=$n/machine/back/latlab/overnight
	boots_txt=$n/machine/back/latlab/boots.txt
	check "the tree came back" test -f "$tree/cells.csv"
	check "the package left the resume unit disabled at install" \
		grep -q '^resume unit at install: disabled; resume.env: ls: cannot access' "$boots_txt"
	check "stock's cells ran on a kernel without PREEMPT_RT" \
		test "$(rows | awk '$2 == "stock" && $3 !~ /-rt-/ && ($4 == "ok" || $4 == "fail")' | wc -l)" -eq 2
	check "rt's cells ran on the PREEMPT_RT kernel" \
		test "$(rows | awk '$2 == "rt" && $3 ~ /-rt-amd64$/ && ($4 == "ok" || $4 == "fail")' | wc -l)" -eq 2
	if [ "$method" = grub ]; then
		check "rt-broken's cells were given up, with the reason" \
			test "$(grep -c ',skipped,kernel variant rt-broken did not come up after 2 reboots,' "$tree/cells.csv")" -eq 2
		check "latlab recorded each boot that missed rt-broken" eval '
			grep -q "a reboot into kernel variant rt-broken was asked for, but .* is running (attempt 1 of 2)" "$boots_txt" &&
			grep -q "a reboot into kernel variant rt-broken was asked for, but .* is running (attempt 2 of 2)" "$boots_txt"'
		check "rt-broken's entry panicked twice (the console)" \
			test "$(grep -c "Kernel panic - not syncing: VFS: Unable to mount root fs" "$n/machine/console.log")" -eq 2
	else
		check "latlab kexec'd the rt kernel" grep -q 'kexec: .*-rt-amd64 loaded for kernel variant rt' "$boots_txt"
	fi
	cut=$(sed -n 's/^power cut during: //p' "$boots_txt")
	check "the power was cut in an rt cell (${cut:-none}) after its checkpoint" test -n "$cut"
	check "the cut cell was rerun, its partial data kept beside" eval '
		ls -d "$tree"/*/*-rt-amd64/"$cut.partial-1" &&
		grep -q "^status = partial" "$tree"/*/*-rt-amd64/"$cut.partial-1"/cell.ini &&
		grep -Eq "^status = (ok|fail)" "$tree"/*/*-rt-amd64/"$cut"/cell.ini'
	local failed=0
	if [ "$method" = grub ]; then
		check "latlab started by hand beside the unit's was refused (exit 3), the campaign left to the unit" eval '
			grep -q "^started twice: latlab: error: campaign overnight in /var/lib/latlab is being run by another latlab (pid [0-9]*)" "$boots_txt" &&
			grep -q "^started twice: latlab by hand: exit 3$" "$boots_txt"'
		check "the unit started again while it ran: one run of it a boot" eval '
			grep -q "^started twice: the unit, started again: exit 0$" "$boots_txt" &&
			! grep -q "^latlab-resume ran: [2-9]" "$boots_txt"'
	else
		failed=1
		check "the campaign's disk filled mid-cell: $(sed -n 's/^disk full: filled during: //p' "$boots_txt")" \
			grep -q "^disk full: filled during: [0-9]*-rt-.* = running$" "$boots_txt"
		check "latlab stopped there, exit 3, the unit failed (the only failure of the night)" eval '
			grep -q "^disk full: latlab-resume: failed, exit-code, exit 3$" "$boots_txt" &&
			[ "$(grep -c "Failed with result" "$boots_txt")" -eq 1 ]'
		check "latlab said why (No space left on device, or too little room for a cell)" \
			grep -Eq "No space left on device|MiB free under /var/lib/latlab" "$boots_txt"
		check "no file was left half-written" grep -q "^disk full: half-written files: 0$" "$boots_txt"
		check "room made, the unit started again finished the campaign" eval '
			grep -Eq "^disk full: latlab-resume again: success, exit [01]$" "$boots_txt" &&
			[ "$(grep -c "^latlab-resume ran: 2$" "$boots_txt")" -eq 1 ] &&
			! grep -q "^latlab-resume ran: [3-9]" "$boots_txt"'
	fi
	check "the unit disarmed" grep -q '^resume unit: disabled' "$boots_txt"
	# the boots that reached the journal after the image's first (GRUB's
	# install), by their kernels' kinds: stock (the job's), rt (cut: its
	# journal may be lost with the power), stock (the default, after the
	# cut), rt again, [grub: stock twice — rt-broken's entry panicked and
	# GRUB booted the default; the panicked boots never reached a
	# journal], and stock once more (after the unit disarmed, a boot that
	# runs nothing)
	local want='^stock (rt )?stock rt stock $'
	[ "$method" = grub ] && want='^stock (rt )?stock rt stock stock stock $'
	check "the machine booted $want: $(boots)" eval '[[ "$(boots)" =~ $want ]]'
	check "the last boot started no latlab" eval '[ "$(tail -n 1 "$boots_txt")" = "latlab-resume ran: 0" ]'
	check "the unit's runs succeeded$([ $failed -eq 1 ] && echo ", but the one the full disk stopped") (cells that fail thresholds are findings: SuccessExitStatus=1)" \
		eval '[ "$(grep -c "Failed with result" "$boots_txt")" -eq $failed ]'
	check "latlab report reads the tree" "$latlab" report "$tree"
	check "latlab compare reads it, stock against rt" eval '"$latlab" compare "$tree" >"$n/compare.txt" 2>&1 && grep -q "across [0-9] kernel variants" "$n/compare.txt"'
	cp "$boots_txt" "$n/" 2>/dev/null
	cat "$n/machine/back/latlab/reboots.txt" >>"$out/reboots.txt" 2>/dev/null
}
# cells.csv's column NAME of each row, as "cell kernel kernel_release status"
rows() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { print $c["cell"], $c["kernel"], $c["kernel_release"], $c["status"] }' "$tree/cells.csv" | sort -u
}
boots() {
	sed -n 's/^== boot [-0-9]*: //p' "$boots_txt" | tail -n +2 |
		awk '{ print ($0 ~ /-rt-/ ? "rt" : "stock") }' | tr '\n' ' '
}

for m in ${OVERNIGHT_NIGHTS:-grub kexec}; do
	case $m in grub | kexec) night "$m" ;; *) echo "overnight: no night $m (grub, kexec)" >&2; exit 2 ;; esac
done
cat >"$out/README" <<EOF
The overnight campaign in a whole Debian machine under qemu TCG
(bench/overnight.sh, $(date -u +%F)): its reboots, systemd unit, GRUB,
kexec and package are what was tested. Its latency figures are an
emulator's on a shared host, not a board's: do not read them as one.
EOF
if [ -s "$out/reboots.txt" ]; then
	echo "overnight: each reboot latlab asked for, from its 'rebooting into' to the next boot's 'booted into' (TCG):"
	sort "$out/reboots.txt" | sed 's/^/  /'
	awk -F'by |: | s' '{ n[$2]++; s[$2] += $3; if (!($2 in lo) || $3 < lo[$2]) lo[$2] = $3; if ($3 > hi[$2]) hi[$2] = $3 }
		END { for (m in n) printf "  %s: n %d, mean %.1f s, range %.1f-%.1f s\n", m, n[m], s[m] / n[m], lo[m], hi[m] }' \
		"$out/reboots.txt" | sort
fi
echo "overnight: $fails check(s) failed; the trees: $out/*/machine/back/latlab/overnight"
[ $fails -eq 0 ]
