#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The verbs data path, systematically: rue_verbs_test (userspace/tests), a
# GoogleTest program, connects RC and UD queue pairs between two rue
# devices over a veth pair (IPv4 and IPv6 GIDs) and on one device
# (loopback), and checks every operation, scatter/gather, inline data,
# signaling, fences, atomics, error paths, bad arguments, CQ events and
# QP attributes.  Its TAP is passed through, renumbered into this
# suite's; a last case checks that every QP and MR the kernel created was
# released.
#
#   ns A: a0 10.5.0.1 fd00:5::1 (rue rva) <--veth--> b0 10.5.0.2 fd00:5::2 (rue rvb) :ns B
#
# Arguments go to the test program (e.g. --gtest_filter=*Atomic*).  The
# program is $RUE_VERBS_TEST, else userspace/tests/rue_verbs_test under
# $RUE_BUILD (default: build/).
caller_build=${RUE_BUILD:-}
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip timeout

find_test_program() {
	if [ -n "${RUE_VERBS_TEST:-}" ]; then
		echo "$RUE_VERBS_TEST"
	else
		echo "${caller_build:-$RUE_TOP/build}/userspace/tests/rue_verbs_test"
	fi
}

prog=$(find_test_program)
if [ -z "$prog" ] || [ ! -x "$prog" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP rue_verbs_test is not built (cmake --build build/userspace --target rue_verbs_test)"
	exit $ksft_skip
fi

# Dynamic debug of QPs and MRs prints "created"/"destroyed" for every QP
# and MR: the leak oracle of the last case.  Only messages from now on
# count (dmesg -W): the ring buffer still holds the previous suite's.
kmsg_log=$RUE_OUT/rue_verbs.kmsg
t_setup() {
	verbs_pair_setup || return
	# rue_dbg_qp() is an inline of qp.h: its call sites are qp.h's.
	if { dyndbg "module rue file qp.h +p" || dyndbg "module rue file qp.c +p"; } &&
	   dyndbg "module rue file mr.c +p" &&
	   dyndbg "module rue file mw.c +p"; then
		dmesg -W --notime >"$kmsg_log" 2>/dev/null &
		kmsg_pid=$!
		defer "kill $kmsg_pid"
	fi
	return 0
}

count() {
	grep -c "$1" "$kmsg_log" 2>/dev/null
}

# Every QP and MR the kernel created was destroyed, once the program
# exited (uverbs cleans up whatever a process leaves; an MR whose last
# reference leaked is never released).
qp_mr_balance() {
	local qc qd mc md
	qc=$(count 'rue_create_qp: created')
	qd=$(count 'rue_destroy_qp: destroyed')
	mc=$(count 'MR 0x[0-9a-f]* created')
	md=$(count 'MR 0x[0-9a-f]* destroyed')
	echo "QPs created $qc destroyed $qd, MRs created $mc destroyed $md"
	[ "$qc" -gt 0 ] && [ "$qc" = "$qd" ] && [ "$mc" -gt 0 ] && [ "$mc" = "$md" ]
}

t_no_leaks() {
	[ -n "${kmsg_pid:-}" ] || { echo "no dynamic debug"; return $ksft_skip; }
	busywait 10000 qp_mr_balance >/dev/null
	qp_mr_balance
}

tap_init
run_test "setup" t_setup
if [ "$_tap_pass" = 1 ]; then
	start=$(date +%s)
	run_gtest rue_verbs_test "$prog" "${RUE_VERBS_TIMEOUT:-600}" \
		--dev-a=rva --dev-b=rvb --ip4-a=10.5.0.1 --ip4-b=10.5.0.2 \
		--ip6-a=fd00:5::1 --ip6-b=fd00:5::2 "$@"
	tap_log "rue_verbs_test ran $(($(date +%s) - start)) s"
	rdma statistic show link rva/1 >"$RUE_OUT/rue_verbs.stats" 2>&1
	rdma statistic show link rvb/1 >>"$RUE_OUT/rue_verbs.stats" 2>&1
	run_test "every QP and MR the kernel created was released" t_no_leaks
fi
tap_done
