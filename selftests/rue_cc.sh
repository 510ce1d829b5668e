#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ECN and DCQCN between two devices (Documentation/congestion.md): data
# packets leave ECT(0), ACKs and CNPs Not-ECT with DSCP 48; a CE mark
# (netem's "ecn" marks instead of dropping) makes the receiver (the
# notification point) send a CNP, paced per QP by min_time_between_cnps,
# and the sender (the reaction point) cuts its rate and paces itself; the
# settings change at runtime through ruectl; crafted CNPs for unknown
# QPs, from strangers, short or with a bad ICRC are counted and ignored.
#
#   ns A: l0 10.15.0.1 (rue rl0) <--veth (netem ecn)--> l1 10.15.0.2 (rue rl1) :ns B
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip tc tcpdump ib_write_bw ibv_rc_pingpong timeout setpriv jq

RUECTL=$RUE_BUILD/userspace/ruectl/ruectl
INJECT=$RUE_BUILD/userspace/wire/roce_inject

g4() { gid_index_of "$1" "$2"; }

t_setup() {
	rue_install_module && modprobe rue || return 1
	[ -x "$RUECTL" ] || { echo "ruectl is not built"; return 1; }
	if ! tc qdisc add dev lo root netem delay 0 2>/dev/null; then
		echo "sch_netem is not available"
		return $ksft_skip
	fi
	tc qdisc del dev lo root
	ns_pair_setup -d l0,l1 -4 10.15.0.1,10.15.0.2 -l rl0,rl1 -g -p
}

t_counters() {
	local c bad=0
	for c in np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled rp_cnp_ignored; do
		[ -n "$(rue_stat rl0 $c)" ] || { echo "no counter $c"; bad=1; }
	done
	return $bad
}

t_defaults() {
	local out
	out=$("$RUECTL" -j cc show rl0) || return 1
	echo "$out" | grep -q '"ecn":"ect0"' &&
	echo "$out" | grep -q '"cnp-dscp":48' &&
	echo "$out" | grep -q '"cnp-prio":6' &&
	echo "$out" | grep -q '"min-time-between-cnps":4' &&
	echo "$out" | grep -q '"rpg-time-reset":300' &&
	echo "$out" | grep -q '"rpg-threshold":1' || { echo "$out"; return 1; }
}

# ecn NETEM...: netem on A's egress (A -> B, where the data of A's
# requests goes); "none" removes it.  Only RoCEv2 goes through netem.
ecn_mark() {
	tc -n "$A" qdisc del dev l0 root 2>/dev/null
	[ "$1" = none ] && return 0
	tc -n "$A" qdisc add dev l0 root handle 1: prio bands 3 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
	tc -n "$A" qdisc add dev l0 parent 1:3 handle 30: netem limit 100000 "$@" &&
	tc -n "$A" filter add dev l0 parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:3
}

sc() { server_client "$B" "$A" "$@"; }

# A writes to B: A is the reaction point, B the notification point.
write_bw() {
	sc 18515 timeout 300 ib_write_bw -d rl1 -x "$(g4 rl1 10.15.0.2)" -F "$@" -- \
		timeout 300 ib_write_bw -d rl0 -x "$(g4 rl0 10.15.0.1)" -F "$@" 10.15.0.2
}

pingpong() {
	sc 18515 ibv_rc_pingpong -d rl1 -g "$(g4 rl1 10.15.0.2)" -n 300 -s 16384 -c -- \
		ibv_rc_pingpong -d rl0 -g "$(g4 rl0 10.15.0.1)" -n 300 -s 16384 -c 10.15.0.2
}

declare -A before
snap() {
	local c d
	for d in rl0 rl1; do
		for c in np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled \
			 rp_cnp_ignored rx_drop_bad_header rx_drop_icrc retry_exceeded; do
			before[$d.$c]=$(rue_stat $d $c)
		done
	done
}
moved() { echo $(($(rue_stat "$1" "$2") - ${before[$1.$2]})); }

# capture NS DEV FILE CMD...: packets on DEV while CMD runs.
capture() {
	local ns=$1 dev=$2 file=$3 pid rc
	shift 3
	ip netns exec "$ns" tcpdump -U -n -i "$dev" -w "$file" udp port 4791 \
		2>/dev/null &
	pid=$!
	sleep 1
	"$@"
	rc=$?
	sleep 0.5
	kill $pid
	wait $pid 2>/dev/null
	return $rc
}

