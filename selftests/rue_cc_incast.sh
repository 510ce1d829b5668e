#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast with and without DCQCN (cc_incast.sh has the topology): four
# senders write to one receiver through a router whose egress is shaped
# and marks ECN with RED.  With DCQCN nothing is dropped, CNPs are paced
# below the marks and the flows are fair; without it the same run builds
# a standing queue or drops - so the rate control is what makes the
# difference.  How close DCQCN keeps the bottleneck to its rate and how
# short its queue are performance, measured by scripts/bench-cc (which
# runs this file and plots it), not asserted here: they depend on how
# fast the guest's CPU answers a CNP.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cc_incast.sh"

require_guest
require_cmd rdma ip tc ib_write_bw jq ethtool timeout

t_setup() {
	rue_install_module && modprobe rue || return 1
	[ -x "$INCAST_RUECTL" ] || { echo "ruectl is not built"; return 1; }
	if ! tc qdisc add dev lo root red \
		limit 100000 min 10000 max 30000 avpkt 1000 burst 12 bandwidth 1mbit \
		probability 0.1 ecn 2>/dev/null; then
		echo "sch_red is not available"
		return $ksft_skip
	fi
	tc qdisc del dev lo root 2>/dev/null
	incast_setup
}

# field JSON KEY
field() { jq -r ".$2" "$1"; }

ON=$RUE_OUT/incast-dcqcn.json
OFF=$RUE_OUT/incast-nocc.json

t_on() {
	incast_cc on && incast_run dcqcn
}

t_off() {
	incast_cc off && incast_run nocc
}

t_on_marks() {
	local ce cnp
	ce=$(field "$ON" ce_marks)
	cnp=$(field "$ON" cnps)
	echo "CE marks $ce, CNPs $cnp"
	[ "$ce" -gt 0 ] && [ "$cnp" -gt 0 ] && [ "$cnp" -lt "$ce" ]
}

# The queue and goodput are printed for the log; bench-cc measures them.
t_on_no_drops() {
	echo "drops $(field "$ON" drops), backlog mean $(field "$ON" backlog_mean)" \
	     "max $(field "$ON" backlog_max) bytes, goodput" \
	     "$(field "$ON" goodput_mbps) Mb/s of $INCAST_RATE"
	[ "$(field "$ON" drops)" = 0 ]
}

t_on_fair() {
	echo "flows $(jq -c .flow_mbps "$ON") Mb/s, Jain $(field "$ON" jain)"
	awk -v j="$(field "$ON" jain)" 'BEGIN { exit !(j >= 0.9) }'
}

# Without rate control the senders fill the queue: RED marks and, past
# its limit, drops; the queue stands well above DCQCN's.
t_off_worse() {
	local on off
	on=$(field "$ON" backlog_mean)
	off=$(field "$OFF" backlog_mean)
	echo "without DCQCN: drops $(field "$OFF" drops), backlog mean $off" \
	     "(with: $on), goodput $(field "$OFF" goodput_mbps) Mb/s," \
	     "Jain $(field "$OFF" jain)"
	[ "$(field "$OFF" drops)" -gt 0 ] || [ "$off" -gt $((2 * on + 30000)) ]
}

tap_init
run_test "setup: $INCAST_N senders, router, receiver" t_setup
run_test "incast with DCQCN" t_on
run_test "with DCQCN: CE marks, fewer CNPs" t_on_marks
run_test "with DCQCN: no drops" t_on_no_drops
run_test "with DCQCN: Jain fairness >= 0.9" t_on_fair
run_test "incast without DCQCN" t_off
run_test "without DCQCN: a standing queue or drops" t_off_worse
tap_done
