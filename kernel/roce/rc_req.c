// SPDX-License-Identifier: GPL-2.0
/*
 * RC requester, sending side (IBTA vol 1, 9.7.2): turns send WQEs into
 * request packets.  What comes back (ACK, NAK, RDMA READ responses,
 * atomic ACKs) and what times out is rc_comp.c's.
 *
 * PSNs.  A WQE gets its PSNs when its first packet is built: SEND and
 * WRITE one per packet, RDMA READ one per expected response packet, an
 * atomic one.  Retransmission is go-back-N: rc_comp.c points the
 * transmitter back at the oldest incomplete WQE and its first
 * unacknowledged packet, and everything after is built again here with
 * the same PSNs, from the kernel's copy of the WQEs and the MRs they
 * still reference.
 *
 * Lent memory.  A first transmission of more than RUE_COPY_MAX bytes
 * lends the MR's pages to the packet (page fragments) instead of copying
 * them.  A resend copies: it may still wait in the device's queues after
 * an earlier copy of the same PSNs was ACKed and the WQE completed, when
 * the consumer owns the buffer again (IBTA 10.8.3.1) and may change it
 * under the ICRC.  The first copy of a PSN cannot be overtaken like that:
 * the device's queues keep a QP's packets in order.
 *
 * ACK requests.  The responder ACKs only packets with AckReq set, so the
 * requester asks for an ACK on the last packet of a message unless more
 * data follows at once, at least every RUE_ACKREQ_EVERY packets, and on
 * the packet that fills the window; queue pairs streaming many small
 * messages then see one ACK per batch, and a stream the window holds one
 * per RUE_ACKREQ_EVERY packets.
 *
 * UC (IBTA 9.8) sends the same packets with UC opcodes and no AckReq;
 * nothing answers them, so a WQE completes when its last packet is
 * built, and that packet carries a copy of the data, never lent pages:
 * the consumer owns the buffer once the WQE completes.  Nothing of it is
 * ever sent again.
 *
 * Everything here runs under req.lock; packets are built into a list and
 * sent by the caller once the lock is dropped (rc.c).
 */

#include "pkt.h"
#include "rc_comp.h"
#include "rc_req.h"
#include "core/caps.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/mr.h"
#include "core/mw.h"
#include "core/qp.h"
#include "core/sgl.h"
#include "core/sq.h"
#include "core/stats.h"
#include "net/xmit.h"

#define RUE_ACKREQ_EVERY	32

static u32 rue_npkts(u32 len, u32 mtu)
{
	return len ? DIV_ROUND_UP(len, mtu) : 1;
}

/* ------------------------------------------------------------------ */
/* Building packets                                                    */

static u8 rue_rc_data_opcode(u8 wr_op, bool first, bool last)
{
	switch (wr_op) {
	case RUE_WR_RDMA_WRITE:
		return first ? (last ? IB_OPCODE_RC_RDMA_WRITE_ONLY :
				       IB_OPCODE_RC_RDMA_WRITE_FIRST) :
			       (last ? IB_OPCODE_RC_RDMA_WRITE_LAST :
				       IB_OPCODE_RC_RDMA_WRITE_MIDDLE);
	case RUE_WR_RDMA_WRITE_WITH_IMM:
		return first ? (last ? IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE :
				       IB_OPCODE_RC_RDMA_WRITE_FIRST) :
			       (last ? IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE :
				       IB_OPCODE_RC_RDMA_WRITE_MIDDLE);
	case RUE_WR_SEND_WITH_IMM:
		return first ? (last ? IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE :
				       IB_OPCODE_RC_SEND_FIRST) :
			       (last ? IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE :
				       IB_OPCODE_RC_SEND_MIDDLE);
	case RUE_WR_SEND_WITH_INV:
		return first ? (last ? IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE :
				       IB_OPCODE_RC_SEND_FIRST) :
			       (last ? IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE :
				       IB_OPCODE_RC_SEND_MIDDLE);
	default:
		return first ? (last ? IB_OPCODE_RC_SEND_ONLY :
				       IB_OPCODE_RC_SEND_FIRST) :
			       (last ? IB_OPCODE_RC_SEND_LAST :
				       IB_OPCODE_RC_SEND_MIDDLE);
	}
}

/* UC's data opcodes are RC's with the UC transport bits (IBTA 9.2.3). */
static u8 rue_data_opcode(const struct rue_qp *qp, u8 wr_op, bool first,
			  bool last)
{
	u8 op = rue_rc_data_opcode(wr_op, first, last);

	return qp->req.unacked ? op - IB_OPCODE_RC + IB_OPCODE_UC : op;
}

