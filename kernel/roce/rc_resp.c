// SPDX-License-Identifier: GPL-2.0
/*
 * RC responder (IBTA vol 1, 9.7.3 to 9.7.5.1): executes incoming requests
 * in PSN order and answers them.
 *
 * SEND data goes into receive WQEs, RDMA WRITE data into the target MR,
 * both copied once from the packet.  RDMA READ, atomic and ATOMIC WRITE
 * requests become responder resources (struct rue_res): their answers
 * leave, in PSN order, from rue_resp_tx() (rc_resp_tx.c), which the QP's
 * transmit engine runs.  An ACK may not overtake an answer still queued
 * (an ACK acknowledges every earlier PSN), so while answers are queued
 * the ACK waits behind them.
 *
 * Duplicates (IBTA 9.9.2.2, rc_resp_dup.c).  A duplicate SEND or WRITE is
 * acknowledged again, never executed.  A duplicate READ is executed again
 * from the PSN it carries.  A duplicate atomic or ATOMIC WRITE is
 * answered from the resource kept for it, so it is never applied twice.
 * A duplicate
 * means the requester went back: answers still queued are dropped, since
 * it asks for them again - but only at the first duplicate of a run, or
 * one behind it (the requester went back again).  The requester resends
 * everything from the PSN it went back to, in order; a duplicate that
 * continues the run must keep the answers its predecessors just queued,
 * or a go-back over several READs would answer only the last of them,
 * again and again.  So must one past a gap in the run: a resent request
 * was lost, and the requester awaits the answers queued before the gap;
 * dropped, they left it without progress until its timeout, and a gap in
 * each of its go-backs (up to 128 atomics resent, at 1% loss) until its
 * retries ran out.
 *
 * Runs in softirq under resp.lock.  Errors that end the QP are reported
 * to the caller, which moves the QP to the error state after unlocking.
 */
#include "pkt.h"
#include "rc_resp.h"
#include "rc_resp_dup.h"
#include "rc_resp_tx.h"
#include "core/caps.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/mr_atomic.h"
#include "core/qp.h"
#include "core/rq.h"
#include "core/sgl.h"
#include "core/stats.h"
#include "net/xmit.h"

struct sk_buff *rue_resp_skb(struct rue_qp *qp, u8 opcode, u32 linear, u32 psn,
			     u8 syn, unsigned int pad, u8 **hdr)
{
	const struct rue_opcode_info *op = &rue_opcodes[opcode];
	struct sk_buff *skb;

	skb = rue_xmit_alloc(qp->rdev, op->hdr_len + linear, GFP_ATOMIC);
	if (unlikely(!skb))
		return NULL;
	*hdr = skb_put(skb, op->hdr_len);
	rue_bth_fill((struct rue_bth *)*hdr, opcode, false, pad, qp->dest_qpn,
		     false, psn);
	if (op->mask & RUE_OPM_AETH)
		((struct rue_aeth *)(*hdr + op->aeth))->smsn =
			cpu_to_be32((u32)syn << 24 |
				    (qp->resp.msn & RUE_AETH_MSN_MASK));
	rue_tx_cb_init(skb, pad);
	return skb;
}

void rue_resp_ack_now(struct rue_qp *qp, u8 syn, u32 psn,
		      struct sk_buff_head *out)
{
	struct sk_buff *skb;
	u8 *hdr;

	skb = rue_resp_skb(qp, IB_OPCODE_RC_ACKNOWLEDGE, 0, psn, syn, 0, &hdr);
	if (skb)
		__skb_queue_tail(out, skb);
}

/* ACK or NAK @psn, after any answers still queued. */
void rue_resp_ack(struct rue_qp *qp, u8 syn, u32 psn, struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;

	if (resp->res_out != resp->res_head) {
		resp->ack_pending = true;
		resp->ack_psn = psn;
		resp->ack_syn = syn;
		return;
	}
	rue_resp_ack_now(qp, syn, psn, out);
}

