#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ruectl against the real kernel: "dev show" in text and JSON, UET jobs
# (add, show, del, who may grant them, their end with the device), UET
# counters and PDCs of fresh devices, its unit tests with the netlink
# family present, and clear errors.
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip

RUECTL=$RUE_BUILD/userspace/ruectl/ruectl

t_setup() {
	[ -x "$RUECTL" ] || { echo "ruectl not built"; return 1; }
	rue_install_module && modprobe rue || return 1
	ns_pair_setup -4 10.4.0.1,10.4.0.2 -l rc0,rc1
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

# as_nobody NS ARGS...: ruectl ARGS as nobody:nogroup, without
# capabilities, in namespace NS - the device's: a user without
# CAP_NET_ADMIN sees only its own namespace's devices.
as_nobody() {
	local ns=$1
	shift
	ip netns exec "$ns" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all --bounding-set=-all "$RUECTL" "$@"
}

# must_fail PATTERN CMD...: CMD fails (exit 1) and says PATTERN on stderr.
must_fail() {
	local pattern=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "\$ ${*#"$RUECTL"} -> $rc: $out"
	[ $rc = 1 ] && grep -qF -- "$pattern" <<<"$out"
}

# The UET counters kernel/uet_stats.c defines (the kernel may add more).
UET_COUNTERS="pdc_opened pdc_closed pdc_idle_closed pdc_failed syn_sent
acks_sent acks_rcvd sacks_rcvd nacks_rcvd nacks_ignored rod_ooo_drops fast_retransmits
rto_retransmits tlp_probes_sent tlp_probes_rcvd tlp_retransmits rto_undone ses_errors_sent
ses_errors_rcvd rnr_nacks cwnd_decreases
cwnd_increases ecn_marked_rcvd syn_refused pdc_evicted pdc_superseded pdc_recycled
uud_sent uud_delivered uud_dropped pdc_close_asked pdc_close_reqs_sent
pdc_user_waits pdc_alloc_retries ack_reqs_rcvd clears_rcvd clears_sent"

# Before any UET traffic: every counter there, once, at 0, in text and in
# JSON, for one device and in the dump of every device.
t_uet_stats_fresh() {
	local text json all
	text=$("$RUECTL" uet stats rc0) || return 1
	echo "$text"
	grep -qE '^[0-9]+: rc0:$' <<<"$(head -n 1 <<<"$text")" || return 1
	# below the device line, "    NAME 0" and nothing else
	tail -n +2 <<<"$text" | grep -vqE '^    [a-z0-9_]+ 0$' && return 1
	for c in $UET_COUNTERS; do
		[ "$(grep -cx "    $c 0" <<<"$text")" = 1 ] || { echo "no $c 0"; return 1; }
	done
	json=$("$RUECTL" -j uet stats rc0) || return 1
	all=$("$RUECTL" -j uet stats) || return 1
	python3 - "$json" "$all" $UET_COUNTERS <<-'EOF'
		import json, sys
		one, every, want = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
		assert len(one) == 1 and one[0]["name"] == "rc0", one
		counters = {k: v for k, v in one[0].items() if k not in ("index", "name")}
		assert set(want) <= set(counters), set(want) - set(counters)
		assert all(v == 0 for v in counters.values()), counters
		names = sorted(d["name"] for d in every)
		assert names == ["rc0", "rc1"], names
		for d in every:
		    rest = {k: v for k, v in d.items() if k not in ("index", "name")}
		    assert rest == counters, d
	EOF
}

# No PDC before any UET traffic; an unknown device is an error, for both.
t_pdc_show_fresh() {
	[ -z "$("$RUECTL" pdc show rc0)" ] && [ -z "$("$RUECTL" pdc)" ] &&
	[ "$("$RUECTL" -j pdc show rc1)" = "[]" ] &&
	[ "$("$RUECTL" -j pdc show)" = "[]" ] || return 1
	must_fail 'device "nosuch" not found' "$RUECTL" pdc show nosuch &&
	must_fail 'device "nosuch" not found' "$RUECTL" -j pdc show nosuch &&
	must_fail 'device "nosuch" not found' "$RUECTL" uet stats nosuch &&
	must_fail 'unexpected argument "x"' "$RUECTL" pdc show rc0 x
}

t_job_round_trip() {
	local out
	dmesg -C
	"$RUECTL" job add rc0 42 uid nobody gid 65534 &&
	"$RUECTL" job add rc0 16777215 --gid nogroup &&
	"$RUECTL" job add rc1 7 || return 1
	out=$("$RUECTL" job show) || return 1
	echo "$out"
	[ "$out" = "dev rc0 job 42 uid 65534 gid 65534 bound 0
dev rc0 job 16777215 gid 65534 bound 0
dev rc1 job 7 bound 0" ] || return 1
	out=$("$RUECTL" job show rc0 42) || return 1
	[ "$out" = "dev rc0 job 42 uid 65534 gid 65534 bound 0" ] || return 1
	out=$("$RUECTL" -j job show rc0) || return 1
	echo "$out"
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d==[{"dev":"rc0","job":42,"uid":65534,"gid":65534,"bound":0},{"dev":"rc0","job":16777215,"gid":65534,"bound":0}], d' <<<"$out" || return 1
	# anyone in the device's namespace may look
	out=$(as_nobody "$B" -j job show rc1 7) || return 1
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d==[{"dev":"rc1","job":7,"bound":0}], d' <<<"$out" || return 1
	"$RUECTL" job del rc0 42 && "$RUECTL" job del rc0 16777215 &&
	"$RUECTL" job del rc1 7 || return 1
	[ -z "$("$RUECTL" job show)" ]
}

t_job_errors() {
	"$RUECTL" job add rc0 5 || return 1
	must_fail 'device "nosuch" not found' "$RUECTL" job add nosuch 5 &&
	must_fail 'device "nosuch" not found' "$RUECTL" job show nosuch &&
	must_fail 'device "rc0" has job 5 already' "$RUECTL" job add rc0 5 &&
	must_fail 'no job 6 on device "rc0"' "$RUECTL" job del rc0 6 &&
	must_fail 'no job 6 on device "rc0"' "$RUECTL" job show rc0 6 &&
	must_fail 'bad job ID "16777216": job IDs are 1 to 16777215' \
		"$RUECTL" job add rc0 16777216 &&
	must_fail 'bad job ID "0"' "$RUECTL" job add rc0 0 &&
	must_fail 'bad uid "no-such-user-rue": no user of that name' \
		"$RUECTL" job add rc0 8 uid no-such-user-rue &&
	must_fail 'bad uid "4294967295"' "$RUECTL" job add rc0 8 uid 4294967295 &&
	must_fail 'bad gid "x y"' "$RUECTL" job add rc0 8 gid "x y" &&
	must_fail 'uid given twice' "$RUECTL" job add rc0 8 uid 1 --uid 2 || return 1
	# nothing of the above was granted
	[ "$("$RUECTL" job show rc0)" = "dev rc0 job 5 bound 0" ] &&
	"$RUECTL" job del rc0 5
}

t_job_needs_cap_net_admin() {
	"$RUECTL" job add rc0 9 || return 1
	must_fail 'Operation not permitted (adding a job needs CAP_NET_ADMIN)' \
		as_nobody "$A" job add rc0 10 uid nobody &&
	must_fail 'Operation not permitted (deleting a job needs CAP_NET_ADMIN)' \
		as_nobody "$A" job del rc0 9 || return 1
	[ "$("$RUECTL" job show rc0)" = "dev rc0 job 9 bound 0" ] &&
	"$RUECTL" job del rc0 9
}

t_jobs_go_with_device() {
	"$RUECTL" job add rc1 11 uid 1000 && "$RUECTL" job add rc1 12 || return 1
	rdma link del rc1 || return 1
	[ -z "$("$RUECTL" job show)" ] || return 1
	must_fail 'device "rc1" not found' "$RUECTL" job show rc1 || return 1
	# the same name again is a new device, without them
	ip netns exec "$B" rdma link add rc1 type rue netdev b0 || return 1
	[ -z "$("$RUECTL" job show rc1)" ]
}

t_job_console_clean() {
	local bad
	bad=$(dmesg | grep -E 'WARNING|BUG|Oops|refcount_t|KASAN|UBSAN|self-test failed')
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# cc_set_u32 DEV ATTR VALUE: a CC_SET of one u32 CC attribute, sent as a
# raw generic netlink request (ruectl checks ranges before it asks);
# prints the kernel's answer as an errno number (0: done).
cc_set_u32() {
	python3 - "$@" <<'PY'
import socket, struct, sys
dev, attr, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def nla(t, data):
    n = 4 + len(data)
    return struct.pack("=HH", n, t) + data + b"\0" * ((4 - n % 4) % 4)
def request(s, typ, cmd, attrs, seq):
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    s.send(struct.pack("=IHHII", 16 + len(body), typ, 5, seq, 0) + body)
    while True:
        msg = s.recv(65536)
        n, t, _, sq, _ = struct.unpack_from("=IHHII", msg)
        if sq != seq:
            continue
        if t == 2:  # NLMSG_ERROR: the answer (0: an ACK)
            return -struct.unpack_from("=i", msg, 16)[0], msg
        return 0, msg  # a reply; its ACK follows, skipped by seq
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
# CTRL_CMD_GETFAMILY (3) of "rue" from the controller (0x10)
err, msg = request(s, 0x10, 3, nla(2, b"rue\0"), 1)
if err:
    sys.exit("no rue family")
off, family = 20, None
while off < len(msg):
    n, t = struct.unpack_from("=HH", msg, off)
    if t == 1:  # CTRL_ATTR_FAMILY_ID
        family = struct.unpack_from("=H", msg, off + 4)[0]
    off += (n + 3) & ~3
# RUE_CMD_CC_SET (3): RUE_A_DEV_NAME (2), RUE_A_DEV_CC (13) nested
cc = nla(attr, struct.pack("=I", value))
err, _ = request(s, family, 3, nla(2, dev.encode() + b"\0") + nla(13 | 0x8000, cc), 2)
print(err)
PY
}

# PFC quanta are 1-65535 in the kernel's policy, not only in ruectl's:
# the bound was once an NLA_POLICY_RANGE whose s16 fields made 0xffff
# -1, no bound at all, and 6.1 warned on every request carrying the
# attribute (issue 15, found by rue_nl_fuzz).
t_pfc_quanta_policy() {
	local quanta=30 err  # RUE_A_CC_PFC_QUANTA
	"$RUECTL" cc set rc0 pfc-quanta 1000 || return 1
	"$RUECTL" -j cc show rc0 | grep -q '"pfc-quanta":1000' ||
		{ "$RUECTL" -j cc show rc0; return 1; }
	err=$(cc_set_u32 rc0 $quanta 65536) || return 1
	echo "pfc-quanta 65536: errno $err"
	[ "$err" = 34 ] || return 1  # ERANGE
	err=$(cc_set_u32 rc0 $quanta 0)
	echo "pfc-quanta 0: errno $err"
	[ "$err" = 34 ] || return 1
	err=$(cc_set_u32 rc0 $quanta 65535)
	[ "$err" = 0 ] || { echo "65535: errno $err"; return 1; }
	"$RUECTL" -j cc show rc0 | grep -q '"pfc-quanta":65535' || return 1
	t_job_console_clean
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
run_test "uet stats: every counter at 0 on fresh devices (text, JSON)" t_uet_stats_fresh
run_test "pdc show: none on fresh devices, unknown device refused" t_pdc_show_fresh
run_test "job add, show (text, JSON), del" t_job_round_trip
run_test "job errors: device, exists, no such job, bad ID, uid, gid" t_job_errors
run_test "job add and del need CAP_NET_ADMIN" t_job_needs_cap_net_admin
run_test "jobs go with their device" t_jobs_go_with_device
run_test "kernel console clean after the job cases" t_job_console_clean
run_test "PFC quanta out of 1-65535 refused by the kernel" t_pfc_quanta_policy
run_test "bad input gives an error and exit 1" t_errors
run_test "ruectl unit tests against the live family" t_unit_tests_with_module
run_test "says when the module is not loaded" t_module_not_loaded
tap_done
