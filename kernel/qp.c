// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs: creation and destruction, the state machine of
 * modify_qp (IBTA vol 1, 10.3), and the per-QP transmit engine.
 *
 * Locks.  req.lock guards the send side (SQ ring consumer, requester
 * state), resp.lock the receive side (RQ ring consumer, responder state).
 * When both are needed, req.lock comes first.  qp->state changes only
 * with both held, so either one is enough to read it.  CQ locks nest
 * inside either.  Completion events and QP errors found under a lock are
 * acted on after it is dropped (rue_qp_notify()), because a consumer's
 * handler may post or poll.
 *
 * The transmit engine.  rue_qp_run() builds and sends whatever the QP
 * has to send: responder answers first, then requests.  One context at a
 * time runs it (RUE_TX_RUNNING); a caller that finds it busy leaves
 * RUE_TX_PENDING for the runner, so no request to run is lost.  It runs
 * inline where that is cheapest (a doorbell system call, a received ACK
 * in softirq) and moves to the device workqueue when a run exhausts its
 * budget, so one busy QP cannot hold a CPU in softirq.
 *
 * Lifetime.  The receive path finds QPs in rdev->qps under RCU and takes
 * a reference.  destroy_qp unpublishes the QP, waits a grace period (the
 * core frees the memory right after we return), stops timers and work,
 * and waits for the last reference.
 */
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/sched/stat.h>
#include <rdma/ib_cache.h>
#include <rdma/uverbs_ioctl.h>

#include "caps.h"
#include "cc.h"
#include "cq.h"
#include "device.h"
#include "job.h"
#include "mr.h"
#include "pkt.h"
#include "post.h"
#include "qp.h"
#include "rc_req.h"
#include "rc_resp.h"
#include "rq.h"
#include "ses.h"
#include "sgl.h"
#include "sq.h"
#include "txq.h"
#include "ud.h"
#include "uet.h"
#include "verbs.h"
#include "xmit.h"

#define RUE_TX_BUDGET		64	/* packets per inline run */
#define RUE_TX_BUDGET_WORK	256	/* per run from the workqueue */

static unsigned int tx_poll_us = 50;
module_param(tx_poll_us, uint, 0644);
MODULE_PARM_DESC(tx_poll_us,
		 "after a doorbell, poll the send queue of a QP with a local peer for this many us without a post (0: never)");

/* A poller that found its CPU busy: none for this long. */
#define RUE_POLL_BACKOFF	msecs_to_jiffies(10)

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

	if (!cq->user)
		rue_cqe_set_kqp(cqe, &qp->ibqp);
	if (rue_cq_post(cq, cqe, solicited, &notify)) {
		rue_stat_inc(qp->rdev, RUE_STAT_CQ_OVERFLOWS);
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
}

static void rue_qp_set_state(struct rue_qp *qp, enum ib_qp_state state)
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
	spin_lock_bh(&qp->req.lock);
	if (qp->state == IB_QPS_ERR) {
		if (qp->ibqp.qp_type == IB_QPT_DRIVER)
			rue_ses_qp_drop_pdcs(qp);
		rue_sq_flush(qp);
	}
	spin_unlock_bh(&qp->req.lock);

	spin_lock_bh(&qp->resp.lock);
	if (qp->state == IB_QPS_ERR) {
		rue_resp_clear(qp, true);
		rue_rq_flush(qp);
	}
	spin_unlock_bh(&qp->resp.lock);
	rue_qp_notify(qp);
}

static void rue_qp_err_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, err_work);

	rue_req_stop(qp);
	rue_cc_qp_stop(qp);
	rue_qp_flush(qp);
	if (qp->srq)
		rue_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
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
	}
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

/* ------------------------------------------------------------------ */
/* Transmit engine                                                     */

/*
 * Send what the requester or responder built, in order.  Whether the
 * peer turned out to be local decides whether multi-segment packets are
 * built next (struct rue_tx_cb); if one met a route that is not local
 * after all, the requester goes back and sends wire packets.
 */
void rue_qp_send_list(struct rue_qp *qp, struct sk_buff_head *list)
{
	struct sk_buff *skb;
	bool resend = false;
	int ret;
	u8 tos;

	if (skb_queue_empty(list))
		return;
	local_bh_disable();
	while ((skb = __skb_dequeue(list))) {
		rcu_read_lock();
		rue_cc_mark(qp, skb, &tos);
		rcu_read_unlock();
		ret = rue_xmit(qp->rdev, &qp->av, &qp->dst_cache, qp->sport,
			       htons(ROCE_V2_UDP_DPORT), skb,
			       rue_tx_cb(skb)->pad, tos);
		if (ret >= 0)
			WRITE_ONCE(qp->loop, ret == RUE_XMIT_LOCAL);
		if (ret == -EMSGSIZE) {
			WRITE_ONCE(qp->loop, false);
			resend = true;
		}
	}
	local_bh_enable();
	if (resend)
		rue_req_resend(qp);
}