void rue_resp_nak(struct rue_qp *qp, u8 syn, u32 psn, struct sk_buff_head *out)
{
	if (syn == RUE_AETH_NAK_PSN_SEQ) {
		rue_stat_inc(qp->rdev, RUE_STAT_SEQ_NAK_SENT);
	} else if ((syn & RUE_AETH_TYPE_MASK) == RUE_AETH_RNR_NAK) {
		rue_stat_inc(qp->rdev, RUE_STAT_RNR_NAK_SENT);
		/*
		 * The requester retries from this PSN after its RNR timer:
		 * what follows is dropped without sequence NAKs, which it
		 * would take for transport errors (IBTA 9.7.5.2.8).
		 */
		qp->resp.nak_sent = true;
	} else {
		rue_stat_inc(qp->rdev, RUE_STAT_ERR_NAK_SENT);
	}
	rue_resp_ack(qp, syn, psn, out);
}

/* ------------------------------------------------------------------ */
/* Resources                                                           */

void rue_res_release(struct rue_res *res)
{
	if (res->mr) {
		rue_mr_put(res->mr);
		res->mr = NULL;
	}
	res->pending = false;
}

/* Forget queued answers: the requester went back and asks again. */
void rue_resp_drop_output(struct rue_resp *resp)
{
	for (; resp->res_out != resp->res_head; resp->res_out++)
		rue_res_release(rue_res_at(resp, resp->res_out));
	resp->ack_pending = false;
}

/*
 * A new resource at the head of the output queue; NULL when the
 * requester has more outstanding than max_dest_rd_atomic.
 */
struct rue_res *rue_res_new(struct rue_qp *qp)
{
	struct rue_resp *resp = &qp->resp;
	u32 limit = clamp_t(u32, qp->attr.max_dest_rd_atomic, 1, resp->res_size);
	struct rue_res *res;

	if (resp->res_head - resp->res_out >= limit)
		return NULL;
	res = rue_res_at(resp, resp->res_head);
	rue_res_release(res);
	memset(res, 0, sizeof(*res));
	resp->res_head++;
	return res;
}

/*
 * Keep a copy of a READ or atomic just executed for its duplicates,
 * over the oldest.  Only new requests enter the history: answers to
 * duplicates are copies of what it holds, and entering them too pushed
 * out, after two go-backs in which a request was lost, the only copy of
 * one still unanswered - which the requester then asked for forever.
 */
static void rue_res_keep(struct rue_resp *resp, const struct rue_res *res)
{
	struct rue_res *h = &resp->hist[resp->hist_head++ % RUE_RES_HIST];

	*h = *res;
	h->mr = NULL;
	h->pending = false;
	h->sent = 0;
	if (resp->hist_used < RUE_RES_HIST)
		resp->hist_used++;
}

/* The newest kept READ or atomic whose PSNs hold @psn. */
struct rue_res *rue_res_find(struct rue_resp *resp, u8 type, u32 psn)
{
	u32 i;

