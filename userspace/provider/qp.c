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

/* The ibv_qp_ex operations each QP type can carry (see rue_qp_check_op). */
#define RUE_RC_SEND_OPS                                                      \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |    \
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |                \
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |      \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV |    \
	 IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW |             \
	 IBV_QP_EX_WITH_ATOMIC_WRITE)
#define RUE_UC_SEND_OPS                                                      \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |    \
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |                \
	 IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW)
#define RUE_UD_SEND_OPS (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)

static uint64_t rue_uet_send_ops(const struct rue_context *ctx)
{
	uint64_t ops = 0;

	if (ctx->uet_caps & RUE_UET_CAP_SEND)
		ops |= IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
	if (ctx->uet_caps & RUE_UET_CAP_WRITE)
		ops |= IBV_QP_EX_WITH_RDMA_WRITE |
		       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	if (ctx->uet_caps & RUE_UET_CAP_READ)
		ops |= IBV_QP_EX_WITH_RDMA_READ;
	return ops;
}

/*
 * IBV_QPT_DRIVER is a UET QP, which only ruedv_create_qp() makes (@drv
 * then says so): plain ibv_create_qp_ex() cannot say which driver type.
 */
static int rue_qp_check_attr(struct ibv_context *ctx,
			     struct ibv_qp_init_attr_ex *attr,
			     const struct rue_create_qp_cmd *drv)
{
	uint64_t ops;

	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD))
		return EINVAL;
	if (attr->comp_mask &
	    ~(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS))
		return EOPNOTSUPP;
	switch (attr->qp_type) {
	case IBV_QPT_RC:
		ops = RUE_RC_SEND_OPS;
		break;
	case IBV_QPT_UC:
		ops = RUE_UC_SEND_OPS;
		break;
	case IBV_QPT_UD:
		ops = RUE_UD_SEND_OPS;
		break;
	case IBV_QPT_DRIVER:
		if (!(drv->comp_mask & RUE_CREATE_QP_CMD_DRIVER))
			return EOPNOTSUPP;
		ops = rue_uet_send_ops(to_rctx(ctx));
		break;
	default:
		return EOPNOTSUPP;
	}
	/* RC, UC and UD QPs may take their receives from an SRQ */
	if (attr->srq && attr->qp_type == IBV_QPT_DRIVER)
		return EOPNOTSUPP;
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    (attr->send_ops_flags & ~ops)) {
		rue_err(verbs_get_ctx(ctx),
			"send_ops_flags 0x%llx: this QP type cannot do 0x%llx\n",
			(unsigned long long)attr->send_ops_flags,
			(unsigned long long)(attr->send_ops_flags & ~ops));
		return EOPNOTSUPP;
	}
	return 0;
}

/* The response's UET part, which a UET QP must have. */
static int rue_qp_take_uet(struct rue_qp *qp, const struct rue_create_qp_cmd *drv,
			   const struct rue_create_qp_resp *resp)
{
	if (!(drv->comp_mask & RUE_CREATE_QP_CMD_UET))
		return 0;
	if (!(resp->comp_mask & RUE_CREATE_QP_RESP_UET))
		return EPROTO;
	qp->uet = true;
	qp->uet_mode = drv->uet_mode;
	qp->uet_addr = resp->uet_addr;
	qp->uet_job_id = resp->uet_job_id;
	return 0;
}

static int rue_qp_map(struct rue_qp *qp, int fd,
		      const struct rue_create_qp_resp *resp, bool has_rq)
{
	if (resp->sqe_size < sizeof(struct rue_sqe) ||
	    rue_uring_map(&qp->sq, fd, resp->sq_offset, resp->sq_size,
			  resp->sq_slots, resp->sqe_size))
		return errno ?: EPROTO;
	if (!has_rq)
		return 0;	/* its receives come from an SRQ */
	if (rue_uring_map(&qp->rq, fd, resp->rq_offset, resp->rq_size,
			  resp->rq_slots, resp->rqe_size)) {
		rue_uring_unmap(&qp->sq);
		return errno ?: EPROTO;
	}
	return 0;
}

/*
 * Creates any rue QP; @drv is the driver part of the command (all zero
 * but for UET QPs).
 */
