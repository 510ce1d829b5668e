// SPDX-License-Identifier: GPL-2.0
/*
 * The RC transport (IBTA vol 1, 9.7): what an RC QP adds to the QP
 * object.  The requester (rc_req.c) and the responder (rc_resp.c) build
 * packets under their locks; this file sends them, in order, once the
 * locks are dropped, and hands received packets to one or the other.
 */
#include <net/inet_ecn.h>

#include "pkt.h"
#include "rc.h"
#include "rc_comp.h"
#include "rc_req.h"
#include "rc_resp.h"
#include "cc/cc.h"
#include "core/caps.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/txq.h"
#include "net/xmit.h"

/*
 * Send what the requester or responder built, in order.  Whether the
 * peer turned out to be local decides whether multi-segment packets are
 * built next (struct rue_tx_cb); if one met a route that is not local
 * after all, the requester goes back and sends wire packets.
 */
static void rue_rc_send_list(struct rue_qp *qp, struct sk_buff_head *list)
{
	struct sk_buff *skb;
	bool resend = false;
	int ret;
	u8 tos;

	if (skb_queue_empty(list))
		return;
	local_bh_disable();
	while ((skb = __skb_dequeue(list))) {
		rcu_read_lock();
		rue_cc_mark(qp, skb, &tos);
		rcu_read_unlock();
		/* it may lend the QP's memory: see txq.c, owners */
		rue_txq_set_owner(skb, qp);
		ret = rue_xmit(qp->rdev, &qp->av, &qp->dst_cache, qp->sport,
			       htons(ROCE_V2_UDP_DPORT), skb,
			       rue_tx_cb(skb)->pad, tos);
		if (ret >= 0)
			WRITE_ONCE(qp->loop, ret == RUE_XMIT_LOCAL);
		if (ret == -EMSGSIZE) {
			WRITE_ONCE(qp->loop, false);
			resend = true;
		}
	}
	local_bh_enable();
	if (resend)
		rue_req_resend(qp);
}

/* What @list will take on the wire, for rate control. */
static u32 rue_rc_wire_bytes(const struct rue_qp *qp,
			     const struct sk_buff_head *list)
{
	u32 hdrs = ETH_HLEN + sizeof(struct udphdr) + RUE_ICRC_BYTES +
		   (qp->av.network_type == RDMA_NETWORK_IPV4 ?
		    sizeof(struct iphdr) : sizeof(struct ipv6hdr));
	struct sk_buff *skb;
	u32 bytes = 0;

	skb_queue_walk(list, skb)
		bytes += skb->len + rue_tx_cb(skb)->pad + hdrs;
	return bytes;
}

/* Responder answers first, then requests (UC has only requests). */
int rue_rc_tx(struct rue_qp *qp, int budget)
{
	struct sk_buff_head out;
	bool error = false;
	int n = 0;

	__skb_queue_head_init(&out);
	/*
	 * Unlocked peek: whoever queues responder output runs the engine
	 * afterwards (RUE_TX_PENDING orders it after the queue).
	 */
	if (READ_ONCE(qp->resp.res_out) != READ_ONCE(qp->resp.res_head) ||
	    READ_ONCE(qp->resp.ack_pending))
		n = rue_resp_tx(qp, budget, &out, &error);
	n += rue_req_tx(qp, budget - n, &out, &error);
	rue_cc_tx_done(qp, rue_rc_wire_bytes(qp, &out));
	rue_rc_send_list(qp, &out);
	rue_qp_notify(qp);
	if (error)
		rue_qp_error(qp);
	return n;
}

/*
 * Whether an RC or UC QP takes @pkt: only from its peer (IBTA 9.6.1.5),
 * else dropped and counted.  A CE mark is reported to the sender first
 * (cc.c).
 */
bool rue_rc_rcv_ok(struct rue_qp *qp, const struct rue_pkt *pkt)
{
	if (!ipv6_addr_equal(&pkt->saddr, &qp->av.daddr) ||
	    !ipv6_addr_equal(&pkt->daddr, &qp->av.saddr)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_QP);
		return false;
	}
	if (unlikely(INET_ECN_is_ce(pkt->tos)) && !pkt->local)
		rue_cc_ce_rcv(qp, pkt);
	return true;
}

static void rue_rc_rcv(struct rue_qp *qp, struct rue_pkt *pkt)
{
	struct sk_buff_head out;
	bool error = false, event = false, run;

	if (!rue_rc_rcv_ok(qp, pkt))
		return;
	__skb_queue_head_init(&out);
	if (pkt->mask & RUE_OPM_REQ)
		run = rue_resp_rcv(qp, pkt, &out, &error, &event);
	else
		run = rue_req_rcv(qp, pkt, &error);
	rue_rc_send_list(qp, &out);
	rue_qp_notify(qp);
	if (event)
		rue_qp_event(qp, IB_EVENT_COMM_EST);
	if (error)
		rue_qp_error(qp);
	else if (run)
		rue_qp_run(qp);
}

static int rue_rc_create(struct rue_qp *qp,
			 const struct rue_create_qp_cmd *cmd, bool user)
{
	qp->resp.res_size = RUE_MAX_RD_ATOMIC;
	qp->resp.res = kvcalloc(qp->resp.res_size + RUE_RES_HIST,
				sizeof(*qp->resp.res), GFP_KERNEL);
	if (!qp->resp.res)
		return -ENOMEM;
	qp->resp.hist = qp->resp.res + qp->resp.res_size;
	rue_req_init(qp);
	return 0;
}

static void rue_rc_free(struct rue_qp *qp)
{
	kvfree(qp->resp.res);
}

void rue_rc_enter(struct rue_qp *qp, enum ib_qp_state state)
{
	switch (state) {
	case IB_QPS_RESET:
		qp->resp.msn = 0;
		qp->req.rnr_wait = false;
		break;
	case IB_QPS_RTR:
		rue_resp_start(qp);
		break;
	case IB_QPS_RTS:
		if (qp->state == IB_QPS_RTR)
			rue_req_start(qp);
		break;
	default:
		break;
	}
}

static bool rue_rc_op_valid(const struct rue_qp *qp, u8 op)
{
	switch (op) {
	case RUE_WR_RDMA_WRITE:
	case RUE_WR_RDMA_WRITE_WITH_IMM:
	case RUE_WR_SEND:
	case RUE_WR_SEND_WITH_IMM:
	case RUE_WR_RDMA_READ:
	case RUE_WR_ATOMIC_CMP_AND_SWP:
	case RUE_WR_ATOMIC_FETCH_AND_ADD:
	case RUE_WR_ATOMIC_WRITE:
	case RUE_WR_LOCAL_INV:
	case RUE_WR_SEND_WITH_INV:
	case RUE_WR_BIND_MW:
		return true;
	case RUE_WR_REG_MR:
		return !qp->user;
	default:
		return false;
	}
}

const struct rue_transport_ops rue_rc_transport = {
	.name = "rc",
	.qp_types = BIT(IB_QPT_RC),
	.flags = RUE_XPORT_SQ_POLL | RUE_XPORT_DCQCN | RUE_XPORT_SRQ |
		 RUE_XPORT_WINDOW,
	.rx_opm = RUE_OPM_RC,
	.create = rue_rc_create,
	.free = rue_rc_free,
	.enter = rue_rc_enter,
	.stop = rue_req_stop,
	.clear = rue_resp_clear,
	.op_valid = rue_rc_op_valid,
	.tx = rue_rc_tx,
	.rcv = rue_rc_rcv,
};
