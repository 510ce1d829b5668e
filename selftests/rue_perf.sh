#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rueperf (userspace/rueperf) over RC between two network namespaces:
# every operation in bandwidth, message rate and latency tests, with data
# verified, several peers, text and JSON output parsed and checked
# against the parameters given, and bad command lines refused.  Then UET,
# once a job is granted on both devices (ruectl job): RUD and ROD, one
# client QP to several server QPs.
#
#   ns A: a0 10.6.0.1 (rue rpa) <--veth--> b0 10.6.0.2 (rue rpb) :ns B
#
# The program is $RUEPERF, else userspace/rueperf/rueperf under
# $RUE_BUILD (default: build/).
caller_build=${RUE_BUILD:-}
source "$(dirname "$0")/lib.sh"

require_guest
require_cmd rdma ip timeout python3

prog=${RUEPERF:-${caller_build:-$RUE_TOP/build}/userspace/rueperf/rueperf}
if [ ! -x "$prog" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP rueperf is not built (cmake --build build/userspace --target rueperf)"
	exit $ksft_skip
fi

port=18520
log=$RUE_OUT/rue_perf

t_setup() {
	rue_install_module && modprobe rue || return 1
	ns_pair_setup -4 10.6.0.1,10.6.0.2 -l rpa,rpb -g -p
}

# perf NAME CLIENT-ARGS...: a server in B, the client in A; the client's
# standard output in $log.NAME.
perf() {
	local name=$1
	shift
	server_client "$B" "$A" $port "$prog" server -d rpb --port $port -- \
		"$prog" client -d rpa 10.6.0.2 --port $port "$@" >"$log.pair" ||
		{ cat "$log.pair"; return 1; }
	cp "$RUE_OUT/pair.$$.cli" "$log.$name"
	cat "$log.$name"
}

# check_json FILE PYTHON-EXPR...: the file is one JSON object j for which
# every expression holds.
check_json() {
	local file=$1
	shift
	python3 - "$file" "$@" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    text = f.read()
j = json.loads(text)
assert isinstance(j, dict), "not one object"
assert text.count("\n") == 1, "not one line"
for e in sys.argv[2:]:
    if not eval(e, {"j": j}):
        sys.exit("does not hold: " + e + "\n" + text)
PY
}

# bw_case OP TEST SIZE: JSON output checked.
bw_case() {
	local op=$1 test=$2 size=$3
	perf "$op-$test" --op "$op" --test "$test" --size "$size" --iters 2000 \
		--depth 16 --verify -j || return 1
	check_json "$log.$op-$test" "j['transport'] == 'rc'" "j['op'] == '$op'" \
		"j['test'] == '$test'" "j['size'] == $size" "j['messages'] == 2000" \
		"j['bytes'] == 2000 * $size" "j['verified'] >= min(16, 2000)" "j['bw-gbps'] > 0" "j['rate-mmsg-s'] > 0" \
		"j['verified'] > 0" "j['verify-errors'] == 0" \
		"'lat-avg-us' not in j" \
		"('server-received' in j) == ('$op' == 'send')" \
		"j.get('server-received', 2000) == 2000"
}

t_write_bw() { bw_case write bw 4096; }
t_read_bw() { bw_case read bw 4096; }
t_send_bw() { bw_case send bw 4096; }
t_write_rate() { bw_case write rate 64; }
t_send_rate() {
	perf send-rate --op send --test rate --size 64 --iters 5000 --depth 64 \
		-j || return 1
	check_json "$log.send-rate" "j['messages'] == 5000" \
		"j['server-received'] == 5000" "j['rate-mmsg-s'] > 0"
}

# Latency: text output, parsed.
lat_case() {
	local op=$1
	shift
	perf "lat-$op" --op "$op" --test lat --size 8 --iters 500 "$@" || return 1
	python3 - "$log.lat-$op" "$op" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
def pairs(line):
    w = line.split()
    assert len(w) % 2 == 0, line
    return dict(zip(w[::2], w[1::2]))
p, r = pairs(lines[0]), pairs(lines[1])
assert p["op"] == sys.argv[2] and p["test"] == "lat" and p["depth"] == "1", p
assert r["messages"] == "500", r
lo, avg, p99, hi = (float(r[k]) for k in
                    ("lat-min-us", "lat-avg-us", "lat-p99-us", "lat-max-us"))
assert 0 < lo <= avg <= hi and lo <= p99 <= hi, r
PY
}

t_lat_send() { lat_case send --verify; }
t_lat_write() { lat_case write; }
t_lat_read() { lat_case read --verify; }

# Several peers: the client's QPs spread over 4 server QPs.
t_peers() {
	perf peers --op send --peers 4 --size 1024 --iters 4000 --depth 8 \
		--verify -j || return 1
	check_json "$log.peers" "j['peers'] == 4" "j['messages'] == 4000" \
		"j['server-received'] == 4000" "j['verify-errors'] == 0"
}

# A timed run stops near its time.
t_duration() {
	perf duration --op write --duration 1 --size 65536 -j || return 1
	check_json "$log.duration" "j['duration-s'] == 1" "'iters' not in j" \
		"0.9 < j['seconds'] < 3" "j['messages'] > 0"
}

# Large messages across several MTUs, text output.
t_text_bw() {
	perf text --op read --size 1M --iters 50 --depth 4 || return 1
	grep -q '^device rpa transport rc op read test bw size 1048576 depth 4 ' \
		"$log.text" && grep -Eq '^    messages 50 bytes 52428800 .*bw-gbps [0-9.]+' \
		"$log.text"
}

# expect_refusal "MESSAGE" ARGS...: rueperf exits 1 with MESSAGE.
expect_refusal() {
	local want=$1 out rc
	shift
	out=$("$prog" "$@" 2>&1)
	rc=$?
	if [ $rc != 1 ] || ! grep -qF -- "$want" <<<"$out"; then
		echo "rueperf $*: exit $rc, '$out' (wanted '$want')"
		return 1
	fi
}

t_bad_flags() {
	expect_refusal "unknown option --frob" client -d rpa 10.6.0.2 --frob &&
	expect_refusal "--size: 'big' is not a number" client -d rpa h --size big &&
	expect_refusal "--transport rud needs --job ID" client -d rpa h -t rud &&
	expect_refusal "--job: jobs are for the UET transports" client -d rpa h --job 1 &&
	expect_refusal "--depth: 0 is out of range" client -d rpa h -q 0 &&
	expect_refusal "--op: 'cas' is not one of" client -d rpa h --op cas &&
	expect_refusal "-d DEVICE is required" server &&
	expect_refusal "the server takes this from the client" server -d rpb --op read &&
	in_ns "$A" "$prog" client -d rpa 10.6.0.2 --port 1 >/dev/null 2>&1 &&
		{ echo "connected to a closed port"; return 1; }
	return 0
}

# A server that cannot run what the client asks says why, on both sides.
t_server_refuses() {
	local rc
	in_ns "$B" timeout 60 "$prog" server -d rpb --port $port --gid-index 200 \
		>"$log.refuse.srv" 2>&1 &
	busywait 10000 listening "$B" $port
	in_ns "$A" timeout 60 "$prog" client -d rpa 10.6.0.2 --port $port \
		--iters 10 >"$log.refuse.cli" 2>&1
	rc=$?
	wait
	cat "$log.refuse.cli"
	[ $rc = 1 ] && grep -q "the server refused the run: rpb: no GID index 200" \
		"$log.refuse.cli"
}

# A client that cannot run tells the server, which then exits too.
t_client_gives_up() {
	local rc
	in_ns "$B" timeout 60 "$prog" server -d rpb --port $port \
		>"$log.giveup.srv" 2>&1 &
	busywait 10000 listening "$B" $port
	in_ns "$A" timeout 60 "$prog" client -d nosuch 10.6.0.2 --port $port \
		>"$log.giveup.cli" 2>&1
	rc=$?
	wait $!
	cat "$log.giveup.cli" "$log.giveup.srv"
	[ $rc = 1 ] && grep -q "no RDMA device nosuch" "$log.giveup.cli" &&
	grep -q "rueperf server: the client gave up: no RDMA device nosuch" \
		"$log.giveup.srv"
}

# UET: jobs granted on both devices (ruectl job), then RUD and ROD runs.
uet_job=$((0x5151))
ruectl=${caller_build:-$RUE_TOP/build}/userspace/ruectl/ruectl

t_uet_setup() {
	if [ ! -x "$ruectl" ] || ! "$ruectl" job show >/dev/null 2>&1; then
		echo "no 'ruectl job' to grant a job"
		return $ksft_skip
	fi
	"$ruectl" job add rpa $uet_job && "$ruectl" job add rpb $uet_job ||
		return 1
	defer "$ruectl job del rpa $uet_job"
	defer "$ruectl job del rpb $uet_job"
}

# uet_case NAME TRANSPORT OP TEST PEERS [ARGS...]: JSON checked.
uet_case() {
	local name=$1 tr=$2 op=$3 test=$4 peers=$5 n=400
	shift 5
	[ "$test" = lat ] && n=200
	perf "$name" --transport "$tr" --job $uet_job --op "$op" --test "$test" \
		--peers "$peers" --iters $n --size 4096 -j "$@" || return 1
	check_json "$log.$name" "j['transport'] == '$tr'" "j['job'] == $uet_job" \
		"j['op'] == '$op'" "j['peers'] == $peers" "j['messages'] == $n" \
		"j.get('verify-errors', 0) == 0" "j.get('server-received', $n) == $n"
}

t_uet_rud_write() { uet_case uet-rud-write rud write bw 2 --verify; }
# A device without UET READ yet (RUEDV_DEVICE_CAP_UET_READ) skips.
t_uet_rud_read() {
	uet_case uet-rud-read rud read bw 2 --verify && return 0
	grep -q "cannot do UET rud read" "$log.pair" && return $ksft_skip
	return 1
}
t_uet_rud_send() { uet_case uet-rud-send rud send rate 4 --verify; }
t_uet_rod_send() { uet_case uet-rod-send rod send bw 1 --verify; }
t_uet_rod_write_lat() { uet_case uet-rod-lat rod write lat 1; }
t_uet_rud_send_lat() { uet_case uet-rud-lat rud send lat 2 --verify; }

tap_init
run_test "setup" t_setup
if [ "$_tap_pass" = 1 ]; then
	run_test "rc write bw, verified, JSON" t_write_bw
	run_test "rc read bw, verified, JSON" t_read_bw
	run_test "rc send bw, verified, JSON" t_send_bw
	run_test "rc write rate, verified, JSON" t_write_rate
	run_test "rc send rate, 5000 x 64 B" t_send_rate
	run_test "rc send lat, verified, text" t_lat_send
	run_test "rc write lat, text" t_lat_write
	run_test "rc read lat, verified, text" t_lat_read
	run_test "rc send over 4 peers, verified" t_peers
	run_test "rc write for 1 s" t_duration
	run_test "rc read 1 MiB, text" t_text_bw
	run_test "bad flags refused" t_bad_flags
	run_test "server refusal reaches the client" t_server_refuses
	run_test "client failure reaches the server" t_client_gives_up
	passed=$_tap_pass
	run_test "uet: jobs granted" t_uet_setup
	if [ "$_tap_pass" != "$passed" ]; then
		run_test "uet rud write bw over 2 peers, verified" t_uet_rud_write
		run_test "uet rud read bw over 2 peers, verified" t_uet_rud_read
		run_test "uet rud send rate over 4 peers, verified" t_uet_rud_send
		run_test "uet rod send bw, verified" t_uet_rod_send
		run_test "uet rod write lat" t_uet_rod_write_lat
		run_test "uet rud send lat over 2 peers, verified" t_uet_rud_send_lat
	fi
fi
tap_done
