// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs.  Work requests go straight into the rings the kernel
 * mapped for us; a system call happens only as a doorbell, when the
 * kernel's transmitter may be idle (RUE_SQ_F_KERNEL_ARMED clear), or to
 * have WQEs posted to a QP in the error state flushed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rue.h"

struct rue_create_qp_cmd_full {
	struct ibv_create_qp ibv_cmd;
	struct rue_create_qp_cmd drv;
};

struct rue_create_qp_resp_full {
	struct ib_uverbs_create_qp_resp ibv_resp;
	struct rue_create_qp_resp drv;
};

static void rue_qp_init_doorbells(struct rue_qp *qp)
{
	qp->sq_db.hdr.command = IB_USER_VERBS_CMD_POST_SEND;
	qp->sq_db.hdr.in_words = sizeof(qp->sq_db) / 4;
	qp->sq_db.hdr.out_words = sizeof(qp->sq_db_resp) / 4;
	qp->sq_db.core_payload.response = (uintptr_t)&qp->sq_db_resp;
	qp->sq_db.core_payload.qp_handle = qp->vqp.qp.handle;
	qp->sq_db.core_payload.wqe_size = sizeof(struct ib_uverbs_send_wr);

	qp->rq_db.hdr.command = IB_USER_VERBS_CMD_POST_RECV;
	qp->rq_db.hdr.in_words = sizeof(qp->rq_db) / 4;
	qp->rq_db.hdr.out_words = sizeof(qp->rq_db_resp) / 4;
	qp->rq_db.core_payload.response = (uintptr_t)&qp->rq_db_resp;
	qp->rq_db.core_payload.qp_handle = qp->vqp.qp.handle;
	qp->rq_db.core_payload.wqe_size = sizeof(struct ib_uverbs_recv_wr);
}

static int rue_ring_db(struct ibv_qp *ibqp, void *cmd, size_t len)
{
	if (write(ibqp->context->cmd_fd, cmd, len) != (ssize_t)len)
		return errno ?: EIO;
	return 0;
}

static int rue_qp_check_attr(struct ibv_context *ctx,
			     struct ibv_qp_init_attr_ex *attr)
{
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD))
		return EINVAL;
	if (attr->comp_mask & ~IBV_QP_INIT_ATTR_PD)
		return EOPNOTSUPP;
	switch (attr->qp_type) {
	case IBV_QPT_RC:
	case IBV_QPT_UD:
		break;
	default:
		return EOPNOTSUPP;
	}
	if (attr->srq)
		return EOPNOTSUPP;
	return 0;
}

struct ibv_qp *rue_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr)
{
	struct rue_create_qp_cmd_full cmd = {};
	struct rue_create_qp_resp_full resp = {};
	struct rue_qp *qp;
	int ret;

	ret = rue_qp_check_attr(ctx, attr);
	if (ret) {
		errno = ret;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;

	ret = ibv_cmd_create_qp_ex(ctx, &qp->vqp, attr, &cmd.ibv_cmd,
				   sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	if (resp.drv.sqe_size < sizeof(struct rue_sqe) ||
	    rue_uring_map(&qp->sq, ctx->cmd_fd, resp.drv.sq_offset,
			  resp.drv.sq_size, resp.drv.sq_slots, resp.drv.sqe_size) ||
	    rue_uring_map(&qp->rq, ctx->cmd_fd, resp.drv.rq_offset,
			  resp.drv.rq_size, resp.drv.rq_slots, resp.drv.rqe_size)) {
		ret = errno ?: EPROTO;
		rue_err(verbs_get_ctx(ctx), "cannot map the QP rings: %s\n",
			strerror(ret));
		rue_uring_unmap(&qp->sq);
		ibv_cmd_destroy_qp(&qp->vqp.qp);
		free(qp);
		errno = ret;
		return NULL;
	}
	qp->max_send_sge = attr->cap.max_send_sge;
	qp->max_recv_sge = attr->cap.max_recv_sge;
	qp->max_inline = resp.drv.max_inline;
	attr->cap.max_inline_data = resp.drv.max_inline;
	pthread_spin_init(&qp->sq_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&qp->rq_lock, PTHREAD_PROCESS_PRIVATE);
	rue_qp_init_doorbells(qp);
	return &qp->vqp.qp;
}

struct ibv_qp *rue_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex ex = {
		.qp_context = attr->qp_context,
		.send_cq = attr->send_cq,
		.recv_cq = attr->recv_cq,
		.srq = attr->srq,
		.cap = attr->cap,
		.qp_type = attr->qp_type,
		.sq_sig_all = attr->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct ibv_qp *qp;

	qp = rue_create_qp_ex(pd->context, &ex);
	if (qp)
		attr->cap = ex.cap;
	return qp;
}

int rue_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct ibv_modify_qp cmd = {};

	return ibv_cmd_modify_qp(qp, attr, mask, &cmd, sizeof(cmd));
}

int rue_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct ibv_query_qp cmd = {};
	int ret;

