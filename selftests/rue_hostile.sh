#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input cannot hurt rue.  The threat model: a remote sender puts
# any bytes on UDP 4791 and 4793 and spoofs addresses; a local unprivileged user
# owns the rings mapped into its process, calls any verb with any
# argument, and may have a user namespace of its own.  Each case attacks
# a live device the way one of them can, and checks that nothing but the
# attacker's own QP suffers, with the counters and completions that say so
# (Documentation/testing.md, "The hostile-input suite").
#
#  - rue_hostile_test (userspace/tests, GoogleTest), run in ns B: it forges
#    the peer of an RC or a UC QP on rva from b0's address (raw socket,
#    libpcap; HostileLend plugs a0 with a qdisc, in ns A, named by
#    RUE_HOSTILE_NS_A),
#    a UET initiator of rva's target PDCs (UDP socket, libpcap), plays
#    the owner of a QP's send ring, and calls random verb sequences on
#    both devices (hostile_verbs_fuzz_test.cc);
#  - the rue netlink family from another network namespace, from a user
#    namespace of one's own, and as an unprivileged user (ruectl), and
#    random requests at it as root and as those users (rue_nl_fuzz);
#  - every QP and MR the kernel created was released.
#
#   ns A: a0 10.5.0.1 (rue rva) <--veth--> b0 10.5.0.2 (rue rvb) :ns B
caller_build=${RUE_BUILD:-}
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip unshare setpriv timeout

PROG=${caller_build:-$RUE_TOP/build}/userspace/tests/rue_hostile_test
RUECTL=$RUE_BUILD/userspace/ruectl/ruectl
NLFUZZ=${caller_build:-$RUE_TOP/build}/userspace/tests/rue_nl_fuzz
kmsg_log=$RUE_OUT/rue_hostile.kmsg

t_setup() {
	[ -x "$PROG" ] || { echo "rue_hostile_test is not built"; return 1; }
	[ -x "$RUECTL" ] || { echo "ruectl is not built"; return 1; }
	verbs_pair_setup || return
	# hostile_uet_test's job (kJob), on the target and on the job member
	"$RUECTL" job add rva $((0x4242)) && "$RUECTL" job add rvb $((0x4242)) ||
		return 1
	# the leak oracle: "created"/"destroyed" for every QP and MR (a bound
	# memory window is an MR too: mw.c says when it is made)
	if { dyndbg "module rue file qp.h +p" || dyndbg "module rue file qp.c +p"; } &&
	   dyndbg "module rue file mr.c +p" &&
	   dyndbg "module rue file mw.c +p"; then
		dmesg -W --notime >"$kmsg_log" 2>/dev/null &
		kmsg_pid=$!
		defer "kill $kmsg_pid"
	fi
	return 0
}

# --- netlink: kernel/core/netlink.c ---------------------------------------

# In a user and network namespace of one's own: root there, no device.
own_ns() {
	unshare -Urn "$RUECTL" "$@"
}

# nobody_in NS ARGS: ruectl as nobody without capabilities, in NS.
nobody_in() {
	local ns=$1
	shift
	ip netns exec "$ns" setpriv --reuid=nobody --regid=nogroup \
		--clear-groups --inh-caps=-all --bounding-set=-all "$RUECTL" "$@"
}

# As nobody, in the device's network namespace.
nobody_in_a() {
	nobody_in "$A" "$@"
}

# refused CMD...: CMD fails, and not because a wrapper did (unshare,
# setpriv, ip): ruectl was refused.  Its message is shown.
refused() {
	local out
	if out=$("$@" 2>&1); then
		echo "\$ ${*#"$RUECTL"}: succeeded: $out"
		return 1
	fi
	echo "\$ ${*#"$RUECTL"}: $out"
	! grep -qE '^(unshare|setpriv|ip|Cannot open network namespace)' <<<"$out"
}

# The kernel gives root a user namespace here (not in a chroot, for one).
userns_works() {
	unshare -Urn true || { echo "cannot create a user namespace"; return 1; }
}

cc_of_rva() {
	ip netns exec "$A" "$RUECTL" -d cc show rva
}

