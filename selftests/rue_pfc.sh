#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Priority queues and 802.1Qbb PFC (Documentation/congestion.md): the
# per-priority counters; PFC frames crafted by pfc_inject pause exactly
# their priority, for quanta x 512 bit times at the link speed, while
# another priority keeps flowing, and the paused flow loses nothing;
# malformed frames and frames for priorities without PFC are counted and
# ignored, and so is each of 2000 random ones (pfc_inject --fuzz); strict priority and ETS share a shaped link as configured; a
# slow receiver (its backlog work at nice 19 against busy-polling
# perftest) sends XOFF and XON and the sender stops without a drop; a
# device deleted while paused with packets queued frees them.
#
#   ns A: l0 10.16.0.1 (rue rl0) <--veth--> l1 10.16.0.2 (rue rl1) :ns B
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip tc ib_write_bw chrt timeout setpriv

RUECTL=$RUE_BUILD/userspace/ruectl/ruectl
PFC=$RUE_BUILD/userspace/wire/pfc_inject

# 65535 quanta of 512 bit times at veth's 10 Gb/s
QUANTA_MAX_US=3355

g4() { gid_index_of "$1" "$2"; }

t_setup() {
	rue_install_module && modprobe rue || return 1
	[ -x "$RUECTL" ] || { echo "ruectl is not built"; return 1; }
	[ -x "$PFC" ] || { echo "pfc_inject is not built"; return 1; }
	ns_pair_setup -d l0,l1 -4 10.16.0.1,10.16.0.2 -l rl0,rl1 -g -p
}

declare -A before
snap() {
	local d c
	for d in rl0 rl1; do
		for c in "$@"; do
			before[$d.$c]=$(rue_stat $d "$c")
		done
	done
}
moved() { echo $(($(rue_stat "$1" "$2") - ${before[$1.$2]})); }

# inject ARGS...: PFC frames from B's end of the veth to A's device.
inject() { ip netns exec "$B" "$PFC" -i l1 "$@" >/dev/null; }

t_counters() {
	local c p bad=0
	for p in 0 3 7; do
		for c in tx_prio${p}_packets tx_prio${p}_bytes tx_prio${p}_discards \
			 rx_prio${p}_discards rx_prio${p}_pause \
			 rx_prio${p}_pause_duration tx_prio${p}_pause; do
			[ -n "$(rue_stat rl0 "$c")" ] || { echo "no counter $c"; bad=1; }
		done
	done
	for c in rx_pfc_malformed rx_pfc_ignored rx_pause_transition; do
		[ -n "$(rue_stat rl0 $c)" ] || { echo "no counter $c"; bad=1; }
	done
	return $bad
}

t_defaults() {
	local out
	out=$("$RUECTL" -j cc show rl0) || return 1
	echo "$out" | grep -q '"ets-tsa":\["strict","strict","strict","strict","strict","strict","strict","strict"\]' &&
	echo "$out" | grep -q '"pfc-enable":\[\]' &&
	echo "$out" | grep -q '"pfc-xoff":0' &&
	echo "$out" | grep -q '"pfc-quanta":65535' &&
	echo "$out" | grep -q '"pfc-paused":\[\]' || { echo "$out"; return 1; }
}

# flow PORT TCLASS SECONDS [ARGS]: a write_bw (or $FLOW) from A to B in the background
# (its exit status in $RUE_OUT/flow.PORT).
flow() {
	local port=$1 tc=$2 secs=$3 len
	shift 3
	rm -f "$RUE_OUT/flow.$port"
	# N or nCOUNT: -D N seconds or -n COUNT iterations (timeout 60 s more)
	if [ "${secs#n}" != "$secs" ]; then
		len="-n ${secs#n}"
		secs=60
	else
		len="-D $secs"
	fi
	(
		ip netns exec "$B" timeout $((secs + 60)) "${FLOW:-ib_write_bw}" -d rl1 \
			-x "$(g4 rl1 10.16.0.2)" -p "$port" --tclass="$tc" -F $len \
			-u 20 "$@" >"$RUE_OUT/flow.$port.srv" 2>&1 &
		spid=$!
		busywait 10000 listening "$B" "$port"
		ip netns exec "$A" timeout $((secs + 60)) "${FLOW:-ib_write_bw}" -d rl0 \
			-x "$(g4 rl0 10.16.0.1)" -p "$port" --tclass="$tc" -F $len \
			-u 20 "$@" 10.16.0.2 >"$RUE_OUT/flow.$port.cli" 2>&1
		rc=$?
		wait $spid || rc=1
		echo $rc >"$RUE_OUT/flow.$port"
	) &
}
flow_ok() {
	[ "$(cat "$RUE_OUT/flow.$1" 2>/dev/null)" = 0 ] && return 0
	echo "flow $1 failed:"; tail -n 5 "$RUE_OUT/flow.$1.srv" "$RUE_OUT/flow.$1.cli"
	return 1
}
mbps() { awk '/^ *65536/ { print int($4 * 8) }' "$RUE_OUT/flow.$1.cli"; }

