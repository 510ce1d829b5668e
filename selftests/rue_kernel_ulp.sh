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
# NFSv4.2 over RDMA between two namespaces (below) follows.
#
#   init_net: veth k0 10.10.0.1 (rue link rk0) -- veth k1
#   nvmet port 10.10.0.1:4420, subsystem rue-test
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip dd cmp

CFG=/sys/kernel/config
NQN=rue-test
DEV=

t_setup() {
	rue_install_module && modprobe rue || return 1
	modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || return $ksft_skip
	defer "rmmod null_blk"
	modprobe nvmet-rdma && modprobe nvme-rdma || return $ksft_skip
	defer "rmmod nvme-rdma nvme-fabrics nvmet-rdma nvmet"
	mountpoint -q $CFG || mount -t configfs none $CFG || return 1
	ns_pair_setup -n -,- -d k0,k1 -4 10.10.0.1, -l rk0, -g
}

t_target() {
	local s=$CFG/nvmet/subsystems/$NQN p=$CFG/nvmet/ports/1

	mkdir "$s" && echo 1 >"$s/attr_allow_any_host" || return 1
	mkdir "$s/namespaces/1" && echo /dev/nullb0 >"$s/namespaces/1/device_path" &&
	echo 1 >"$s/namespaces/1/enable" || return 1
	mkdir "$p" && echo rdma >"$p/addr_trtype" && echo ipv4 >"$p/addr_adrfam" &&
	echo 10.10.0.1 >"$p/addr_traddr" && echo 4420 >"$p/addr_trsvcid" || return 1
	ln -s "$s" "$p/subsystems/$NQN" || return 1
	defer "rm -f $p/subsystems/$NQN; rmdir $p; echo 0 > $s/namespaces/1/enable; rmdir $s/namespaces/1; rmdir $s"
}

t_connect() {
	local n
	echo "transport=rdma,traddr=10.10.0.1,trsvcid=4420,nqn=$NQN" >/dev/nvme-fabrics ||
		return 1
	busywait 10000 bash -c 'ls /dev/nvme*n1 >/dev/null 2>&1' || return 1
	DEV=$(ls /dev/nvme*n1 | head -n 1)
	n=$(basename "$DEV"); n=${n%n1}
	defer "echo 1 > /sys/class/nvme/$n/delete_controller"
	grep -q rdma "/sys/class/nvme/$n/transport"
}

# write at a block size with O_DIRECT, read back, compare
roundtrip() {
	local bs=$1 count=$2 seek=$3 f=$RUE_OUT/nvme.$$
	head -c $((bs * count)) /dev/urandom >"$f.w" || return 1
	dd if="$f.w" of="$DEV" bs="$bs" seek="$seek" oflag=direct status=none || return 1
	dd if="$DEV" of="$f.r" bs="$bs" skip="$seek" count="$count" iflag=direct status=none ||
		return 1
	cmp "$f.w" "$f.r"
	local rc=$?
	rm -f "$f.w" "$f.r"
	return $rc
}

t_io() {
	roundtrip 512 64 3 && roundtrip 4096 256 17 && roundtrip 65536 64 5 &&
	roundtrip 1048576 16 9
}

t_disconnect_clean() {
	local n
	n=$(basename "$DEV"); n=${n%n1}
	echo 1 >"/sys/class/nvme/$n/delete_controller" || return 1
	busywait 10000 bash -c "! [ -e /sys/class/nvme/$n ]" || return 1
	rmmod nvme-rdma || return 1
	# every QP of the host is gone; the target's follow when it notices
	busywait 10000 bash -c '[ "$(rdma resource show qp 2>/dev/null | grep -c "rk0/1.*RC")" = 0 ]' ||
		{ rdma resource show qp; return 1; }
}

