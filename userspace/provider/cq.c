// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues: polled and armed in the mapped ring, without system
 * calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rue.h"
#include "ruedv.h"

struct rue_create_cq_cmd_full {
	struct ibv_create_cq ibv_cmd;
	struct rue_create_cq_cmd drv;
};

struct rue_create_cq_resp_full {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct rue_create_cq_resp drv;
};

struct rue_resize_cq_cmd_full {
	struct ibv_resize_cq ibv_cmd;
	struct rue_resize_cq_cmd drv;
};

struct rue_resize_cq_resp_full {
	struct ib_uverbs_resize_cq_resp ibv_resp;
	struct rue_resize_cq_resp drv;
};

struct rue_create_cq_ex_cmd_full {
	struct ibv_create_cq_ex ibv_cmd;
	struct rue_create_cq_cmd drv;
};

struct rue_create_cq_ex_resp_full {
	struct ib_uverbs_ex_create_cq_resp ibv_resp;
	struct rue_create_cq_resp drv;
};

static void rue_cq_init_ex(struct rue_cq *cq);

/* Maps the ring the kernel created; on failure the caller destroys. */
static int rue_cq_setup(struct rue_cq *cq, struct ibv_context *ctx,
			const struct rue_create_cq_resp *drv)
{
	int ret;

	errno = 0;
	if (drv->cqe_size != sizeof(struct rue_cqe) ||
	    rue_uring_map(&cq->ring, ctx->cmd_fd, drv->ring_offset,
			  drv->ring_size, drv->num_slots,
			  sizeof(struct rue_cqe))) {
		ret = errno ?: EPROTO;
		rue_err(verbs_get_ctx(ctx), "cannot map the CQ ring: %s\n",
			strerror(ret));
		return ret;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	rue_cq_init_ex(cq);
	return 0;
}

struct ibv_cq *rue_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int vector)
{
	struct rue_create_cq_cmd_full cmd = {};
	struct rue_create_cq_resp_full resp = {};
	struct rue_cq *cq;
	int ret;

	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	ret = ibv_cmd_create_cq(ctx, cqe, channel, vector, &cq->vcq.cq,
				&cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
				sizeof(resp));
	if (ret) {
		free(cq);
		errno = ret;
		return NULL;
	}
	ret = rue_cq_setup(cq, ctx, &resp.drv);
	if (ret) {
		ibv_cmd_destroy_cq(&cq->vcq.cq);
		free(cq);
		errno = ret;
		return NULL;
	}
	return &cq->vcq.cq;
}

/*
 * What read_* can report.  Completion timestamps are in the device's
 * clock, nanoseconds of CLOCK_MONOTONIC (rue-abi.h); there is no
 * wall-clock variant.
 */
#define RUE_CQ_WC_FLAGS                                                   \
	(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |                   \
	 IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |                  \
	 IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |                        \
	 IBV_WC_EX_WITH_DLID_PATH_BITS |                                  \
	 IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)

static int rue_cq_check_ex(struct ibv_context *ctx,
			   const struct ibv_cq_init_attr_ex *attr)
{
	if (attr->wc_flags & ~(uint64_t)RUE_CQ_WC_FLAGS) {
		rue_err(verbs_get_ctx(ctx), "unsupported wc_flags 0x%llx\n",
			(unsigned long long)(attr->wc_flags & ~(uint64_t)RUE_CQ_WC_FLAGS));
		return EOPNOTSUPP;
	}
	/* A parent domain: not ours. */
	if (attr->comp_mask & ~IBV_CQ_INIT_ATTR_MASK_FLAGS)
		return EOPNOTSUPP;
	/*
	 * Single-threaded is a promise the CQ may ignore (it keeps its
	 * lock, which then costs one uncontended atomic per poll);
	 * libibverbs passes ignore-overrun to the kernel, which then drops
	 * (and counts) what a full CQ cannot take instead of failing the QP.
	 */
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & ~(uint32_t)(IBV_CREATE_CQ_ATTR_SINGLE_THREADED |
				       IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN)))
		return EOPNOTSUPP;
	return 0;
}

struct ibv_cq_ex *rue_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr)
{
	struct rue_create_cq_ex_cmd_full cmd = {};
	struct rue_create_cq_ex_resp_full resp = {};
	struct rue_cq *cq;
	int ret;