static struct sk_buff *rue_req_skb(struct rue_qp *qp, u8 opcode, u32 linear,
				   u8 **hdr)
{
	const struct rue_opcode_info *op = &rue_opcodes[opcode];
	struct sk_buff *skb;

	skb = rue_xmit_alloc(qp->rdev, op->hdr_len + linear, GFP_ATOMIC);
	if (unlikely(!skb))
		return NULL;
	*hdr = skb_put(skb, op->hdr_len);
	return skb;
}

/* The opcodes carrying IMM or IETH, which end a multi-segment packet. */
static bool rue_last_has_ext(u8 op)
{
	return op == RUE_WR_RDMA_WRITE_WITH_IMM || op == RUE_WR_SEND_WITH_IMM ||
	       op == RUE_WR_SEND_WITH_INV;
}

/*
 * For a local peer: how much of the message from @off one packet of
 * several segments carries, and how many segments that is (1: a plain
 * packet).  Bounded by what an skb lends or copies, by the window, and,
 * when the last packet carries IMM or IETH, that packet goes on its own.
 */
/* Lend the pages of bytes [off, off + len) of @w rather than copy them? */
static bool rue_req_lend(struct rue_qp *qp, struct rue_swqe *w, u32 off,
			 u32 len)
{
	/* a resend (rc_comp.c went back): see "Lent memory" above */
	if (rue_psn_diff(qp->req.sent_psn, qp->req.psn) > 0 || qp->req.unacked)
		return false;
	return !(w->sqe.flags & RUE_SQE_INLINE) &&
	       rue_sgl_can_lend(w->sg, w->num_sge, off, len);
}

static u32 rue_req_batch(struct rue_qp *qp, struct rue_swqe *w, u32 off,
			 u32 *nseg)
{
	u32 mtu = qp->mtu, left = w->sqe.length - off, max, len, room;

	*nseg = 1;
	if (left <= mtu || !READ_ONCE(qp->loop))
		return min(mtu, left);
	max = rue_req_lend(qp, w, off, left) ? RUE_SEG_MAX_LEND :
	      RUE_SEG_MAX_COPY;
	room = qp->req.cwnd.cwnd - rue_psn_diff(qp->req.psn, qp->req.una_psn);
	max = min(max, room * mtu);
	if (left > max) {
		len = rounddown(max, mtu);
	} else {
		len = left;
		if (rue_last_has_ext(w->sqe.opcode))
			len = rounddown(left - 1, mtu);
	}
	if (len < 2 * mtu)
		return min(mtu, left);
	*nseg = DIV_ROUND_UP(len, mtu);
	return len;
}

static struct sk_buff *rue_req_data_pkt(struct rue_qp *qp, struct rue_swqe *w,
					u32 off, u32 len, u32 nseg, bool ackreq)
{
	bool first = off == 0, last = off + len == w->sqe.length;
	u8 opcode = rue_data_opcode(qp, w->sqe.opcode, first,
				    last && nseg == 1);
	const struct rue_opcode_info *op = &rue_opcodes[opcode];
	bool inl = w->sqe.flags & RUE_SQE_INLINE;
	unsigned int pad = rue_pad(len);
	struct sk_buff *skb;
	bool lend;
	u8 *hdr;

	lend = len > RUE_COPY_MAX && rue_req_lend(qp, w, off, len);
again:
	skb = rue_req_skb(qp, opcode, lend ? 0 : len, &hdr);
	if (unlikely(!skb))
		return NULL;
	rue_bth_fill((struct rue_bth *)hdr, opcode,
		     last && (w->sqe.flags & RUE_SQE_SOLICITED), pad,
		     qp->dest_qpn, ackreq, qp->req.psn);
	if (op->mask & RUE_OPM_RETH) {
		struct rue_reth *reth = (void *)(hdr + op->reth);

		reth->va = cpu_to_be64(w->sqe.remote_addr);
		reth->rkey = cpu_to_be32((u32)w->sqe.rkey);
		reth->len = cpu_to_be32(w->sqe.length);
	}
	if (op->mask & RUE_OPM_IMM)
		((struct rue_immdt *)(hdr + op->imm))->imm =
			(__force __be32)(u32)w->sqe.imm;
	if (op->mask & RUE_OPM_IETH)
		((struct rue_ieth *)(hdr + op->ieth))->rkey =
			cpu_to_be32((u32)w->sqe.imm);

	if (inl) {
		skb_put_data(skb, w->inline_data + off, len);
	} else if (rue_sgl_to_skb(w->sg, w->num_sge, off, len, skb, lend)) {
		kfree_skb(skb);
		if (!lend)
			return NULL;
		/* Too many fragments, or a page we may not lend: copy. */
		lend = false;
		goto again;
	}
	rue_tx_cb_init(skb, pad);
	if (nseg > 1) {
		rue_tx_cb(skb)->nseg = nseg;
		rue_tx_cb(skb)->last_opcode =
			rue_data_opcode(qp, w->sqe.opcode, false, last);
	}
	return skb;
}

