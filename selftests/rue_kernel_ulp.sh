#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel consumers: NVMe over Fabrics runs over rue.  The nvmet-rdma
# target exports a memory-backed null_blk device on a rue link, and the
# nvme-rdma host connects to it through rdma_cm; both are kernel ULPs, so
# this exercises kernel verbs, DMA and fast-registration MRs, local and
# remote invalidation, the GSI QP and the CM.  Data written through the
# fabric must read back identical, at several block sizes, and teardown
# must leave nothing behind.  Then the same with nvmet-rdma's use_srq:
# the target's queues share SRQs that it fills with ib_post_srq_recv().
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
tap_done
