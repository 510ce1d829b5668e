// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 receive path: packets arrive on a namespace's UDP socket in
 * softirq context (net/recv.c matches them to the rue device of the
 * netdev they came in on), or in memory from a local sender (net/loop.c);
 * here they are checked and handed to the QP they name.
 *
 * Checks, in order, each failure counted and the packet dropped:
 *  - the device (net/recv.c);
 *  - lengths: UDP, BTH and every extension header the opcode implies,
 *    pad and ICRC, all within the packet;
 *  - IP header: IPv4 without options, IPv6 without extension headers;
 *  - the opcode is one rue implements;
 *  - the ICRC;
 *  - the destination QP exists, has the right type, and (RC) the packet
 *    comes from its peer's address; or, for the multicast QPN, the
 *    destination is a group some UD QP is attached to (mcast.c).
 * Nothing a packet carries is trusted before these pass.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>

#include "icrc.h"
#include "mcast.h"
#include "pkt.h"
#include "recv.h"
#include "cc/cc.h"
#include "core/ah.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/loop.h"
#include "net/recv.h"

/* Addresses and TOS from the IP header of a packet off the wire. */
static enum rue_stat rue_recv_ip_pkt(struct sk_buff *skb, struct rue_pkt *pkt)
{
	struct rue_rx_ip ip;

	if (!rue_recv_ip(skb, &ip))
		return RUE_STAT_RX_DROP_HDR;
	pkt->ipv6 = ip.ipv6;
	pkt->tos = ip.tos;
	pkt->hop_limit = ip.hop_limit;
	pkt->saddr = ip.saddr;
	pkt->daddr = ip.daddr;
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

	if (pkt->qpn == IB_MULTICAST_QPN) {
		rue_mcast_rcv(rdev, pkt);
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

	bad = rue_recv_ip_pkt(skb, &pkt);
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

/*
 * A multi-segment packet (struct rue_tx_cb): the first segment's headers,
 * the last segment's LAST-ness.  Only the data opcodes of one operation
 * of one transport qualify, and the last segment carries no extension
 * header of its own.
 */
static enum rue_stat rue_recv_segments(struct rue_pkt *pkt,
				       const struct rue_loop_addr *addr)
{
	const u32 kind = RUE_OPM_SEND | RUE_OPM_WRITE | RUE_OPM_READ |
			 RUE_OPM_RC | RUE_OPM_UC;
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
