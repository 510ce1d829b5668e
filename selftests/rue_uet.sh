#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ultra Ethernet Transport: rue_uet_test (userspace/tests/uet_test.cc)
# runs UET QPs through librue's ruedv_* API between two rue devices over a
# veth pair (IPv4 and IPv6) and on one device, in RUD and ROD, first on a
# clean link, then under netem loss, reordering and duplication.  Around
# it: jobs granted with ruectl and enforced for an unprivileged user,
# packets captured on the veth decoded by ruedump, and every QP, MR and
# PDC the kernel created released.
#
#   ns A: a0 10.5.0.1 fd00:5::1 (rue rva) <--veth--> b0 10.5.0.2 fd00:5::2 (rue rvb) :ns B
#
# Arguments go to the test program (e.g. --gtest_filter=*Write*).
caller_build=${RUE_BUILD:-}
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip tc timeout

build=${caller_build:-$RUE_TOP/build}
prog=${RUE_UET_TEST:-$build/userspace/tests/rue_uet_test}
ruectl=$build/userspace/ruectl/ruectl
ruedump=$build/userspace/ruedump/ruedump
if [ ! -x "$prog" ] || [ ! -x "$ruectl" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP rue_uet_test or ruectl is not built"
	exit $ksft_skip
fi

# The jobs uet_test.cc uses, and one granted to nobody.
JOB=$((0x4242))
OTHER_JOB=$((0x4343))
NOBODY_JOB=$((0x4444))

has_gid() {
	grep -qx "$2" /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null
}

kmsg_log=$RUE_OUT/rue_uet.kmsg
dyndbg() {
	local ctl=/proc/dynamic_debug/control
	if [ ! -w $ctl ]; then
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
		ctl=/sys/kernel/debug/dynamic_debug/control
	fi
	[ -w $ctl ] && echo "$1" >$ctl
}

t_setup() {
	rue_install_module && modprobe rue || return 1
	if rdma system show 2>/dev/null | grep -q 'netns exclusive'; then
		echo "RDMA netns mode is exclusive; the test needs shared"
		return $ksft_skip
	fi
	setup_ns A B && veth_pair "$A" a0 10.5.0.1 "$B" b0 10.5.0.2 || return 1
	ip -n "$A" addr add fd00:5::1/64 dev a0 nodad &&
	ip -n "$B" addr add fd00:5::2/64 dev b0 nodad || return 1
	rue_link "$A" rva a0 && rue_link "$B" rvb b0 || return 1
	busywait 5000 has_gid rva "$(ipv4_gid 10.5.0.1)" &&
	busywait 5000 has_gid rvb "$(ipv4_gid 10.5.0.2)" &&
	busywait 5000 has_gid rva fd00:0005:0000:0000:0000:0000:0000:0001 &&
	busywait 5000 has_gid rvb fd00:0005:0000:0000:0000:0000:0000:0002 ||
		{ echo "GIDs did not appear"; return 1; }
	ip netns exec "$A" ping -c 1 -W 2 10.5.0.2 >/dev/null
	ip netns exec "$A" ping -c 1 -W 2 fd00:5::2 >/dev/null
	ip netns exec "$B" ping -c 1 -W 2 10.5.0.1 >/dev/null
	ip netns exec "$B" ping -c 1 -W 2 fd00:5::1 >/dev/null
	if { dyndbg "module rue file qp.h +p" || dyndbg "module rue file qp.c +p"; } &&
	   dyndbg "module rue file mr.c +p" && dyndbg "module rue file pds.c +p"; then
		dmesg -w --notime >"$kmsg_log" 2>/dev/null &
		kmsg_pid=$!
		defer "kill $kmsg_pid"
	fi
	# rdma-core's udev rules make uverbs devices usable by everyone
	chmod 0666 /dev/infiniband/uverbs* || return 1
	local d
	for d in rva rvb; do
		"$ruectl" job add "$d" $JOB &&
		"$ruectl" job add "$d" $OTHER_JOB &&
		"$ruectl" job add "$d" $NOBODY_JOB uid nobody || return 1
	done
	"$ruectl" job show
}

run_uet_test() {
	run_gtest rue_uet_test "$prog" "${RUE_UET_TIMEOUT:-600}" \
		--dev-a=rva --dev-b=rvb --ip4-a=10.5.0.1 --ip4-b=10.5.0.2 \
		--ip6-a=fd00:5::1 --ip6-b=fd00:5::2 "$@"
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# Jobs: an unprivileged user creates QPs only in a job granted to it.
t_job_grant_enforced() {
	as_nobody "$prog" --dev-a=rva --dev-b=rvb --ip4-a=10.5.0.1 \
		--ip4-b=10.5.0.2 --ip6-a=fd00:5::1 --ip6-b=fd00:5::2 \
		--gtest_filter='UetCreate.Unprivileged*' --gtest_also_run_disabled_tests \
		--gtest_brief=1
}

t_job_busy() {
	# deleting a job is refused while... (no QP holds it now): it goes
	"$ruectl" job del rva $OTHER_JOB || return 1
	"$ruectl" job show rva $OTHER_JOB 2>/dev/null && return 1
	"$ruectl" job add rva $OTHER_JOB
}

# netem on both ends of the veth, for the run that follows.
impair() {
	tc -n "$A" qdisc replace dev a0 root netem "$@" &&
	tc -n "$B" qdisc replace dev b0 root netem "$@"
}

unimpair() {
	tc -n "$A" qdisc del dev a0 root 2>/dev/null
	tc -n "$B" qdisc del dev b0 root 2>/dev/null
	true
}

# Packets captured on the veth decode as UET with the fields expected.
t_wire() {
	local pcap=$RUE_OUT/rue_uet.pcap out=$RUE_OUT/rue_uet.decoded pid
	[ -x "$ruedump" ] || { echo "ruedump is not built"; return $ksft_skip; }
	command -v tcpdump >/dev/null || { echo "no tcpdump"; return $ksft_skip; }
	ip netns exec "$B" tcpdump -i b0 -U -w "$pcap" udp port 4793 2>/dev/null &
	pid=$!
	sleep 1
	run_uet_test --gtest_filter='Verbs/Uet.SendAllSizes/TwoDevicesRud' >/dev/null
	sleep 1
	kill $pid; wait $pid 2>/dev/null
	"$ruedump" --check "$pcap" >"$out" || { tail "$out"; return 1; }
	"$ruedump" --json "$pcap" >"$out.json" || return 1
	# requests: RUD, SES standard SEND, the job; ACK_CC back; SYN first
	grep -q 'RUD_REQ' "$out" && grep -q 'SEND' "$out" &&
	grep -q 'ACK_CC' "$out" && grep -qi 'syn' "$out" &&
	grep -qi "job.*$JOB\|job.*0x4242" "$out" || { head -40 "$out"; return 1; }
}

count() {
	grep -c "$1" "$kmsg_log" 2>/dev/null
}

balance() {
	local qc qd mc md pc pd
	qc=$(count 'rue_create_qp: created')
	qd=$(count 'rue_destroy_qp: destroyed')
	mc=$(count 'MR 0x[0-9a-f]* created')
	md=$(count 'MR 0x[0-9a-f]* destroyed')
	pc=$(count 'PDC [0-9]* created')
	pd=$(count 'PDC [0-9]* freed')
	echo "QPs $qc/$qd, MRs $mc/$md, PDCs $pc/$pd (created/freed)"
	[ "$qc" -gt 0 ] && [ "$qc" = "$qd" ] && [ "$mc" = "$md" ] &&
	[ "$pc" -gt 0 ] && [ "$pc" = "$pd" ]
}

# Target PDCs go after an idle time; initiator PDCs with their QPs.
t_no_leaks() {
	[ -n "${kmsg_pid:-}" ] || { echo "no dynamic debug"; return $ksft_skip; }
	busywait 15000 balance >/dev/null
	balance
}

# The unprivileged case runs as nobody in its own case below.
[ $# -gt 0 ] || set -- --gtest_filter=-UetCreate.Unprivileged*

tap_init
run_test "setup" t_setup
if [ "$_tap_pass" = 1 ]; then
	run_uet_test "$@"
	run_test "jobs: an unprivileged user creates QPs only in its own job" t_job_grant_enforced
	run_test "jobs: revoked and granted again" t_job_busy
	run_test "wire: captured UET packets decode with ruedump" t_wire
	for imp in "loss 1%" "loss 5%" "delay 1ms reorder 90% 50%" "duplicate 5%"; do
		if impair $imp; then
			tap_log "netem $imp"
			run_uet_test --gtest_filter='Verbs/Uet.*/TwoDevices*:-*Late*'
		else
			tap_fail "netem $imp" "tc failed"
		fi
		unimpair
	done
	rdma statistic show link rva/1 >"$RUE_OUT/rue_uet.stats" 2>&1
	rdma statistic show link rvb/1 >>"$RUE_OUT/rue_uet.stats" 2>&1
	run_test "every QP, MR and PDC the kernel created was released" t_no_leaks
fi
tap_done
