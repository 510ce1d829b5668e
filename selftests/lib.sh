# SPDX-License-Identifier: GPL-2.0
#
# Helpers for rue's guest tests, in the spirit of kselftest's net/lib.sh:
# TAP output, unique network namespaces cleaned up on exit, veth pairs,
# rue links, the module installed from the build tree.
#
# A test script sources this file, calls tap_init, runs its cases with
# run_test, and ends with tap_done.  Exit status: 0 all passed, 1 some
# failed, 4 (ksft_skip) when the environment cannot run the test at all.

ksft_skip=4

RUE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUE_BUILD=${RUE_BUILD:-$RUE_TOP/build}
RUE_OUT=${RUE_OUT:-/tmp}
# Load librue from the build tree unless a test installs it.
export RDMAV_DRIVERS=${RDMAV_DRIVERS-$RUE_BUILD/userspace/provider/librue}

_tap_n=0
_tap_pass=0
_tap_fail=0
_tap_skip=0
_tap_name=$(basename "$0" .sh)
_cleanup=()

tap_init() {
	echo "TAP version 13"
	trap _run_cleanup EXIT
}

tap_log() {
	local line
	while IFS= read -r line; do echo "# $line"; done <<<"$*"
}

tap_ok() {
	_tap_n=$((_tap_n + 1)); _tap_pass=$((_tap_pass + 1))
	echo "ok $_tap_n $_tap_name: $1"
}

tap_fail() {
	_tap_n=$((_tap_n + 1)); _tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n $_tap_name: $1"
	[ -n "${2:-}" ] && tap_log "$2"
	return 0
}

tap_skip() {
	_tap_n=$((_tap_n + 1)); _tap_skip=$((_tap_skip + 1))
	echo "ok $_tap_n $_tap_name: $1 # SKIP ${2:-}"
}

# _descendants PID: every process below PID, each before its children.
_descendants() {
	local c
	for c in $(ps -o pid= --ppid "$1"); do
		echo "$c"
		_descendants "$c"
	done
}

# _watchdog FLAG LOG NAME: a case that runs longer than RUE_CASE_TIMEOUT
# seconds (300) has hung.  Say where (the processes, the case's output so
# far, blocked kernel tasks on the console), then end everything the
# suite started so that the case returns and fails (FLAG removed) and
# the suite goes on.  The watcher is not a child of this shell, so that
# a case's own "wait" does not wait for it; run_test removes FLAG when
# the case ends in time, which ends the watcher within a second.
_watchdog() {
	local flag=$1 log=$2 name=$3 secs=${RUE_CASE_TIMEOUT:-300} top=$$ n pids
	( (
		n=0
		while [ -e "$flag" ] && [ $n -lt "$secs" ]; do
			sleep 1; n=$((n + 1))
		done
		[ -e "$flag" ] || exit 0
		rm -f "$flag"
		{
			echo "$name: still running after $secs s; processes:"
			ps -e -o pid,ppid,stat,etime,wchan:24,args --forest
			echo "its output so far:"
			tail -n 20 "$log"
		} | sed 's/^/# watchdog: /' >&2
		[ -w /proc/sysrq-trigger ] && echo w >/proc/sysrq-trigger
		pids=$(_descendants $top)
		kill -TERM $pids 2>/dev/null
		sleep 2
		kill -KILL $pids 2>/dev/null
	) & )
}

# selected NAME: is the case NAME to run under RUE_TEST_ONLY (below)?
selected() {
	[ -z "${RUE_TEST_ONLY:-}" ] || [ "$1" = setup ] ||
		grep -qE -- "$RUE_TEST_ONLY" <<<"$1"
}

