#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The standard tools run over rue unchanged: perftest (every bandwidth
# test at all sizes from 2 B to 8 MiB with -a, and with eight QPs with
# -q 8; every latency test at 64 B and 1 MiB; all with and without
# rdma_cm; UC QPs' WRITE and SEND too), ibv_rc_pingpong, ibv_uc_pingpong,
# ibv_ud_pingpong and ibv_srq_pingpong with data checks, SENDs into
# shared receive queues (--use-srq, RC and UD), the rdma_cm tools rping,
# ucmatose and mckey (UD multicast), libfabric's fi_pingpong over its
# verbs provider and UCX's ucx_perftest over its verbs transports,
# between two network namespaces and (a subset) on one device; then
# librdmacm's other examples between the namespaces: udaddy,
# rdma_server/rdma_client, rsockets (rstream, riostream, rcopy) and
# cmtime.  Not udpong: rsocket datagram sockets make an address handle
# without a GRH (ds_add_qp_dest()), which no RoCE device takes.
#
#   ns A: veth t0 10.11.0.1 (rue rt0) <---> veth t1 10.11.0.2 (rue rt1) : ns B
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip ib_write_bw ibv_rc_pingpong rping ucmatose mckey stdbuf fi_pingpong \
	ucx_perftest udaddy rdma_server rstream riostream rcopy cmtime

LIMIT=${RUE_TOOLS_TIMEOUT:-180}

t_setup() {
	rue_install_module && modprobe rue && modprobe rdma_ucm || return 1
	ns_pair_setup -d t0,t1 -4 10.11.0.1,10.11.0.2 -l rt0,rt1 -g
}

# pair TOPO PORT SERVER_CMD... -- CLIENT_CMD...: the server in ns A, the
# client in ns B (TOPO=netns) or also in ns A on the same device
# (TOPO=loop).
pair() {
	local topo=$1 cns=$B
	[ "$topo" = loop ] && cns=$A
	shift
	RUE_PAIR_TIMEOUT=$LIMIT server_client "$A" "$cns" "$@"
}

# perftest TOPO TEST ARGS...
perftest() {
	local topo=$1 t=$2 dev_s=rt0 dev_c=rt1 gs gc
	shift 2
	[ "$topo" = loop ] && dev_c=rt0
	gs=$(gid_index_of $dev_s 10.11.0.1) || return 1
	gc=$(gid_index_of $dev_c "$([ "$topo" = loop ] && echo 10.11.0.1 || echo 10.11.0.2)") || return 1
	perftest_cm_pair pair "$topo" 18515 "$t" -d $dev_s -x "$gs" -F "$@" -- \
		"$t" -d $dev_c -x "$gc" -F "$@" 10.11.0.1
}

matrix_case() {
	local topo=$1 t=$2
	shift 2
	run_test "$t $* ($topo)" perftest "$topo" "$t" "$@"
}

pingpong() {
	local topo=$1 prog=$2 dev_c=rt1 gc
	[ "$topo" = loop ] && dev_c=rt0
	gc=$(gid_index_of $dev_c "$([ "$topo" = loop ] && echo 10.11.0.1 || echo 10.11.0.2)") || return 1
	pair "$topo" 18515 "$prog" -d rt0 -g "$(gid_index_of rt0 10.11.0.1)" -n 200 -s 4000 -c -- \
		"$prog" -d $dev_c -g "$gc" -n 200 -s 4000 -c 10.11.0.1
}

udpingpong() {
	local topo=$1 dev_c=rt1 gc
	[ "$topo" = loop ] && dev_c=rt0
	gc=$(gid_index_of $dev_c "$([ "$topo" = loop ] && echo 10.11.0.1 || echo 10.11.0.2)") || return 1
	pair "$topo" 18515 ibv_ud_pingpong -d rt0 -g "$(gid_index_of rt0 10.11.0.1)" -n 200 -s 1000 -c -- \
		ibv_ud_pingpong -d $dev_c -g "$gc" -n 200 -s 1000 -c 10.11.0.1
}

t_rping() {
	pair "$1" 7174 rping -s -a 10.11.0.1 -C 50 -V -S 1000 -- \
		rping -c -a 10.11.0.1 -C 50 -V -S 1000
}

t_ucmatose() {
	pair "$1" 7471 ucmatose -b 10.11.0.1 -c 4 -C 20 -S 8192 -- \
		ucmatose -s 10.11.0.1 -c 4 -C 20 -S 8192
}