struct ibv_qp *rue_create_qp_drv(struct ibv_context *ctx,
				 struct ibv_qp_init_attr_ex *attr,
				 const struct rue_create_qp_cmd *drv)
{
	struct rue_create_qp_cmd_full cmd = { .drv = *drv };
	struct rue_create_qp_resp_full resp = {};
	struct rue_qp *qp;
	int ret;

	ret = rue_qp_check_attr(ctx, attr, drv);
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
	ret = rue_qp_take_uet(qp, drv, &resp.drv);
	if (ret) {
		rue_err(verbs_get_ctx(ctx), "UET QP without a UET response\n");
		goto err_destroy;
	}
	errno = 0;
	ret = rue_qp_map(qp, ctx->cmd_fd, &resp.drv, !attr->srq);
	if (ret) {
		rue_err(verbs_get_ctx(ctx), "cannot map the QP rings: %s\n",
			strerror(ret));
		goto err_destroy;
	}
	qp->max_send_sge = attr->cap.max_send_sge;
	qp->max_recv_sge = attr->cap.max_recv_sge;
	qp->max_inline = resp.drv.max_inline;
	attr->cap.max_inline_data = resp.drv.max_inline;
	pthread_spin_init(&qp->sq_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&qp->rq_lock, PTHREAD_PROCESS_PRIVATE);
	rue_qp_init_doorbells(qp);
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		rue_qp_init_ex(qp);
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
	free(qp);
	errno = ret;
	return NULL;
}

struct ibv_qp *rue_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr)
{
	const struct rue_create_qp_cmd drv = {};

	return rue_create_qp_drv(ctx, attr, &drv);
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

/* The slot opcode of a verbs opcode; -1 for those rue does not carry. */
static int rue_wr_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
		return RUE_WR_RDMA_WRITE;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return RUE_WR_RDMA_WRITE_WITH_IMM;
	case IBV_WR_SEND:
		return RUE_WR_SEND;
	case IBV_WR_SEND_WITH_IMM:
		return RUE_WR_SEND_WITH_IMM;
	case IBV_WR_RDMA_READ:
		return RUE_WR_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return RUE_WR_ATOMIC_CMP_AND_SWP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return RUE_WR_ATOMIC_FETCH_AND_ADD;
	case IBV_WR_LOCAL_INV:
		return RUE_WR_LOCAL_INV;
	case IBV_WR_SEND_WITH_INV:
		return RUE_WR_SEND_WITH_INV;
	case IBV_WR_BIND_MW:
		return RUE_WR_BIND_MW;
	case IBV_WR_ATOMIC_WRITE:
		return RUE_WR_ATOMIC_WRITE;
	default:
		return -1;
	}
}

static uint32_t rue_uet_op_cap(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		return RUE_UET_CAP_SEND;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return RUE_UET_CAP_WRITE;
	case IBV_WR_RDMA_READ:
		return RUE_UET_CAP_READ;
	default:
		return 0;
	}
}

/*
 * Whether @qp's type carries @op: RC every operation rue has, UD only
 * SENDs (IBA vol 1 chapter 9: UD has no RDMA, atomics or invalidation),
 * UET those of the SES SEND, WRITE and READ (UE 1.0.1, SES) the device
 * reports.  EINVAL for an operation the type cannot have, EOPNOTSUPP for
 * one this UET device lacks.
 */
int rue_qp_check_op(struct rue_qp *qp, enum ibv_wr_opcode op)
{
	uint32_t cap;

	if (rue_wr_opcode(op) < 0)
		return EINVAL;
	if (qp->uet) {
		cap = rue_uet_op_cap(op);
		/* UUD carries SENDs only (UE 1.0.1 3.5: no RMA) */
		if (!cap || (qp->uet_mode == RUE_UET_MODE_UUD &&
			     cap != RUE_UET_CAP_SEND))
			return EINVAL;
		if (!(to_rctx(qp->vqp.qp.context)->uet_caps & cap))
			return EOPNOTSUPP;
		return 0;
	}
	switch (qp->vqp.qp.qp_type) {
	case IBV_QPT_UD:
		return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ?
		       0 : EINVAL;
	case IBV_QPT_UC:
		/*
		 * IBTA 9.8: no READ, atomics or SEND with invalidate; type 2
		 * windows bind to and are invalidated by the QP's own WQEs
		 */
		return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ||
		       op == IBV_WR_RDMA_WRITE ||
		       op == IBV_WR_RDMA_WRITE_WITH_IMM ||
		       op == IBV_WR_LOCAL_INV || op == IBV_WR_BIND_MW ?
		       0 : EINVAL;
	default:
		return 0;
	}
}

/*
 * Whether the QP's state lets work requests be posted (the IBTA's QP
 * states, rdma_rxe alike): sends from RTS on (and to a QP in error,
 * which flushes them), receives from INIT on.  The kernel mirrors the
 * state in each ring's header.
 */
int rue_qp_can_post(const struct rue_uring *r, bool send)
{
	uint32_t state = __atomic_load_n(&r->hdr->state, __ATOMIC_RELAXED);

	return state < (send ? IBV_QPS_RTS : IBV_QPS_INIT) ? EINVAL : 0;
}

