// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit path.
 *
 * A RoCEv2 transport builds a packet from its BTH on (rue_xmit_alloc() leaves
 * headroom for the link, IP and UDP headers), optionally lends payload
 * pages as fragments, and calls rue_xmit(), which appends the pad and the
 * ICRC, pushes UDP and IP headers, routes through the device's namespace
 * and hands the packet to the device's transmit queues (txq.c), which pass
 * it to ip_local_out()/ip6_local_out().  The ICRC covers
 * the IP and UDP headers, so nothing after us may rewrite them except the
 * fields the ICRC masks (TOS/ECN, TTL, checksums).
 *
 * Routes are cached per QP (and per call site for UD) in a dst_cache.
 */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <rdma/ib_verbs.h>

#include "loop.h"
#include "txq.h"
#include "xmit.h"
#include "core/ah.h"
#include "core/compat.h"
#include "core/device.h"
#include "core/stats.h"
#include "roce/icrc.h"
#include "roce/pkt.h"
#include "roce/roce.h"
#include "uet/uet.h"

#define RUE_HEADROOM (sizeof(struct ipv6hdr) + sizeof(struct udphdr))
#define RUE_TRAILER (3 + RUE_ICRC_BYTES)	/* pad and ICRC */

/* Heads up to this size come from the per-CPU page fragment cache. */
#define RUE_FRAG_HEAD_MAX 2048

/*
 * With bottom halves disabled (which is how the transmit paths run), the
 * skb comes from the per-CPU caches drivers use in NAPI polling: a
 * recycled sk_buff and a page fragment for the head, neither of which is
 * a slab allocation that init_on_alloc would clear every time.
 */
static struct sk_buff *rue_xmit_alloc_frag(unsigned int size)
{
	unsigned int truesize = SKB_DATA_ALIGN(size) +
				SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;
	void *data;

	data = napi_alloc_frag(truesize);
	if (unlikely(!data))
		return NULL;
	skb = napi_build_skb(data, truesize);
	if (unlikely(!skb))
		skb_free_frag(data);
	return skb;
}

/**
 * rue_xmit_alloc() - allocate a packet for the transport to fill
 * @rdev: the device
 * @linear: bytes of transport headers and copied payload to come
 * @gfp: allocation flags
 *
 * Return: an empty skb whose data pointer is where the BTH goes.
 */
struct sk_buff *rue_xmit_alloc(struct rue_dev *rdev, unsigned int linear,
			       gfp_t gfp)
{
	unsigned int head = LL_RESERVED_SPACE(rdev->ndev) + RUE_HEADROOM;
	unsigned int size = head + linear + RUE_TRAILER;
	struct sk_buff *skb = NULL;

	if (in_softirq() && size <= RUE_FRAG_HEAD_MAX)
		skb = rue_xmit_alloc_frag(size);
	if (!skb)
		skb = alloc_skb(size, gfp);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, head);
	rue_txq_set_owner(skb, NULL);
	return skb;
}

/*
 * Pad and room for the ICRC: at the tail, or in a small trailing fragment
 * when the payload is in page fragments.
 */
static u8 *rue_xmit_trailer(struct sk_buff *skb, unsigned int pad)
{
	unsigned int len = pad + RUE_ICRC_BYTES;
	struct page *page;
	u8 *t;

	if (!skb_is_nonlinear(skb)) {
		t = skb_put(skb, len);
	} else {
		if (skb_shinfo(skb)->nr_frags >= MAX_SKB_FRAGS)
			return NULL;
		t = netdev_alloc_frag(len);
		if (!t)
			return NULL;
		page = virt_to_head_page(t);
		skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags, page,
				   t - (u8 *)page_address(page), len);
		skb->len += len;
		skb->data_len += len;
		skb->truesize += len;
	}
	memset(t, 0, pad);
	return t + pad;
}

static void rue_push_udp(struct sk_buff *skb, __be16 sport, __be16 dport)
{
	struct udphdr *uh;

	skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = sport;
	uh->dest = dport;
	uh->len = htons(skb->len);
	/* RoCEv2 carries no UDP checksum (IBTA A17.3.1); the ICRC covers it. */
	uh->check = 0;
}