/* What @list will take on the wire, for rate control. */
static u32 rue_qp_wire_bytes(const struct rue_qp *qp,
			     const struct sk_buff_head *list)
{
	u32 hdrs = ETH_HLEN + sizeof(struct udphdr) + RUE_ICRC_BYTES +
		   (qp->av.network_type == RDMA_NETWORK_IPV4 ?
		    sizeof(struct iphdr) : sizeof(struct ipv6hdr));
	struct sk_buff *skb;
	u32 bytes = 0;

	skb_queue_walk(list, skb)
		bytes += skb->len + rue_tx_cb(skb)->pad + hdrs;
	return bytes;
}

static int rue_qp_tx(struct rue_qp *qp, int budget)
{
	struct sk_buff_head out;
	bool error = false;
	int n;

	__skb_queue_head_init(&out);
	budget = rue_cc_tx_budget(qp, budget);
	if (!budget)
		return 0;	/* kicked by the pacing timer */
	budget = rue_txq_room(qp, budget);
	if (!budget)
		return 0;	/* kicked when the device's queue has room */
	if (qp->ibqp.qp_type == IB_QPT_RC) {
		/*
		 * Unlocked peek: whoever queues responder output runs the
		 * engine afterwards (RUE_TX_PENDING orders it after the queue).
		 */
		n = 0;
		if (READ_ONCE(qp->resp.res_out) != READ_ONCE(qp->resp.res_head) ||
		    READ_ONCE(qp->resp.ack_pending))
			n = rue_resp_tx(qp, budget, &out);
		n += rue_req_tx(qp, budget - n, &out, &error);
		rue_cc_tx_done(qp, rue_qp_wire_bytes(qp, &out));
		rue_qp_send_list(qp, &out);
	} else if (qp->ibqp.qp_type == IB_QPT_DRIVER) {
		n = rue_ses_tx(qp, budget);
	} else {
		local_bh_disable();
		n = rue_ud_tx(qp, budget, &out, &error);
		local_bh_enable();
		if (error) {
			rue_qp_sq_error(qp);
			error = false;
		}
	}
	rue_qp_notify(qp);
	if (error)
		rue_qp_error(qp);
	return n;
}

static void rue_qp_run_budget(struct rue_qp *qp, int budget)
{
	set_bit(RUE_TX_PENDING, &qp->tx_bits);
	while (!test_and_set_bit_lock(RUE_TX_RUNNING, &qp->tx_bits)) {
		while (test_and_clear_bit(RUE_TX_PENDING, &qp->tx_bits)) {
			if (rue_qp_tx(qp, budget) >= budget) {
				/* More to do: let the workqueue carry on. */
				set_bit(RUE_TX_PENDING, &qp->tx_bits);
				clear_bit_unlock(RUE_TX_RUNNING, &qp->tx_bits);
				queue_work(qp->rdev->wq, &qp->tx_work);
				return;
			}
		}
		clear_bit_unlock(RUE_TX_RUNNING, &qp->tx_bits);
		/* clear RUNNING before looking at PENDING: see rue_qp_run() */
		smp_mb__after_atomic();
		if (!test_bit(RUE_TX_PENDING, &qp->tx_bits))
			break;
	}
}

/**
 * rue_qp_run() - run the transmit engine now, in the caller's context
 * @qp: the QP
 *
 * Any context but hard interrupt or interrupts disabled.
 */
void rue_qp_run(struct rue_qp *qp)
{
	rue_qp_run_budget(qp, RUE_TX_BUDGET);
}

/* Run the transmit engine soon, from the workqueue. */
void rue_qp_kick(struct rue_qp *qp)
{
	set_bit(RUE_TX_PENDING, &qp->tx_bits);
	queue_work(qp->rdev->wq, &qp->tx_work);
}

static void rue_qp_tx_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, tx_work);

	rue_qp_run_budget(qp, RUE_TX_BUDGET_WORK);
}