# Another namespace's devices are not in a dump, and not found by name -
# except by the host's administrator (CAP_NET_ADMIN over the initial user
# namespace), who sees every device, as "rdma dev" does in shared mode.
t_nl_netns_scope() {
	local out
	userns_works || return 1
	out=$(nobody_in "$B" dev show) || return 1
	echo "nobody in ns B: $out"
	grep -q "rvb:" <<<"$out" || { echo "rvb missing"; return 1; }
	grep -q "rva" <<<"$out" && { echo "nobody in ns B sees rva"; return 1; }
	out=$(ip netns exec "$B" "$RUECTL" dev show) || return 1
	grep -q "rva:" <<<"$out" || { echo "the host's root in ns B misses rva: $out"; return 1; }
	out=$(own_ns dev show) || return 1
	[ -z "$out" ] || { echo "an empty namespace sees: $out"; return 1; }
	refused nobody_in "$B" dev show rva &&
	refused nobody_in "$B" cc show rva &&
	refused own_ns cc show rva &&
	refused own_ns qp show rva &&
	refused own_ns pdc show rva || return 1
	out=$(own_ns qp show 2>&1)
	grep -q "rva" <<<"$out" && { echo "QPs of rva: $out"; return 1; }
	return 0
}

# Root of its own user namespace changes nothing of a device it cannot see
# (its network namespace is its own) nor of one it can (it has no
# CAP_NET_ADMIN over the device's namespace); jobs need the initial one.
t_nl_userns_changes_nothing() {
	local before job_before
	userns_works || return 1
	before=$(cc_of_rva) || return 1
	job_before=$(ip netns exec "$A" "$RUECTL" job show rva) || return 1
	refused own_ns cc set rva cnp-dscp 13 min-time-between-cnps 77 &&
	refused ip netns exec "$A" unshare -Ur "$RUECTL" cc set rva cnp-dscp 13 &&
	refused own_ns job add rva 4242 &&
	refused ip netns exec "$A" unshare -Ur "$RUECTL" job add rva 4243 ||
		return 1
	[ "$(cc_of_rva)" = "$before" ] || { echo "cc changed: $(cc_of_rva)"; return 1; }
	[ "$(ip netns exec "$A" "$RUECTL" job show rva)" = "$job_before" ] ||
		{ echo "jobs changed"; return 1; }
}

# An unprivileged user reads devices and settings, not QPs or PDCs (PSNs,
# peers: enough to forge packets into someone's flows), and changes
# nothing.
t_nl_unprivileged() {
	local before out
	before=$(cc_of_rva) || return 1
	out=$(ip netns exec "$A" "$RUECTL" qp show rva) || return 1
	grep -q "type GSI" <<<"$out" || { echo "root sees no QP: $out"; return 1; }
	nobody_in_a dev show rva >/dev/null &&
	nobody_in_a cc show rva >/dev/null || { echo "nobody cannot read"; return 1; }
	refused nobody_in_a qp show rva &&
	refused nobody_in_a qp show &&
	refused nobody_in_a pdc show rva &&
	refused nobody_in_a cc set rva cnp-dscp 13 || return 1
	out=$(nobody_in_a qp show rva 2>&1)
	grep -q "Operation not permitted" <<<"$out" || { echo "not EPERM: $out"; return 1; }
	[ "$(cc_of_rva)" = "$before" ] || { echo "cc changed"; return 1; }
}

# rue_nl_fuzz (userspace/tests/nl_fuzz.cc): random requests at the
# family.  As root at a device of its own (rvz, on a veth of its own in
# A), whose settings and jobs it may change; then at rva as nobody, as
# the root of a user namespace in A and from a network namespace of its
# own, who may change nothing and see no QP or PDC (a quarter as many
# requests each).  Every request is answered, root's changed something,
# rva's settings and jobs are as before, and rvz still answers.
# RUE_NL_FUZZ_COUNT (10000) sets root's count.
nl_fuzz() {
	local who=$1
	shift
	case $who in
	root) ip netns exec "$A" "$NLFUZZ" "$@" ;;
	nobody) ip netns exec "$A" setpriv --reuid=nobody --regid=nogroup \
		--clear-groups --inh-caps=-all --bounding-set=-all "$NLFUZZ" "$@" ;;
	userns) ip netns exec "$A" unshare -Ur "$NLFUZZ" "$@" ;;
	ownns) unshare -Urn "$NLFUZZ" "$@" ;;
	esac
}