# run_test NAME CMD...: run CMD (usually a shell function, in this shell,
# so that what it sets up stays for later cases) with its output captured;
# pass on status 0, skip on 4, fail otherwise (showing the output).
# RUE_TEST_ONLY=REGEX runs only the cases whose name matches (and "setup");
# RUE_TEST_TIMING=1 prints how long each case took; RUE_TEST_VERBOSE=1
# shows what passing cases printed too; a case still running after
# RUE_CASE_TIMEOUT seconds (300) is ended and fails (_watchdog).
run_test() {
	local name=$1 out rc log start flag
	shift
	selected "$name" || return 0
	log=$(mktemp)
	flag=$(mktemp)
	_watchdog "$flag" "$log" "$name"
	start=$(date +%s%N)
	"$@" >"$log" 2>&1
	rc=$?
	[ -e "$flag" ] || rc=124
	rm -f "$flag"
	out=$(cat "$log")
	rm -f "$log"
	[ -n "${RUE_TEST_TIMING:-}" ] &&
		echo "# $name: $(( ($(date +%s%N) - start) / 1000000 )) ms"
	case $rc in
	0) tap_ok "$name"
	   [ -n "${RUE_TEST_VERBOSE:-}" ] && [ -n "$out" ] && tap_log "$out" ;;
	"$ksft_skip") tap_skip "$name" "$(tail -n 1 <<<"$out")" ;;
	*) tap_fail "$name" "exit $rc: $(tail -n 25 <<<"$out")" ;;
	esac
	return 0
}

tap_done() {
	echo "1..$_tap_n"
	echo "# $_tap_name: $_tap_pass passed, $_tap_fail failed, $_tap_skip skipped"
	[ $_tap_fail -eq 0 ] && [ $_tap_n -gt 0 ] && exit 0
	[ $_tap_fail -eq 0 ] && [ $_tap_skip -gt 0 ] && exit $ksft_skip
	exit 1
}

# defer CMD...: run CMD at exit, last deferred first.
defer() {
	_cleanup+=("$*")
}