/*
 * The slot @ahead places past the producer index, or NULL when the ring
 * is full.  @cons caches the kernel's consumer index; it is read again
 * only when the cached value says full.
 */
struct rue_sqe *rue_sq_next_slot(struct rue_qp *qp, uint32_t ahead,
				 uint32_t *cons)
{
	struct rue_uring *r = &qp->sq;
	uint32_t i = r->idx + ahead;

	if (i - *cons >= r->nslots) {
		*cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
		if (i - *cons >= r->nslots)
			return NULL;
	}
	return rue_uring_slot(r, i);
}

/* A fresh slot for @op (which rue_qp_check_op() accepted). */
void rue_sqe_init(struct rue_sqe *sqe, uint64_t wr_id, enum ibv_wr_opcode op,
		  unsigned int send_flags)
{
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = (uint8_t)rue_wr_opcode(op);
	sqe->wr_id = wr_id;
	if (send_flags & IBV_SEND_SIGNALED)
		sqe->flags |= RUE_SQE_SIGNALED;
	if (send_flags & IBV_SEND_SOLICITED)
		sqe->flags |= RUE_SQE_SOLICITED;
	if (send_flags & IBV_SEND_FENCE)
		sqe->flags |= RUE_SQE_FENCE;
}

/* Appends @len bytes of inline data behind the slot header. */
int rue_sqe_add_inline(struct rue_qp *qp, struct rue_sqe *sqe,
		       const void *addr, size_t len)
{
	if (len > qp->max_inline - sqe->length)
		return EINVAL;
	memcpy((uint8_t *)(sqe + 1) + sqe->length, addr, len);
	sqe->length += (uint32_t)len;
	sqe->flags |= RUE_SQE_INLINE;
	return 0;
}

int rue_sqe_set_sges(struct rue_qp *qp, struct rue_sqe *sqe,
		     const struct ibv_sge *sg, size_t n)
{
	struct rue_sge *sge = (struct rue_sge *)(sqe + 1);
	size_t i;

	if (n > qp->max_send_sge)
		return EINVAL;
	sqe->num_sge = (uint8_t)n;
	for (i = 0; i < n; i++) {
		sge[i].addr = sg[i].addr;
		sge[i].length = sg[i].length;
		sge[i].lkey = sg[i].lkey;
	}
	return 0;
}

/*
 * The destination of a UD or UET WQE.  rkey is the Q_Key on UD; on UET
 * it is the memory key, and UET has no Q_Key.
 */
void rue_sqe_set_dest(struct rue_qp *qp, struct rue_sqe *sqe,
		      struct ibv_ah *ah, uint32_t remote_qpn, uint32_t qkey)
{
	sqe->ah = to_rah(ah)->ah_num;
	sqe->remote_qpn = remote_qpn;
	if (!qp->uet)
		sqe->rkey = qkey;
}

static int rue_fill_data(struct rue_qp *qp, const struct ibv_send_wr *wr,
			 struct rue_sqe *sqe)
{
	int i, ret;

	if (!(wr->send_flags & IBV_SEND_INLINE)) {
		if (wr->num_sge < 0)
			return EINVAL;
		return rue_sqe_set_sges(qp, sqe, wr->sg_list, wr->num_sge);
	}
	if (wr->opcode == IBV_WR_RDMA_READ ||
	    wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
		return EINVAL;
	for (i = 0; i < wr->num_sge; i++) {
		ret = rue_sqe_add_inline(qp, sqe,
					 (void *)(uintptr_t)wr->sg_list[i].addr,
					 wr->sg_list[i].length);
		if (ret)
			return ret;
	}
	sqe->flags |= RUE_SQE_INLINE;
	return 0;
}

static int rue_fill_sqe(struct rue_qp *qp, const struct ibv_send_wr *wr,
			struct rue_sqe *sqe)
{
	int ret;

