#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel consumers: NVMe over Fabrics and NFS over RDMA run over rue.
# The nvmet-rdma target exports a memory-backed null_blk device on a rue link, and the
# nvme-rdma host connects to it through rdma_cm; both are kernel ULPs, so
# this exercises kernel verbs, DMA and fast-registration MRs, local and
# remote invalidation, the GSI QP and the CM.  Data written through the
# fabric must read back identical, at several block sizes, and teardown
# must leave nothing behind.  Then the same with nvmet-rdma's use_srq:
# the target's queues share SRQs that it fills with ib_post_srq_recv().
# NFSv4.2 over RDMA between two namespaces (below) follows, with the
# server's rue link, then the client's, deleted and added back under
# writes.  Then the NVMe/RDMA link is deleted under I/O, rue is
# unloaded (every device at once) and loaded again under NFS writes,
# and last the client's namespace is deleted with a mount in it.
#
# NVMe/RDMA runs on one device here: nvme-rdma and nvmet-rdma create
# their rdma_cm IDs in the initial network namespace only, so no
# namespace can hold the other end.  two_hosts.sh runs both ULPs across
# a link between two guests.
#
#   init_net: veth k0 10.10.0.1 (rue link rk0) -- veth k1
#   nvmet port 10.10.0.1:4420, subsystem rue-test
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_ulp.sh"

require_guest
require_cmd rdma ip dd cmp

t_setup() {
	rue_install_module && modprobe rue || return 1
	ulp_nvme_modules target && ulp_nvme_modules host || return
	ns_pair_setup -n -,- -d k0,k1 -4 10.10.0.1, -l rk0, -g
}

t_target() {
	ulp_nvme_target 10.10.0.1
}

t_connect() {
	ulp_nvme_connect 10.10.0.1
}

t_io() {
	ulp_nvme_io
}

t_disconnect_clean() {
	ulp_nvme_disconnect && rmmod nvme-rdma || return 1
	# every QP of the host is gone; the target's follow when it notices
	ulp_no_rc_qps rk0/1
}

# nvmet-rdma again, with use_srq; nvme-rdma back for the next connect
t_srq_target() {
	local p=$ULP_CFG/nvmet/ports/1

	rm "$p/subsystems/$ULP_NQN" || return 1
	rmmod nvmet-rdma && modprobe nvmet-rdma use_srq=1 || return 1
	modprobe nvme-rdma || return 1
	[ "$(cat /sys/module/nvmet_rdma/parameters/use_srq)" = Y ] || return 1
	ln -s "$ULP_CFG/nvmet/subsystems/$ULP_NQN" "$p/subsystems/$ULP_NQN"
}

# the target's receives come from SRQs on rk0, its QPs use them
t_srq_in_use() {
	rdma resource show srq | grep -q "dev rk0" &&
	rdma resource show qp link rk0/1 | grep -q "type RC" ||
		{ rdma resource show srq; return 1; }
}

# NFS over RDMA, as a ULP's CI runs it: knfsd with an RDMA listener
# (svcrdma, port 20049) exports a tmpfs; the client (xprtrdma) mounts
# it with proto=rdma from namespace B, through its own rue device on
# the other end of a veth, so the RPCs cross the wire path.  nsenter
# --net keeps the mount in this mount namespace (ip netns exec would
# make one that ends with the command); the client's transport stays
# in B's network namespace.
#
#   init_net: veth n0 10.12.0.1 (rue rn0) <---> veth n1 10.12.0.2 (rue rn1) : ns B
t_nfs_setup() {
	ns_pair_setup -n -,B -d n0,n1 -4 10.12.0.1,10.12.0.2 -l rn0,rn1 -g || return 1
	ulp_nfs_server 10.12.0.0/24
}

t_nfs_mount() {
	ulp_nfs_mount 10.12.0.1 nsenter --net=/run/netns/$B || return 1
	ip netns exec $B rdma resource show qp link rn1/1 | grep -q "type RC" ||
		{ ip netns exec $B rdma resource show qp; return 1; }
}

