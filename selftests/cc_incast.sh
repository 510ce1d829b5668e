#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast through a marking bottleneck, for rue_cc_incast.sh and
# scripts/bench-cc (sourced; lib.sh first).
#
#   ns S1 s0 10.16.1.1 (rue rs1) --veth-- r1 10.16.1.2 \
#   ...                                                  ns R (router) rd 10.16.100.1 --veth-- d0 10.16.100.2 (rue rd0) :ns D
#   ns Sn s0 10.16.n.1 (rue rsn) --veth-- rn 10.16.n.2 /
#
# R's egress towards D is the bottleneck: htb at INCAST_RATE with RED
# under it, marking ECT packets CE (Documentation/congestion.md, the
# reference's section 5).  Every sender writes to D with ib_write_bw for
# INCAST_SECS; meanwhile a sampler records every INCAST_SAMPLE_S seconds
# each sender's wire bytes, the bottleneck's backlog, drops and marks,
# and D's CE marks, CNPs and bytes, into $RUE_OUT/incast-TAG.csv; incast_run
# then writes incast-TAG.json with the summary.  Rates are scaled down
# from a data centre's by about 1000 (a TCG guest moves a few Gb/s in
# all), and DCQCN's line rate with them (rpg-max-rate).

INCAST_N=${INCAST_N:-4}
INCAST_RATE=${INCAST_RATE:-100}		# Mb/s at the bottleneck
INCAST_MAX=${INCAST_MAX:-1000}		# Mb/s, the senders' line rate
INCAST_SECS=${INCAST_SECS:-20}
INCAST_SAMPLE_S=${INCAST_SAMPLE_S:-0.1}
# 64 KiB writes, 8 in flight per flow (512 KiB), and an ACK timeout of
# 0.5 s, above the queueing delay the bottleneck may build without
# rate control
INCAST_PERFTEST=${INCAST_PERFTEST:-"-s 65536 -t 8 -u 17"}
INCAST_RUECTL=${INCAST_RUECTL:-$RUE_BUILD/userspace/ruectl/ruectl}

incast_setup() {
	local i
	# 4 KiB RoCE MTU: fewer packets for the guest's CPUs to move.
	ns_pair_setup -n R,D -d rd,d0 -4 10.16.100.1,10.16.100.2 -m 9000 \
		-l ,rd0 -g || return 1
	ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$D" route add default via 10.16.100.1
	# GSO super-packets would skew RED's byte accounting.
	ip netns exec "$R" ethtool -K rd gso off tso off gro off >/dev/null 2>&1
	for i in $(seq 1 "$INCAST_N"); do
		ns_pair_setup -n "S$i",R -d s0,"r$i" -4 "10.16.$i.1,10.16.$i.2" \
			-m 9000 -l "rs$i", -g || return 1
		ip -n "$(incast_sns "$i")" route add default via "10.16.$i.2"
		ip netns exec "$(incast_sns "$i")" ping -c 1 -W 2 10.16.100.2 >/dev/null ||
			return 1
	done
	incast_bottleneck
}

incast_sns() { eval echo "\$S$1"; }

# RoCEv2 through htb shaping to INCAST_RATE with RED under it, marking
# between 30 and 90 KB of average queue (2.4 and 7.2 ms at 100 Mb/s),
# 3 MB at most: more than the flows keep in flight, so that without rate
# control the queue stands instead of dropping.  Everything
# else (perftest's TCP exchange, ARP) goes around it: RED drops what is
# not ECN-capable.
incast_bottleneck() {
	tc -n "$R" qdisc del dev rd root 2>/dev/null
	tc -n "$R" qdisc add dev rd root handle 1: prio bands 2 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
	tc -n "$R" qdisc add dev rd parent 1:2 handle 2: htb default 1 &&
	tc -n "$R" class add dev rd parent 2: classid 2:1 htb \
		rate "${INCAST_RATE}mbit" ceil "${INCAST_RATE}mbit" \
		burst "${INCAST_BURST:-60k}" cburst "${INCAST_BURST:-60k}" \
		quantum 9000 &&
	tc -n "$R" qdisc add dev rd parent 2:1 handle 10: red limit 3000000 \
		min "${INCAST_RED_MIN:-30000}" max "${INCAST_RED_MAX:-90000}" avpkt 4200 \
		burst "${INCAST_RED_BURST:-8}" probability "${INCAST_P:-0.2}" \
		bandwidth "${INCAST_RATE}mbit" ecn &&
	tc -n "$R" filter add dev rd parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:2
}

