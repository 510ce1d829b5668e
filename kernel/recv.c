// SPDX-License-Identifier: GPL-2.0
/*
 * Receive path: packets arrive on a namespace's UDP socket (net.c) in
 * softirq context, are matched to the rue device of the netdev they came
 * in on, and handed to the transport.
 */
#include <linux/skbuff.h>
#include <linux/udp.h>

#include "device.h"
#include "recv.h"

/**
 * rue_recv_roce_encap() - UDP encap_rcv hook of the RoCEv2 sockets
 * @sk: the socket
 * @skb: the packet, data at the UDP header
 *
 * Return: 0, the packet is always consumed.
 */
int rue_recv_roce_encap(struct sock *sk, struct sk_buff *skb)
{
	/* No transport yet: every packet is dropped. */
	kfree_skb(skb);
	return 0;
}
