#!/usr/bin/env bats
# lane: measures (tests/run.sh: where this file runs, and beside what)
# [workload.NAME] type = plugin (docs/guide.md, "Measuring your own
# code"): the example plugins built by make measured as workloads (adc,
# queued-writer; i2c skipped where no bus exists), a step's errors
# counted, and every way a plugin can be wrong refused at its config line
# before anything is written (exit 2). Timing is not judged here.

load helper

# the plugins make built beside the latlab under test (build/san/plugins for SANITIZE=1)
PLUGINS=$(cd "$(dirname "$LATLAB")" && pwd)/plugins
INCLUDE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/include

plugin_config() {
	write_config c.ini <<EOC
[campaign]
name = p
duration = 1s
output = $WORK/out
[matrix]
workload = $1
affinity = 1
[workload.adc]
type = plugin
path = $PLUGINS/adc.so
file = /sys/kernel/uevent_seqnum
[workload.logger]
type = plugin
path = $PLUGINS/queued_writer.so
file = $WORK/logger.dat
slots = 256
[workload.temp]
type = plugin
path = $PLUGINS/i2c.so
bus = /dev/i2c-latlab-none
[workload.mine]
type = plugin
path = $PLUGINS/minimal.so
fail_every = 10
EOC
}

@test "plugin: the examples measured as workloads (io the step), an absent i2c bus skipped, a step's errors counted" {
	[ -e "$PLUGINS/adc.so" ] || { echo "$PLUGINS/adc.so: not built beside $LATLAB (make)"; false; }
	plugin_config "adc, logger, temp, mine"
	run timeout 120 "$LATLAB" run c.ini -q
	[ "$status" -eq 0 ] || run_failed
	C=$WORK/out/p/cells.csv
	# adc: every period read and parsed, the io metric its pread
	d=$(cell_dir "$WORK/out/p" '*-adc-*')
	grep -q '^status = ok$' "$d/cell.ini"
	awk -F, '$3 == "io" && $4 > 500 && $15 == 0 { ok = 1 } END { exit !ok }' "$d/summary.csv"
	# logger: the blocks reached the file through the writer thread (4 KiB each)
	d=$(cell_dir "$WORK/out/p" '*-logger-*')
	grep -q '^status = ok$' "$d/cell.ini"
	[ "$(stat -c %s "$WORK/logger.dat")" -ge $((500 * 4096)) ]
	# temp: no such bus here, the reason said, not a failure
	grep -q '^reason = plugin i2c: /dev/i2c-latlab-none: No such file or directory (no such i2c bus here' \
		"$(cell_dir "$WORK/out/p" '*-temp-*')/cell.ini"
	[ "$(cat "$WORK"/out/p/*/*/*/cell.ini | grep -c '^status = skipped$')" -eq 1 ]
	# mine: every 10th step failed with EIO: counted (a tenth of the steps exactly), the first
	# kept (errno 5), never a sample
	d=$(cell_dir "$WORK/out/p" '*-mine-*')
	awk -F, '$3 == "wakeup" { s = $4; e = $15; f = $16 }
		END { exit !(e == int((s + e) / 10) && e > 50 && f == 5) }' "$d/summary.csv" || { cat "$d/summary.csv"; false; }
	grep -q "I/O errors, the first: Input/output error" "$d/log.txt"
	# campaign.ini echoes the plugin's own keys: a changed option is another campaign
	grep -q '^fail_every = 10$' "$WORK/out/p/campaign.ini"
	sed -i 's/^fail_every = 10$/fail_every = 20/' c.ini
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [[ "$output" == *"--restart"* ]] || run_failed
}

