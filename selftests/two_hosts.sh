#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two hosts: rue between two guests joined by a point-to-point Ethernet
# link (scripts/vm-pair; each guest's eth0, virtio-net), a user's setup
# with two machines - no namespaces, no veth, no kernel shared by the two
# ends.  Host a serves, host b connects; both walk the same list of cases
# in step and each reports its own side.  First rue on both hosts, then
# rue on a against rdma_rxe on b (tools, NVMe/RDMA and NFS/RDMA clients).
#
#   host a: eth0 10.20.0.1 (rue ra) <--- link ---> eth0 10.20.0.2 (rue rb; then rxe rxb) : host b
#
#   scripts/vm-pair -k 6.12 -- selftests/two_hosts.sh
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip ib_write_bw ibv_rc_pingpong rping ucmatose ucx_perftest udaddy rstream \
	fi_pingpong

source "$(dirname "$0")/lib_pair.sh"
source "$(dirname "$0")/lib_ulp.sh"

A=$PAIR_A
LIMIT=${RUE_TWO_HOSTS_TIMEOUT:-150}
PAIR_WAIT=$((LIMIT + 60))
STEP=0
DEV=            # this host's RDMA device
GID=            # and the GID index of its address

[ -n "$PAIR_ME" ] ||
	{ echo "TAP version 13"; echo "1..0 # SKIP RUE_HOST is not a or b (scripts/vm-pair)"
	  exit $ksft_skip; }
_tap_name="two_hosts ($HOST)"

t_setup() {
	pair_link_up || return
	rue_install_module && modprobe rue && modprobe rdma_ucm || return 1
	use_link rue "r$HOST"
}

# use_link TYPE NAME: this host's RDMA device is NAME (rue or rxe) on eth0
use_link() {
	[ -z "$DEV" ] || rdma link delete "$DEV" || return 1
	[ "$1" = rxe ] && { modprobe rdma_rxe || return 1; }
	rdma link add "$2" type "$1" netdev eth0 || return 1
	DEV=$2
	busywait 10000 gid_index_of "$DEV" "$PAIR_ME" >/dev/null || return 1
	GID=$(gid_index_of "$DEV" "$PAIR_ME")
}

# step NAME CMD...: run_test, both hosts together (meet).
step() {
	local name=$1
	shift
	STEP=$((STEP + 1))
	run_test "$name" meet_and "$STEP" "$@"
}

meet_and() {
	meet "$1" || return 1
	shift
	"$@"
}

# Output that says the server was not there yet: the client tries again.
# A connection manager REQ that comes before the server listens gets a REJ
# with reason 8 (invalid service ID); perftest reports it as "Unexpected
# CM event ... 8" (RDMA_CM_EVENT_REJECTED).
not_yet='Couldn.t connect|Connection refused|REJECTED|UNREACHABLE|ADDR_ERROR|connect error'
not_yet+='|Unexpected CM event.* 8$'

# pair SERVER... -- CLIENT...: host a runs SERVER, host b CLIENT; both
# must succeed.  The client tries again, for up to 60 s, while the server
# is not listening yet.
pair() {
	local srv=() cli=() in_cli=0 x log=$RUE_OUT/two_hosts.$$ rc start
	for x in "$@"; do
		if [ "$x" = -- ]; then in_cli=1; continue; fi
		if [ $in_cli = 1 ]; then cli+=("$x"); else srv+=("$x"); fi
	done
	if [ "$HOST" = a ]; then
		timeout "$LIMIT" "${srv[@]}" >"$log" 2>&1
		rc=$?
	else
		start=$(date +%s)
		while true; do
			timeout "$LIMIT" "${cli[@]}" >"$log" 2>&1
			rc=$?
			[ $rc = 0 ] && break
			grep -qE "$not_yet" "$log" && [ $(($(date +%s) - start)) -lt 60 ] ||
				break
			sleep 0.5
		done
	fi
	if [ $rc != 0 ]; then
		echo "exit $rc:"; pair_tail "$log"
		link_report
		diag
		return 1
	fi
	tail -n 3 "$log"
}

# perftest TEST ARGS... and pingpong PROG ARGS...: the same on both
# sides, with this host's device and GID; the client names host a.
perftest() {
	local t=$1
	shift
	pair "$t" -d "$DEV" -x "$GID" -F "$@" -- "$t" -d "$DEV" -x "$GID" -F "$@" $A
}

pingpong() {
	local p=$1
	shift
	pair "$p" -d "$DEV" -g "$GID" "$@" -- "$p" -d "$DEV" -g "$GID" "$@" $A
}

t_rping() {
	pair rping -s -a $A -C 50 -V -S 1000 -- rping -c -a $A -C 50 -V -S 1000
}

t_ucmatose() {
	pair ucmatose -b $A -c 4 -C 20 -S 8192 -- ucmatose -s $A -c 4 -C 20 -S 8192
}

t_udaddy() {
	pair udaddy -b $A -c 4 -C 20 -S 1000 -- udaddy -s $A -c 4 -C 20 -S 1000
}