static struct sk_buff *rue_req_read_pkt(struct rue_qp *qp, struct rue_swqe *w)
{
	u8 opcode = IB_OPCODE_RC_RDMA_READ_REQUEST;
	struct rue_reth *reth;
	struct sk_buff *skb;
	u8 *hdr;

	skb = rue_req_skb(qp, opcode, 0, &hdr);
	if (unlikely(!skb))
		return NULL;
	rue_bth_fill((struct rue_bth *)hdr, opcode, false, 0, qp->dest_qpn,
		     true, qp->req.psn);
	/* A retransmitted read asks only for what has not arrived. */
	reth = (void *)(hdr + rue_opcodes[opcode].reth);
	reth->va = cpu_to_be64(w->sqe.remote_addr + w->read_done);
	reth->rkey = cpu_to_be32((u32)w->sqe.rkey);
	reth->len = cpu_to_be32(w->sqe.length - w->read_done);
	rue_tx_cb_init(skb, 0);
	return skb;
}

static struct sk_buff *rue_req_atomic_pkt(struct rue_qp *qp, struct rue_swqe *w)
{
	bool cas = w->sqe.opcode == RUE_WR_ATOMIC_CMP_AND_SWP;
	u8 opcode = cas ? IB_OPCODE_RC_COMPARE_SWAP : IB_OPCODE_RC_FETCH_ADD;
	struct rue_atmeth *ae;
	struct sk_buff *skb;
	u8 *hdr;

	skb = rue_req_skb(qp, opcode, 0, &hdr);
	if (unlikely(!skb))
		return NULL;
	rue_bth_fill((struct rue_bth *)hdr, opcode, false, 0, qp->dest_qpn,
		     true, qp->req.psn);
	ae = (void *)(hdr + rue_opcodes[opcode].atmeth);
	ae->va = cpu_to_be64(w->sqe.remote_addr);
	ae->rkey = cpu_to_be32((u32)w->sqe.rkey);
	ae->swap_add = cpu_to_be64(cas ? w->sqe.swap : w->sqe.compare_add);
	ae->compare = cpu_to_be64(cas ? w->sqe.compare_add : 0);
	rue_tx_cb_init(skb, 0);
	return skb;
}

/*
 * RDMA ATOMIC WRITE (IBTA annex A19.4.2): the 8 bytes the consumer gave,
 * kept in the WQE as they were in its memory (rue-abi.h), go out as they
 * are; the target stores them the same way.
 */
static struct sk_buff *rue_req_atomic_write_pkt(struct rue_qp *qp,
						struct rue_swqe *w)
{
	u8 opcode = RUE_OPCODE_RC_ATOMIC_WRITE;
	struct rue_reth *reth;
	struct sk_buff *skb;
	u8 *hdr;

	skb = rue_req_skb(qp, opcode, sizeof(w->sqe.compare_add), &hdr);
	if (unlikely(!skb))
		return NULL;
	rue_bth_fill((struct rue_bth *)hdr, opcode, false, 0, qp->dest_qpn,
		     true, qp->req.psn);
	reth = (void *)(hdr + rue_opcodes[opcode].reth);
	reth->va = cpu_to_be64(w->sqe.remote_addr);
	reth->rkey = cpu_to_be32((u32)w->sqe.rkey);
	reth->len = cpu_to_be32(sizeof(w->sqe.compare_add));
	skb_put_data(skb, &w->sqe.compare_add, sizeof(w->sqe.compare_add));
	rue_tx_cb_init(skb, 0);
	return skb;
}

/* Local operations execute when the transmitter reaches them. */
static void rue_req_local_op(struct rue_qp *qp, struct rue_swqe *w)
{
	int err;

	if (w->sqe.opcode == RUE_WR_REG_MR)
		err = rue_mr_reg_frwr(to_rue_mr((struct ib_mr *)(uintptr_t)
						w->sqe.remote_addr),
				      qp->ibqp.pd, (u32)w->sqe.rkey,
				      (int)w->sqe.compare_add);
	else if (w->sqe.opcode == RUE_WR_BIND_MW)
		err = rue_mw_bind(&qp->ibqp, &w->sqe);
	else
		err = rue_mr_invalidate(&qp->ibqp, (u32)w->sqe.imm, false);
	if (err)
		w->status = IB_WC_MW_BIND_ERR;
	w->done = 1;
}