count() { tcpdump -n -r "$1" "$2" 2>/dev/null | wc -l; }

t_ect0() {
	local f=$RUE_OUT/cc-ect0.pcap ect0 ce acks
	capture "$B" l1 "$f" write_bw -s 65536 -n 50 >/dev/null || return 1
	ect0=$(count "$f" 'src host 10.15.0.1 and ip[1] & 3 = 2')
	ce=$(count "$f" 'ip[1] & 3 = 3')
	acks=$(count "$f" 'src host 10.15.0.2 and ip[1] = 0xc0')
	echo "ECT(0) data $ect0, DSCP 48 Not-ECT from the responder $acks, CE $ce"
	[ "$ect0" -gt 0 ] && [ "$acks" -gt 0 ] && [ "$ce" = 0 ]
}

t_ect1() {
	local f=$RUE_OUT/cc-ect1.pcap n rc=0
	"$RUECTL" cc set rl0 ecn ect1 || return 1
	capture "$B" l1 "$f" write_bw -s 65536 -n 20 >/dev/null || rc=1
	"$RUECTL" cc set rl0 ecn ect0 || rc=1
	n=$(count "$f" 'src host 10.15.0.1 and ip[1] & 3 = 1')
	echo "ECT(1) data packets $n"
	[ "$n" -gt 0 ] && [ $rc = 0 ]
}

t_ecn_off() {
	local f=$RUE_OUT/cc-off.pcap n all rc=0
	"$RUECTL" cc set rl0 ecn off || return 1
	capture "$B" l1 "$f" write_bw -s 65536 -n 20 >/dev/null || rc=1
	"$RUECTL" cc set rl0 ecn ect0 || rc=1
	n=$(count "$f" 'src host 10.15.0.1 and ip[1] & 3 != 0')
	all=$(count "$f" 'src host 10.15.0.1')
	echo "ECN-capable packets $n of $all"
	[ "$all" -gt 0 ] && [ "$n" = 0 ] && [ $rc = 0 ]
}

# CE marks answered, paced, handled; data intact (pingpong -c checks it).
t_np_rp() {
	local marked sent handled ignored rc=0
	ecn_mark loss 2% ecn || { echo "tc failed"; return 1; }
	snap
	write_bw -s 65536 -n 100 || rc=1
	pingpong || rc=1
	ecn_mark none
	marked=$(moved rl1 np_ecn_marked_roce_packets)
	sent=$(moved rl1 np_cnp_sent)
	handled=$(moved rl0 rp_cnp_handled)
	ignored=$(moved rl0 rp_cnp_ignored)
	echo "CE marked $marked, CNPs sent $sent, handled $handled, ignored $ignored"
	[ "$marked" -gt 0 ] && [ "$sent" -gt 0 ] && [ "$sent" -le "$marked" ] &&
	[ "$handled" -gt 0 ] && [ $((handled + ignored)) = "$sent" ] &&
	[ "$(moved rl0 retry_exceeded)" = 0 ] && [ $rc = 0 ]
}

# While marks keep coming the sender's QP is rate limited, below the link.
t_qp_limited() {
	local spid seen=0 i out
	ecn_mark loss 2% ecn || return 1
	ip netns exec "$B" timeout 60 ib_write_bw -d rl1 -x "$(g4 rl1 10.15.0.2)" \
		-F -D 8 >/dev/null 2>&1 &
	spid=$!
	busywait 10000 listening "$B" 18515
	ip netns exec "$A" timeout 60 ib_write_bw -d rl0 -x "$(g4 rl0 10.15.0.1)" \
		-F -D 8 10.15.0.2 >/dev/null 2>&1 &
	for i in $(seq 1 60); do
		sleep 0.2
		out=$("$RUECTL" -j qp show rl0 2>&1)
		if echo "$out" | grep -q '"type":"RC".*"limited":true'; then
			seen=1
			break
		fi
	done
	wait
	ecn_mark none
	echo "$out" | head -c 600; echo
	[ $seen = 1 ]
}

