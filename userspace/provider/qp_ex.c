// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The extended QP API (ibv_qp_ex, IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) and the
 * ruedv_wr_set_*() calls that extend it for UET QPs.
 *
 * A batch runs from wr_start to wr_complete (or wr_abort) under sq_lock.
 * Each ibv_wr_<op>() starts a WQE in the next free slot past the
 * producer index, and the setters that follow fill it in place, through
 * the same slot builders ibv_post_send() uses (qp.c).  Nothing is visible
 * to the kernel until wr_complete publishes prod, so an abort, or an
 * error anywhere in the batch, just leaves prod where it was: nothing of
 * the batch is posted.  The void setters cannot report errors; the first
 * one is kept in wr_err and returned by wr_complete.
 */
#include <errno.h>
#include <string.h>

#include "rue.h"
#include "ruedv.h"

/* Records the first error of the batch; later calls then do nothing. */
static void rue_wr_fail(struct rue_qp *qp, int err)
{
	if (!qp->wr_err)
		qp->wr_err = err;
	qp->wr_cur = NULL;
}

/*
 * A WQE is complete when it can be sent: UD and UET WQEs must have been
 * given their destination.
 */
static void rue_wr_finish_cur(struct rue_qp *qp)
{
	if (!qp->wr_cur)
		return;
	if ((qp->uet || qp->vqp.qp.qp_type == IBV_QPT_UD) && !qp->wr_cur_addr)
		rue_wr_fail(qp, EINVAL);
	qp->wr_cur = NULL;
}

/* Starts a WQE for @op in the next slot; NULL once the batch failed. */
static struct rue_sqe *rue_wr_begin(struct ibv_qp_ex *qpx,
				    enum ibv_wr_opcode op)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	struct rue_sqe *sqe;
	int err;

	rue_wr_finish_cur(qp);
	if (qp->wr_err)
		return NULL;
	err = rue_qp_check_op(qp, op);
	if (err) {
		rue_wr_fail(qp, err);
		return NULL;
	}
	sqe = rue_sq_next_slot(qp, qp->wr_n, &qp->wr_cons);
	if (!sqe) {
		rue_wr_fail(qp, ENOMEM);
		return NULL;
	}
	rue_sqe_init(sqe, qpx->wr_id, op, qpx->wr_flags);
	qp->wr_n++;
	qp->wr_cur = sqe;
	qp->wr_cur_op = op;
	qp->wr_cur_addr = false;
	return sqe;
}

/* The current WQE for a setter; an error when there is none. */
static struct rue_sqe *rue_wr_cur(struct rue_qp *qp)
{
	if (!qp->wr_cur && !qp->wr_err)
		rue_wr_fail(qp, EINVAL);
	return qp->wr_cur;
}

static void rue_wr_start(struct ibv_qp_ex *qpx)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);

	pthread_spin_lock(&qp->sq_lock);
	qp->wr_cons = __atomic_load_n(&qp->sq.hdr->cons, __ATOMIC_ACQUIRE);
	qp->wr_n = 0;
	qp->wr_err = 0;
	qp->wr_cur = NULL;
}

static int rue_wr_complete(struct ibv_qp_ex *qpx)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	int err;

	rue_wr_finish_cur(qp);
	err = qp->wr_err;
	if (!err && qp->wr_n)
		err = rue_qp_can_post(&qp->sq, true);
	if (!err)
		err = rue_sq_publish(qp, qp->wr_n);
	qp->wr_n = 0;
	pthread_spin_unlock(&qp->sq_lock);
	return err;
}

static void rue_wr_abort(struct ibv_qp_ex *qpx)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);

	qp->wr_cur = NULL;
	qp->wr_n = 0;
	pthread_spin_unlock(&qp->sq_lock);
}

/* ------------------------------------------------------------------ */
/* Operations                                                          */

static void rue_wr_send(struct ibv_qp_ex *qpx)
{
	rue_wr_begin(qpx, IBV_WR_SEND);
}