	for (i = 1; i <= resp->hist_used; i++) {
		struct rue_res *h = &resp->hist[(resp->hist_head - i) % RUE_RES_HIST];

		if (h->type == type &&
		    rue_psn_diff(psn, h->first_psn) >= 0 &&
		    rue_psn_diff(psn, h->last_psn) <= 0)
			return h;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Executing requests                                                  */

/*
 * A request the QP cannot take: NAK @syn; the QP goes to the error state.
 * An invalid request and an access violation are also the responder's
 * affiliated asynchronous errors (IBTA 11.6.3.1: Invalid Request and
 * Local Access Violation Work Queue Errors), its consumer's only news of
 * them when no receive WQE completes, as for an RDMA WRITE or READ.
 */
enum rue_resp_result rue_resp_fail(struct rue_qp *qp, u8 syn,
				   struct rue_pkt *pkt, struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;

	rue_resp_nak(qp, syn, pkt->psn, out);
	if (!resp->fail_async && syn != RUE_AETH_NAK_REM_OP) {
		resp->fail_async = true;
		resp->fail_event = syn == RUE_AETH_NAK_REM_ACCESS ?
				   IB_EVENT_QP_ACCESS_ERR : IB_EVENT_QP_REQ_ERR;
	}
	return RUE_RESP_ERR;
}

/* The same, when a receive WQE completed in error says it instead. */
static enum rue_resp_result rue_resp_fail_rqe(struct rue_qp *qp, u8 syn,
					      struct rue_pkt *pkt,
					      struct sk_buff_head *out)
{
	rue_resp_nak(qp, syn, pkt->psn, out);
	return RUE_RESP_ERR;
}

/*
 * The MR behind a request's @rkey, if it grants @access over [@va, @va +
 * @len), referenced; NULL otherwise (a remote access error).
 */
struct rue_mr *rue_resp_mr(struct rue_qp *qp, u32 rkey, u64 va, u64 len,
			   int access)
{
	enum rue_mr_err merr;
	struct rue_mr *mr;

	mr = rue_mr_get_remote(&qp->ibqp, rkey, access, &merr);
	if (mr && !rue_mr_in_range(mr, va, len)) {
		rue_mr_put(mr);
		mr = NULL;
	}
	return mr;
}

static void rue_resp_end_send(struct rue_qp *qp)
{
	rue_sgl_put(qp->resp.rqe_sg, qp->resp.rqe_info.num_sge);
	qp->resp.in_send = false;
}

static enum rue_resp_result rue_resp_send(struct rue_qp *qp, struct rue_pkt *pkt,
					  struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;
	struct rue_rqe_info *info = &resp->rqe_info;
	u8 flags = 0;
	u64 imm = 0;
	int err;

	if (pkt->mask & RUE_OPM_FIRST) {
		if (resp->in_send)
			return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
		err = rue_rq_take(qp, resp->rqe_sg, info);
		if (err == -EAGAIN) {
			rue_resp_nak(qp, RUE_AETH_RNR_NAK |
				     (qp->attr.min_rnr_timer & 0x1f), pkt->psn, out);
			return RUE_RESP_RNR;
		}
		if (err || info->status != IB_WC_SUCCESS) {
			if (!err)
				rue_rq_complete(qp, info, info->status, RUE_WC_RECV,
						0, 0, 0, 0, false);
			rue_sgl_put(resp->rqe_sg, info->num_sge);
			return rue_resp_fail(qp, RUE_AETH_NAK_REM_OP, pkt, out);
		}
		resp->in_send = true;
		resp->msg_off = 0;
	} else if (!resp->in_send) {
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}

	if (!rue_pkt_len_ok(pkt->paylen, pkt->nseg, qp->mtu,
			    pkt->mask & RUE_OPM_LAST)) {
		rue_rq_complete(qp, info, IB_WC_REM_INV_REQ_ERR, RUE_WC_RECV, 0, 0,
				0, 0, false);
		rue_resp_end_send(qp);
		return rue_resp_fail_rqe(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}
	if (pkt->paylen > info->len - resp->msg_off) {
		rue_rq_complete(qp, info, IB_WC_LOC_LEN_ERR, RUE_WC_RECV, 0, 0, 0,
				0, false);
		rue_resp_end_send(qp);
		return rue_resp_fail_rqe(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}
	if (pkt->paylen &&
	    rue_sgl_from_skb(resp->rqe_sg, info->num_sge, resp->msg_off,
			     pkt->skb, pkt->pay_off, pkt->paylen)) {
		rue_rq_complete(qp, info, IB_WC_LOC_PROT_ERR, RUE_WC_RECV, 0, 0,
				0, 0, false);
		rue_resp_end_send(qp);
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_OP, pkt, out);
	}
	resp->msg_off += pkt->paylen;

	if (!(pkt->mask & RUE_OPM_LAST))
		return RUE_RESP_OK;
	if (pkt->mask & RUE_OPM_IMM) {
		flags |= RUE_CQE_F_IMM;
		imm = (__force u32)rue_pkt_immdt(pkt)->imm;
	} else if (pkt->mask & RUE_OPM_IETH) {
		u32 rkey = be32_to_cpu(rue_pkt_ieth(pkt)->rkey);

		if (rue_mr_invalidate(&qp->ibqp, rkey, true)) {
			rue_rq_complete(qp, info, IB_WC_REM_INV_REQ_ERR,
					RUE_WC_RECV, 0, 0, 0, 0, false);
			rue_resp_end_send(qp);
			return rue_resp_fail_rqe(qp, RUE_AETH_NAK_INVALID, pkt, out);
		}
		flags |= RUE_CQE_F_INV;
		imm = rkey;
	}
	rue_rq_complete(qp, info, IB_WC_SUCCESS, RUE_WC_RECV, resp->msg_off,
			flags, imm, 0, pkt->se);
	rue_resp_end_send(qp);
	return RUE_RESP_OK;
}

/* WRITE with immediate consumes a receive WQE (IBTA 9.4.3). */
static enum rue_resp_result rue_resp_write_imm_rqe(struct rue_qp *qp,
						   struct rue_pkt *pkt,
						   struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;
	int err;

	err = rue_rq_take(qp, resp->rqe_sg, &resp->rqe_info);
	if (err == -EAGAIN) {
		rue_resp_nak(qp, RUE_AETH_RNR_NAK | (qp->attr.min_rnr_timer & 0x1f),
			     pkt->psn, out);
		return RUE_RESP_RNR;
	}
	if (!err)
		rue_sgl_put(resp->rqe_sg, resp->rqe_info.num_sge);
	if (err || resp->rqe_info.status != IB_WC_SUCCESS) {
		if (!err)
			rue_rq_complete(qp, &resp->rqe_info, resp->rqe_info.status,
					RUE_WC_RECV_RDMA_WITH_IMM, 0, 0, 0, 0,
					false);
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_OP, pkt, out);
	}
	return RUE_RESP_OK;
}

static enum rue_resp_result rue_resp_write_first(struct rue_qp *qp,
						 struct rue_pkt *pkt,
						 struct sk_buff_head *out)
{
	const struct rue_reth *reth = rue_pkt_reth(pkt);
	struct rue_resp *resp = &qp->resp;

	if (resp->in_write || !(qp->access & IB_ACCESS_REMOTE_WRITE))
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	resp->write_va = be64_to_cpu(reth->va);
	resp->write_rkey = be32_to_cpu(reth->rkey);
	resp->write_len = be32_to_cpu(reth->len);
	resp->write_left = resp->write_len;
	resp->write_mr = NULL;
	if (resp->write_len > RUE_MAX_MSG_BYTES)
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	if (resp->write_len) {
		resp->write_mr = rue_resp_mr(qp, resp->write_rkey,
					     resp->write_va, resp->write_len,
					     IB_ACCESS_REMOTE_WRITE);
		if (!resp->write_mr)
			return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	}
	resp->in_write = true;
	return RUE_RESP_OK;
}

static void rue_resp_write_end(struct rue_resp *resp)
{
	if (resp->write_mr)
		rue_mr_put(resp->write_mr);
	resp->write_mr = NULL;
	resp->in_write = false;
}

static enum rue_resp_result rue_resp_write(struct rue_qp *qp, struct rue_pkt *pkt,
					   struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;
	bool last = pkt->mask & RUE_OPM_LAST;
	enum rue_resp_result r;
	u32 len = pkt->paylen;

	if (pkt->mask & RUE_OPM_FIRST) {
		r = rue_resp_write_first(qp, pkt, out);
		if (r != RUE_RESP_OK)
			return r;
	} else if (!resp->in_write) {
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}

	/* IBTA 9.7.4.1.5: all but the last packet carry exactly one PMTU. */
	if (len > resp->write_left ||
	    !rue_pkt_len_ok(len, pkt->nseg, qp->mtu, last) ||
	    (last && len != resp->write_left))
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);

	/* Before placing anything, so an RNR NAK leaves the WRITE as it was. */
	if (pkt->mask & RUE_OPM_IMM) {
		r = rue_resp_write_imm_rqe(qp, pkt, out);
		if (r != RUE_RESP_OK) {
			if (pkt->mask & RUE_OPM_FIRST)
				rue_resp_write_end(resp);
			return r;
		}
	}

	/* not invalidated, deregistered or registered again since FIRST */
	if (len && !rue_mr_still(resp->write_mr, resp->write_rkey))
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	if (len && rue_mr_copy_from_skb(resp->write_mr,
					resp->write_va + resp->write_len -
					resp->write_left,
					pkt->skb, pkt->pay_off, len))
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	resp->write_left -= len;
	if (!last)
		return RUE_RESP_OK;

	rue_resp_write_end(resp);
	if (pkt->mask & RUE_OPM_IMM)
		rue_rq_complete(qp, &resp->rqe_info, IB_WC_SUCCESS,
				RUE_WC_RECV_RDMA_WITH_IMM, resp->write_len,
				RUE_CQE_F_IMM,
				(__force u32)rue_pkt_immdt(pkt)->imm,
				0, pkt->se);
	return RUE_RESP_OK;
}

/* Check an RDMA READ's target and queue its answer. */
static enum rue_resp_result rue_resp_read(struct rue_qp *qp, struct rue_pkt *pkt,
					  struct sk_buff_head *out)
{
	const struct rue_reth *reth = rue_pkt_reth(pkt);
	u32 rkey = be32_to_cpu(reth->rkey);
	u32 len = be32_to_cpu(reth->len);
	u64 va = be64_to_cpu(reth->va);
	struct rue_mr *mr = NULL;
	struct rue_res *res;

