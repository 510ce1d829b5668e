// SPDX-License-Identifier: GPL-2.0
/*
 * Send queue consumer: taking WQEs from the ring, validating them, and
 * retiring them in order with their completions.
 *
 * Every WQE is copied out of the ring exactly once, when the transport
 * first needs it (rue_sq_fetch()), into the QP's shadow slot; the copy is
 * what the kernel uses from then on, so a process that rewrites a slot it
 * already posted only confuses itself.  Each field is checked against the
 * QP's limits and each lkey against the MR table; a WQE that fails is
 * marked done with a local error and completes in its turn, which moves
 * the QP to the error state (IBTA 10.8.3.1).
 *
 * All of this runs under req.lock.
 */
#include "ah.h"
#include "caps.h"
#include "cq.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "sgl.h"
#include "sq.h"
#include "transport.h"

/*
 * The producer index, if it can be believed.  User space owns it and may
 * write anything there at any time: it must lie between what was fetched
 * (head) and a full ring (tail + nslots), in wrap-safe arithmetic.  One
 * that moved backwards would have the fetch loop run until head wraps
 * around to it (2^32 steps under req.lock), fetching over WQEs still in
 * flight.
 */
static bool rue_sq_prod(struct rue_qp *qp, u32 *prod)
{
	const struct rue_req *req = &qp->req;
	/* pairs with the producer's release: the WQE before the index */
	u32 p = smp_load_acquire(&req->ring.hdr->prod);
	u32 room = req->ring.nslots - (req->head - req->tail);

	if (unlikely(p - req->head > room))
		return false;
	*prod = p;
	return true;
}

bool rue_sq_more(struct rue_qp *qp)
{
	u32 prod;

	return qp->req.head != qp->req.cur + 1 ||
	       (rue_sq_prod(qp, &prod) && prod != qp->req.head);
}

static bool rue_op_writes_local(u8 op)
{
	return op == RUE_WR_RDMA_READ || op == RUE_WR_ATOMIC_CMP_AND_SWP ||
	       op == RUE_WR_ATOMIC_FETCH_AND_ADD;
}

/* Check the SGEs: lkeys, rights, ranges; sum the length. */
static u8 rue_sq_check_sges(struct rue_qp *qp, struct rue_swqe *w,
			    const struct rue_sge *sge)
{
	int access = rue_op_writes_local(w->sqe.opcode) ? IB_ACCESS_LOCAL_WRITE : 0;
	enum rue_mr_err merr;
	u64 total = 0;
	u32 i;

	for (i = 0; i < w->num_sge; i++) {
		struct rue_ksge *k = &w->sg[i];

		k->addr = sge[i].addr;
		k->length = sge[i].length;
		if (!k->length)
			continue;
		k->mr = rue_mr_get(qp->rdev, sge[i].lkey, false, qp->ibqp.pd,
				   access, &merr);
		if (!k->mr || !rue_mr_in_range(k->mr, k->addr, k->length))
			return IB_WC_LOC_PROT_ERR;
		total += k->length;
	}
	if (total > RUE_MAX_MSG_BYTES)
		return IB_WC_LOC_LEN_ERR;
	w->sqe.length = total;
	return IB_WC_SUCCESS;
}

/**
 * rue_sq_wqe_av() - the address vector of a WQE that names its peer
 * @qp: a QP whose transport sends each WQE to an AH, req.lock held
 * @w: the WQE being fetched
 *
 * User QPs name the AH by its number, kernel QPs pass the AH itself
 * (post.c).
 *
 * Return: an IB_WC_* status.
 */
u8 rue_sq_wqe_av(struct rue_qp *qp, struct rue_swqe *w)
{
	if (!qp->user) {
		w->av = to_rue_ah((struct ib_ah *)(uintptr_t)w->sqe.remote_addr)->av;
		return IB_WC_SUCCESS;
	}
	if (rue_ah_lookup_av(qp->rdev, qp->ibqp.pd, w->sqe.ah, &w->av))
		return IB_WC_LOC_QP_OP_ERR;
	return IB_WC_SUCCESS;
}