# incast_cc on|off: DCQCN on every sender or off.  Its time constants
# are scaled up from ConnectX's about as much as the rates are scaled
# down (a 4 KiB packet every 330 us at the bottleneck; ConnectX sees one
# every 0.3 us at 100 Gb/s), and as a TCG guest's timers and wakeups need:
# CNPs at most every 500 us per QP and cuts at most every 500 us (4 us),
# alpha updated every 1 ms (1 us), the increase timer every 3 ms (300 us)
# with the paper's F = 5, steps of 1 and 2 Mb/s (5 and 50).  With
# ConnectX's own values the rate collapses here: the marks of one
# queue's worth of packets keep cutting long after the rate is right.
incast_cc() {
	local i en=all
	[ "$1" = off ] && en=none
	"$INCAST_RUECTL" cc set rd0 min-time-between-cnps "${INCAST_CNP_US:-500}" ||
		return 1
	for i in $(seq 1 "$INCAST_N"); do
		"$INCAST_RUECTL" cc set "rs$i" rp-enable $en rpg-max-rate "$INCAST_MAX" \
			rate-reduce-monitor-period "${INCAST_CUT_US:-500}" \
			dce-tcp-rtt "${INCAST_ALPHA_US:-1000}" \
			rpg-time-reset "${INCAST_T_US:-3000}" \
			rpg-threshold "${INCAST_F:-5}" rpg-min-rate 5 \
			rpg-ai-rate "${INCAST_AI:-1}" rpg-hai-rate "${INCAST_HAI:-2}" ||
			return 1
	done
}

# counter DEV NAME: append a device counter to $line, read from sysfs
# without a fork (a fork costs tens of ms in a busy TCG guest).
counter() {
	local v
	read -r v <"/sys/class/infiniband/$1/ports/1/hw_counters/$2" || v=0
	line+=" $v"
}

# One sample into $line: the time (ms), each sender's wire bytes, the RED
# queue's backlog (bytes), drops and marks, the receiver's CE marks, CNPs
# and received bytes.  One fork: tc.
incast_sample() {
	local i q bl=0 dr=0 mk=0 t=${EPOCHREALTIME/./}
	line="$(((t / 1000) - t0))"
	for ((i = 1; i <= INCAST_N; i++)); do
		counter "rs$i" tx_bytes
	done
	q=$(tc -n "$R" -s qdisc show dev rd parent 2:1)
	[[ $q =~ dropped\ ([0-9]+) ]] && dr=${BASH_REMATCH[1]}
	[[ $q =~ backlog\ ([0-9]+)b ]] && bl=${BASH_REMATCH[1]}
	[[ $q =~ marked\ ([0-9]+) ]] && mk=${BASH_REMATCH[1]}
	line+=" $bl $dr $mk"
	counter rd0 np_ecn_marked_roce_packets
	counter rd0 np_cnp_sent
	counter rd0 rx_bytes
}

