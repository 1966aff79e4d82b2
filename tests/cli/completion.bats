#!/usr/bin/env bats
# lane: readers (tests/run.sh: where this file runs, and beside what)
# Bash completion (completions/latlab, installed by make install and the
# package): the words bash would split are given to the completion
# function as bash gives them, and what it offers is checked — commands,
# a command's options from its usage line, --set's keys and a key's fixed
# values, --axis and --metric, configs, result trees and cell directories.

load helper

COMPLETION=$BATS_TEST_DIRNAME/../../completions/latlab

# offer WORD...: what completing the last word offers, one per line, sorted
offer() {
	COMP_WORDS=("$LATLAB" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_latlab
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

setup() {
	: "${LATLAB:?}"
	WORK=$(mktemp -d /tmp/latlab-bats.XXXXXX)
	cd "$WORK" || return 1
	# shellcheck source=/dev/null
	source "$COMPLETION"
}

@test "completion: commands, a command's options, --set keys and values, --axis, --metric" {
	[ "$(offer c)" = "compare" ]
	[[ "$(offer '')" == *"history"*"hwlat"*"run"* ]]
	# the help's last line ("latlab help COMMAND shows ...") is no command
	! grep -qw latlab <<<"$(offer '')"
	[ "$(offer --v)" = "--version" ]
	run offer compare --
	[[ "$output" == *"--axis"* && "$output" == *"--baseline"* && "$output" == *"--deadline"* && "$output" == *"--margin"* ]] || { echo "$output"; false; }
	[[ "$(offer run c.ini --re)" == "--reboot"*"--restart" ]]
	# --set: SECTION.KEY= from latlab list, then the key's fixed values
	[[ "$(offer run c.ini --set matrix.wa)" == "matrix.wakeup=" ]]
	[[ "$(offer run c.ini --set campaign.hou)" == "campaign.housekeeping=" ]]
	# as bash splits at '=' (the default COMP_WORDBREAKS) and as it does not
	[ "$(offer run c.ini --set matrix.isolation = '' | tr '\n' ' ')" = "cpuset cpuset+irqs none " ]
	[ "$(offer run c.ini --set matrix.wakeup = p | tr '\n' ' ')" = "poll posix-timer pselect " ]
	[ "$(offer run c.ini --set matrix.clock=t)" = "matrix.clock=tai" ]
	[ "$(offer run c.ini --set matrix.idle = '' | tr '\n' ' ')" = "any deepest: poll " ]
	# a key without a fixed list offers nothing
	[ -z "$(offer run c.ini --set matrix.interval = '')" ]
	[[ "$(offer compare t --axis is)" == "isolation" ]]
	[[ "$(offer compare t --axis h)" == "host" ]]
	[ "$(offer report t --metric wakeup_c)" = "wakeup_corrected" ]
	[ "$(offer export --format c | tr '\n' ' ')" = "csv cyclictest " ]
}

@test "completion: configs for run, result trees for the readers, cell directories for export" {
	mkdir -p res/quick/vm/6.1/0000-cell conf
	: >res/quick/cells.csv
	: >res/quick/vm/6.1/0000-cell/cell.ini
	: >conf/quick.ini
	: >conf/notes.txt
	[ "$(offer run conf/)" = "conf/quick.ini" ]
	[ "$(offer report res/)" = "res/quick" ]
	[ "$(offer compare res/q)" = "res/quick" ]
	[ "$(offer export --format csv res/quick/vm/6.1/)" = "res/quick/vm/6.1/0000-cell" ]
	# a directory that is not a tree: to descend into
	[ "$(offer report re)" = "res/" ]
	# names are names: never split at a blank nor globbed (issue 56: 11);
	# readline quotes them (-o filenames)
	mkdir -p "my tree" "*" "x"
	: >"my tree/cells.csv"
	: >"*/cells.csv"
	[ "$(offer report my)" = "my tree" ]
	[ "$(offer report '*')" = "*" ]
	[ "$(offer report '')" = "$(printf '%s\n' '*' conf/ 'my tree' res/ x/ | sort)" ]
	mkdir "a b.d"
	: >"a b.d/c d.ini"
	[ "$(offer run 'a b.d/')" = "a b.d/c d.ini" ]
}