# nfs_roundtrip NAME BYTES BS: through the mount and back, and the
# server's copy
nfs_roundtrip() {
	local rc
	ulp_nfs_write "$@" && cmp "$RUE_OUT/nfs.$1" "$ULP_SRV/$1"
	rc=$?
	rm -f "$RUE_OUT/nfs.$1"
	return $rc
}

# Prints each step's time and both devices' nonzero counters: how long
# the go-backs took is the first thing to look at when this is slow.
t_nfs_io() {
	local t
	t=$(date +%s%N)
	nfs_roundtrip small 4000 4000 && nfs_roundtrip mid 1048576 65536 || return 1
	echo "small, mid $((($(date +%s%N) - t) / 1000000)) ms"; t=$(date +%s%N)
	nfs_roundtrip big 16777216 1048576 || return 1
	echo "big $((($(date +%s%N) - t) / 1000000)) ms"; t=$(date +%s%N)
	# buffered, many files: the page cache flushes through the mount
	cp -r /usr/share/doc/bash $ULP_MNT/tree && sync &&
	diff -r /usr/share/doc/bash $ULP_SRV/tree || return 1
	echo "tree $((($(date +%s%N) - t) / 1000000)) ms"
	for d in rn0 rn1; do
		echo "$d: $(ip netns exec $B rdma statistic show link $d/1 | tr ' ' '\n' | paste - - |
			awk '$2 != 0 && $1 !~ /prio|bytes/' | tr '\n\t' '; ')"
	done
}

# nfs_under_writes TAG LOST CMD...: CMD (devices going and coming back)
# while files are written through the mount and each synced, one after
# another until told to stop: the devices go under writes however fast
# they are, and three more files follow their return.  The hard mount
# outlives its transport: xprtrdma and svcrdma let the device go, the
# client reconnects through the new one, and every file written arrives
# whole.  LOST "none": no write may fail; "some": writes may fail (the
# failures are printed), but only with an error.
nfs_under_writes() {
	local tag=$1 lost=$2 f=$RUE_OUT/$1 i n pid
	shift 2
	rm -f "$f".*
	(i=0; until [ -e "$f.stop" ]; do
		i=$((i + 1))
		head -c 524288 /dev/urandom >"$f.$i" || exit 1
		if cp "$f.$i" "$ULP_MNT/$tag.$i" 2>>"$f.err" &&
		   sync "$ULP_MNT/$tag.$i" 2>>"$f.err"; then
			echo "$i" >>"$f.ok"
		else
			echo "$i" >>"$f.failed"
			rm -f "$f.$i"
			sleep 0.2
		fi
	done) &
	pid=$!
	defer "kill $pid"
	busywait 30000 test -s "$ULP_SRV/$tag.2" || { echo "no file arrived"; return 1; }
	"$@" || return 1
	n=$(wc -l <"$f.ok")
	busywait 120000 eval '[ "$(wc -l <"$f.ok")" -ge $((n + 3)) ]' ||
		{ echo "the writes did not go on ($n written)"; return 1; }
	touch "$f.stop"
	busywait 60000 eval '! running $pid' || { echo "writer still running"; return 1; }
	wait $pid || { echo "the writer failed"; return 1; }
	echo "$(wc -l <"$f.ok") files written, $n before the return;" \
	     "failed: $(cat "$f.failed" 2>/dev/null | tr '\n' ' ')"
	cat "$f.err" 2>/dev/null
	[ "$lost" = some ] || [ ! -e "$f.failed" ] || return 1
	while read -r i; do
		cmp "$f.$i" "$ULP_SRV/$tag.$i" || return 1
	done <"$f.ok"
	rm -f "$f".* "$ULP_MNT/$tag".*
}

# relink NS LINK NETDEV ADDR: LINK (on NETDEV with ADDR, in NS, "-" ours)
# deleted and added back
relink() {
	timeout 30 rdma link del "$2" || { echo "rdma link del $2 failed or hung"; return 1; }
	relink_add "$@"
}

