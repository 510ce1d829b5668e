// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues (IBTA 10.2.9): one ring of receive WQEs that any
 * number of RC, UC and UD QPs consume, in the layout of a QP's RQ
 * (rue-abi.h).  librue produces into a user SRQ's mapped ring; kernel
 * consumers' post_srq_recv writes the same format under post_lock.
 *
 * Locking: srq->lock guards the consumer side (cons and the limit).  A
 * QP's receive path takes it under the QP's resp.lock, so the order is
 * resp.lock -> srq->lock, always with bottom halves off.  post_lock is
 * taken with interrupts saved, as a QP's (post.c).
 *
 * Lifetime: the core refuses to destroy an SRQ that a QP still uses, and
 * a QP's destruction waits for its receive path, so no consumer can hold
 * the SRQ when it goes.
 */
#include <linux/log2.h>
#include <rdma/uverbs_ioctl.h>

#include "caps.h"
#include "post.h"
#include "rq.h"
#include "srq.h"
#include "verbs.h"

/* Slot size for @max_sge SGEs; the SGEs a slot of that size holds. */
static u32 rue_srq_stride(u32 max_sge)
{
	return roundup_pow_of_two(sizeof(struct rue_rqe) +
				  max(max_sge, 1U) * sizeof(struct rue_sge));
}

/* IBTA 10.2.9.3: the limit fires once, when fewer WQEs than it remain. */
static void rue_srq_limit_event(struct rue_srq *srq)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

/**
 * rue_srq_take() - take the next receive WQE of an SRQ
 * @srq: the SRQ of the QP whose resp.lock the caller holds
 * @sg: room for srq->max_sge SGEs (references taken)
 * @info: the WQE's id, size and check result
 *
 * The WQE's lkeys are checked against the SRQ's PD.
 *
 * Return: 0; -EAGAIN when the SRQ is empty; -EIO when the producer index
 * is garbage.
 */
int rue_srq_take(struct rue_srq *srq, struct rue_ksge *sg,
		 struct rue_rqe_info *info)
{
	bool fire = false;
	u32 prod;
	int err = 0;

	spin_lock(&srq->lock);
	/* pairs with the producer's release: the RQE before the index */
	prod = smp_load_acquire(&srq->ring.hdr->prod);
	if (unlikely(prod - srq->cons > srq->ring.nslots)) {
		err = -EIO;
		goto out;
	}
	if (prod == srq->cons) {
		err = -EAGAIN;
		goto out;
	}
	rue_rqe_read(&srq->ring, srq->cons, srq->ibsrq.pd, srq->max_sge, sg,
		     info);
	srq->cons++;
	/* done reading the slot before the producer may reuse it */
	smp_store_release(&srq->ring.hdr->cons, srq->cons);
	if (srq->limit && prod - srq->cons < srq->limit) {
		srq->limit = 0;
		fire = true;
	}
out:
	spin_unlock(&srq->lock);
	if (fire)
		rue_srq_limit_event(srq);
	return err;
}

static int rue_srq_check_cmd(struct ib_udata *udata)
{
	struct rue_create_srq_cmd cmd = {};
	int err;

	if (!udata->inlen)
		return 0;
	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd), udata->inlen - sizeof(cmd)))
		return -EOPNOTSUPP;
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	return cmd.comp_mask ? -EOPNOTSUPP : 0;
}

static int rue_srq_user_resp(struct rue_srq *srq, struct ib_udata *udata)
{
	struct rue_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct rue_ucontext, ibuc);
	struct rue_create_srq_resp resp = {
		.rq_size = srq->ring.size,
		.rq_slots = srq->ring.nslots,
		.rqe_size = srq->ring.stride,
	};
	int err;

	err = rue_ring_map_user(&srq->ring, &uc->ibuc, &resp.rq_offset);
	if (err)
		return err;
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

static int rue_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			  struct ib_udata *udata)
{
	struct rue_srq *srq = to_rue_srq(ibsrq);
	struct ib_srq_attr *attr = &init->attr;
	u32 stride;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (attr->max_wr > RUE_MAX_SRQ_WR || attr->max_sge > RUE_MAX_SGE)
		return -EINVAL;
	if (udata) {
		err = rue_srq_check_cmd(udata);
		if (err)
			return err;
	}

	spin_lock_init(&srq->lock);
	spin_lock_init(&srq->post_lock);
	srq->user = !!udata;
	stride = rue_srq_stride(attr->max_sge);
	err = rue_ring_alloc(&srq->ring, roundup_pow_of_two(max(attr->max_wr, 1U)),
			     stride);
	if (err)
		return err;
	/* Everything the slot can hold is usable. */
	srq->max_sge = min_t(u32, (stride - sizeof(struct rue_rqe)) /
				  sizeof(struct rue_sge), RUE_MAX_SGE);
	if (udata) {
		err = rue_srq_user_resp(srq, udata);
		if (err) {
			rue_ring_free(&srq->ring);
			return err;
		}
	}
	/* the limit is armed by modify_srq only (ib_create_srq(3)) */
	attr->max_wr = srq->ring.nslots;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = 0;
	return 0;
}

/*
 * Only the limit can change: the ring is mapped by its user and holds
 * WQEs in flight, so growing it (IB_SRQ_MAX_WR) is not offered, and the
 * device does not claim IB_DEVICE_SRQ_RESIZE.
 */
static int rue_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rue_srq *srq = to_rue_srq(ibsrq);

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR)
		return -EOPNOTSUPP;
	if (!(mask & IB_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit > srq->ring.nslots)
		return -EINVAL;
	spin_lock_bh(&srq->lock);
	srq->limit = attr->srq_limit;
	spin_unlock_bh(&srq->lock);
	return 0;
}

static int rue_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rue_srq *srq = to_rue_srq(ibsrq);

	attr->max_wr = srq->ring.nslots;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = READ_ONCE(srq->limit);
	return 0;
}

static int rue_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	rue_ring_free(&to_rue_srq(ibsrq)->ring);
	return 0;
}

/* Kernel consumers only: librue writes a user SRQ's ring itself. */
static int rue_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	struct rue_srq *srq = to_rue_srq(ibsrq);
	unsigned long flags;
	int err;

	if (srq->user) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&srq->post_lock, flags);
	err = rue_post_rqes(&srq->ring, srq->max_sge, wr, bad_wr);
	spin_unlock_irqrestore(&srq->post_lock, flags);
	return err;
}

static const struct ib_device_ops rue_srq_ops = {
	.create_srq = rue_create_srq,
	.destroy_srq = rue_destroy_srq,
	.modify_srq = rue_modify_srq,
	.post_srq_recv = rue_post_srq_recv,
	.query_srq = rue_query_srq,

	INIT_RDMA_OBJ_SIZE(ib_srq, rue_srq, ibsrq),
};

void rue_srq_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_srq_ops);
}