	ret = rue_qp_check_op(qp, wr->opcode);
	if (ret)
		return ret;
	/*
	 * wr.ud (the peer) and wr.rdma share a union: a UET WRITE or READ
	 * needs both, so only the ibv_wr_*() API can post one.
	 */
	if (qp->uet && wr->opcode != IBV_WR_SEND &&
	    wr->opcode != IBV_WR_SEND_WITH_IMM)
		return EINVAL;
	/* nor an ATOMIC WRITE: struct ibv_send_wr has no field for its bytes */
	if (wr->opcode == IBV_WR_ATOMIC_WRITE)
		return EINVAL;
	rue_sqe_init(sqe, wr->wr_id, wr->opcode, wr->send_flags);
	/* the bind verb (mw.c) binds type 1 windows, work requests type 2 */
	if (wr->opcode == IBV_WR_BIND_MW)
		return wr->bind_mw.mw && wr->bind_mw.mw->type == IBV_MW_TYPE_2 ?
		       rue_sqe_set_bind(sqe, wr->bind_mw.mw, wr->bind_mw.rkey,
					&wr->bind_mw.bind_info) : EINVAL;

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
	if (qp->uet || qp->vqp.qp.qp_type == IBV_QPT_UD) {
		if (!wr->wr.ud.ah)
			return EINVAL;
		rue_sqe_set_dest(qp, sqe, wr->wr.ud.ah, wr->wr.ud.remote_qpn,
				 wr->wr.ud.remote_qkey);
	}
	return rue_fill_data(qp, wr, sqe);
}

/*
 * Makes @n WQEs written past the producer index visible to the kernel,
 * and rings the doorbell unless the kernel is sure to look (rue-abi.h,
 * RUE_SQ_F_KERNEL_ARMED) and the QP is not in error (its WQEs are then
 * flushed by the doorbell).  Under sq_lock.
 */
int rue_sq_publish(struct rue_qp *qp, uint32_t n)
{
	struct rue_uring *r = &qp->sq;
	uint32_t flags, state;

	if (!n)
		return 0;
	r->idx += n;
	__atomic_store_n(&r->hdr->prod, r->idx, __ATOMIC_RELEASE);
	/* Pairs with the kernel disarming, then re-reading prod. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	flags = __atomic_load_n(&r->hdr->flags, __ATOMIC_RELAXED);
	state = __atomic_load_n(&r->hdr->state, __ATOMIC_RELAXED);
	if (!(flags & RUE_SQ_F_KERNEL_ARMED) || state == IBV_QPS_ERR)
		return rue_ring_db(&qp->vqp.qp, &qp->sq_db, sizeof(qp->sq_db));
	return 0;
}

int rue_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct rue_sqe *sqe;
	uint32_t cons, posted = 0;
	int ret = 0, err;

	pthread_spin_lock(&qp->sq_lock);
	cons = __atomic_load_n(&qp->sq.hdr->cons, __ATOMIC_ACQUIRE);
	ret = rue_qp_can_post(&qp->sq, true);
	for (; wr && !ret; wr = wr->next) {
		sqe = rue_sq_next_slot(qp, posted, &cons);
		if (!sqe) {
			ret = ENOMEM;
			break;
		}
		ret = rue_fill_sqe(qp, wr, sqe);
		if (ret)
			break;
		posted++;
	}
	if (ret)
		*bad = wr;
	err = rue_sq_publish(qp, posted);
	if (err && !ret) {
		ret = err;
		*bad = NULL;
	}
	pthread_spin_unlock(&qp->sq_lock);
	return ret;
}

/*
 * Write @wr's WQEs into the receive ring @r (RQ or SRQ) and publish them;
 * the caller holds the ring's lock.  Returns 0 or an errno, with *@bad
 * at the first WQE not posted; *@posted counts those that were.
 */
int rue_rq_write(struct rue_uring *r, uint32_t max_sge,
		 struct ibv_recv_wr *wr, struct ibv_recv_wr **bad,
		 uint32_t *posted)
{
	uint32_t cons = __atomic_load_n(&r->hdr->cons, __ATOMIC_ACQUIRE);
	struct rue_rqe *rqe;
	struct rue_sge *sge;
	int ret = 0, i;

	*posted = 0;
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > max_sge) {
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
		(*posted)++;
	}
	if (ret)
		*bad = wr;
	if (*posted)
		__atomic_store_n(&r->hdr->prod, r->idx, __ATOMIC_RELEASE);
	return ret;
}

int rue_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct rue_uring *r = &qp->rq;
	uint32_t posted = 0;
	int ret;

	/* a QP on an SRQ has no RQ: its receives go to ibv_post_srq_recv() */
	if (!r->map) {
		*bad = wr;
		return EINVAL;
	}
	pthread_spin_lock(&qp->rq_lock);
	ret = rue_qp_can_post(r, false);
	if (ret)
		*bad = wr;
	else
		ret = rue_rq_write(r, qp->max_recv_sge, wr, bad, &posted);
	if (posted) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		/* The kernel flushes receives posted to a QP in error. */
		if (__atomic_load_n(&r->hdr->state, __ATOMIC_RELAXED) == IBV_QPS_ERR)
			rue_ring_db(ibqp, &qp->rq_db, sizeof(qp->rq_db));
	}
	pthread_spin_unlock(&qp->rq_lock);
	return ret;
}