static u8 rue_sq_check(struct rue_qp *qp, struct rue_swqe *w, const void *slot)
{
	const struct rue_sqe *sqe = &w->sqe;
	u8 status;

	if (!qp->xport->op_valid(qp, sqe->opcode))
		return IB_WC_LOC_QP_OP_ERR;

	if (sqe->opcode == RUE_WR_LOCAL_INV || sqe->opcode == RUE_WR_REG_MR ||
	    sqe->opcode == RUE_WR_BIND_MW) {
		w->num_sge = 0;
		return IB_WC_SUCCESS;
	}

	if (sqe->flags & RUE_SQE_INLINE) {
		if (rue_op_writes_local(sqe->opcode) || sqe->length > qp->max_inline)
			return IB_WC_LOC_QP_OP_ERR;
		memcpy(w->inline_data, slot + sizeof(*sqe), sqe->length);
		w->num_sge = 0;
	} else {
		if (sqe->num_sge > qp->max_send_sge)
			return IB_WC_LOC_QP_OP_ERR;
		w->num_sge = sqe->num_sge;
		status = rue_sq_check_sges(qp, w, slot + sizeof(*sqe));
		if (status != IB_WC_SUCCESS)
			return status;
	}

	switch (sqe->opcode) {
	case RUE_WR_ATOMIC_CMP_AND_SWP:
	case RUE_WR_ATOMIC_FETCH_AND_ADD:
		if (w->sqe.length < sizeof(u64) || (sqe->remote_addr & 7))
			return IB_WC_LOC_QP_OP_ERR;
		w->sqe.length = sizeof(u64);
		break;
	case RUE_WR_ATOMIC_WRITE:
		/* its 8 bytes are in the slot (compare_add), not in SGEs */
		if (w->num_sge || (sqe->flags & RUE_SQE_INLINE) ||
		    (sqe->remote_addr & 7))
			return IB_WC_LOC_QP_OP_ERR;
		w->sqe.length = sizeof(u64);
		break;
	}

	if (qp->xport->check_wqe)
		return qp->xport->check_wqe(qp, w);
	return IB_WC_SUCCESS;
}

/**
 * rue_sq_fetch() - copy and check the next WQE from the ring
 * @qp: the QP, req.lock held
 *
 * Return: false if the ring holds no new WQE (or a garbage producer
 * index, which also moves the QP to error), true if qp->req.head advanced.
 */
bool rue_sq_fetch(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	struct rue_swqe *w;
	const void *slot;
	u32 prod;

	lockdep_assert_held(&req->lock);
	if (!rue_sq_prod(qp, &prod)) {
		req->bad_prod = true;
		return false;
	}
	if (prod == req->head)
		return false;

	slot = rue_ring_slot(&req->ring, req->head);
	w = rue_swqe(qp, req->head);
	memset(w, 0, sizeof(*w));
	memcpy(&w->sqe, slot, sizeof(w->sqe));
	w->status = rue_sq_check(qp, w, slot);
	if (w->status != IB_WC_SUCCESS)
		w->done = 1;
	WRITE_ONCE(req->last_small, w->sqe.length <= qp->mtu);
	req->head++;
	return true;
}

/*
 * Whether the transmitter will look at the ring again without a
 * doorbell: yes while an ACK, a timer, a queued run or a poller is due.
 * See RUE_SQ_F_KERNEL_ARMED in the ABI header for the handshake.
 * req.lock held.
 */
void rue_sq_set_armed(struct rue_qp *qp, bool armed)
{
	u32 *flags = &qp->req.ring.hdr->flags;

	if (!qp->user)
		return;
	WRITE_ONCE(*flags, armed ? RUE_SQ_F_KERNEL_ARMED : 0);
}

static u8 rue_wc_opcode(u8 op)
{
	switch (op) {
	case RUE_WR_RDMA_WRITE:
	case RUE_WR_RDMA_WRITE_WITH_IMM:
		return RUE_WC_RDMA_WRITE;
	case RUE_WR_RDMA_READ:
		return RUE_WC_RDMA_READ;
	case RUE_WR_ATOMIC_CMP_AND_SWP:
		return RUE_WC_COMP_SWAP;
	case RUE_WR_ATOMIC_FETCH_AND_ADD:
		return RUE_WC_FETCH_ADD;
	case RUE_WR_ATOMIC_WRITE:
		return RUE_WC_ATOMIC_WRITE;
	case RUE_WR_LOCAL_INV:
		return RUE_WC_LOCAL_INV;
	case RUE_WR_BIND_MW:
		return RUE_WC_BIND_MW;
	case RUE_WR_REG_MR:
		return RUE_WC_REG_MR;
	default:
		return RUE_WC_SEND;
	}
}

void rue_swqe_release(struct rue_qp *qp, struct rue_swqe *w)
{
	if (!(w->sqe.flags & RUE_SQE_INLINE))
		rue_sgl_put(w->sg, w->num_sge);
}

static void rue_sq_complete(struct rue_qp *qp, struct rue_swqe *w, u8 status);

/*
 * Retire the tail WQE.  Its ring slot is released before its completion
 * is posted: a consumer that sees the completion may post again at once
 * and must find the slot free.  The kernel's copy in w stays valid while
 * req.lock is held.
 */