/*
 * Polling the send queue.  A user QP's doorbell runs the engine in the
 * poster's system call, which is cheapest for one message at a time.  A
 * stream of small messages to a local peer (delivered in memory, no
 * wire) is then bound by one CPU doing the application, a system call
 * per post and the whole transport.  So after a doorbell such a QP is
 * also watched by a poller from the unbound workqueue - on an idle CPU
 * if there is one - which keeps the SQ armed (posts need no doorbell,
 * RUE_SQ_F_KERNEL_ARMED) and runs the engine whenever the producer index
 * moves: the application and the transport then run on two CPUs.
 *
 * The poller stops after tx_poll_us without a post, and at once when its
 * CPU has other work (single_task_running(), need_resched()); then none
 * starts for RUE_POLL_BACKOFF, so where every CPU is busy (both ends of
 * a latency test spin) it costs one wakeup per backoff, not per post.
 *
 * Only small messages to local peers.  Messages of several packets
 * spend little per post on the system call, and runs on two CPUs (the
 * poller's, and an ACK's or a timer's) put one QP's packets into two
 * per-CPU queues, local (loop.c) or on a wire (backlogs, transmit
 * queues), where they can be reordered: ib_send_bw of 64 KiB messages
 * on 6.12 ran into an RNR NAK and a retransmission timeout and lost
 * two thirds of its bandwidth.  A WQE larger than the path MTU stops
 * the poller.
 *
 * Stopping: RUE_TX_POLL is cleared before a last run, which disarms the
 * SQ and looks at the producer index once more (the handshake in the
 * ABI header), so no post is left behind.
 */
static void rue_qp_poll_work(struct work_struct *work)
{
	struct rue_qp *qp = container_of(work, struct rue_qp, poll_work);
	const u32 *prodp = &qp->req.ring.hdr->prod;
	u64 idle_ns = (u64)READ_ONCE(tx_poll_us) * NSEC_PER_USEC;
	u64 last = ktime_get_ns();
	u32 prod = READ_ONCE(*prodp) - 1, p;

	while (READ_ONCE(qp->state) == IB_QPS_RTS) {
		if (!single_task_running() || need_resched()) {
			WRITE_ONCE(qp->poll_after, jiffies + RUE_POLL_BACKOFF);
			break;
		}
		/* the index before the run: a post after it is seen next time */
		p = READ_ONCE(*prodp);
		if (p != prod) {
			prod = p;
			rue_qp_run_budget(qp, RUE_TX_BUDGET_WORK);
			if (!READ_ONCE(qp->req.last_small))
				break;
			last = ktime_get_ns();
			continue;
		}
		if (ktime_get_ns() - last > idle_ns)
			break;
		cpu_relax();
	}
	clear_bit(RUE_TX_POLL, &qp->tx_bits);
	/* POLL cleared before the run that disarms looks at the ring */
	smp_mb__after_atomic();
	rue_qp_run(qp);
}

/* After a doorbell: have a poller watch the SQ, if that pays. */
static void rue_qp_poll_start(struct rue_qp *qp)
{
	if (!READ_ONCE(tx_poll_us) || !qp->user ||
	    qp->ibqp.qp_type != IB_QPT_RC || !READ_ONCE(qp->loop) ||
	    !READ_ONCE(qp->req.last_small) ||
	    READ_ONCE(qp->state) != IB_QPS_RTS ||
	    time_before(jiffies, READ_ONCE(qp->poll_after)) ||
	    test_and_set_bit(RUE_TX_POLL, &qp->tx_bits))
		return;
	spin_lock_bh(&qp->req.lock);
	rue_req_set_armed(qp, true);
	spin_unlock_bh(&qp->req.lock);
	queue_work(system_unbound_wq, &qp->poll_work);
}

/**
 * rue_qp_doorbell() - a user QP's send doorbell: run the engine now and,
 * for a local peer, poll for the posts that follow
 * @qp: the QP
 *
 * Process context.
 */