	ret = rue_cq_check_ex(ctx, attr);
	if (ret) {
		errno = ret;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	ret = ibv_cmd_create_cq_ex(ctx, attr, &cq->vcq, &cmd.ibv_cmd,
				   sizeof(cmd), &resp.ibv_resp, sizeof(resp),
				   0);
	if (ret) {
		free(cq);
		errno = ret;
		return NULL;
	}
	ret = rue_cq_setup(cq, ctx, &resp.drv);
	if (ret) {
		ibv_cmd_destroy_cq(&cq->vcq.cq);
		free(cq);
		errno = ret;
		return NULL;
	}
	return &cq->vcq.cq_ex;
}

int rue_destroy_cq(struct ibv_cq *ibcq)
{
	struct rue_cq *cq = to_rcq(ibcq);
	int ret;

	ret = ibv_cmd_destroy_cq(ibcq);
	if (ret)
		return ret;
	rue_uring_unmap(&cq->ring);
	pthread_spin_destroy(&cq->lock);
	free(cq);
	return 0;
}

static unsigned int rue_cqe_wc_flags(const struct rue_cqe *cqe)
{
	unsigned int flags = 0;

	if (cqe->flags & RUE_CQE_F_IMM)
		flags |= IBV_WC_WITH_IMM;
	else if (cqe->flags & RUE_CQE_F_INV)
		flags |= IBV_WC_WITH_INV;
	if (cqe->flags & RUE_CQE_F_GRH)
		flags |= IBV_WC_GRH;
	return flags;
}

/* Immediate data (the __be32 as it came off the wire) or invalidated rkey. */
static uint32_t rue_cqe_imm32(const struct rue_cqe *cqe)
{
	if (cqe->flags & (RUE_CQE_F_IMM | RUE_CQE_F_INV))
		return (uint32_t)cqe->imm;
	return 0;
}

static void rue_cqe_to_wc(const struct rue_cqe *cqe, struct ibv_wc *wc)
{
	wc->wr_id = cqe->wr_id;
	wc->status = cqe->status;
	wc->opcode = cqe->opcode;
	wc->vendor_err = cqe->vendor_err;
	wc->byte_len = cqe->byte_len;
	wc->qp_num = cqe->qp_num;
	wc->src_qp = cqe->src_qp;
	wc->wc_flags = rue_cqe_wc_flags(cqe);
	wc->imm_data = rue_cqe_imm32(cqe);
	wc->pkey_index = cqe->pkey_index;
	wc->slid = 0;
	wc->sl = cqe->sl;
	wc->dlid_path_bits = 0;
}

int rue_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
	struct rue_cq *cq = to_rcq(ibcq);
	struct rue_uring *r = &cq->ring;
	uint32_t prod;
	int i = 0;

	pthread_spin_lock(&cq->lock);
	prod = __atomic_load_n(&r->hdr->prod, __ATOMIC_ACQUIRE);
	while (i < n && r->idx != prod) {
		rue_cqe_to_wc(rue_uring_slot(r, r->idx), &wc[i++]);
		r->idx++;
	}
	if (i)
		__atomic_store_n(&r->hdr->cons, r->idx, __ATOMIC_RELEASE);
	pthread_spin_unlock(&cq->lock);
	return i;
}

/*
 * Arm the CQ: the kernel fires the completion event on the next (or the
 * next solicited) completion and clears the request.  Sequentially
 * consistent, against the kernel publishing a CQE and then reading the
 * word (cq.c in the kernel).
 */
int rue_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct rue_cq *cq = to_rcq(ibcq);

	__atomic_fetch_or(&cq->ring.hdr->flags,
			  solicited_only ? RUE_CQ_F_NOTIFY_SOLICITED :
					   RUE_CQ_F_NOTIFY_NEXT,
			  __ATOMIC_SEQ_CST);
	return 0;
}

/* Event moderation: the kernel holds an armed CQ's event (rue_modify_cq()). */
int rue_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	struct ibv_modify_cq cmd = {};

	return ibv_cmd_modify_cq(cq, attr, &cmd, sizeof(cmd));
}

int rue_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct rue_cq *cq = to_rcq(ibcq);
	struct rue_resize_cq_cmd_full cmd = {};
	struct rue_resize_cq_resp_full resp = {};
	struct rue_uring ring = {};
	int ret;

	pthread_spin_lock(&cq->lock);
	ret = ibv_cmd_resize_cq(ibcq, cqe, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (ret)
		goto out;
	if (rue_uring_map(&ring, ibcq->context->cmd_fd, resp.drv.ring_offset,
			  resp.drv.ring_size, resp.drv.num_slots,
			  sizeof(struct rue_cqe))) {
		/* The completions moved to a ring we cannot reach. */
		ret = errno ?: EPROTO;
		goto out;
	}
	rue_uring_unmap(&cq->ring);
	cq->ring = ring;
out:
	pthread_spin_unlock(&cq->lock);
	return ret;
}

/* ------------------------------------------------------------------ */
/* ibv_cq_ex: the same ring, one completion at a time                  */

/* Makes @cqe the current completion. */
static void rue_cq_set_cur(struct rue_cq *cq, const struct rue_cqe *cqe)
{
	cq->cur = cqe;
	cq->vcq.cq_ex.wr_id = cqe->wr_id;
	cq->vcq.cq_ex.status = cqe->status;
}

/*
 * The lock is held from a start_poll that found a completion to
 * end_poll; libibverbs' contract is that ENOENT from start_poll ends the
 * poll without end_poll.
 */
static int rue_cq_start_poll(struct ibv_cq_ex *cqx,
			     struct ibv_poll_cq_attr *attr)
{
	struct rue_cq *cq = cqx_to_rcq(cqx);
	struct rue_uring *r = &cq->ring;

