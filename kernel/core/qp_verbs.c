// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pair verbs: create_qp and destroy_qp, the state machine of
 * modify_qp (IBTA vol 1, 10.3), query_qp.  The QP's transport, chosen at
 * creation among those the device has (transport.h), adds what its type
 * needs at each step.
 */
#include <linux/log2.h>
#include <rdma/ib_cache.h>
#include <rdma/uverbs_ioctl.h>

#include "caps.h"
#include "cq.h"
#include "device.h"
#include "engine.h"
#include "mw.h"
#include "post.h"
#include "qp.h"
#include "qp_verbs.h"
#include "rq.h"
#include "sq.h"
#include "srq.h"
#include "transport.h"
#include "verbs.h"
#include "cc/cc.h"
#include "roce/roce.h"

/* ------------------------------------------------------------------ */
/* Creation                                                            */

/* Whether one of the device's transports serves QPs of @type. */
static bool rue_qp_type_served(const struct rue_dev *rdev, enum ib_qp_type type)
{
	const struct rue_transport_ops *const *xp;

	for (xp = rdev->transports; *xp; xp++)
		if ((*xp)->qp_types & rue_qpt_bit(type))
			return true;
	return false;
}

/*
 * The transport of a new QP: by type, and for IB_QPT_DRIVER by the
 * driver QP type of the private command and what it asks for (match).
 */
static const struct rue_transport_ops *
rue_qp_transport(const struct rue_dev *rdev, enum ib_qp_type type,
		 const struct rue_create_qp_cmd *cmd)
{
	const struct rue_transport_ops *const *xp;

	for (xp = rdev->transports; *xp; xp++) {
		if (!((*xp)->qp_types & rue_qpt_bit(type)))
			continue;
		if (type != IB_QPT_DRIVER)
			return *xp;
		if ((*xp)->driver_qpt == cmd->driver_qp_type &&
		    (!(*xp)->match || (*xp)->match(cmd)))
			return *xp;
	}
	return NULL;
}

static int rue_qp_check_init(struct rue_dev *rdev,
			     struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	if (!rue_qp_type_served(rdev, init->qp_type))
		return -EOPNOTSUPP;
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > RUE_MAX_QP_WR || cap->max_recv_wr > RUE_MAX_QP_WR ||
	    cap->max_send_sge > RUE_MAX_SGE || cap->max_recv_sge > RUE_MAX_SGE ||
	    cap->max_inline_data > RUE_MAX_INLINE)
		return -EINVAL;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	return 0;
}

static int rue_qp_alloc_sq(struct rue_qp *qp, struct ib_qp_cap *cap)
{
	u32 slots = roundup_pow_of_two(max(cap->max_send_wr, 1U));
	u32 body = max(cap->max_send_sge * (u32)sizeof(struct rue_sge),
		       cap->max_inline_data);
	u32 stride = roundup_pow_of_two(sizeof(struct rue_sqe) + max(body, 16U));
	u32 kbody;
	int err;

	err = rue_ring_alloc(&qp->req.ring, slots, stride);
	if (err)
		return err;

	/* Everything the slot can hold is usable. */
	body = stride - sizeof(struct rue_sqe);
	qp->max_send_sge = min_t(u32, body / sizeof(struct rue_sge), RUE_MAX_SGE);
	qp->max_inline = min_t(u32, body, RUE_MAX_INLINE);
	kbody = max(qp->max_send_sge * (u32)sizeof(struct rue_ksge), qp->max_inline);
	qp->req.swqe_stride = ALIGN(sizeof(struct rue_swqe) + kbody, 8);
	qp->req.swqe = kvcalloc(slots, qp->req.swqe_stride, GFP_KERNEL);
	if (!qp->req.swqe) {
		rue_ring_free(&qp->req.ring);
		return -ENOMEM;
	}
	cap->max_send_wr = slots;
	cap->max_send_sge = qp->max_send_sge;
	cap->max_inline_data = qp->max_inline;
	return 0;
}

/*
 * A QP on an SRQ has no RQ of its own, only room for the SGEs of the
 * SRQ's WQE it holds; its receive capabilities are 0.
 */
static int rue_qp_use_srq(struct rue_qp *qp, struct ib_qp_cap *cap)
{
	qp->max_recv_sge = qp->srq->max_sge;
	qp->resp.rqe_sg = kcalloc(max(qp->max_recv_sge, 1U),
				  sizeof(*qp->resp.rqe_sg), GFP_KERNEL);
	if (!qp->resp.rqe_sg)
		return -ENOMEM;
	cap->max_recv_wr = 0;
	cap->max_recv_sge = 0;
	return 0;
}

