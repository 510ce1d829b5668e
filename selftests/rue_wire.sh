#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What rue puts on the wire is RoCEv2 as the spec (IBTA vol 1, annex
# A17) and other decoders see it.  Real traffic between two namespaces -
# RC SEND, WRITE, READ and both atomics, UC SEND and WRITE, UD, rdma_cm's
# MADs, IPv4 and IPv6 - is captured with tcpdump on the veth, then:
#  - ruedump --check: every packet parses, every ICRC is right;
#  - tshark's infiniband dissector sees the same fields as ruedump;
#  - the opcodes each exchange needs are there, and no UC packet asks
#    for an ACK;
#  - IP and UDP headers follow annex A17.4: UDP destination port 4791, a
#    zero UDP checksum, DF set on IPv4, and one UDP source port per QP.
#
#   ns A: veth w0 10.12.0.1 fd00:12::1 (rue rw0) <--> w1 10.12.0.2 (rue rw1) : ns B
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip tcpdump ib_write_bw ibv_rc_pingpong rping

RUEDUMP=$RUE_BUILD/userspace/ruedump/ruedump
XCHECK=$RUE_BUILD/userspace/ruedump/tshark_xcheck
PCAP=$RUE_OUT/rue_wire.pcap
JSON=$RUE_OUT/rue_wire.jsonl

g4() { gid_index_of "$1" "$2"; }
g6() { gid_index_of_gid "$1" "$2"; }
GID6_A=fd00:0012:0000:0000:0000:0000:0000:0001
GID6_B=fd00:0012:0000:0000:0000:0000:0000:0002

t_setup() {
	[ -x "$RUEDUMP" ] || { echo "ruedump is not built"; return 1; }
	rue_install_module && modprobe rue && modprobe rdma_ucm || return 1
	ns_pair_setup -d w0,w1 -4 10.12.0.1,10.12.0.2 -6 fd00:12::1,fd00:12::2 \
		-l rw0,rw1 -g -p || return 1

	ip netns exec "$B" tcpdump -i w1 -U -s 0 -w "$PCAP" udp port 4791 \
		2>"$RUE_OUT/tcpdump.err" &
	TCPDUMP=$!
	defer "kill $TCPDUMP"
	busywait 5000 grep -q "listening on" "$RUE_OUT/tcpdump.err"
}

# Traffic: server in A, client in B.
sc() { server_client "$A" "$B" "$@"; }

t_rc_v4() {
	sc 18515 ibv_rc_pingpong -d rw0 -g "$(g4 rw0 10.12.0.1)" -n 20 -s 3000 -c -- \
		ibv_rc_pingpong -d rw1 -g "$(g4 rw1 10.12.0.2)" -n 20 -s 3000 -c 10.12.0.1
}

t_rc_v6() {
	sc 18515 ibv_rc_pingpong -d rw0 -g "$(g6 rw0 $GID6_A)" -n 20 -s 3000 -c -- \
		ibv_rc_pingpong -d rw1 -g "$(g6 rw1 $GID6_B)" -n 20 -s 3000 -c 10.12.0.1
}

t_ud() {
	sc 18515 ibv_ud_pingpong -d rw0 -g "$(g4 rw0 10.12.0.1)" -n 20 -s 1000 -c -- \
		ibv_ud_pingpong -d rw1 -g "$(g4 rw1 10.12.0.2)" -n 20 -s 1000 -c 10.12.0.1
}

t_uc() {
	sc 18515 ibv_uc_pingpong -d rw0 -g "$(g4 rw0 10.12.0.1)" -n 20 -s 3000 -c -- \
		ibv_uc_pingpong -d rw1 -g "$(g4 rw1 10.12.0.2)" -n 20 -s 3000 -c 10.12.0.1
}

# perftest TEST ARGS...
perftest() {
	local t=$1
	shift
	sc 18515 "$t" -d rw0 -x "$(g4 rw0 10.12.0.1)" -F "$@" -- \
		"$t" -d rw1 -x "$(g4 rw1 10.12.0.2)" -F "$@" 10.12.0.1
}

t_rping() {
	sc 7174 rping -s -a 10.12.0.1 -C 5 -V -S 100 -- rping -c -a 10.12.0.1 -C 5 -V -S 100
}

t_stop() {
	kill -INT "$TCPDUMP" && wait "$TCPDUMP"
	[ -s "$PCAP" ] || { echo "empty capture"; cat "$RUE_OUT/tcpdump.err"; return 1; }
	tail -n 3 "$RUE_OUT/tcpdump.err"
}

t_check() {
	local out
	out=$("$RUEDUMP" --check "$PCAP" 2>&1)
	local rc=$?
	echo "$out" | tail -n 1
	[ $rc = 0 ] || { echo "$out" | grep -E "BAD|malformed" | head; return 1; }
	# every packet is RoCEv2 with a good ICRC
	echo "$out" | tail -n 1 |
		grep -qE '^([0-9]+) packets: \1 roce \(\1 icrc ok, 0 bad\), 0 uet, 0 other, 0 malformed'
}

t_tshark() {
	command -v tshark >/dev/null || { echo "tshark not installed"; return $ksft_skip; }
	"$XCHECK" "$RUEDUMP" "$PCAP"
}