@test "plugin: a missing file, not a plugin, a wrong ABI, an option it refuses: exit 2 at the line, nothing written" {
	[ -e "$PLUGINS/adc.so" ] || { echo "$PLUGINS/adc.so: not built beside $LATLAB (make)"; false; }
	line() { grep -n "^$1" c.ini | head -1 | cut -d: -f1; }
	plugin_config adc
	sed -i "s|^path = $PLUGINS/adc.so|path = $WORK/none.so|" c.ini
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line "path = $WORK/none.so"): [workload.adc] path = $WORK/none.so: $WORK/none.so: cannot open shared object file: No such file or directory"* ]] || run_failed
	# a shared object that is not a plugin
	libm=$(ldconfig -p | awk '/libm.so.6 .*x86-64|libm.so.6 \(libc6,/ { print $NF; exit }')
	sed -i "s|^path = $WORK/none.so|path = $libm|" c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" == *"path = $libm: no latlab_plugin symbol: not a latlab plugin"* ]] || run_failed
	# built against another ABI
	sed 's/\.abi = LATLAB_PLUGIN_ABI/.abi = 99/' "$BATS_TEST_DIRNAME/../../examples/plugins/minimal.c" >old.c
	cc -I"$INCLUDE" -fPIC -shared -o old.so old.c
	sed -i "s|^path = $libm|path = $WORK/old.so|" c.ini
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] && [[ "$output" == *"path = $WORK/old.so: built for plugin ABI 99, latlab has 1 (rebuild it against this latlab's include/latlab/plugin.h)"* ]] || run_failed
	# an option the plugin refuses, at its own line
	plugin_config adc
	sed -i 's|^file = /sys/kernel/uevent_seqnum|file = /sys/kernel/uevent_seqnum\nchannel = 3|' c.ini
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line channel): [workload.adc] plugin adc: channel: unknown option (adc takes file =)"* ]] || run_failed
	plugin_config logger
	sed -i 's/^slots = 256$/slots = 1/' c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" == *"c.ini:$(line slots): [workload.logger] plugin queued-writer: slots: '1' is not 2-4096"* ]] || run_failed
	# no path at all
	plugin_config adc
	sed -i "/^path = /d" c.ini
	run "$LATLAB" plan c.ini
	[ "$status" -eq 2 ] && [[ "$output" == *"type = plugin needs path = the plugin's shared object"* ]] || run_failed
	[ ! -e "$WORK/out" ]
	# a qemu guest is given a copy: one it can load, at an absolute path
	plugin_config adc
	ini_merge c.ini <<EOC
[matrix]
kernel = g
[kernel.g]
runner = qemu
image = /etc/hostname
EOC
	run "$LATLAB" plan c.ini
	[[ "$output" != *"cannot run"* ]] || run_failed
	# another architecture's object (its ELF header's machine)
	cp "$PLUGINS/adc.so" "$WORK/arm.so"
	printf '\267\000' | dd of="$WORK/arm.so" bs=1 seek=18 conv=notrunc 2>/dev/null	# EM_AARCH64
	sed -i "s|^path = $PLUGINS/adc.so|path = $WORK/arm.so|" c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"c.ini:$(line "path = $WORK/arm.so"): [workload.adc] path = $WORK/arm.so: not a shared object for x86_64 (its ELF header): the guest of kernel g cannot load it"* ]] || run_failed
	# a program, not a shared object
	sed -i "s|^path = $WORK/arm.so|path = $WORK/prog|" c.ini
	printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\076\000' >"$WORK/prog"
	head -c 64 /dev/zero >>"$WORK/prog"
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"[workload.adc] path = $WORK/prog: not a shared object (its ELF header)"* ]] || run_failed
	# a relative path
	sed -i "s|^path = $WORK/prog|path = adc.so|" c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"[workload.adc] path = adc.so: a qemu guest (kernel g) is given a copy at the same path: name it from / (an absolute path)"* ]] || run_failed
	sed -i "s|^path = adc.so|path = $PLUGINS/adc.so|" c.ini
	# a static latlab in the guest cannot load one (its dlopen brings a
	# second libc, never started: the plugin crashed it)
	# (a static program stands for it: busybox-static's)
	mkdir -p "$WORK/static"
	cp /bin/busybox "$WORK/static/latlab"
	printf '[kernel.g]\nprograms = %s\n' "$WORK/static" | ini_merge c.ini
	run "$LATLAB" run c.ini
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"[workload.adc] path = $PLUGINS/adc.so: the guest of kernel g runs $WORK/static/latlab, a static latlab, which cannot load a plugin (leave programs = empty: latlab's own)"* ]] || run_failed
	sed -i '/^programs = /d' c.ini
	# an arm64 guest runs a static latlab: no plugin there
	printf '[kernel.g]\narch = arm64\nprograms = %s\nbusybox = %s/bb\n' "$WORK" "$WORK" | ini_merge c.ini
	run "$LATLAB" plan c.ini
	[[ "$output" == *"not a shared object for arm64 (its ELF header)"* ]] || run_failed
	[ ! -e "$WORK/out" ]
}