# task_stacks PID...: what each task is and where it sleeps
task_stacks() {
	local p
	for p; do
		echo "$p $(cat /proc/$p/comm) $(cat /proc/$p/wchan): $(tr '\0' ' ' </proc/$p/cmdline)"
		head -n 12 /proc/$p/stack
	done 2>/dev/null
}

relink_add() {
	in_ns "$1" rdma link add "$2" type rue netdev "$3" && wait_gids "$2" "$4" ""
}

# rue unloaded (both NFS devices go in one ib_unregister_driver(), the
# clients of each removed while the ULPs hold QPs, MRs and CQs on them),
# loaded again, and both links added back.  No signal to rmmod: one sent
# while it waits kills it after the unload, which then looks failed.
# Once on 6.12 the unload took more than 60 s; a guess, unconfirmed:
# rpcrdma's removal of the client's device waiting for a reconnect whose
# CM REQ retries end after about 77 s.  If it happens again the stacks
# of rmmod and of every task in D state say where it waited.
unload_rue() {
	local pid t=$SECONDS
	rmmod rue &
	pid=$!
	busywait 60000 eval '! running $pid' || {
		echo "rmmod rue still running after 60 s"
		task_stacks $pid $(ps -eo pid=,stat= | awk '$2 ~ /D/ { print $1 }')
		return 1
	}
	wait $pid || { echo "rmmod rue failed"; return 1; }
	echo "rmmod took $((SECONDS - t)) s"
	modprobe rue && relink_add - rn0 n0 10.12.0.1 && relink_add "$B" rn1 n1 10.12.0.2
}

# The server's device goes and returns: svcrdma drops its connections
# with it.
t_nfs_relink() {
	nfs_under_writes srv none relink - rn0 n0 10.12.0.1
}

# The client's: xprtrdma's device removal closes the transport under
# RPCs in flight, which it sends again on the new device.
t_nfs_client_relink() {
	nfs_under_writes cli none relink "$B" rn1 n1 10.12.0.2
}

# Both, and the module with them.  Writes may fail here: the devices go
# one after the other, and the client's going while xprtrdma reconnects
# to the server's (gone first) ends the connect with ENODEV
# (rpcrdma_cm_event_handler(), DEVICE_REMOVAL), which the RPC client
# takes as fatal (call_connect_status()) and fails the RPCs waiting for
# it; with any RDMA device.
t_nfs_unload() {
	nfs_under_writes unload some unload_rue
}

# umount and nfsd stopped: no RC QP left on either rue device
t_nfs_teardown() {
	umount $ULP_MNT && rpc.nfsd 0 || return 1
	ulp_no_rc_qps rn1/1 "$B" && ulp_no_rc_qps rn0/1
}

# A container's namespace deleted with an NFS mount in it: the mount's
# transport holds the namespace, so its name goes and the writes go on;
# the umount lets it go, and with it the veth pair and both rue devices
# on it, removed in the namespace's cleanup while knfsd listens on rn0
# (its device removal lets the listener go).  nfsd is started again for
# it: t_nfs_teardown stopped it.
t_nfs_netns_exit() {
	local t
	rpc.nfsd -N 3 -U 4 && echo "rdma 20049" >/proc/fs/nfsd/portlist || return 1
	ulp_nfs_mount 10.12.0.1 nsenter --net=/run/netns/$B &&
	nfs_roundtrip before_del 1048576 65536 || return 1
	ip netns del "$B" || return 1
	nfs_roundtrip after_del 1048576 65536 || { echo "no write after the name went"; return 1; }
	[ -e /sys/class/infiniband/rn1 ] || { echo "rn1 went with the name"; return 1; }
	t=$SECONDS
	umount $ULP_MNT || return 1
	busywait 60000 bash -c '! ls /sys/class/infiniband | grep -qx "rn[01]"' ||
		{ echo "left: $(ls /sys/class/infiniband | tr '\n' ' ')"; return 1; }
	echo "rn0 and rn1 gone $((SECONDS - t)) s after the umount began"
	rpc.nfsd 0
}