void rue_qp_doorbell(struct rue_qp *qp)
{
	rue_qp_run(qp);
	rue_qp_poll_start(qp);
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */

static int rue_qp_check_init(struct rue_dev *rdev,
			     struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UD:
	case IB_QPT_GSI:
	case IB_QPT_DRIVER:	/* UET: rue_qp_check_cmd() says which */
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags)
		return -EOPNOTSUPP;
	if (init->srq)
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

static int rue_qp_alloc_rq(struct rue_qp *qp, struct ib_qp_cap *cap)
{
	u32 slots = roundup_pow_of_two(max(cap->max_recv_wr, 1U));
	u32 sge = max(cap->max_recv_sge, 1U);
	u32 stride = roundup_pow_of_two(sizeof(struct rue_rqe) +
					 sge * sizeof(struct rue_sge));
	int err;

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
	kvfree(qp->resp.res);
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
	err = rue_ring_map_user(&qp->resp.ring, &uc->ibuc, &resp.rq_offset);
	if (err)
		return err;
	if (qp->ibqp.qp_type == IB_QPT_DRIVER) {
		resp.comp_mask |= RUE_CREATE_QP_RESP_UET;
		resp.uet_addr = qp->uet.addr;
		resp.uet_job_id = qp->uet.job;
	}
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

/*
 * The private create command: none for RC and UD; an IB_QPT_DRIVER QP
 * must say it is UET and give its job and delivery mode.
 */
static int rue_qp_check_cmd(struct ib_qp_init_attr *init,
			    struct ib_udata *udata,
			    struct rue_create_qp_cmd *cmd)
{
	const u64 uet = RUE_CREATE_QP_CMD_DRIVER | RUE_CREATE_QP_CMD_UET;
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
	/* UET QPs are for user space, made through ruedv_create_qp() */
	if (!udata || cmd->comp_mask != uet ||
	    cmd->driver_qp_type != RUE_DRIVER_QPT_UET)
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

static int rue_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	struct rue_dev *rdev = to_rue_dev(ibqp->device);
	struct rue_qp *qp = to_rue_qp(ibqp);
	struct rue_create_qp_cmd cmd;
	bool uet = init->qp_type == IB_QPT_DRIVER;
	int err;

	err = rue_qp_check_init(rdev, init);
	if (err)
		return err;
	err = rue_qp_check_cmd(init, udata, &cmd);
	if (err)
		return err;
	if (uet) {
		/* only into a job an administrator granted its creator */
		if (cmd.uet_job_id > RUE_SES_JOB_MASK)
			return -EINVAL;
		err = rue_job_bind(rdev, cmd.uet_job_id);
		if (err)
			return err;
	}

	qp->rdev = rdev;
	qp->user = !!udata;
	refcount_set(&qp->refcnt, 1);
	init_completion(&qp->released);
	spin_lock_init(&qp->req.lock);
	spin_lock_init(&qp->resp.lock);
	spin_lock_init(&qp->post_lock);
	INIT_WORK(&qp->tx_work, rue_qp_tx_work);
	INIT_WORK(&qp->poll_work, rue_qp_poll_work);
	INIT_LIST_HEAD(&qp->txq_node);
	INIT_WORK(&qp->err_work, rue_qp_err_work);
	rue_req_init(qp);
	rue_cc_qp_init(qp);
	qp->state = IB_QPS_RESET;
	qp->scq = to_rue_cq(init->send_cq);
	qp->rcq = to_rue_cq(init->recv_cq);
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->mtu = 1024;

	err = dst_cache_init(&qp->dst_cache, GFP_KERNEL);
	if (err)
		goto err_job;
	err = rue_qp_alloc_sq(qp, &init->cap);
	if (err)
		goto err_dst;
	err = rue_qp_alloc_rq(qp, &init->cap);
	if (err)
		goto err_sq;
	qp->resp.res_size = 2 * RUE_MAX_RD_ATOMIC;
	qp->resp.res = kvcalloc(qp->resp.res_size, sizeof(*qp->resp.res),
				GFP_KERNEL);
	if (!qp->resp.res) {
		err = -ENOMEM;
		goto err_queues;
	}

	err = rue_qp_alloc_qpn(rdev, qp, init->qp_type);
	if (err)
		goto err_queues;
	if (uet) {
		err = rue_ses_qp_create(qp, &cmd);
		if (err)
			goto err_qpn;
	}
	if (udata) {
		err = rue_qp_user_resp(qp, udata);
		if (err)
			goto err_uet;
	}
	qp->attr.cap = init->cap;

	/* Last: the receive path can find the QP from here on. */
	xa_store_bh(&rdev->qps, ibqp->qp_num, qp, GFP_KERNEL);
	if (uet)
		rue_ses_qp_publish(qp);
	rue_dbg_qp(qp, "created\n");
	return 0;

err_uet:
	xa_erase_bh(&rdev->uet.eps, qp->uet.pid);
err_qpn:
	xa_erase_bh(&rdev->qps, ibqp->qp_num);
err_queues:
	rue_qp_free_queues(qp);
	goto err_dst;
err_sq:
	rue_ring_free(&qp->req.ring);
	kvfree(qp->req.swqe);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
err_job:
	if (uet)
		rue_job_unbind(rdev, cmd.uet_job_id);
	return err;
}

static int rue_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	struct rue_dev *rdev = qp->rdev;

	xa_erase_bh(&rdev->qps, ibqp->qp_num);
	if (ibqp->qp_type == IB_QPT_DRIVER)
		rue_ses_qp_destroy(qp);	/* also waits a grace period */
	/* The core frees the QP when we return: no reader may hold it. */
	synchronize_rcu();

	/* In ERR nothing arms a timer or sends; then wait out the users. */
	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	rue_qp_set_state(qp, IB_QPS_ERR);
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);
	rue_qp_put(qp);
	wait_for_completion(&qp->released);
	if (ibqp->qp_type == IB_QPT_DRIVER)
		rue_ses_qp_gone(qp);
	rue_req_stop(qp);
	rue_cc_qp_stop(qp);
	/* in ERR a poller stops at once; its last run may queue tx_work */
	cancel_work_sync(&qp->poll_work);
	cancel_work_sync(&qp->tx_work);
	/* a run before the cancel may have armed pacing: its kick is next */
	rue_cc_qp_stop(qp);
	/* In ERR it waits no more; then no write_space call kicks it. */
	rue_txq_cancel(qp);
	cancel_work_sync(&qp->tx_work);
	cancel_work_sync(&qp->err_work);
	rue_req_stop(qp);
	rue_cc_qp_stop(qp);

	/* Nothing runs any more: drop references without completions. */
	spin_lock_bh(&qp->req.lock);
	rue_sq_reset(qp);
	spin_unlock_bh(&qp->req.lock);
	spin_lock_bh(&qp->resp.lock);
	rue_resp_clear(qp, false);
	spin_unlock_bh(&qp->resp.lock);

	rue_qp_free_queues(qp);
	dst_cache_destroy(&qp->dst_cache);
	if (ibqp->qp_type == IB_QPT_DRIVER)
		rue_job_unbind(rdev, qp->uet.job);
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
	switch (state) {
	case IB_QPS_RESET:
		if (qp->ibqp.qp_type == IB_QPT_DRIVER)
			rue_ses_qp_drop_pdcs(qp);
		rue_sq_reset(qp);
		rue_rq_reset(qp);
		rue_resp_clear(qp, false);
		qp->resp.msn = 0;
		qp->req.rnr_wait = false;
		break;
	case IB_QPS_RTR:
		rue_resp_start(qp);
		break;
	case IB_QPS_RTS:
		if (qp->state == IB_QPS_RTR) {
			rue_req_start(qp);
			rue_cc_qp_start(qp);
		}
		break;
	default:
		break;
	}
	rue_qp_set_state(qp, state);
}

