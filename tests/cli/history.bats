#!/usr/bin/env bats
# lane: third (tests/run.sh: where this file runs, and beside what)
# latlab history: the same rows across campaign trees.

load helper

# night NAME [WORKLOAD]: a campaign of 2 runs of 1 s (timer by default) into $WORK/out/NAME
night() {
	write_config "$1.ini" <<EOC
[campaign]
name = $1
duration = 1s
repeat = 2
output = $WORK/out
[matrix]
workload = ${2:-timer}
affinity = 1
EOC
	timeout 60 "$LATLAB" run "$WORK/$1.ini" -q
}

@test "history of three nights: the trend and the waterfall per row, the trees listed, a tree without the rows named" {
	night n1 && night n2 && night n3 && night odd null
	run timeout 120 "$LATLAB" history "$WORK/out/n3" "$WORK/out/n1" "$WORK/out/odd" "$WORK/out/n2" -o "$WORK/h"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"$WORK/out/odd (campaign odd) has none of the rows the other trees share: left out"* ]] || { echo "$output"; false; }
	[[ "$output" == *"$WORK/h/index.html: 1 rows over 3 points from 4 trees"* ]]
	C="$WORK/h/history.csv"
	[ "$(head -1 "$C")" = "$(row_columns),point,tree,kernel,host,kernel_release,started,n,max_median_ns,max_lo_ns,max_hi_ns,p99.99_median_ns,metric" ]
	[ "$(col "$C" metric | sort -u)" = wakeup ]
	# in campaign time order, whatever the order given
	[ "$(col "$C" tree | tr '\n' ' ')" = "$WORK/out/n1 $WORK/out/n2 $WORK/out/n3 " ]
	[ "$(col "$C" n | sort -u)" = 2 ]
	# each point's numbers are its tree's: the runs' maxima, their median and range
	for t in n1 n2 n3; do
		read -r a b <<<"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["metric"] == "wakeup" { print $c["max_ns"] }' "$WORK/out/$t/cells.csv" | sort -n | tr '\n' ' ')"
		line=$(grep ",$WORK/out/$t," "$C")
		[[ "$line" == *",2,$(( (a + b) / 2 )),$a,$b,"* ]] || [[ "$line" == *",2,$(( (a + b + 1) / 2 )),$a,$b,"* ]] ||
			{ echo "$t: maxima $a $b; $line"; false; }
	done
	for f in trend-0 waterfall-0; do
		[ "$(head -c 8 "$WORK/h/fig/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "$f.png"; false; }
		grep -q '<svg' "$WORK/h/fig/$f.svg"
	done
	[ ! -e "$WORK/h/fig/trend-1.png" ]
	H="$WORK/h/index.html"
	grep -q "<li>n1 running@$(hostname):$(uname -r) " "$H"
	grep -q "has none of the rows the other trees share: left out" "$H"
	grep -q '<img src="fig/waterfall-0.svg"' "$H"
	# by kernel release: one release here, so campaign time decides
	run timeout 120 "$LATLAB" history "$WORK/out/n3" "$WORK/out/n1" -o "$WORK/h2" --by release --jobs 1
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(col "$WORK/h2/history.csv" tree | tr '\n' ' ')" = "$WORK/out/n1 $WORK/out/n3 " ]
}

@test "history: one tree, trees that share no row, not a tree, bad options: exit 2" {
	night n1 && night odd null
	run "$LATLAB" history "$WORK/out/n1" -o "$WORK/h"
	[ "$status" -eq 2 ] && [[ "$output" == *"history needs two trees or more"* ]] || { echo "$output"; false; }
	run "$LATLAB" history "$WORK/out/n1" "$WORK/out/odd" -o "$WORK/h"
	[ "$status" -eq 2 ] && [[ "$output" == *"no row (the same $(row_words)) was measured in two of these trees"* ]] || { echo "$output"; false; }
	[ ! -e "$WORK/h/index.html" ]
	run "$LATLAB" history "$WORK/out/n1" "$WORK"
	[ "$status" -eq 2 ] && [[ "$output" == *"(not a latlab results directory)"* ]]
	run "$LATLAB" history "$WORK/out/n1" "$WORK/out/n1" --by size
	[ "$status" -eq 2 ] && [[ "$output" == *"--by: 'size' is not time or release"* ]]
	run "$LATLAB" history
	[ "$status" -eq 2 ]
}
