// SPDX-License-Identifier: GPL-2.0
/*
 * Receive path: packets arrive on a namespace's UDP socket (net.c) in
 * softirq context, are matched to the rue device of the netdev they came
 * in on, checked, and handed to the QP they name.
 *
 * Checks, in order, each failure counted and the packet dropped:
 *  - the device: the ingress netdev's, or, for traffic between local
 *    addresses (which the stack delivers through lo), the device owning
 *    the destination address;
 *  - lengths: UDP, BTH and every extension header the opcode implies,
 *    pad and ICRC, all within the packet;
 *  - IP header: IPv4 without options, IPv6 without extension headers;
 *  - the opcode is one rue implements;
 *  - the ICRC;
 *  - the destination QP exists, has the right type, and (RC) the packet
 *    comes from its peer's address.
 * Nothing a packet carries is trusted before these pass.
 */
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>

#include "icrc.h"
#include "pkt.h"
#include "recv.h"
#include "cc/cc.h"
#include "core/ah.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/loop.h"
#include "net/pfc.h"
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

/* Addresses and TOS from the IP header of a packet off the wire. */
static enum rue_stat rue_recv_ip(struct sk_buff *skb, struct rue_pkt *pkt)
{
	if (ip_hdr(skb)->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->ihl != 5)
			return RUE_STAT_RX_DROP_HDR;
		pkt->ipv6 = false;
		pkt->tos = iph->tos;
		pkt->hop_limit = iph->ttl;
		ipv6_addr_set_v4mapped(iph->saddr, &pkt->saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &pkt->daddr);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		if (ip6h->nexthdr != IPPROTO_UDP)
			return RUE_STAT_RX_DROP_HDR;
		pkt->ipv6 = true;
		pkt->tos = ipv6_get_dsfield(ip6h);
		pkt->hop_limit = ip6h->hop_limit;
		pkt->saddr = ip6h->saddr;
		pkt->daddr = ip6h->daddr;
	}
	return RUE_NSTATS;
}

/*
 * Fill @pkt from the transport headers at @bth_off; @trailer is what
 * follows the payload: pad and ICRC on the wire, nothing (-1) for a packet
 * delivered in memory, which is never padded.
 *
 * Return: RUE_NSTATS if the packet is well formed, else the counter that
 * says why not.
 */
static enum rue_stat rue_recv_parse(struct sk_buff *skb, struct rue_pkt *pkt,
				    unsigned int bth_off, int trailer)
{
	const struct rue_opcode_info *op;
	const struct rue_bth *bth;
	unsigned int pad, tail;

	if (!pskb_may_pull(skb, bth_off + sizeof(struct rue_bth)))
		return RUE_STAT_RX_DROP_HDR;
	bth = (const struct rue_bth *)(skb->data + bth_off);
	op = &rue_opcodes[bth->opcode];
	if (!op->mask)
		return RUE_STAT_RX_DROP_OPCODE;
	/* Transport version 0 (IBTA 9.2.4); the default P_Key, full or limited. */
	if ((bth->flags & RUE_BTH_TVER_MASK) ||
	    (be16_to_cpu(bth->pkey) & 0x7fff) != 0x7fff)
		return RUE_STAT_RX_DROP_HDR;
	if (!pskb_may_pull(skb, bth_off + op->hdr_len))
		return RUE_STAT_RX_DROP_HDR;

	pkt->skb = skb;
	pkt->hdr = skb->data + bth_off;
	bth = (const struct rue_bth *)pkt->hdr;
	pkt->op = op;
	pkt->mask = op->mask;
	pkt->opcode = bth->opcode;
	pkt->psn = rue_bth_psn(bth);
	pkt->qpn = rue_bth_qpn(bth);
	pkt->ackreq = be32_to_cpu(bth->apsn) & RUE_BTH_ACKREQ;
	pkt->se = bth->flags & RUE_BTH_SE;
	pkt->pay_off = bth_off + op->hdr_len;
	pkt->nseg = 1;

	/* UDP length (the stack trimmed the skb to it) covers everything. */
	pad = trailer < 0 ? 0 : rue_bth_pad(bth);
	tail = trailer < 0 ? 0 : pad + trailer;
	if (skb->len < pkt->pay_off + tail)
		return RUE_STAT_RX_DROP_HDR;
	pkt->paylen = skb->len - pkt->pay_off - tail;
	if (!(op->mask & RUE_OPM_PAYLOAD) && (pkt->paylen || pad))
		return RUE_STAT_RX_DROP_HDR;
	return RUE_NSTATS;
}

static bool rue_recv_icrc_ok(const struct rue_pkt *pkt)
{
	struct sk_buff *skb = pkt->skb;
	unsigned int bth_off = pkt->hdr - skb->data;
	__le32 wire;

	if (skb_copy_bits(skb, skb->len - RUE_ICRC_BYTES, &wire, sizeof(wire)))
		return false;
	return rue_icrc(skb, bth_off, skb->len - bth_off - RUE_ICRC_BYTES) ==
	       le32_to_cpu(wire);
}

/* Hand a checked packet to its QP. */
static void rue_recv_dispatch(struct rue_dev *rdev, struct rue_pkt *pkt)
{
	struct rue_qp *qp;

	if (pkt->mask & RUE_OPM_CNP) {
		rue_cc_cnp_rcv(rdev, pkt);
		return;
	}

	qp = rue_qp_get(rdev, pkt->qpn);
	if (!qp) {
		rue_stat_inc(rdev, RUE_STAT_RX_DROP_QP);
		return;
	}
	/* an opcode of another transport than the QP's (RC, UD) */
	if (pkt->mask & qp->xport->rx_opm)
		qp->xport->rcv(qp, pkt);
	else
		rue_stat_inc(rdev, RUE_STAT_RX_DROP_OPCODE);
	rue_qp_put(qp);
}