	if (!(qp->access & IB_ACCESS_REMOTE_READ))
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	if (len > RUE_MAX_MSG_BYTES)
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	if (len) {
		mr = rue_resp_mr(qp, rkey, va, len, IB_ACCESS_REMOTE_READ);
		if (!mr)
			return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	}
	res = rue_res_new(qp);
	if (!res) {
		if (mr)
			rue_mr_put(mr);
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}
	res->type = RUE_RES_READ;
	res->pending = true;
	res->first_psn = pkt->psn;
	res->last_psn = rue_psn_add(pkt->psn, (len ? DIV_ROUND_UP(len, qp->mtu) : 1) - 1);
	res->va = va;
	res->length = len;
	res->rkey = rkey;
	res->mr = mr;
	rue_res_keep(&qp->resp, res);
	return RUE_RESP_OK;
}

static enum rue_resp_result rue_resp_atomic(struct rue_qp *qp,
					    struct rue_pkt *pkt,
					    struct sk_buff_head *out)
{
	const struct rue_atmeth *ae = rue_pkt_atmeth(pkt);
	u64 va = be64_to_cpu(ae->va);
	struct rue_res *res;
	struct rue_mr *mr;
	u64 orig;
	int err;

	if (!(qp->access & IB_ACCESS_REMOTE_ATOMIC))
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	if (va & 7)
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	mr = rue_resp_mr(qp, be32_to_cpu(ae->rkey), va, sizeof(u64),
			 IB_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	res = rue_res_new(qp);
	if (!res) {
		rue_mr_put(mr);
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}
	err = rue_mr_atomic(mr, va, pkt->opcode == IB_OPCODE_RC_COMPARE_SWAP,
			    be64_to_cpu(ae->compare), be64_to_cpu(ae->swap_add),
			    &orig);
	rue_mr_put(mr);
	if (err) {
		/* Nothing was applied: forget the resource. */
		qp->resp.res_head--;
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	}
	res->type = RUE_RES_ATOMIC;
	res->pending = true;
	res->first_psn = pkt->psn;
	res->last_psn = pkt->psn;
	res->orig = orig;
	rue_res_keep(&qp->resp, res);
	return RUE_RESP_OK;
}

/*
 * RDMA ATOMIC WRITE (IBTA annex A19.4.2): the 8 bytes of payload stored
 * at once at an 8-byte aligned address of an MR open to remote writes,
 * on a QP that allows them (as rdma_rxe checks).  The answer is a
 * zero-length READ Response Only from a responder resource, as for a
 * READ: it counts against max_dest_rd_atomic and leaves in PSN order
 * with the other answers.  A duplicate is answered from the history and
 * not stored again (rc_resp_dup.c): the bytes may have been overwritten
 * since by a later WRITE.  A length other than 8 is an invalid request,
 * a misaligned target too (the NAK rdma_rxe sends), a key or range the
 * MR refuses a remote access error.
 */
static enum rue_resp_result rue_resp_atomic_write(struct rue_qp *qp,
						  struct rue_pkt *pkt,
						  struct sk_buff_head *out)
{
	const struct rue_reth *reth = rue_pkt_reth(pkt);
	u64 va = be64_to_cpu(reth->va), bytes;
	struct rue_res *res;
	struct rue_mr *mr;
	int err;

