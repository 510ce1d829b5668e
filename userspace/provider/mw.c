// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows: ibv_alloc_mw, ibv_dealloc_mw, ibv_bind_mw (type 1), and
 * the bind work request of type 2 windows (ibv_post_send with
 * IBV_WR_BIND_MW, ibv_wr_bind_mw).
 *
 * A bind is a send queue slot that the kernel executes in order with the
 * QP's other work (rue-abi.h, RUE_WR_BIND_MW).  The rkey a bind gives a
 * type 1 window is librue's choice, the next tag (ibv_inc_rkey), set in
 * mw->rkey once the bind is posted, as rdma-core's providers do: a bind
 * that completes in error leaves the window as it was, and the consumer
 * to restore mw->rkey.  A type 2 window's new rkey is the consumer's, in
 * the work request.
 */
#include <errno.h>
#include <stdlib.h>

#include "rue.h"

#define RUE_MW_ACCESS (IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | \
		       IBV_ACCESS_REMOTE_ATOMIC)

struct ibv_mw *rue_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp;
	struct ibv_alloc_mw cmd;
	struct ibv_mw *mw;
	int ret;

	if (type != IBV_MW_TYPE_1 && type != IBV_MW_TYPE_2) {
		errno = EINVAL;
		return NULL;
	}
	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return NULL;
	ret = ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (ret) {
		free(mw);
		errno = ret;
		return NULL;
	}
	return mw;
}

int rue_dealloc_mw(struct ibv_mw *mw)
{
	int ret;

	ret = ibv_cmd_dealloc_mw(mw);
	if (ret)
		return ret;
	free(mw);
	return 0;
}

/*
 * Fills a bind slot (rue_sqe_init() made it): @rkey must keep the
 * window's index, the rights are remote ones (zero-based windows are not
 * offered), and a window with a length needs its MR.
 */
int rue_sqe_set_bind(struct rue_sqe *sqe, struct ibv_mw *mw, uint32_t rkey,
		     const struct ibv_mw_bind_info *info)
{
	if (!mw || !info || (info->mw_access_flags & ~RUE_MW_ACCESS) ||
	    (info->length && !info->mr) || (rkey >> 8) != (mw->rkey >> 8))
		return EINVAL;
	sqe->imm = mw->rkey;
	sqe->rkey = rkey;
	sqe->remote_addr = info->addr;
	sqe->compare_add = info->length;
	/* IBV_ACCESS_REMOTE_* have the kernel's IB_ACCESS_REMOTE_* values */
	sqe->swap = info->mw_access_flags;
	sqe->ah = info->length ? info->mr->lkey : 0;
	return 0;
}

/* ibv_bind_mw(): type 1 windows, by a slot of the QP's send queue. */
int rue_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		struct ibv_mw_bind *bind)
{
	struct rue_qp *qp = to_rqp(ibqp);
	struct rue_sqe *sqe = NULL;
	uint32_t rkey, cons;
	int ret;

	if (!mw || !bind || mw->type != IBV_MW_TYPE_1)
		return EINVAL;
	ret = rue_qp_check_op(qp, IBV_WR_BIND_MW);
	if (ret)
		return ret;
	rkey = ibv_inc_rkey(mw->rkey);

	pthread_spin_lock(&qp->sq_lock);
	cons = __atomic_load_n(&qp->sq.hdr->cons, __ATOMIC_ACQUIRE);
	ret = rue_qp_can_post(&qp->sq, true);
	if (!ret) {
		sqe = rue_sq_next_slot(qp, 0, &cons);
		ret = sqe ? 0 : ENOMEM;
	}
	if (!ret) {
		rue_sqe_init(sqe, bind->wr_id, IBV_WR_BIND_MW,
			     bind->send_flags);
		ret = rue_sqe_set_bind(sqe, mw, rkey, &bind->bind_info);
	}
	if (!ret)
		ret = rue_sq_publish(qp, 1);
	pthread_spin_unlock(&qp->sq_lock);
	if (!ret)
		mw->rkey = rkey;
	return ret;
}
