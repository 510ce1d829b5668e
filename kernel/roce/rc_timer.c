// SPDX-License-Identifier: GPL-2.0
/*
 * RC requester, what times out: the retransmission timer (IBTA vol 1,
 * 9.7.6.1.3), which goes back to the oldest incomplete WQE or fails it
 * when the retries are spent, and the RNR timer (9.7.5.2.8), after which
 * the transmitter resends from the NAKed PSN.  Both are soft hrtimers;
 * their work runs under req.lock, as rc_comp.c's.
 */
#include <linux/hrtimer.h>
#include "rc_comp.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/sq.h"
#include "core/stats.h"

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
			rto = 4096ULL << min_t(u8, qp->attr.timeout, 31);
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

void rue_req_init(struct rue_qp *qp)
{
	hrtimer_init(&qp->req.rto_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->req.rto_timer.function = rue_req_rto;
	hrtimer_init(&qp->req.rnr_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	qp->req.rnr_timer.function = rue_req_rnr_expired;
}

/* Stop the timers for good; the QP is going away or to RESET/ERR. */
void rue_req_stop(struct rue_qp *qp)
{
	hrtimer_cancel(&qp->req.rto_timer);
	hrtimer_cancel(&qp->req.rnr_timer);
}