static int rue_qp_alloc_rq(struct rue_qp *qp, struct ib_qp_cap *cap)
{
	u32 slots = roundup_pow_of_two(max(cap->max_recv_wr, 1U));
	u32 sge = max(cap->max_recv_sge, 1U);
	u32 stride = roundup_pow_of_two(sizeof(struct rue_rqe) +
					 sge * sizeof(struct rue_sge));
	int err;

	if (qp->srq)
		return rue_qp_use_srq(qp, cap);
	err = rue_ring_alloc(&qp->resp.ring, slots, stride);
	if (err)
		return err;
	qp->max_recv_sge = min_t(u32, (stride - sizeof(struct rue_rqe)) /
				      sizeof(struct rue_sge), RUE_MAX_SGE);
	qp->resp.rqe_sg = kcalloc(qp->max_recv_sge, sizeof(*qp->resp.rqe_sg),
				  GFP_KERNEL);
	if (!qp->resp.rqe_sg) {
		rue_ring_free(&qp->resp.ring);
		return -ENOMEM;
	}
	cap->max_recv_wr = slots;
	cap->max_recv_sge = qp->max_recv_sge;
	return 0;
}

static void rue_qp_free_queues(struct rue_qp *qp)
{
	kfree(qp->resp.rqe_sg);
	kvfree(qp->req.swqe);
	rue_ring_free(&qp->resp.ring);
	rue_ring_free(&qp->req.ring);
}

static int rue_qp_user_resp(struct rue_qp *qp, struct ib_udata *udata)
{
	struct rue_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct rue_ucontext, ibuc);
	struct rue_create_qp_resp resp = {
		.sq_size = qp->req.ring.size,
		.rq_size = qp->resp.ring.size,
		.sq_slots = qp->req.ring.nslots,
		.rq_slots = qp->resp.ring.nslots,
		.sqe_size = qp->req.ring.stride,
		.rqe_size = qp->resp.ring.stride,
		.max_inline = qp->max_inline,
	};
	int err;

	err = rue_ring_map_user(&qp->req.ring, &uc->ibuc, &resp.sq_offset);
	if (err)
		return err;
	if (!qp->srq) {
		err = rue_ring_map_user(&qp->resp.ring, &uc->ibuc,
					&resp.rq_offset);
		if (err)
			return err;
	}
	if (qp->xport->user_resp)
		qp->xport->user_resp(qp, &resp);
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

/*
 * The private create command: none for the IBTA's QP types; an
 * IB_QPT_DRIVER QP must say which driver QP type it is (its transport
 * checks the rest).
 */
static int rue_qp_read_cmd(struct ib_qp_init_attr *init,
			   struct ib_udata *udata,
			   struct rue_create_qp_cmd *cmd)
{
	int err;

	memset(cmd, 0, sizeof(*cmd));
	if (udata && udata->inlen) {
		if (udata->inlen > sizeof(*cmd) &&
		    !ib_is_udata_cleared(udata, sizeof(*cmd),
					 udata->inlen - sizeof(*cmd)))
			return -EOPNOTSUPP;
		err = ib_copy_from_udata(cmd, udata,
					 min(sizeof(*cmd), udata->inlen));
		if (err)
			return err;
	}
	if (init->qp_type != IB_QPT_DRIVER)
		return cmd->comp_mask ? -EOPNOTSUPP : 0;
	/* driver QPs are for user space (UET: ruedv_create_qp()) */
	if (!udata || !(cmd->comp_mask & RUE_CREATE_QP_CMD_DRIVER))
		return -EOPNOTSUPP;
	return 0;
}

static int rue_qp_alloc_qpn(struct rue_dev *rdev, struct rue_qp *qp,
			    enum ib_qp_type type)
{
	u32 qpn;
	int err;

	if (type == IB_QPT_GSI) {
		err = xa_insert_bh(&rdev->qps, 1, XA_ZERO_ENTRY, GFP_KERNEL);
		qpn = 1;
	} else {
		err = xa_alloc_cyclic_bh(&rdev->qps, &qpn, XA_ZERO_ENTRY,
					 XA_LIMIT(RUE_FIRST_QPN, RUE_BTH_QPN_MASK),
					 &rdev->qp_next, GFP_KERNEL);
		if (err > 0)
			err = 0;
	}
	if (err)
		return err == -EBUSY ? -EEXIST : err;
	qp->ibqp.qp_num = qpn;
	return 0;
}

/* The queues and their kernel shadows; creation order, undone in reverse. */
static int rue_qp_alloc_queues(struct rue_qp *qp, struct ib_qp_init_attr *init)
{
	int err;

	err = dst_cache_init(&qp->dst_cache, GFP_KERNEL);
	if (err)
		return err;
	err = rue_qp_alloc_sq(qp, &init->cap);
	if (err)
		goto err_dst;
	err = rue_qp_alloc_rq(qp, &init->cap);
	if (err)
		goto err_sq;
	return 0;

err_sq:
	rue_ring_free(&qp->req.ring);
	kvfree(qp->req.swqe);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
	return err;
}

