/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where packets enter rue: the UDP sockets' encap hooks.
 */
#ifndef _RUE_NET_RECV_H
#define _RUE_NET_RECV_H

#include <linux/in6.h>
#include <linux/skbuff.h>
#include <net/sock.h>

/* What the transports take from a packet's IP header. */
struct rue_rx_ip {
	bool ipv6;
	u8 tos;				/* IP TOS or traffic class, ECN bits */
	u8 hop_limit;
	struct in6_addr saddr;		/* IPv4 addresses IPv4-mapped */
	struct in6_addr daddr;
};

bool rue_recv_ip(struct sk_buff *skb, struct rue_rx_ip *ip);
int rue_recv_roce_encap(struct sock *sk, struct sk_buff *skb);
int rue_recv_uet_encap(struct sock *sk, struct sk_buff *skb);

#endif /* _RUE_NET_RECV_H */
