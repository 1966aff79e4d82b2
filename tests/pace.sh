# shellcheck shell=bash
# Sourced by tests/run.sh and tests/cli/helper.bash.
#
# paced SECONDS: a bound for a hang, stretched by how little CPU the host
# gives now: a busy loop of our own for 1 s, and SECONDS times the share
# of a CPU it did not get back (1 to 4 times: a guest under TCG ran 3
# times slower beside a CPU hog and hackbench, and a fixed 900 s bound
# called its 640 s a hang)
paced() {
	local pid ticks hz
	sh -c 'while :; do :; done' &
	pid=$!
	sleep 1
	ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	hz=$(getconf CLK_TCK)
	awk -v s="$1" -v t="${ticks:-0}" -v hz="$hz" 'BEGIN {
		share = t / hz; f = share > 0 ? 0.9 / share : 4
		if (f < 1) f = 1; if (f > 4) f = 4
		printf "%d\n", s * f }'
}