static void rue_qp_free_all(struct rue_qp *qp)
{
	rue_qp_free_queues(qp);
	dst_cache_destroy(&qp->dst_cache);
}

static int rue_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	struct rue_dev *rdev = to_rue_dev(ibqp->device);
	const struct rue_transport_ops *xport;
	struct rue_qp *qp = to_rue_qp(ibqp);
	struct rue_create_qp_cmd cmd;
	int err;

	err = rue_qp_check_init(rdev, init);
	if (err)
		return err;
	err = rue_qp_read_cmd(init, udata, &cmd);
	if (err)
		return err;
	xport = rue_qp_transport(rdev, init->qp_type, &cmd);
	if (!xport || (init->srq && !(xport->flags & RUE_XPORT_SRQ)))
		return -EOPNOTSUPP;

	rue_qp_init(qp, rdev, xport, !!udata);
	rue_qp_engine_init(qp);
	INIT_LIST_HEAD(&qp->txq_node);
	rue_cc_qp_init(qp);
	qp->scq = to_rue_cq(init->send_cq);
	qp->rcq = to_rue_cq(init->recv_cq);
	qp->srq = init->srq ? to_rue_srq(init->srq) : NULL;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->mtu = 1024;

	err = rue_qp_alloc_queues(qp, init);
	if (err)
		return err;
	err = rue_qp_alloc_qpn(rdev, qp, init->qp_type);
	if (err)
		goto err_queues;
	if (xport->create) {
		err = xport->create(qp, &cmd, !!udata);
		if (err)
			goto err_qpn;
	}
	if (udata) {
		err = rue_qp_user_resp(qp, udata);
		if (err)
			goto err_xport;
	}
	qp->attr.cap = init->cap;

	/* Last: the receive path can find the QP from here on. */
	xa_store_bh(&rdev->qps, ibqp->qp_num, qp, GFP_KERNEL);
	if (xport->publish)
		xport->publish(qp);
	rue_dbg_qp(qp, "created\n");
	return 0;

err_xport:
	if (xport->free)
		xport->free(qp);
err_qpn:
	xa_erase_bh(&rdev->qps, ibqp->qp_num);
err_queues:
	rue_qp_free_all(qp);
	return err;
}

static int rue_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	const struct rue_transport_ops *xport = qp->xport;

	xa_erase_bh(&qp->rdev->qps, ibqp->qp_num);
	if (xport->unpublish)
		xport->unpublish(qp);
	/* The core frees the QP when we return: no reader may hold it. */
	synchronize_rcu();

	/* In ERR nothing arms a timer or sends; then wait out the users. */
	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	rue_qp_set_state(qp, IB_QPS_ERR);
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);
	if (xport->destroy)
		xport->destroy(qp);
	rue_qp_put(qp);
	wait_for_completion(&qp->released);
	if (xport->release)
		xport->release(qp);
	rue_qp_engine_stop(qp);
	rue_mw_qp_gone(ibqp);

	/* Nothing runs any more: drop references without completions. */
	spin_lock_bh(&qp->req.lock);
	rue_sq_reset(qp);
	spin_unlock_bh(&qp->req.lock);
	if (xport->clear) {
		spin_lock_bh(&qp->resp.lock);
		xport->clear(qp, false);
		spin_unlock_bh(&qp->resp.lock);
	}
	if (xport->free)
		xport->free(qp);
	rue_qp_free_all(qp);
	rue_dbg_qp(qp, "destroyed\n");
	return 0;
}

/* ------------------------------------------------------------------ */
/* modify_qp and query_qp                                              */

static int rue_qp_check_attr(struct rue_qp *qp, struct ib_qp_attr *attr,
			     int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096 ||
	     attr->path_mtu > rue_dev_active_mtu(qp->rdev)))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > RUE_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > RUE_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > RUE_BTH_QPN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC |
				       IB_ACCESS_LOCAL_WRITE)))
		return -EINVAL;
	if (mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	return 0;
}

