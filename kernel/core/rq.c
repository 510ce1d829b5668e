// SPDX-License-Identifier: GPL-2.0
/*
 * Receive queue consumer: the responder and the UD receive path take
 * receive WQEs here, under resp.lock.
 *
 * A receive WQE is copied out of the ring when a message needs it, and
 * its lkeys are checked then (local write access, in range).  The slot is
 * released to the producer at once; the WQE's data lives in the caller's
 * struct rue_ksge array until it completes.
 */
#include "caps.h"
#include "cq.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "rq.h"
#include "sgl.h"
#include "srq.h"

static bool rue_rq_prod(struct rue_qp *qp, u32 *prod)
{
	/* pairs with the producer's release: the RQE before the index */
	u32 p = smp_load_acquire(&qp->resp.ring.hdr->prod);

	if (unlikely(p - qp->resp.rq_cons > qp->resp.ring.nslots))
		return false;
	*prod = p;
	return true;
}

/* @num_sge was read once from the slot; @sge points into the slot. */
static u8 rue_rqe_check(struct ib_pd *pd, u32 max_sge, u32 num_sge,
			const struct rue_sge *sge, struct rue_ksge *sg,
			struct rue_rqe_info *info)
{
	struct rue_dev *rdev = to_rue_dev(pd->device);
	enum rue_mr_err merr;
	u64 total = 0;
	u32 i;

	info->num_sge = 0;
	if (num_sge > max_sge)
		return IB_WC_LOC_QP_OP_ERR;
	for (i = 0; i < num_sge; i++) {
		struct rue_sge s;

		memcpy(&s, &sge[i], sizeof(s));
		sg[i].addr = s.addr;
		sg[i].length = s.length;
		sg[i].mr = NULL;
		info->num_sge = i + 1;
		if (!s.length)
			continue;
		sg[i].mr = rue_mr_get(rdev, s.lkey, false, pd,
				      IB_ACCESS_LOCAL_WRITE, &merr);
		if (!sg[i].mr || !rue_mr_in_range(sg[i].mr, s.addr, s.length))
			return IB_WC_LOC_PROT_ERR;
		total += s.length;
	}
	info->len = min_t(u64, total, RUE_MAX_MSG_BYTES);
	return IB_WC_SUCCESS;
}

/**
 * rue_rqe_read() - copy a receive WQE out of its slot and check it
 * @ring: an RQ or SRQ ring; the caller owns its consumer index
 * @index: the consumer index of the slot
 * @pd: the PD the WQE's lkeys must belong to
 * @max_sge: SGEs the queue was created for
 * @sg: room for @max_sge SGEs (references taken, also on error)
 * @info: the WQE's id, size and check result
 *
 * The slot may be rewritten by the user at any time: every field is read
 * once, from a copy.
 */
void rue_rqe_read(const struct rue_ring *ring, u32 index, struct ib_pd *pd,
		  u32 max_sge, struct rue_ksge *sg, struct rue_rqe_info *info)
{
	const struct rue_rqe *slot = rue_ring_slot(ring, index);
	struct rue_rqe rqe;

	memcpy(&rqe, slot, sizeof(rqe));
	info->wr_id = rqe.wr_id;
	info->len = 0;
	info->status = rue_rqe_check(pd, max_sge, rqe.num_sge,
				     (const struct rue_sge *)(slot + 1), sg,
				     info);
}

/**
 * rue_rq_take() - take the next receive WQE, from the QP's RQ or SRQ
 * @qp: the QP, resp.lock held
 * @sg: room for qp->max_recv_sge checked SGEs (references taken)
 * @info: the WQE's id, size and check result
 *
 * Return: 0; -EAGAIN when the queue is empty (RNR); -EIO when the
 * producer index is garbage.
 */
int rue_rq_take(struct rue_qp *qp, struct rue_ksge *sg,
		struct rue_rqe_info *info)
{
	struct rue_resp *resp = &qp->resp;
	u32 prod;

	lockdep_assert_held(&resp->lock);
	if (qp->srq)
		return rue_srq_take(qp->srq, sg, info);
	if (!rue_rq_prod(qp, &prod))
		return -EIO;
	if (prod == resp->rq_cons)
		return -EAGAIN;

	rue_rqe_read(&resp->ring, resp->rq_cons, qp->ibqp.pd, qp->max_recv_sge,
		     sg, info);
	resp->rq_cons++;
	/* done reading the slots before the producer may reuse them */
	smp_store_release(&resp->ring.hdr->cons, resp->rq_cons);
	return 0;
}

/* RoCEv2 has no SL on the wire: a datagram's sl names its L3 header. */
static u8 rue_rq_cqe_sl(u8 flags)
{
	if (!(flags & RUE_CQE_F_GRH))
		return 0;
	return RUE_CQE_SL_UDP | ((flags & RUE_CQE_F_IPV4) ? RUE_CQE_SL_IPV4 :
							   RUE_CQE_SL_IPV6);
}

void rue_rq_complete(struct rue_qp *qp, const struct rue_rqe_info *info,
		     u8 status, u8 opcode, u32 byte_len, u8 flags, u64 imm,
		     u32 src_qp, bool solicited)
{
	struct rue_cqe cqe = {
		.wr_id = info->wr_id,
		.status = status,
		.opcode = opcode,
		.flags = flags,
		.sl = rue_rq_cqe_sl(flags),
		.byte_len = byte_len,
		.qp_num = qp->ibqp.qp_num,
		.src_qp = src_qp,
		.imm = imm,
	};

	rue_qp_complete(qp, qp->rcq, &cqe, solicited);
}

/* Complete every receive WQE left with IB_WC_WR_FLUSH_ERR. */
void rue_rq_flush(struct rue_qp *qp)
{
	struct rue_resp *resp = &qp->resp;
	struct rue_rqe_info info = {};
	const struct rue_rqe *slot;
	u32 prod;

	lockdep_assert_held(&resp->lock);
	if (qp->srq || !resp->ring.buf || !rue_rq_prod(qp, &prod))
		return;
	while (resp->rq_cons != prod) {
		slot = rue_ring_slot(&resp->ring, resp->rq_cons);
		info.wr_id = READ_ONCE(slot->wr_id);
		rue_rq_complete(qp, &info, IB_WC_WR_FLUSH_ERR, RUE_WC_RECV, 0,
				0, 0, 0, false);
		resp->rq_cons++;
	}
	/* done reading the slots before the producer may reuse them */
	smp_store_release(&resp->ring.hdr->cons, resp->rq_cons);
}

/* Drop every receive WQE without completions: the QP went to RESET. */
void rue_rq_reset(struct rue_qp *qp)
{
	struct rue_resp *resp = &qp->resp;
	u32 prod;

	lockdep_assert_held(&resp->lock);
	if (qp->srq || !resp->ring.buf)
		return;
	if (rue_rq_prod(qp, &prod))
		resp->rq_cons = prod;
	/* done reading the slots before the producer may reuse them */
	smp_store_release(&resp->ring.hdr->cons, resp->rq_cons);
}