# nvmet-rdma again, with use_srq; nvme-rdma back for the next connect
t_srq_target() {
	local p=$CFG/nvmet/ports/1

	rm "$p/subsystems/$NQN" || return 1
	rmmod nvmet-rdma && modprobe nvmet-rdma use_srq=1 || return 1
	modprobe nvme-rdma || return 1
	[ "$(cat /sys/module/nvmet_rdma/parameters/use_srq)" = Y ] || return 1
	ln -s "$CFG/nvmet/subsystems/$NQN" "$p/subsystems/$NQN"
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
SRV=/srv/rue-nfs
MNT=/mnt/rue-nfs

t_nfs_setup() {
	command -v rpc.nfsd >/dev/null && command -v mount.nfs >/dev/null ||
		{ echo "no rpc.nfsd or mount.nfs (nfs-kernel-server, nfs-common)"; return $ksft_skip; }
	modprobe nfsd && modprobe rpcrdma || return $ksft_skip
	ns_pair_setup -n -,B -d n0,n1 -4 10.12.0.1,10.12.0.2 -l rn0,rn1 -g || return 1
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd || return 1
	mkdir -p $SRV $MNT /var/lib/nfs/v4recovery && mount -t tmpfs -o size=256m tmpfs $SRV ||
		return 1
	defer "umount $SRV"
	: >/etc/exports
	exportfs -o rw,no_root_squash,insecure,no_subtree_check,fsid=0 10.12.0.0/24:$SRV ||
		return 1
	defer "exportfs -ua"
	# NFSv4 only: no rpcbind needed.  The shortest grace period the
	# kernel takes (10 s, not 90): new OPENs wait it out.
	echo 10 >/proc/fs/nfsd/nfsv4leasetime && echo 10 >/proc/fs/nfsd/nfsv4gracetime ||
		return 1
	rpc.mountd -N 3 || return 1
	defer "pkill -x rpc.mountd"
	rpc.nfsd -N 3 -U 4 || return 1
	defer "rpc.nfsd 0"
	echo "rdma 20049" >/proc/fs/nfsd/portlist || return 1
	grep -x "rdma 20049" /proc/fs/nfsd/portlist
}

t_nfs_mount() {
	nsenter --net=/run/netns/$B timeout 90 mount -t nfs \
		-o vers=4.2,proto=rdma,port=20049 10.12.0.1:/ $MNT || return 1
	defer "umount -f $MNT"
	grep -A2 "mounted on $MNT " /proc/self/mountstats | grep -o "proto=rdma" &&
	ip netns exec $B rdma resource show qp link rn1/1 | grep -q "type RC" ||
		{ ip netns exec $B rdma resource show qp; return 1; }
}

# nfs_roundtrip NAME BYTES BS: write through the mount (O_DIRECT), check
# the server's copy, read back through the mount, compare.
nfs_roundtrip() {
	local f=$RUE_OUT/nfs.$$ rc
	head -c "$2" /dev/urandom >"$f.w" || return 1
	dd if="$f.w" of="$MNT/$1" bs="$3" oflag=direct status=none &&
	cmp "$f.w" "$SRV/$1" &&
	dd if="$MNT/$1" of="$f.r" bs="$3" iflag=direct status=none &&
	cmp "$f.w" "$f.r"
	rc=$?
	rm -f "$f.w" "$f.r"
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
	cp -r /usr/share/doc/bash $MNT/tree && sync &&
	diff -r /usr/share/doc/bash $SRV/tree || return 1
	echo "tree $((($(date +%s%N) - t) / 1000000)) ms"
	for d in rn0 rn1; do
		echo "$d: $(ip netns exec $B rdma statistic show link $d/1 | tr ' ' '\n' | paste - - |
			awk '$2 != 0 && $1 !~ /prio|bytes/' | tr '\n\t' '; ')"
	done
}

# umount and nfsd stopped: no RC QP left on either rue device
t_nfs_teardown() {
	umount $MNT && rpc.nfsd 0 || return 1
	busywait 10000 bash -c "[ \"\$(ip netns exec $B rdma resource show qp link rn1/1 | grep -c RC)\" = 0 ] &&
		[ \"\$(rdma resource show qp link rn0/1 | grep -c RC)\" = 0 ]" ||
		{ rdma resource show qp; ip netns exec $B rdma resource show qp; return 1; }
}

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
run_test "umount and stopping nfsd release every RC QP" t_nfs_teardown
tap_done
