// SPDX-License-Identifier: GPL-2.0
/*
 * UD and GSI queue pairs (IBTA 9.8, and annex A17 for RoCEv2).
 *
 * Each WQE is one packet: BTH, DETH (Q_Key and our QPN), optional
 * immediate data, payload of at most the path MTU.  A send completes as
 * soon as its packet is handed to the stack; nothing is acknowledged.
 *
 * On receive, a UD QP places the 40-byte GRH before the payload (IBTA
 * 11.4.1.2): for RoCEv2 over IPv6 the IPv6 header itself, over IPv4 the
 * IPv4 header in the last 20 bytes (annex A17.4.5.2), so that consumers
 * recover the sender's address with ib_init_ah_attr_from_wc().
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <rdma/ib_mad.h>

#include "mcast.h"
#include "pkt.h"
#include "ud.h"
#include "cc/cc.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/rq.h"
#include "core/sgl.h"
#include "core/sq.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/txq.h"
#include "net/xmit.h"

#define RUE_GRH_BYTES 40

static struct sk_buff *rue_ud_pkt(struct rue_qp *qp, struct rue_swqe *w)
{
	bool imm = w->sqe.opcode == RUE_WR_SEND_WITH_IMM;
	u8 opcode = imm ? IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE :
			  IB_OPCODE_UD_SEND_ONLY;
	const struct rue_opcode_info *op = &rue_opcodes[opcode];
	unsigned int pad = rue_pad(w->sqe.length);
	struct rue_deth *deth;
	struct sk_buff *skb;
	u32 qkey;
	u8 *hdr;

	skb = rue_xmit_alloc(qp->rdev, op->hdr_len + w->sqe.length, GFP_ATOMIC);
	if (unlikely(!skb))
		return NULL;
	hdr = skb_put(skb, op->hdr_len);
	rue_bth_fill((struct rue_bth *)hdr, opcode,
		     w->sqe.flags & RUE_SQE_SOLICITED, pad, w->sqe.remote_qpn,
		     false, qp->req.psn);
	qp->req.psn = rue_psn_add(qp->req.psn, 1);

	/* IBTA 10.2.5: a Q_Key with the high bit set means the QP's own. */
	qkey = (u32)w->sqe.rkey;
	if (qkey & 0x80000000U)
		qkey = qp->qkey;
	deth = (void *)(hdr + op->deth);
	deth->qkey = cpu_to_be32(qkey);
	deth->sqp = cpu_to_be32(qp->ibqp.qp_num & RUE_BTH_QPN_MASK);
	if (imm)
		((struct rue_immdt *)(hdr + op->imm))->imm =
			(__force __be32)(u32)w->sqe.imm;

	if (w->sqe.flags & RUE_SQE_INLINE) {
		skb_put_data(skb, w->inline_data, w->sqe.length);
	} else if (rue_sgl_to_skb(w->sg, w->num_sge, 0, w->sqe.length, skb,
				  false)) {
		kfree_skb(skb);
		return NULL;
	}
	rue_tx_cb_init(skb, pad);
	return skb;
}

/* Flow entropy per destination QP (annex A17.5.3: UDP source port). */
static __be16 rue_ud_sport(struct rue_qp *qp, const struct rue_av *av, u32 rqpn)
{
	u32 lqpn = qp->ibqp.qp_num;
	u32 fl = av->flow_label ?: rdma_calc_flow_label(lqpn, rqpn);

	return cpu_to_be16(rdma_get_udp_sport(fl, lqpn, rqpn));
}

/*
 * Send UD WQEs: at most @budget packets; set *@error when a WQE completed
 * in error.  UD packets go to different destinations, so unlike RC they
 * are sent here, one by one, with req.lock dropped around each send.
 */
static int rue_ud_send(struct rue_qp *qp, int budget, bool *error)
{
	struct rue_req *req = &qp->req;
	struct sk_buff *skb;
	const struct rue_cc_cfg *cfg;
	struct rue_av av;
	__be16 sport;
	int n = 0;
	u8 tos;

	spin_lock_bh(&req->lock);
	while (n < budget && qp->state == IB_QPS_RTS &&
	       (req->cur != req->head || rue_sq_fetch(qp))) {
		struct rue_swqe *w = rue_swqe(qp, req->cur);

		req->cur++;
		if (w->done)
			continue;
		skb = rue_ud_pkt(qp, w);
		w->done = 1;
		if (!skb)
			continue;	/* unreliable: a lost datagram */
		av = w->av;
		sport = rue_ud_sport(qp, &av, w->sqe.remote_qpn);
		spin_unlock_bh(&req->lock);
		rcu_read_lock();
		cfg = rcu_dereference(qp->rdev->cc);
		tos = rue_cc_data_tos(cfg, av.tclass);
		skb->priority = rue_cc_prio(cfg, av.tclass);
		rcu_read_unlock();
		rue_txq_set_owner(skb, qp);
		rue_xmit(qp->rdev, &av, NULL, sport, htons(ROCE_V2_UDP_DPORT),
			 skb, rue_tx_cb(skb)->pad, tos);
		n++;
		spin_lock_bh(&req->lock);
	}
	if (req->bad_prod || rue_sq_retire(qp))
		*error = true;
	spin_unlock_bh(&req->lock);
	return n;
}

/*
 * The GRH area: the IP header as received, or for a packet delivered in
 * memory (which has none) one built from its addresses.
 */