static void rue_wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	struct rue_sqe *sqe = rue_wr_begin(qpx, IBV_WR_SEND_WITH_IMM);

	if (sqe)
		sqe->imm = imm;		/* kept big-endian, as post_send */
}

static void rue_wr_send_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct rue_sqe *sqe = rue_wr_begin(qpx, IBV_WR_SEND_WITH_INV);

	if (sqe)
		sqe->imm = rkey;
}

static void rue_wr_rdma(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op,
			uint32_t rkey, uint64_t remote_addr, __be32 imm)
{
	struct rue_sqe *sqe = rue_wr_begin(qpx, op);

	if (!sqe)
		return;
	sqe->rkey = rkey;
	sqe->remote_addr = remote_addr;
	sqe->imm = imm;
}

static void rue_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t remote_addr)
{
	rue_wr_rdma(qpx, IBV_WR_RDMA_WRITE, rkey, remote_addr, 0);
}

static void rue_wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
				  uint64_t remote_addr, __be32 imm)
{
	rue_wr_rdma(qpx, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, remote_addr, imm);
}

static void rue_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			     uint64_t remote_addr)
{
	rue_wr_rdma(qpx, IBV_WR_RDMA_READ, rkey, remote_addr, 0);
}

static void rue_wr_atomic(struct ibv_qp_ex *qpx, enum ibv_wr_opcode op,
			  uint32_t rkey, uint64_t remote_addr,
			  uint64_t compare_add, uint64_t swap)
{
	struct rue_sqe *sqe = rue_wr_begin(qpx, op);

	if (!sqe)
		return;
	sqe->rkey = rkey;
	sqe->remote_addr = remote_addr;
	sqe->compare_add = compare_add;
	sqe->swap = swap;
}

static void rue_wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
				  uint64_t remote_addr, uint64_t compare,
				  uint64_t swap)
{
	rue_wr_atomic(qpx, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, remote_addr,
		      compare, swap);
}

static void rue_wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				    uint64_t remote_addr, uint64_t add)
{
	rue_wr_atomic(qpx, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, remote_addr,
		      add, 0);
}

static void rue_wr_local_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct rue_sqe *sqe = rue_wr_begin(qpx, IBV_WR_LOCAL_INV);

	if (sqe)
		sqe->imm = rkey;
}

/*
 * RDMA ATOMIC WRITE (RC, IBTA annex A19.4.2): the 8 bytes at @atomic_wr
 * go into the slot as they are (rue-abi.h), to be stored at the target as
 * they are.  It has no local data: an SGE or inline setter after it
 * fails the batch.
 */
static void rue_wr_atomic_write(struct ibv_qp_ex *qpx, uint32_t rkey,
				uint64_t remote_addr, const void *atomic_wr)
{
	struct rue_sqe *sqe;

	if (!atomic_wr) {
		rue_wr_fail(qpx_to_rqp(qpx), EINVAL);
		return;
	}
	sqe = rue_wr_begin(qpx, IBV_WR_ATOMIC_WRITE);
	if (!sqe)
		return;
	sqe->rkey = rkey;
	sqe->remote_addr = remote_addr;
	memcpy(&sqe->compare_add, atomic_wr, sizeof(sqe->compare_add));
}

/* Type 2 windows only: type 1 windows take the bind verb (mw.c). */
static void rue_wr_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw,
			   uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	struct rue_sqe *sqe;
	int err;

	if (!mw || mw->type != IBV_MW_TYPE_2) {
		rue_wr_fail(qp, EINVAL);
		return;
	}
	sqe = rue_wr_begin(qpx, IBV_WR_BIND_MW);
	if (!sqe)
		return;
	err = rue_sqe_set_bind(sqe, mw, rkey, info);
	if (err)
		rue_wr_fail(qp, err);
}

