// SPDX-License-Identifier: GPL-2.0
/*
 * RC requester, what times out: the retransmission timer (IBTA vol 1,
 * 9.7.6.1.3), which goes back to the oldest incomplete WQE or fails it
 * when the retries are spent, the RNR timer (9.7.5.2.8), after which
 * the transmitter resends from the NAKed PSN, and the tail-loss probe
 * below.  All are soft hrtimers; their work runs under req.lock, as
 * rc_comp.c's.
 *
 * Tail-loss probes.  A lost packet with nothing sent after it draws no
 * sequence NAK: only the retransmission timer finds it, and its timeout
 * is the consumer's (4.096 us << attr.timeout: 67 ms at perftest's 14,
 * about half a second to a second as rdma_cm sets it for RoCE).  On a
 * link that drops now and then, every latency-bound exchange that loses
 * its last packet - one message in flight, the end of a burst - then
 * waits that long.  So, as TCP does (RFC 8985, 7.2-7.3), the requester
 * sends its newest packet again, asking for an ACK, once no ACK has
 * moved it on for a probe timeout (PTO) of twice its smoothed RTT (or
 * the RTT plus four deviations if more), at least rc_tlp_us.  The
 * responder answers a lost tail in order, or a duplicate with the newest
 * PSN it has (IBTA 9.9.2.2), or a gap with a sequence NAK: each moves
 * the requester on as any answer does.  A READ or atomic is probed only
 * when it is all that is in flight: asked again from una_psn (a go-back,
 * rue_req_probe()).  At most RUE_RC_TLP_MAX probes per una_psn, each PTO
 * twice the last, and only while they come well before the RTO; a probe
 * spends none of the QP's retries (retry_cnt) and does not cut the
 * window: it is not a loss.  The wire is unchanged (any responder, rxe
 * and hardware included, answers probes as the duplicates or
 * retransmissions they are).
 */
#include <linux/hrtimer.h>
#include <linux/moduleparam.h>
#include "pkt.h"
#include "rc_comp.h"
#include "rc_req.h"
#include "cc/cc.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/sq.h"
#include "core/stats.h"
#include "net/txq.h"

static unsigned int rc_tlp_us = 1000;
module_param(rc_tlp_us, uint, 0644);
MODULE_PARM_DESC(rc_tlp_us, "RC: tail-loss probe timeout floor in us, 0: no probes (default 1000)");

#define RUE_RC_TLP_MAX		3
/* The PTO before the first RTT sample: a guess of 1 ms. */
#define RUE_RC_SRTT_INIT_NS	(1000 * NSEC_PER_USEC)

/* The RTO of @qp in ns, 0 for none (IBTA 9.7.6.1.3: timeout 0). */
static u64 rue_req_rto_ns(const struct rue_qp *qp)
{
	u8 t = qp->attr.timeout;

	return t ? 4096ULL << min_t(u8, t, 31) : 0;
}

/*
 * Packets went out or an ACK moved una_psn: arm the retransmission
 * timer.  Restarting an hrtimer on every ACK costs more than the rest of
 * the ACK, so the deadline moves instead, and the timer, when it fires
 * early, goes back to sleep until the deadline (and ignores an idle QP).
 * @restart: a full RTO from now (an ACK, or a send after an idle spell);
 * else the deadline stands if the timer is queued.  req.lock held.
 */
