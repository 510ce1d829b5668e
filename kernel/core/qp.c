// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs as objects the data path uses: lookup and references,
 * completions and the events they owe, errors and flushes.  Creation and
 * the state machine are the verbs' (qp_verbs.c); sending is the engine's
 * (engine.c); what a QP does on the wire is its transport's
 * (transport.h).
 *
 * Locks.  req.lock guards the send side (SQ ring consumer, requester
 * state), resp.lock the receive side (RQ ring consumer, responder state).
 * When both are needed, req.lock comes first.  qp->state changes only
 * with both held, so either one is enough to read it.  CQ locks nest
 * inside either.  Completion events and QP errors found under a lock are
 * acted on after it is dropped (rue_qp_notify()), because a consumer's
 * handler may post or poll.
 *
 * Lifetime.  The receive path finds QPs in rdev->qps under RCU and takes
 * a reference.  destroy_qp unpublishes the QP, waits a grace period (the
 * core frees the memory right after we return), stops timers and work,
 * and waits for the last reference (qp_verbs.c).
 */
#include "cq.h"
#include "device.h"
#include "qp.h"
#include "rq.h"
#include "sq.h"
#include "stats.h"
#include "transport.h"
#include "cc/cc.h"

struct rue_qp *rue_qp_get(struct rue_dev *rdev, u32 qpn)
{
	struct rue_qp *qp;

	rcu_read_lock();
	qp = xa_load(&rdev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refcnt))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

void rue_qp_put(struct rue_qp *qp)
{
	if (refcount_dec_and_test(&qp->refcnt))
		complete(&qp->released);
}

void rue_qp_event(struct rue_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/**
 * rue_qp_stop() - stop what times the QP's sending: its transport's
 * timers and its rate control's pacing
 * @qp: the QP, in RESET or ERR or going away; process context
 */
void rue_qp_stop(struct rue_qp *qp)
{
	if (qp->xport->stop)
		qp->xport->stop(qp);
	rue_cc_qp_stop(qp);
}

/* ------------------------------------------------------------------ */
/* Completions and errors                                              */

/**
 * rue_qp_complete() - post a completion for @qp, with a QP lock held
 * @qp: the QP
 * @cq: its send or receive CQ
 * @cqe: the completion (qp_num filled in by the caller)
 * @solicited: the completion is solicited
 *
 * Events and the error an overflow causes wait for rue_qp_notify().
 */
void rue_qp_complete(struct rue_qp *qp, struct rue_cq *cq,
		     struct rue_cqe *cqe, bool solicited)
{
	bool notify = false;
	int err;

	if (!cq->user)
		rue_cqe_set_kqp(cqe, &qp->ibqp);
	err = rue_cq_post(cq, cqe, solicited, &notify);
	if (err) {
		rue_stat_inc(qp->rdev, RUE_STAT_CQ_OVERFLOWS);
		if (err == -ENOSPC)
			set_bit(RUE_PEND_ERROR, &qp->pend_bits);
	}
	if (notify)
		set_bit(cq == qp->scq ? RUE_PEND_NOTIFY_SCQ :
					RUE_PEND_NOTIFY_RCQ, &qp->pend_bits);
}

/* What rue_qp_complete() left to do; called with no QP lock held. */
void rue_qp_notify(struct rue_qp *qp)
{
	if (likely(!READ_ONCE(qp->pend_bits)))
		return;
	if (test_and_clear_bit(RUE_PEND_NOTIFY_SCQ, &qp->pend_bits))
		rue_cq_notify(qp->scq);
	if (test_and_clear_bit(RUE_PEND_NOTIFY_RCQ, &qp->pend_bits))
		rue_cq_notify(qp->rcq);
	if (test_and_clear_bit(RUE_PEND_ERROR, &qp->pend_bits))
		rue_qp_error(qp);
	if (test_and_clear_bit(RUE_PEND_SQ_DRAINED, &qp->pend_bits))
		rue_qp_event(qp, IB_EVENT_SQ_DRAINED);
}

/* Both QP locks held. */
void rue_qp_set_state(struct rue_qp *qp, enum ib_qp_state state)
{
	lockdep_assert_held(&qp->req.lock);
	lockdep_assert_held(&qp->resp.lock);
	qp->state = state;
	qp->attr.qp_state = state;
	/* librue reads it to know that posted WQEs need a doorbell to flush */
	WRITE_ONCE(qp->req.ring.hdr->state, state);
	if (qp->resp.ring.buf)
		WRITE_ONCE(qp->resp.ring.hdr->state, state);
}

/*
 * Complete everything outstanding: the first failed WQE with its status,
 * the rest with IB_WC_WR_FLUSH_ERR (IBTA 10.8.3.3).
 */
void rue_qp_flush(struct rue_qp *qp)
{
	const struct rue_transport_ops *xp = qp->xport;

	spin_lock_bh(&qp->req.lock);
	if (qp->state == IB_QPS_ERR) {
		if (xp->drop_peers)
			xp->drop_peers(qp);
		rue_sq_flush(qp);
	}
	spin_unlock_bh(&qp->req.lock);

	spin_lock_bh(&qp->resp.lock);
	if (qp->state == IB_QPS_ERR) {
		if (xp->clear)
			xp->clear(qp, true);
		rue_rq_flush(qp);
	}
	spin_unlock_bh(&qp->resp.lock);
	rue_qp_notify(qp);
}

static void rue_qp_err_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, err_work);
	bool async;
	u8 event;

	spin_lock_bh(&qp->req.lock);
	async = qp->err_async;
	event = qp->err_event;
	qp->err_async = false;
	spin_unlock_bh(&qp->req.lock);
	/* before the flush completions, as an HCA's event queue has it */
	if (async)
		rue_qp_event(qp, event);
	rue_qp_stop(qp);
	rue_qp_flush(qp);
	if (qp->srq)
		rue_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
}