t_nl_fuzz() {
	local n=${RUE_NL_FUZZ_COUNT:-10000} idx before jobs who out
	[ -x "$NLFUZZ" ] || { echo "rue_nl_fuzz is not built"; return 1; }
	userns_works || return 1
	ip -n "$A" link add z0 type veth peer name z1 &&
	ip -n "$A" link set z0 up &&
	ip netns exec "$A" rdma link add rvz type rue netdev z0 || return 1
	defer "rdma link del rvz"
	idx=$(rdma dev show rvz | cut -d: -f1)
	out=$(nl_fuzz root -d rvz --index "$idx" -n "$n") || { echo "$out"; return 1; }
	echo "root at rvz: $out"
	# root's requests reached the handlers that change things
	grep -q ' changes [1-9]' <<<"$out" || { echo "root changed nothing"; return 1; }
	before=$(cc_of_rva) || return 1
	jobs=$(ip netns exec "$A" "$RUECTL" job show rva) || return 1
	idx=$(rdma dev show rva | cut -d: -f1)
	for who in nobody userns ownns; do
		out=$(nl_fuzz $who -d rva --index "$idx" -n $((n / 4)) --unprivileged) ||
			{ echo "$who: $out"; return 1; }
		echo "$who at rva: $out"
	done
	[ "$(cc_of_rva)" = "$before" ] || { echo "cc changed: $(cc_of_rva)"; return 1; }
	[ "$(ip netns exec "$A" "$RUECTL" job show rva)" = "$jobs" ] ||
		{ echo "jobs changed"; return 1; }
	ip netns exec "$A" "$RUECTL" cc show rvz >/dev/null &&
	rdma link del rvz && ip -n "$A" link del z0
}

# --- leaks ----------------------------------------------------------------

count() {
	grep -c "$1" "$kmsg_log" 2>/dev/null
}

qp_mr_balance() {
	local qc qd mc md
	qc=$(count 'rue_create_qp: created')
	qd=$(count 'rue_destroy_qp: destroyed')
	mc=$(count 'MR 0x[0-9a-f]* created')
	md=$(count 'MR 0x[0-9a-f]* destroyed')
	echo "QPs created $qc destroyed $qd, MRs created $mc destroyed $md"
	[ "$qc" -gt 0 ] && [ "$qc" = "$qd" ] && [ "$mc" -gt 0 ] && [ "$mc" = "$md" ]
}

t_no_leaks() {
	[ -n "${kmsg_pid:-}" ] || { echo "no dynamic debug"; return $ksft_skip; }
	busywait 10000 qp_mr_balance >/dev/null
	qp_mr_balance
}

# uet_count_is NAME N: device A's UET counter NAME is N after the whole
# gtest run (not under a GTEST_FILTER, which may leave cases out).
uet_count_is() {
	local n
	[ -z "${GTEST_FILTER:-}" ] || { echo "GTEST_FILTER set"; return $ksft_skip; }
	n=$(in_ns "$A" "$RUECTL" -j uet stats rva |
		sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p")
	echo "$1 ${n:-none}"
	[ "${n:-0}" = "$2" ]
}

# HostileUetNack's two reserved codes (0x0c, 0x42) reached device A's
# initiator: counted there, and ignored.
t_nacks_ignored() {
	uet_count_is nacks_ignored 2
}

# HostileUet.RtoAnsweredSoonerThanTheBaseRttIsUndone: of its two RTOs,
# the one ACKed sooner than the base RTT was undone, the other not.
t_rto_undone() {
	uet_count_is rto_undone 1
}

# HostileUetCloseAsked: its two targets' requests to close (an ACK's REQ
# field, a CTRL CLOSE_REQ) reached device A's initiator.
t_close_asked() {
	uet_count_is pdc_close_asked 2
}

# HostileUet.InitiatorClearsWhenAsked: its target asked twice (an ACK's
# REQ field, a CTRL CLEAR_REQ); device A's initiator sent two CLEARs.
t_clears_sent() {
	uet_count_is clears_sent 2
}

tap_init
run_test "setup" t_setup
if [ "$_tap_pass" = 1 ]; then
	RUE_HOSTILE_NS_A=$A RUE_GTEST_NS=$B run_gtest rue_hostile_test "$PROG" \
		"${RUE_HOSTILE_TIMEOUT:-300}" --dev-a=rva --dev-b=rvb \
		--ip4-a=10.5.0.1 --ip4-b=10.5.0.2 \
		--ip6-a=fd00:5::1 --ip6-b=fd00:5::2 "$@"
	run_test "UET: reserved NACK codes counted in nacks_ignored" t_nacks_ignored
	run_test "UET: an RTO answered sooner than the base RTT was undone (rto_undone)" t_rto_undone
	run_test "UET: a target's requests to close counted in pdc_close_asked" t_close_asked
	run_test "UET: a target's requests to clear answered, counted in clears_sent" t_clears_sent
	run_test "netlink: another namespace's devices are not seen" t_nl_netns_scope
	run_test "netlink: root of a user namespace changes nothing" t_nl_userns_changes_nothing
	run_test "netlink: an unprivileged user reads settings, not QPs or PDCs" t_nl_unprivileged
	run_test "netlink: random requests answered, none changes what it may not" t_nl_fuzz
	run_test "every QP and MR the kernel created was released" t_no_leaks
fi
tap_done