# min_time_between_cnps bounds the CNPs of a QP: 1 s apart, at most a
# handful in a few seconds, however many marks.
t_cnp_pacing() {
	local marked sent rc=0
	"$RUECTL" cc set rl1 min-time-between-cnps 1000000 || return 1
	ecn_mark loss 5% ecn || return 1
	snap
	write_bw -s 65536 -n 50 >/dev/null || rc=1
	ecn_mark none
	"$RUECTL" cc set rl1 min-time-between-cnps 4 || rc=1
	marked=$(moved rl1 np_ecn_marked_roce_packets)
	sent=$(moved rl1 np_cnp_sent)
	echo "CE marked $marked, CNPs sent $sent (at most one a second per QP)"
	[ "$marked" -gt 20 ] && [ "$sent" -ge 1 ] && [ "$sent" -le 12 ] && [ $rc = 0 ]
}

t_np_off() {
	local rc=0
	"$RUECTL" cc set rl1 np-enable none || return 1
	ecn_mark loss 2% ecn || return 1
	snap
	write_bw -s 65536 -n 30 >/dev/null || rc=1
	ecn_mark none
	"$RUECTL" cc set rl1 np-enable all || rc=1
	echo "marked $(moved rl1 np_ecn_marked_roce_packets), CNPs $(moved rl1 np_cnp_sent)"
	[ "$(moved rl1 np_ecn_marked_roce_packets)" -gt 0 ] &&
	[ "$(moved rl1 np_cnp_sent)" = 0 ] && [ $rc = 0 ]
}

t_rp_off() {
	local rc=0
	"$RUECTL" cc set rl0 rp-enable none || return 1
	ecn_mark loss 2% ecn || return 1
	snap
	write_bw -s 65536 -n 30 >/dev/null || rc=1
	ecn_mark none
	"$RUECTL" cc set rl0 rp-enable all || rc=1
	echo "CNPs sent $(moved rl1 np_cnp_sent), handled $(moved rl0 rp_cnp_handled)," \
	     "ignored $(moved rl0 rp_cnp_ignored)"
	[ "$(moved rl1 np_cnp_sent)" -gt 0 ] && [ "$(moved rl0 rp_cnp_handled)" = 0 ] &&
	[ "$(moved rl0 rp_cnp_ignored)" -gt 0 ] && [ $rc = 0 ]
}

t_set_checks() {
	local out bad=0
	# out of range, read-only, unknown, not allowed
	for args in "rpg-gd 0" "rpg-min-dec-fac 101" "dce-tcp-g 1024" "cnp-prio 8" \
		    "rpg-byte-reset 10" "link-speed 1000" "frobnicate 1" "ecn ect2"; do
		# shellcheck disable=SC2086
		if out=$("$RUECTL" cc set rl0 $args 2>&1); then
			echo "accepted: $args"; bad=1
		elif [ -z "$out" ]; then
			echo "no message for: $args"; bad=1
		fi
	done
	if setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$RUECTL" cc set rl0 rpg-ai-rate 7 >/dev/null 2>&1; then
		echo "an unprivileged user changed a setting"; bad=1
	fi
	"$RUECTL" -j cc show rl0 | grep -q '"rpg-ai-rate":5' || { echo "changed"; bad=1; }
	"$RUECTL" cc set rl0 rpg-ai-rate 7 rpg-hai-rate 70 &&
	"$RUECTL" -j cc show rl0 | grep -q '"rpg-ai-rate":7' &&
	"$RUECTL" cc set rl0 rpg-ai-rate 5 rpg-hai-rate 50 || bad=1
	return $bad
}

# Crafted packets from B's address to rl0: each counted, nothing else.
t_bad_cnps() {
	local qpn=0x123456
	[ -x "$INJECT" ] || { echo "roce_inject is not built"; return 1; }
	snap
	in_ns "$B" "$INJECT" --src 10.15.0.2 --dst 10.15.0.1 --opcode 0x81 --becn \
		--dest-qp $qpn --count 5 >/dev/null &&
	in_ns "$B" "$INJECT" --src 10.15.0.2 --dst 10.15.0.1 --opcode 0x81 --becn \
		--dest-qp 1 --count 3 >/dev/null &&
	in_ns "$B" "$INJECT" --src 10.15.0.2 --dst 10.15.0.1 --opcode 0x81 --becn \
		--dest-qp 1 --truncate 8 --count 4 >/dev/null &&
	in_ns "$B" "$INJECT" --src 10.15.0.2 --dst 10.15.0.1 --opcode 0x81 --becn \
		--dest-qp 1 --bad-icrc --count 2 >/dev/null || return 1
	sleep 0.5
	echo "ignored $(moved rl0 rp_cnp_ignored), handled $(moved rl0 rp_cnp_handled)," \
	     "bad header $(moved rl0 rx_drop_bad_header), bad ICRC $(moved rl0 rx_drop_icrc)"
	# QP 1 is GSI: not a reaction point
	[ "$(moved rl0 rp_cnp_ignored)" = 8 ] && [ "$(moved rl0 rp_cnp_handled)" = 0 ] &&
	[ "$(moved rl0 rx_drop_bad_header)" = 4 ] && [ "$(moved rl0 rx_drop_icrc)" = 2 ]
}