/*
 * What a move to error from the data path reports apart from completions
 * (IBTA 11.6.3.1, the affiliated asynchronous errors): a producer index
 * that lied about the send ring is a Local Work Queue Catastrophic Error,
 * a request the responder refused (invalid, or an access violation) the
 * responder's error.  Errors a completion reports (retries exhausted, a
 * bad local key, a receive too small) raise nothing.  Both locks held.
 */
static void rue_qp_async_error(struct rue_qp *qp)
{
	if (qp->req.bad_prod) {
		qp->err_async = true;
		qp->err_event = IB_EVENT_QP_FATAL;
	} else if (qp->resp.fail_async) {
		qp->err_async = true;
		qp->err_event = qp->resp.fail_event;
	}
}

/**
 * rue_qp_error() - move a QP to the error state from inside the data path
 * @qp: the QP; no QP lock held
 *
 * The flush runs from the workqueue.
 */
void rue_qp_error(struct rue_qp *qp)
{
	bool changed = false;

	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	if (qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET) {
		rue_qp_set_state(qp, IB_QPS_ERR);
		changed = true;
		rue_qp_async_error(qp);
	}
	qp->resp.fail_async = false;
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);
	if (changed) {
		rue_dbg_qp(qp, "to error\n");
		queue_work(qp->rdev->wq, &qp->err_work);
	}
}

/**
 * rue_qp_sq_error() - a UD send failed: the send queue stops, the QP
 * goes to the SQE state and its sends are flushed; receives go on, and
 * modify_qp(SQE -> RTS) resumes sending (IBTA 10.3.1, as the MAD layer
 * uses it for QP1).
 * @qp: a UD or GSI QP; no QP lock held
 */
void rue_qp_sq_error(struct rue_qp *qp)
{
	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	if (qp->state == IB_QPS_RTS)
		rue_qp_set_state(qp, IB_QPS_SQE);
	spin_unlock(&qp->resp.lock);
	if (qp->state == IB_QPS_SQE)
		rue_sq_flush(qp);
	spin_unlock_bh(&qp->req.lock);
	rue_qp_notify(qp);
}

/**
 * rue_qp_init() - the object part of a QP being created
 * @qp: the QP
 * @rdev: its device
 * @xport: its transport
 * @user: made by a user context
 */
void rue_qp_init(struct rue_qp *qp, struct rue_dev *rdev,
		 const struct rue_transport_ops *xport, bool user)
{
	qp->rdev = rdev;
	qp->xport = xport;
	qp->user = user;
	refcount_set(&qp->refcnt, 1);
	init_completion(&qp->released);
	spin_lock_init(&qp->req.lock);
	spin_lock_init(&qp->resp.lock);
	spin_lock_init(&qp->post_lock);
	INIT_WORK(&qp->err_work, rue_qp_err_work);
	qp->state = IB_QPS_RESET;
}
