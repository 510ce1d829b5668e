/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A received RoCEv2 packet after recv.c checked its headers, lengths and
 * ICRC, and the transmit-side bookkeeping carried in skb->cb.
 */
#ifndef _RUE_PKT_H
#define _RUE_PKT_H

#include <linux/in6.h>
#include <linux/skbuff.h>

#include "roce.h"

struct rue_dev;

struct rue_pkt {
	struct sk_buff *skb;
	struct rue_dev *rdev;
	const struct rue_opcode_info *op;
	const u8 *hdr;			/* the BTH, in the linear area */
	u32 mask;			/* op->mask */
	u32 psn;
	u32 qpn;
	u8 opcode;
	u8 tos;				/* IP TOS or traffic class, ECN bits */
	u8 hop_limit;
	bool ipv6;
	bool local;			/* delivered in memory (loop.c): no IP header */
	struct in6_addr saddr;		/* IPv4 addresses IPv4-mapped */
	struct in6_addr daddr;
	bool ackreq;
	bool se;
	u32 paylen;			/* payload bytes, pad excluded */
	unsigned int pay_off;		/* payload offset from skb->data */
	/*
	 * Segments: PSNs psn .. psn + nseg - 1.  Packets on a wire have
	 * one; a packet delivered in memory may stand for several
	 * consecutive full-MTU packets of one message (loop.c).
	 */
	u32 nseg;
};

static inline const struct rue_bth *rue_pkt_bth(const struct rue_pkt *pkt)
{
	return (const struct rue_bth *)pkt->hdr;
}

/* Extension headers of a received packet; the opcode says they exist. */
static inline const struct rue_reth *rue_pkt_reth(const struct rue_pkt *pkt)
{
	return (const struct rue_reth *)(pkt->hdr + pkt->op->reth);
}

static inline const struct rue_aeth *rue_pkt_aeth(const struct rue_pkt *pkt)
{
	return (const struct rue_aeth *)(pkt->hdr + pkt->op->aeth);
}

static inline const struct rue_deth *rue_pkt_deth(const struct rue_pkt *pkt)
{
	return (const struct rue_deth *)(pkt->hdr + pkt->op->deth);
}

static inline const struct rue_immdt *rue_pkt_immdt(const struct rue_pkt *pkt)
{
	return (const struct rue_immdt *)(pkt->hdr + pkt->op->imm);
}

static inline const struct rue_ieth *rue_pkt_ieth(const struct rue_pkt *pkt)
{
	return (const struct rue_ieth *)(pkt->hdr + pkt->op->ieth);
}

static inline const struct rue_atmeth *rue_pkt_atmeth(const struct rue_pkt *pkt)
{
	return (const struct rue_atmeth *)(pkt->hdr + pkt->op->atmeth);
}

static inline const struct rue_atmack *rue_pkt_atmack(const struct rue_pkt *pkt)
{
	return (const struct rue_atmack *)(pkt->hdr + pkt->op->atmack);
}

/* Transmit side: what rue_xmit() needs that is not in the headers. */
struct rue_tx_cb {
	u8 pad;
	/*
	 * Multi-segment packets (nseg > 1) exist only for local delivery:
	 * the headers are those of the first segment, last_opcode is the
	 * last one's (a MIDDLE, or a LAST that carries no extension
	 * header), every segment but the last has exactly one PMTU.
	 */
	u8 nseg;
	u8 last_opcode;
};

/* Largest payload of a multi-segment packet: lent pages, or copied. */
#define RUE_SEG_MAX_LEND	(64 * 1024)
#define RUE_SEG_MAX_COPY	(8 * 1024)

static inline struct rue_tx_cb *rue_tx_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rue_tx_cb) > sizeof(skb->cb));
	return (struct rue_tx_cb *)skb->cb;
}

static inline void rue_tx_cb_init(struct sk_buff *skb, unsigned int pad)
{
	struct rue_tx_cb *cb = rue_tx_cb(skb);

	cb->pad = pad;
	cb->nseg = 1;
	cb->last_opcode = 0;
}

/*
 * Payload lengths a packet of @nseg segments may carry (IBTA 9.7.4.1.5:
 * FIRST and MIDDLE packets carry exactly one PMTU, the LAST at most one).
 */
static inline bool rue_pkt_len_ok(u32 len, u32 nseg, u32 mtu, bool last)
{
	if (!last)
		return len == nseg * mtu;
	return len <= nseg * mtu && (nseg == 1 || len > (nseg - 1) * mtu);
}

/* Fill a BTH: opcode, SE, pad count, P_Key, destination QP, AckReq, PSN. */
static inline void rue_bth_fill(struct rue_bth *bth, u8 opcode, bool se,
				unsigned int pad, u32 dest_qpn, bool ackreq,
				u32 psn)
{
	bth->opcode = opcode;
	bth->flags = (se ? RUE_BTH_SE : 0) | (pad << RUE_BTH_PAD_SHIFT);
	bth->pkey = cpu_to_be16(0xffff);
	bth->qpn = cpu_to_be32(dest_qpn & RUE_BTH_QPN_MASK);
	bth->apsn = cpu_to_be32((ackreq ? RUE_BTH_ACKREQ : 0) |
				(psn & RUE_BTH_PSN_MASK));
}

static inline unsigned int rue_pad(u32 len)
{
	return (4 - (len & 3)) & 3;
}

#endif /* _RUE_PKT_H */