static struct dst_entry *rue_route4(struct rue_dev *rdev, const struct rue_av *av,
				    struct dst_cache *dc)
{
	struct flowi4 fl = {
		.flowi4_oif = rdev->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.saddr = av->saddr.s6_addr32[3],
		.daddr = av->daddr.s6_addr32[3],
	};
	__be32 saddr;
	struct rtable *rt;

	if (dc) {
		rt = dst_cache_get_ip4(dc, &saddr);
		if (rt)
			return &rt->dst;
	}
	rt = ip_route_output_key(rdev->net, &fl);
	if (IS_ERR(rt))
		return ERR_CAST(rt);
	if (dc)
		dst_cache_set_ip4(dc, &rt->dst, fl.saddr);
	return &rt->dst;
}

static struct dst_entry *rue_route6(struct rue_dev *rdev, const struct rue_av *av,
				    struct dst_cache *dc)
{
	struct flowi6 fl = {
		.flowi6_oif = rdev->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.saddr = av->saddr,
		.daddr = av->daddr,
	};
	struct in6_addr saddr;
	struct dst_entry *dst;
	int err;

	if (dc) {
		dst = dst_cache_get_ip6(dc, &saddr);
		if (dst)
			return dst;
	}
	dst = ip6_route_output(rdev->net, NULL, &fl);
	err = dst->error;
	if (err) {
		dst_release(dst);
		return ERR_PTR(err);
	}
	if (dc)
		dst_cache_set_ip6(dc, dst, &fl.saddr);
	return dst;
}

static void rue_push_ip4(struct sk_buff *skb, const struct rue_av *av, u8 tos)
{
	struct iphdr *iph;

	skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = tos;
	iph->tot_len = htons(skb->len);
	iph->id = 0;			/* DF set: no fragments to tell apart */
	iph->frag_off = htons(IP_DF);
	iph->ttl = av->hop_limit ?: IPDEFTTL;
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;
	iph->saddr = av->saddr.s6_addr32[3];
	iph->daddr = av->daddr.s6_addr32[3];
	skb->protocol = htons(ETH_P_IP);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
}

static void rue_push_ip6(struct sk_buff *skb, const struct rue_av *av, u8 tos)
{
	struct ipv6hdr *ip6h;

	skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, tos, htonl(av->flow_label) & IPV6_FLOWLABEL_MASK);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->hop_limit ?: 64;
	ip6h->saddr = av->saddr;
	ip6h->daddr = av->daddr;
	skb->protocol = htons(ETH_P_IPV6);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
}

/* The route through the device's namespace; rcu_read_lock() held. */
static struct dst_entry *rue_xmit_route(struct rue_dev *rdev,
					const struct rue_av *av,
					struct dst_cache *dc)
{
	/* Detached devices must not touch a namespace that may be dying. */
	if (unlikely(!READ_ONCE(rdev->tx_ok)))
		return ERR_PTR(-ENETDOWN);
	if (av->network_type == RDMA_NETWORK_IPV4)
		return rue_route4(rdev, av, dc);
	return rue_route6(rdev, av, dc);
}

static void rue_xmit_push(struct sk_buff *skb, const struct rue_av *av,
			  __be16 sport, __be16 dport, u8 tos)
{
	rue_push_udp(skb, sport, dport);
	if (av->network_type == RDMA_NETWORK_IPV4)
		rue_push_ip4(skb, av, tos);
	else
		rue_push_ip6(skb, av, tos);
	skb->ip_summed = CHECKSUM_NONE;
}

/*
 * To the stack, or to its priority's queue (txq.c); rcu_read_lock() held.
 * @len: the bytes counted as sent.  Return: 0, or a negative errno (the
 * packet was dropped and counted).
 */
static int rue_xmit_queue(struct rue_dev *rdev, struct sk_buff *skb,
			  struct dst_entry *dst, unsigned int len)
{
	int err;

	skb_dst_set(skb, dst);
	err = rue_txq_xmit(rdev, skb);
	if (likely(!err)) {
		rue_stat_inc(rdev, RUE_STAT_TX_PACKETS);
		rue_stat_add(rdev, RUE_STAT_TX_BYTES, len);
	}
	return err;
}

