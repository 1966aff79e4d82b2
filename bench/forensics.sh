#!/usr/bin/env bash
# Spike forensics against causes injected on purpose: for each cause,
# what [trace] mode = spikes labels its captures — the confusion table
# (cause x culprit_kind) of docs/spikes.md.
#
# A SCHED_FIFO 80 thread on CPU 1 (1 ms), REPEAT runs of DURATION each,
# up to 3 captures a run above THRESHOLD, with on the same CPU:
#   quiet        nothing: what this machine does alone (a VM: its stalls)
#   fifo-above   an rt-hog at FIFO 95 busy 3 ms every 100 ms   -> rt-thread
#   fifo-equal   an rt-hog at FIFO 80 (the thread's own) busy 3 ms -> rt-thread
#   kernel-work  a SCHED_OTHER loop writing /proc/sys/vm/drop_caches
#                                  -> blocking (a gap where interrupts were off)
#   softirq      a loopback UDP flood (the net load)              -> softirq
#   stall        a qemu guest (Debian's stock kernel, TCG) whose qemu is
#                stopped for STALL every 700 ms with SIGSTOP and SIGCONT:
#                a stall the guest cannot see              -> unexplained
#                (needs KERNELS=DIR with vmlinuz-stock: make kernels)
# and in a qemu guest on the instruction-counted clock (clock = icount, one
# vCPU, the thread on CPU 0, threshold 40 us: the guest's own floor is
# 5-18 us and nothing of the host reaches it), the same loops as above:
#   kwork-none   kernel-work in Debian's stock kernel at preempt=none
#                                                            -> blocking
#   kwork-rt     kernel-work in Debian's rt kernel    -> nothing above 40 us
#   net-none     the net load at preempt=none (the sender's own kernel
#                path and the NET_RX softirq it runs)
#   storm-none   the softirq load (keepalive probes of 1024 loopback TCP
#                connections expiring together, a batch of 256 every 250 ms:
#                a TIMER softirq longer than the period, which meets a
#                wake-up whatever its phase to the tick) at preempt=none:
#                TIMER and NET_RX in interrupt context         -> softirq
#   storm-rt     the same in Debian's rt kernel (softirqs in threads)
#                                                 -> nothing above 40 us
# and, where bench/inject/build.sh builds its test module for the guests'
# kernels (Debian's linux-headers, installed where missing), a writer
# looping on /proc/latlab_inject (bench/inject/latlab_inject.c):
#   poff-full    300 us sections with preemption off in the writer's
#                system call, stock kernel at preempt=full    -> blocking
#   poff-rt      the same in Debian's rt kernel: PREEMPT_RT cannot preempt
#                a preempt_disable() either                  -> blocking
#   irq-full     an irq_work whose handler spins 300 us in hard interrupt
#                context, stock kernel at preempt=full              -> irq
#   flood-full   a flood of hard interrupts for 300 us: 60 back to back,
#                5 us of handler each, stock kernel at preempt=full -> irq
# A capture counts for the label of its culprit (the largest part).
#
#   bench/forensics.sh   (LATLAB=build/latlab REPEAT=3 DURATION=3s THRESHOLD=1ms STALL=0.04)
#   CAUSES="storm-none storm-rt" bench/forensics.sh   only those rows
#   METHOD=bpf bench/forensics.sh   the captures by BPF's flight recorder
#                                   ([trace] method; tracefs by default)
#   METHOD=bpf RECORDER=lean bench/forensics.sh   its lean set ([trace] recorder)
set -eu
cd "$(dirname "$0")/.."
LATLAB=${LATLAB:-$PWD/build/latlab}
REPEAT=${REPEAT:-3}
DURATION=${DURATION:-3s}
THRESHOLD=${THRESHOLD:-1ms}
STALL=${STALL:-0.04}
METHOD=${METHOD:-tracefs}
RECORDER=${RECORDER:-full}
KERNELS=${KERNELS:-$PWD/kernels}
[ "$(id -u)" -eq 0 ] || { echo "needs root for SCHED_FIFO and tracefs" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (the measured one is CPU 1)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/latlab-forensics.XXXXXX)
stopper=
trap '[ -n "$stopper" ] && kill "$stopper" 2>/dev/null; rm -rf "$tmp"' EXIT
labels="timer irq softirq nmi rt-thread blocking unexplained return incomplete"

# config NAME LOAD-LINES...: a campaign of the measured thread and one load
config() {
	local name=$1
	shift
	cat >"$tmp/$name.ini" <<EOC
[campaign]
name = $name
duration = $DURATION
repeat = $REPEAT
output = $tmp/out
[matrix]
affinity = 1
priority = 80
load = l
[thresholds]
missed = off
[trace]
mode = spikes
method = $METHOD
$([ "$RECORDER" = full ] || echo "recorder = $RECORDER")
threshold = $THRESHOLD
captures = 3
[load.l]
EOC
	printf '%s\n' "$@" >>"$tmp/$name.ini"
}

config quiet "type = none"
config fifo-above "type = rt-hog" "cpus = 1" "priority = 95" "busy = 3ms" "every = 100ms"
config fifo-equal "type = rt-hog" "cpus = 1" "priority = 80" "busy = 3ms" "every = 100ms"
config kernel-work "type = external" "cpus = 1" \
	'command = /bin/sh -c "while :; do echo 1 > /proc/sys/vm/drop_caches; done"'
config softirq "type = net" "cpus = 1" "size = 32KiB"
causes="quiet fifo-above fifo-equal kernel-work softirq"