# incast_run TAG: one run; prints the summary line, writes CSV and JSON.
incast_run() {
	local tag=$1
	local csv=$RUE_OUT/incast-$tag.csv json=$RUE_OUT/incast-$tag.json
	local i pids=() t0 hdr alive line
	incast_bottleneck || return 1
	for i in $(seq 1 "$INCAST_N"); do
		ip netns exec "$D" timeout $((INCAST_SECS + 60)) stdbuf -oL ib_write_bw -d rd0 \
			-x "$(gid_index_of rd0 10.16.100.2)" -F -p $((18515 + i)) \
			$INCAST_PERFTEST -D "$INCAST_SECS" >"$RUE_OUT/incast-$tag.srv$i" 2>&1 &
		pids+=($!)
	done
	for i in $(seq 1 "$INCAST_N"); do
		busywait 10000 listening "$D" $((18515 + i)) || return 1
	done
	for i in $(seq 1 "$INCAST_N"); do
		ip netns exec "$(incast_sns "$i")" timeout $((INCAST_SECS + 60)) \
			stdbuf -oL ib_write_bw -d "rs$i" -x "$(gid_index_of "rs$i" "10.16.$i.1")" -F \
			-p $((18515 + i)) $INCAST_PERFTEST -D "$INCAST_SECS" 10.16.100.2 \
			>"$RUE_OUT/incast-$tag.cli$i" 2>&1 &
		pids+=($!)
	done
	hdr="t_ms"
	for i in $(seq 1 "$INCAST_N"); do hdr+=" tx$i"; done
	echo "$hdr backlog drops marked ce cnp rx_bytes" >"$csv"
	t0=$((${EPOCHREALTIME/./} / 1000))
	while :; do
		incast_sample
		echo "$line" >>"$csv"
		[ "${line%% *}" -gt $(((INCAST_SECS + 5) * 1000)) ] && break
		sleep "$INCAST_SAMPLE_S"
		alive=0
		for i in "${pids[@]}"; do running "$i" && alive=1; done
		[ $alive = 0 ] && break
	done
	wait
	incast_summary "$tag" "$csv" >"$json" || return 1
	jq -c . "$json"
}

# The summary of a run from its CSV: over the second half of the run,
# goodput (D's received bytes) against the bottleneck rate, per-flow
# rates, Jain's fairness index, and the backlog's mean and maximum; over
# the whole run, CE marks, CNPs and drops at the bottleneck.
incast_summary() {
	local tag=$1 csv=$2
	awk -v n="$INCAST_N" -v rate="$INCAST_RATE" -v tag="$tag" '
	NR == 1 { next }
	{ rows++; t[rows] = $1
	  for (i = 1; i <= n; i++) tx[rows, i] = $(1 + i)
	  bl[rows] = $(2 + n); dr[rows] = $(3 + n)
	  ce[rows] = $(5 + n); cnp[rows] = $(6 + n); rx[rows] = $(7 + n) }
	END {
		if (rows < 8) { print "{\"error\":\"too few samples\"}"; exit 1 }
		# the part where every flow sends: from the first sample where
		# all moved to the last where any moved
		first = 0; last = 0
		for (r = 2; r <= rows; r++) {
			all = 1; any = 0
			for (i = 1; i <= n; i++) {
				if (tx[r, i] > tx[r - 1, i]) any = 1; else all = 0
			}
			if (all && !first) first = r - 1
			if (any) last = r
		}
		if (!first || last - first < 6) { print "{\"error\":\"flows did not overlap\"}"; exit 1 }
		mid = int((first + last) / 2)
		secs = (t[last] - t[mid]) / 1000
		good = (rx[last] - rx[mid]) * 8 / secs / 1e6
		s = 0; s2 = 0; fl = ""
		for (i = 1; i <= n; i++) {
			f = (tx[last, i] - tx[mid, i]) * 8 / secs / 1e6
			s += f; s2 += f * f
			fl = fl (i > 1 ? "," : "") sprintf("%.1f", f)
		}
		jain = s2 > 0 ? s * s / (n * s2) : 0
		m = 0; sq = 0; mx = 0
		for (r = mid; r <= last; r++) { m++; sq += bl[r]; if (bl[r] > mx) mx = bl[r] }
		mean = sq / m
		printf "{\"tag\":\"%s\",\"senders\":%d,\"bottleneck_mbps\":%d,", tag, n, rate
		printf "\"goodput_mbps\":%.1f,\"goodput_ratio\":%.3f,", good, good / rate
		printf "\"flow_mbps\":[%s],\"jain\":%.3f,", fl, jain
		printf "\"ce_marks\":%d,\"cnps\":%d,\"drops\":%d,", ce[rows] - ce[1], cnp[rows] - cnp[1], dr[rows] - dr[1]
		printf "\"backlog_mean\":%d,\"backlog_max\":%d,\"seconds\":%.1f}\n", mean, mx, (t[last] - t[first]) / 1000
	}' "$csv"
}