	ret = ibv_cmd_query_qp(ibqp, attr, mask, init, &cmd, sizeof(cmd));
	if (!ret) {
		attr->cap.max_inline_data = qp->max_inline;
		init->cap.max_inline_data = qp->max_inline;
	}
	return ret;
}

int rue_destroy_qp(struct ibv_qp *ibqp)
{
	struct rue_qp *qp = to_rqp(ibqp);
	int ret;

	ret = ibv_cmd_destroy_qp(ibqp);
	if (ret)
		return ret;
	rue_uring_unmap(&qp->sq);
	rue_uring_unmap(&qp->rq);
	pthread_spin_destroy(&qp->sq_lock);
	pthread_spin_destroy(&qp->rq_lock);
	free(qp);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Posting                                                             */

static int rue_wr_opcode(const struct ibv_qp *qp, enum ibv_wr_opcode op,
			 uint8_t *out)
{
	if (qp->qp_type == IBV_QPT_UD) {
		if (op != IBV_WR_SEND && op != IBV_WR_SEND_WITH_IMM)
			return EINVAL;
	}
	switch (op) {
	case IBV_WR_RDMA_WRITE:
		*out = RUE_WR_RDMA_WRITE;
		return 0;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		*out = RUE_WR_RDMA_WRITE_WITH_IMM;
		return 0;
	case IBV_WR_SEND:
		*out = RUE_WR_SEND;
		return 0;
	case IBV_WR_SEND_WITH_IMM:
		*out = RUE_WR_SEND_WITH_IMM;
		return 0;
	case IBV_WR_RDMA_READ:
		*out = RUE_WR_RDMA_READ;
		return 0;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		*out = RUE_WR_ATOMIC_CMP_AND_SWP;
		return 0;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		*out = RUE_WR_ATOMIC_FETCH_AND_ADD;
		return 0;
	case IBV_WR_LOCAL_INV:
		*out = RUE_WR_LOCAL_INV;
		return 0;
	case IBV_WR_SEND_WITH_INV:
		*out = RUE_WR_SEND_WITH_INV;
		return 0;
	default:
		return EINVAL;
	}
}

static int rue_fill_inline(struct rue_qp *qp, const struct ibv_send_wr *wr,
			   struct rue_sqe *sqe)
{
	uint8_t *dst = (uint8_t *)(sqe + 1);
	uint32_t total = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		uint32_t len = wr->sg_list[i].length;

		if (len > qp->max_inline - total)
			return EINVAL;
		memcpy(dst + total, (void *)(uintptr_t)wr->sg_list[i].addr, len);
		total += len;
	}
	sqe->length = total;
	sqe->flags |= RUE_SQE_INLINE;
	return 0;
}

static int rue_fill_sqe(struct rue_qp *qp, const struct ibv_send_wr *wr,
			struct rue_sqe *sqe)
{
	struct rue_sge *sge = (struct rue_sge *)(sqe + 1);
	int i, ret;

