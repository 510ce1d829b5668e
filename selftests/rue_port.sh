#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The port follows its netdev: the RoCEv2 GID table tracks IPv4 and IPv6
# addresses as they come and go, port state tracks carrier, the active
# MTU tracks the netdev MTU, and port events reach user space.
#
#   ns A: veth a0 (rue link ra) <---> veth b0 : ns B
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip ibv_devinfo

gid_type_of() {
	local f
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		if [ "$(cat "$f")" = "$2" ]; then
			cat "/sys/class/infiniband/$1/ports/1/gid_attrs/types/$(basename "$f")"
			return
		fi
	done
}

port_state() {
	cat /sys/class/infiniband/"$1"/ports/1/state
}

active_mtu() {
	ibv_devinfo -d "$1" | awk '/active_mtu/ { print $2 }'
}

t_setup() {
	rue_install_module && modprobe rue || return 1
	ns_pair_setup -4 10.2.0.1,10.2.0.2 -l ra,
}

t_ipv4_gid() {
	local g
	g=$(ipv4_gid 10.2.0.1)
	busywait 5000 has_gid ra "$g" || { echo "no GID $g"; return 1; }
	[ "$(gid_type_of ra "$g")" = "RoCE v2" ] || return 1
	ip -n "$A" addr add 10.2.1.7/24 dev a0
	busywait 5000 has_gid ra "$(ipv4_gid 10.2.1.7)" || return 1
	ip -n "$A" addr del 10.2.1.7/24 dev a0
	busywait 5000 bash -c "! grep -qx $(ipv4_gid 10.2.1.7) /sys/class/infiniband/ra/ports/1/gids/*"
}

t_ipv6_gid() {
	ip -n "$A" addr add fd00:2::1/64 dev a0 nodad || return 1
	busywait 5000 has_gid ra fd00:0002:0000:0000:0000:0000:0000:0001 || return 1
	ip -n "$A" addr del fd00:2::1/64 dev a0
	busywait 5000 bash -c '! grep -qx fd00:0002:0000:0000:0000:0000:0000:0001 /sys/class/infiniband/ra/ports/1/gids/*'
}

t_link_local_gid() {
	# The default GID, from the MAC, as on any RoCE port.
	grep -q '^fe80:' /sys/class/infiniband/ra/ports/1/gids/0
}

t_carrier() {
	[ "$(port_state ra)" = "4: ACTIVE" ] || { port_state ra; return 1; }
	ip -n "$B" link set b0 down
	busywait 5000 bash -c '[ "$(cat /sys/class/infiniband/ra/ports/1/state)" = "1: DOWN" ]' ||
		{ echo "peer down: $(port_state ra)"; return 1; }
	ip -n "$B" link set b0 up
	busywait 5000 bash -c '[ "$(cat /sys/class/infiniband/ra/ports/1/state)" = "4: ACTIVE" ]' || return 1
	ip -n "$A" link set a0 down
	busywait 5000 bash -c '[ "$(cat /sys/class/infiniband/ra/ports/1/state)" = "1: DOWN" ]' || return 1
	ip -n "$A" link set a0 up
	busywait 5000 bash -c '[ "$(cat /sys/class/infiniband/ra/ports/1/state)" = "4: ACTIVE" ]'
}

t_port_events() {
	local log=$RUE_OUT/asyncwatch.$$
	ibv_asyncwatch -d ra >"$log" 2>&1 &
	local pid=$!
	sleep 1
	ip -n "$B" link set b0 down
	sleep 1
	ip -n "$B" link set b0 up
	busywait 5000 grep -q PORT_ACTIVE "$log"
	kill $pid 2>/dev/null
	cat "$log"
	grep -q PORT_ERR "$log" && grep -q PORT_ACTIVE "$log"
}

# netdev MTU -> the largest IB MTU whose RoCEv2 packets fit
t_mtu() {
	local mtu want got
	for pair in 1500:1024 9000:4096 4200:4096 4000:2048 2000:1024 1100:512 576:256; do
		mtu=${pair%:*}; want=${pair#*:}
		ip -n "$A" link set a0 mtu "$mtu" || return 1
		got=$(active_mtu ra)
		[ "$got" = "$want" ] || { echo "mtu $mtu: active_mtu $got, want $want"; return 1; }
	done
	ip -n "$A" link set a0 mtu 1500
}

tap_init
run_test "setup" t_setup
run_test "IPv4 addresses become RoCEv2 GIDs and go away" t_ipv4_gid
run_test "IPv6 addresses become GIDs and go away" t_ipv6_gid
run_test "link-local default GID" t_link_local_gid
run_test "port state follows carrier and admin state" t_carrier
run_test "port events reach user space" t_port_events
run_test "active MTU follows the netdev MTU" t_mtu
tap_done