# tclass 96 = DSCP 24 = priority 3; 160 = DSCP 40 = priority 5
t_prio_counters() {
	snap tx_prio3_packets tx_prio3_bytes tx_prio6_packets tx_prio0_packets
	flow 18515 96 2
	wait
	flow_ok 18515 || return 1
	echo "rl0 prio3 $(moved rl0 tx_prio3_packets) packets $(moved rl0 tx_prio3_bytes) bytes," \
	     "prio0 $(moved rl0 tx_prio0_packets); rl1 ACKs on prio6 $(moved rl1 tx_prio6_packets)"
	[ "$(moved rl0 tx_prio3_packets)" -gt 100 ] &&
	[ "$(moved rl0 tx_prio3_bytes)" -gt 100000 ] &&
	[ "$(moved rl1 tx_prio6_packets)" -gt 0 ]
}

# One frame pauses for its quanta at the link speed, and no less.
t_pause_time() {
	local d1 d2
	"$RUECTL" cc set rl0 pfc-enable 3 || return 1
	snap rx_prio3_pause rx_prio3_pause_duration rx_pause_transition
	inject --prio 3=65535 || return 1
	sleep 0.3
	d1=$(moved rl0 rx_prio3_pause_duration)
	[ "$(moved rl0 rx_pause_transition)" = 1 ] || { echo "no transition"; return 1; }
	snap rx_prio3_pause rx_prio3_pause_duration
	inject --prio 3=1000 || return 1
	sleep 0.3
	d2=$(moved rl0 rx_prio3_pause_duration)
	echo "65535 quanta paused $d1 us (expect >= $QUANTA_MAX_US); 1000 quanta $d2 us (>= 51)"
	[ "$d1" -ge $QUANTA_MAX_US ] && [ "$d1" -lt $((QUANTA_MAX_US + 50000)) ] &&
	[ "$d2" -ge 51 ] && [ "$d2" -lt 50000 ] &&
	[ "$(moved rl0 rx_prio3_pause)" = 1 ]
}

