#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Teardown under traffic (issue 15, "churn and faults"): while RC and UET
# transfers run through them, rue devices are deleted ("rdma link
# delete", either side), their netdev is removed, their namespace dies
# with its processes, the module is removed, and the clients are killed.
# Teardown can race anything: none of this may hang, complain on the
# console or keep a resource.  After each, every traffic process is
# gone, the surviving devices hold no QP, MR or PDC, a fresh pair of
# devices carries verified RC and UET transfers, and "rmmod rue"
# succeeds (nothing kept a module reference).
#
#   ns A: a0 10.7.0.1 (rue rca) <--veth--> b0 10.7.0.2 (rue rcb) :ns B
#
# Traffic, servers in B and clients in A, each for up to 120 s:
# rueperf RC WRITE over 2 QPs and UET RUD SEND over 2 peers (both
# verified), and perftest's ib_read_bw (READ responses in flight).
# RUE_CHURN_CYCLES (2) sets how many delete-under-traffic cycles the
# first case runs.  RUE_TIME_SCALE (1) multiplies every time bound: a
# kernel that runs everything N times slower (the sanitizer kernel:
# scripts/check sets it from its measured slowdown) gets N times longer
# before a teardown counts as hung.
caller_build=${RUE_BUILD:-}
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip timeout ib_read_bw

build=${caller_build:-$RUE_TOP/build}
prog=$build/userspace/rueperf/rueperf
ruectl=$build/userspace/ruectl/ruectl
if [ ! -x "$prog" ] || [ ! -x "$ruectl" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP rueperf or ruectl is not built"
	exit $ksft_skip
fi

job=$((0x5252))
log=$RUE_OUT/rue_churn
cycles=${RUE_CHURN_CYCLES:-2}
scale=${RUE_TIME_SCALE:-1}
pids=()

# ms N, sec N: a bound of N milliseconds (seconds) on a kernel of normal speed.
ms() { echo $(($1 * scale)); }
sec() { echo $(($1 * scale)); }

# up: namespaces A and B (new ones), the veth pair, the two devices and
# the UET job on both.
up() {
	unset A B
	rue_install_module && modprobe rue || return 1
	ns_pair_setup -4 10.7.0.1,10.7.0.2 -l rca,rcb -g -p || return 1
	"$ruectl" job add rca $job && "$ruectl" job add rcb $job
}

# bg NS LOG CMD...: CMD in namespace NS in the background, its PID in
# pids ("ip netns exec" execs CMD: the PID is CMD's own, which SIGKILL
# must end).
bg() {
	local ns=$1 out=$2
	shift 2
	(exec ip netns exec "$ns" "$@" >"$out" 2>&1) &
	pids+=($!)
}

# moving DEV: DEV's transmit counter moves within 300 ms.
moving() {
	local t0 t1
	t0=$(rue_stat "$1" tx_packets)
	sleep 0.3
	t1=$(rue_stat "$1" tx_packets)
	[ -n "$t0" ] && [ -n "$t1" ] && [ "$t1" -gt "$t0" ]
}

# uet_flowing: rca's UET initiator has an open PDC.
uet_flowing() {
	"$ruectl" pdc show rca 2>/dev/null | grep -q .
}

# traffic: start the three transfers and wait until each one flows.
traffic() {
	local gid_a gid_b
	pids=()
	gid_a=$(gid_index_of rca 10.7.0.1) && gid_b=$(gid_index_of rcb 10.7.0.2) ||
		{ echo "no GIDs"; return 1; }
	bg "$B" "$log.rc.srv" "$prog" server -d rcb --port 18530
	bg "$B" "$log.uet.srv" "$prog" server -d rcb --port 18531
	bg "$B" "$log.read.srv" ib_read_bw -d rcb -x "$gid_b" -p 18532 -D 120 -s 65536
	busywait "$(ms 30000)" listening "$B" 18530 && busywait "$(ms 30000)" listening "$B" 18531 &&
	busywait "$(ms 30000)" listening "$B" 18532 || { echo "servers not listening"; return 1; }
	bg "$A" "$log.rc.cli" "$prog" client -d rca 10.7.0.2 --port 18530 \
		--op write -P 2 -D 120 --verify
	bg "$A" "$log.uet.cli" "$prog" client -d rca 10.7.0.2 --port 18531 \
		--transport rud --job $job --op send -P 2 -D 120 --verify
	bg "$A" "$log.read.cli" ib_read_bw -d rca -x "$gid_a" -p 18532 -D 120 \
		-s 65536 10.7.0.2
	# rueperf's 2 RC QPs and perftest's in RTS (not counting GSI's)
	busywait "$(ms 30000)" bash -c "[ \$(rdma res show qp link rca/1 |
		grep -v 'lqpn 1 ' | grep -c RTS) -ge 3 ]" ||
		{ echo "QPs not up:"; rdma res show qp; return 1; }
	busywait "$(ms 30000)" uet_flowing || { echo "no UET PDC"; return 1; }
	busywait "$(ms 30000)" moving rca || { echo "no traffic on rca"; return 1; }
}

# all_gone: every traffic process has exited (a zombie counts as gone).
all_gone() {
	local p
	for p in "${pids[@]}"; do
		running "$p" && return 1
	done
	return 0
}

