# SPDX-License-Identifier: GPL-2.0
#
# For scripts that run on both guests of scripts/vm-pair (two_hosts.sh,
# scripts/bench.d/pair): which host this is, the link's addresses, and a
# rendezvous that keeps the two hosts in step.  Source after lib.sh.
#
#   host a: eth0 10.20.0.1 <--- link ---> eth0 10.20.0.2 : host b

HOST=${RUE_HOST:-}
PAIR_A=10.20.0.1
PAIR_B=10.20.0.2
PAIR_CTL=7471           # TCP port of the rendezvous
PAIR_WAIT=${PAIR_WAIT:-210}

case "$HOST" in
a) PAIR_ME=$PAIR_A PAIR_PEER=$PAIR_B ;;
b) PAIR_ME=$PAIR_B PAIR_PEER=$PAIR_A ;;
*) PAIR_ME="" PAIR_PEER="" ;;
esac

# pair_link_up: eth0 up with this host's address; the peer answers.
pair_link_up() {
	modprobe virtio_net && busywait 10000 test -e /sys/class/net/eth0 ||
		{ echo "no eth0: not a vm-pair guest"; return $ksft_skip; }
	ip link set eth0 up && ip addr add "$PAIR_ME/24" dev eth0 || return 1
	busywait 60000 ping -c 1 -W 1 "$PAIR_PEER" >/dev/null ||
		{ echo "the other host does not answer on the link"; return 1; }
}

# meet TOKEN: both hosts here before either goes on, so that a step that
# takes longer on one host (a server waiting out its timeout) never puts
# the two out of step.  Host a offers TOKEN on a TCP port and goes on
# once b has read it; b reads until it gets one, and fails if it is not
# TOKEN (the hosts are not where they should be).  Waits PAIR_WAIT s.
meet() {
	local token=$1 got="" start
	if [ "$HOST" = a ]; then
		echo "$token" | timeout "$PAIR_WAIT" busybox nc -l -p $PAIR_CTL >/dev/null ||
			{ echo "host b did not come to '$token'"; return 1; }
		return 0
	fi
	start=$(date +%s)
	while [ $(($(date +%s) - start)) -lt "$PAIR_WAIT" ]; do
		if exec 3<>"/dev/tcp/$PAIR_A/$PAIR_CTL" 2>/dev/null; then
			read -r -t 10 got <&3
			exec 3<&-
			[ -n "$got" ] && break
		fi
		sleep 0.2
	done
	[ "$got" = "$token" ] ||
		{ echo "host a is at '${got:-nothing}', not '$token'"; return 1; }
}
