# SPDX-License-Identifier: GPL-2.0
#
# The kernel consumers a ULP's CI runs over RDMA, set up as such a CI
# does: an NVMe over Fabrics target (nvmet-rdma exporting a memory-backed
# null_blk) and host (nvme-rdma), and an NFSv4.2 server (knfsd with an
# RDMA listener, svcrdma) and client (xprtrdma).  Used on one guest
# (rue_kernel_ulp.sh) and across two (two_hosts.sh).  Source after
# lib.sh; cleanups go through defer.

ULP_CFG=/sys/kernel/config
ULP_NQN=rue-test
ULP_SRV=/srv/rue-nfs
ULP_MNT=/mnt/rue-nfs
NVME_DEV=               # the host's namespace block device, once connected

# ulp_nvme_modules target|host: the modules of that side
ulp_nvme_modules() {
	if [ "$1" = target ]; then
		modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || return $ksft_skip
		defer "rmmod null_blk"
		modprobe nvmet-rdma || return $ksft_skip
		defer "rmmod nvmet-rdma nvmet"
		mountpoint -q $ULP_CFG || mount -t configfs none $ULP_CFG
	else
		modprobe nvme-rdma || return $ksft_skip
		defer "rmmod nvme-rdma nvme-fabrics"
	fi
}

# ulp_nvme_target ADDR: subsystem $ULP_NQN (namespace 1: /dev/nullb0) on an
# RDMA port at ADDR:4420, any host allowed
ulp_nvme_target() {
	local s=$ULP_CFG/nvmet/subsystems/$ULP_NQN p=$ULP_CFG/nvmet/ports/1

	mkdir "$s" && echo 1 >"$s/attr_allow_any_host" || return 1
	mkdir "$s/namespaces/1" && echo /dev/nullb0 >"$s/namespaces/1/device_path" &&
	echo 1 >"$s/namespaces/1/enable" || return 1
	mkdir "$p" && echo rdma >"$p/addr_trtype" && echo ipv4 >"$p/addr_adrfam" &&
	echo "$1" >"$p/addr_traddr" && echo 4420 >"$p/addr_trsvcid" || return 1
	ln -s "$s" "$p/subsystems/$ULP_NQN" || return 1
	defer "rm -f $p/subsystems/$ULP_NQN; rmdir $p; echo 0 > $s/namespaces/1/enable; rmdir $s/namespaces/1; rmdir $s"
}

# ulp_nvme_connect ADDR: nvme-rdma connects to $ULP_NQN at ADDR; sets
# NVME_DEV
ulp_nvme_connect() {
	local n
	echo "transport=rdma,traddr=$1,trsvcid=4420,nqn=$ULP_NQN" >/dev/nvme-fabrics ||
		return 1
	busywait 10000 bash -c 'ls /dev/nvme*n1 >/dev/null 2>&1' || return 1
	NVME_DEV=$(ls /dev/nvme*n1 | head -n 1)
	n=$(basename "$NVME_DEV"); n=${n%n1}
	defer "echo 1 > /sys/class/nvme/$n/delete_controller"
	grep -q rdma "/sys/class/nvme/$n/transport"
}

# ulp_nvme_roundtrip BS COUNT SEEK: write random blocks with O_DIRECT,
# read them back, compare.  Never to a file of the device's name: were
# the device gone, dd would make one in devtmpfs and read it back.
ulp_nvme_roundtrip() {
	local bs=$1 count=$2 seek=$3 f=$RUE_OUT/nvme.$$ rc
	head -c $((bs * count)) /dev/urandom >"$f.w" || return 1
	[ -b "$NVME_DEV" ] || { echo "$NVME_DEV is not a block device"; return 1; }
	dd if="$f.w" of="$NVME_DEV" bs="$bs" seek="$seek" oflag=direct conv=nocreat \
		status=none &&
	dd if="$NVME_DEV" of="$f.r" bs="$bs" skip="$seek" count="$count" iflag=direct \
		status=none &&
	cmp "$f.w" "$f.r"
	rc=$?
	rm -f "$f.w" "$f.r"
	return $rc
}