static void rue_sq_pop(struct rue_qp *qp, struct rue_swqe *w, u8 status)
{
	qp->req.tail++;
	/* done with the slot (w is our copy) before the producer reuses it */
	smp_store_release(&qp->req.ring.hdr->cons, qp->req.tail);
	rue_sq_complete(qp, w, status);
	rue_swqe_release(qp, w);
}

static void rue_sq_complete(struct rue_qp *qp, struct rue_swqe *w, u8 status)
{
	struct rue_cqe cqe = {
		.wr_id = w->sqe.wr_id,
		.status = status,
		.opcode = rue_wc_opcode(w->sqe.opcode),
		.byte_len = w->sqe.length,
		.qp_num = qp->ibqp.qp_num,
	};

	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(w->sqe.flags & RUE_SQE_SIGNALED))
		return;
	rue_qp_complete(qp, qp->scq, &cqe, false);
}

/**
 * rue_sq_retire() - complete done WQEs at the tail, in order
 * @qp: the QP, req.lock held
 *
 * Return: true if a WQE completed in error; the caller moves the QP to
 * the error state (rue_qp_error()), which flushes the rest.
 */
bool rue_sq_retire(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	bool failed = false;

	lockdep_assert_held(&req->lock);
	while (req->tail != req->head && !failed) {
		struct rue_swqe *w = rue_swqe(qp, req->tail);

		if (!w->done)
			break;
		failed = w->status != IB_WC_SUCCESS;
		rue_sq_pop(qp, w, w->status);
	}
	/* cur never points at a retired WQE */
	if ((s32)(req->cur - req->tail) < 0) {
		req->cur = req->tail;
		req->cur_off = 0;
	}
	rue_sq_drained_check(qp);
	return failed;
}

/**
 * rue_sq_drained_check() - the SQ_DRAINED event, once the SQ drained
 * @qp: the QP, req.lock held
 *
 * In SQD the QP starts no new WQE, and once every WQE it began has
 * completed (nothing fetched is left unretired) the SQ is drained: the
 * affiliated SQ_DRAINED event (IBTA 11.6.3.1) is due, once per entry into
 * SQD, if the consumer asked for it (IB_QP_EN_SQD_ASYNC_NOTIFY).
 * rue_qp_notify() raises it, with no lock held.
 */
void rue_sq_drained_check(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;

	lockdep_assert_held(&req->lock);
	if (qp->state != IB_QPS_SQD || req->drained_event ||
	    !qp->attr.en_sqd_async_notify || req->tail != req->head)
		return;
	req->drained_event = true;
	set_bit(RUE_PEND_SQ_DRAINED, &qp->pend_bits);
}

/**
 * rue_sq_retire_all() - complete done WQEs at the tail, failed ones too
 * @qp: a UET QP, req.lock held
 *
 * A failed WQE of a UET QP concerns its peer only: the QP goes on.
 */
void rue_sq_retire_all(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;

	lockdep_assert_held(&req->lock);
	while (req->tail != req->head) {
		struct rue_swqe *w = rue_swqe(qp, req->tail);

		if (!w->done)
			break;
		rue_sq_pop(qp, w, w->status);
	}
}

/**
 * rue_sq_flush() - complete every WQE, fetched or still in the ring
 * @qp: the QP, in the error state, req.lock held
 *
 * A WQE that already failed keeps its status; the rest complete with
 * IB_WC_WR_FLUSH_ERR, signaled or not (IBTA 10.8.3.3).
 */
void rue_sq_flush(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;

	lockdep_assert_held(&req->lock);
	while (rue_sq_fetch(qp))
		;
	while (req->tail != req->head) {
		struct rue_swqe *w = rue_swqe(qp, req->tail);

		rue_sq_pop(qp, w, w->status != IB_WC_SUCCESS ?
			   w->status : IB_WC_WR_FLUSH_ERR);
	}
	req->cur = req->tail;
	req->cur_off = 0;
	req->rd_atomic = 0;
}

/* Drop every WQE without completions: the QP went to RESET. */
void rue_sq_reset(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	u32 prod;

	lockdep_assert_held(&req->lock);
	while (req->tail != req->head) {
		rue_swqe_release(qp, rue_swqe(qp, req->tail));
		req->tail++;
	}
	if (rue_sq_prod(qp, &prod))
		req->tail = prod;
	req->head = req->tail;
	req->cur = req->tail;
	req->cur_off = 0;
	req->rd_atomic = 0;
	req->bad_prod = false;
	/* done with the slots before the producer reuses them */
	smp_store_release(&req->ring.hdr->cons, req->tail);
}