/**
 * rue_recv_roce() - receive a RoCEv2 packet off the wire
 * @rdev: the device it is for
 * @skb: the packet, data at the UDP header; consumed
 *
 * With bottom halves off and under rcu_read_lock(): from the socket's
 * softirq, or from the PFC receive backlog (pfc.c).
 */
void rue_recv_roce(struct rue_dev *rdev, struct sk_buff *skb)
{
	struct rue_pkt pkt = { .rdev = rdev };
	enum rue_stat bad;

	bad = rue_recv_ip(skb, &pkt);
	if (bad == RUE_NSTATS)
		bad = rue_recv_parse(skb, &pkt, sizeof(struct udphdr),
				     RUE_ICRC_BYTES);
	if (bad != RUE_NSTATS) {
		rue_stat_inc(rdev, bad);
		goto free;
	}
	if (!rue_recv_icrc_ok(&pkt)) {
		rue_stat_inc(rdev, RUE_STAT_RX_DROP_ICRC);
		goto free;
	}
	rue_stat_inc(rdev, RUE_STAT_RX_PACKETS);
	rue_stat_add(rdev, RUE_STAT_RX_BYTES, skb->len);
	rue_recv_dispatch(rdev, &pkt);
free:
	consume_skb(skb);
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

/*
 * A multi-segment packet (struct rue_tx_cb): the first segment's headers,
 * the last segment's LAST-ness.  Only the data opcodes of one operation
 * qualify, and the last segment carries no extension header of its own.
 */
static enum rue_stat rue_recv_segments(struct rue_pkt *pkt,
				       const struct rue_loop_addr *addr)
{
	const u32 kind = RUE_OPM_SEND | RUE_OPM_WRITE | RUE_OPM_READ;
	u32 last = rue_opcodes[addr->last_opcode].mask;

	if (!(pkt->mask & RUE_OPM_PAYLOAD) || (pkt->mask & RUE_OPM_LAST) ||
	    (last & (RUE_OPM_FIRST | RUE_OPM_IMM | RUE_OPM_IETH)) ||
	    !(last & (RUE_OPM_MIDDLE | RUE_OPM_LAST)) ||
	    (last & kind) != (pkt->mask & kind) || !(last & RUE_OPM_PAYLOAD))
		return RUE_STAT_RX_DROP_HDR;
	pkt->nseg = addr->nseg;
	pkt->mask |= last & (RUE_OPM_LAST | RUE_OPM_COMP);
	return RUE_NSTATS;
}

/**
 * rue_recv_local() - receive a packet delivered in memory (loop.c)
 * @rdev: the destination device
 * @skb: transport headers and payload, data at the BTH, no pad or ICRC
 * @addr: the addresses and IP fields the packet would have carried
 *
 * The packet never left memory, so it has no IP header and no ICRC; the
 * addresses come from the sender.  Runs with bottom halves disabled.
 */
void rue_recv_local(struct rue_dev *rdev, struct sk_buff *skb,
		    const struct rue_loop_addr *addr)
{
	struct rue_pkt pkt = {
		.rdev = rdev,
		.local = true,
		.ipv6 = addr->ipv6,
		.tos = addr->tos,
		.hop_limit = addr->hop_limit,
		.saddr = addr->saddr,
		.daddr = addr->daddr,
	};
	enum rue_stat bad;

	bad = rue_recv_parse(skb, &pkt, 0, -1);
	if (bad == RUE_NSTATS && addr->nseg > 1)
		bad = rue_recv_segments(&pkt, addr);
	if (bad != RUE_NSTATS) {
		rue_stat_inc(rdev, bad);
		goto free;
	}
	rue_stat_inc(rdev, RUE_STAT_RX_PACKETS);
	rue_stat_add(rdev, RUE_STAT_RX_BYTES, skb->len);
	rue_recv_dispatch(rdev, &pkt);
free:
	/* back to the per-CPU skb cache rue_xmit_alloc() takes from */
	napi_consume_skb(skb, 1);
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
	struct rue_pkt pkt = {};
	struct rue_dev *rdev;

	rcu_read_lock();
	rdev = rue_recv_dev(skb);
	if (!rdev)
		goto free;
	if (rue_recv_ip(skb, &pkt) != RUE_NSTATS ||
	    !pskb_may_pull(skb, sizeof(struct udphdr))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		goto free;
	}
	rue_stat_inc(rdev, RUE_STAT_RX_PACKETS);
	rue_stat_add(rdev, RUE_STAT_RX_BYTES, skb->len);
	/* replies go back to where this came from */
	rx.av.network_type = pkt.ipv6 ? RDMA_NETWORK_IPV6 : RDMA_NETWORK_IPV4;
	rx.av.saddr = pkt.daddr;
	rx.av.daddr = pkt.saddr;
	rx.av.tclass = pkt.tos & ~INET_ECN_MASK;
	rx.sport = udp_hdr(skb)->source;
	rx.ce = INET_ECN_is_ce(pkt.tos);
	if (rx.ce)
		rue_uet_stat_inc(rdev, RUE_USTAT_ECN_MARKED_RCVD);
	__skb_pull(skb, sizeof(struct udphdr));
	rue_pds_rcv(rdev, &rx);
free:
	rcu_read_unlock();
	consume_skb(skb);
	return 0;
}
