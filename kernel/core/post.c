// SPDX-License-Identifier: GPL-2.0
/*
 * post_send and post_recv.
 *
 * Kernel consumers' work requests are written into the same rings user
 * space fills, in the same format, so one data path serves both.  The
 * producer side of a kernel QP's rings is guarded by post_lock, taken
 * with interrupts saved because consumers post from any context.
 *
 * For user QPs these verbs are doorbells: librue writes its rings itself
 * and calls post_send with no work request (IB_USER_VERBS_CMD_POST_SEND
 * with wr_count 0) when the transmitter may be idle, or post_recv the
 * same way when it posts to a QP in the error state, to have the new
 * WQEs flushed.
 */
#include <linux/highmem.h>

#include "ah.h"
#include "device.h"
#include "engine.h"
#include "post.h"
#include "qp.h"
#include "transport.h"

static int rue_wr_opcode(enum ib_wr_opcode op, u8 *out)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
		*out = RUE_WR_RDMA_WRITE;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		*out = RUE_WR_RDMA_WRITE_WITH_IMM;
		break;
	case IB_WR_SEND:
		*out = RUE_WR_SEND;
		break;
	case IB_WR_SEND_WITH_IMM:
		*out = RUE_WR_SEND_WITH_IMM;
		break;
	case IB_WR_RDMA_READ:
		*out = RUE_WR_RDMA_READ;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		*out = RUE_WR_ATOMIC_CMP_AND_SWP;
		break;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		*out = RUE_WR_ATOMIC_FETCH_AND_ADD;
		break;
	case IB_WR_LOCAL_INV:
		*out = RUE_WR_LOCAL_INV;
		break;
	case IB_WR_SEND_WITH_INV:
		*out = RUE_WR_SEND_WITH_INV;
		break;
	case IB_WR_REG_MR:
		*out = RUE_WR_REG_MR;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* Inline data: kernel SGE addresses are kernel virtual addresses. */
static int rue_post_inline(struct rue_qp *qp, const struct ib_send_wr *wr,
			   struct rue_sqe *sqe)
{
	u8 *dst = (u8 *)(sqe + 1);
	u32 total = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length > qp->max_inline - total)
			return -EINVAL;
		memcpy(dst + total, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		total += wr->sg_list[i].length;
	}
	sqe->length = total;
	sqe->flags |= RUE_SQE_INLINE;
	return 0;
}

static int rue_post_one(struct rue_qp *qp, const struct ib_send_wr *wr,
			struct rue_sqe *sqe)
{
	struct rue_sge *sge = (struct rue_sge *)(sqe + 1);
	int i, err;

	memset(sqe, 0, sizeof(*sqe));
	err = rue_wr_opcode(wr->opcode, &sqe->opcode);
	if (err)
		return err;
	sqe->wr_id = wr->wr_id;
	if (wr->send_flags & IB_SEND_SIGNALED)
		sqe->flags |= RUE_SQE_SIGNALED;
	if (wr->send_flags & IB_SEND_SOLICITED)
		sqe->flags |= RUE_SQE_SOLICITED;
	if (wr->send_flags & IB_SEND_FENCE)
		sqe->flags |= RUE_SQE_FENCE;

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		sqe->imm = (__force u32)wr->ex.imm_data;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		sqe->imm = wr->ex.invalidate_rkey;
		break;
	default:
		break;
	}
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		sqe->remote_addr = rdma_wr(wr)->remote_addr;
		sqe->rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		sqe->remote_addr = atomic_wr(wr)->remote_addr;
		sqe->rkey = atomic_wr(wr)->rkey;
		sqe->compare_add = atomic_wr(wr)->compare_add;
		sqe->swap = atomic_wr(wr)->swap;
		break;
	case IB_WR_REG_MR:
		sqe->remote_addr = (uintptr_t)reg_wr(wr)->mr;
		sqe->rkey = reg_wr(wr)->key;
		sqe->compare_add = reg_wr(wr)->access;
		return 0;
	default:
		break;
	}
	if (qp->xport->flags & RUE_XPORT_AV_PER_WR) {
		if (!ud_wr(wr)->ah)
			return -EINVAL;
		sqe->remote_addr = (uintptr_t)ud_wr(wr)->ah;
		sqe->remote_qpn = ud_wr(wr)->remote_qpn;
		sqe->rkey = ud_wr(wr)->remote_qkey;
	}

	if (wr->send_flags & IB_SEND_INLINE)
		return rue_post_inline(qp, wr, sqe);
	if (wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	sqe->num_sge = wr->num_sge;
	for (i = 0; i < wr->num_sge; i++) {
		sge[i].addr = wr->sg_list[i].addr;
		sge[i].length = wr->sg_list[i].length;
		sge[i].lkey = wr->sg_list[i].lkey;
	}
	return 0;
}

