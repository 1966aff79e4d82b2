# Shared by the bats files: a scratch directory per test and CSV helpers.

setup() {
	: "${LATLAB:?set LATLAB to the latlab binary (make test does)}"
	WORK=$(mktemp -d /tmp/latlab-bats.XXXXXX)
	chmod 755 "$WORK"
	# latlab's cache (a bzImage's ELF, what boots took) is the test's own
	export XDG_CACHE_HOME=$WORK/cache
	# --reboot arms the resume unit: the test's own file, never /etc's
	export LATLAB_RESUME_ENV=$WORK/etc/latlab/resume.env
	cd "$WORK" || return 1
}

teardown() {
	cd /
	if mountpoint -q "$WORK/full" 2>/dev/null; then
		umount "$WORK/full"
	fi
	rm -rf "$WORK"
}

# state_says STATE LINE [SECONDS]: wait (default 60 s) until a line of a
# campaign's state file is LINE ("0001-... = running"): what a test that
# interrupts a cell waits for, rather than a sleep a busy machine outruns
state_says() {
	local i
	for ((i = 0; i < ${3:-60} * 10; i++)); do
		grep -qxF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "state_says: $1 never said '$2'" >&2
	return 1
}

# is_png FILE, is_svg FILE: a figure of non-trivial size
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$1")" -gt 4000 ]
}

is_svg() {
	grep -q '<svg' "$1" && grep -q '</svg>' "$1" && [ "$(stat -c %s "$1")" -gt 2000 ]
}

# write_config NAME <<EOF ... EOF
#
# [thresholds] missed (1 % by default) is set off in every config a test
# writes, unless it gives one: this VM's stalls (3-10 ms now and then)
# miss a percent of the periods of the suite's short cells, and a test of
# something else must not fail on them. The tests of missed periods give
# their own, or delete this line to test the default.
write_config() {
	cat >"$WORK/$1"
	grep -q '^missed *=' "$WORK/$1" || printf '\n[thresholds]\nmissed = off\n' | ini_merge "$WORK/$1"
}

# col FILE NAME: the values of column NAME, one per data row
col() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		c { print $c }' "$1"
}

# The matrix's axes in the table's order, from latlab list's [matrix]
# section, so that a test that names them all changes with no new axis:
# matrix_axes every key; row_axes every one but the kernel (a row's);
# row_columns their compare.csv and history.csv columns, comma-joined
# (the interval's column is interval_ns, its value's unit); row_words
# their names as a message lists them ("load, workload, ...").
matrix_axes() {
	"$LATLAB" list | awk '/^\[/ { m = ($0 == "[matrix]"); next } m && /^  [a-z_]+ / { print $1 }'
}
row_axes() { matrix_axes | grep -vx kernel; }
row_columns() { row_axes | sed 's/^interval$/interval_ns/' | paste -sd, -; }
row_words() { row_axes | paste -sd, - | sed 's/,/, /g'; }

# chain_steps SUMMARY N: a chain's summary.csv has io_step1..N and no
# more, each with io's samples, and per thread the steps' mean times
# add up to no more than io's (each period's io holds its steps)
chain_steps() {
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		{ t = $h["thread"]; m = $h["metric"] }
		m == "io" { io[t] = $h["mean_ns"]; s[t] = $h["samples"] }
		m ~ /^io_step/ { k = substr(m, 8); sum[t] += $h["mean_ns"]; steps[t] = steps[t] " " k; ss[t, k] = $h["samples"] }
		END {
			for (t in io) {
				want = ""; for (k = 1; k <= n; k++) want = want " " k
				if (steps[t] != want) { print "thread " t ": steps" steps[t] ", not" want; exit 1 }
				for (k = 1; k <= n; k++) if (ss[t, k] != s[t]) { print "io_step" k ": " ss[t, k] " samples, io " s[t]; exit 1 }
				if (sum[t] > io[t] + n) { print "thread " t ": steps mean " sum[t] " ns > io " io[t]; exit 1 }
			}
			exit !length(io)
		}' "$1" || { cat "$1"; false; }
}

# cell_dir CAMPAIGN_DIR ID_GLOB: the one cell directory that matches
cell_dir() {
	local d
	d=$(echo "$1"/*/*/$2)
	[ -d "$d" ] || { echo "no cell dir $1/*/*/$2" >&2; return 1; }
	echo "$d"
}