static void rue_ud_grh(const struct rue_pkt *pkt, u8 *grh)
{
	u16 len = sizeof(struct udphdr) + pkt->op->hdr_len + pkt->paylen +
		  RUE_ICRC_BYTES;

	memset(grh, 0, RUE_GRH_BYTES);
	if (pkt->ipv6) {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)grh;

		if (!pkt->local) {
			memcpy(grh, skb_network_header(pkt->skb), sizeof(*ip6h));
			return;
		}
		ip6_flow_hdr(ip6h, pkt->tos, 0);
		ip6h->payload_len = htons(len);
		ip6h->nexthdr = IPPROTO_UDP;
		ip6h->hop_limit = pkt->hop_limit;
		ip6h->saddr = pkt->saddr;
		ip6h->daddr = pkt->daddr;
	} else {
		struct iphdr *iph = (struct iphdr *)(grh + RUE_GRH_BYTES -
						     sizeof(struct iphdr));

		if (!pkt->local) {
			memcpy(iph, skb_network_header(pkt->skb), sizeof(*iph));
			return;
		}
		iph->version = 4;
		iph->ihl = 5;
		iph->tos = pkt->tos;
		iph->tot_len = htons(len + sizeof(*iph));
		iph->ttl = pkt->hop_limit;
		iph->protocol = IPPROTO_UDP;
		iph->saddr = pkt->saddr.s6_addr32[3];
		iph->daddr = pkt->daddr.s6_addr32[3];
		iph->check = ip_fast_csum((u8 *)iph, iph->ihl);
	}
}

/* Put the GRH in front of the payload (IBTA 11.4.1.2, annex A17.4.5.2). */
static int rue_ud_place_grh(struct rue_qp *qp, struct rue_pkt *pkt,
			    struct rue_ksge *sg, u32 nsge)
{
	u8 grh[RUE_GRH_BYTES];

	rue_ud_grh(pkt, grh);
	return rue_sgl_from_buf(sg, nsge, 0, grh, sizeof(grh));
}

/* Deliver a datagram to a UD or GSI QP (referenced); the packet is checked. */
static void rue_ud_deliver(struct rue_qp *qp, struct rue_pkt *pkt)
{
	const struct rue_deth *deth = rue_pkt_deth(pkt);
	struct rue_resp *resp = &qp->resp;
	struct rue_rqe_info *info = &resp->rqe_info;
	u8 flags = RUE_CQE_F_GRH | (pkt->ipv6 ? 0 : RUE_CQE_F_IPV4);
	u8 status = IB_WC_SUCCESS;
	u64 imm = 0;
	int err;

	spin_lock_bh(&resp->lock);
	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		goto out;
	}
	if (be32_to_cpu(deth->qkey) != qp->qkey) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_QKEY);
		goto out;
	}
	err = rue_rq_take(qp, resp->rqe_sg, info);
	if (err) {
		/* No receive WQE: a datagram is simply lost (IBTA 9.8.3). */
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		goto out;
	}
	if (info->status != IB_WC_SUCCESS)
		status = info->status;
	else if ((u64)RUE_GRH_BYTES + pkt->paylen > info->len)
		status = IB_WC_LOC_LEN_ERR;
	else if (rue_ud_place_grh(qp, pkt, resp->rqe_sg, info->num_sge) ||
		 (pkt->paylen &&
		  rue_sgl_from_skb(resp->rqe_sg, info->num_sge, RUE_GRH_BYTES,
				   pkt->skb, pkt->pay_off, pkt->paylen)))
		status = IB_WC_LOC_PROT_ERR;

	if (pkt->mask & RUE_OPM_IMM) {
		flags |= RUE_CQE_F_IMM;
		imm = (__force u32)rue_pkt_immdt(pkt)->imm;
	}
	rue_rq_complete(qp, info, status, RUE_WC_RECV,
			RUE_GRH_BYTES + pkt->paylen, flags, imm,
			be32_to_cpu(deth->sqp) & RUE_BTH_QPN_MASK, pkt->se);
	rue_sgl_put(resp->rqe_sg, info->num_sge);
out:
	spin_unlock_bh(&resp->lock);
}

static int rue_ud_tx(struct rue_qp *qp, int budget)
{
	bool error = false;
	int n;

	local_bh_disable();
	n = rue_ud_send(qp, budget, &error);
	local_bh_enable();
	if (error)
		rue_qp_sq_error(qp);
	return n;
}

static void rue_ud_rcv(struct rue_qp *qp, struct rue_pkt *pkt)
{
	rue_ud_deliver(qp, pkt);
	rue_qp_notify(qp);
}

static void rue_ud_enter(struct rue_qp *qp, enum ib_qp_state state)
{
	/* RTR to RTS: send from sq_psn (a UD PSN only numbers packets) */
	if (state == IB_QPS_RTS && qp->state == IB_QPS_RTR)
		qp->req.psn = qp->attr.sq_psn & RUE_BTH_PSN_MASK;
}

static bool rue_ud_op_valid(const struct rue_qp *qp, u8 op)
{
	return op == RUE_WR_SEND || op == RUE_WR_SEND_WITH_IMM;
}

/* A datagram is one packet of at most the port's MTU, to its AH. */
static u8 rue_ud_check_wqe(struct rue_qp *qp, struct rue_swqe *w)
{
	if (w->sqe.length > ib_mtu_enum_to_int(rue_dev_active_mtu(qp->rdev)))
		return IB_WC_LOC_LEN_ERR;
	return rue_sq_wqe_av(qp, w);
}

const struct rue_transport_ops rue_ud_transport = {
	.name = "ud",
	.qp_types = BIT(IB_QPT_UD) | BIT(IB_QPT_GSI),
	.flags = RUE_XPORT_AV_PER_WR | RUE_XPORT_SRQ | RUE_XPORT_MCAST,
	.rx_opm = RUE_OPM_UD,
	.unpublish = rue_mcast_qp_leave,
	.enter = rue_ud_enter,
	.op_valid = rue_ud_op_valid,
	.check_wqe = rue_ud_check_wqe,
	.tx = rue_ud_tx,
	.rcv = rue_ud_rcv,
};