static int rue_post_send_kernel(struct rue_qp *qp, const struct ib_send_wr *wr,
				const struct ib_send_wr **bad_wr)
{
	struct rue_ring *ring = &qp->req.ring;
	unsigned long flags;
	u32 prod;
	int err = 0;

	spin_lock_irqsave(&qp->post_lock, flags);
	/* sends from RTS on (IBTA QP states, as rdma_rxe); in ERR they flush */
	if (READ_ONCE(qp->state) < IB_QPS_RTS) {
		err = -EINVAL;
		*bad_wr = wr;
		goto out;
	}
	prod = ring->hdr->prod;
	for (; wr; wr = wr->next) {
		if (prod - READ_ONCE(ring->hdr->cons) >= ring->nslots) {
			err = -ENOMEM;
			*bad_wr = wr;
			break;
		}
		err = rue_post_one(qp, wr, rue_ring_slot(ring, prod));
		if (err) {
			*bad_wr = wr;
			break;
		}
		prod++;
	}
	/* WQEs before the index that publishes them (rue_sq_prod/rue_rq_prod) */
	smp_store_release(&ring->hdr->prod, prod);
out:
	spin_unlock_irqrestore(&qp->post_lock, flags);
	return err;
}

static void rue_post_doorbell(struct rue_qp *qp)
{
	/*
	 * Running here keeps latency low; but a consumer may post with
	 * interrupts off, where sending is not allowed.
	 */
	if (in_hardirq() || irqs_disabled())
		rue_qp_kick(qp);
	else if (READ_ONCE(qp->state) == IB_QPS_ERR)
		rue_qp_flush(qp);
	else if (qp->user)
		rue_qp_doorbell(qp);
	else
		rue_qp_run(qp);
}

int rue_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	int err = 0;

	if (qp->user) {
		/* User QPs post through their ring; this is the doorbell. */
		if (wr) {
			*bad_wr = wr;
			return -EOPNOTSUPP;
		}
	} else {
		err = rue_post_send_kernel(qp, wr, bad_wr);
	}
	rue_post_doorbell(qp);
	return err;
}

/**
 * rue_post_rqes() - write kernel receive WRs into an RQ or SRQ ring
 * @ring: the ring; the caller holds its producer lock
 * @max_sge: SGEs a WQE may have
 * @wr: the WRs
 * @bad_wr: set to the first WR not posted
 *
 * Return: 0; -EINVAL (too many SGEs) or -ENOMEM (the ring is full) at
 * *@bad_wr, the WRs before it posted.
 */
int rue_post_rqes(struct rue_ring *ring, u32 max_sge,
		  const struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr)
{
	u32 prod = ring->hdr->prod;
	struct rue_rqe *rqe;
	struct rue_sge *sge;
	int err = 0, i;

	for (; wr; wr = wr->next) {
		if (wr->num_sge > max_sge) {
			err = -EINVAL;
			break;
		}
		if (prod - READ_ONCE(ring->hdr->cons) >= ring->nslots) {
			err = -ENOMEM;
			break;
		}
		rqe = rue_ring_slot(ring, prod);
		rqe->wr_id = wr->wr_id;
		rqe->num_sge = wr->num_sge;
		sge = (struct rue_sge *)(rqe + 1);
		for (i = 0; i < wr->num_sge; i++) {
			sge[i].addr = wr->sg_list[i].addr;
			sge[i].length = wr->sg_list[i].length;
			sge[i].lkey = wr->sg_list[i].lkey;
		}
		prod++;
	}
	if (err)
		*bad_wr = wr;
	/* WQEs before the index that publishes them (rue_rq_take()) */
	smp_store_release(&ring->hdr->prod, prod);
	return err;
}

int rue_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	unsigned long flags;
	int err;

	if (qp->user) {
		if (wr) {
			*bad_wr = wr;
			return -EOPNOTSUPP;
		}
		if (READ_ONCE(qp->state) == IB_QPS_ERR)
			rue_qp_flush(qp);
		return 0;
	}
	/* its receive WQEs go to the SRQ (ib_post_srq_recv()) */
	if (qp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}

	spin_lock_irqsave(&qp->post_lock, flags);
	/* receives from INIT on */
	if (READ_ONCE(qp->state) == IB_QPS_RESET) {
		err = -EINVAL;
		*bad_wr = wr;
	} else {
		err = rue_post_rqes(&qp->resp.ring, qp->max_recv_sge, wr,
				    bad_wr);
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);

	if (READ_ONCE(qp->state) == IB_QPS_ERR && !in_hardirq() &&
	    !irqs_disabled())
		rue_qp_flush(qp);
	return err;
}