static int rue_xmit_drop(struct rue_dev *rdev, struct sk_buff *skb, int err)
{
	rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
	kfree_skb(skb);
	return err;
}

/**
 * rue_xmit() - finish and send a RoCEv2 packet
 * @rdev: the device
 * @av: where it goes
 * @dc: route cache of the sender, or NULL
 * @sport: UDP source port (flow entropy)
 * @dport: UDP destination port
 * @skb: transport headers and payload, data at the BTH; consumed
 * @pad: pad bytes to append before the ICRC (the BTH says how many)
 * @tos: the IPv4 TOS or IPv6 traffic class: DSCP and ECN (cc.c)
 *
 * Called with bottom halves disabled.  A packet whose route is local goes
 * to its device in memory (loop.c) instead.
 *
 * Return: RUE_XMIT_LOCAL or RUE_XMIT_WIRE when the packet went out, else a
 * negative errno (the packet was dropped and counted; reliable transports
 * retransmit).  A multi-segment packet whose route turned out not to be
 * local is dropped with -EMSGSIZE: the caller stops building them.
 */
int rue_xmit(struct rue_dev *rdev, const struct rue_av *av,
	     struct dst_cache *dc, __be16 sport, __be16 dport,
	     struct sk_buff *skb, unsigned int pad, u8 tos)
{
	unsigned int len = skb->len;
	struct dst_entry *dst;
	u8 *icrc;
	int err;

	rcu_read_lock();
	dst = rue_xmit_route(rdev, av, dc);
	if (IS_ERR(dst)) {
		err = PTR_ERR(dst);
		goto drop;
	}
	if (rue_loop_deliver(rdev, av, dst, skb, tos)) {
		dst_release(dst);
		rcu_read_unlock();
		rue_stat_inc(rdev, RUE_STAT_TX_PACKETS);
		rue_stat_add(rdev, RUE_STAT_TX_BYTES, len);
		return RUE_XMIT_LOCAL;
	}
	if (unlikely(rue_tx_cb(skb)->nseg > 1)) {
		err = -EMSGSIZE;
		goto drop_dst;
	}
	icrc = rue_xmit_trailer(skb, pad);
	if (unlikely(!icrc)) {
		err = -ENOMEM;
		goto drop_dst;
	}
	len = skb->len;
	rue_xmit_push(skb, av, sport, dport, tos);
	put_unaligned_le32(rue_icrc(skb, skb_transport_offset(skb) +
				    sizeof(struct udphdr), len - RUE_ICRC_BYTES),
			   icrc);
	err = rue_xmit_queue(rdev, skb, dst, len);
	rcu_read_unlock();
	return err ?: RUE_XMIT_WIRE;

drop_dst:
	dst_release(dst);
drop:
	rcu_read_unlock();
	return rue_xmit_drop(rdev, skb, err);
}

/**
 * rue_xmit_uet() - send a UET packet
 * @rdev: the device
 * @av: where it goes
 * @dc: route cache of the sender, or NULL
 * @sport: UDP source port (entropy)
 * @skb: PDS header onwards; consumed
 * @tos: DSCP and ECN
 *
 * Called with bottom halves disabled.  UET has no ICRC, and its UDP
 * checksum is zero (UE 1.0.1 3.5.10.1); local peers are reached through
 * the stack (lo), not loop.c, whose shortcut speaks RoCEv2 only.
 *
 * Return: RUE_XMIT_WIRE, or a negative errno (dropped and counted).
 */
int rue_xmit_uet(struct rue_dev *rdev, const struct rue_av *av,
		 struct dst_cache *dc, __be16 sport, struct sk_buff *skb,
		 u8 tos)
{
	unsigned int len = skb->len;
	struct dst_entry *dst;
	int err;

	rcu_read_lock();
	dst = rue_xmit_route(rdev, av, dc);
	if (IS_ERR(dst)) {
		rcu_read_unlock();
		return rue_xmit_drop(rdev, skb, PTR_ERR(dst));
	}
	rue_xmit_push(skb, av, sport, htons(RUE_UET_UDP_PORT), tos);
	err = rue_xmit_queue(rdev, skb, dst, len);
	rcu_read_unlock();
	return err ?: RUE_XMIT_WIRE;
}
