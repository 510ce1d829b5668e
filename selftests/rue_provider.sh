#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# librue: libibverbs finds rue devices with the provider loaded from the
# build tree (RDMAV_DRIVERS) and installed ("make install"), reports a
# coherent attribute set, and coexists with rdma_rxe and its provider.
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip ibv_devices ibv_devinfo cmake

t_setup() {
	rue_install_module && modprobe rue || return 1
	ns_pair_setup -4 10.3.0.1,10.3.0.2 -l rp,
}

# field NAME: the value ibv_devinfo -v prints for NAME
field() {
	awk -v k="$1:" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }' "$RUE_OUT/devinfo.$$"
}

check_devinfo() {
	ibv_devinfo -v -d rp >"$RUE_OUT/devinfo.$$" 2>&1 || { cat "$RUE_OUT/devinfo.$$"; return 1; }
	local bad=0
	expect() {
		local got
		got=$(field "$1")
		if [ "$got" != "$2" ]; then
			echo "$1: got '$got', want '$2'"
			bad=1
		fi
	}
	expect transport "InfiniBand (0)"
	expect fw_ver 1.0.0
	expect vendor_id 0xffffff
	expect phys_port_cnt 1
	expect atomic_cap "ATOMIC_HCA (1)"
	expect max_pkeys 1
	expect state "PORT_ACTIVE (4)"
	expect link_layer Ethernet
	expect active_mtu "1024 (3)"
	expect max_mtu "4096 (5)"
	expect pkey_tbl_len 1
	expect node_guid "$(field sys_image_guid)"
	for f in max_qp max_qp_wr max_cq max_cqe max_mr max_pd max_qp_rd_atom \
		 max_sge max_ah; do
		[ "$(field $f)" -gt 0 ] 2>/dev/null || { echo "$f: '$(field $f)'"; bad=1; }
	done
	grep -q "GID\[.*::ffff:10.3.0.1, RoCE v2" "$RUE_OUT/devinfo.$$" ||
		{ echo "no RoCEv2 GID for 10.3.0.1"; bad=1; }
	[ $bad = 0 ]
}

t_build_tree() {
	ibv_devices | grep -qw rp || { ibv_devices; return 1; }
	check_devinfo
}

t_installed() {
	local installed
	cmake --install "$RUE_BUILD/userspace" >"$RUE_OUT/install.$$" 2>&1 ||
		{ cat "$RUE_OUT/install.$$"; return 1; }
	[ -e /etc/libibverbs.d/rue.driver ] || { echo "no rue.driver"; return 1; }
	installed=$(awk '{print $2}' /etc/libibverbs.d/rue.driver)
	[ -e "$installed-rdmav34.so" ] || { echo "missing $installed-rdmav34.so"; return 1; }
	ldconfig
	RDMAV_DRIVERS= ibv_devices | grep -qw rp || return 1
	RDMAV_DRIVERS= check_devinfo
}

t_rxe_coexists() {
	local ns
	modprobe rdma_rxe 2>/dev/null || return $ksft_skip
	setup_ns ns || return 1
	# rdma_rxe (6.1 and 6.12) binds UDP 4791 in the initial namespace only.
	ns_pair_setup -n -,- -d x0,x1 -4 10.3.9.1, -l rxe:rxe9, || return 1
	# Each provider claims only its own devices.
	ibv_devinfo -d rxe9 >/dev/null || { echo "ibv_devinfo rxe9 fails with librue loaded"; return 1; }
	ibv_devinfo -d rp | grep -q "vendor_part_id:.*29301" || return 1
	# A rue link where rxe owns the port fails and says why.
	ip link add y0 type veth peer name y1 && defer "ip link del y0"
	local out
	if out=$(rdma link add ry type rue netdev y0 2>&1); then
		echo "rue link added where rdma_rxe owns UDP 4791"
		return 1
	fi
	grep -q "Address already in use" <<<"$out" || { echo "$out"; return 1; }
	dmesg | tail -n 5 | grep -q "UDP port in use" || { echo "no reason in dmesg"; return 1; }
}

tap_init
run_test "setup" t_setup
run_test "ibv_devices and ibv_devinfo from the build tree" t_build_tree
run_test "ibv_devices and ibv_devinfo with the provider installed" t_installed
run_test "coexists with rdma_rxe and librxe" t_rxe_coexists
tap_done
