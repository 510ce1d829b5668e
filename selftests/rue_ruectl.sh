#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ruectl against the real kernel: "dev show" in text and JSON, its unit
# tests with the netlink family present, and clear errors.
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip

RUECTL=$RUE_BUILD/userspace/ruectl/ruectl

t_setup() {
	[ -x "$RUECTL" ] || { echo "ruectl not built"; return 1; }
	rue_install_module && modprobe rue || return 1
	setup_ns A B && veth_pair "$A" a0 10.4.0.1 "$B" b0 10.4.0.2 &&
	rue_link "$A" rc0 a0 && rue_link "$B" rc1 b0
}

t_dev_show() {
	local out
	out=$("$RUECTL" dev show) || return 1
	echo "$out"
	grep -q "rc0: netdev a0 port-state ACTIVE" <<<"$out" &&
	grep -q "rc1: netdev b0 port-state ACTIVE" <<<"$out" &&
	grep -q "::ffff:10.4.0.1 type RoCEv2" <<<"$out"
}

t_dev_show_one_json() {
	local out
	out=$("$RUECTL" -j dev show rc1) || return 1
	echo "$out"
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d)==1 and d[0]["name"]=="rc1" and d[0]["netdev"]=="b0" and any(g["gid"]=="::ffff:10.4.0.2" for g in d[0]["gids"])' <<<"$out"
}

t_prefixes() {
	[ "$("$RUECTL" d s rc0)" = "$("$RUECTL" dev show rc0)" ]
}

t_errors() {
	local out
	out=$("$RUECTL" dev show nosuch 2>&1) && return 1
	grep -q 'not found' <<<"$out" || { echo "$out"; return 1; }
	"$RUECTL" frobnicate >/dev/null 2>&1 && return 1
	"$RUECTL" -Z dev >/dev/null 2>&1 && return 1
	return 0
}

t_unit_tests_with_module() {
	"$RUE_BUILD/userspace/ruectl/ruectl_test" --gtest_brief=1 2>&1 | tail -n 3
	"$RUE_BUILD/userspace/ruectl/ruectl_test" >/dev/null 2>&1
}

t_module_not_loaded() {
	local out
	rdma link del rc0 && rdma link del rc1 && rmmod rue || return 1
	out=$("$RUECTL" dev show 2>&1) && return 1
	grep -q "rue kernel module not loaded" <<<"$out" || { echo "$out"; return 1; }
}

tap_init
run_test "setup" t_setup
run_test "dev show lists devices, netdevs, state, GIDs" t_dev_show
run_test "dev show DEV as JSON" t_dev_show_one_json
run_test "unique prefixes" t_prefixes
run_test "bad input gives an error and exit 1" t_errors
run_test "ruectl unit tests against the live family" t_unit_tests_with_module
run_test "says when the module is not loaded" t_module_not_loaded
tap_done