# ulp_nvme_io: 512 B to 1 MiB blocks through the fabric
ulp_nvme_io() {
	ulp_nvme_roundtrip 512 64 3 && ulp_nvme_roundtrip 4096 256 17 &&
	ulp_nvme_roundtrip 65536 64 5 && ulp_nvme_roundtrip 1048576 16 9
}

# ulp_nvme_disconnect: the controller deleted and gone
ulp_nvme_disconnect() {
	local n
	n=$(basename "$NVME_DEV"); n=${n%n1}
	echo 1 >"/sys/class/nvme/$n/delete_controller" || return 1
	busywait 10000 bash -c "! [ -e /sys/class/nvme/$n ]"
}

# ulp_no_rc_qps LINK [NS]: no RC QP left on LINK (e.g. rk0/1) in network
# namespace NS ("-", the default: this one) within 10 s; the other end's
# QPs go when it notices the disconnect
ulp_no_rc_qps() {
	busywait 10000 _ulp_no_rc_qp "$1" "${2:--}" ||
		{ in_ns "${2:--}" rdma resource show qp; return 1; }
}

_ulp_no_rc_qp() {
	[ "$(in_ns "$2" rdma resource show qp link "$1" | grep -c RC)" = 0 ]
}

# ulp_nfs_server CLIENTS: knfsd exports a tmpfs at $ULP_SRV to CLIENTS
# (a network) with an RDMA listener on port 20049.  NFSv4 only, so no
# rpcbind; the shortest grace period the kernel takes (10 s, not 90),
# which new OPENs wait out.
ulp_nfs_server() {
	command -v rpc.nfsd >/dev/null && command -v mount.nfs >/dev/null ||
		{ echo "no rpc.nfsd or mount.nfs (nfs-kernel-server, nfs-common)"; return $ksft_skip; }
	modprobe nfsd && modprobe rpcrdma || return $ksft_skip
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd || return 1
	mkdir -p $ULP_SRV /var/lib/nfs/v4recovery &&
	mount -t tmpfs -o size=256m tmpfs $ULP_SRV || return 1
	defer "umount $ULP_SRV"
	: >/etc/exports
	exportfs -o rw,no_root_squash,insecure,no_subtree_check,fsid=0 "$1:$ULP_SRV" ||
		return 1
	defer "exportfs -ua"
	echo 10 >/proc/fs/nfsd/nfsv4leasetime && echo 10 >/proc/fs/nfsd/nfsv4gracetime ||
		return 1
	rpc.mountd -N 3 || return 1
	defer "pkill -x rpc.mountd"
	rpc.nfsd -N 3 -U 4 || return 1
	defer "rpc.nfsd 0"
	echo "rdma 20049" >/proc/fs/nfsd/portlist || return 1
	grep -x "rdma 20049" /proc/fs/nfsd/portlist
}

# ulp_nfs_mount ADDR [CMD...]: mount ADDR:/ at $ULP_MNT over RDMA, the
# mount command run through CMD (e.g. nsenter into a network namespace)
ulp_nfs_mount() {
	local addr=$1
	shift
	command -v mount.nfs >/dev/null || { echo "no mount.nfs (nfs-common)"; return $ksft_skip; }
	modprobe rpcrdma || return $ksft_skip
	mkdir -p $ULP_MNT
	"$@" timeout 90 mount -t nfs -o vers=4.2,proto=rdma,port=20049 "$addr:/" $ULP_MNT ||
		return 1
	defer "umount -f $ULP_MNT"
	grep -A2 "mounted on $ULP_MNT " /proc/self/mountstats | grep -q "proto=rdma" ||
		{ echo "not mounted over RDMA"; return 1; }
}

# ulp_nfs_write NAME BYTES BS: random data written through the mount
# (O_DIRECT), read back through it (O_DIRECT: from the server), compared;
# the data stays in $RUE_OUT/nfs.NAME for a check of the server's copy
# (the caller removes it).
ulp_nfs_write() {
	local f=$RUE_OUT/nfs.$1 rc
	head -c "$2" /dev/urandom >"$f" || return 1
	dd if="$f" of="$ULP_MNT/$1" bs="$3" oflag=direct status=none &&
	dd if="$ULP_MNT/$1" of="$f.r" bs="$3" iflag=direct status=none &&
	cmp "$f" "$f.r"
	rc=$?
	rm -f "$f.r"
	return $rc
}