static void rue_qp_apply_attr(struct rue_qp *qp, struct ib_qp_attr *attr,
			      int mask, const struct rue_av *av)
{
	if (mask & IB_QP_ACCESS_FLAGS) {
		qp->access = attr->qp_access_flags;
		qp->attr.qp_access_flags = attr->qp_access_flags;
	}
	if (mask & IB_QP_QKEY) {
		qp->qkey = attr->qkey;
		qp->attr.qkey = attr->qkey;
	}
	if (mask & IB_QP_AV) {
		qp->av = *av;
		qp->attr.ah_attr = attr->ah_attr;
		dst_cache_reset(&qp->dst_cache);
	}
	if (mask & IB_QP_PATH_MTU) {
		qp->attr.path_mtu = attr->path_mtu;
		qp->mtu = ib_mtu_enum_to_int(attr->path_mtu);
	}
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->attr.retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->attr.rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		qp->attr.rq_psn = attr->rq_psn & RUE_BTH_PSN_MASK;
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn & RUE_BTH_PSN_MASK;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_DEST_QPN) {
		qp->dest_qpn = attr->dest_qp_num;
		qp->attr.dest_qp_num = attr->dest_qp_num;
	}
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		qp->attr.en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & (IB_QP_AV | IB_QP_DEST_QPN)) {
		u32 fl = qp->av.flow_label ?:
			 rdma_calc_flow_label(qp->ibqp.qp_num, qp->dest_qpn);

		qp->sport = cpu_to_be16(rdma_get_udp_sport(fl, qp->ibqp.qp_num,
							   qp->dest_qpn));
	}
}

/* Side effects of entering @state; both locks held. */
static void rue_qp_enter(struct rue_qp *qp, enum ib_qp_state state)
{
	const struct rue_transport_ops *xport = qp->xport;

	if (xport->enter)
		xport->enter(qp, state);
	switch (state) {
	case IB_QPS_RESET:
		if (xport->drop_peers)
			xport->drop_peers(qp);
		rue_sq_reset(qp);
		rue_rq_reset(qp);
		if (xport->clear)
			xport->clear(qp, false);
		break;
	case IB_QPS_RTS:
		if (qp->state == IB_QPS_RTR)
			rue_cc_qp_start(qp);
		break;
	case IB_QPS_SQD:
		/* a new entry into SQD drains anew (rue_sq_drained_check()) */
		if (qp->state != IB_QPS_SQD)
			qp->req.drained_event = false;
		break;
	default:
		break;
	}
	rue_qp_set_state(qp, state);
}

static int rue_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			 int mask, struct ib_udata *udata)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	enum ib_qp_state cur, next;
	struct rue_av av;
	int err;

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;

	spin_lock_bh(&qp->req.lock);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	spin_unlock_bh(&qp->req.lock);

	if (qp->xport->modify_ok ? !qp->xport->modify_ok(cur, next, mask) :
	    !ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		return -EINVAL;
	err = rue_qp_check_attr(qp, attr, mask);
	if (err)
		return err;
	if (mask & IB_QP_AV) {
		err = rue_av_from_attr(&av, &attr->ah_attr);
		if (err)
			return err;
	}

	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		rue_qp_stop(qp);

	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	/*
	 * The transition was checked from @cur with no lock held: an error
	 * in the data path may have moved the QP since (rue_qp_error()),
	 * and must not be overwritten by a transition decided before it.
	 */
	if (cur != qp->state) {
		spin_unlock(&qp->resp.lock);
		spin_unlock_bh(&qp->req.lock);
		return -EINVAL;
	}
	rue_qp_apply_attr(qp, attr, mask, &av);
	if (mask & IB_QP_STATE)
		rue_qp_enter(qp, next);
	/* drained already: nothing later would say so */
	rue_sq_drained_check(qp);
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);
	rue_qp_notify(qp);

	if (next == IB_QPS_ERR) {
		rue_qp_flush(qp);
		/* the affiliated event: it takes no SRQ WQE from here on */
		if (qp->srq && cur != IB_QPS_ERR)
			rue_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	} else if (next == IB_QPS_RTS) {
		rue_qp_run(qp);
	}
	return 0;
}

static int rue_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			int mask, struct ib_qp_init_attr *init)
{
	struct rue_qp *qp = to_rue_qp(ibqp);

	spin_lock_bh(&qp->req.lock);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->sq_draining = qp->state == IB_QPS_SQD &&
			    qp->req.una_psn != qp->req.psn;
	spin_unlock_bh(&qp->req.lock);
	attr->port_num = 1;
	attr->pkey_index = 0;
	attr->path_mig_state = IB_MIG_MIGRATED;

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = qp->attr.cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->port_num = 1;
	return 0;
}

static const struct ib_device_ops rue_qp_ops = {
	.create_qp = rue_create_qp,
	.destroy_qp = rue_destroy_qp,
	.modify_qp = rue_modify_qp,
	.post_recv = rue_post_recv,
	.post_send = rue_post_send,
	.query_qp = rue_query_qp,

	INIT_RDMA_OBJ_SIZE(ib_qp, rue_qp, ibqp),
};

void rue_qp_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_qp_ops);
}
