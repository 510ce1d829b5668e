// SPDX-License-Identifier: GPL-2.0
/*
 * RC responder, its answers (IBTA vol 1, 9.7.4): RDMA READ responses
 * (zero-length for an ATOMIC WRITE, annex A19.4.2) and atomic
 * acknowledgements built from the responder resources that
 * rc_resp.c queued, in PSN order, each followed by the ACK that waited
 * behind it.  rue_resp_tx() runs from the QP's transmit engine;
 * rue_resp_out() also from rc_resp.c, for a first answer built in the
 * receive path.
 *
 * A READ response checks its MR per packet: one taken back while the
 * response is under way (invalidated, deregistered, registered again)
 * ends it in a remote access NAK, and the QP in the error state; a
 * packet that lends the MR's pages asks again as it leaves (net/lend.c).
 *
 * Locking: resp.lock, held by the callers of rue_resp_out().
 */
#include "pkt.h"
#include "rc_resp.h"
#include "rc_resp_tx.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/sgl.h"
#include "core/stats.h"
#include "net/lend.h"
#include "net/xmit.h"

static u8 rue_read_resp_opcode(bool first, bool last)
{
	return first ? (last ? IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY :
			       IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST) :
		       (last ? IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST :
			       IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE);
}

/* For a local peer, one packet may carry many segments (struct rue_tx_cb). */
static u32 rue_resp_read_len(struct rue_qp *qp, struct rue_res *res,
			     bool lend, u32 *nseg)
{
	u32 mtu = qp->mtu, left = res->length - res->sent, max;

	*nseg = 1;
	if (left <= mtu || !READ_ONCE(qp->loop))
		return min(mtu, left);
	max = lend ? RUE_SEG_MAX_LEND : RUE_SEG_MAX_COPY;
	if (left > max)
		left = rounddown(max, mtu);
	*nseg = DIV_ROUND_UP(left, mtu);
	return left;
}

static struct sk_buff *rue_resp_read_pkt(struct rue_qp *qp, struct rue_res *res)
{
	struct rue_ksge sg = { .mr = res->mr, .addr = res->va, .length = res->length };
	bool lend = res->mr && rue_mr_can_frag(res->mr);
	bool first = res->sent == 0, last;
	unsigned int pad;
	struct sk_buff *skb;
	u32 len, nseg;
	u8 opcode;
	u8 *hdr;

	/* each packet: the MR may have been taken back since the request */
	if (res->mr && !rue_mr_still(res->mr, res->rkey))
		return ERR_PTR(-EACCES);
	len = rue_resp_read_len(qp, res, lend, &nseg);
	last = res->sent + len == res->length;
	pad = rue_pad(len);
	opcode = rue_read_resp_opcode(first, last && nseg == 1);
	lend = lend && len > RUE_COPY_MAX;
again:
	skb = rue_resp_skb(qp, opcode, lend ? 0 : len,
			   rue_psn_add(res->first_psn, res->sent / qp->mtu),
			   RUE_AETH_ACK | RUE_AETH_CREDIT_INVALID, pad, &hdr);
	if (!skb)
		return NULL;
	if (len && rue_sgl_to_skb(&sg, 1, res->sent, len, skb, lend)) {
		kfree_skb(skb);
		if (!lend)
			return NULL;
		lend = false;
		goto again;
	}
	/* lent pages are read as it goes: net/lend.c */
	if (lend)
		rue_lend_set(skb, res->mr, res->rkey);
	if (nseg > 1) {
		rue_tx_cb(skb)->nseg = nseg;
		rue_tx_cb(skb)->last_opcode = rue_read_resp_opcode(false, last);
	}
	res->sent += len;
	return skb;
}

static struct sk_buff *rue_resp_atomic_pkt(struct rue_qp *qp, struct rue_res *res)
{
	struct sk_buff *skb;
	u8 *hdr;

	skb = rue_resp_skb(qp, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, res->first_psn,
			   RUE_AETH_ACK | RUE_AETH_CREDIT_INVALID, 0, &hdr);
	if (!skb)
		return NULL;
	((struct rue_atmack *)(hdr + rue_opcodes[IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE].atmack))
		->orig = cpu_to_be64(res->orig);
	return skb;
}

/**
 * rue_resp_tx() - build queued answers: READ responses, atomic ACKs, and
 * the ACK that waited behind them
 * @qp: an RC QP
 * @budget: at most this many packets
 * @out: where the packets go
 * @error: set when the QP must go to the error state
 *
 * Return: the number of packets built.
 */
int rue_resp_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
		bool *error)
{
	int n;

	spin_lock_bh(&qp->resp.lock);
	n = rue_resp_out(qp, budget, out, error);
	spin_unlock_bh(&qp->resp.lock);
	return n;
}

/*
 * A READ whose MR was taken back while its response was under way: the
 * response ends in a NAK at the packet that can no longer be sent
 * (remote access error), and the QP goes to the error state.
 */
static void rue_resp_read_revoked(struct rue_qp *qp, struct rue_res *res,
				  struct sk_buff_head *out)
{
	u32 psn = rue_psn_add(res->first_psn, res->sent / qp->mtu);

	rue_resp_drop_output(&qp->resp);
	rue_resp_nak(qp, RUE_AETH_NAK_REM_ACCESS, psn, out);
}

/* Build queued answers and the ACK behind them; resp.lock held. */
int rue_resp_out(struct rue_qp *qp, int budget, struct sk_buff_head *out,
		 bool *error)
{
	struct rue_resp *resp = &qp->resp;
	struct sk_buff *skb;
	int n = 0;

	while (n < budget && resp->res_out != resp->res_head &&
	       qp->state != IB_QPS_ERR) {
		struct rue_res *res = rue_res_at(resp, resp->res_out);

		/* an ATOMIC WRITE's answer is a READ's of length 0 */
		if (res->type == RUE_RES_ATOMIC)
			skb = rue_resp_atomic_pkt(qp, res);
		else
			skb = rue_resp_read_pkt(qp, res);
		if (IS_ERR(skb)) {
			rue_resp_read_revoked(qp, res, out);
			*error = true;
			return n + 1;
		}
		if (!skb)
			break;
		__skb_queue_tail(out, skb);
		n++;
		if (res->type == RUE_RES_ATOMIC || res->sent >= res->length) {
			rue_res_release(res);
			resp->res_out++;
		}
	}
	if (resp->ack_pending && resp->res_out == resp->res_head && n < budget) {
		resp->ack_pending = false;
		rue_resp_ack_now(qp, resp->ack_syn, resp->ack_psn, out);
		n++;
	}
	return n;
}