# libfabric's verbs provider: fi_pingpong of 64 KiB messages, data
# checked, over MSG endpoints (rdma_cm connections) or RDM ones (ofi_rxm
# over them, as MPI uses libfabric; at its default universe size it asks
# for CQs larger than 32768 entries).  fi_pingpong TOPO msg|rdm
t_fi_pingpong() {
	local dev_c=rt1 prov=verbs
	[ "$1" = loop ] && dev_c=rt0
	[ "$2" = rdm ] && prov='verbs;ofi_rxm'
	pair "$1" 47592 fi_pingpong -p "$prov" -e $2 -d rt0 -S 65536 -I 100 -c -- \
		fi_pingpong -p "$prov" -e $2 -d $dev_c -S 65536 -I 100 -c 10.11.0.1
}

# UCX, as MPI and UCX applications use it: ucx_perftest over UCX's own
# verbs transports, ud_verbs (UCX's UD reliability; it checks each
# datagram's destination address in the GRH area against the device's
# GIDs, using the packet type RoCE NICs give in the completion's sl) and
# rc_verbs (tag matching, rendezvous, puts, gets, atomics).  UCX_TLS only
# keeps UCX off shared memory, which two namespaces of one host share.
# ucx_perftest checks completions, not data.  t_ucx TOPO TLS ARGS...
t_ucx() {
	local topo=$1 tls=$2 dev_c=rt1
	shift 2
	[ "$topo" = loop ] && dev_c=rt0
	pair "$topo" 13337 env UCX_TLS=$tls UCX_NET_DEVICES=rt0:1 \
		ucx_perftest -p 13337 -- \
		env UCX_TLS=$tls UCX_NET_DEVICES=$dev_c:1 \
		ucx_perftest 10.11.0.1 -p 13337 "$@"
}

# mckey: two UD QPs of ns B receive a group's datagrams.
t_mckey() {
	mckey_pair "$B" 10.11.0.2 "$A" 10.11.0.1 239.1.11.2
}

# librdmacm's other examples, between the namespaces.  udaddy: four UD
# QPs whose peers rdma_cm resolves (RDMA_PS_UDP), 20 datagrams each way.
t_udaddy() {
	pair netns 7174 udaddy -b 10.11.0.1 -c 4 -C 20 -S 1000 -- \
		udaddy -s 10.11.0.1 -b 10.11.0.2 -c 4 -C 20 -S 1000
}

# rdma_server/rdma_client: rdma_create_ep() and the synchronous verbs
# wrappers of <rdma/rdma_verbs.h>, one inline SEND each way.
t_rdma_server() {
	pair netns 7471 rdma_server -s 10.11.0.1 -- rdma_client -s 10.11.0.1
}

# rsockets, the stream sockets of librdmacm over RC QPs (what
# librspreload gives socket programs): rstream and riostream (the
# latter through riomap()/riowrite(), RDMA WRITEs into a mapped
# buffer), 64 KiB transfers, data verified (-T v), blocking calls (-T
# b): with their default non-blocking calls, and with -T a (poll() with
# a timeout of 0), the server spins in accept where listening() cannot
# see it wait.  t_rstream PROG OPT...
t_rstream() {
	local prog=$1
	shift
	pair netns 7471 "$prog" -b 10.11.0.1 -S 65536 -C 50 -I 2 "$@" -- \
		"$prog" -s 10.11.0.1 -S 65536 -C 50 -I 2 "$@"
}

# rcopy: a file of 3 MiB and a bit, copied over an rsocket into ns A,
# compared.  In tmpfs: the server mmap()s the file it writes.
t_rcopy() {
	local src=/dev/shm/rue-rcopy.src dst=/dev/shm/rue-rcopy.dst rc
	head -c 3145799 /dev/urandom >"$src" && rm -f "$dst" || return 1
	daemon_client "$A" "$B" 7427 rcopy -p 7427 -- \
		rcopy "$src" 10.11.0.1:"$dst" -p 7427 && cmp "$src" "$dst"
	rc=$?
	rm -f "$src" "$dst"
	return $rc
}

# cmtime: 50 RC connections set up and torn down at once.
t_cmtime() {
	daemon_client "$A" "$B" 7471 cmtime -b 10.11.0.1 -- \
		cmtime -s 10.11.0.1 -b 10.11.0.2 -c 50
}

t_counters_clean() {
	local dev bad=0 c
	for dev in rt0 rt1; do
		for c in rx_drop_bad_header rx_drop_icrc rx_drop_opcode tx_drops \
			 retry_exceeded cq_overflows; do
			[ "$(rue_stat $dev $c)" = 0 ] || { echo "$dev $c = $(rue_stat $dev $c)"; bad=1; }
		done
	done
	return $bad
}