/* Operations rue has no slot for: the batch fails with EOPNOTSUPP. */
static void rue_wr_send_tso(struct ibv_qp_ex *qpx, void *hdr, uint16_t hdr_sz,
			    uint16_t mss)
{
	rue_wr_fail(qpx_to_rqp(qpx), EOPNOTSUPP);
}

static void rue_wr_set_xrc_srqn(struct ibv_qp_ex *qpx, uint32_t srqn)
{
	rue_wr_fail(qpx_to_rqp(qpx), EOPNOTSUPP);
}

/* ------------------------------------------------------------------ */
/* Setters of the current WQE                                          */

static void rue_wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
			       uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	struct rue_sqe *sqe = rue_wr_cur(qp);

	if (!sqe)
		return;
	if ((!qp->uet && qp->vqp.qp.qp_type != IBV_QPT_UD) || !ah) {
		rue_wr_fail(qp, EINVAL);
		return;
	}
	rue_sqe_set_dest(qp, sqe, ah, remote_qpn, remote_qkey);
	qp->wr_cur_addr = true;
}

/* Operations with no local data: LOCAL_INV, ATOMIC WRITE. */
static bool rue_wr_takes_data(enum ibv_wr_opcode op)
{
	return op != IBV_WR_LOCAL_INV && op != IBV_WR_ATOMIC_WRITE;
}

/* Inline data and SGEs replace each other: the last setter wins. */
static struct rue_sqe *rue_wr_cur_data(struct rue_qp *qp, bool inl)
{
	struct rue_sqe *sqe = rue_wr_cur(qp);

	if (!sqe)
		return NULL;
	if (!rue_wr_takes_data(qp->wr_cur_op) ||
	    (inl && (qp->wr_cur_op == IBV_WR_RDMA_READ ||
		     qp->wr_cur_op == IBV_WR_ATOMIC_CMP_AND_SWP ||
		     qp->wr_cur_op == IBV_WR_ATOMIC_FETCH_AND_ADD))) {
		rue_wr_fail(qp, EINVAL);
		return NULL;
	}
	sqe->flags &= ~RUE_SQE_INLINE;
	sqe->length = 0;
	sqe->num_sge = 0;
	return sqe;
}

static void rue_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t n,
				const struct ibv_sge *sg)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	struct rue_sqe *sqe = rue_wr_cur_data(qp, false);
	int err;

	if (!sqe)
		return;
	err = rue_sqe_set_sges(qp, sqe, sg, n);
	if (err)
		rue_wr_fail(qp, err);
}

static void rue_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey,
			   uint64_t addr, uint32_t length)
{
	const struct ibv_sge sge = {
		.addr = addr,
		.length = length,
		.lkey = lkey,
	};

	rue_wr_set_sge_list(qpx, 1, &sge);
}

static void rue_wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t n,
					const struct ibv_data_buf *buf)
{
	struct rue_qp *qp = qpx_to_rqp(qpx);
	struct rue_sqe *sqe = rue_wr_cur_data(qp, true);
	size_t i;
	int err;

	if (!sqe)
		return;
	sqe->flags |= RUE_SQE_INLINE;
	for (i = 0; i < n; i++) {
		err = rue_sqe_add_inline(qp, sqe, buf[i].addr, buf[i].length);
		if (err) {
			rue_wr_fail(qp, err);
			return;
		}
	}
}

static void rue_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
				   size_t length)
{
	const struct ibv_data_buf buf = {
		.addr = addr,
		.length = length,
	};

	rue_wr_set_inline_data_list(qpx, 1, &buf);
}