t_opcodes() {
	local op missing=0
	"$RUEDUMP" -jv "$PCAP" >"$JSON" 2>/dev/null || return 1
	for op in RC_SEND_ONLY RC_SEND_FIRST RC_SEND_MIDDLE RC_SEND_LAST \
		  RC_RDMA_WRITE_FIRST RC_RDMA_WRITE_MIDDLE RC_RDMA_WRITE_LAST \
		  RC_RDMA_WRITE_ONLY RC_RDMA_READ_REQUEST \
		  RC_RDMA_READ_RESPONSE_FIRST RC_RDMA_READ_RESPONSE_MIDDLE \
		  RC_RDMA_READ_RESPONSE_LAST RC_RDMA_READ_RESPONSE_ONLY \
		  RC_ACKNOWLEDGE RC_COMPARE_SWAP RC_FETCH_ADD RC_ATOMIC_ACKNOWLEDGE \
		  UD_SEND_ONLY UC_SEND_FIRST UC_SEND_MIDDLE UC_SEND_LAST \
		  UC_RDMA_WRITE_FIRST UC_RDMA_WRITE_MIDDLE UC_RDMA_WRITE_LAST \
		  UC_RDMA_WRITE_ONLY; do
		grep -q "\"opcode\":\"$op\"" "$JSON" || { echo "no $op"; missing=1; }
	done
	# nothing answers UC, so nothing of it asks for an answer (IBTA 9.8)
	if grep '"opcode":"UC_' "$JSON" | grep -q '"ack-req":true'; then
		echo "a UC packet with AckReq set"
		missing=1
	fi
	return $missing
}

# The fields annex A17.4 fixes, on every packet.
t_headers() {
	local n bad
	n=$(wc -l <"$JSON")
	[ "$n" -gt 100 ] || { echo "only $n packets"; return 1; }
	bad=$(grep -vc '"dst-port":4791' "$JSON")
	[ "$bad" = 0 ] || { echo "$bad packets not to port 4791"; return 1; }
	bad=$(grep -c '"udp":{[^}]*"checksum":"0x0*[1-9a-f]' "$JSON")
	[ "$bad" = 0 ] || { echo "$bad packets with a UDP checksum"; return 1; }
	bad=$(grep '"version":4' "$JSON" | grep -vc '"flags":"DF"')
	[ "$bad" = 0 ] || { echo "$bad IPv4 packets without DF"; return 1; }
	grep -q '"version":6' "$JSON" || { echo "no IPv6 packet"; return 1; }
}

# perftest -q 4: four QPs, four flows an ECMP network can spread.
t_sports() {
	local before n
	before=$(wc -l <"$JSON")
	n=$(grep '"dest-qp"' "$JSON" | grep -o '"src-port":[0-9]*' | sort -u | wc -l)
	echo "$n distinct UDP source ports in $before packets"
	[ "$n" -ge 4 ]
}

t_counters() {
	local dev c bad=0
	for dev in rw0 rw1; do
		for c in rx_drop_bad_header rx_drop_icrc rx_drop_opcode tx_drops; do
			[ "$(rue_stat $dev $c)" = 0 ] || { echo "$dev $c = $(rue_stat $dev $c)"; bad=1; }
		done
	done
	return $bad
}

tap_init
run_test "setup: two namespaces, capture on the veth" t_setup
run_test "traffic: RC SEND over IPv4" t_rc_v4
run_test "traffic: RC SEND over IPv6" t_rc_v6
run_test "traffic: UD SEND" t_ud
run_test "traffic: UC SEND" t_uc
run_test "traffic: UC RDMA WRITE" perftest ib_write_bw -c UC -s 3000 -n 20
run_test "traffic: one-packet UC RDMA WRITE" perftest ib_write_bw -c UC -s 64 -n 20
run_test "traffic: RDMA WRITE, four QPs" perftest ib_write_bw -q 4 -s 3000 -n 20
run_test "traffic: RDMA READ" perftest ib_read_bw -s 3000 -n 20
run_test "traffic: one-packet RDMA WRITE" perftest ib_write_bw -s 64 -n 20
run_test "traffic: one-packet RDMA READ" perftest ib_read_bw -s 64 -n 20
run_test "traffic: SEND of 9 packets" perftest ib_send_bw -s 9000 -n 20
run_test "traffic: one-packet SEND" perftest ib_send_bw -s 64 -n 20
run_test "traffic: fetch-and-add" perftest ib_atomic_bw -A FETCH_AND_ADD -n 20
run_test "traffic: compare-and-swap" perftest ib_atomic_bw -A CMP_AND_SWAP -n 20
run_test "traffic: rdma_cm (rping)" t_rping
run_test "capture stopped" t_stop
run_test "every packet is RoCEv2 with a valid ICRC (ruedump --check)" t_check
run_test "tshark's dissector reads the same fields" t_tshark
run_test "every opcode the traffic needs is on the wire" t_opcodes
run_test "UDP port 4791, zero UDP checksum, DF, IPv6 (annex A17.4)" t_headers
run_test "one UDP source port per QP" t_sports
run_test "no drops or bad packets counted" t_counters
tap_done