# end_traffic: kill what is left of the traffic (it may spin on a dead
# device's zeroed rings until its duration); every process must be
# gone within 20 s - one stuck in the kernel is a defect.
end_traffic() {
	kill -9 "${pids[@]}" 2>/dev/null
	if ! busywait "$(ms 20000)" all_gone; then
		echo "traffic processes left after SIGKILL:"
		ps -o pid,stat,wchan:32,args -p "${pids[*]// /,}"
		return 1
	fi
	wait "${pids[@]}" 2>/dev/null
	pids=()
}

# idle DEV: DEV holds no QP (but the GSI QP), MR or PDC.
idle() {
	local qps mrs
	qps=$(rdma res show qp link "$1/1" 2>/dev/null | grep -cv 'lqpn 1 ')
	mrs=$(rdma res show mr dev "$1" 2>/dev/null | grep -c .)
	[ "$qps" = 0 ] && [ "$mrs" = 0 ] && ! "$ruectl" pdc show "$1" 2>/dev/null | grep -q .
}

# serving: after whatever happened, a fresh pair of devices (on a new
# veth pair and namespaces) carries verified RC and UET transfers.
serving() {
	up || return 1
	server_client "$B" "$A" 18533 "$prog" server -d rcb --port 18533 -- \
		"$prog" client -d rca 10.7.0.2 --port 18533 --op read -P 2 \
		-n 200 --verify || return 1
	server_client "$B" "$A" 18534 "$prog" server -d rcb --port 18534 -- \
		"$prog" client -d rca 10.7.0.2 --port 18534 --transport rud \
		--job $job --op write -n 200 --verify
}

# finish: everything is torn down and the module is removed: no device,
# QP or MR kept a reference to it.
finish() {
	_run_cleanup
	busywait "$(ms 10000)" bash -c '! ls /sys/class/infiniband | grep -q "^rc[ab]$"' ||
		{ echo "devices left"; ls /sys/class/infiniband; return 1; }
	rmmod rue || { echo "rue refcnt $(cat /sys/module/rue/refcnt)"; return 1; }
}

t_serving() {
	serving && finish
}

# gone DEV...: the devices are unregistered within 30 s.
gone() {
	local d
	for d in "$@"; do
		busywait "$(ms 30000)" bash -c "! [ -e /sys/class/infiniband/$d ]" ||
			{ echo "$d still registered"; return 1; }
	done
}

# link_del DEV: "rdma link delete" returns within 30 s.
link_del() {
	timeout "$(sec 30)" rdma link del "$1" ||
		{ echo "rdma link del $1 failed or hung"; return 1; }
}

# The veth pair is deleted: both devices lose their netdev at once.
t_netdev() {
	up && traffic || return 1
	ip -n "$A" link del a0 || return 1
	gone rca rcb && end_traffic && finish
}

# A container dies: its processes are killed and its namespace deleted
# together, while the other side keeps sending into it.
t_netns() {
	local ns p
	up && traffic || return 1
	ns=$A
	for p in $(ip netns pids "$ns"); do kill -9 "$p"; done
	ip netns del "$ns" || return 1
	gone rca rcb && end_traffic && finish
}

# Both ends killed mid-transfer: the devices stay, and must come out
# idle (every QP, MR and PDC released by the files' release).
t_kill() {
	up && traffic || return 1
	end_traffic || return 1
	busywait "$(ms 10000)" idle rca && busywait "$(ms 10000)" idle rcb ||
		{ echo "not idle"; rdma res show; return 1; }
	finish
}

# rmmod under traffic: the module unregisters every device while its
# user contexts are open and busy (rue disassociates them).
t_rmmod() {
	up && traffic || return 1
	timeout "$(sec 60)" rmmod rue || { echo "rmmod failed or hung"; return 1; }
	gone rca rcb && end_traffic || return 1
	_run_cleanup
	! rue_module_loaded || { echo "rue still loaded"; return 1; }
}

# relink DEV: DEV (rca in A on a0, rcb in B on b0) added again, with
# its GID and the job.
relink() {
	local ns=$A nd=a0 ip=10.7.0.1
	[ "$1" = rcb ] && ns=$B nd=b0 ip=10.7.0.2
	in_ns "$ns" rdma link add "$1" type rue netdev $nd && wait_gids "$1" $ip "" &&
	"$ruectl" job add "$1" $job
}

# Cycles of traffic and a delete under it, alternating sides, with a
# random delay (0-500 ms) between "traffic flows" and the delete; the
# surviving device must come out idle each time.
t_cycles() {
	local i dev other
	up || return 1
	for ((i = 0; i < cycles; i++)); do
		dev=rca other=rcb
		[ $((i % 2)) = 1 ] && dev=rcb other=rca
		traffic || { echo "cycle $i"; return 1; }
		sleep "0.$((RANDOM % 500))"
		link_del "$dev" && gone "$dev" && end_traffic &&
		busywait "$(ms 10000)" idle "$other" && relink "$dev" ||
			{ echo "cycle $i"; rdma res show; return 1; }
	done
	echo "$cycles cycles"
	finish
}

tap_init
run_test "$cycles devices deleted under traffic, either side" t_cycles
run_test "netdev deleted under traffic" t_netdev
run_test "namespace destroyed with its processes under traffic" t_netns
run_test "clients and servers killed mid-transfer leave nothing" t_kill
run_test "rmmod under traffic" t_rmmod
run_test "after all that, new devices carry verified RC and UET transfers" t_serving
_run_cleanup
tap_done