# ini_merge FILE < INI: FILE with INI's keys set, each in its section — a
# key FILE has is replaced where it stands, a new one goes at the end of
# its section, a new section at the end. Keys before any [section] in INI
# belong to FILE's last section, as if appended. latlab refuses a key
# given twice, so tests change a config this way, never by appending.
ini_merge() {
	local f=$1 new
	new=$(mktemp)
	cat >"$new"
	[ -s "$new" ] || { rm -f "$new"; return 0; }
	awk '
	function trim(x) { sub(/^[ \t]+/, "", x); sub(/[ \t]+$/, "", x); return x }
	function head(x) { return x ~ /^[ \t]*\[[^]]*\][ \t]*$/ }
	function name(x) { x = trim(x); return substr(x, 2, length(x) - 2) }
	function iskey(x) { return x !~ /^[ \t]*[;#]/ && index(x, "=") > 0 }
	function key(x) { return trim(substr(x, 1, index(x, "=") - 1)) }
	function flush(s,   i, k) {	# the keys of s not placed yet
		for (i = 1; i <= nk[s]; i++) {
			k = ks[s, i]
			if (!((s, k) in used)) { print val[s, k]; used[s, k] = 1 }
		}
	}
	FNR == 1 { pass++ }
	pass == 1 {	# the new keys, by section
		if (head($0)) { sec = name($0); if (!(sec in known)) { known[sec] = 1; order[++ns] = sec }; next }
		if (!iskey($0)) next
		s = (sec == "" ? "\001" : sec)
		if (!(s in known)) { known[s] = 1; order[++ns] = s }
		k = key($0)
		if (!((s, k) in val)) ks[s, ++nk[s]] = k
		val[s, k] = $0
		next
	}
	pass == 2 { if (head($0)) last = name($0); next }	# its last section
	{
		if (head($0)) {
			flush(cur); if (cur == last) flush("\001")
			cur = name($0); seen[cur] = 1; print; next
		}
		s = cur
		if (iskey($0) && (s, key($0)) in val) { print val[s, key($0)]; used[s, key($0)] = 1; next }
		if (iskey($0) && s == last && ("\001", key($0)) in val) { print val["\001", key($0)]; used["\001", key($0)] = 1; next }
		print
	}
	END {
		flush(cur); if (cur == last) flush("\001")
		for (i = 1; i <= ns; i++)
			if (order[i] != "\001" && !(order[i] in seen)) { print "[" order[i] "]"; flush(order[i]) }
	}' "$new" "$f" "$f" >"$new.out" && mv "$new.out" "$f"
	rm -f "$new"
}

# line_of FILE REGEX: the number of FILE's first line that matches
line_of() {
	grep -n -m1 -- "$2" "$1" | cut -d: -f1
}

# A small config: 1 s cells of the timer workload.
quick_config() {
	write_config "${1:-c.ini}" <<EOC
[campaign]
name = t
duration = 1s
output = $WORK/out

[matrix]
workload = timer
threads = 1
interval = 1ms
EOC
}

# fnv1a64 FILE: latlab's config_hash of a campaign.ini (FNV-1a over the
# text after its first, comment line), as the state writes it
fnv1a64() {
	local h=1469598103934665603 b
	for b in $(tail -n +2 "$1" | od -An -v -tu1); do
		h=$(( (h ^ b) * 1099511628211 ))
	done
	printf '%016x\n' "$h"
}

# in_session SID: the processes still in session SID (a command started
# with setsid leads it: its qemu, its loads), one pid a line. Tests find
# what a run left behind this way, never by a program's name
in_session() {
	ps -o pid= -s "$1"
}

# run_session CMD...: `run` CMD as the leader of a session of its own,
# that session's id in $SID
run_session() {
	run setsid --wait sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/session" "$@"
	SID=$(cat "$WORK/session")
}

# run_failed: what a failed `run` printed, then the tail of every guest
# console under $WORK (a guest that hung or panicked says why there);
# returns 1, so `[ "$status" -eq 0 ] || run_failed` fails the test
# ini_key FILE SECTION KEY: KEY's value in [SECTION] of FILE (cell.ini has a
# key of one name in several sections: [cell]'s cpus, [load.NAME]'s cpus)
ini_key() {
	awk -v s="[$2]" -v k="$3" '/^\[/ { in_s = $0 == s; next }
		in_s && index($0, k " = ") == 1 { print substr($0, length(k) + 4); exit }' "$1"
}

run_failed() {
	local f

	echo "(exit status $status)"
	echo "$output"
	find "$WORK" -name '*.console.log' 2>/dev/null | while read -r f; do
		echo "== $f (last 40 lines)"
		tail -n 40 "$f"
	done
	return 1
}

# browse PAGE: load it in headless Chromium in a 1400 x 1000 window (the
# width the report is laid out for); print the DOM, console to $WORK/console
browse() {
	chromium --headless=new --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --window-size=1400,1000 \
		--user-data-dir="$WORK/chromium" --enable-logging=stderr --v=0 \
		--virtual-time-budget=5000 --dump-dom "file://$1" 2>"$WORK/console"
}

# vm_setup: Debian's stock and rt images in $KERNELS (make kernels), or
# fail. The tests boot the ELF kernels (vmlinux-*: half the boot under
# TCG, docs/campaigns.md); the bzImages stay for LAVA and the demos
vm_setup() {
	: "${KERNELS:?set KERNELS to the directory of vmlinux-stock and vmlinux-rt (make test does)}"
	[ -s "$KERNELS/vmlinux-stock" ] && [ -s "$KERNELS/vmlinux-rt" ] || {
		echo "no kernel images in $KERNELS: run make kernels" >&2
		return 1
	}
}

# static_programs: the folder of the static latlab and latload make test
# builds unsanitized in both modes (build/static), for a guest's
# `programs =` where the test holds a kernel's figures: a sanitizer build
# skips mlockall, and an unlocked thread's faults are no kernel's figure
static_programs() {
	local p
	p=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/static
	[ -x "$p/latlab" ] && [ -x "$p/latload" ] || { echo "no $p/latlab: make static" >&2; return 1; }
	echo "$p"
}

# paced SECONDS: a bound for a hang, stretched by how little CPU the host
# gives now (tests/pace.sh, which tests/run.sh's lanes use too)
# shellcheck source=../pace.sh
. "${BASH_SOURCE[0]%/*}/../pace.sh"

# log_ms_between LOG FROM TO: the ms between the first line matching FROM
# and the first matching TO, by the time stamps that begin a cell's
# log.txt lines (2026-12-05T08:29:23.622Z)
log_ms_between() {
	awk -v from="$2" -v to="$3" '
		function at(t, a) { split(t, a, /[T:Z]/); return (a[2] * 60 + a[3]) * 60 + a[4] }
		s == "" && $0 ~ from { s = at($1) }
		e == "" && $0 ~ to { e = at($1) }
		END { printf "%d", (e - s) * 1000 }' "$1"
}