tap_init
# DCQCN parameters per priority: priority 3 (tclass 96, DSCP 24) gets an
# increase timer of 1 s and no byte counter, so under CE marks its QP
# stays cut (the first CNP halves the rate) for about a second, where
# priority 0's defaults (T = 300 us) would recover it within
# milliseconds; the other priorities keep ConnectX's values.
t_prio_params() {
	local out min=100000 handled=0 i rc=0 q r
	"$RUECTL" cc set rl0 prio 3 rpg-time-reset 1000000 rpg-byte-reset 2147483648 ||
		return 1
	"$RUECTL" -j cc show rl0 | grep -q '"dcqcn-differ":\[3\]' || { echo "differ"; rc=1; }
	"$RUECTL" -j cc show rl0 prio 3 | grep -q '"rpg-time-reset":1000000' || { echo "prio 3"; rc=1; }
	"$RUECTL" -j cc show rl0 prio 5 | grep -q '"rpg-time-reset":300' || { echo "prio 5"; rc=1; }
	ecn_mark loss 2% ecn || return 1
	ip netns exec "$B" timeout 60 ib_write_bw -d rl1 -x "$(g4 rl1 10.15.0.2)" \
		-F -D 6 --tclass=96 >/dev/null 2>&1 &
	busywait 10000 listening "$B" 18515
	ip netns exec "$A" timeout 60 ib_write_bw -d rl0 -x "$(g4 rl0 10.15.0.1)" \
		-F -D 6 --tclass=96 10.15.0.2 >/dev/null 2>&1 &
	# until the cut is seen (one ruectl and one jq a look: in a TCG
	# guest each look took most of a second with three jq)
	for i in $(seq 1 40); do
		sleep 0.2
		out=$("$RUECTL" -j qp show rl0 2>&1)
		q=$(echo "$out" | jq -r '.[] | select(.type == "RC" and .prio == 3) |
			"\(.rate) \(."cnp-handled")"' 2>/dev/null | head -n 1)
		[ -n "$q" ] || continue
		read -r r handled <<<"$q"
		[ "$r" -lt "$min" ] && min=$r
		[ "$handled" -gt 0 ] && [ "$min" -le 6000 ] && break
	done
	wait
	ecn_mark none
	"$RUECTL" cc set rl0 rpg-time-reset 300 rpg-byte-reset 32767 || rc=1
	"$RUECTL" -j cc show rl0 | grep -q '"dcqcn-differ":\[\]' || { echo "reset"; rc=1; }
	echo "priority 3 QP: CNPs handled $handled, lowest rate seen $min Mb/s"
	[ $rc = 0 ] && [ "$handled" -gt 0 ] && [ "$min" -le 6000 ]
}

run_test "setup" t_setup
run_test "ECN and CNP counters in rdma statistic" t_counters
run_test "ruectl cc show: ConnectX defaults" t_defaults
run_test "data ECT(0); ACKs Not-ECT with DSCP 48" t_ect0
run_test "ecn ect1 at runtime" t_ect1
run_test "ecn off: Not-ECT" t_ecn_off
run_test "CE marks: CNPs sent, handled, data intact" t_np_rp
run_test "ruectl qp show: the marked sender is rate limited" t_qp_limited
run_test "min-time-between-cnps paces CNPs per QP" t_cnp_pacing
run_test "np-enable none: marks counted, no CNPs" t_np_off
run_test "rp-enable none: CNPs ignored" t_rp_off
run_test "cc set refuses bad values and unprivileged users" t_set_checks
run_test "crafted CNPs: unknown QP, GSI, short, bad ICRC counted" t_bad_cnps
run_test "DCQCN parameters per priority" t_prio_params
tap_done