void rue_qp_init_ex(struct rue_qp *qp)
{
	struct ibv_qp_ex *qpx = &qp->vqp.qp_ex;

	qp->vqp.comp_mask |= VERBS_QP_EX;
	qpx->wr_start = rue_wr_start;
	qpx->wr_complete = rue_wr_complete;
	qpx->wr_abort = rue_wr_abort;
	qpx->wr_send = rue_wr_send;
	qpx->wr_send_imm = rue_wr_send_imm;
	qpx->wr_send_inv = rue_wr_send_inv;
	qpx->wr_send_tso = rue_wr_send_tso;
	qpx->wr_rdma_write = rue_wr_rdma_write;
	qpx->wr_rdma_write_imm = rue_wr_rdma_write_imm;
	qpx->wr_rdma_read = rue_wr_rdma_read;
	qpx->wr_atomic_cmp_swp = rue_wr_atomic_cmp_swp;
	qpx->wr_atomic_fetch_add = rue_wr_atomic_fetch_add;
	qpx->wr_atomic_write = rue_wr_atomic_write;
	qpx->wr_bind_mw = rue_wr_bind_mw;
	qpx->wr_local_inv = rue_wr_local_inv;
	qpx->wr_set_ud_addr = rue_wr_set_ud_addr;
	qpx->wr_set_xrc_srqn = rue_wr_set_xrc_srqn;
	qpx->wr_set_sge = rue_wr_set_sge;
	qpx->wr_set_sge_list = rue_wr_set_sge_list;
	qpx->wr_set_inline_data = rue_wr_set_inline_data;
	qpx->wr_set_inline_data_list = rue_wr_set_inline_data_list;
}

/* ------------------------------------------------------------------ */
/* ruedv_wr_set_*(): UET extensions of the current WQE                  */

/*
 * The UET QP behind @qpx, or NULL for another device's QP (left alone:
 * its batch is not ours to fail) or a rue QP that is not UET (its batch
 * fails with EINVAL).
 */
static struct rue_qp *rue_wr_uet_qp(struct ibv_qp_ex *qpx)
{
	struct rue_qp *qp;

	if (!rue_is_rue_ctx(qpx->qp_base.context))
		return NULL;
	qp = qpx_to_rqp(qpx);
	if (!qp->uet) {
		rue_wr_fail(qp, EINVAL);
		return NULL;
	}
	return qp;
}

RUEDV_EXPORT void ruedv_wr_set_peer(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
				    uint32_t remote_addr)
{
	if (rue_wr_uet_qp(qpx))
		rue_wr_set_ud_addr(qpx, ah, remote_addr, 0);
}

RUEDV_EXPORT void ruedv_wr_set_key64(struct ibv_qp_ex *qpx, uint64_t key64)
{
	struct rue_qp *qp = rue_wr_uet_qp(qpx);
	struct rue_sqe *sqe;

	if (!qp || !(sqe = rue_wr_cur(qp)))
		return;
	if (!(to_rctx(qpx->qp_base.context)->uet_caps & RUE_UET_CAP_KEY64)) {
		rue_wr_fail(qp, EOPNOTSUPP);
		return;
	}
	switch (qp->wr_cur_op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		sqe->rkey = key64;
		break;
	default:
		rue_wr_fail(qp, EINVAL);
	}
}

/* 64-bit SES header data; a SEND or WRITE becomes one with immediate. */
RUEDV_EXPORT void ruedv_wr_set_imm64(struct ibv_qp_ex *qpx, uint64_t imm)
{
	struct rue_qp *qp = rue_wr_uet_qp(qpx);
	struct rue_sqe *sqe;

	if (!qp || !(sqe = rue_wr_cur(qp)))
		return;
	if (!(to_rctx(qpx->qp_base.context)->uet_caps & RUE_UET_CAP_IMM64)) {
		rue_wr_fail(qp, EOPNOTSUPP);
		return;
	}
	switch (qp->wr_cur_op) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		qp->wr_cur_op = IBV_WR_SEND_WITH_IMM;
		sqe->opcode = RUE_WR_SEND_WITH_IMM;
		break;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		qp->wr_cur_op = IBV_WR_RDMA_WRITE_WITH_IMM;
		sqe->opcode = RUE_WR_RDMA_WRITE_WITH_IMM;
		break;
	default:
		rue_wr_fail(qp, EINVAL);
		return;
	}
	sqe->imm = imm;
}