void rue_req_arm_rto(struct rue_qp *qp, bool restart)
{
	struct rue_req *req = &qp->req;
	u64 rto = rue_req_rto_ns(qp);

	if (!rto || req->una_psn == req->psn)
		return;
	if (!restart && hrtimer_is_queued(&req->rto_timer))
		return;
	req->rto_deadline = ktime_add_ns(ktime_get(), rto);
	/*
	 * Queued or not, never hrtimer_active(): a callback running on
	 * another CPU may be about to return HRTIMER_NORESTART, and the
	 * packets just sent would have no timer.  Starting the timer while
	 * its callback runs is allowed; the callback, under req.lock like
	 * us, then leaves it alone (rue_req_rto()).
	 */
	if (!hrtimer_is_queued(&req->rto_timer))
		hrtimer_start(&req->rto_timer, req->rto_deadline,
			      HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart rue_req_rto(struct hrtimer *t)
{
	struct rue_qp *qp = container_of(t, struct rue_qp, req.rto_timer);
	struct rue_req *req = &qp->req;
	bool error = false, rewound = false;
	u64 rto;

	spin_lock_bh(&req->lock);
	if (hrtimer_is_queued(t)) {
		/* Started again since it expired (rue_req_arm_rto()). */
		spin_unlock_bh(&req->lock);
		return HRTIMER_NORESTART;
	}
	if (req->una_psn != req->psn && qp->state != IB_QPS_ERR &&
	    ktime_before(ktime_get(), req->rto_deadline)) {
		/* Progress since it was armed: sleep until the new deadline. */
		hrtimer_set_expires(t, req->rto_deadline);
		spin_unlock_bh(&req->lock);
		return HRTIMER_RESTART;
	}
	if ((qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD) &&
	    req->una_psn != req->psn && !req->rnr_wait) {
		rue_stat_inc(qp->rdev, RUE_STAT_RTO_TIMEOUTS);
		if (!req->retry_left) {
			rue_stat_inc(qp->rdev, RUE_STAT_RETRY_EXCEEDED);
			rue_req_fail_oldest(qp, IB_WC_RETRY_EXC_ERR);
			error = rue_sq_retire(qp);
		} else {
			req->retry_left--;
			rue_req_lost(qp, true);
			rue_req_rewind(qp);
			rewound = true;
			/* The resent packets need the timer too. */
			rto = rue_req_rto_ns(qp);
			req->rto_deadline = ktime_add_ns(ktime_get(), rto);
			hrtimer_set_expires(t, req->rto_deadline);
		}
	}
	spin_unlock_bh(&req->lock);

	rue_qp_notify(qp);
	if (error)
		rue_qp_error(qp);
	else if (rewound)
		rue_qp_kick(qp);
	return rewound ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

static enum hrtimer_restart rue_req_rnr_expired(struct hrtimer *t)
{
	struct rue_qp *qp = container_of(t, struct rue_qp, req.rnr_timer);

	spin_lock_bh(&qp->req.lock);
	if (qp->req.rnr_wait) {
		qp->req.rnr_wait = false;
		rue_req_rewind(qp);
	}
	spin_unlock_bh(&qp->req.lock);
	rue_qp_kick(qp);
	return HRTIMER_NORESTART;
}

/* A multi-segment packet met a route that is not local: go back. */
void rue_req_resend(struct rue_qp *qp)
{
	spin_lock_bh(&qp->req.lock);
	if (qp->req.una_psn != qp->req.psn)
		rue_req_rewind(qp);
	spin_unlock_bh(&qp->req.lock);
	rue_qp_kick(qp);
}

/*
 * The next probe's timeout in ns, or 0: no probe is due before the RTO.
 * Twice the smoothed RTT (RFC 8985, 7.2), and no less than the RTT
 * plus four deviations, as QUIC's (RFC 9002, 6.2.1): where the RTT
 * jitters by more than itself (a guest scheduled on a busy host, a
 * loaded responder) 2 x SRTT is often just an answer still on its way,
 * and probing it only doubles the traffic.
 */
static u64 rue_req_pto_ns(const struct rue_qp *qp)
{
	const struct rue_req *req = &qp->req;
	u64 floor = (u64)READ_ONCE(rc_tlp_us) * NSEC_PER_USEC;
	u64 rto = rue_req_rto_ns(qp), srtt, rttvar, pto;

	if (!floor || req->unacked || req->tlp_count >= RUE_RC_TLP_MAX)
		return 0;
	srtt = req->srtt_ns ?: RUE_RC_SRTT_INIT_NS;
	rttvar = req->srtt_ns ? req->rttvar_ns : RUE_RC_SRTT_INIT_NS / 2;
	pto = max3(2 * srtt, srtt + 4 * rttvar, floor);
	pto <<= req->tlp_count;
	/* no later than half the RTO, or it only doubles what the RTO does */
	return !rto || 2 * pto <= rto ? pto : 0;
}

/*
 * Packets went out, or una_psn moved: the probe is due a PTO from now.
 * As with the RTO, the deadline moves and the timer, when it fires
 * early, sleeps until it.  req.lock held.
 */
void rue_req_arm_tlp(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	u64 pto;

	if (req->una_psn == req->psn)
		return;
	pto = rue_req_pto_ns(qp);
	if (!pto)
		return;
	req->tlp_deadline = ktime_add_ns(ktime_get(), pto);
	/* never hrtimer_active(): see rue_req_arm_rto() */
	if (!hrtimer_is_queued(&req->tlp_timer))
		hrtimer_start(&req->tlp_timer, req->tlp_deadline,
			      HRTIMER_MODE_ABS_SOFT);
}

/*
 * The ACK of rtt_psn came @now: an RTT sample, smoothed as RFC 6298
 * (2.2-2.3) does: gains 1/8 for the mean, 1/4 for the deviation.
 * Samples are taken from first transmissions only (Karn's rule: a
 * go-back or a probe forgets the one pending).  req.lock held.
 */
void rue_req_rtt_sample(struct rue_req *req, ktime_t now)
{
	u32 rtt = min_t(u64, ktime_to_ns(ktime_sub(now, req->rtt_start)),
			U32_MAX);
	u32 err;

	req->rtt_pending = false;
	if (!req->srtt_ns) {
		req->srtt_ns = rtt ?: 1;
		req->rttvar_ns = rtt / 2;
		return;
	}
	err = req->srtt_ns > rtt ? req->srtt_ns - rtt : rtt - req->srtt_ns;
	req->rttvar_ns = req->rttvar_ns - (req->rttvar_ns >> 2) + (err >> 2);
	req->srtt_ns = req->srtt_ns - (req->srtt_ns >> 3) + (rtt >> 3);
}

/*
 * Does the device's transmit queue hold @qp's priority (packets queued
 * behind others, or a PFC pause)?  Then what the QP sent may not have
 * left yet, no answer is due, and a probe would only queue behind it:
 * as TCP does not resend what is still in the host's queues.
 */
static bool rue_req_held(struct rue_qp *qp)
{
	struct rue_dev *rdev = qp->rdev;
	u8 p;

	if (READ_ONCE(qp->loop))
		return false;
	rcu_read_lock();
	p = rue_cc_prio(rcu_dereference(rdev->cc), qp->av.tclass);
	rcu_read_unlock();
	return rue_txq_held(&rdev->txq) & BIT(p);
}

/*
 * The tail-loss probe is due: nothing answered what is in
 * flight for a PTO.  Send the newest packet again, asking for an ACK: the
 * transmitter builds it from the WQE it belongs to (sent_cur) and, once
 * it is out, stands where it stood.  Only when nothing is being sent
 * again (psn == sent_psn, the caller checks).  A READ or atomic has no
 * packet of its own to repeat that would not ask for its answer again
 * under its first PSN; one that is all in flight is asked again from
 * una_psn, as a go-back does (and counted as one in retransmits).
 *
 * Return: true if the transmitter has something to send.
 */
static bool rue_req_probe(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	u32 last = rue_psn_add(req->sent_psn, -1), i;
	struct rue_swqe *w = rue_swqe(qp, req->sent_cur);

	req->tlp_count++;
	req->rtt_pending = false;
	if (rue_is_data(w->sqe.opcode) && !w->done &&
	    rue_psn_diff(last, w->first_psn) >= 0 &&
	    rue_psn_diff(last, w->last_psn) <= 0) {
		req->cur = req->sent_cur;
		req->cur_off = rue_psn_diff(last, w->first_psn) * qp->mtu;
		req->psn = last;
		req->tlp_ackreq = true;
	} else if (rue_req_oldest_at(qp, &i) && i == req->sent_cur &&
		   rue_is_read_or_atomic(w->sqe.opcode)) {
		rue_req_rewind(qp);
	} else {
		return false;
	}
	rue_stat_inc(qp->rdev, RUE_STAT_TLP_PROBES);
	return true;
}

static enum hrtimer_restart rue_req_tlp(struct hrtimer *t)
{
	struct rue_qp *qp = container_of(t, struct rue_qp, req.tlp_timer);
	struct rue_req *req = &qp->req;
	bool probe = false;

	spin_lock_bh(&req->lock);
	if (hrtimer_is_queued(t)) {
		/* Started again since it expired (rue_req_arm_tlp()). */
		spin_unlock_bh(&req->lock);
		return HRTIMER_NORESTART;
	}
	/* In flight, nothing being sent again, no RNR wait, probes left. */
	if ((qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD) ||
	    req->una_psn == req->psn || req->psn != req->sent_psn ||
	    req->rnr_wait || !rue_req_pto_ns(qp))
		goto out;
	if (rue_req_held(qp))		/* again a PTO later */
		req->tlp_deadline = ktime_add_ns(ktime_get(),
						 rue_req_pto_ns(qp));
	if (ktime_before(ktime_get(), req->tlp_deadline)) {
		hrtimer_set_expires(t, req->tlp_deadline);
		spin_unlock_bh(&req->lock);
		return HRTIMER_RESTART;
	}
	probe = rue_req_probe(qp);
out:
	spin_unlock_bh(&req->lock);
	if (probe)
		rue_qp_kick(qp);
	return HRTIMER_NORESTART;
}

void rue_req_init(struct rue_qp *qp)
{
	hrtimer_init(&qp->req.rto_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->req.rto_timer.function = rue_req_rto;
	hrtimer_init(&qp->req.rnr_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	qp->req.rnr_timer.function = rue_req_rnr_expired;
	hrtimer_init(&qp->req.tlp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->req.tlp_timer.function = rue_req_tlp;
}

/* Stop the timers for good; the QP is going away or to RESET/ERR. */
void rue_req_stop(struct rue_qp *qp)
{
	hrtimer_cancel(&qp->req.rto_timer);
	hrtimer_cancel(&qp->req.rnr_timer);
	hrtimer_cancel(&qp->req.tlp_timer);
}