# rsockets (librdmacm's stream sockets over RC), data verified.  With
# blocking calls: a non-blocking client that comes before the server
# listens reports the reject as "rpoll: Transport endpoint is not
# connected", not as a refusal to try again after (make check, 6.1).
t_rstream() {
	pair rstream -b $A -S 65536 -C 50 -I 2 -T v -T b -- \
		rstream -s $A -S 65536 -C 50 -I 2 -T v -T b
}

# libfabric's RDM endpoints (ofi_rxm over verbs), as MPI over libfabric
# uses them, at their defaults; 64 KiB messages, data checked.
t_fi_rdm() {
	pair fi_pingpong -p 'verbs;ofi_rxm' -e rdm -d "$DEV" -S 65536 -I 100 -c -- \
		fi_pingpong -p 'verbs;ofi_rxm' -e rdm -d "$DEV" -S 65536 -I 100 -c $A
}

# UCX at its defaults, as an MPI job between two hosts starts it: it
# picks its transports itself and must pick rue's: the N messages of
# SIZE bytes cross this host's rue, sent or received (eth0's TCP would
# be the other choice).  Bytes, not packets: the receiver's packets are
# the data, the sender's only the ACKs, which coalesce.
t_ucx() {
	local size=$1 n=$2 bytes
	bytes=$(($(rue_stat "$DEV" rx_bytes) + $(rue_stat "$DEV" tx_bytes)))
	pair ucx_perftest -p 13337 -- \
		ucx_perftest $A -p 13337 -t tag_bw -s "$size" -w 10 -n "$n" || return 1
	bytes=$(($(rue_stat "$DEV" rx_bytes) + $(rue_stat "$DEV" tx_bytes) - bytes))
	echo "$DEV sent and received $bytes bytes"
	[ "$bytes" -ge $((size * n)) ]
}

# Kernel ULPs across the link, as a ULP's CI runs them on two machines
# (nvme-rdma and nvmet-rdma work in the initial network namespace only,
# so one guest cannot put a wire between them).  Host a serves both:
# nvmet-rdma exports a null_blk, knfsd a tmpfs with an RDMA listener
# (started first, so that its grace period, which new OPENs wait out,
# passes while NVMe runs).
t_ulp_servers() {
	if [ "$HOST" = a ]; then
		ulp_nfs_server 10.20.0.0/24 && ulp_nvme_modules target &&
		ulp_nvme_target $A
	else
		ulp_nvme_modules host
	fi
}

# NVMe/RDMA: host b's nvme-rdma connects, writes and reads back at
# 512 B to 1 MiB blocks, disconnects.  Less data than on one guest: the
# link between two TCG guests drops bursts, and each lost tail waits
# out the ULP's transport timer (issue 17).
t_nvme_io() {
	[ "$HOST" = a ] && return 0
	ulp_nvme_connect $A && ulp_nvme_roundtrip 512 64 3 &&
	ulp_nvme_roundtrip 4096 64 17 && ulp_nvme_roundtrip 65536 16 5 &&
	ulp_nvme_roundtrip 1048576 2 9 && ulp_nvme_disconnect
}

# no RC QP left on this host's device (the other end's disconnect seen)
t_ulp_clean() {
	ulp_no_rc_qps "$DEV/1"
}

# NFSv4.2 over RDMA: host b mounts with proto=rdma, writes files
# (O_DIRECT, read back through the mount) and their checksums, unmounts;
# host a checks its copies against those (t_nfs_check), and after the
# last client stops knfsd.
t_nfs_io() {
	local n
	[ "$HOST" = a ] && return 0
	ulp_nfs_mount $A || return 1
	ulp_nfs_write small 4000 4000 && ulp_nfs_write mid 1048576 65536 &&
	ulp_nfs_write big 2097152 1048576 || return 1
	(cd "$RUE_OUT" && sha256sum nfs.small nfs.mid nfs.big) >"$ULP_MNT/SUMS" &&
	sync && umount $ULP_MNT || return 1
	for n in small mid big; do rm -f "$RUE_OUT/nfs.$n"; done
}

# t_nfs_check [stop]: host a's copies match the client's checksums;
# then knfsd stops, if asked
t_nfs_check() {
	[ "$HOST" = a ] || return 0
	(cd $ULP_SRV && sed 's/ nfs\./ /' SUMS | sha256sum -c) || return 1
	[ "${1:-}" != stop ] || rpc.nfsd 0
}

t_to_rxe() {
	[ "$HOST" = a ] && return 0
	use_link rxe rxb
}