	if (!(qp->access & IB_ACCESS_REMOTE_WRITE) ||
	    be32_to_cpu(reth->len) != sizeof(bytes) ||
	    pkt->paylen != sizeof(bytes) || (va & 7))
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	mr = rue_resp_mr(qp, be32_to_cpu(reth->rkey), va, sizeof(bytes),
			 IB_ACCESS_REMOTE_WRITE);
	if (!mr)
		return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	res = rue_res_new(qp);
	if (!res) {
		rue_mr_put(mr);
		return rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	}
	err = skb_copy_bits(pkt->skb, pkt->pay_off, &bytes, sizeof(bytes));
	if (!err)
		err = rue_mr_atomic_write(mr, va, bytes);
	rue_mr_put(mr);
	if (err) {
		/* Nothing was stored: forget the resource. */
		qp->resp.res_head--;
		return rue_resp_fail(qp, err == -EINVAL ? RUE_AETH_NAK_INVALID :
				     RUE_AETH_NAK_REM_ACCESS, pkt, out);
	}
	res->type = RUE_RES_ATOMIC_WRITE;
	res->pending = true;
	res->first_psn = pkt->psn;
	res->last_psn = pkt->psn;
	rue_res_keep(&qp->resp, res);
	return RUE_RESP_OK;
}

/*
 * The opcode sequence of a message (IBTA vol 1, ch. 9): while a
 * multi-packet SEND or RDMA WRITE is being received, only its MIDDLE and
 * LAST packets may come.  Anything else - another FIRST or ONLY, another
 * operation, a SEND_WITH_INV of the key the WRITE is placing into - is an
 * Invalid Request: NAK, and the QP goes to the error state.
 */
static bool rue_resp_in_sequence(const struct rue_resp *resp, u32 mask)
{
	if (resp->in_send)
		return (mask & RUE_OPM_SEND) && !(mask & RUE_OPM_FIRST);
	if (resp->in_write)
		return (mask & RUE_OPM_WRITE) && !(mask & RUE_OPM_FIRST);
	return true;
}

/**
 * rue_resp_ready() - may an RC or UC QP's responder take a request now?
 * @qp: the QP, resp.lock held
 * @event: set at the first request in RTR, for COMM_EST
 *
 * Return: true from RTR on, short of ERR; else the packet is counted
 * dropped.
 */
bool rue_resp_ready(struct rue_qp *qp, bool *event)
{
	struct rue_resp *resp = &qp->resp;

	lockdep_assert_held(&resp->lock);
	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return false;
	}
	if (qp->state == IB_QPS_RTR && !resp->comm_est) {
		resp->comm_est = true;
		*event = true;
	}
	return true;
}

/**
 * rue_resp_rcv() - handle a request packet of an RC QP
 * @qp: the QP (referenced)
 * @pkt: the checked packet
 * @out: packets to send once no lock is held
 * @error: set when the QP must go to the error state
 * @event: set when COMM_EST should be raised
 *
 * Return: true if answers were queued for the transmit engine.
 */
bool rue_resp_rcv(struct rue_qp *qp, struct rue_pkt *pkt,
		  struct sk_buff_head *out, bool *error, bool *event)
{
	struct rue_resp *resp = &qp->resp;
	enum rue_resp_result r;
	bool queued;
	u32 head;
	s32 d;