/*
 * UET QPs go RESET, INIT, RTR, RTS like UD QPs (and EFA's SRD QPs), but
 * need no attribute on the way: they have no path, peer or Q_Key.
 */
static bool rue_qp_uet_modify_ok(enum ib_qp_state cur, enum ib_qp_state next,
				 int mask)
{
	const int allowed = IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_PORT |
			    IB_QP_PKEY_INDEX | IB_QP_QKEY | IB_QP_SQ_PSN;

	if (mask & ~allowed)
		return false;
	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return next == IB_QPS_INIT;
	case IB_QPS_INIT:
		return next == IB_QPS_INIT || next == IB_QPS_RTR;
	case IB_QPS_RTR:
		return next == IB_QPS_RTS;
	case IB_QPS_RTS:
		return next == IB_QPS_RTS;
	default:
		return false;
	}
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

	if (ibqp->qp_type == IB_QPT_DRIVER ? !rue_qp_uet_modify_ok(cur, next, mask) :
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

	if (next == IB_QPS_RESET || next == IB_QPS_ERR) {
		rue_req_stop(qp);
		rue_cc_qp_stop(qp);
	}

	spin_lock_bh(&qp->req.lock);
	spin_lock(&qp->resp.lock);
	if ((mask & IB_QP_CUR_STATE) && cur != qp->state) {
		spin_unlock(&qp->resp.lock);
		spin_unlock_bh(&qp->req.lock);
		return -EINVAL;
	}
	rue_qp_apply_attr(qp, attr, mask, &av);
	if (mask & IB_QP_STATE)
		rue_qp_enter(qp, next);
	spin_unlock(&qp->resp.lock);
	spin_unlock_bh(&qp->req.lock);

	if (next == IB_QPS_ERR)
		rue_qp_flush(qp);
	else if (next == IB_QPS_RTS)
		rue_qp_run(qp);
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