tap_init
run_test "setup" t_setup
# Between the namespaces, everything; on one device (rue's in-memory
# delivery, loop.c, whose packets carry many MTUs each), what exercises
# that path differently: every opcode at every size, many QPs, the
# pingpongs and the rdma_cm, libfabric and UCX clients once each.
for topo in netns loop; do
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		matrix_case $topo $t -a -n 5
	done
	matrix_case $topo ib_read_bw -q 8 -s 65536 -n 50
	matrix_case $topo ib_atomic_bw -n 500
	if [ $topo = netns ]; then
		# UC on one device: the Uc and Multicast GoogleTest suites
		# (rue_verbs) cover loop.c's UC and multicast delivery
		matrix_case $topo ib_write_bw -c UC -a -n 5
		matrix_case $topo ib_write_bw -q 8 -s 65536 -n 50
		matrix_case $topo ib_send_bw -q 8 -s 65536 -n 50
		for t in ib_write_bw ib_read_bw ib_send_bw; do
			matrix_case $topo $t -R -s 4096 -n 200
		done
		matrix_case $topo ib_send_bw --use-srq -a -n 5
		matrix_case $topo ib_send_bw -c UD --use-srq -n 200
		matrix_case $topo ib_atomic_bw -R -n 200
		for t in ib_write_lat ib_read_lat ib_send_lat; do
			matrix_case $topo $t -s 1048576 -n 8
			matrix_case $topo $t -R -s 64 -n 200
		done
		matrix_case $topo ib_atomic_lat -n 200
		# UC: WRITE and SEND without acknowledgements
		matrix_case $topo ib_send_bw -c UC -a -n 5
		matrix_case $topo ib_write_lat -c UC -s 65536 -n 100
		matrix_case $topo ib_send_lat -c UC -s 64 -n 200
		# what else perftest is run with: both directions at once
		# (-b), completion events (-e), lists of WQEs per post (-l),
		# inline data (-I), UD latency
		matrix_case $topo ib_send_bw -b -e -l 4 -s 65536 -n 200
		matrix_case $topo ib_write_bw -b -I 64 -s 64 -n 2000
		matrix_case $topo ib_send_lat -c UD -I 64 -s 32 -n 200
	fi
	run_test "ibv_rc_pingpong with data check ($topo)" pingpong $topo ibv_rc_pingpong
	run_test "ibv_uc_pingpong with data check ($topo)" pingpong $topo ibv_uc_pingpong
	run_test "ibv_srq_pingpong, 16 QPs on one SRQ, data check ($topo)" pingpong $topo ibv_srq_pingpong
	run_test "ibv_ud_pingpong with data check ($topo)" udpingpong $topo
	run_test "rping with data check ($topo)" t_rping $topo
	run_test "ucmatose, 4 connections ($topo)" t_ucmatose $topo
	run_test "fi_pingpong, libfabric RDM endpoints (verbs;ofi_rxm), data checked ($topo)" t_fi_pingpong $topo rdm
	run_test "ucx_perftest tag_bw 1 MiB (rendezvous) over rc_verbs ($topo)" \
		t_ucx $topo rc_verbs,ud_verbs -t tag_bw -s 1048576 -w 10 -n 100
	[ $topo = netns ] || continue
	run_test "mckey, a multicast group of 2 UD QPs ($topo)" t_mckey
	run_test "fi_pingpong, libfabric verbs provider, data checked ($topo)" t_fi_pingpong $topo msg
	run_test "ucx_perftest tag_lat over UCX's ud_verbs ($topo)" \
		t_ucx $topo ud_verbs -t tag_lat -s 8 -w 100 -n 1000
	run_test "ucx_perftest ucp_get 64 KiB over rc_verbs ($topo)" \
		t_ucx $topo rc_verbs,ud_verbs -t ucp_get -s 65536 -w 10 -n 200
	run_test "ucx_perftest ucp_fadd over rc_verbs ($topo)" \
		t_ucx $topo rc_verbs,ud_verbs -t ucp_fadd -w 100 -n 1000
done
run_test "udaddy, 4 UD QPs through rdma_cm (netns)" t_udaddy
run_test "rdma_server/rdma_client (netns)" t_rdma_server
run_test "rstream, rsockets, blocking calls, data verified (netns)" t_rstream rstream -T v -T b
run_test "riostream, rsockets' riomap/riowrite, data verified (netns)" \
	t_rstream riostream -T v -T b
run_test "rcopy, a file over rsockets (netns)" t_rcopy
run_test "cmtime, 50 connections at once (netns)" t_cmtime
run_test "no drops, bad packets or errors counted" t_counters_clean
tap_done