_run_cleanup() {
	local i
	for ((i = ${#_cleanup[@]} - 1; i >= 0; i--)); do
		eval "${_cleanup[$i]}" >/dev/null 2>&1
	done
	_cleanup=()
}

require_cmd() {
	local c
	for c in "$@"; do
		if ! command -v "$c" >/dev/null; then
			echo "TAP version 13"
			echo "1..0 # SKIP $c not installed"
			exit $ksft_skip
		fi
	done
}

require_guest() {
	if [ "$(id -u)" != 0 ] || [ -z "${RUE_GUEST:-}" ]; then
		echo "TAP version 13"
		echo "1..0 # SKIP needs root in a test guest (scripts/vm-run)"
		exit $ksft_skip
	fi
}

# Make rue.ko loadable with modprobe: the host indexed a module tree for
# this kernel (Makefile, modroot); copy it into the guest's overlay.
rue_install_module() {
	local k m
	k=$(uname -r)
	m=$RUE_BUILD/kernel/$k/modroot/lib/modules/$k
	if [ ! -e "$m/updates/rue.ko" ]; then
		echo "rue.ko for $k is not built (make KVER=$k)"
		return 1
	fi
	mkdir -p "/lib/modules/$k/updates" &&
	cp "$m/updates/rue.ko" "/lib/modules/$k/updates/rue.ko" &&
	# a kernel the host has not installed (the sanitizer kernel):
	# its own modules, where the module tree's link points
	{ [ -e "/lib/modules/$k/kernel" ] ||
	  ln -s "$(readlink "$m/kernel")" "/lib/modules/$k/kernel"; } &&
	cp "$m"/modules.* "/lib/modules/$k/" &&
	modprobe ib_uverbs
}

rue_module_loaded() {
	[ -d /sys/module/rue ]
}

# busywait TIMEOUT_MS CMD...: retry CMD until it succeeds.
busywait() {
	local timeout=$1 start
	shift
	start=$(date +%s%3N)
	while true; do
		"$@" && return 0
		[ $(($(date +%s%3N) - start)) -ge "$timeout" ] && return 1
		sleep 0.05
	done
}

# running PID: process PID has not exited.  Not "kill -0", which also
# succeeds on a zombie - an exited child its shell has not reaped yet;
# rue_pfc's sampling loop on 6.12 once spun for five minutes on its
# injector's zombie, the shell reaping none of its children while it ran.
# No fork: the loops that ask sample every few milliseconds.
running() {
	local stat st
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	st=${stat##*) }
	st=${st%% *}
	[ "$st" != Z ] && [ "$st" != X ]
}

# ended PID: process PID has exited.
ended() {
	! running "$1"
}

# setup_ns VAR...: create uniquely named namespaces, names stored in VAR.
setup_ns() {
	local v name
	for v in "$@"; do
		name="rue-$v-$$-$RANDOM"
		ip netns add "$name" || return 1
		ip -n "$name" link set lo up
		defer "ip netns del $name"
		eval "$v=$name"
	done
}

# ns_ip NS ARGS...: "ip ARGS" in namespace NS, or in ours if NS is "-".
ns_ip() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then ip "$@"; else ip -n "$ns" "$@"; fi
}

# veth_pair NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair across two
# namespaces ("-" is ours, where the pair is deleted at exit), with
# IPv4 addresses (prefix /24; "" for none) and up.
veth_pair() {
	local ns1=$1 d1=$2 a1=$3 ns2=$4 d2=$5 a2=$6 at1=() at2=()
	[ "$ns1" = - ] || at1=(netns "$ns1")
	[ "$ns2" = - ] || at2=(netns "$ns2")
	ip link add "$d1" "${at1[@]}" type veth peer name "$d2" "${at2[@]}" ||
		return 1
	if [ "$ns1" = - ]; then
		defer "ip link del $d1"
	elif [ "$ns2" = - ]; then
		defer "ip link del $d2"
	fi
	{ [ -z "$a1" ] || ns_ip "$ns1" addr add "$a1/24" dev "$d1"; } &&
	{ [ -z "$a2" ] || ns_ip "$ns2" addr add "$a2/24" dev "$d2"; } &&
	ns_ip "$ns1" link set "$d1" up &&
	ns_ip "$ns2" link set "$d2" up
}

# rdma_link NS NAME TYPE NETDEV: "rdma link add" in namespace NS ("-":
# ours), removed at exit.
rdma_link() {
	in_ns "$1" rdma link add "$2" type "$3" netdev "$4" || return 1
	defer "rdma link del $2"
}

# rue_link NS NAME NETDEV: a rue link, as rdma_link.
rue_link() {
	rdma_link "$1" "$2" rue "$3"
}

rdma_dev_exists() {
	[ -e "/sys/class/infiniband/$1" ]
}

# GID index of an IPv4 address on an RDMA device (RoCEv2 entries).
gid_index_of() {
	gid_index_of_gid "$1" "$(ipv4_gid "$2")"
}

# The IPv4-mapped GID of an address, as sysfs prints it.
ipv4_gid() {
	local IFS=.
	# shellcheck disable=SC2086
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}

# The GID of an IPv6 address, as sysfs prints it (eight groups of four
# digits): ipv6_gid fd00:5::1 is fd00:0005:0000:0000:0000:0000:0000:0001.
ipv6_gid() {
	local head=${1%%::*} tail="" hi=() lo=() x out=""
	[[ $1 == *::* ]] && tail=${1#*::}
	IFS=: read -ra hi <<<"$head"
	IFS=: read -ra lo <<<"$tail"
	while [ $((${#hi[@]} + ${#lo[@]})) -lt 8 ]; do hi+=(0); done
	for x in "${hi[@]}" "${lo[@]}"; do out+=$(printf '%04x:' "0x$x"); done
	echo "${out%:}"
}

# GID index of any GID (as sysfs prints it) on an RDMA device.
gid_index_of_gid() {
	local d=/sys/class/infiniband/$1/ports/1/gids i g
	# By index, with the shell's own read: rdma_rxe's table has 1024
	# entries, which a glob orders 0, 1, 10, 100, 1000, ..., 2, and a
	# process per entry took 15 s to reach index 2 in a TCG guest.
	for ((i = 0; ; i++)); do
		[ -e "$d/$i" ] || return 1
		g=
		read -r g <"$d/$i" 2>/dev/null
		[ "$g" = "$2" ] && { echo $i; return 0; }
	done
}

# in_ns NS CMD...: run CMD in namespace NS, or in ours if NS is "-".
in_ns() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# cm_waiting PID...: one of these processes has come back from
# rdma_listen() and waits for rdma_cm events: one of its threads sleeps
# in rdma_cm's event read (a write() whose kernel wait is in
# ucma_get_event) and no other thread runs or is in another write().
# perftest and ucmatose wait for events in the thread that listened;
# rping has a thread waiting before it listens, and then waits on a
# semaphore (a futex) in the one that did.  rsockets keep their event
# channel non-blocking and wait in poll() (rstream -T b, rcopy).
cm_waiting() {
	local p t nr wc waiting
	for p in "$@"; do
		waiting=0
		for t in /proc/"$p"/task/*; do
			read -r nr _ <"$t/syscall" 2>/dev/null || continue 2
			wc=
			# no newline at its end: read fails, and still sets wc
			read -r wc <"$t/wchan" 2>/dev/null
			if [ "$wc" = ucma_get_event ]; then
				waiting=1
			elif [ "$nr" = running ] || [ "$nr" = 1 ]; then
				continue 2
			elif [ "$nr" = 7 ] || [ "$nr" = 271 ]; then
				waiting=1	# poll, ppoll: an rsocket
			fi
		done
		[ $waiting = 1 ] && return 0
	done
	return 1
}

# listening NS PORT: a process in namespace NS listens on PORT, over TCP
# (perftest's and the pingpongs' exchange) or rdma_cm.  An rdma_cm
# listener shows LISTEN (rdma resource) before the IB CM listens on its
# service ID (rdma_listen() sets the state first, cma_ib_listen() comes
# after, per device for a wildcard address): a client let in then is
# rejected (reason 8, invalid service ID).  So the server must also have
# come back from rdma_listen() and be waiting for events.
listening() {
	in_ns "$1" ss -Hltn "sport = :$2" | grep -q . && return 0
	local pids
	pids=$(rdma resource show cm_id | grep "LISTEN.*:$2 " |
	       grep -o 'pid [0-9]*' | sort -u | cut -d' ' -f2)
	[ -n "$pids" ] && cm_waiting $pids
}

# perftest 4.5's rdma_cm mode (-R) races with itself: after the
# handshake over its control connection (port 18515, which listening()
# waits for), the client connects its data QP at once, while the server
# creates the listener for it only then (rdma_cm_server_connection()).  A
# client that comes first is rejected, reason 8 (invalid service ID), and
# perftest's own retry of that (rdma_cm_client_connection()) crashes;
# the server then waits for a connection that never comes (CI, 6.1:
# one -R case in each of two make check runs, 182 s each).
# perftest_cm_pair CMD...: run CMD (a server_client pair), and once more,
# saying so, if it failed exactly that way.
perftest_cm_pair() {
	local out
	out=$("$@") && { echo "$out"; return 0; }
	echo "$out"
	grep -q "RDMA_CM_EVENT_REJECTED; error: 8" <<<"$out" || return 1
	echo "perftest's rdma_cm data-connection race (lib.sh): once more"
	"$@"
}

pair_tail() {
	grep -iE 'fail|error|unable|couldn|invalid|not supported' "$1" | head -n 5
	tail -n 8 "$1"
}

# server_client SNS CNS PORT SERVER... -- CLIENT...: run SERVER in
# namespace SNS and, once it listens on PORT, CLIENT in CNS ("-": ours);
# both must succeed within RUE_PAIR_TIMEOUT seconds (default 180).  Prints the
# tails of both outputs on failure, the client's last lines on success.
# A server whose client failed gets RUE_PAIR_GRACE seconds (default 10)
# to end as well, and is then stopped: a perftest server whose client
# died waits for it until the limit (perftest_cm_pair: 3 minutes of
# make check each time perftest's rdma_cm race hits).
server_client() {
	local sns=$1 cns=$2 port=$3 srv=() cli=() in_cli=0 a rc_s rc_c spid late=0
	local log=$RUE_OUT/pair.$$ limit=${RUE_PAIR_TIMEOUT:-180}
	local grace=${RUE_PAIR_GRACE:-10}
	shift 3
	for a in "$@"; do
		if [ "$a" = -- ]; then in_cli=1; continue; fi
		if [ $in_cli = 1 ]; then cli+=("$a"); else srv+=("$a"); fi
	done
	# timeout itself is the background job, so that killing it (it
	# passes SIGTERM on) reaches the server.
	if [ "$sns" = - ]; then
		timeout "$limit" "${srv[@]}" >"$log.srv" 2>&1 &
	else
		timeout "$limit" ip netns exec "$sns" "${srv[@]}" >"$log.srv" 2>&1 &
	fi
	spid=$!
	# A server that never listens fails the pair; the client still
	# runs so that both outputs say what happened.
	busywait 30000 listening "$sns" "$port" || late=1
	in_ns "$cns" timeout "$limit" "${cli[@]}" >"$log.cli" 2>&1
	rc_c=$?
	[ $late = 1 ] && { echo "server not listening on $port after 30 s"; rc_c=late; }
	if [ $rc_c != 0 ] && ! busywait $((grace * 1000)) ended $spid; then
		echo "server still running $grace s after its client failed: stopped"
		kill $spid 2>/dev/null
	fi
	wait $spid
	rc_s=$?
	if [ $rc_c != 0 ] || [ $rc_s != 0 ]; then
		# stderr is unbuffered and stdout is not: an error message
		# may come before the banner that ends the output.
		echo "server exit $rc_s:"; pair_tail "$log.srv"
		echo "client exit $rc_c:"; pair_tail "$log.cli"
		return 1
	fi
	tail -n 3 "$log.cli"
}

# daemon_client SNS CNS PORT SERVER... -- CLIENT...: like server_client,
# for a server that serves until it is killed (rcopy, cmtime):
# the client must succeed, and the server must still be running when it
# has (a server that died on the way failed).
daemon_client() {
	local sns=$1 cns=$2 port=$3 srv=() cli=() in_cli=0 a rc=0 spid
	local log=$RUE_OUT/daemon.$$ limit=${RUE_PAIR_TIMEOUT:-180}
	shift 3
	for a in "$@"; do
		if [ "$a" = -- ]; then in_cli=1; continue; fi
		if [ $in_cli = 1 ]; then cli+=("$a"); else srv+=("$a"); fi
	done
	# timeout itself is the background job, so that killing it (it
	# passes SIGTERM on) reaches the server; it then exits with 143.
	if [ "$sns" = - ]; then
		timeout "$limit" "${srv[@]}" >"$log.srv" 2>&1 &
	else
		timeout "$limit" ip netns exec "$sns" "${srv[@]}" >"$log.srv" 2>&1 &
	fi
	spid=$!
	busywait 30000 listening "$sns" "$port" || { echo "server not listening on $port after 30 s"; rc=1; }
	in_ns "$cns" timeout "$limit" "${cli[@]}" >"$log.cli" 2>&1 || { echo "client exit $?"; rc=1; }
	kill $spid 2>/dev/null
	wait $spid
	a=$?
	[ $a = 143 ] || { echo "server ended before the client did (exit $a)"; rc=1; }
	if [ $rc != 0 ]; then
		echo "server:"; pair_tail "$log.srv"
		echo "client:"; pair_tail "$log.cli"
		return 1
	fi
	tail -n 3 "$log.cli"
}

# mckey_pair RNS RADDR SNS SADDR GROUP: rdma_cm multicast with librdmacm's
# mckey.  A receiver in namespace RNS ("-": this one), bound to RADDR,
# joins GROUP with two UD QPs; once both have joined, a sender in SNS bound
# to SADDR joins as a send-only member and sends 20 datagrams of 1000
# bytes, and each receiving QP must get all 20 - within 10 s of the
# sender's end, when they have long arrived or are lost (mckey itself
# would wait for ever).
mckey_pair() {
	local rns=$1 raddr=$2 sns=$3 saddr=$4 group=$5 rpid rc=0
	local log=$RUE_OUT/mckey.$$
	in_ns "$rns" timeout 60 stdbuf -oL mckey -m "$group" -b "$raddr" -c 2 \
		-C 20 -S 1000 >"$log.r" 2>&1 &
	rpid=$!
	busywait 30000 grep -q "receiving data transfers" "$log.r" || rc=1
	in_ns "$sns" timeout 60 mckey -m "$group" -b "$saddr" -s -o -C 20 \
		-S 1000 >"$log.s" 2>&1 || rc=1
	if ! busywait 10000 grep -q "data transfers complete" "$log.r"; then
		echo "receiver: not all datagrams 10 s after the sender's end"
		pkill -f -- "mckey -m $group -b $raddr"
		rc=1
	fi
	wait $rpid || rc=1
	if [ $rc != 0 ]; then
		echo "receiver:"; pair_tail "$log.r"
		echo "sender:"; pair_tail "$log.s"
		return 1
	fi
	tail -n 2 "$log.r"
}

# A counter from "rdma statistic show link DEV/1".
rue_stat() {
	rdma statistic show link "$1/1" | tr ' ' '\n' | grep -A1 -x "$2" | tail -n 1
}

# Run a GoogleTest program of userspace/tests with --tap, its TAP lines
# renumbered into ours: run_gtest NAME PROGRAM TIMEOUT [ARG...]
# With RUE_GTEST_NS=NS (e.g. "RUE_GTEST_NS=$B run_gtest ..."), the
# program runs in network namespace NS.  TIMEOUT (seconds) is for a
# kernel of normal speed: RUE_TIME_SCALE (1) multiplies it (the
# sanitizer kernel runs everything 4-8 times slower).
run_gtest() {
	local name=$1 prog=$2 limit=$(($3 * ${RUE_TIME_SCALE:-1})) line rc="" plan=0 fd
	shift 3
	tap_log "program: $prog"
	exec {fd}< <(in_ns "${RUE_GTEST_NS:--}" \
			timeout -k 10 "$limit" "$prog" --tap "$@" 2>&1
		     echo "__rue_gtest_exit $?")
	while IFS= read -r line <&$fd; do
		case "$line" in
		"TAP version"*) ;;
		"1..0"*) plan=1; tap_skip "$name" "${line#*SKIP }" ;;
		1..*) plan=1 ;;
		"not ok "*)
			line=${line#not ok }
			tap_fail "${line#* }" ;;
		"ok "*"# SKIP"*)
			line=${line#ok }
			line=${line#* }
			tap_skip "${line%% # SKIP*}" "${line#*# SKIP }" ;;
		"ok "*)
			line=${line#ok }
			tap_ok "${line#* }" ;;
		"__rue_gtest_exit "*) rc=${line#__rue_gtest_exit } ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done
	exec {fd}<&-
	case "$rc" in
	0|1) [ $plan = 1 ] || tap_fail "$name" "exit $rc without a TAP plan" ;;
	"$ksft_skip") [ $plan = 1 ] || tap_skip "$name" "exit 4" ;;
	124|137) tap_fail "$name" "timed out after $limit s" ;;
	*) tap_fail "$name" "exited with status $rc (crash?)" ;;
	esac
}

# gtest_failures: of a GoogleTest TAP run on stdin, each failed case
# with the messages under it (tests/tap_listener.cc) and the summary.
gtest_failures() {
	awk '/^not ok/ { f = 1; print; next }
	     f && /^# / { print; next }
	     { f = 0 }
	     /^# .*(fail|Fail)/' | head -40
}

has_gid() {
	grep -qx "$2" /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null
}

# dyndbg "module rue file X +p": enable dynamic debug (debugfs if needed).
dyndbg() {
	local ctl=/proc/dynamic_debug/control
	if [ ! -w $ctl ]; then
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
		ctl=/sys/kernel/debug/dynamic_debug/control
	fi
	[ -w $ctl ] && echo "$1" >$ctl
}

# ns_pair_setup [OPTION...]: the topology of most suites, two network
# namespaces joined by a veth pair with an RDMA link on either end:
#
#   ns A: a0 IPV4 IPV6 (LINK) <--veth--> b0 IPV4 IPV6 (LINK) :ns B
#
# Each option gives both ends, "A,B"; an end left empty ("rva," or
# ",rd0") goes without.
#   -n VA,VB  the variables naming the namespaces (default A,B): one that
#             is empty gets a new namespace (setup_ns), one already set
#             is used as it is (cc_incast's router); "-" is ours
#   -d DA,DB  the veth's ends (default a0,b0)
#   -4 IA,IB  IPv4 addresses (/24)
#   -6 IA,IB  IPv6 addresses (/64, without duplicate address detection)
#   -m MTU    the veth's MTU on both ends, set before the links exist
#   -l LA,LB  RDMA links on the ends: NAME is rue, rxe:NAME rdma_rxe
#   -g        wait until each link has its end's addresses as GIDs
#   -p        ping each address of either end from the other, so that
#             neighbours are resolved before the first connection (or a
#             lossy qdisc) needs them
# Everything it makes goes at exit.  Say why on failure, return 1.
ns_pair_setup() {
	local opt OPTIND=1 i a v nss=() vars=(A B) devs=(a0 b0) addr4=("" "")
	local addr6=("" "") links=("" "") mtu="" gids="" ping=""
	while getopts "n:d:4:6:m:l:gp" opt; do
		case $opt in
		n) IFS=, read -r "vars[0]" "vars[1]" <<<"$OPTARG" ;;
		d) IFS=, read -r "devs[0]" "devs[1]" <<<"$OPTARG" ;;
		4) IFS=, read -r "addr4[0]" "addr4[1]" <<<"$OPTARG" ;;
		6) IFS=, read -r "addr6[0]" "addr6[1]" <<<"$OPTARG" ;;
		m) mtu=$OPTARG ;;
		l) IFS=, read -r "links[0]" "links[1]" <<<"$OPTARG" ;;
		g) gids=1 ;;
		p) ping=1 ;;
		*) echo "ns_pair_setup: unknown option"; return 1 ;;
		esac
	done
	for i in 0 1; do
		v=${vars[i]}
		if [ "$v" = - ]; then
			nss[i]=-
			continue
		fi
		[ -n "${!v:-}" ] || setup_ns "$v" || return 1
		nss[i]=${!v}
	done
	veth_pair "${nss[0]}" "${devs[0]}" "${addr4[0]}" \
		  "${nss[1]}" "${devs[1]}" "${addr4[1]}" || return 1
	for i in 0 1; do
		if [ -n "${addr6[i]}" ]; then
			ns_ip "${nss[i]}" addr add "${addr6[i]}/64" dev "${devs[i]}" \
				nodad || return 1
		fi
		if [ -n "$mtu" ]; then
			ns_ip "${nss[i]}" link set "${devs[i]}" mtu "$mtu" || return 1
		fi
	done
	for i in 0 1; do
		v=${links[i]#rxe:}
		[ -n "$v" ] || continue
		if [ "$v" = "${links[i]}" ]; then
			rue_link "${nss[i]}" "$v" "${devs[i]}" || return 1
		else
			rdma_link "${nss[i]}" "$v" rxe "${devs[i]}" || return 1
		fi
	done
	for i in 0 1; do
		[ -n "$gids" ] && [ -n "${links[i]}" ] || continue
		wait_gids "${links[i]#rxe:}" "${addr4[i]}" "${addr6[i]}" || return 1
	done
	for i in 0 1; do
		[ -n "$ping" ] || continue
		for a in ${addr4[1 - i]} ${addr6[1 - i]}; do
			in_ns "${nss[i]}" ping -c 1 -W 2 "$a" >/dev/null ||
				{ echo "${devs[i]} cannot reach $a"; return 1; }
		done
	done
}

# wait_gids DEV IPV4 IPV6: within 5 s, DEV has the GIDs of the addresses
# given ("" for none).
wait_gids() {
	local dev=$1 a4=$2 a6=$3
	if [ -n "$a4" ] && ! busywait 5000 has_gid "$dev" "$(ipv4_gid "$a4")"; then
		echo "no GID for $a4 on $dev"
		return 1
	fi
	if [ -n "$a6" ] && ! busywait 5000 has_gid "$dev" "$(ipv6_gid "$a6")"; then
		echo "no GID for $a6 on $dev"
		return 1
	fi
}

# The topology of the verbs and UET programs (rue_verbs.sh, rue_uet.sh):
#   ns A: a0 10.5.0.1 fd00:5::1 (rue rva) <--veth--> b0 10.5.0.2 fd00:5::2 (rue rvb) :ns B
# with GIDs present and neighbours resolved.  Sets A and B.
verbs_pair_setup() {
	rue_install_module && modprobe rue || return 1
	if rdma system show 2>/dev/null | grep -q 'netns exclusive'; then
		echo "RDMA netns mode is exclusive; the test needs shared"
		return $ksft_skip
	fi
	ns_pair_setup -4 10.5.0.1,10.5.0.2 -6 fd00:5::1,fd00:5::2 -l rva,rvb -g -p
}