	spin_lock_bh(&resp->lock);
	if (!rue_resp_ready(qp, event))
		goto out;

	d = rue_psn_diff(pkt->psn, resp->epsn);
	if (d < 0 && !rue_resp_trim(qp, pkt)) {
		if (rue_resp_dup(qp, pkt, out) == RUE_RESP_ERR)
			*error = true;
		goto out;
	}
	d = rue_psn_diff(pkt->psn, resp->epsn);
	if (d > 0) {
		/* A gap: NAK once, drop until the expected PSN comes. */
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_SEQ);
		if (!resp->nak_sent) {
			resp->nak_sent = true;
			rue_resp_nak(qp, RUE_AETH_NAK_PSN_SEQ, resp->epsn, out);
		}
		goto out;
	}
	resp->nak_sent = false;
	resp->dup_run = false;

	head = resp->res_head;
	if (!rue_resp_in_sequence(resp, pkt->mask))
		r = rue_resp_fail(qp, RUE_AETH_NAK_INVALID, pkt, out);
	else if (pkt->mask & RUE_OPM_SEND)
		r = rue_resp_send(qp, pkt, out);
	else if (pkt->mask & RUE_OPM_WRITE)
		r = rue_resp_write(qp, pkt, out);
	else if (pkt->mask & RUE_OPM_READ)
		r = rue_resp_read(qp, pkt, out);
	else if (pkt->mask & RUE_OPM_ATOMIC_WRITE)
		r = rue_resp_atomic_write(qp, pkt, out);
	else
		r = rue_resp_atomic(qp, pkt, out);