# evil_plugin STEP CHECK SETUP: a plugin whose step(), check() and
# setup() bodies are the C statements given, built here as evil.so
evil_plugin() {
	cat >evil.c <<EOC
#include <errno.h>
#include <string.h>
#include "latlab/plugin.h"
static int chk(const struct latlab_option *o, int n, const char **bad, char *why, size_t len)
{ (void)o; (void)n; (void)bad; (void)why; (void)len; $2 }
static int setup(struct latlab_step *s, const struct latlab_option *o, int n)
{ (void)s; (void)o; (void)n; $3 }
static long long step(struct latlab_step *s) { (void)s; $1 }
const struct latlab_plugin latlab_plugin = { LATLAB_PLUGIN_ABI, "evil", chk, setup, step, NULL };
EOC
	cc -I"$INCLUDE" -fPIC -shared -o evil.so evil.c
	write_config c.ini <<EOC
[campaign]
name = p
duration = 300ms
output = $WORK/out
[matrix]
workload = evil
affinity = 1
[workload.evil]
type = plugin
path = $WORK/evil.so
EOC
}

# step_plugin NAME STATEMENT [PRELUDE]: NAME.so, a plugin whose step does
# STATEMENT at its 51st period, PRELUDE (C) before its step
step_plugin() {
	cat >"$1.c" <<EOC
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "latlab/plugin.h"
${3:-}
static long long step(struct latlab_step *s) { static int n; (void)s; if (++n == 51) { $2; } return 0; }
const struct latlab_plugin latlab_plugin = { LATLAB_PLUGIN_ABI, "$1", NULL, NULL, step, NULL };
EOC
	cc -I"$INCLUDE" -fPIC -shared -o "$1.so" "$1.c"
}

# reason WORKLOAD: its first cell's workload, status and reason in cells.csv
reason() {
	grep "^$1 " <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { print $h["workload"] " " $h["status"] " " $h["reason"] }' "$WORK/out/p/cells.csv") | head -1
}

@test "plugin: what a plugin says is bounded — an unterminated why, a positive check(), an impossible byte count (issue 56: 09, 14)" {
	# check() fills why to its last byte with no NUL: cut there (under
	# SANITIZE=1 the read past it was a stack-buffer-overflow)
	evil_plugin 'return 0;' 'memset(why, 0x41, len); return -EINVAL;' 'return 0;'
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"plugin evil: $(printf 'A%.0s' $(seq 255))"* ]] || run_failed
	[[ "$output" != *"$(printf 'A%.0s' $(seq 256))"* ]] || run_failed
	# a positive value from check(): said, not "Unknown error -5"
	evil_plugin 'return 0;' 'return 5;' 'return 0;'
	run "$LATLAB" run c.ini -q
	[ "$status" -eq 2 ] || run_failed
	[[ "$output" == *"plugin evil: check() returned 5, not a negative errno"* ]] || run_failed
	# setup() fills s->why with no NUL: cut at its last byte
	evil_plugin 'return 0;' 'return 0;' 'memset(s->why, 0x42, sizeof(s->why)); return -EIO;'
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 3 ] || run_failed
	grep -q "plugin evil: $(printf 'B%.0s' $(seq 100))" "$WORK/out/p/cells.csv"
	! grep -q "$(printf 'B%.0s' $(seq 160))" "$WORK/out/p/cells.csv"
	# a step that says it moved LLONG_MAX bytes each period: an error of
	# each period, never a figure (the sum had wrapped to bytes -1000)
	rm -rf "$WORK/out"
	evil_plugin 'return 0x7fffffffffffffffLL;' 'return 0;' 'return 0;'
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 3 ] || run_failed
	c=$(cell_dir "$WORK/out/p" '0000-*')
	[ "$(col "$c/summary.csv" bytes | sort -u)" = 0 ]
	grep -qx 'status = error' "$c/cell.ini"
	grep -q 'Numerical result out of range' "$c/log.txt"
	# -4096, no errno: EINVAL
	rm -rf "$WORK/out"
	evil_plugin 'return -4096;' 'return 0;' 'return 0;'
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 3 ] || run_failed
	grep -q 'Invalid argument' "$(cell_dir "$WORK/out/p" '0000-*')/log.txt"
}