	if (attr->comp_mask)
		return EINVAL;
	pthread_spin_lock(&cq->lock);
	if (r->idx == __atomic_load_n(&r->hdr->prod, __ATOMIC_ACQUIRE)) {
		cq->cur = NULL;
		pthread_spin_unlock(&cq->lock);
		return ENOENT;
	}
	rue_cq_set_cur(cq, rue_uring_slot(r, r->idx));
	return 0;
}

/* Consumes the current completion and moves to the next, if any. */
static int rue_cq_next_poll(struct ibv_cq_ex *cqx)
{
	struct rue_cq *cq = cqx_to_rcq(cqx);
	struct rue_uring *r = &cq->ring;

	if (cq->cur) {
		r->idx++;
		cq->cur = NULL;
	}
	if (r->idx == __atomic_load_n(&r->hdr->prod, __ATOMIC_ACQUIRE))
		return ENOENT;
	rue_cq_set_cur(cq, rue_uring_slot(r, r->idx));
	return 0;
}

/* Consumes the current completion and hands the slots back. */
static void rue_cq_end_poll(struct ibv_cq_ex *cqx)
{
	struct rue_cq *cq = cqx_to_rcq(cqx);
	struct rue_uring *r = &cq->ring;

	if (cq->cur) {
		r->idx++;
		cq->cur = NULL;
	}
	__atomic_store_n(&r->hdr->cons, r->idx, __ATOMIC_RELEASE);
	pthread_spin_unlock(&cq->lock);
}

static enum ibv_wc_opcode rue_cq_read_opcode(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->opcode;
}

static uint32_t rue_cq_read_vendor_err(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->vendor_err;
}

static uint32_t rue_cq_read_byte_len(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->byte_len;
}

static __be32 rue_cq_read_imm_data(struct ibv_cq_ex *cqx)
{
	return rue_cqe_imm32(cqx_to_rcq(cqx)->cur);
}

static uint32_t rue_cq_read_qp_num(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->qp_num;
}

static uint32_t rue_cq_read_src_qp(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->src_qp;
}

static unsigned int rue_cq_read_wc_flags(struct ibv_cq_ex *cqx)
{
	return rue_cqe_wc_flags(cqx_to_rcq(cqx)->cur);
}

/* No LIDs on RoCE and UET. */
static uint32_t rue_cq_read_slid(struct ibv_cq_ex *cqx)
{
	return 0;
}

static uint8_t rue_cq_read_sl(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->sl;
}

static uint8_t rue_cq_read_dlid_path_bits(struct ibv_cq_ex *cqx)
{
	return 0;
}

static uint64_t rue_cq_read_completion_ts(struct ibv_cq_ex *cqx)
{
	return cqx_to_rcq(cqx)->cur->timestamp;
}

/*
 * Every rue CQ gets the ops, whichever call created it: reading a field
 * the CQ was not created for is undefined in the verbs API, and here
 * harmless.
 */
static void rue_cq_init_ex(struct rue_cq *cq)
{
	struct ibv_cq_ex *cqx = &cq->vcq.cq_ex;

	cqx->start_poll = rue_cq_start_poll;
	cqx->next_poll = rue_cq_next_poll;
	cqx->end_poll = rue_cq_end_poll;
	cqx->read_opcode = rue_cq_read_opcode;
	cqx->read_vendor_err = rue_cq_read_vendor_err;
	cqx->read_byte_len = rue_cq_read_byte_len;
	cqx->read_imm_data = rue_cq_read_imm_data;
	cqx->read_qp_num = rue_cq_read_qp_num;
	cqx->read_src_qp = rue_cq_read_src_qp;
	cqx->read_wc_flags = rue_cq_read_wc_flags;
	cqx->read_slid = rue_cq_read_slid;
	cqx->read_sl = rue_cq_read_sl;
	cqx->read_dlid_path_bits = rue_cq_read_dlid_path_bits;
	cqx->read_completion_ts = rue_cq_read_completion_ts;
}

/* ------------------------------------------------------------------ */
/* ruedv_wc_read_*(): the UET fields of the current completion          */

/* NULL outside a poll, or on another device's CQ. */
static const struct rue_cqe *rue_dv_cur(struct ibv_cq_ex *cqx)
{
	if (!cqx || !rue_is_rue_ctx(cqx->context))
		return NULL;
	return cqx_to_rcq(cqx)->cur;
}

RUEDV_EXPORT uint32_t ruedv_wc_read_initiator(struct ibv_cq_ex *cqx)
{
	const struct rue_cqe *cqe = rue_dv_cur(cqx);

	return cqe ? cqe->initiator : 0;
}

RUEDV_EXPORT uint32_t ruedv_wc_read_job_id(struct ibv_cq_ex *cqx)
{
	const struct rue_cqe *cqe = rue_dv_cur(cqx);

	return cqe ? cqe->job_id : 0;
}

/* All 64 bits of UET header data; RoCE immediates are the low 32. */
RUEDV_EXPORT uint64_t ruedv_wc_read_imm64(struct ibv_cq_ex *cqx)
{
	const struct rue_cqe *cqe = rue_dv_cur(cqx);

	return cqe && (cqe->flags & RUE_CQE_F_IMM) ? cqe->imm : 0;
}