/*
 * Should this packet (of @nseg PSNs) ask for an ACK?  Yes at the end of a
 * message unless another data message follows right away; periodically,
 * four times per window (at most every RUE_ACKREQ_EVERY packets), so that
 * ACKs keep opening the window; and when it fills the window, so that a
 * requester that must stop there has an answer coming.  Only that last
 * packet: asking on every packet near the edge of the window, as before,
 * drew an ACK per packet from a QP the window holds (a sender faster than
 * its path) - half the packets on the wire and much of both hosts' work.
 */
static bool rue_req_ackreq(struct rue_qp *qp, u32 nseg, bool last)
{
	struct rue_req *req = &qp->req;
	u32 every = clamp_t(u32, req->cwnd.cwnd / 4, 1, RUE_ACKREQ_EVERY);
	struct rue_swqe *next;

	if (req->unacked)
		return false;
	if (req->tlp_ackreq)		/* a probe: rc_timer.c */
		return true;
	if (rue_psn_diff(req->psn, req->ackreq_psn) >= every ||
	    rue_psn_diff(req->psn, req->una_psn) + nseg >= req->cwnd.cwnd)
		return true;
	if (!last)
		return false;
	if (req->cur + 1 == req->head && !rue_sq_fetch(qp))
		return true;
	next = rue_swqe(qp, req->cur + 1);
	return next->done || !rue_is_data(next->sqe.opcode) ||
	       (next->sqe.flags & RUE_SQE_FENCE);
}

/*
 * The packet just built, new and asking for an ACK, times the round trip
 * until its ACK (rc_timer.c); one sample in flight at a time.
 */
static void rue_req_rtt_start(struct rue_req *req)
{
	req->rtt_pending = true;
	req->rtt_psn = req->ackreq_psn;
	req->rtt_start = ktime_get();
}

/*
 * req->psn moved on: past the newest PSN built, it is a new one, and the
 * WQE being built (not yet moved past) is the newest started.
 */
static void rue_req_sent(struct rue_req *req)
{
	if (rue_psn_diff(req->psn, req->sent_psn) > 0) {
		req->sent_psn = req->psn;
		req->sent_cur = req->cur;
	}
}

/* Build the next packet of the current WQE; false when blocked. */
static bool rue_req_step(struct rue_qp *qp, struct sk_buff_head *out)
{
	struct rue_req *req = &qp->req;
	struct rue_swqe *w = rue_swqe(qp, req->cur);
	struct sk_buff *skb;
	u32 len, max_rd, nseg;
	bool ackreq, fresh;

	if (w->done) {
		req->cur++;
		req->cur_off = 0;
		return true;
	}
	if ((w->sqe.flags & RUE_SQE_FENCE) && req->cur_off == 0 && req->rd_atomic)
		return false;
	if (rue_psn_diff(req->psn, req->una_psn) >= req->cwnd.cwnd)
		return false;

	if (w->sqe.opcode == RUE_WR_LOCAL_INV || w->sqe.opcode == RUE_WR_REG_MR ||
	    w->sqe.opcode == RUE_WR_BIND_MW) {
		rue_req_local_op(qp, w);
		return true;
	}

	if (rue_is_read_or_atomic(w->sqe.opcode)) {
		max_rd = qp->attr.max_rd_atomic;
		if (!max_rd) {
			w->status = IB_WC_LOC_QP_OP_ERR;
			w->done = 1;
			return true;
		}
		if (req->rd_atomic >= max_rd)
			return false;
		if (w->sqe.opcode == RUE_WR_RDMA_READ) {
			if (!w->read_done) {
				u32 n = rue_npkts(w->sqe.length, qp->mtu);

				w->first_psn = req->psn;
				w->last_psn = rue_psn_add(req->psn, n - 1);
			}
			skb = rue_req_read_pkt(qp, w);
		} else {
			w->first_psn = req->psn;
			w->last_psn = req->psn;
			skb = w->sqe.opcode == RUE_WR_ATOMIC_WRITE ?
			      rue_req_atomic_write_pkt(qp, w) :
			      rue_req_atomic_pkt(qp, w);
		}
		if (!skb)
			return false;
		req->ackreq_psn = req->psn;
		req->psn = rue_psn_add(w->last_psn, 1);
		rue_req_sent(req);
		req->rd_atomic++;
		req->cur++;
		req->cur_off = 0;
		__skb_queue_tail(out, skb);
		return true;
	}

	if (req->cur_off == 0) {
		w->first_psn = req->psn;
		w->last_psn = rue_psn_add(req->psn,
					  rue_npkts(w->sqe.length, qp->mtu) - 1);
	}
	len = rue_req_batch(qp, w, req->cur_off, &nseg);
	ackreq = rue_req_ackreq(qp, nseg, req->cur_off + len == w->sqe.length);
	skb = rue_req_data_pkt(qp, w, req->cur_off, len, nseg, ackreq);
	if (!skb)
		return false;
	fresh = rue_psn_diff(req->psn, req->sent_psn) >= 0;
	req->psn = rue_psn_add(req->psn, nseg);
	rue_req_sent(req);
	req->tlp_ackreq = false;
	if (ackreq) {
		req->ackreq_psn = rue_psn_add(req->psn, -1);
		if (fresh && !req->rtt_pending)
			rue_req_rtt_start(req);
	}
	if (req->unacked)
		req->una_psn = req->psn;
	req->cur_off += len;
	if (req->cur_off >= w->sqe.length) {
		/* UC: sent is done (the packet holds a copy, see above) */
		if (req->unacked)
			w->done = 1;
		req->cur++;
		req->cur_off = 0;
	}
	__skb_queue_tail(out, skb);
	return true;
}