# XOFF refreshed every 0.5 ms for 3 s holds priority 3 while priority 5
# flows, and the held flow loses nothing.  The flows busy-poll, and the
# guest's softirq (where PFC frames are read) then sometimes runs late,
# after a 3.4 ms pause has run out, or drops frames from its full
# backlog (a NIC reads them in hardware); the queued packets then
# rightly go.  So the counters are sampled about every 10 ms, and
# priority 3 is judged in the intervals it was paused all through: the
# pause time grew before the interval (paused then) and no pause ended
# from the sample before to the end of the one after.  There priority 3
# must send nothing (a few packets already being sent as a pause starts
# are allowed for) while priority 5 flows.
#
# Samples come from sysfs without a fork (a fork costs up to 0.5 s in
# this busy guest); with under 100 ms of such intervals (the guest
# could not hold a pause) the case is skipped.  A sysfs read may return
# the core's cached snapshot (10 ms), never an older one than the read
# before it, so each sample reads the transition count first and last,
# the pause time before the packet counts: each condition above then
# holds in snapshot time.
hw() { read -r "$1" </sys/class/infiniband/rl0/ports/1/hw_counters/"$2"; }
# moved_past PRIO UNIT N: tx_prioPRIO_UNIT grew by more than N since
# $basePRIO (the caller's)
moved_past() {
	local v base
	hw v "tx_prio$1_$2"
	eval "base=\$base$1"
	[ $((v - base)) -gt "$3" ]
}
# veth_drops NS DEV: what DEV's veth dropped on transmit (its peer's
# backlog was full)
veth_drops() {
	ip -n "$1" -s -j link show "$2" | grep -o '"tx":{[^}]*' | grep -o '"dropped":[0-9]*'
}
# softnet_drops: packets the CPUs' input backlogs dropped, all CPUs
softnet_drops() {
	local line f n=0
	while read -r line; do
		f=${line#* }
		n=$((n + 16#${f%% *}))
	done </proc/net/softnet_stat
	echo $n
}

# rt_ksoftirqd PRIO: the ksoftirqd threads at SCHED_FIFO PRIO, or back
# to SCHED_OTHER for 0
rt_ksoftirqd() {
	local pid
	for pid in $(pgrep '^ksoftirqd/'); do
		if [ "$1" = 0 ]; then
			chrt -o -p 0 "$pid"
		else
			chrt -f -p "$1" "$pid"
		fi
	done
}

# The flows outlast the injection, which the sampling ends after
# ISO_SECS: a busy guest sends the frames late, in bursts, and once took
# 13 s for 3 s of them, beyond the flows' end.
ISO_SECS=6
t_pause_isolation() {
	local rc=0 n ipid res ta d p3 p5 tb nap base3 base5 drops0 drops1 sn end disc
	# ETS between the two: under strict priority a busy priority 5 may
	# starve priority 3 after a pause, which is not what is tested here
	"$RUECTL" cc set rl0 pfc-enable 3 ets-tsa 3:ets,5:ets \
		ets-weight 3:50,5:50 || return 1
	snap rx_prio3_pause rx_prio3_pause_duration rx_pause_transition \
	     retransmits tx_prio3_discards local_ack_timeout_err \
	     out_of_sequence_nak_sent duplicate_requests rx_drop_icrc
	snap_recovery
	drops0=$(veth_drops "$A" l0); drops1=$(veth_drops "$B" l1)
	sn=$(softnet_drops)
	hw base3 tx_prio3_packets; hw base5 tx_prio5_packets
	flow 18515 96 $((ISO_SECS + 14))
	flow 18516 160 $((ISO_SECS + 14))
	busywait 15000 eval "moved_past 3 packets 500 && moved_past 5 packets 500" ||
		{ echo "the flows did not start"; rc=1; }
	# A link partner's frames take effect at once; here each one is
	# taken in by a softirq, which the injector's send runs for at most
	# 2 ms and ksoftirqd afterwards, against the flows at nice 0: that
	# came so late that the pause kept ending.  So ksoftirqd runs at the
	# injector's real-time priority while it sends.
	rt_ksoftirqd 50
	ip netns exec "$B" chrt -f 60 "$PFC" -i l1 --prio 3=65535 --count 100000 \
		--interval-us 500 >"$RUE_OUT/inject.out" 2>&1 &
	ipid=$!
	end=$((${EPOCHREALTIME//[!0-9]/} + ISO_SECS * 1000000))
	exec {nap}<> <(:)		# read -t on it sleeps without a fork
	# the sampler too runs real-time, between ksoftirqd and the
	# injector: at nice 0 it was held off for up to 1.2 s at a time
	chrt -f -p 55 $BASHPID || rc=1
	while running $ipid && [ "${EPOCHREALTIME//[!0-9]/}" -lt $end ]; do
		hw ta rx_pause_transition; hw d rx_prio3_pause_duration
		hw p3 tx_prio3_packets; hw p5 tx_prio5_packets
		hw tb rx_pause_transition
		echo "$ta $d $p3 $p5 $tb $EPOCHREALTIME"
		read -r -t 0.005 -u $nap
	done >"$RUE_OUT/samples"
	chrt -o -p 0 $BASHPID
	exec {nap}>&-
	running $ipid || { echo "the injector ended early"; rc=1; }
	kill $ipid 2>/dev/null
	wait $ipid
	rt_ksoftirqd 0
	# Discards are judged while the flows run: at their end perftest
	# destroys its QP with packets still queued for the charge bound,
	# and those are rightly dropped and counted too (txq.c, Owners)
	disc=$(moved rl0 tx_prio3_discards)
	wait
	"$RUECTL" cc set rl0 ets-tsa 0-7:strict || rc=1
	flow_ok 18515 || rc=1
	flow_ok 18516 || rc=1
	# From the samples: "p3 p5 us clean intervals transitions" in the
	# intervals paused all through; what priority 3 sent in all and
	# priority 5 in the last second; the longest time priority 5 sent
	# nothing (ms, and when: ms after the first sample).  "The last
	# second" runs from the last sample a second or more before the end
	# (its length is printed): counted from the first sample inside it,
	# a stall of the sampler before the last one left nothing to count.
	res=$(awk '
		{ key = $1 " " $2 " " $3 " " $4 " " $5 }
		key == last { next }	# the same cached snapshot
		{ last = key; n++; ta[n] = $1; d[n] = $2; p3[n] = $3; p5[n] = $4; tb[n] = $5; t[n] = $6 }
		END {
			for (i = 2; i + 1 <= n; i++)
				if (d[i] > d[i - 1] && tb[i + 1] == ta[i - 1]) {
					c3 += p3[i + 1] - p3[i]; c5 += p5[i + 1] - p5[i]
					us += d[i + 1] - d[i]; k++
				}
			# intervals at least 90% paused (a busy guest lets
			# the pause lapse for a moment many times a second)
			for (i = 1; i < n; i++)
				if (d[i + 1] - d[i] >= 0.9e6 * (t[i + 1] - t[i])) {
					m3 += p3[i + 1] - p3[i]; m5 += p5[i + 1] - p5[i]
					mus += d[i + 1] - d[i]
				}
			for (i = n; i > 1 && t[n] - t[i] < 1; i--)
				;
			j = 1
			for (m = 2; m <= n; m++) {
				if (p5[m] == p5[j])
					continue
				if (t[m] - t[j] > gap) { gap = t[m] - t[j]; at = t[j] - t[1] }
				j = m
			}
			if (t[n] - t[j] > gap) { gap = t[n] - t[j]; at = t[j] - t[1] }
			printf "%d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", c3, c5, us,
			       k, n - 1, tb[n] - ta[1], p3[n] - p3[1],
			       p5[n] - p5[i], gap * 1000, at * 1000, m3, m5, mus,
			       (t[n] - t[i]) * 1000
		}' "$RUE_OUT/samples")
	set -- $res
	n=$(moved rl0 rx_prio3_pause)
	echo "paused all through: $4 of $5 intervals, $3 us: prio3 sent $1, prio5 $2;" \
	     "at least 90% paused: ${13} us, prio3 sent ${11}, prio5 ${12};" \
	     "pauses ended while sampled $6; prio3 sent $7 in all, prio5 ${8}" \
	     "in the last second (${14} ms), nothing for $9 ms at most (from ${10} ms);" \
	     "$n frames read, paused $(moved rl0 rx_prio3_pause_duration) us" \
	     "in all, ended $(moved rl0 rx_pause_transition);" \
	     "retransmits $(moved rl0 retransmits) (timeouts $(moved rl0 local_ack_timeout_err)," \
	     "sequence NAKs $(moved rl1 out_of_sequence_nak_sent), duplicates" \
	     "$(moved rl1 duplicate_requests)), discards $disc while the flows ran" \
	     "($(moved rl0 tx_prio3_discards) with their QPs' destruction)," \
	     "ICRC errors $(moved rl1 rx_drop_icrc)"
	# where a packet could have gone: the devices' drop and recovery
	# counters, the veths' and the input backlogs' drops
	moved_recovery
	echo "veth l0 drops before $drops0 after $(veth_drops "$A" l0)," \
	     "l1 before $drops1 after $(veth_drops "$B" l1);" \
	     "backlog drops $(($(softnet_drops) - sn))"
	# Both flows complete and run all through the sampling; priority 3
	# sends when not paused; nothing is discarded, and nothing goes out
	# that does not match its ICRC (a resend lending memory the
	# consumer had back, or a destroyed QP's packets: txq.c, owners).
	[ $rc = 0 ] && [ $# = 14 ] &&
	[ "$n" -gt 100 ] && [ "$(moved rl0 rx_pause_transition)" -ge 1 ] &&
	[ "$7" -gt 100 ] && [ "$8" -gt 100 ] &&
	[ "$disc" = 0 ] && [ "$(moved rl1 rx_drop_icrc)" = 0 ] || return 1
	# Too little pause to judge is the guest's, not a failure.  Paused
	# all through, priority 3 sends nothing; mostly paused, what it
	# sends in the lapses stays far below priority 5 (ETS 50:50 gives
	# them equal shares when nothing is paused).
	if [ "$3" -lt 100000 ] && [ "${13}" -lt 500000 ]; then
		echo "under 100 ms paused all through, 500 ms 90% paused: not judged"
		return "$ksft_skip"
	fi
	if [ "$3" -ge 100000 ]; then
		[ "$2" -gt 100 ] && [ "$1" -le $(($2 / 100 + 16)) ] || return 1
	fi
	[ "${13}" -lt 500000 ] ||
		{ [ "${12}" -gt 100 ] && [ "${11}" -le $((${12} / 4 + 16)) ]; }
}

t_ignored() {
	local rc=0
	"$RUECTL" cc set rl0 pfc-enable 3 || return 1
	snap rx_pfc_ignored rx_pfc_malformed rx_prio2_pause rx_prio3_pause \
	     rx_prio2_pause_duration
	inject --prio 2=65535 || rc=1			# PFC off for 2: ignored
	inject --opcode 0x0001 --prio 3=100 || rc=1	# 802.3x PAUSE: ignored
	inject --truncate 30 --prio 3=100 || rc=1	# runt: malformed
	inject --opcode 0x0203 --prio 3=100 || rc=1	# unknown opcode: malformed
	inject --reserved-bits --prio 3=100 || rc=1	# reserved bits: honoured
	sleep 0.3
	echo "ignored $(moved rl0 rx_pfc_ignored), malformed $(moved rl0 rx_pfc_malformed)," \
	     "prio2 pauses $(moved rl0 rx_prio2_pause), prio3 $(moved rl0 rx_prio3_pause)"
	[ $rc = 0 ] && [ "$(moved rl0 rx_pfc_ignored)" = 2 ] &&
	[ "$(moved rl0 rx_pfc_malformed)" = 2 ] &&
	[ "$(moved rl0 rx_prio2_pause)" = 0 ] &&
	[ "$(moved rl0 rx_prio2_pause_duration)" = 0 ] &&
	[ "$(moved rl0 rx_prio3_pause)" = 1 ]
}

# Random MAC Control frames (pfc_inject --fuzz: any destination, opcode,
# enable vector, times and length) from B's end of the veth: each one
# counted where 802.1Qbb puts it (pfc_inject says what the receiver
# should count for the frames that left), nothing crashes or warns and
# no pause outlives its frames.  The cases after it run on the device
# it fuzzed: traffic on each priority, a frame's exact pause, XOFF.
# Frames the veth or an input backlog drops never reach rue: if any,
# the counts may only fall short.  RUE_FUZZ_SEED replays a run.
# pfc_counts: rl0's PFC receive counters, read without a fork (hw), as
# pfc_inject --fuzz prints what it expects; pfc_moved BEFORE AFTER: the
# difference, in the same form.
pfc_counts() {
	local p v out
	hw v rx_pfc_malformed; out="malformed=$v"
	hw v rx_pfc_ignored; out+=" ignored=$v pause="
	for p in 0 1 2 3 4 5 6 7; do
		hw v "rx_prio${p}_pause"; out+="$v"
		[ $p = 7 ] || out+=,
	done
	echo "$out"
}
pfc_moved() {
	local -a b a
	IFS=' =,' read -r -a b <<<"$1"
	IFS=' =,' read -r -a a <<<"$2"
	printf 'malformed=%d ignored=%d pause=%d,%d,%d,%d,%d,%d,%d,%d\n' \
		$((a[1] - b[1])) $((a[3] - b[3])) $((a[5] - b[5])) $((a[6] - b[6])) \
		$((a[7] - b[7])) $((a[8] - b[8])) $((a[9] - b[9])) $((a[10] - b[10])) \
		$((a[11] - b[11])) $((a[12] - b[12]))
}

t_fuzz() {
	local seed=${RUE_FUZZ_SEED:-$RANDOM$RANDOM} mac out exp got c0 lost0 lost
	"$RUECTL" cc set rl0 pfc-enable 3,5 || return 1
	mac=$(ip -n "$A" link show l0 | awk '/link\/ether/ { print $2 }')
	[ -n "$mac" ] || { echo "no MAC for l0"; return 1; }
	c0=$(pfc_counts)
	lost0=$(($(veth_drops "$B" l1 | cut -d: -f2) + $(softnet_drops)))
	out=$(ip netns exec "$B" "$PFC" -i l1 --fuzz "$seed" --count 2000 \
		--interval-us 50 --receiver-mac "$mac" --receiver-pfc 0x28) ||
		{ echo "$out"; return 1; }
	sleep 0.1			# the last pause (3.4 ms at most) is over
	lost=$(($(veth_drops "$B" l1 | cut -d: -f2) + $(softnet_drops) - lost0))
	exp=$(sed -n 's/^expect //p' <<<"$out")
	got=$(pfc_moved "$c0" "$(pfc_counts)")
	echo "seed $seed (RUE_FUZZ_SEED to replay): $(head -n 1 <<<"$out")"
	echo "expected $exp"
	echo "counted  $got; $lost lost before rue"
	if [ "$lost" = 0 ]; then
		[ "$got" = "$exp" ] || return 1
	else
		paste -d' ' <(tr ' =,' '\n\n\n' <<<"$exp") <(tr ' =,' '\n\n\n' <<<"$got") |
			awk '$1 ~ /^[0-9]+$/ && $2 > $1 { bad = 1 } END { exit bad }' || return 1
	fi
	"$RUECTL" -j cc show rl0 | grep -q '"pfc-paused":\[\]' ||
		{ echo "still paused after the frames:"; "$RUECTL" cc show rl0; return 1; }
	"$RUECTL" cc set rl0 pfc-enable none
}

# The counters of loss recovery on both devices: snap_recovery before,
# moved_recovery prints those that moved (RE: other counters instead).
recovery_re='drop|discard|timeout|retrans|nak|dup|seq|retry|stale|overflow'
snap_recovery() {
	local d f re=${1:-$recovery_re}
	for d in rl0 rl1; do
		for f in /sys/class/infiniband/$d/ports/1/hw_counters/*; do
			[[ ${f##*/} =~ $re ]] && read -r "before[$d.${f##*/}]" <"$f"
		done
	done
}
moved_recovery() {
	local d f v line re=${1:-$recovery_re}
	for d in rl0 rl1; do
		line="$d:"
		for f in /sys/class/infiniband/$d/ports/1/hw_counters/*; do
			[[ ${f##*/} =~ $re ]] || continue
			read -r v <"$f"
			[ "$v" != "${before[$d.${f##*/}]}" ] &&
				line+=" ${f##*/} +$((v - ${before[$d.${f##*/}]}))"
		done
		echo "$line"
	done
}

# shape A's egress: the device's queues then decide who goes first
shape() {
	tc -n "$A" qdisc del dev l0 root 2>/dev/null
	[ "$1" = none ] && return 0
	tc -n "$A" qdisc add dev l0 root handle 1: htb default 1 &&
	tc -n "$A" class add dev l0 parent 1: classid 1:1 htb rate "$1" &&
	tc -n "$A" qdisc add dev l0 parent 1:1 pfifo limit 10000
}

# qbacklog: the bytes waiting in the shaper's queue on A's l0
qbacklog() {
	tc -n "$A" -s qdisc show dev l0 | sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | tail -n 1
}

# two_flows: prio 3 and prio 5 share the shaped link, 8 QPs each so
# that their windows overfill the device's room in the stack (the port
# is congested); prints their bytes in 3 s while both run.  Priority 3
# starts first and runs longer, so that the window falls inside it:
# counted over whole runs, the one started first had the link alone
# until the other connected (seconds in a busy guest), and that, not
# the scheduler, decided the shares.  The window must end inside
# priority 5's run too: from its first bytes to the window's end takes
# 7-9 s in a busy guest, and with an 8 s run priority 3 had the link
# alone for the end of the window at times (the strict case's 36-89%).
two_flows() {
	local base3 base5 a3 a5 z3 z5 y5 rc=0 start backlog
	hw base3 tx_prio3_bytes; hw base5 tx_prio5_bytes
	flow 18515 96 30 -q 8
	busywait 15000 moved_past 3 bytes 200000 || { echo "priority 3 did not start"; rc=1; }
	start=$(date +%s%3N)
	flow 18516 160 14 -q 8
	busywait 20000 moved_past 5 bytes 200000 || { echo "priority 5 did not start"; rc=1; }
	echo "priority 5 started in $(($(date +%s%3N) - start)) ms"
	sleep 2		# all its QPs under way (seen short of them at first)
	hw a3 tx_prio3_bytes; hw a5 tx_prio5_bytes
	sleep 1.5
	backlog=$(qbacklog)
	sleep 1.5
	hw z3 tx_prio3_bytes; hw z5 tx_prio5_bytes
	sleep 0.2
	hw y5 tx_prio5_bytes
	[ -e "$RUE_OUT/flow.18515" ] && { echo "priority 3 ended before the window did"; rc=1; }
	[ "$y5" -gt "$z5" ] || { echo "priority 5 ended before the window did"; rc=1; }
	echo "qdisc backlog on l0: ${backlog:-?} bytes"
	wait
	flow_ok 18515 && flow_ok 18516 && [ $rc = 0 ] || return 1
	echo "$((z3 - a3)) $((z5 - a5))"
}

t_strict() {
	local out b3 b5 qdrops
	"$RUECTL" cc set rl0 pfc-enable none || return 1
	snap_recovery
	shape 40mbit || return 1
	out=$(two_flows) || { shape none; echo "$out"; return 1; }
	qdrops=$(tc -n "$A" -s qdisc show dev l0 | grep -o "dropped [0-9]*" | tr '\n' ' ')
	shape none
	read -r b3 b5 <<<"$(echo "$out" | tail -n 1)"
	echo "strict: prio5 $b5 bytes, prio3 $b3 bytes in 3 s;" \
	     "$(echo "$out" | grep started); $(echo "$out" | grep backlog)"
	# what the transport and the qdisc went through
	moved_recovery
	echo "qdisc on l0: $qdrops"
	awk '/^ *65536/ { print FILENAME ": " $0 }' "$RUE_OUT/flow.18515.cli" \
		"$RUE_OUT/flow.18516.cli"
	# 100% measured (equal sharing would be 50%); priority 3's few
	# packets may go while priority 5's QPs refill their queue
	[ $((b5 * 100 / (b3 + b5))) -ge 95 ]
}

# ETS 75:25: ideally 3:1 (3.01 measured); equal sharing would be 1:1.
t_ets() {
	local out b3 b5 rc=0
	"$RUECTL" cc set rl0 ets-tsa 3:ets,5:ets ets-weight 3:75,5:25 || return 1
	shape 40mbit || return 1
	out=$(two_flows) || rc=1
	shape none
	"$RUECTL" cc set rl0 ets-tsa 0-7:strict || rc=1
	[ $rc = 0 ] || { echo "$out"; return 1; }
	read -r b3 b5 <<<"$(echo "$out" | tail -n 1)"
	echo "ets 75:25: prio3 $b3 bytes, prio5 $b5 bytes in 3 s, ratio" \
	     "$((b3 * 100 / b5))%; $(echo "$out" | grep started);" \
	     "$(echo "$out" | grep backlog)"
	[ $((b3 * 100 / b5)) -ge 140 ] && [ $((b3 * 100 / b5)) -le 450 ]
}

t_refusals() {
	local out bad=0
	out=$("$RUECTL" cc set rl0 ets-tsa 3:ets,5:ets ets-weight 3:50,5:20 2>&1) &&
		{ echo "weights adding to 70 accepted"; bad=1; }
	echo "$out" | grep -q "add up to 100" || { echo "$out"; bad=1; }
	out=$("$RUECTL" cc set rl0 pfc-xoff 1000 pfc-xon 2000 2>&1) &&
		{ echo "xon above xoff accepted"; bad=1; }
	echo "$out" | grep -q "pfc-xon" || { echo "$out"; bad=1; }
	"$RUECTL" cc set rl0 pfc-paused 3 >/dev/null 2>&1 &&
		{ echo "pfc-paused set"; bad=1; }
	"$RUECTL" cc set rl0 pfc-quanta 70000 >/dev/null 2>&1 &&
		{ echo "quanta 70000 accepted"; bad=1; }
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RUECTL" cc set rl0 pfc-enable 0-7 >/dev/null 2>&1 &&
		{ echo "non-root set pfc-enable"; bad=1; }
	"$RUECTL" -j cc show rl0 | grep -q '"ets-tsa":\["strict","strict","strict","strict"' ||
		{ echo "a refused set changed something"; bad=1; }
	return $bad
}

# B's backlog work at nice 19 falls behind: XOFF, the sender stops, XON.
t_xoff() {
	local wq rc=0 asserted sn
	"$RUECTL" cc set rl0 pfc-enable 3 || return 1
	"$RUECTL" cc set rl1 pfc-enable 3 pfc-xoff 131072 pfc-xon 65536 || return 1
	wq=/sys/devices/virtual/workqueue/rue_rx_rl1
	[ -e $wq/nice ] || { echo "no $wq"; return 1; }
	echo 19 >$wq/nice
	snap tx_prio3_pause rx_prio3_pause rx_prio3_discards retransmits \
	     rx_drop_out_of_sequence rx_prio3_pause_duration tx_drops
	sn=$(softnet_drops)
	flow 18515 96 6 -s 65536
	sleep 3
	asserted=$("$RUECTL" -j cc show rl1 | grep -o '"pfc-asserted":\[[0-9,]*\]')
	wait
	flow_ok 18515 || rc=1
	echo "XOFF/XON sent by rl1 $(moved rl1 tx_prio3_pause), received by rl0" \
	     "$(moved rl0 rx_prio3_pause), paused $(moved rl0 rx_prio3_pause_duration) us;" \
	     "backlog drops $(moved rl1 rx_prio3_discards), retransmits" \
	     "$(moved rl0 retransmits), out of sequence $(moved rl1 rx_drop_out_of_sequence);" \
	     "mid-run $asserted; $(mbps 18515) Mb/s; rl0 tx_drops" \
	     "$(moved rl0 tx_drops), CPU backlog drops $(($(softnet_drops) - sn))"
	echo 0 >$wq/nice
	"$RUECTL" cc set rl1 pfc-xoff 0 pfc-xon 0 pfc-enable none || rc=1
	"$RUECTL" -j cc show rl1 | grep -q '"pfc-asserted":\[\]' || rc=1
	[ $rc = 0 ] && [ "$(moved rl1 tx_prio3_pause)" -gt 0 ] &&
	[ "$(moved rl0 rx_prio3_pause)" -gt 0 ] &&
	[ "$(moved rl0 rx_prio3_pause_duration)" -gt 0 ] &&
	[ "$(moved rl1 rx_prio3_discards)" = 0 ] &&
	[ "$(moved rl0 retransmits)" = 0 ] &&
	[ "$(moved rl1 rx_drop_out_of_sequence)" = 0 ]
}

# Deleting a device whose paused queue holds packets frees them.
t_delete_paused() {
	local pid
	"$RUECTL" cc set rl0 pfc-enable 3 || return 1
	ip netns exec "$B" "$PFC" -i l1 --prio 3=65535 --count 4000 \
		--interval-us 1000 >/dev/null 2>&1 &
	pid=$!
	flow 18515 96 20
	sleep 4
	ip netns exec "$A" rdma link del rl0 || return 1
	kill $pid 2>/dev/null
	sleep 1
	pkill -f "ib_write_bw -d rl1" 2>/dev/null
	wait
	rdma_dev_exists rl0 && { echo "rl0 still there"; return 1; }
	rue_link "$A" rl0 l0
}

tap_init
run_test "setup" t_setup
run_test "per-priority and PFC counters in rdma statistic" t_counters
run_test "ruectl cc show: strict priorities, PFC off" t_defaults
run_test "random PFC frames: each counted as 802.1Qbb says, none harms" t_fuzz
run_test "traffic counted on its priority (tclass -> DSCP -> prio)" t_prio_counters
run_test "a PFC frame pauses for quanta x 512 bit times" t_pause_time
run_test "XOFF stops priority 3 only; nothing lost" t_pause_isolation
run_test "malformed and disabled-priority frames counted, ignored" t_ignored
run_test "strict priority: prio 5 before prio 3 on a shaped link" t_strict
run_test "ETS 75:25 shares a shaped link" t_ets
run_test "cc set refuses bad ETS and PFC settings" t_refusals
run_test "slow receiver: XOFF/XON, the sender stops, no drop" t_xoff
run_test "device deleted while paused with packets queued" t_delete_paused
tap_done