# Nothing malformed or refused on a rue device, whichever side it served,
# and no QP failed.  vm-pair's link loses frames when a guest does not
# read them in time (as behind a switch without PFC); RC recovers by going
# back, which link_report shows after each phase (rx_drop_out_of_sequence
# counts what arrived after a gap, retransmits what went again).
t_counters() {
	local bad=0 c
	case "$DEV" in r[ab]) ;; *) return 0 ;; esac
	for c in rx_drop_bad_header rx_drop_icrc rx_drop_opcode rx_drop_qkey \
		 retry_exceeded rnr_retry_exceeded cq_overflows; do
		[ "$(rue_stat "$DEV" $c)" = 0 ] ||
			{ echo "$DEV $c = $(rue_stat "$DEV" $c)"; bad=1; }
	done
	return $bad
}

# After a failure: the UDP sockets and their misses, the neighbours and
# the connection manager's state.
diag() {
	nstat -az UdpNoPorts UdpInErrors UdpRcvbufErrors IcmpInDestUnreachs \
		IcmpOutDestUnreachs 2>&1 | grep -v '^#' | tr -s ' ' | tr '\n' ';'
	echo
	ss -uanp 2>/dev/null | grep -E ':479[13]' | head -n 4
	ip neigh show dev eth0
	rdma resource show cm_id 2>&1 | head -n 6
}

# What the link did: this host's packets and, on rue, its recovery.
link_report() {
	local c line="# link ($HOST): eth0 rx $(cat /sys/class/net/eth0/statistics/rx_packets)"
	line+=" tx $(cat /sys/class/net/eth0/statistics/tx_packets) packets"
	case "$DEV" in
	r[ab])
		for c in tx_packets rx_packets rx_drop_out_of_sequence \
			 out_of_sequence_nak_sent retransmits local_ack_timeout_err \
			 rx_drop_unknown_qp rx_drop_qp_state tx_drops; do
			line+="; $c $(rue_stat "$DEV" $c)"
		done ;;
	esac
	echo "$line"
}

tap_init
run_test "setup: eth0 up, the other host answers, rue on eth0" t_setup
step "ibv_rc_pingpong, data checked" pingpong ibv_rc_pingpong -n 200 -s 4000 -c
step "ibv_ud_pingpong, data checked" pingpong ibv_ud_pingpong -n 200 -s 1000 -c
step "ibv_uc_pingpong, data checked" pingpong ibv_uc_pingpong -n 200 -s 4000 -c
step "ibv_srq_pingpong, data checked" pingpong ibv_srq_pingpong -q 4 -n 100 -s 4000 -c
step "ib_write_bw -a" perftest ib_write_bw -a -n 5
step "ib_read_bw -s 65536" perftest ib_read_bw -s 65536 -n 200
step "ib_send_bw -q 4" perftest ib_send_bw -q 4 -s 65536 -n 100
step "ib_send_bw -c UD" perftest ib_send_bw -c UD -D 4
step "ib_atomic_bw" perftest ib_atomic_bw -n 500
step "ib_write_lat" perftest ib_write_lat -s 64 -n 500
step "ib_send_bw over rdma_cm" perftest ib_send_bw -R -s 4096 -n 200
step "rping, data checked" t_rping
step "ucmatose, 4 connections" t_ucmatose
step "ucx_perftest tag_bw 1 MiB, UCX at its defaults" t_ucx 1048576 20
step "udaddy, 4 UD QPs through rdma_cm" t_udaddy
step "rstream, rsockets, data verified" t_rstream
step "fi_pingpong, libfabric RDM endpoints, data checked" t_fi_rdm
step "ULPs: host a's nvmet-rdma exports a null_blk, knfsd a tmpfs over RDMA" t_ulp_servers
step "NVMe/RDMA: host b's nvme-rdma connects, data reads back identical" t_nvme_io
step "NVMe/RDMA: after the disconnect no RC QP is left" t_ulp_clean
step "NFS/RDMA: host b mounts, writes, reads back identical, unmounts" t_nfs_io
step "NFS/RDMA: host a's copies match host b's checksums" t_nfs_check
step "NFS/RDMA: after umount no RC QP is left" t_ulp_clean
step "nothing malformed, refused or failed on rue" t_counters
link_report
step "host b switches to rdma_rxe" t_to_rxe
step "ibv_rc_pingpong, rue to rxe, data checked" pingpong ibv_rc_pingpong -n 200 -s 4000 -c
step "ib_write_bw -a, rue to rxe" perftest ib_write_bw -a -n 5
step "ib_read_bw, rue to rxe" perftest ib_read_bw -s 65536 -n 200
step "rping, rue to rxe, data checked" t_rping
step "rstream, rue to rxe, data verified" t_rstream
step "NVMe/RDMA: rxe's nvme-rdma to rue's target, data reads back identical" t_nvme_io
step "NVMe/RDMA: after the disconnect from rxe no RC QP is left" t_ulp_clean
step "NFS/RDMA: rxe's xprtrdma mounts rue's knfsd, writes, reads back identical" t_nfs_io
step "NFS/RDMA: host a's copies match the rxe client's checksums" t_nfs_check stop
step "NFS/RDMA: after umount from rxe and nfsd stop no RC QP is left" t_ulp_clean
step "nothing malformed, refused or failed on rue (against rxe)" t_counters
link_report
tap_done