/**
 * rue_req_tx() - build request packets
 * @qp: an RC QP
 * @budget: at most this many packets
 * @out: where the packets go; the caller sends them without req.lock
 * @error: set when a WQE completed in error and the QP must go to error
 *
 * Return: the number of packets built.
 */
int rue_req_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
	       bool *error)
{
	struct rue_req *req = &qp->req;
	int n = 0, before;
	bool idle;

	spin_lock_bh(&req->lock);
	if (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD)
		goto out;
	idle = req->una_psn == req->psn;

	while (n < budget && !req->rnr_wait) {
		if (req->cur == req->head) {
			if (qp->state == IB_QPS_SQD || !rue_sq_fetch(qp)) {
				if (req->una_psn != req->psn || req->bad_prod)
					break;
				/* A poller looks again; it disarms when it stops. */
				if (test_bit(RUE_TX_POLL, &qp->tx_bits))
					break;
				/* Idle: disarm, then look once more. */
				rue_sq_set_armed(qp, false);
				/* flags before prod (RUE_SQ_F_KERNEL_ARMED) */
				smp_mb();
				if (qp->state == IB_QPS_SQD || !rue_sq_fetch(qp))
					break;
			}
			rue_sq_set_armed(qp, true);
		}
		before = skb_queue_len(out);
		if (!rue_req_step(qp, out))
			break;
		n += skb_queue_len(out) - before;
	}
	if (n >= budget)
		rue_sq_set_armed(qp, true);
	if (req->bad_prod)
		*error = true;
	/*
	 * Nothing was in flight: the timer may still be queued for the
	 * deadline of a flight that is long acknowledged (an ACK that
	 * empties the flight leaves it be), and these packets need a
	 * timeout of their own.  Otherwise the oldest packet's deadline
	 * stands.
	 */
	rue_req_arm_rto(qp, idle);
	if (n)
		rue_req_arm_tlp(qp);
	if (rue_sq_retire(qp))
		*error = true;
out:
	spin_unlock_bh(&req->lock);
	return n;
}

/* Entering RTS: start sending at sq_psn. */
void rue_req_start(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;

	lockdep_assert_held(&req->lock);
	req->psn = qp->attr.sq_psn & RUE_BTH_PSN_MASK;
	req->una_psn = req->psn;
	req->ackreq_psn = req->psn;
	req->sent_psn = req->psn;
	/* nothing started yet: the slot before the first (rc_comp.c) */
	req->sent_cur = req->cur - 1;
	req->nak_psn = req->psn - 1;
	bitmap_zero(req->early, RUE_EARLY_BITS);
	req->nr_early = 0;
	req->early_pkts = 0;
	rue_cwnd_init(&req->cwnd);
	req->recover_psn = req->psn;
	req->retry_left = qp->attr.retry_cnt;
	req->rnr_left = qp->attr.rnr_retry;
	req->rnr_wait = false;
	req->rtt_pending = false;
	req->srtt_ns = 0;
	req->rttvar_ns = 0;
	req->tlp_ackreq = false;
	req->tlp_count = 0;
}