@test "plugin: a step that crashes, exits or blocks fails its cell with what happened, and the campaign goes on (issue 56: 06, 07, 08)" {
	step_plugin crash 'raise(SIGSEGV)'
	step_plugin quit 'exit(0)'
	step_plugin block 'pause()'
	write_config c.ini <<EOC
[campaign]
name = p
duration = 300ms
output = $WORK/out
[matrix]
workload = crash, quit, block, timer
affinity = 1
[workload.crash]
type = plugin
path = $WORK/crash.so
[workload.quit]
type = plugin
path = $WORK/quit.so
[workload.block]
type = plugin
path = $WORK/block.so
EOC
	run timeout 120 "$LATLAB" run c.ini -q
	[ "$status" -eq 1 ] || run_failed
	# (under SANITIZE=1 ASan's handler takes the SIGSEGV and exits 1 itself)
	if [[ "$LATLAB" == */san/* ]]; then
		[[ "$(reason crash)" == "crash fail the cell's process exited with status 1 before the cell ended (a plugin's exit()?)" ]] || { reason crash; false; }
	else
		[[ "$(reason crash)" == "crash fail the cell's process was killed by signal 11 (Segmentation fault) before the cell ended (a plugin's fault?)" ]] || { reason crash; false; }
	fi
	[[ "$(reason quit)" == "quit fail the cell's process exited with status 0 before the cell ended (a plugin's exit()?)" ]] || { reason quit; false; }
	[[ "$(reason block)" == "block fail the cell's code did not return within 15300ms (its duration and 15s): its process was killed (a plugin that blocks?)" ]] || { reason block; false; }
	[ "$(reason timer)" = "timer ok " ]
	grep -q '^status = fail$' "$(cell_dir "$WORK/out/p" '0000-*')/cell.ini"
	# run again: the failed cells are done, not run forever
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 1 ] || run_failed
	[ "$(grep -c ' = fail$' "$WORK/out/p/state")" -eq 3 ]
}

@test "plugin: what a step forks ends with its cell, an ordinary thread; a forged outcome before a crash is a crash; an orphan holding the outcome's pipe holds nothing (issue 70: host 01, 02, 03)" {
	PRELUDE=$(cat <<'EOP'
/* a child that says its pid and its policy (before its parent goes on), then sleeps past the cell */
static void child(const char *name)
{
	char tmp[512];

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	if (fork() == 0) {
		FILE *f = fopen(tmp, "w");

		fprintf(f, "%d %d\n", (int)getpid(), sched_getscheduler(0));
		fclose(f);
		rename(tmp, name);
		sleep(30);
		_exit(0);
	}
	for (int i = 0; i < 200 && access(name, F_OK) != 0; i++)
		usleep(10000);
}
/* "ok" written on every pipe this process may write: the outcome's, forged */
static void forge(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char p[64], l[64];

	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		ssize_t n;

		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		if (fd < 3 || (n = readlink(p, l, sizeof(l) - 1)) <= 0)
			continue;
		l[n] = 0;
		if (strncmp(l, "pipe:", 5) == 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY)
			dprintf(fd, "1\t0\t0\t-\tall fine\n");
	}
}
EOP
)
	step_plugin forker "child(\"$WORK/forker.pid\")" "$PRELUDE"
	step_plugin forkcrash "child(\"$WORK/forkcrash.pid\"); raise(SIGSEGV)" "$PRELUDE"
	step_plugin forge 'forge(); raise(SIGSEGV)' "$PRELUDE"
	write_config c.ini <<EOC
[campaign]
name = p
duration = 300ms
output = $WORK/out
[matrix]
workload = forker, forkcrash, forge, timer
affinity = 1
priority = 80
[workload.forker]
type = plugin
path = $WORK/forker.so
[workload.forkcrash]
type = plugin
path = $WORK/forkcrash.so
[workload.forge]
type = plugin
path = $WORK/forge.so
EOC
	SECONDS=0
	run timeout 60 "$LATLAB" run c.ini -q
	[ "$status" -eq 1 ] || run_failed
	# the sleeping orphan holding the outcome's pipe held latlab 30 s before
	[ "$SECONDS" -lt 20 ] || { echo "took $SECONDS s"; false; }
	[[ "$(reason forker)" == "forker fail the cell's code left 1 process running after the cell (forked by a plugin?): killed" ]] || { reason forker; false; }
	for w in forkcrash forge; do
		if [[ "$LATLAB" == */san/* ]]; then	# ASan's handler exits 1 itself
			[[ "$(reason $w)" == "$w fail the cell's process exited with status 1 before the cell ended (a plugin's exit()?)" ]] || { reason $w; false; }
		else
			[[ "$(reason $w)" == "$w fail the cell's process was killed by signal 11 (Segmentation fault) before the cell ended (a plugin's fault?)" ]] || { reason $w; false; }
		fi
	done
	[ "$(reason timer)" = "timer ok " ]
	# the children: started as ordinary threads (SCHED_RESET_ON_FORK: policy 0), none alive
	for f in forker forkcrash; do
		read -r pid policy <"$WORK/$f.pid"
		[ "$policy" -eq 0 ] || { echo "$f's child ran at policy $policy"; false; }
		[ ! -d "/proc/$pid" ] || { ps -o pid,cls,rtprio,ppid,cmd -p "$pid"; kill "$pid"; false; }
	done
}