if [ -s "$KERNELS/vmlinuz-stock" ] && [ -s "$KERNELS/vmlinuz-rt" ]; then
	config stall "type = none"
	sed -i 's/^affinity = 1/affinity = 0/; s/^threshold = .*/threshold = 15ms/' "$tmp/stall.ini"
	printf '[matrix]\nkernel = stock\n[kernel.stock]\nrunner = qemu\nimage = %s\naccel = tcg\nboot_timeout = 120s\n' \
		"$KERNELS/vmlinuz-stock" >>"$tmp/stall.ini"
	causes="$causes stall"
	# guest_cause NAME IMAGE APPEND LOAD-LINES...: the cause in a guest on
	# the instruction clock
	guest_cause() {
		local name=$1 image=$2 append=$3
		shift 3
		config "$name" "$@"
		sed -i 's/^affinity = 1/affinity = 0/; s/^threshold = .*/threshold = 40us/; s/^cpus = 1$/cpus = 0/' "$tmp/$name.ini"
		printf '[matrix]\nkernel = k\n[kernel.k]\nrunner = qemu\nimage = %s\nclock = icount\nboot_timeout = 120s\n%s\n' \
			"$KERNELS/$image" "$append" >>"$tmp/$name.ini"
	}
	kwork='command = /bin/sh -c "while :; do echo 3 > /proc/sys/vm/drop_caches; cat /proc/kallsyms > /dev/null; done"'
	guest_cause kwork-none vmlinuz-stock "append = preempt=none" "type = external" "cpus = 1" "$kwork"
	guest_cause kwork-rt vmlinuz-rt "" "type = external" "cpus = 1" "$kwork"
	guest_cause net-none vmlinuz-stock "append = preempt=none" "type = net" "cpus = 1" "size = 32KiB"
	storm=("type = softirq" "cpus = 1" "connections = 1024" "every = 250ms")
	guest_cause storm-none vmlinuz-stock "append = preempt=none" "${storm[@]}"
	guest_cause storm-rt vmlinuz-rt "" "${storm[@]}"
	causes="$causes kwork-none kwork-rt net-none storm-none storm-rt"
	# the test module, built for each guest kernel (kernels/versions)
	release() { awk -v v="$1" '$1 == v { sub(/^linux-image-/, "", $2); print $2 }' "$KERNELS/versions"; }
	if ko_stock=$(bench/inject/build.sh "$(release stock)") && ko_rt=$(bench/inject/build.sh "$(release rt)"); then
		inject() { echo "command = /bin/sh -c \"while :; do echo '$1' > /proc/latlab_inject; done\""; }
		full=$(printf 'append = preempt=full\nmodules = %s' "$ko_stock")
		guest_cause poff-full vmlinuz-stock "$full" "type = external" "cpus = 1" "$(inject 'preempt 300')"
		guest_cause poff-rt vmlinuz-rt "modules = $ko_rt" "type = external" "cpus = 1" "$(inject 'preempt 300')"
		guest_cause irq-full vmlinuz-stock "$full" "type = external" "cpus = 1" "$(inject 'irq 300')"
		guest_cause flood-full vmlinuz-stock "$full" "type = external" "cpus = 1" "$(inject 'flood 300')"
		causes="$causes poff-full poff-rt irq-full flood-full"
	else
		echo "bench/inject/build.sh built no test module for the guests' kernels: the poff and irq rows are left out" >&2
	fi
else
	echo "no $KERNELS/vmlinuz-stock and vmlinuz-rt (make kernels): the guest causes are left out" >&2
fi

# qemu_of PID: the qemu process among PID's descendants (ours, by pid, never by name alone)
qemu_of() {
	local kids k
	kids=$(ps -o pid= --ppid "$1" 2>/dev/null) || return 0
	for k in $kids; do
		case "$(cat "/proc/$k/comm" 2>/dev/null)" in qemu*) echo "$k"; return 0 ;; esac
		qemu_of "$k"
	done
}

# stop_loop PID: while PID runs, stop its qemu for STALL seconds every 0.7 s
stop_loop() {
	while kill -0 "$1" 2>/dev/null; do
		q=$(qemu_of "$1" | head -1)
		if [ -n "$q" ]; then
			kill -STOP "$q" 2>/dev/null && sleep "$STALL"
			kill -CONT "$q" 2>/dev/null || true
		fi
		sleep 0.7
	done
}

# CAUSES: a subset of the rows, in their order
if [ -n "${CAUSES:-}" ]; then
	for c in $CAUSES; do
		[[ " $causes " == *" $c "* ]] || { echo "CAUSES: no cause '$c' here (these are: $causes)" >&2; exit 2; }
	done
	causes=$CAUSES
fi

echo "# [trace] method = $METHOD, recorder = $RECORDER; REPEAT=$REPEAT runs of $DURATION a cause, up to 3 captures a run"
printf '%-12s' cause
for l in $labels; do printf ' %11s' "$l"; done
printf '  captures\n'
for c in $causes; do
	if [ "$c" = stall ]; then
		"$LATLAB" run "$tmp/$c.ini" -q >"$tmp/$c.log" 2>&1 &
		run=$!
		stop_loop "$run" &
		stopper=$!
		wait "$run" || true
		kill "$stopper" 2>/dev/null || true
		wait "$stopper" 2>/dev/null || true
		stopper=
	else
		"$LATLAB" run "$tmp/$c.ini" -q >"$tmp/$c.log" 2>&1 || true
	fi
	cat "$tmp"/out/"$c"/*/*/*/spikes.csv 2>/dev/null |
		awk -F, -v labels="$labels" -v cause="$c" '
			$1 == "capture" { for (i = 1; i <= NF; i++) h[$i] = i; next }
			{ n++; k[$h["culprit_kind"]]++ }
			END { printf "%-12s", cause; m = split(labels, L, " ")
			      for (i = 1; i <= m; i++) printf " %11d", k[L[i]]; printf "  %d\n", n }'
done