	memset(sqe, 0, sizeof(*sqe));
	ret = rue_wr_opcode(&qp->vqp.qp, wr->opcode, &sqe->opcode);
	if (ret)
		return ret;
	sqe->wr_id = wr->wr_id;
	if (wr->send_flags & IBV_SEND_SIGNALED)
		sqe->flags |= RUE_SQE_SIGNALED;
	if (wr->send_flags & IBV_SEND_SOLICITED)
		sqe->flags |= RUE_SQE_SOLICITED;
	if (wr->send_flags & IBV_SEND_FENCE)
		sqe->flags |= RUE_SQE_FENCE;

	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		sqe->imm = wr->imm_data;	/* kept big-endian */
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		sqe->imm = wr->invalidate_rkey;
		break;
	default:
		break;
	}
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		sqe->remote_addr = wr->wr.rdma.remote_addr;
		sqe->rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		sqe->remote_addr = wr->wr.atomic.remote_addr;
		sqe->rkey = wr->wr.atomic.rkey;
		sqe->compare_add = wr->wr.atomic.compare_add;
		sqe->swap = wr->wr.atomic.swap;
		break;
	default:
		break;
	}
	if (qp->vqp.qp.qp_type == IBV_QPT_UD) {
		if (!wr->wr.ud.ah)
			return EINVAL;
		sqe->ah = to_rah(wr->wr.ud.ah)->ah_num;
		sqe->remote_qpn = wr->wr.ud.remote_qpn;
		sqe->rkey = wr->wr.ud.remote_qkey;
	}

	if (wr->send_flags & IBV_SEND_INLINE) {
		if (wr->opcode == IBV_WR_RDMA_READ ||
		    wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
		    wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
			return EINVAL;
		return rue_fill_inline(qp, wr, sqe);
	}
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->max_send_sge)
		return EINVAL;
	sqe->num_sge = wr->num_sge;
	for (i = 0; i < wr->num_sge; i++) {
		sge[i].addr = wr->sg_list[i].addr;
		sge[i].length = wr->sg_list[i].length;
		sge[i].lkey = wr->sg_list[i].lkey;
	}
	return 0;
}

int rue_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct rue_uring *r = &qp->sq;
	uint32_t cons, flags, state;
	int ret = 0, posted = 0;

	pthread_spin_lock(&qp->sq_lock);
	cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
	for (; wr; wr = wr->next) {
		if (r->idx - cons >= r->nslots) {
			cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
			if (r->idx - cons >= r->nslots) {
				ret = ENOMEM;
				break;
			}
		}
		ret = rue_fill_sqe(qp, wr, rue_uring_slot(r, r->idx));
		if (ret)
			break;
		r->idx++;
		posted++;
	}
	if (ret)
		*bad = wr;
	if (posted) {
		__atomic_store_n(&r->hdr->prod, r->idx, __ATOMIC_RELEASE);
		/* Pairs with the kernel disarming, then re-reading prod. */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		flags = __atomic_load_n(&r->hdr->flags, __ATOMIC_RELAXED);
		state = __atomic_load_n(&r->hdr->state, __ATOMIC_RELAXED);
		if (!(flags & RUE_SQ_F_KERNEL_ARMED) || state == IBV_QPS_ERR) {
			int err = rue_ring_db(ibqp, &qp->sq_db, sizeof(qp->sq_db));

			if (err && !ret) {
				ret = err;
				*bad = NULL;
			}
		}
	}
	pthread_spin_unlock(&qp->sq_lock);
	return ret;
}

int rue_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct rue_uring *r = &qp->rq;
	struct rue_rqe *rqe;
	struct rue_sge *sge;
	int ret = 0, posted = 0, i;
	uint32_t cons;

	pthread_spin_lock(&qp->rq_lock);
	cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->max_recv_sge) {
			ret = EINVAL;
			break;
		}
		if (r->idx - cons >= r->nslots) {
			cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
			if (r->idx - cons >= r->nslots) {
				ret = ENOMEM;
				break;
			}
		}
		rqe = rue_uring_slot(r, r->idx);
		rqe->wr_id = wr->wr_id;
		rqe->num_sge = wr->num_sge;
		rqe->reserved = 0;
		sge = (struct rue_sge *)(rqe + 1);
		for (i = 0; i < wr->num_sge; i++) {
			sge[i].addr = wr->sg_list[i].addr;
			sge[i].length = wr->sg_list[i].length;
			sge[i].lkey = wr->sg_list[i].lkey;
		}
		r->idx++;
		posted++;
	}
	if (ret)
		*bad = wr;
	if (posted) {
		__atomic_store_n(&r->hdr->prod, r->idx, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		/* The kernel flushes receives posted to a QP in error. */
		if (__atomic_load_n(&r->hdr->state, __ATOMIC_RELAXED) == IBV_QPS_ERR)
			rue_ring_db(ibqp, &qp->rq_db, sizeof(qp->rq_db));
	}
	pthread_spin_unlock(&qp->rq_lock);
	return ret;
}