	if (r == RUE_RESP_ERR) {
		*error = true;
		goto out;
	}
	if (r == RUE_RESP_RNR)
		goto out;

	if (pkt->mask & RUE_OPM_READ)
		resp->epsn = rue_psn_add(rue_res_at(resp, head)->last_psn, 1);
	else
		resp->epsn = rue_psn_add(resp->epsn, pkt->nseg);
	if (pkt->mask & RUE_OPM_LAST)
		resp->msn++;
	if (pkt->ackreq && !(pkt->mask & (RUE_OPM_READ | RUE_OPM_ATOMIC |
					  RUE_OPM_ATOMIC_WRITE)))
		rue_resp_ack(qp, RUE_AETH_ACK | RUE_AETH_CREDIT_INVALID,
			     rue_psn_add(resp->epsn, -1), out);
	/*
	 * Answer a READ or atomic right away when nothing is queued ahead
	 * of it: an atomic ACK, or the first response packet; the transmit
	 * engine sends the rest of a long READ.
	 */
	if (resp->res_out == head && head != resp->res_head)
		rue_resp_out(qp, 1, out, error);
out:
	queued = resp->res_out != resp->res_head || resp->ack_pending;
	spin_unlock_bh(&resp->lock);
	return queued;
}

/* Entering RTR: expect rq_psn. */
void rue_resp_start(struct rue_qp *qp)
{
	struct rue_resp *resp = &qp->resp;

	lockdep_assert_held(&resp->lock);
	resp->epsn = qp->attr.rq_psn & RUE_BTH_PSN_MASK;
	resp->nak_sent = false;
	resp->dup_run = false;
	resp->comm_est = false;
	resp->drop_msg = false;
}

/* Drop in-progress messages and queued answers (error, reset, destroy). */
void rue_resp_clear(struct rue_qp *qp, bool flush)
{
	struct rue_resp *resp = &qp->resp;
	u32 i;

	lockdep_assert_held(&resp->lock);
	if (resp->in_send) {
		if (flush)
			rue_rq_complete(qp, &resp->rqe_info, IB_WC_WR_FLUSH_ERR,
					RUE_WC_RECV, 0, 0, 0, 0, false);
		rue_sgl_put(resp->rqe_sg, resp->rqe_info.num_sge);
		resp->in_send = false;
	}
	resp->msg_open = false;
	if (resp->write_mr)
		rue_mr_put(resp->write_mr);
	resp->write_mr = NULL;
	resp->in_write = false;
	for (i = 0; i < resp->res_size; i++)
		rue_res_release(&resp->res[i]);
	resp->res_out = resp->res_head;
	resp->hist_used = 0;
	resp->ack_pending = false;
}
