// SPDX-License-Identifier: GPL-2.0
/*
 * From a namespace's UDP sockets (net.c) to a device: the encap hooks of
 * the RoCEv2 (4791) and UET (4793) sockets, in softirq context, find the
 * rue device a packet is for and hand it to its transport's receive path
 * (roce/recv.c, uet/pds.c).  These and net/loop.c (RoCE delivered in
 * memory) are where packets enter rue.
 *
 * The device is the ingress netdev's, or, for traffic between local
 * addresses (which the stack delivers through lo), the device owning the
 * destination address.  A packet for no device is dropped uncounted: no
 * device to count it on.
 */
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>

#include "pfc.h"
#include "recv.h"
#include "core/device.h"
#include "core/stats.h"
#include "roce/recv.h"
#include "uet/pds.h"
#include "uet/uet_stats.h"

/* Traffic to a local address comes in through lo: find its owner. */
static struct rue_dev *rue_recv_dev_by_addr(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct net_device *ndev;

	if (ip_hdr(skb)->version == 4)
		ndev = __ip_dev_find(net, ip_hdr(skb)->daddr, false);
	else
		ndev = ipv6_dev_find(net, &ipv6_hdr(skb)->daddr, NULL);
	return ndev ? rue_dev_from_netdev_rcu(ndev) : NULL;
}

static struct rue_dev *rue_recv_dev(struct sk_buff *skb)
{
	struct rue_dev *rdev = rue_dev_from_netdev_rcu(skb->dev);

	if (!rdev && (skb->dev->flags & IFF_LOOPBACK))
		rdev = rue_recv_dev_by_addr(skb);
	return rdev;
}

/**
 * rue_recv_ip() - what a transport needs of the IP header of a packet
 * @skb: the packet, off the wire, at its UDP header
 * @ip: filled with its addresses (IPv4 ones v4-mapped), TOS, hop limit
 *
 * Return: false for a header rue does not take: IPv4 with options, IPv6
 * with extension headers.
 */
bool rue_recv_ip(struct sk_buff *skb, struct rue_rx_ip *ip)
{
	if (ip_hdr(skb)->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->ihl != 5)
			return false;
		ip->ipv6 = false;
		ip->tos = iph->tos;
		ip->hop_limit = iph->ttl;
		ipv6_addr_set_v4mapped(iph->saddr, &ip->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &ip->daddr);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		if (ip6h->nexthdr != IPPROTO_UDP)
			return false;
		ip->ipv6 = true;
		ip->tos = ipv6_get_dsfield(ip6h);
		ip->hop_limit = ip6h->hop_limit;
		ip->saddr = ip6h->saddr;
		ip->daddr = ip6h->daddr;
	}
	return true;
}

/**
 * rue_recv_roce_encap() - UDP encap_rcv hook of the RoCEv2 sockets
 * @sk: the socket
 * @skb: the packet, data at the UDP header
 *
 * Return: 0, the packet is always consumed.
 */
int rue_recv_roce_encap(struct sock *sk, struct sk_buff *skb)
{
	struct rue_dev *rdev;

	rdev = rue_recv_dev(skb);
	if (!rdev) {
		consume_skb(skb);
		return 0;
	}
	/* a priority with a PFC receive backlog waits there */
	if (unlikely(READ_ONCE(rdev->pfc.hold)) && rue_pfc_rx_hold(rdev, skb))
		return 0;
	rue_recv_roce(rdev, skb);
	return 0;
}

/**
 * rue_recv_uet_encap() - UDP encap_rcv hook of the UET sockets
 * @sk: the socket
 * @skb: the packet, data at the UDP header
 *
 * Return: 0, the packet is always consumed.
 */
int rue_recv_uet_encap(struct sock *sk, struct sk_buff *skb)
{
	struct rue_uet_rx rx = { .skb = skb };
	struct rue_rx_ip ip;
	struct rue_dev *rdev;

	rcu_read_lock();
	rdev = rue_recv_dev(skb);
	if (!rdev)
		goto free;
	if (!rue_recv_ip(skb, &ip) ||
	    !pskb_may_pull(skb, sizeof(struct udphdr))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		goto free;
	}
	rue_stat_inc(rdev, RUE_STAT_RX_PACKETS);
	rue_stat_add(rdev, RUE_STAT_RX_BYTES, skb->len);
	/* replies go back to where this came from */
	rx.av.network_type = ip.ipv6 ? RDMA_NETWORK_IPV6 : RDMA_NETWORK_IPV4;
	rx.av.saddr = ip.daddr;
	rx.av.daddr = ip.saddr;
	rx.av.tclass = ip.tos & ~INET_ECN_MASK;
	rx.sport = udp_hdr(skb)->source;
	rx.ce = INET_ECN_is_ce(ip.tos);
	if (rx.ce)
		rue_uet_stat_inc(rdev, RUE_USTAT_ECN_MARKED_RCVD);
	__skb_pull(skb, sizeof(struct udphdr));
	rue_pds_rcv(rdev, &rx);
free:
	rcu_read_unlock();
	consume_skb(skb);
	return 0;
}