# The rue link deleted under NVMe/RDMA I/O, as a device can go under a
# ULP (rdma link delete, its netdev removed): nvme-rdma's client removal
# deletes the controller, the I/O in flight fails rather than hangs, and
# nvme-rdma then unloads (nothing of the device was kept).  Both ends are
# on rk0, so the target loses its queues in the same removal.  The I/O
# loops end with the block device: a dd started after it went would
# write a regular file of its name in devtmpfs (which takes O_DIRECT
# since 6.6) and go on for ever.
t_delete_under_io() {
	local n
	ulp_nvme_connect 10.10.0.1 || return 1
	n=$(basename "$NVME_DEV"); n=${n%n1}
	(while [ -b "$NVME_DEV" ] && dd if=/dev/urandom of="$NVME_DEV" bs=65536 \
		count=64 oflag=direct conv=nocreat status=none; do :; done) \
		2>"$RUE_OUT/ulp.writer" &
	io_pids=($!)
	(while [ -b "$NVME_DEV" ] && dd if="$NVME_DEV" of=/dev/null bs=1M count=8 \
		iflag=direct status=none; do :; done) 2>"$RUE_OUT/ulp.reader" &
	io_pids+=($!)
	defer "kill ${io_pids[*]}"
	busywait 10000 io_moving || { echo "no I/O on rk0"; return 1; }
	timeout 30 rdma link del rk0 || { echo "rdma link del rk0 failed or hung"; return 1; }
	busywait 30000 bash -c "! [ -e /sys/class/nvme/$n ]" ||
		{ echo "controller $n left"; return 1; }
	busywait 30000 io_ended || { io_stuck; return 1; }
	echo "writer: $(tail -n 1 "$RUE_OUT/ulp.writer"); reader: $(tail -n 1 "$RUE_OUT/ulp.reader")"
	rmmod nvme-rdma
}

# io_moving: rk0 sends within 300 ms
io_moving() {
	local t0
	t0=$(rue_stat rk0 tx_packets)
	sleep 0.3
	[ "$(rue_stat rk0 tx_packets)" -gt "${t0:-0}" ]
}

# what the I/O still running waits for, last in the output (a failure
# shows its last lines)
io_stuck() {
	echo "I/O still running"
	ls /sys/class/nvme /sys/block 2>&1 | tr '\n' ' '
	echo
	task_stacks $(pgrep -x dd) "${io_pids[@]}"
}

io_ended() {
	local p
	for p in "${io_pids[@]}"; do
		running "$p" && return 1
	done
	return 0
}

io_pids=()
tap_init
run_test "setup: null_blk, nvmet-rdma, nvme-rdma, a rue link" t_setup
run_test "nvmet-rdma target on the rue link" t_target
run_test "nvme-rdma host connects through rdma_cm" t_connect
run_test "data written through NVMe/RDMA reads back identical" t_io
run_test "disconnect releases every host QP" t_disconnect_clean
run_test "nvmet-rdma again, with shared receive queues" t_srq_target
run_test "nvme-rdma host connects to the SRQ target" t_connect
run_test "the target receives through SRQs" t_srq_in_use
run_test "data through the SRQ target reads back identical" t_io
run_test "disconnect from the SRQ target releases every host QP" t_disconnect_clean
run_test "setup: knfsd with an RDMA listener, a rue link in namespace B" t_nfs_setup
run_test "NFSv4.2 client in namespace B mounts over RDMA" t_nfs_mount
run_test "files written over NFS/RDMA are the server's and read back identical" t_nfs_io
run_test "the server's rue link deleted and added back under NFS writes: every file arrives" \
	t_nfs_relink
run_test "the client's rue link deleted and added back under NFS writes: every file arrives" \
	t_nfs_client_relink
run_test "rue link deleted under NVMe/RDMA I/O: controller removed, I/O failed, nothing kept" \
	t_delete_under_io
run_test "rue unloaded and loaded again under NFS writes: every file written arrives" t_nfs_unload
run_test "umount and stopping nfsd release every RC QP" t_nfs_teardown
run_test "namespace B deleted with an NFS mount in it: writes go on, the umount takes its rue devices" \
	t_nfs_netns_exit
tap_done
