// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues: polled and armed in the mapped ring, without system
 * calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rue.h"

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
	if (resp.drv.cqe_size != sizeof(struct rue_cqe) ||
	    rue_uring_map(&cq->ring, ctx->cmd_fd, resp.drv.ring_offset,
			  resp.drv.ring_size, resp.drv.num_slots,
			  sizeof(struct rue_cqe))) {
		ret = errno ?: EPROTO;
		rue_err(verbs_get_ctx(ctx), "cannot map the CQ ring: %s\n",
			strerror(ret));
		ibv_cmd_destroy_cq(&cq->vcq.cq);
		free(cq);
		errno = ret;
		return NULL;
	}
	pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	return &cq->vcq.cq;
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

static void rue_cqe_to_wc(const struct rue_cqe *cqe, struct ibv_wc *wc)
{
	wc->wr_id = cqe->wr_id;
	wc->status = cqe->status;
	wc->opcode = cqe->opcode;
	wc->vendor_err = cqe->vendor_err;
	wc->byte_len = cqe->byte_len;
	wc->qp_num = cqe->qp_num;
	wc->src_qp = cqe->src_qp;
	wc->wc_flags = 0;
	wc->imm_data = 0;
	if (cqe->flags & RUE_CQE_F_IMM) {
		/* the __be32 exactly as it came off the wire */
		wc->imm_data = (uint32_t)cqe->imm;
		wc->wc_flags |= IBV_WC_WITH_IMM;
	} else if (cqe->flags & RUE_CQE_F_INV) {
		wc->invalidated_rkey = (uint32_t)cqe->imm;
		wc->wc_flags |= IBV_WC_WITH_INV;
	}
	if (cqe->flags & RUE_CQE_F_GRH)
		wc->wc_flags |= IBV_WC_GRH;
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
